--
-- The helpers of the check and the judge (scanbench_internal).
--
CREATE FUNCTION scanbench_internal.scan_history_kernel() RETURNS text
AS 'MODULE_PATHNAME', 'scan_history_kernel'
LANGUAGE C STRICT VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION scanbench_internal.scan_history_kernel() IS
'release of the running kernel (uname -r)';

-- The recording's: a role that records is granted it with
-- scan_history_record (efficiency_check and record => true ask for both
-- before measuring), and no one else runs it.
REVOKE ALL ON FUNCTION scanbench_internal.scan_history_kernel() FROM PUBLIC;

CREATE FUNCTION scanbench_internal.scan_history_outside_block() RETURNS void
AS 'MODULE_PATHNAME', 'scan_history_outside_block'
LANGUAGE C STRICT VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION scanbench_internal.scan_history_outside_block() IS
'error when called inside a transaction block, where efficiency_check could not commit its run';

-- The verdict's marks, from the library's one table of them: the history,
-- the fleet and the documentation check ask it instead of a copy.
CREATE FUNCTION scan_verdict_marks(OUT mark text, OUT judged boolean,
								   OUT reads_judged boolean,
								   OUT compared_apart boolean, OUT meaning text)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'scan_verdict_marks'
LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE ROWS 16;

COMMENT ON FUNCTION scan_verdict_marks() IS
'the marks scan_efficiency''s verdict may hold, in verdict order: whether a run with the mark is judged against earlier runs (judged), whether its read rate is still the storage''s (reads_judged), whether runs with it are compared only with runs with it (compared_apart), and what it means';

-- The marks a run is compared under: NULL when it cannot be judged (a
-- mark scan_verdict_marks() says is not judged), else '' or the marks
-- that make its figure a different quantity, in verdict order.
-- @begin scan_history_marks
CREATE FUNCTION scanbench_internal.scan_history_marks(verdict text[]) RETURNS text
AS 'MODULE_PATHNAME', 'scan_history_marks'
LANGUAGE C IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION scanbench_internal.scan_history_marks(text[]) IS
'NULL for a verdict that cannot be judged (it holds a mark scan_verdict_marks() says is not judged), else the marks runs are compared under (those it says are compared apart), in verdict order';
-- @end scan_history_marks

-- @begin scan_history_usable
-- A figure a judgement can use: a finite scan efficiency from 0 to 10000 %,
-- as the table's CHECK constraints ask of every row recorded since 0.4.0.
-- In the library: it is asked of every run a judgement, a series or the
-- metrics read, and a call of a SQL function each cost more than the rest
-- of reading the run.
CREATE FUNCTION scanbench_internal.scan_history_usable(scan_pct float8) RETURNS boolean
AS 'MODULE_PATHNAME', 'scan_history_usable'
LANGUAGE C CALLED ON NULL INPUT IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION scanbench_internal.scan_history_usable(float8) IS
'true for a scan efficiency a judgement can use: finite, from 0 to 10000 %';
-- @end scan_history_usable

-- @begin scan_history_window
-- The runs a run is compared with, defined once: the earlier judged runs
-- of the same server, relation, cache mode and marks in the window_days
-- up to it, whose figure is one a judgement can use (a row of a server
-- that was not measured is no run to compare with; a row kept from before
-- the history checked its figures, out of range, is left out).  The
-- median, the judge's "what changed" and the chart read this window; the
-- trend and the metrics apply the same rule to every series in one pass
-- (scan_trend, scanbench_metrics), so that they agree with the alarm.
--
-- PL/pgSQL, given the run's row: its one query names the run's server as
-- a value, so that on a history distributed by server
-- (scan_history_distribute) it is routed to that server's shard alone,
-- and no query on the history runs inside another (which Citus would
-- send to a node, where the history is not).  Two branches, a fleet's
-- server and this server (NULL), each an equality on the server the index
-- can use: "the same server or both NULL" in one condition is none, and
-- would read the relation's runs of every server.
CREATE FUNCTION scanbench_internal.scan_history_compared(cur @extschema@.scan_history,
														 window_days integer)
RETURNS SETOF @extschema@.scan_history
LANGUAGE plpgsql STRICT STABLE
SET search_path = pg_catalog, pg_temp
-- One plan for every call, the months outside the window pruned as it
-- runs (scan_history_series_latest says why).
SET plan_cache_mode = force_generic_plan
AS $$
DECLARE
	marks text := coalesce(scanbench_internal.scan_history_marks(cur.verdict), '');
	since timestamptz := cur.measured_at - make_interval(days => window_days);
