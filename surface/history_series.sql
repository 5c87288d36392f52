--
-- ==== The history's series, kept ====
--
-- One row per series (server, relation and cache mode) of scan_history:
-- the runs it holds, its latest run and the median that run is compared
-- with (scan_history_compared's rule), kept as runs are recorded, so that
-- the metrics scrape reads the series, not the history.  Three statement
-- triggers on scan_history keep it, in the recording's own transaction:
-- a recording that fails or is killed leaves the series as they were.
-- Each counts the statement's runs in or out of their series and then
-- reads each series it touched again (its latest run, the runs of the 30
-- days up to it): a few through the history's index, a night's many in
-- one pass over their window, so the work of a night grows with its
-- runs, not with the history.
--
-- What goes around scan_history's own statements is not seen: rows
-- written straight into one of its months (COPY into scan_history_2026_12)
-- or a restore that loads through the parent (pg_restore
-- --load-via-partition-root) leave the series behind the history;
-- scan_history_series_rebuild() makes them again.  The history's own
-- functions (scan_history_partition, scan_history_prune) keep them.  On
-- Citus, where a distributed table takes no statement trigger,
-- scan_history_distribute drops the triggers and the scrape reads the
-- history (scanbench_internal.scan_history_series_kept()).
--
-- A series' columns are those of scan_history; a NULL server (this
-- server's own runs) or schema is a value of its own, as the history's
-- series are told apart, so the key is on expressions that hold it.
--
-- @begin scan_history_series
CREATE TABLE scan_history_series (
	server			text,
	relschema		text,
	relname			text NOT NULL,
	cache			text NOT NULL,
	recorded		bigint NOT NULL,
	last_id			bigint NOT NULL,
	last_at			timestamptz NOT NULL,
	median_pct		float8,
	compared_runs	integer NOT NULL
);
CREATE UNIQUE INDEX scan_history_series_key ON scan_history_series
	((server IS NULL), (coalesce(server, ''::pg_catalog.text)), (relschema IS NULL),
	 (coalesce(relschema, ''::pg_catalog.text)), relname, cache);

-- Derived from the history, but kept by pg_dump: a restore loads each
-- month on its own, which fires none of the parent's triggers.
SELECT pg_catalog.pg_extension_config_dump('scan_history_series', '');

COMMENT ON TABLE scan_history_series IS
'one row per series of scan_history (server, relation and cache mode): its runs, its latest run and the median that run is compared with, kept as runs are recorded; what scanbench_metrics() reads';
COMMENT ON COLUMN scan_history_series.server IS 'the server measured, as in scan_history; NULL: this server';
COMMENT ON COLUMN scan_history_series.relschema IS 'schema of the relation, as in scan_history; NULL on a server that could not be asked';
COMMENT ON COLUMN scan_history_series.relname IS 'name of the relation';
COMMENT ON COLUMN scan_history_series.cache IS 'cache mode: cold, warm or asis';
COMMENT ON COLUMN scan_history_series.recorded IS 'runs of the series in scan_history';
COMMENT ON COLUMN scan_history_series.last_id IS 'the latest run (scan_history.id): the latest measured_at, the highest id among equals';
COMMENT ON COLUMN scan_history_series.last_at IS 'when the latest run was measured';
COMMENT ON COLUMN scan_history_series.median_pct IS 'median scan_pct of the runs the latest is compared with (earlier judged runs with its marks in the 30 days up to it), %, rounded to 0.1; NULL when there are none';
COMMENT ON COLUMN scan_history_series.compared_runs IS 'runs the median is taken over (a drop is judged from 3 on)';

REVOKE ALL ON TABLE scan_history_series FROM PUBLIC;
GRANT SELECT ON TABLE scan_history_series TO pg_monitor;
-- @end scan_history_series

-- The latest run of one series, NULL when it has none.  Where the caller
-- knows it (last_at, last_id: the series' row after a recording, which
-- keeps its latest), it is read from its month's key; else, or where that
-- run is gone, looked for: four branches, each a condition on the server
-- and on the schema that the months' _server_idx serves ("the same or
-- both NULL" in one condition is none, and would read every run of the
-- server), through every month.
CREATE FUNCTION scanbench_internal.scan_history_series_latest(server text, relschema text,
															  relname text, cache text,
															  last_at timestamptz DEFAULT NULL,
															  last_id bigint DEFAULT NULL)
