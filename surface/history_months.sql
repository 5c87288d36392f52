--
-- A month wholly past the cutoff goes whole (DROP), where the caller owns
-- the history; the runs before the cutoff in the month it falls in, and
-- those waiting in the default partition, are deleted.  A compressed
-- (columnar) month cannot delete rows: its runs stay until the month is
-- wholly past.
--
CREATE FUNCTION scan_history_prune(older_than interval DEFAULT '400 days')
RETURNS bigint
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	history regclass := '@extschema@.scan_history'::regclass;
	cutoff timestamptz;
	upto timestamptz;
	p record;
	k record;
	n bigint;
	gone bigint := 0;
	kept boolean := scanbench_internal.scan_history_series_kept();
BEGIN
	IF older_than IS NULL OR older_than < interval '1 day' THEN
		RAISE EXCEPTION 'older_than must be at least 1 day, not %', coalesce(older_than::text, 'NULL')
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'To empty the history, TRUNCATE scan_history.';
	END IF;
	cutoff := now() - older_than;
	IF scanbench_internal.scan_history_owned() THEN
		FOR p IN SELECT m.part FROM scanbench_internal.scan_history_months() m
				 WHERE m.to_at <= cutoff LOOP
			-- Its runs counted out of their series (a dropped table fires
			-- no trigger), which are then read again without them.
			EXECUTE format('SELECT array_agg(g.server) AS servers, array_agg(g.relschema) AS schemas, '
						   'array_agg(g.relname) AS relnames, array_agg(g.cache) AS caches, '
						   'array_agg(g.runs) AS runs, coalesce(sum(g.runs), 0) AS n '
						   'FROM (SELECT server, relschema, relname, cache, count(*) AS runs '
						   'FROM %s GROUP BY 1, 2, 3, 4) AS g', p.part) INTO k;
			EXECUTE format('DROP TABLE %s', p.part);
			IF kept THEN
				PERFORM scanbench_internal.scan_history_series_forget(k.servers, k.schemas, k.relnames,
																	  k.caches, k.runs);
				PERFORM scanbench_internal.scan_history_series_refresh(k.servers, k.schemas, k.relnames,
																	   k.caches);
			END IF;
			gone := gone + k.n;
		END LOOP;
	END IF;
	-- Up to the first compressed month, which would refuse the DELETE.
	SELECT least(cutoff, min(m.from_at)) INTO upto
	FROM scanbench_internal.scan_history_months() m
	WHERE m.access_method <> 'heap' AND m.from_at < cutoff;
	upto := coalesce(upto, cutoff);
	-- Planned with the bound itself (a parameter of a statement planned
	-- once is read as its value), so that the compressed months are left
	-- out of the plan, not only skipped when it runs; a value, never text
	-- read back under the session's DateStyle and TimeZone.
	EXECUTE format('DELETE FROM %s WHERE measured_at < $1', history) USING upto;
	GET DIAGNOSTICS n = ROW_COUNT;
	RETURN gone + n;
END
$$;

COMMENT ON FUNCTION scan_history_prune(interval) IS
'delete recorded runs older than older_than (at least 1 day): the months of scan_history wholly older are dropped (by its owner), the other runs deleted; a compressed month goes only whole; returns the number of runs gone';

REVOKE ALL ON FUNCTION scan_history_prune(interval) FROM PUBLIC;

--
-- The months of the history.  A month is made ahead of its runs (nightly,
-- beside scan_history_prune); runs of a month without its partition wait in
-- the default partition, and the next call makes their month and moves
-- them into it.  While they move, the default partition is out of the
-- table (DETACH takes the history's lock: recording waits until the move
-- commits); when none wait, making a month holds it for a moment.
-- A month's bounds are written as seconds since 1970 (to_timestamp), so
-- that no DateStyle or TimeZone of the session reads them otherwise.  A
-- relation of a month's name made by another role that may create in the
-- history's schema is no month of the history: it is not taken over (its
-- owner would keep her rights on it, and her triggers would run as the
-- history's owner), and it stops only its own month, with a WARNING
-- naming it, never the other months.
--
CREATE FUNCTION scan_history_partition(since timestamptz DEFAULT NULL,
									   months_ahead integer DEFAULT 1)
RETURNS integer
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	history regclass := '@extschema@.scan_history'::regclass;
	home oid;
	home_name name;
	months timestamp[];
	made timestamp[] := '{}';
	m timestamp;
	part name;
	taken record;
	waiting boolean;
	no_month bigint;
	k record;
