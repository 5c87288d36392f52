--
-- ==== The workload: each query's reads against this storage ====
--
-- pg_stat_statements keeps, per query, the blocks it read and, with
-- track_io_timing, the time it waited for them; pg_stat_io (16 on) the
-- same per kind of process and I/O context, for the whole cluster.
-- workload_snapshot keeps a copy of both here; workload_reads gives each
-- query's reads between two snapshots (or a snapshot and now): bytes over
-- the time waited for them, held against this storage's measured
-- references (workload_references: the newest page_costs and cold
-- scan_efficiency runs of the histories), with a verdict.  workload_io
-- does the same for pg_stat_io's rows.
--
-- scanbench does not depend on pg_stat_statements: it is looked for when
-- its counters are read, in the schema its extension was made in
-- (pg_extension), and every call to it is qualified with that schema.
-- Its view's columns differ by version (blk_read_time to 16,
-- shared_blk_read_time from 17; pg_stat_io's bytes from 18): that is
-- known in one place, scanbench_internal.workload_statements_now and
-- workload_io_now, which read the view's own columns.
--
-- The snapshots, the references and the report are for monitoring
-- (pg_monitor may read and run them); taking a snapshot writes, and stays
-- with the superuser unless granted (doc/workload.md).
--
CREATE SEQUENCE workload_snapshot_id_seq;

CREATE TABLE workload_snapshots (
	snapshot			bigint NOT NULL,
	taken_at			timestamptz NOT NULL,
	userid				oid NOT NULL,
	dbid				oid NOT NULL,
	toplevel			boolean NOT NULL,
	queryid				bigint NOT NULL,
	calls				bigint NOT NULL,
	exec_s				float8 NOT NULL,
	rows				bigint,
	blocks_read			bigint NOT NULL,
	blocks_hit			bigint NOT NULL,
	read_wait_s			float8 NOT NULL,
	track_io_timing		boolean NOT NULL,
	stats_since			timestamptz,
	stats_reset			timestamptz,
	query				text,
	PRIMARY KEY (snapshot, dbid, userid, toplevel, queryid),
	CONSTRAINT workload_snapshots_counts_check CHECK (calls OPERATOR(pg_catalog.>=) 0::pg_catalog.int8 AND
		blocks_read OPERATOR(pg_catalog.>=) 0::pg_catalog.int8 AND blocks_hit OPERATOR(pg_catalog.>=) 0::pg_catalog.int8 AND
		(exec_s OPERATOR(pg_catalog.>=) 0::pg_catalog.float8 AND exec_s OPERATOR(pg_catalog.<) 'Infinity'::pg_catalog.float8) AND
		(read_wait_s OPERATOR(pg_catalog.>=) 0::pg_catalog.float8 AND read_wait_s OPERATOR(pg_catalog.<) 'Infinity'::pg_catalog.float8))
);

CREATE TABLE workload_io_snapshots (
	snapshot			bigint NOT NULL,
	taken_at			timestamptz NOT NULL,
	backend_type		text NOT NULL,
	object				text NOT NULL,
	context				text NOT NULL,
	reads				bigint NOT NULL,
	bytes_read			bigint NOT NULL,
	read_wait_s			float8 NOT NULL,
	hits				bigint,
	track_io_timing		boolean NOT NULL,
	stats_reset			timestamptz,
	PRIMARY KEY (snapshot, backend_type, object, context),
	CONSTRAINT workload_io_snapshots_counts_check CHECK (reads OPERATOR(pg_catalog.>=) 0::pg_catalog.int8 AND
		bytes_read OPERATOR(pg_catalog.>=) 0::pg_catalog.int8 AND
		(read_wait_s OPERATOR(pg_catalog.>=) 0::pg_catalog.float8 AND read_wait_s OPERATOR(pg_catalog.<) 'Infinity'::pg_catalog.float8))
);
ALTER SEQUENCE workload_snapshot_id_seq OWNED BY workload_snapshots.snapshot;

SELECT pg_catalog.pg_extension_config_dump('workload_snapshots', '');
SELECT pg_catalog.pg_extension_config_dump('workload_io_snapshots', '');
SELECT pg_catalog.pg_extension_config_dump('workload_snapshot_id_seq', '');

COMMENT ON TABLE workload_snapshots IS
'pg_stat_statements'' counters as workload_snapshot found them, a row per statement; workload_reads subtracts two snapshots; kept by pg_dump';
COMMENT ON COLUMN workload_snapshots.snapshot IS 'the snapshot''s number, as workload_snapshot returned it; increasing';
COMMENT ON COLUMN workload_snapshots.taken_at IS 'when the snapshot was taken';
COMMENT ON COLUMN workload_snapshots.userid IS 'pg_stat_statements.userid: the role that ran the statement';
COMMENT ON COLUMN workload_snapshots.dbid IS 'pg_stat_statements.dbid: the database it ran in';
COMMENT ON COLUMN workload_snapshots.toplevel IS 'pg_stat_statements.toplevel: run by the client, not inside a function (true where the view has no such column)';
COMMENT ON COLUMN workload_snapshots.queryid IS 'pg_stat_statements.queryid: the statement''s normalised form';
COMMENT ON COLUMN workload_snapshots.calls IS 'times it ran, since pg_stat_statements began counting it';
COMMENT ON COLUMN workload_snapshots.exec_s IS 'seconds it ran, planning left out (total_exec_time); parallel workers'' time is not in it';
COMMENT ON COLUMN workload_snapshots.rows IS 'rows it returned or changed';
COMMENT ON COLUMN workload_snapshots.blocks_read IS 'shared and local blocks it read from outside shared_buffers (shared_blks_read + local_blks_read)';
COMMENT ON COLUMN workload_snapshots.blocks_hit IS 'shared and local blocks it found in shared_buffers';
COMMENT ON COLUMN workload_snapshots.read_wait_s IS 'seconds it waited for those reads, its parallel workers'' waits added: blk_read_time to PostgreSQL 16, shared_blk_read_time + local_blk_read_time from 17; 0 while track_io_timing is off';
COMMENT ON COLUMN workload_snapshots.track_io_timing IS 'track_io_timing in the session that took the snapshot: off, no read is timed';
COMMENT ON COLUMN workload_snapshots.stats_since IS 'when pg_stat_statements began counting this statement (PostgreSQL 17 on; NULL before): a later one means its counters started again';
COMMENT ON COLUMN workload_snapshots.stats_reset IS 'pg_stat_statements_info.stats_reset: when all its counters were last reset';
COMMENT ON COLUMN workload_snapshots.query IS 'the statement''s text, constants replaced; NULL where the role that took the snapshot may not see it';