BEGIN
	IF cur.server IS NULL THEN
		RETURN QUERY
		SELECT h.* FROM @extschema@.scan_history h
		WHERE h.server IS NULL
		  AND h.relschema = cur.relschema AND h.relname = cur.relname
		  AND h.cache = cur.cache AND h.id <> cur.id AND h.reason IS NULL
		  AND h.measured_at <= cur.measured_at AND h.measured_at > since
		  AND scanbench_internal.scan_history_usable(h.scan_pct)
		  AND isfinite(h.measured_at)
		  AND scanbench_internal.scan_history_marks(h.verdict) = marks;
	ELSE
		RETURN QUERY
		SELECT h.* FROM @extschema@.scan_history h
		WHERE h.server = cur.server
		  AND h.relschema = cur.relschema AND h.relname = cur.relname
		  AND h.cache = cur.cache AND h.id <> cur.id AND h.reason IS NULL
		  AND h.measured_at <= cur.measured_at AND h.measured_at > since
		  AND scanbench_internal.scan_history_usable(h.scan_pct)
		  AND isfinite(h.measured_at)
		  AND scanbench_internal.scan_history_marks(h.verdict) = marks;
	END IF;
END
$$;

COMMENT ON FUNCTION scanbench_internal.scan_history_compared(@extschema@.scan_history, integer) IS
'the runs a run (its row of scan_history) is compared with: the earlier judged runs of the same server, relation, cache mode and marks in the window_days (days) up to it, with a usable figure; on a distributed history, read from that server''s shard alone';

CREATE FUNCTION scanbench_internal.scan_history_window(run bigint, window_days integer)
RETURNS SETOF bigint
LANGUAGE plpgsql STRICT STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	cur @extschema@.scan_history;
BEGIN
	SELECT * INTO cur FROM @extschema@.scan_history h WHERE h.id = run;
	IF FOUND THEN
		RETURN QUERY SELECT c.id FROM scanbench_internal.scan_history_compared(cur, window_days) c;
	END IF;
END
$$;

COMMENT ON FUNCTION scanbench_internal.scan_history_window(bigint, integer) IS
'the runs a run is compared with: the earlier judged runs of the same server, relation, cache mode and marks in the window_days (days) up to it, with a usable figure';

CREATE FUNCTION scanbench_internal.scan_history_median(run bigint, window_days integer DEFAULT 30,
									OUT median_pct float8, OUT runs integer,
									OUT since timestamptz)
LANGUAGE plpgsql STRICT STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	cur @extschema@.scan_history;
BEGIN
	runs := 0;
	SELECT * INTO cur FROM @extschema@.scan_history h WHERE h.id = run;
	IF FOUND THEN
		SELECT round(percentile_cont(0.5) WITHIN GROUP (ORDER BY c.scan_pct)::numeric, 1)::float8,
			   count(c.id)::int4, min(c.measured_at)
		INTO median_pct, runs, since
		FROM scanbench_internal.scan_history_compared(cur, window_days) c;
	END IF;
END
$$;

COMMENT ON FUNCTION scanbench_internal.scan_history_median(bigint, integer) IS
'the median a run is compared with: of the runs scan_history_window gives (earlier judged runs of the same server, relation, cache mode and marks in the window_days (days) up to it), %; with how many there are and the first one''s time';
-- @end scan_history_window

CREATE FUNCTION scanbench_internal.scan_history_check_limits(min_pct float8, max_drop_pct float8,
										  warn_pct float8, warn_drop_pct float8,
										  window_days integer)
RETURNS void
LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	IF min_pct IS NOT NULL AND NOT (min_pct > 0 AND min_pct < 1000) THEN
		RAISE EXCEPTION 'min_pct must be above 0 and below 1000, not %', min_pct
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF warn_pct IS NOT NULL AND NOT (warn_pct > 0 AND warn_pct < 1000) THEN
		RAISE EXCEPTION 'warn_pct must be above 0 and below 1000, not %', warn_pct
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF max_drop_pct IS NULL OR NOT (max_drop_pct > 0 AND max_drop_pct < 100) THEN
		RAISE EXCEPTION 'max_drop_pct must be above 0 and below 100, not %', coalesce(max_drop_pct::text, 'NULL')
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF warn_drop_pct IS NOT NULL AND NOT (warn_drop_pct > 0 AND warn_drop_pct <= max_drop_pct) THEN
		RAISE EXCEPTION 'warn_drop_pct must be above 0 and at most max_drop_pct (%), not %', max_drop_pct, warn_drop_pct
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'Give NULL for no warning before the alarm.';
	END IF;
	IF window_days IS NULL OR window_days < 1 OR window_days > 36600 THEN
		RAISE EXCEPTION 'window_days must be from 1 to 36600, not %', coalesce(window_days::text, 'NULL')
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
END
$$;

COMMENT ON FUNCTION scanbench_internal.scan_history_check_limits(float8, float8, float8, float8, integer) IS
'argument checks shared by efficiency_check and scan_history_judge';