BEGIN
	IF months_ahead IS NULL OR months_ahead < 0 OR months_ahead > 120 THEN
		RAISE EXCEPTION 'months_ahead must be from 0 to 120, not %', coalesce(months_ahead::text, 'NULL')
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF since IS NOT NULL AND (NOT isfinite(since) OR since < now() - interval '100 years' OR since > now()) THEN
		RAISE EXCEPTION 'since must be a time of the last 100 years, not %', since
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'Leave it NULL to make this month and the months ahead.';
	END IF;
	IF NOT scanbench_internal.scan_history_owned() THEN
		RAISE EXCEPTION 'only the owner of scan_history can make its months'
			USING ERRCODE = 'insufficient_privilege',
				  HINT = 'Call it as the role that created the extension, nightly, with scan_history_prune.';
	END IF;

	-- The schema the months are made in: the history's, by its name in
	-- the catalog, quoted once where it is written into a command.
	SELECT c.relnamespace, n.nspname INTO STRICT home, home_name
	FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
	WHERE c.oid = history;

	-- One caller at a time.
	LOCK TABLE @extschema@.scan_history_default IN SHARE UPDATE EXCLUSIVE MODE;
	IF scanbench_internal.scan_history_distributed() THEN
		-- Citus runs DDL and a move over many shards in one transaction
		-- only shard by shard.
		PERFORM set_config('citus.multi_shard_modify_mode', 'sequential', true);
	END IF;

	-- The months of the runs waiting, and from since (or now) to
	-- months_ahead past this one, that no partition covers.  A run outside
	-- the years 1 to 9999 (UTC) has no month: scan_history_record refuses
	-- one, and one written otherwise (an infinite time 0.4.0 kept, a row
	-- copied in by hand) stays in the default partition.
	SELECT count(*) INTO no_month
	FROM @extschema@.scan_history_default d
	WHERE NOT (d.measured_at >= make_timestamptz(1, 1, 1, 0, 0, 0, 'UTC')
			   AND d.measured_at < make_timestamptz(10000, 1, 1, 0, 0, 0, 'UTC'));
	IF no_month > 0 THEN
		RAISE WARNING '% runs of scan_history have no month: they were measured outside the years 1 to 9999', no_month
			USING DETAIL = 'They stay in scan_history_default.',
				  HINT = 'See them with SELECT id, measured_at FROM scan_history_default WHERE measured_at < ''0001-01-01 00:00:00+00'' OR measured_at >= ''10000-01-01 00:00:00+00''; and correct or delete them.';
	END IF;
	SELECT array_agg(w.mo ORDER BY w.mo) INTO months
	FROM (SELECT DISTINCT date_trunc('month', d.measured_at AT TIME ZONE 'UTC') AS mo
		  FROM @extschema@.scan_history_default d
		  WHERE d.measured_at >= make_timestamptz(1, 1, 1, 0, 0, 0, 'UTC')
			AND d.measured_at < make_timestamptz(10000, 1, 1, 0, 0, 0, 'UTC')
		  UNION
		  SELECT g.mo
		  FROM generate_series(date_trunc('month', coalesce(since, now()) AT TIME ZONE 'UTC'),
							   date_trunc('month', now() AT TIME ZONE 'UTC')
								   + make_interval(months => months_ahead),
							   interval '1 month') AS g(mo)) AS w
	WHERE NOT EXISTS (SELECT 1 FROM scanbench_internal.scan_history_months() p
					  WHERE p.from_at < (w.mo + interval '1 month') AT TIME ZONE 'UTC'
						AND p.to_at > w.mo AT TIME ZONE 'UTC');
	IF months IS NULL THEN
		RETURN 0;
	END IF;

	waiting := EXISTS (SELECT 1 FROM @extschema@.scan_history_default d
					   WHERE date_trunc('month', d.measured_at AT TIME ZONE 'UTC') = ANY (months));
	IF waiting THEN
		ALTER TABLE @extschema@.scan_history DETACH PARTITION @extschema@.scan_history_default;
	END IF;
	FOREACH m IN ARRAY months LOOP
		part := 'scan_history_' || to_char(m, 'YYYY_MM');
		SELECT c.oid::regclass AS rel, c.relowner::regrole AS owner INTO taken
		FROM pg_class c
		WHERE c.relnamespace = home AND c.relname = part;
		IF FOUND THEN
			RAISE WARNING 'month % of scan_history was not made: % exists and is not one of its months', to_char(m, 'YYYY-MM'), taken.rel
				USING DETAIL = format('%s is owned by %s. The runs of that month wait in scan_history_default until it is made; the other months are made.',
									  taken.rel, taken.owner),
					  HINT = 'Drop or rename it, then call scan_history_partition() again; and let no role but the owner of scan_history create in its schema.';
			CONTINUE;
		END IF;
		BEGIN
			EXECUTE format('CREATE TABLE %I.%I PARTITION OF %s FOR VALUES FROM (pg_catalog.to_timestamp(%s)) TO (pg_catalog.to_timestamp(%s))',
						   home_name, part, history,
						   extract(epoch FROM m)::bigint,
						   extract(epoch FROM m + interval '1 month')::bigint);
			PERFORM scanbench_internal.scan_history_keys(
				(SELECT c.oid FROM pg_class c WHERE c.relnamespace = home AND c.relname = part)::regclass);
		EXCEPTION WHEN duplicate_table OR duplicate_object THEN
			-- A name its keys take (scan_history_2026_07_pkey, ...), or one
			-- made since the look above.
			RAISE WARNING 'month % of scan_history was not made: %', to_char(m, 'YYYY-MM'), SQLERRM
				USING DETAIL = 'The runs of that month wait in scan_history_default until it is made; the other months are made.',
					  HINT = 'Drop or rename what has that name, then call scan_history_partition() again; and let no role but the owner of scan_history create in its schema.';
			CONTINUE;
		END;
		made := made || m;
	END LOOP;
	IF waiting THEN
		-- Through the parent, whose trigger counts the runs into their
		-- series again; they leave the default partition while it is out
		-- of the table, which fires none, so they are counted out here.
		INSERT INTO @extschema@.scan_history
		SELECT * FROM @extschema@.scan_history_default d
		WHERE date_trunc('month', d.measured_at AT TIME ZONE 'UTC') = ANY (made);
		IF scanbench_internal.scan_history_series_kept() THEN
			SELECT array_agg(g.server) AS servers, array_agg(g.relschema) AS schemas,
				   array_agg(g.relname) AS relnames, array_agg(g.cache) AS caches, array_agg(g.runs) AS runs
			INTO k
			FROM (SELECT d.server, d.relschema, d.relname, d.cache, count(*) AS runs
				  FROM @extschema@.scan_history_default d
				  WHERE date_trunc('month', d.measured_at AT TIME ZONE 'UTC') = ANY (made)
				  GROUP BY 1, 2, 3, 4) AS g;
			PERFORM scanbench_internal.scan_history_series_forget(k.servers, k.schemas, k.relnames,
																  k.caches, k.runs);
		END IF;
		IF EXISTS (SELECT 1 FROM @extschema@.scan_history_default d
				   WHERE date_trunc('month', d.measured_at AT TIME ZONE 'UTC') <> ALL (made)) THEN
			DELETE FROM @extschema@.scan_history_default d
			WHERE date_trunc('month', d.measured_at AT TIME ZONE 'UTC') = ANY (made);
		ELSE
			TRUNCATE @extschema@.scan_history_default;
		END IF;
		ALTER TABLE @extschema@.scan_history ATTACH PARTITION @extschema@.scan_history_default DEFAULT;
		-- Read again with every month in: the trigger read them while the
		-- runs left behind in the default partition were out of the table.
		IF scanbench_internal.scan_history_series_kept() THEN
			PERFORM scanbench_internal.scan_history_series_refresh(k.servers, k.schemas, k.relnames, k.caches);
		END IF;
	END IF;
	RETURN cardinality(made);
