--
-- scan_advice: every argument checked before anything is measured
--
SELECT * FROM scan_advice('sb_t', 'sometimes');
SELECT * FROM scan_advice('sb_t', 'direct');
SELECT * FROM scan_advice('sb_t', max_seconds => 0);
SELECT * FROM scan_advice('sb_t', max_seconds => 'NaN');
SELECT * FROM scan_advice('sb_t', max_seconds => 1e9);
SELECT * FROM scan_advice('sb_t', query => ' ');
SELECT * FROM scan_advice('sb_t', query => 'count(1) FROM pg_class');
SELECT * FROM scan_advice('sb_view');
SELECT * FROM scan_advice('sb_empty');

-- Only the superuser, until granted.
CREATE ROLE regress_advice_nobody;
SET ROLE regress_advice_nobody;
SELECT * FROM scan_advice('sb_t');
RESET ROLE;
DROP ROLE regress_advice_nobody;

--
-- The rows: which candidates come depends on the host, so what is checked
-- is what every row must be.  Warm and without workers, a scan of sb_t is
-- limited by the executor's CPU on almost any machine, so that where a
-- second CPU is free a worker is tried and measured.
--
SET max_parallel_workers_per_gather = 0;
SET min_parallel_table_scan_size = 0;
CREATE TEMP TABLE settings_before AS SELECT name, setting FROM pg_settings;
SET client_min_messages = warning;	-- the NOTICE carries this host's figures
CREATE TEMP TABLE advice AS SELECT * FROM scan_advice('sb_t', 'warm', max_seconds => 10);
RESET client_min_messages;
SELECT coalesce(bool_and(relation = 'sb_t'::regclass), true) AS relation_ok,
       coalesce(bool_and(setting IS NOT NULL AND value IS NOT NULL AND command IS NOT NULL
                         AND basis IS NOT NULL), true) AS filled,
       coalesce(bool_and(cost IN ('none', 'CPU', 'memory', 'reload', 'restart', 'root')), true) AS cost_ok,
       coalesce(bool_and(measured = (pairs > 0)), true) AS measured_has_pairs,
       coalesce(bool_and(measured = (basis LIKE 'measured:%')), true) AS basis_says_so,
       coalesce(bool_and(measured OR (gain_lo IS NULL AND gain_hi IS NOT DISTINCT FROM gain)), true) AS predicted_is_a_bound,
       coalesce(bool_and(NOT measured OR gain > 0), true) AS measured_gain_ok,
       coalesce(bool_and(gain_lo IS NULL OR gain_lo <= gain AND gain <= gain_hi), true) AS interval_ok,
       coalesce(bool_and(NOT measured OR setting IN ('effective_io_concurrency', 'io_combine_limit',
                                                    'max_parallel_workers_per_gather')), true) AS only_session_settings_measured
FROM advice;
-- Best first.
SELECT coalesce(bool_and(ok), true) AS ordered FROM (
  SELECT gain >= lead(gain) OVER (ORDER BY ord) OR lead(gain) OVER (ORDER BY ord) IS NULL AS ok
  FROM (SELECT gain, row_number() OVER () AS ord FROM advice) o) x;
-- The session's settings are as they were.
SELECT count(*) AS changed FROM pg_settings s JOIN settings_before b USING (name)
WHERE s.setting IS DISTINCT FROM b.setting;
RESET max_parallel_workers_per_gather;
RESET min_parallel_table_scan_size;
