--
-- The nightly check.  A procedure, because the run must stay in the
-- history when the check then raises: it commits the recorded run before
-- it judges it.  Checks of one relation take turns (an advisory lock
-- taken before anything else, so nothing is held while waiting), so that
-- one check's eviction does not land in the middle of another's timing.
-- It keeps the limits it judges a run with in the run's row
-- (scan_history_judge(run) judges it again the same way), and a NULL where
-- a value is needed is refused by the argument's name before measuring.
--
-- @index 160 | `efficiency_check(rel, cache, …)` | procedure: measure, record, compare with the history; ERROR `SB001` on an alarm |
CREATE PROCEDURE efficiency_check(rel regclass,
								  cache text DEFAULT 'cold',
								  min_pct float8 DEFAULT NULL,
								  max_drop_pct float8 DEFAULT 20,
								  warn_pct float8 DEFAULT NULL,
								  warn_drop_pct float8 DEFAULT 10,
								  window_days integer DEFAULT 30,
								  max_seconds float8 DEFAULT 60,
								  target_pct float8 DEFAULT NULL,
								  sample float8 DEFAULT 1.0,
								  method text DEFAULT 'pairs',
								  runs integer DEFAULT 1)
LANGUAGE plpgsql
AS $$
DECLARE
	run pg_catalog.int8;
	j record;
	missing pg_catalog.text;
BEGIN
	missing := CASE WHEN rel IS NULL THEN 'rel' WHEN cache IS NULL THEN 'cache'
				WHEN max_drop_pct IS NULL THEN 'max_drop_pct'
				WHEN window_days IS NULL THEN 'window_days'
				WHEN max_seconds IS NULL THEN 'max_seconds' WHEN sample IS NULL THEN 'sample'
				WHEN method IS NULL THEN 'method' WHEN runs IS NULL THEN 'runs' END;
	IF missing IS NOT NULL THEN
		RAISE EXCEPTION '% must not be NULL', missing
			USING ERRCODE = 'null_value_not_allowed',
				  HINT = 'Leave the argument out for its default; min_pct, warn_pct, warn_drop_pct and target_pct take NULL (no limit, the default warning, no warning, half of max_drop_pct).';
	END IF;
	PERFORM scanbench_internal.scan_history_check_limits(min_pct, max_drop_pct, warn_pct,
														 warn_drop_pct, window_days);
	PERFORM scanbench_internal.scan_history_outside_block();

	PERFORM pg_catalog.pg_advisory_xact_lock(
		(pg_catalog.hashtext('scanbench.efficiency_check'::pg_catalog.text)::pg_catalog.int8
		 OPERATOR(pg_catalog.<<) 32)
		OPERATOR(pg_catalog.|) rel::pg_catalog.oid::pg_catalog.int8);
	-- The precision the check needs: a drop of max_drop_pct is told from
	-- noise when the interval is within half of it.
	run := scanbench_internal.scan_history_measure(rel, cache, runs, sample, max_seconds,
												   coalesce(target_pct, max_drop_pct OPERATOR(pg_catalog./) 2::pg_catalog.float8), method,
												   min_pct, max_drop_pct, warn_pct,
												   warn_drop_pct, window_days);
	COMMIT;

	SELECT * INTO j FROM @extschema@.scan_history_judge(run, min_pct, max_drop_pct, warn_pct,
														 warn_drop_pct, window_days);
	IF j.status OPERATOR(pg_catalog.=) 'regression'::pg_catalog.text THEN
		RAISE EXCEPTION USING ERRCODE = 'SB001', MESSAGE = j.message,
			DETAIL = j.detail, HINT = j.hint;
	ELSIF j.status OPERATOR(pg_catalog.=) 'warning'::pg_catalog.text
		  OR j.status OPERATOR(pg_catalog.=) 'not_judged'::pg_catalog.text THEN
		RAISE WARNING USING MESSAGE = j.message, DETAIL = j.detail, HINT = j.hint;
	ELSE
		RAISE NOTICE USING MESSAGE = j.message;
	END IF;
END
$$;

COMMENT ON PROCEDURE efficiency_check(regclass, text, float8, float8, float8, float8, integer, float8, float8, float8, text, integer) IS
'measure (max_seconds s, interval within target_pct %, by default half of max_drop_pct), record and judge a relation''s scan efficiency (CALL it outside a transaction block); ERROR with SQLSTATE SB001 when under min_pct (%) or more than max_drop_pct (%) below the median of window_days; WARNING near a limit or when the run cannot be judged';

REVOKE ALL ON PROCEDURE efficiency_check(regclass, text, float8, float8, float8, float8, integer, float8, float8, float8, text, integer) FROM PUBLIC;