END
$$;

COMMENT ON FUNCTION scan_history_partition(timestamptz, integer) IS
'make the monthly partitions of scan_history (months in UTC) that are missing: those of the runs waiting in its default partition, moved into them, and every month from since (default: this one) to months_ahead months past this one; a month whose name another relation has is not made (WARNING); returns the number made; the owner of scan_history only';

REVOKE ALL ON FUNCTION scan_history_partition(timestamptz, integer) FROM PUBLIC;

--
-- On Citus, old months kept compressed: Citus' columnar storage keeps a
-- month of runs in a fraction of its size, read as before; it cannot
-- delete or change a run, so a compressed month goes whole when
-- scan_history_prune finds it wholly past.
--
CREATE FUNCTION scan_history_compress(older_than interval DEFAULT '90 days')
RETURNS integer
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	p record;
	done integer := 0;
	distributed boolean;
BEGIN
	IF older_than IS NULL OR older_than < interval '1 day' THEN
		RAISE EXCEPTION 'older_than must be at least 1 day, not %', coalesce(older_than::text, 'NULL')
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'A month is compressed once it is wholly older than that.';
	END IF;
	IF NOT EXISTS (SELECT 1 FROM pg_am WHERE amname = 'columnar') THEN
		RAISE EXCEPTION 'no columnar storage in this database'
			USING ERRCODE = 'feature_not_supported',
				  DETAIL = 'Compressed months are stored by Citus'' columnar access method.',
				  HINT = 'CREATE EXTENSION citus_columnar first (with Citus, on the coordinator: it is created on the workers too).';
	END IF;
	IF NOT scanbench_internal.scan_history_owned() THEN
		RAISE EXCEPTION 'only the owner of scan_history can compress its months'
			USING ERRCODE = 'insufficient_privilege';
	END IF;
	distributed := scanbench_internal.scan_history_distributed();
	FOR p IN SELECT m.part FROM scanbench_internal.scan_history_months() m
			 WHERE m.to_at <= now() - older_than AND m.access_method = 'heap'
			 ORDER BY m.from_at LOOP
		IF distributed THEN
			-- Citus makes it again on every shard.
			PERFORM alter_table_set_access_method(p.part, 'columnar');
		ELSE
			EXECUTE format('ALTER TABLE %s SET ACCESS METHOD columnar', p.part);
		END IF;
		done := done + 1;
	END LOOP;
	RETURN done;
END
$$;

COMMENT ON FUNCTION scan_history_compress(interval) IS
'store the months of scan_history wholly older than older_than (at least 1 day) in Citus'' columnar storage; refused where there is none; returns the number of months compressed; the owner of scan_history only';

REVOKE ALL ON FUNCTION scan_history_compress(interval) FROM PUBLIC;