COMMENT ON TABLE workload_io_snapshots IS
'pg_stat_io''s read counters of relations as workload_snapshot found them (PostgreSQL 16 on), a row per kind of process, object and I/O context; workload_io subtracts two snapshots; kept by pg_dump';
COMMENT ON COLUMN workload_io_snapshots.snapshot IS 'the snapshot''s number, as workload_snapshot returned it';
-- @comments workload_io_snapshots FROM workload_snapshots: taken_at
COMMENT ON COLUMN workload_io_snapshots.backend_type IS 'pg_stat_io.backend_type: client backend, autovacuum worker, io worker, ...';
COMMENT ON COLUMN workload_io_snapshots.object IS 'pg_stat_io.object: relation or temp relation';
COMMENT ON COLUMN workload_io_snapshots.context IS 'pg_stat_io.context: normal, bulkread (the ring of a large sequential scan), bulkwrite or vacuum';
COMMENT ON COLUMN workload_io_snapshots.reads IS 'read operations; from 18 one may read several blocks (io_combine_limit)';
COMMENT ON COLUMN workload_io_snapshots.bytes_read IS 'bytes read: read_bytes from PostgreSQL 18, reads x op_bytes in 16 and 17';
COMMENT ON COLUMN workload_io_snapshots.read_wait_s IS 'seconds waited for the reads (read_time); 0 while track_io_timing is off';
COMMENT ON COLUMN workload_io_snapshots.hits IS 'blocks found in shared_buffers';
COMMENT ON COLUMN workload_io_snapshots.track_io_timing IS 'track_io_timing in the session that took the snapshot';
COMMENT ON COLUMN workload_io_snapshots.stats_reset IS 'pg_stat_io.stats_reset: when the row''s counters were last reset';

REVOKE ALL ON TABLE workload_snapshots FROM PUBLIC;
REVOKE ALL ON TABLE workload_io_snapshots FROM PUBLIC;
REVOKE ALL ON SEQUENCE workload_snapshot_id_seq FROM PUBLIC;
GRANT SELECT ON TABLE workload_snapshots TO pg_monitor;
GRANT SELECT ON TABLE workload_io_snapshots TO pg_monitor;

-- pg_stat_statements' counters now, in the snapshot's columns: the one
-- place that knows the view's versions, read from the view's own columns
-- (an extension not updated after pg_upgrade keeps its older view).  A
-- statement whose queryid the caller may not see is left out.
CREATE FUNCTION scanbench_internal.workload_statements_now(OUT userid oid, OUT dbid oid,
	OUT toplevel boolean, OUT queryid bigint, OUT calls bigint, OUT exec_s float8,
	OUT rows bigint, OUT blocks_read bigint, OUT blocks_hit bigint, OUT read_wait_s float8,
	OUT track_io_timing boolean, OUT stats_since timestamptz, OUT stats_reset timestamptz,
	OUT query text)
RETURNS SETOF record
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	nsp name;
	nsp_oid oid;
	cols name[];
	has_info boolean;
	stmt text;
BEGIN
	SELECT n.nspname, n.oid INTO nsp, nsp_oid
	FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
	WHERE e.extname = 'pg_stat_statements';
	IF NOT FOUND THEN
		RAISE EXCEPTION 'pg_stat_statements is not installed in this database'
			USING ERRCODE = 'object_not_in_prerequisite_state',
				  DETAIL = 'The workload''s reads per query are pg_stat_statements'' counters.',
				  HINT = 'Add pg_stat_statements to shared_preload_libraries and restart the server, then run CREATE EXTENSION pg_stat_statements in this database; track_io_timing = on times the reads.';
	END IF;
	SELECT array_agg(a.attname) INTO cols
	FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid
	WHERE c.relnamespace = nsp_oid AND c.relname = 'pg_stat_statements'
	  AND a.attnum > 0 AND NOT a.attisdropped;
	has_info := EXISTS (SELECT 1 FROM pg_class c
						WHERE c.relnamespace = nsp_oid AND c.relname = 'pg_stat_statements_info');
	stmt := format(
		'SELECT s.userid, s.dbid, %s, s.queryid, s.calls, (%s) / 1000, s.rows, '
		's.shared_blks_read + s.local_blks_read, s.shared_blks_hit + s.local_blks_hit, '
		'(%s) / 1000, current_setting(''track_io_timing'')::boolean, %s, %s, s.query '
		'FROM %I.pg_stat_statements s WHERE s.queryid IS NOT NULL',
		CASE WHEN 'toplevel' = ANY (cols) THEN 's.toplevel' ELSE 'true' END,
		CASE WHEN 'total_exec_time' = ANY (cols) THEN 's.total_exec_time' ELSE 's.total_time' END,
		CASE WHEN 'shared_blk_read_time' = ANY (cols)
			 THEN 's.shared_blk_read_time + s.local_blk_read_time'
			 ELSE 's.blk_read_time' END,
		CASE WHEN 'stats_since' = ANY (cols) THEN 's.stats_since' ELSE 'NULL::timestamptz' END,
		CASE WHEN has_info THEN format('(SELECT i.stats_reset FROM %I.pg_stat_statements_info i)', nsp)
			 ELSE 'NULL::timestamptz' END,
		nsp);
	BEGIN
		RETURN QUERY EXECUTE stmt;
	EXCEPTION WHEN object_not_in_prerequisite_state THEN
		RAISE EXCEPTION 'pg_stat_statements is installed in this database but not loaded'
			USING ERRCODE = 'object_not_in_prerequisite_state',
				  HINT = 'Add pg_stat_statements to shared_preload_libraries (keeping the libraries already there) and restart the server.';
	END;
END
$$;

COMMENT ON FUNCTION scanbench_internal.workload_statements_now() IS
'pg_stat_statements'' counters now, one row per statement, in workload_snapshots'' columns: found in the schema of its extension; refused with the command that makes it ready when it is not installed or not loaded';

REVOKE ALL ON FUNCTION scanbench_internal.workload_statements_now() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION scanbench_internal.workload_statements_now() TO pg_monitor;

-- pg_stat_io's reads of relations now (none before 16): 18 counts the
-- bytes, 16 and 17 reads of op_bytes each.
CREATE FUNCTION scanbench_internal.workload_io_now(OUT backend_type text, OUT object text,
	OUT context text, OUT reads bigint, OUT bytes_read bigint, OUT read_wait_s float8,
	OUT hits bigint, OUT track_io_timing boolean, OUT stats_reset timestamptz)
RETURNS SETOF record
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	cols name[];
BEGIN
	SELECT array_agg(a.attname) INTO cols
	FROM pg_attribute a
	WHERE a.attrelid = to_regclass('pg_catalog.pg_stat_io') AND a.attnum > 0;
	IF cols IS NULL THEN
		RETURN;
	END IF;
	RETURN QUERY EXECUTE format(
		'SELECT i.backend_type, i.object, i.context, i.reads, (%s)::bigint, '
		'coalesce(i.read_time, 0) / 1000, i.hits, current_setting(''track_io_timing'')::boolean, '
		'i.stats_reset FROM pg_catalog.pg_stat_io i '
		'WHERE i.object IN (''relation'', ''temp relation'') AND i.reads IS NOT NULL',
		CASE WHEN 'read_bytes' = ANY (cols) THEN 'i.read_bytes' ELSE 'i.reads * i.op_bytes' END);
END
$$;

COMMENT ON FUNCTION scanbench_internal.workload_io_now() IS
'pg_stat_io''s reads of relations now, in workload_io_snapshots'' columns; no row before PostgreSQL 16';

REVOKE ALL ON FUNCTION scanbench_internal.workload_io_now() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION scanbench_internal.workload_io_now() TO pg_monitor;

-- @index 210 | `workload_snapshot()`, `workload_reads(from, to)`, `workload_references_measure()` | each query's reads against this storage's measured rates, measured where missing ([more](doc/workload.md)) |
CREATE FUNCTION workload_snapshot()
RETURNS bigint
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	id bigint;
	statements bigint;