RETURNS @extschema@.scan_history
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
-- One plan for every call, its months pruned as it runs: a plan made for
-- each call's values costs more than the read (a millisecond for a year
-- of months, against 35 us).
SET plan_cache_mode = force_generic_plan
AS $$
#variable_conflict use_variable
DECLARE
	cur @extschema@.scan_history;
BEGIN
	IF last_id IS NOT NULL THEN
		SELECT * INTO cur FROM @extschema@.scan_history h
		WHERE h.measured_at = last_at AND h.id = last_id;
		IF FOUND THEN
			RETURN cur;
		END IF;
	END IF;
	IF server IS NULL AND relschema IS NULL THEN
		SELECT * INTO cur FROM @extschema@.scan_history h
		WHERE h.server IS NULL AND h.relschema IS NULL AND h.relname = relname AND h.cache = cache
		ORDER BY h.measured_at DESC, h.id DESC LIMIT 1;
	ELSIF server IS NULL THEN
		SELECT * INTO cur FROM @extschema@.scan_history h
		WHERE h.server IS NULL AND h.relschema = relschema AND h.relname = relname AND h.cache = cache
		ORDER BY h.measured_at DESC, h.id DESC LIMIT 1;
	ELSIF relschema IS NULL THEN
		SELECT * INTO cur FROM @extschema@.scan_history h
		WHERE h.server = server AND h.relschema IS NULL AND h.relname = relname AND h.cache = cache
		ORDER BY h.measured_at DESC, h.id DESC LIMIT 1;
	ELSE
		SELECT * INTO cur FROM @extschema@.scan_history h
		WHERE h.server = server AND h.relschema = relschema AND h.relname = relname AND h.cache = cache
		ORDER BY h.measured_at DESC, h.id DESC LIMIT 1;
	END IF;
	RETURN cur;
END
$$;

COMMENT ON FUNCTION scanbench_internal.scan_history_series_latest(text, text, text, text, timestamptz, bigint) IS
'the latest run of one series of scan_history (server, schema, relation, cache mode; NULL server or schema matched as NULL): the latest measured_at, the highest id among equals; read by last_at and last_id where given and still there, else looked for; NULL when the series has no run';

