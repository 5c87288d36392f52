--
-- A central history on Citus: the DBA makes scan_history a table
-- distributed by server, so that a fleet's night spreads over the
-- worker nodes, and every summary that concerns one server (the judge,
-- its window, one server's trend) reads one shard.  Its months stay
-- months: each is distributed with it, and those made later are
-- distributed as they are made.  Each month's key becomes (server, id), as
-- Citus asks a key to hold the distribution column, on every node (each
-- has the extension's own table, which becomes the table's shell there);
-- run numbers are still found by id through an index of their own.  A
-- distributed history has no run without a server: the database's own
-- runs (efficiency_check, record => true) are refused there.
--
CREATE FUNCTION scan_history_distribute(shard_count integer DEFAULT 32)
RETURNS bigint
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	own bigint;
	runs bigint;
	failed text;
	p record;
	home_name name;
	drop_triggers text;
BEGIN
	IF shard_count IS NULL OR shard_count < 1 OR shard_count > 64000 THEN
		RAISE EXCEPTION 'shard_count must be from 1 to 64000, not %', coalesce(shard_count::text, 'NULL')
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'A few shards a worker node, and more for nodes to come: 32 (the default) suits up to eight nodes.';
	END IF;
	IF NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') THEN
		RAISE EXCEPTION 'scan_history can be distributed only on a Citus coordinator'
			USING ERRCODE = 'feature_not_supported',
				  DETAIL = 'The citus extension is not created in this database.',
				  HINT = 'On one server the history needs nothing more. On a Citus cluster, CREATE EXTENSION citus and add the worker nodes first.';
	END IF;
	IF scanbench_internal.scan_history_distributed() THEN
		RAISE EXCEPTION 'scan_history is distributed already'
			USING ERRCODE = 'object_not_in_prerequisite_state',
				  HINT = 'Its shards: SELECT * FROM citus_shards WHERE table_name = ''scan_history''::regclass;';
	END IF;
	SELECT count(*), count(*) FILTER (WHERE h.server IS NULL) INTO runs, own
	FROM @extschema@.scan_history h;
	IF own > 0 THEN
		RAISE EXCEPTION 'scan_history holds % runs of this database''s own, with no server', own
			USING ERRCODE = 'object_not_in_prerequisite_state',
				  DETAIL = 'A distributed history keeps each run with the server it was measured on (column server); runs recorded here by efficiency_check or record => true have none.',
				  HINT = 'Name their server (UPDATE scan_history SET server = ''coordinator'' WHERE server IS NULL) or delete them, then call it again.';
	END IF;

	-- The key on every node first: the workers' tables become the shells
	-- of the distributed one and keep their own key otherwise.  A worker's
	-- history has its default partition only, in a schema of the same name.
	-- Citus distributes no table with statement triggers: those that keep
	-- scan_history_series go, on every node, and the metrics read the
	-- history itself (scanbench_internal.scan_history_series_kept()).
	SELECT n.nspname INTO STRICT home_name
	FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
	WHERE c.oid = '@extschema@.scan_history'::regclass;
	SELECT string_agg(format('DROP TRIGGER IF EXISTS %I ON %I.scan_history; ', t.tgname, home_name), '')
	INTO drop_triggers
	FROM unnest(ARRAY['scan_history_series_insert', 'scan_history_series_update',
					  'scan_history_series_delete', 'scan_history_series_truncate']) AS t(tgname);
	SELECT string_agg(format('%s:%s: %s', r.nodename, r.nodeport, r.result), '; ') INTO failed
	FROM run_command_on_workers(format(
		'ALTER TABLE %1$I.scan_history_default DROP CONSTRAINT scan_history_default_pkey, '
		'ADD CONSTRAINT scan_history_default_pkey PRIMARY KEY (server, id); '
		'CREATE INDEX scan_history_default_id_idx ON %1$I.scan_history_default (id); %2$s',
		home_name, drop_triggers)) AS r
	WHERE NOT r.success;
	IF failed IS NOT NULL THEN
		RAISE EXCEPTION 'scan_history could not be keyed by server on every node'
			USING ERRCODE = 'object_not_in_prerequisite_state',
				  DETAIL = failed,
				  HINT = 'scanbench must be created on every node (CREATE EXTENSION on the coordinator does it), and a worker''s own history empty.';
	END IF;
	FOR p IN SELECT m.part, c.relname FROM scanbench_internal.scan_history_months() m
			 JOIN pg_class c ON c.oid = m.part LOOP
		EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I, ADD CONSTRAINT %I PRIMARY KEY (server, id)',
					   p.part, p.relname || '_pkey', p.relname || '_pkey');
		EXECUTE format('CREATE INDEX %I ON %s (id)', p.relname || '_id_idx', p.part);
	END LOOP;
	EXECUTE drop_triggers;
	TRUNCATE @extschema@.scan_history_series;
	PERFORM create_distributed_table('@extschema@.scan_history'::regclass, 'server',
									 colocate_with => 'none', shard_count => shard_count);
	IF runs > 0 THEN
		-- The rows were copied into the shards; the coordinator's copy goes.
		PERFORM truncate_local_data_after_distributing_table('@extschema@.scan_history'::regclass);
	END IF;
	RETURN runs;
END
$$;

COMMENT ON FUNCTION scan_history_distribute(integer) IS
'on a Citus coordinator: make scan_history a table distributed by server in shard_count shards, each month keyed by (server, id), its runs moved into the shards; every query of the judge, the trend and the metrics then reads one server''s runs on its shard; refused without Citus, when distributed already, or while it holds runs with no server; returns the runs moved';

REVOKE ALL ON FUNCTION scan_history_distribute(integer) FROM PUBLIC;