BEGIN
	id := nextval('@extschema@.workload_snapshot_id_seq'::regclass);
	INSERT INTO @extschema@.workload_snapshots (snapshot, taken_at, userid, dbid,
		toplevel, queryid, calls, exec_s, rows, blocks_read, blocks_hit,
		read_wait_s, track_io_timing, stats_since, stats_reset, query)
	SELECT id, now(), s.userid, s.dbid, s.toplevel, s.queryid, s.calls,
		s.exec_s, s.rows, s.blocks_read, s.blocks_hit, s.read_wait_s,
		s.track_io_timing, s.stats_since, s.stats_reset, s.query
	FROM scanbench_internal.workload_statements_now() s;
	GET DIAGNOSTICS statements = ROW_COUNT;
	INSERT INTO @extschema@.workload_io_snapshots (snapshot, taken_at, backend_type,
		object, context, reads, bytes_read, read_wait_s, hits, track_io_timing,
		stats_reset)
	SELECT id, now(), i.backend_type, i.object, i.context, i.reads,
		i.bytes_read, i.read_wait_s, i.hits, i.track_io_timing, i.stats_reset
	FROM scanbench_internal.workload_io_now() i;
	IF statements = 0 THEN
		RAISE NOTICE 'pg_stat_statements holds no statement this role may see: snapshot % has none', id;
	END IF;
	IF NOT current_setting('track_io_timing')::boolean THEN
		RAISE NOTICE 'track_io_timing is off: no read is timed, and workload_reads can give no read rate'
			USING HINT = 'ALTER SYSTEM SET track_io_timing = on; SELECT pg_reload_conf();  (pg_test_timing shows what a timing costs on this server)';
	END IF;
	RETURN id;
END
$$;

COMMENT ON FUNCTION workload_snapshot() IS
'copy pg_stat_statements'' counters (and pg_stat_io''s, PostgreSQL 16 on) into workload_snapshots; returns the snapshot''s number, for workload_reads';

REVOKE ALL ON FUNCTION workload_snapshot() FROM PUBLIC;

CREATE TYPE workload_references_result AS (
	reference			text,
	mb_s				float8,
	block_us			float8,
	depth				integer,
	tablespace			text,
	source				text,
	measured_at			timestamptz,
	age					interval
);

COMMENT ON TYPE workload_references_result IS 'one rate this storage was measured to give, which workload_reads holds queries against';
COMMENT ON COLUMN workload_references_result.reference IS 'sequential (read in order, read-ahead as a sequential scan gets it), random (8 kB at random, one at a time: an index scan''s), random_at_depth (at effective_io_concurrency: a bitmap heap scan''s) or page_cache (a page from the page cache)';
COMMENT ON COLUMN workload_references_result.mb_s IS 'the rate, MB/s (10^6 bytes), to 0.1';
COMMENT ON COLUMN workload_references_result.block_us IS 'microseconds a block (block_size) takes at that rate';
COMMENT ON COLUMN workload_references_result.depth IS 'reads in flight: 1 for random; for random_at_depth the depth measured nearest at or below the tablespace''s effective_io_concurrency (no such row where that is 0 or 1); NULL for sequential (as read-ahead keeps it) and page_cache';
COMMENT ON COLUMN workload_references_result.tablespace IS 'the tablespace measured; NULL where the run does not say (scan_history)';
COMMENT ON COLUMN workload_references_result.source IS 'the run it comes from: page_costs_history (seq_page_us, random_page_us, depth_pages_s, cached_page_us) or scan_history (a cold run''s read_mb_s), with its number and table';
COMMENT ON COLUMN workload_references_result.measured_at IS 'when that run was measured';
COMMENT ON COLUMN workload_references_result.age IS 'how long ago, to the second';

-- The newest run of each source that measured the storage itself: a
-- page_costs run (its page times are cold whatever the caches held
-- before), a cold scan_efficiency run of this server that no cache below
-- it served (not cached, host_cache or burst).  Sequential comes from the
-- newer of the two.
CREATE FUNCTION workload_references()
RETURNS SETOF workload_references_result
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
WITH blk AS (
	SELECT current_setting('block_size')::float8 AS b
), pc AS (
	SELECT h.id, h.measured_at, h.relschema, h.relname, h.tablespace,
		h.seq_page_us, h.random_page_us, h.cached_page_us, h.depths, h.depth_pages_s
	FROM @extschema@.page_costs_history h
	WHERE h.seq_page_us > 0 AND h.random_page_us > 0
	ORDER BY h.measured_at DESC, h.id DESC
	LIMIT 1
), sh AS (
	SELECT h.id, h.measured_at, h.relschema, h.relname, h.read_mb_s
	FROM @extschema@.scan_history h
	WHERE h.server IS NULL AND h.reason IS NULL AND h.cache = 'cold' AND h.read_mb_s > 0
	  AND NOT coalesce(h.verdict && '{cached,host_cache,burst}'::text[], false)
	ORDER BY h.measured_at DESC, h.id DESC
	LIMIT 1
), eic AS (
	-- the depth a bitmap heap scan of that tablespace keeps now
	SELECT greatest(1, coalesce(
		(SELECT o.option_value::integer
		 FROM pg_tablespace t, pg_options_to_table(t.spcoptions) o
		 WHERE t.spcname = pc.tablespace AND o.option_name = 'effective_io_concurrency'),
		current_setting('effective_io_concurrency')::integer)) AS depth
	FROM pc
), refs AS (
	SELECT * FROM (
		SELECT 1 AS ord, 'sequential' AS reference, s.mb_s, NULL::integer AS depth,
			s.tablespace, s.source, s.measured_at
		FROM (SELECT sh.read_mb_s AS mb_s, NULL::text AS tablespace,
					 format('scan_history %s: %I.%I, cold', sh.id, sh.relschema, sh.relname) AS source,
					 sh.measured_at
			  FROM sh
			  UNION ALL
			  SELECT blk.b / pc.seq_page_us, pc.tablespace,
					 format('page_costs_history %s: %I.%I', pc.id, pc.relschema, pc.relname),
					 pc.measured_at
			  FROM pc, blk) s
		ORDER BY s.measured_at DESC
		LIMIT 1) seq
	UNION ALL
	SELECT 2, 'random', blk.b / pc.random_page_us, 1, pc.tablespace,
		format('page_costs_history %s: %I.%I', pc.id, pc.relschema, pc.relname), pc.measured_at
	FROM pc, blk
	UNION ALL
	SELECT 3, 'random_at_depth', d.pages_s * blk.b / 1e6, d.depth, pc.tablespace,
		format('page_costs_history %s: %I.%I', pc.id, pc.relschema, pc.relname), pc.measured_at
	FROM pc, blk, eic,
		LATERAL (SELECT x.depth, x.pages_s
				 FROM unnest(pc.depths, pc.depth_pages_s) AS x(depth, pages_s)
				 WHERE x.depth > 1 AND x.depth <= eic.depth AND x.pages_s > 0
				 ORDER BY x.depth DESC
				 LIMIT 1) d
	UNION ALL
	SELECT 4, 'page_cache', blk.b / pc.cached_page_us, NULL, pc.tablespace,
		format('page_costs_history %s: %I.%I', pc.id, pc.relschema, pc.relname), pc.measured_at
	FROM pc, blk
	WHERE pc.cached_page_us > 0
)
SELECT r.reference, round(r.mb_s::numeric, 1)::float8,
	round((blk.b / r.mb_s)::numeric, 2)::float8, r.depth, r.tablespace, r.source,
	r.measured_at, date_trunc('second', now() - r.measured_at)