-- The series named by the arrays (element i of each), read again from
-- the history: the latest run (looked for where look_for_latest, else
-- the one the series' row names), its median and its compared runs set;
-- a series with no run left goes.  Their counts are the callers'.
--
-- Two ways, the same answer.  A few series (a server's runs, a delete)
-- are read one at a time through each month's _server_idx: about 30
-- runs each, a probe a run.  A night reads most series at once: there,
-- one probe a run cost 0.36 ms a series (10,000 series: 3.6 s of a 4 s
-- COPY), where one pass over the months of the window, the series
-- hashed, reads the same runs in order at a fraction of the cost.  So
-- where the series touched are a quarter or more of those kept, and each
-- names its latest run, the runs of the window (30 days up to the
-- earliest latest run of them) are read once, joined on the series'
-- columns (not indexed: no plan of a probe a run is possible), and each
-- series' median taken from its own; a series whose latest run is not
-- among them is read alone.
CREATE FUNCTION scanbench_internal.scan_history_series_refresh(servers text[], schemas text[],
															   relnames text[], caches text[],
															   look_for_latest boolean DEFAULT true)
RETURNS void
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
-- The one pass's estimate is far above jit_above_cost (the planner cannot
-- estimate its join), and compiling it took longer than running it: 2.9
-- of the 4.9 s of a night of 10,000 series.
SET jit = off
AS $$
DECLARE
	n_series bigint;
	n_done bigint;
	was_nestloop text;
	was_mergejoin text;
	k record;
BEGIN
	IF NOT look_for_latest AND cardinality(servers) >= 100
	   AND cardinality(servers) * 4 >= (SELECT count(*) FROM @extschema@.scan_history_series) THEN
		-- The series' rows, given to the statement below as arrays: their
		-- number is then known when it is planned.
		SELECT array_agg(s.server) AS servers, array_agg(s.relschema) AS schemas,
			   array_agg(s.relname) AS relnames, array_agg(s.cache) AS caches,
			   array_agg(s.last_id) AS last_ids, array_agg(s.last_at) AS last_ats,
			   min(s.last_at) - make_interval(days => 30) AS since
		INTO k
		FROM (SELECT DISTINCT * FROM ROWS FROM (unnest(servers), unnest(schemas), unnest(relnames), unnest(caches))
				  AS v(server, relschema, relname, cache)) AS u
		JOIN @extschema@.scan_history_series s
		  ON ROW(s.server IS NULL, coalesce(s.server, ''), s.relschema IS NULL, coalesce(s.relschema, ''),
				 s.relname, s.cache)
			 = ROW(u.server IS NULL, coalesce(u.server, ''), u.relschema IS NULL, coalesce(u.relschema, ''),
				   u.relname, u.cache);
		-- The bound as a literal, so that the months before it are left
		-- out when the statement is planned.  The runs of the window are
		-- read once and matched to their series by hashing; each series'
		-- latest run's marks are picked from among them, and its median is
		-- taken over its runs that scan_history_compared would give.  The
		-- planner cannot estimate a join on the series' columns (NULL is a
		-- value of its own there), and took a loop (minutes) or sorted the
		-- window's runs (seconds): hashing is what these joins need, so it
		-- is the one way left to it, for this statement alone (an error
		-- undoes the settings with the statement's transaction).
		was_nestloop := current_setting('enable_nestloop');
		was_mergejoin := current_setting('enable_mergejoin');
		PERFORM set_config('enable_nestloop', 'off', true);
		PERFORM set_config('enable_mergejoin', 'off', true);
		EXECUTE format($q$
			WITH s AS (
				SELECT * FROM ROWS FROM (pg_catalog.unnest($1), pg_catalog.unnest($2), pg_catalog.unnest($3),
										 pg_catalog.unnest($4), pg_catalog.unnest($5), pg_catalog.unnest($6))
					WITH ORDINALITY AS s(server, relschema, relname, cache, last_id, last_at, i)
			), r AS MATERIALIZED (
				SELECT s.i, h.scan_pct,
					   h.id = s.last_id AND h.measured_at = s.last_at AS latest,
					   s.relschema IS NOT NULL AND h.id <> s.last_id AND h.reason IS NULL
					   AND h.measured_at <= s.last_at
					   AND h.measured_at > s.last_at - pg_catalog.make_interval(days => 30)
					   AND scanbench_internal.scan_history_usable(h.scan_pct)
					   AND pg_catalog.isfinite(h.measured_at) AS compared,
					   scanbench_internal.scan_history_marks(h.verdict) AS marks
				FROM @extschema@.scan_history h
				JOIN s
				  ON (h.server IS NULL) = (s.server IS NULL)
				 AND coalesce(h.server, '') COLLATE "C" = coalesce(s.server, '') COLLATE "C"
				 AND (h.relschema IS NULL) = (s.relschema IS NULL)
				 AND coalesce(h.relschema, '') COLLATE "C" = coalesce(s.relschema, '') COLLATE "C"
				 AND h.relname COLLATE "C" = s.relname COLLATE "C" AND h.cache COLLATE "C" = s.cache COLLATE "C"
				WHERE h.measured_at >= %L::pg_catalog.timestamptz
			), l AS (
				SELECT r.i, coalesce(r.marks, '') AS marks FROM r WHERE r.latest
			), m AS (
				SELECT r.i,
					   pg_catalog.round(pg_catalog.percentile_cont(0.5::pg_catalog.float8) WITHIN GROUP (ORDER BY r.scan_pct)
										FILTER (WHERE r.compared AND r.marks = l.marks)::pg_catalog.numeric,
										1)::pg_catalog.float8 AS median_pct,
					   pg_catalog.count(*) FILTER (WHERE r.compared AND r.marks = l.marks)::pg_catalog.int4
						   AS compared_runs
				FROM r JOIN l ON l.i = r.i
				GROUP BY r.i
			), done AS (
				UPDATE @extschema@.scan_history_series s
				SET median_pct = m.median_pct, compared_runs = m.compared_runs
				FROM m JOIN s t ON t.i = m.i
				WHERE ROW(s.server IS NULL, coalesce(s.server, ''), s.relschema IS NULL, coalesce(s.relschema, ''),
						  s.relname, s.cache)
					  = ROW(t.server IS NULL, coalesce(t.server, ''), t.relschema IS NULL, coalesce(t.relschema, ''),
							t.relname, t.cache)
				RETURNING s.last_id
			)
			SELECT (SELECT pg_catalog.count(*) FROM s) AS series, (SELECT pg_catalog.count(*) FROM done) AS done$q$,
			k.since)
		INTO n_series, n_done
		USING k.servers, k.schemas, k.relnames, k.caches, k.last_ids, k.last_ats;
		PERFORM set_config('enable_nestloop', was_nestloop, true);
		PERFORM set_config('enable_mergejoin', was_mergejoin, true);
		-- A series whose latest run was not among those read (gone, or its
		-- row behind) is read alone, its latest looked for.
		IF n_done < n_series THEN
			SELECT array_agg(u.server) AS servers, array_agg(u.relschema) AS schemas,
				   array_agg(u.relname) AS relnames, array_agg(u.cache) AS caches
			INTO k
			FROM (SELECT DISTINCT * FROM ROWS FROM (unnest(servers), unnest(schemas), unnest(relnames), unnest(caches))
					  AS v(server, relschema, relname, cache)) AS u
			WHERE NOT EXISTS (SELECT 1 FROM @extschema@.scan_history h
							  JOIN @extschema@.scan_history_series s
								ON ROW(s.server IS NULL, coalesce(s.server, ''), s.relschema IS NULL,
									   coalesce(s.relschema, ''), s.relname, s.cache)
								   = ROW(u.server IS NULL, coalesce(u.server, ''), u.relschema IS NULL,
										 coalesce(u.relschema, ''), u.relname, u.cache)
							  WHERE h.measured_at = s.last_at AND h.id = s.last_id);
			IF k.servers IS NOT NULL THEN
				PERFORM scanbench_internal.scan_history_series_refresh(k.servers, k.schemas, k.relnames, k.caches);
			END IF;
		END IF;
		RETURN;
	END IF;

	WITH now_is AS (
		SELECT u.server, u.relschema, u.relname, u.cache, l.id AS last_id, l.measured_at AS last_at,
			   m.median_pct, m.compared_runs
		FROM (SELECT DISTINCT *
			  FROM ROWS FROM (unnest(servers), unnest(schemas), unnest(relnames), unnest(caches))
				  AS v(server, relschema, relname, cache)) AS u
		LEFT JOIN @extschema@.scan_history_series AS s
		  ON NOT look_for_latest
		 AND ROW(s.server IS NULL, coalesce(s.server, ''), s.relschema IS NULL, coalesce(s.relschema, ''),
				 s.relname, s.cache)
			 = ROW(u.server IS NULL, coalesce(u.server, ''), u.relschema IS NULL, coalesce(u.relschema, ''),
				   u.relname, u.cache)
		CROSS JOIN LATERAL scanbench_internal.scan_history_series_latest(u.server, u.relschema,
																		  u.relname, u.cache,
																		  s.last_at, s.last_id) AS l
		CROSS JOIN LATERAL (
			SELECT round(percentile_cont(0.5::float8) WITHIN GROUP (ORDER BY c.scan_pct)::numeric, 1)::float8 AS median_pct,
				   count(*)::int4 AS compared_runs
			FROM scanbench_internal.scan_history_compared(l, 30) AS c) AS m
	), gone AS (
		DELETE FROM @extschema@.scan_history_series s
		USING now_is n
		WHERE n.last_id IS NULL
		  AND ROW(s.server IS NULL, coalesce(s.server, ''), s.relschema IS NULL, coalesce(s.relschema, ''),
				  s.relname, s.cache)
			  = ROW(n.server IS NULL, coalesce(n.server, ''), n.relschema IS NULL, coalesce(n.relschema, ''),
					n.relname, n.cache)
		RETURNING s.relname
	)
	UPDATE @extschema@.scan_history_series s
	SET last_id = n.last_id, last_at = n.last_at, median_pct = n.median_pct,
		compared_runs = coalesce(n.compared_runs, 0)
	FROM now_is n
	WHERE n.last_id IS NOT NULL
	  AND ROW(s.server IS NULL, coalesce(s.server, ''), s.relschema IS NULL, coalesce(s.relschema, ''),
			  s.relname, s.cache)
		  = ROW(n.server IS NULL, coalesce(n.server, ''), n.relschema IS NULL, coalesce(n.relschema, ''),
				n.relname, n.cache);
END
$$;

COMMENT ON FUNCTION scanbench_internal.scan_history_series_refresh(text[], text[], text[], text[], boolean) IS
'read the series named by the arrays (element i of each: server, schema, relation, cache mode) again from scan_history: each one''s latest run (looked for where look_for_latest, else the one its row names), median and compared runs; a series with no run left is removed';

-- Runs counted out of their series: element i of each array is a series
-- and the runs it lost.  The trigger's DELETE, and the months
-- scan_history_partition and scan_history_prune empty around it.
CREATE FUNCTION scanbench_internal.scan_history_series_forget(servers text[], schemas text[],
															  relnames text[], caches text[],
															  runs bigint[])
RETURNS void
LANGUAGE sql VOLATILE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
	UPDATE @extschema@.scan_history_series s
	SET recorded = s.recorded OPERATOR(pg_catalog.-) g.runs
	FROM (SELECT v.server, v.relschema, v.relname, v.cache, pg_catalog.sum(v.runs)::pg_catalog.int8 AS runs
		  FROM ROWS FROM (pg_catalog.unnest(servers), pg_catalog.unnest(schemas),
						  pg_catalog.unnest(relnames), pg_catalog.unnest(caches), pg_catalog.unnest(runs))
			   AS v(server, relschema, relname, cache, runs)
		  GROUP BY 1, 2, 3, 4) AS g
	WHERE ROW(s.server IS NULL, coalesce(s.server, ''::pg_catalog.text), s.relschema IS NULL,
			  coalesce(s.relschema, ''::pg_catalog.text), s.relname, s.cache)
		  OPERATOR(pg_catalog.=)
		  ROW(g.server IS NULL, coalesce(g.server, ''::pg_catalog.text), g.relschema IS NULL,
			  coalesce(g.relschema, ''::pg_catalog.text), g.relname, g.cache);
END;

COMMENT ON FUNCTION scanbench_internal.scan_history_series_forget(text[], text[], text[], text[], bigint[]) IS
'count runs out of their series of scan_history_series: element i of each array is a series (server, schema, relation, cache mode) and the runs it lost';

-- The triggers' one function: the statement's new runs (INSERT, UPDATE)
-- counted in, its old ones (UPDATE, DELETE) out, and each series touched
-- read again.  New series are made, and every series touched is locked,
-- in the key's order, so that two recordings of one series wait for each
-- other, never deadlock, and the second reads the first's runs.  It runs
-- as the extension's owner: a role granted INSERT on scan_history to
-- record a fleet's runs (doc/fleet.md) keeps the series without a grant
-- of its own on them.  It reads only the runs the statement wrote.
CREATE FUNCTION scanbench_internal.scan_history_series_trigger() RETURNS trigger
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	k record;
BEGIN
	IF TG_OP = 'TRUNCATE' THEN
		TRUNCATE @extschema@.scan_history_series;
		RETURN NULL;
	END IF;
	-- Runs gone: a series' latest may be among them, so it is looked for.
	IF TG_OP IN ('UPDATE', 'DELETE') THEN
		SELECT array_agg(o.server) AS servers, array_agg(o.relschema) AS schemas,
			   array_agg(o.relname) AS relnames, array_agg(o.cache) AS caches, array_agg(o.runs) AS runs
		INTO k
		FROM (SELECT d.server, d.relschema, d.relname, d.cache, count(*) AS runs
			  FROM scan_history_old d GROUP BY 1, 2, 3, 4
			  ORDER BY (d.server IS NULL), coalesce(d.server, ''), (d.relschema IS NULL),
					   coalesce(d.relschema, ''), d.relname, d.cache) AS o;
		PERFORM scanbench_internal.scan_history_series_forget(k.servers, k.schemas, k.relnames,
															  k.caches, k.runs);
		PERFORM scanbench_internal.scan_history_series_refresh(k.servers, k.schemas, k.relnames, k.caches);
	END IF;
	-- Runs come: each series' latest is the later of its own and theirs
	-- (measured_at, then id), kept in its row, which the refresh reads
	-- from its month's key instead of looking through every month.
	IF TG_OP IN ('INSERT', 'UPDATE') THEN
		INSERT INTO @extschema@.scan_history_series AS s
			(server, relschema, relname, cache, recorded, last_id, last_at, compared_runs)
		SELECT n.server, n.relschema, n.relname, n.cache, count(*),
			   (array_agg(n.id ORDER BY n.measured_at DESC, n.id DESC))[1],
			   (array_agg(n.measured_at ORDER BY n.measured_at DESC, n.id DESC))[1], 0
		FROM scan_history_new n
		GROUP BY 1, 2, 3, 4
		ORDER BY (n.server IS NULL), coalesce(n.server, ''), (n.relschema IS NULL),
				 coalesce(n.relschema, ''), n.relname, n.cache
		ON CONFLICT ((server IS NULL), (coalesce(server, ''::text)), (relschema IS NULL),
					 (coalesce(relschema, ''::text)), relname, cache)
		DO UPDATE SET recorded = s.recorded + excluded.recorded,
					  last_id = CASE WHEN (excluded.last_at, excluded.last_id) > (s.last_at, s.last_id)
									 THEN excluded.last_id ELSE s.last_id END,
					  last_at = greatest(excluded.last_at, s.last_at);
		SELECT array_agg(n.server) AS servers, array_agg(n.relschema) AS schemas,
			   array_agg(n.relname) AS relnames, array_agg(n.cache) AS caches
		INTO k
		FROM (SELECT DISTINCT r.server, r.relschema, r.relname, r.cache FROM scan_history_new r) AS n;
		PERFORM scanbench_internal.scan_history_series_refresh(k.servers, k.schemas, k.relnames, k.caches,
															   look_for_latest => false);
	END IF;
	RETURN NULL;
END
$$;

COMMENT ON FUNCTION scanbench_internal.scan_history_series_trigger() IS
'the triggers of scan_history that keep scan_history_series: the statement''s runs counted into and out of their series, each series touched read again';

CREATE TRIGGER scan_history_series_insert AFTER INSERT ON scan_history
	REFERENCING NEW TABLE AS scan_history_new
	FOR EACH STATEMENT EXECUTE FUNCTION scanbench_internal.scan_history_series_trigger();
CREATE TRIGGER scan_history_series_update AFTER UPDATE ON scan_history
	REFERENCING OLD TABLE AS scan_history_old NEW TABLE AS scan_history_new
	FOR EACH STATEMENT EXECUTE FUNCTION scanbench_internal.scan_history_series_trigger();
CREATE TRIGGER scan_history_series_delete AFTER DELETE ON scan_history
	REFERENCING OLD TABLE AS scan_history_old
	FOR EACH STATEMENT EXECUTE FUNCTION scanbench_internal.scan_history_series_trigger();
CREATE TRIGGER scan_history_series_truncate AFTER TRUNCATE ON scan_history
	FOR EACH STATEMENT EXECUTE FUNCTION scanbench_internal.scan_history_series_trigger();

-- Whether the series are kept: the history is not distributed, and its
-- triggers are there.
CREATE FUNCTION scanbench_internal.scan_history_series_kept() RETURNS boolean
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
	SELECT pg_catalog.count(*) OPERATOR(pg_catalog.=) 4
	FROM pg_catalog.pg_trigger t
	WHERE t.tgrelid OPERATOR(pg_catalog.=) '@extschema@.scan_history'::pg_catalog.regclass
	  AND t.tgname OPERATOR(pg_catalog.~) '^scan_history_series_(insert|update|delete|truncate)$'::pg_catalog.text
	  AND t.tgenabled OPERATOR(pg_catalog.<>) 'D'::pg_catalog."char";
END;

COMMENT ON FUNCTION scanbench_internal.scan_history_series_kept() IS
'whether scan_history_series is kept by scan_history''s triggers (not on a history distributed by Citus)';

--
-- The series made again from the whole history: after rows were written
-- around scan_history's own statements (straight into a month, or a
-- restore through the parent), and by the upgrade that made them.  It
-- reads every run once (a year of a fleet's nightly runs: a few minutes)
-- and each series' latest runs again.
--
CREATE FUNCTION scan_history_series_rebuild() RETURNS bigint
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	k record;
BEGIN
	IF NOT scanbench_internal.scan_history_series_kept() THEN
		RAISE EXCEPTION 'scan_history_series is not kept on this history'
			USING ERRCODE = 'object_not_in_prerequisite_state',
				  DETAIL = 'The history is distributed by Citus, or the triggers of scan_history that keep its series were dropped or disabled.',
				  HINT = 'scanbench_metrics() reads a distributed history itself.';
	END IF;
	-- Recording waits until the series are made again; reading goes on.
	LOCK TABLE @extschema@.scan_history IN SHARE MODE;
	DELETE FROM @extschema@.scan_history_series;
	INSERT INTO @extschema@.scan_history_series
		(server, relschema, relname, cache, recorded, last_id, last_at, compared_runs)
	SELECT h.server, h.relschema, h.relname, h.cache, count(*), max(h.id), max(h.measured_at), 0
	FROM @extschema@.scan_history h
	GROUP BY 1, 2, 3, 4;
	SELECT array_agg(s.server) AS servers, array_agg(s.relschema) AS schemas,
		   array_agg(s.relname) AS relnames, array_agg(s.cache) AS caches, count(*) AS n
	INTO k
	FROM @extschema@.scan_history_series s;
	PERFORM scanbench_internal.scan_history_series_refresh(k.servers, k.schemas, k.relnames, k.caches);
	RETURN k.n;
END
$$;

COMMENT ON FUNCTION scan_history_series_rebuild() IS
'make scan_history_series again from the whole of scan_history (after rows were written straight into its months, or restored through the parent); recording waits meanwhile; returns the series made';

REVOKE ALL ON FUNCTION scan_history_series_rebuild() FROM PUBLIC;