FROM refs r, blk
ORDER BY r.ord
$$;

COMMENT ON FUNCTION workload_references() IS
'the rates this storage was measured to give, from the newest runs in the histories: sequential (page_costs'' seq_page_us, or a cold scan_efficiency run''s read_mb_s, whichever is newer), random 8 kB at depth 1 and at the tablespace''s effective_io_concurrency (page_costs), a page from the page cache (page_costs); none until page_costs_check or efficiency_check has recorded a run';

REVOKE ALL ON FUNCTION workload_references() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION workload_references() TO pg_monitor;

-- workload_references_measure gives the same rows, measuring them first
-- where none is recorded or the newest is older than max_age: a page_costs
-- run of a table of the workload's storage, recorded, within a budget.  It
-- reads server files and writes the history: the superuser's, as
-- page_costs and page_costs_record are.
CREATE FUNCTION workload_references_measure(rel regclass DEFAULT NULL,
											max_seconds float8 DEFAULT 60,
											max_age interval DEFAULT '30 days')
RETURNS SETOF workload_references_result
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	missing text;
	newest timestamptz;
	target regclass := rel;
	run bigint;
	t0 timestamptz;
BEGIN
	missing := CASE WHEN max_seconds IS NULL THEN 'max_seconds'
				WHEN max_age IS NULL THEN 'max_age' END;
	IF missing IS NOT NULL THEN
		RAISE EXCEPTION '% must not be NULL', missing
			USING ERRCODE = 'null_value_not_allowed',
				  HINT = 'Leave the argument out for its default.';
	END IF;
	-- NaN sorts above every number: it fails the upper bound.
	IF NOT (max_seconds > 0 AND max_seconds <= 604800) THEN
		RAISE EXCEPTION 'max_seconds must be above 0 and at most 604800 (a week), not %', max_seconds
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF max_age < interval '0' THEN
		RAISE EXCEPTION 'max_age must not be negative, not %', max_age
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'interval ''0'' measures again whatever the age of the references.';
	END IF;

	-- The references are page_costs' rates (workload_references): fresh
	-- enough, nothing is measured and nothing is evicted.
	SELECT max(h.measured_at) INTO newest
	FROM @extschema@.page_costs_history h
	WHERE h.seq_page_us > 0 AND h.random_page_us > 0;
	IF newest IS NOT NULL AND now() - newest <= max_age THEN
		RAISE NOTICE 'the storage''s references were measured % ago, within max_age (%): nothing measured',
			date_trunc('second', now() - newest), max_age;
		RETURN QUERY SELECT * FROM @extschema@.workload_references();
		RETURN;
	END IF;

	-- What would make recording fail after the measurement: said first.
	IF pg_is_in_recovery() OR current_setting('transaction_read_only') = 'on' THEN
		RAISE EXCEPTION 'workload_references_measure cannot record a run in a read-only transaction'
			USING ERRCODE = 'read_only_sql_transaction',
				  HINT = 'Measure on the primary: the references are kept in page_costs_history.';
	END IF;
	IF NOT has_table_privilege('@extschema@.page_costs_history', 'INSERT')
	   OR NOT has_sequence_privilege('@extschema@.page_costs_history_id_seq', 'USAGE') THEN
		RAISE EXCEPTION 'permission denied for table page_costs_history'
			USING ERRCODE = 'insufficient_privilege';
	END IF;

	-- Without a table named, the largest plain table of 10 MB or more the
	-- caller may read (page_costs needs that much for its rounds), not one
	-- of an extension's own (the histories).
	IF target IS NULL THEN
		SELECT c.oid::regclass INTO target
		FROM pg_class c
		JOIN pg_namespace n ON n.oid = c.relnamespace
		WHERE c.relkind = 'r' AND c.relpersistence = 'p'
		  AND n.nspname NOT IN ('pg_catalog', 'information_schema')
		  AND NOT EXISTS (SELECT 1 FROM pg_depend d
						  WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid
							AND d.deptype = 'e')
		  AND pg_relation_size(c.oid) >= 10 * 1024 * 1024
		  AND has_table_privilege(c.oid, 'SELECT')
		ORDER BY pg_relation_size(c.oid) DESC, c.oid
		LIMIT 1;
		IF target IS NULL THEN
			RAISE EXCEPTION 'no table of 10 MB or more to measure the storage with'
				USING ERRCODE = 'object_not_in_prerequisite_state',
					  HINT = 'Name one on the storage the workload reads: workload_references_measure(rel => ''...'').';
		END IF;
	END IF;

	t0 := clock_timestamp();
	run := @extschema@.page_costs_record(@extschema@.page_costs(target, max_seconds));
	RAISE NOTICE 'measured the page costs of % in % s: page_costs_history run %',
		target, round(extract(epoch FROM clock_timestamp() - t0)::numeric, 1), run;
	RETURN QUERY SELECT * FROM @extschema@.workload_references();
END
$$;

COMMENT ON FUNCTION workload_references_measure(regclass, float8, interval) IS
'the rates this storage was measured to give (workload_references), measured first when no page_costs run is recorded or the newest is older than max_age: page_costs of rel (default the largest table of 10 MB or more the caller may read) within max_seconds (s), recorded in page_costs_history';

REVOKE ALL ON FUNCTION workload_references_measure(regclass, float8, interval) FROM PUBLIC;

-- The judge of one query's (or one pg_stat_io row's) reads: the reference
-- nearest its rate, whether the page cache served them, whether the reads
-- or the rest of the query took its time.  Literal inputs, no table read:
-- sql/workload.sql tests each rule.
CREATE FUNCTION scanbench_internal.workload_judge(bytes_read bigint, read_mb_s float8,
	read_wait_pct float8, sequential_mb_s float8, random_mb_s float8,
	random_at_depth_mb_s float8, page_cache_mb_s float8,
	OUT reference text, OUT reference_mb_s float8, OUT verdict text[], OUT note text)
LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	-- faster than every device reference by this much: not from the device
	cache_ratio constant float8 := 2;
	-- reads waited for this share of the query's time or more: the reads
	-- held it back (from the page cache too: shared_buffers did not hold
	-- what it reads)
	bound_pct constant float8 := 50;
BEGIN
	IF coalesce(bytes_read, 0) = 0 THEN
		verdict := '{no_reads}';
		note := 'no block was read from outside shared_buffers';
		RETURN;
	END IF;
	IF read_mb_s IS NULL THEN
		verdict := '{no_read_timing}';
		note := 'blocks were read but their wait was not timed: track_io_timing was off where they ran or when a snapshot was taken (ALTER SYSTEM SET track_io_timing = on; SELECT pg_reload_conf(); pg_test_timing shows what a timing costs on this server), then take a new snapshot';
		RETURN;
	END IF;
	verdict := '{}';
	SELECT r.name, r.mb_s INTO reference, reference_mb_s
	FROM (VALUES (1, 'sequential', sequential_mb_s), (2, 'random', random_mb_s),
				 (3, 'random_at_depth', random_at_depth_mb_s),
				 (4, 'page_cache', page_cache_mb_s)) AS r(ord, name, mb_s)
	WHERE r.mb_s > 0
	ORDER BY abs(ln(read_mb_s / r.mb_s)), r.ord
	LIMIT 1;
	IF reference IS NULL THEN
		verdict := verdict || 'no_reference'::text;
		note := 'no rate of this storage is recorded: page_costs_check (on a table of 10 MB or more) or efficiency_check measures it';
	ELSIF reference = 'page_cache'
		  OR read_mb_s > cache_ratio * greatest(sequential_mb_s, random_mb_s, random_at_depth_mb_s) THEN
		verdict := verdict || 'page_cache'::text;
	END IF;
	IF read_wait_pct IS NOT NULL THEN
		IF read_wait_pct >= bound_pct THEN
			verdict := verdict || 'storage_bound'::text;
		ELSE
			verdict := verdict || 'executor_bound'::text;
		END IF;
	END IF;
END
$$;

COMMENT ON FUNCTION scanbench_internal.workload_judge(bigint, float8, float8, float8, float8, float8, float8) IS
'the verdict on one query''s reads: the reference nearest its read rate (by ratio), and the marks no_reads, no_read_timing, no_reference, page_cache (nearest the page cache, or over twice every device reference), storage_bound (reads took half its time or more) or executor_bound';

REVOKE ALL ON FUNCTION scanbench_internal.workload_judge(bigint, float8, float8, float8, float8, float8, float8) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION scanbench_internal.workload_judge(bigint, float8, float8, float8, float8, float8, float8) TO pg_monitor;

-- The snapshots an interval is between: the first must exist, the second
-- (NULL: the counters now) too, and come after it.
CREATE FUNCTION scanbench_internal.workload_interval(from_snapshot bigint, to_snapshot bigint)
RETURNS void
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	s bigint;
BEGIN
	IF from_snapshot IS NULL THEN
		RAISE EXCEPTION 'from_snapshot must not be NULL'
			USING ERRCODE = 'null_value_not_allowed',
				  HINT = 'Give the number workload_snapshot() returned.';
	END IF;
	FOREACH s IN ARRAY ARRAY[from_snapshot, to_snapshot] LOOP
		CONTINUE WHEN s IS NULL;
		IF NOT EXISTS (SELECT 1 FROM @extschema@.workload_snapshots w WHERE w.snapshot = s)
		   AND NOT EXISTS (SELECT 1 FROM @extschema@.workload_io_snapshots w WHERE w.snapshot = s) THEN
			RAISE EXCEPTION 'no workload snapshot %', s
				USING ERRCODE = 'invalid_parameter_value',
					  HINT = 'workload_snapshot() takes one and returns its number; SELECT DISTINCT snapshot, taken_at FROM workload_snapshots lists them.';
		END IF;
	END LOOP;
	IF to_snapshot <= from_snapshot THEN
		RAISE EXCEPTION 'to_snapshot % was not taken after from_snapshot %', to_snapshot, from_snapshot
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'Give the earlier snapshot first; to_snapshot NULL (the default) compares with the counters now.';
	END IF;
END
$$;

COMMENT ON FUNCTION scanbench_internal.workload_interval(bigint, bigint) IS
'the argument checks of workload_reads and workload_io: from_snapshot given and taken, to_snapshot (NULL: now) taken after it';

REVOKE ALL ON FUNCTION scanbench_internal.workload_interval(bigint, bigint) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION scanbench_internal.workload_interval(bigint, bigint) TO pg_monitor;

CREATE TYPE workload_reads_result AS (
	queryid				bigint,
	database			text,
	role				text,
	toplevel			boolean,
	query				text,
	calls				bigint,
	exec_s				float8,
	blocks_read			bigint,
	blocks_hit			bigint,
	bytes_read			bigint,
	read_wait_s			float8,
	read_wait_pct		float8,
	read_mb_s			float8,
	block_wait_us		float8,
	reference			text,
	reference_mb_s		float8,
	reference_pct		float8,
	sequential_pct		float8,
	random_pct			float8,
	random_at_depth_pct	float8,
	verdict				text[],
	note				text
);

COMMENT ON TYPE workload_reads_result IS 'workload_reads: one statement''s reads between two snapshots, against the storage''s measured rates';
COMMENT ON COLUMN workload_reads_result.queryid IS 'pg_stat_statements.queryid';
COMMENT ON COLUMN workload_reads_result.database IS 'the database it ran in';
COMMENT ON COLUMN workload_reads_result.role IS 'the role that ran it';
COMMENT ON COLUMN workload_reads_result.toplevel IS 'run by the client, not inside a function';
COMMENT ON COLUMN workload_reads_result.query IS 'the statement''s text, constants replaced; NULL where it may not be seen';
COMMENT ON COLUMN workload_reads_result.calls IS 'times it ran in the interval';
COMMENT ON COLUMN workload_reads_result.exec_s IS 'seconds it ran in the interval, planning left out (its parallel workers'' time is not in it)';
COMMENT ON COLUMN workload_reads_result.blocks_read IS 'blocks it read from outside shared_buffers in the interval';
COMMENT ON COLUMN workload_reads_result.blocks_hit IS 'blocks it found in shared_buffers in the interval';
COMMENT ON COLUMN workload_reads_result.bytes_read IS 'blocks_read x block_size';
COMMENT ON COLUMN workload_reads_result.read_wait_s IS 'seconds it waited for those reads (track_io_timing), its parallel workers'' waits added; from PostgreSQL 18 the time waited, not the time the reads took (reads issued ahead are waited for less)';
COMMENT ON COLUMN workload_reads_result.read_wait_pct IS '100 x read_wait_s / exec_s: the share of its time it waited for reads, %; above 100 when parallel workers waited too';
COMMENT ON COLUMN workload_reads_result.read_mb_s IS 'bytes_read / read_wait_s, MB/s (10^6 bytes): the rate per second of wait; a parallel query''s is per process; NULL when the reads were not timed';
COMMENT ON COLUMN workload_reads_result.block_wait_us IS 'read_wait_s / blocks_read, microseconds a block';
COMMENT ON COLUMN workload_reads_result.reference IS 'the measured rate nearest read_mb_s (by ratio): sequential, random, random_at_depth or page_cache (workload_references); NULL when none is recorded or nothing was timed';
COMMENT ON COLUMN workload_reads_result.reference_mb_s IS 'that reference''s rate, MB/s';
COMMENT ON COLUMN workload_reads_result.reference_pct IS '100 x read_mb_s / reference_mb_s, %';
COMMENT ON COLUMN workload_reads_result.sequential_pct IS 'read_mb_s as a % of the sequential reference';
COMMENT ON COLUMN workload_reads_result.random_pct IS 'read_mb_s as a % of the random reference (8 kB at depth 1, an index scan''s)';
COMMENT ON COLUMN workload_reads_result.random_at_depth_pct IS 'read_mb_s as a % of the random_at_depth reference (8 kB at effective_io_concurrency, a bitmap heap scan''s)';
COMMENT ON COLUMN workload_reads_result.verdict IS 'marks: no_reads (all from shared_buffers), no_read_timing (track_io_timing was off), no_reference, page_cache (the page cache served the reads: nearest its rate, or over twice every rate of the device), storage_bound (the reads took half its time or more) or executor_bound, reset (its counters started again in the interval: counted from then)';
COMMENT ON COLUMN workload_reads_result.note IS 'what a mark means here and the command that gives a missing figure';

CREATE FUNCTION workload_reads(from_snapshot bigint, to_snapshot bigint DEFAULT NULL)
RETURNS SETOF workload_reads_result
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	r @extschema@.workload_reads_result;
	from_timing boolean;
	seq_mb_s float8;
	rnd_mb_s float8;
	depth_mb_s float8;
	cache_mb_s float8;
	blk float8 := current_setting('block_size')::float8;
	restarted_n bigint := 0;
BEGIN
	PERFORM scanbench_internal.workload_interval(from_snapshot, to_snapshot);
	SELECT bool_and(w.track_io_timing) INTO from_timing
	FROM @extschema@.workload_snapshots w WHERE w.snapshot = from_snapshot;
	SELECT max(x.mb_s) FILTER (WHERE x.reference = 'sequential'),
		   max(x.mb_s) FILTER (WHERE x.reference = 'random'),
		   max(x.mb_s) FILTER (WHERE x.reference = 'random_at_depth'),
		   max(x.mb_s) FILTER (WHERE x.reference = 'page_cache')
	INTO seq_mb_s, rnd_mb_s, depth_mb_s, cache_mb_s
	FROM @extschema@.workload_references() x;

	FOR r IN
		WITH b AS (
			SELECT w.* FROM @extschema@.workload_snapshots w WHERE w.snapshot = from_snapshot
		), a AS (
			SELECT w.userid, w.dbid, w.toplevel, w.queryid, w.calls, w.exec_s,
				w.blocks_read, w.blocks_hit, w.read_wait_s, w.track_io_timing,
				w.stats_since, w.stats_reset, w.query
			FROM @extschema@.workload_snapshots w WHERE w.snapshot = to_snapshot
			UNION ALL
			SELECT n.userid, n.dbid, n.toplevel, n.queryid, n.calls, n.exec_s,
				n.blocks_read, n.blocks_hit, n.read_wait_s, n.track_io_timing,
				n.stats_since, n.stats_reset, n.query
			FROM scanbench_internal.workload_statements_now() n
			WHERE to_snapshot IS NULL
		), j AS (
			-- Counters that started again (a reset of them all, the
			-- statement evicted and counted anew) are counted from then.
			SELECT a.*, b.queryid IS NOT NULL AND NOT
					(a.stats_reset IS DISTINCT FROM b.stats_reset
					 OR a.stats_since IS DISTINCT FROM b.stats_since
					 OR a.calls < b.calls) AS kept,
				b.queryid IS NOT NULL AND
					(a.stats_reset IS DISTINCT FROM b.stats_reset
					 OR a.stats_since IS DISTINCT FROM b.stats_since
					 OR a.calls < b.calls) AS restarted,
				b.calls AS b_calls, b.exec_s AS b_exec_s, b.blocks_read AS b_blocks_read,
				b.blocks_hit AS b_blocks_hit, b.read_wait_s AS b_read_wait_s
			FROM a LEFT JOIN b USING (userid, dbid, toplevel, queryid)
		), d AS (
			SELECT j.userid, j.dbid, j.toplevel, j.queryid, j.query, j.restarted,
				j.calls - CASE WHEN j.kept THEN j.b_calls ELSE 0 END AS calls,
				j.exec_s - CASE WHEN j.kept THEN j.b_exec_s ELSE 0 END AS exec_s,
				j.blocks_read - CASE WHEN j.kept THEN j.b_blocks_read ELSE 0 END AS blocks_read,
				j.blocks_hit - CASE WHEN j.kept THEN j.b_blocks_hit ELSE 0 END AS blocks_hit,
				greatest(j.read_wait_s - CASE WHEN j.kept THEN j.b_read_wait_s ELSE 0 END, 0) AS read_wait_s,
				j.track_io_timing AND coalesce(from_timing, true) AS timing_on
			FROM j
		), t AS (
			-- Blocks read and no wait: not timed (track_io_timing is a
			-- session's setting, and may have been off where they ran).
			SELECT d.*, d.timing_on AND (d.read_wait_s > 0 OR d.blocks_read = 0) AS timed
			FROM d
		), f AS (
			SELECT t.*, t.blocks_read::float8 * blk AS bytes,
				CASE WHEN t.timed AND t.blocks_read > 0
					 THEN t.blocks_read::float8 * blk / t.read_wait_s / 1e6 END AS mb_s,
				CASE WHEN t.exec_s > 0 AND t.timed
					 THEN 100 * t.read_wait_s / t.exec_s END AS wait_pct
			FROM t
			WHERE t.calls > 0
		)
		SELECT f.queryid,
			(SELECT db.datname::text FROM pg_database db WHERE db.oid = f.dbid),
			(SELECT ro.rolname::text FROM pg_roles ro WHERE ro.oid = f.userid),
			f.toplevel, f.query, f.calls, round(f.exec_s::numeric, 6)::float8,
			f.blocks_read, f.blocks_hit, f.bytes::bigint,
			CASE WHEN f.timed THEN round(f.read_wait_s::numeric, 6)::float8 END,
			round(f.wait_pct::numeric, 1)::float8, round(f.mb_s::numeric, 1)::float8,
			CASE WHEN f.timed AND f.blocks_read > 0
				 THEN round((1e6 * f.read_wait_s / f.blocks_read)::numeric, 2)::float8 END,
			v.reference, round(v.reference_mb_s::numeric, 1)::float8,
			round((100 * f.mb_s / v.reference_mb_s)::numeric, 1)::float8,
			round((100 * f.mb_s / seq_mb_s)::numeric, 1)::float8,
			round((100 * f.mb_s / rnd_mb_s)::numeric, 1)::float8,
			round((100 * f.mb_s / depth_mb_s)::numeric, 1)::float8,
			v.verdict || CASE WHEN f.restarted THEN '{reset}'::text[] ELSE '{}'::text[] END,
			nullif(concat_ws('; ', v.note,
				CASE WHEN f.restarted THEN 'its counters started again in the interval (pg_stat_statements_reset(), or the statement evicted and counted anew): counted from then' END), '')
		FROM f, LATERAL scanbench_internal.workload_judge(f.bytes::bigint, f.mb_s, f.wait_pct,
			seq_mb_s, rnd_mb_s, depth_mb_s, cache_mb_s) v
		ORDER BY f.read_wait_s DESC, f.blocks_read DESC, f.calls DESC, f.queryid
	LOOP
		IF 'reset' = ANY (r.verdict) THEN
			restarted_n := restarted_n + 1;
		END IF;
		RETURN NEXT r;
	END LOOP;
	IF NOT coalesce(from_timing, true) THEN
		RAISE NOTICE 'track_io_timing was off when snapshot % was taken: no read rate between it and the next', from_snapshot
			USING HINT = 'ALTER SYSTEM SET track_io_timing = on; SELECT pg_reload_conf();  then take a new snapshot';
	END IF;
	IF to_snapshot IS NULL AND NOT current_setting('track_io_timing')::boolean THEN
		RAISE NOTICE 'track_io_timing is off: no read is timed'
			USING HINT = 'ALTER SYSTEM SET track_io_timing = on; SELECT pg_reload_conf();  (pg_test_timing shows what a timing costs on this server)';
	END IF;
	IF restarted_n > 0 THEN
		RAISE NOTICE 'the counters of % % started again in the interval: counted from then', restarted_n,
			CASE WHEN restarted_n = 1 THEN 'statement' ELSE 'statements' END
			USING HINT = 'pg_stat_statements_reset() starts them all again; a statement evicted (pg_stat_statements keeps pg_stat_statements.max of them) starts again when it comes back.';
	END IF;
END
$$;

COMMENT ON FUNCTION workload_reads(bigint, bigint) IS
'each statement''s reads between two snapshots of workload_snapshot (to_snapshot NULL: the counters now): calls, blocks read and hit, bytes, the wait for them and its share of the statement''s time, the rate per second of wait held against this storage''s measured rates (workload_references), and a verdict; the statements that waited longest first';

REVOKE ALL ON FUNCTION workload_reads(bigint, bigint) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION workload_reads(bigint, bigint) TO pg_monitor;

CREATE TYPE workload_io_result AS (
	backend_type		text,
	object				text,
	context				text,
	reads				bigint,
	bytes_read			bigint,
	read_wait_s			float8,
	read_mb_s			float8,
	block_wait_us		float8,
	reference			text,
	reference_mb_s		float8,
	reference_pct		float8,
	verdict				text[],
	note				text
);

COMMENT ON TYPE workload_io_result IS 'workload_io: one row of pg_stat_io''s reads between two snapshots, against the storage''s measured rates';
COMMENT ON COLUMN workload_io_result.backend_type IS 'pg_stat_io.backend_type: client backend, background worker, autovacuum worker, io worker, ...';
COMMENT ON COLUMN workload_io_result.object IS 'relation or temp relation';
COMMENT ON COLUMN workload_io_result.context IS 'normal, bulkread (the ring of a large sequential scan), bulkwrite or vacuum';
COMMENT ON COLUMN workload_io_result.reads IS 'read operations in the interval; from PostgreSQL 18 one may read several blocks';
COMMENT ON COLUMN workload_io_result.bytes_read IS 'bytes read in the interval: read_bytes from PostgreSQL 18, reads x op_bytes in 16 and 17';
COMMENT ON COLUMN workload_io_result.read_wait_s IS 'seconds waited for them (track_io_timing); NULL when the reads were not timed';
COMMENT ON COLUMN workload_io_result.read_mb_s IS 'bytes_read / read_wait_s, MB/s (10^6 bytes): the rate per second of wait, of all processes of that kind together';
COMMENT ON COLUMN workload_io_result.block_wait_us IS 'microseconds waited a block (block_size)';
COMMENT ON COLUMN workload_io_result.reference IS 'the measured rate nearest read_mb_s (by ratio): sequential, random, random_at_depth or page_cache (workload_references)';
-- @comments workload_io_result FROM workload_reads_result: reference_mb_s reference_pct
COMMENT ON COLUMN workload_io_result.verdict IS 'marks, as workload_reads gives them (no storage_bound or executor_bound: pg_stat_io keeps no time but the reads''), reset when the row''s counters were reset in the interval';
-- @comments workload_io_result FROM workload_reads_result: note

CREATE FUNCTION workload_io(from_snapshot bigint, to_snapshot bigint DEFAULT NULL)
RETURNS SETOF workload_io_result
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	r @extschema@.workload_io_result;
	from_timing boolean;
	seq_mb_s float8;
	rnd_mb_s float8;
	depth_mb_s float8;
	cache_mb_s float8;
	blk float8 := current_setting('block_size')::float8;
BEGIN
	PERFORM scanbench_internal.workload_interval(from_snapshot, to_snapshot);
	IF to_regclass('pg_catalog.pg_stat_io') IS NULL THEN
		RAISE NOTICE 'this server has no pg_stat_io: it came in PostgreSQL 16'
			USING HINT = 'workload_reads gives the reads per statement, from pg_stat_statements.';
		RETURN;
	END IF;
	SELECT bool_and(w.track_io_timing) INTO from_timing
	FROM @extschema@.workload_io_snapshots w WHERE w.snapshot = from_snapshot;
	IF from_timing IS NULL THEN
		RAISE NOTICE 'snapshot % has no pg_stat_io rows', from_snapshot
			USING HINT = 'A snapshot taken before the server was upgraded to PostgreSQL 16 has none; take a new one.';
		RETURN;
	END IF;
	SELECT max(x.mb_s) FILTER (WHERE x.reference = 'sequential'),
		   max(x.mb_s) FILTER (WHERE x.reference = 'random'),
		   max(x.mb_s) FILTER (WHERE x.reference = 'random_at_depth'),
		   max(x.mb_s) FILTER (WHERE x.reference = 'page_cache')
	INTO seq_mb_s, rnd_mb_s, depth_mb_s, cache_mb_s
	FROM @extschema@.workload_references() x;

	FOR r IN
		WITH b AS (
			SELECT w.* FROM @extschema@.workload_io_snapshots w WHERE w.snapshot = from_snapshot
		), a AS (
			SELECT w.backend_type, w.object, w.context, w.reads, w.bytes_read,
				w.read_wait_s, w.track_io_timing, w.stats_reset
			FROM @extschema@.workload_io_snapshots w WHERE w.snapshot = to_snapshot
			UNION ALL
			SELECT n.backend_type, n.object, n.context, n.reads, n.bytes_read,
				n.read_wait_s, n.track_io_timing, n.stats_reset
			FROM scanbench_internal.workload_io_now() n
			WHERE to_snapshot IS NULL
		), j AS (
			SELECT a.*, b.reads IS NOT NULL AND
					(a.stats_reset IS DISTINCT FROM b.stats_reset OR a.reads < b.reads) AS restarted,
				b.reads AS b_reads, b.bytes_read AS b_bytes_read, b.read_wait_s AS b_read_wait_s
			FROM a LEFT JOIN b USING (backend_type, object, context)
		), d AS (
			SELECT j.backend_type, j.object, j.context, j.restarted,
				j.reads - CASE WHEN j.b_reads IS NOT NULL AND NOT j.restarted THEN j.b_reads ELSE 0 END AS reads,
				j.bytes_read - CASE WHEN j.b_reads IS NOT NULL AND NOT j.restarted THEN j.b_bytes_read ELSE 0 END AS bytes_read,
				greatest(j.read_wait_s - CASE WHEN j.b_reads IS NOT NULL AND NOT j.restarted THEN j.b_read_wait_s ELSE 0 END, 0) AS read_wait_s,
				j.track_io_timing AND from_timing AS timing_on
			FROM j
		), f AS (
			SELECT d.*, d.timing_on AND d.read_wait_s > 0 AS timed,
				CASE WHEN d.timing_on AND d.read_wait_s > 0 AND d.bytes_read > 0
					 THEN d.bytes_read / d.read_wait_s / 1e6 END AS mb_s
			FROM d
			WHERE d.reads > 0
		)
		SELECT f.backend_type, f.object, f.context, f.reads, f.bytes_read,
			CASE WHEN f.timed THEN round(f.read_wait_s::numeric, 6)::float8 END,
			round(f.mb_s::numeric, 1)::float8,
			CASE WHEN f.timed THEN round((1e6 * f.read_wait_s / (f.bytes_read / blk))::numeric, 2)::float8 END,
			v.reference, round(v.reference_mb_s::numeric, 1)::float8,
			round((100 * f.mb_s / v.reference_mb_s)::numeric, 1)::float8,
			v.verdict || CASE WHEN f.restarted THEN '{reset}'::text[] ELSE '{}'::text[] END,
			nullif(concat_ws('; ', v.note,
				CASE WHEN f.restarted THEN 'its counters were reset in the interval (pg_stat_reset_shared(''io'')): counted from then' END), '')
		FROM f, LATERAL scanbench_internal.workload_judge(f.bytes_read, f.mb_s, NULL,
			seq_mb_s, rnd_mb_s, depth_mb_s, cache_mb_s) v
		ORDER BY f.read_wait_s DESC, f.bytes_read DESC, f.backend_type, f.object, f.context
	LOOP
		RETURN NEXT r;
	END LOOP;
	IF NOT from_timing THEN
		RAISE NOTICE 'track_io_timing was off when snapshot % was taken: no read rate between it and the next', from_snapshot
			USING HINT = 'ALTER SYSTEM SET track_io_timing = on; SELECT pg_reload_conf();  then take a new snapshot';
	END IF;
	IF to_snapshot IS NULL AND NOT current_setting('track_io_timing')::boolean THEN
		RAISE NOTICE 'track_io_timing is off: no read is timed'
			USING HINT = 'ALTER SYSTEM SET track_io_timing = on; SELECT pg_reload_conf();  (pg_test_timing shows what a timing costs on this server)';
	END IF;
END
$$;

COMMENT ON FUNCTION workload_io(bigint, bigint) IS
'pg_stat_io''s reads of relations between two snapshots of workload_snapshot (to_snapshot NULL: the counters now), a row per kind of process and I/O context: reads, bytes, the wait for them, the rate per second of wait against this storage''s measured rates (workload_references), and a verdict; PostgreSQL 16 on (bytes counted from 18)';

REVOKE ALL ON FUNCTION workload_io(bigint, bigint) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION workload_io(bigint, bigint) TO pg_monitor;

-- One query given by the caller, per scan node: workload_scans runs it
-- with EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) cold (the relations its
-- plan reads evicted first, as scan_efficiency's cold mode evicts them)
-- and warm, each time in a subtransaction rolled back with the
-- transaction read-only, and gives a row per scan node and run: its
-- reads against the reference of its access path (workload_references).
-- It is C, and has no SET search_path: the query is the caller's, named
-- and run with the caller's path and rights as the caller would run it;
-- the one statement the library sends of its own names
-- workload_references with the extension's schema.  It evicts caches and
-- runs a query: the superuser's unless granted (doc/workload.md).
CREATE TYPE workload_scans_result AS (
	cache				text,
	node				integer,
	node_type			text,
	relation			regclass,
	alias				text,
	idx					regclass,
	rows				bigint,
	loops				bigint,
	blocks_read			bigint,
	blocks_hit			bigint,
	bytes_read			bigint,
	read_wait_s			float8,
	read_mb_s			float8,
	node_s				float8,
	read_wait_pct		float8,
	in_flight			float8,
	cached_pct			float8,
	reference			text,
	reference_mb_s		float8,
	reference_pct		float8,
	verdict				text[],
	note				text
);

COMMENT ON TYPE workload_scans_result IS 'workload_scans: one scan node of one run of the query, its reads against the reference of its access path';
COMMENT ON COLUMN workload_scans_result.cache IS 'cold (the relations the plan reads, their indexes and TOAST evicted from shared_buffers and the page cache first) or warm (run again after the cold run, its pages resident)';
COMMENT ON COLUMN workload_scans_result.node IS 'the node''s place in the plan, as EXPLAIN lists its nodes: 1 is the top';
COMMENT ON COLUMN workload_scans_result.node_type IS 'Seq Scan, Index Scan, Index Only Scan or Bitmap Heap Scan';
COMMENT ON COLUMN workload_scans_result.relation IS 'the table it scans';
COMMENT ON COLUMN workload_scans_result.alias IS 'the name the query gives the table (tells two scans of one table apart)';
COMMENT ON COLUMN workload_scans_result.idx IS 'the index it reads: a bitmap heap scan''s bitmap index scan''s; NULL for a sequential scan, or a bitmap built from several indexes';
COMMENT ON COLUMN workload_scans_result.rows IS 'rows it returned, over all its loops';
COMMENT ON COLUMN workload_scans_result.loops IS 'times it ran (the inner side of a nested loop runs once a row of the outer; parallel workers add theirs)';
COMMENT ON COLUMN workload_scans_result.blocks_read IS 'blocks it read from outside shared_buffers, its own: a bitmap heap scan''s bitmap index scans and a subplan in its filter are left out';
COMMENT ON COLUMN workload_scans_result.blocks_hit IS 'blocks it found in shared_buffers, its own';
-- @comments workload_scans_result FROM workload_reads_result: bytes_read
COMMENT ON COLUMN workload_scans_result.read_wait_s IS 'seconds it waited for those reads (track_io_timing, set on for the run); from PostgreSQL 18 the time waited, not the time the reads took (reads issued ahead are waited for less)';
COMMENT ON COLUMN workload_scans_result.read_mb_s IS 'bytes_read / read_wait_s, MB/s (10^6 bytes): the rate per second of wait; NULL when nothing was read or no read was waited for';
COMMENT ON COLUMN workload_scans_result.node_s IS 'seconds the node ran, its own (its children''s time left out), over all its loops';
COMMENT ON COLUMN workload_scans_result.read_wait_pct IS '100 x read_wait_s / node_s: the share of its time it waited for reads, %';
COMMENT ON COLUMN workload_scans_result.in_flight IS 'reads its read stream kept in flight, on average, where EXPLAIN''s IO figures say (PostgreSQL 19 on); NULL before';
COMMENT ON COLUMN workload_scans_result.cached_pct IS 'cold: % of its table''s (and index''s) blocks still in shared_buffers or the page cache after the eviction; NULL warm';
COMMENT ON COLUMN workload_scans_result.reference IS 'the reference of its access path (workload_references): sequential for a Seq Scan, random for an Index Scan or Index Only Scan, random_at_depth for a Bitmap Heap Scan (random where none at depth is recorded)';
COMMENT ON COLUMN workload_scans_result.reference_mb_s IS 'that reference''s rate, MB/s; NULL when none is recorded';
-- @comments workload_scans_result FROM workload_reads_result: reference_pct
COMMENT ON COLUMN workload_scans_result.verdict IS '{ok}, or cached (more than 5 % resident after the eviction), host_cache (a cold run read faster than twice every rate of the storage: a cache below this system served it), io_limited (the server''s read throttle set the rate), depth_limited (read one at a time where the storage gives 1.5 times more at depth), storage_not_limiting (its reads took less than half its time); NULL when it read nothing from outside shared_buffers';
COMMENT ON COLUMN workload_scans_result.note IS 'why a figure is missing, and the command that gives it';

-- @index 230 | `workload_scans(query, cache)` | one SELECT's scan nodes, cold and warm, each against its access path's rate ([more](doc/workload.md#one-query-per-scan-node)) |
CREATE FUNCTION workload_scans(query text, cache text DEFAULT 'both')
RETURNS SETOF workload_scans_result
AS 'MODULE_PATHNAME', 'workload_scans'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE ROWS 4;

COMMENT ON FUNCTION workload_scans(text, text) IS
'run one SELECT, given as text, with EXPLAIN (ANALYZE, BUFFERS) cold (its relations evicted first), warm or both, read-only in a subtransaction rolled back, with the caller''s rights: a row per scan node and run, with its blocks read and hit, the wait for them, the rate per second of wait against the reference of its access path (workload_references), and a verdict; refuses anything but one plain SELECT';

REVOKE ALL ON FUNCTION workload_scans(text, text) FROM PUBLIC;
