--
-- page_costs_history, page_costs_record, page_costs_judge and
-- page_costs_check: what they refuse, what the history's constraints
-- refuse from any writer, a real run recorded, and the judgement of runs
-- written by hand (every status, the window's median).
--
\set SHOW_CONTEXT never

-- Arguments: NULL, out of range, inside a transaction block; each refused
-- before anything is measured (sb_t is too small to be measured at all).
SELECT page_costs_record(NULL);
SELECT page_costs_record(jsonb_populate_record(NULL::page_costs_result, '{"pages": 1}'));
SELECT page_costs_record(jsonb_populate_record(NULL::page_costs_result, '{"relation": "sb_t"}'), max_off_pct => 0);
SELECT * FROM page_costs_judge(NULL);
SELECT * FROM page_costs_judge(-1);
CALL page_costs_check(NULL);
CALL page_costs_check('sb_t', max_seconds => NULL);
CALL page_costs_check('sb_t', max_off_pct => NULL);
CALL page_costs_check('sb_t', window_days => NULL);
CALL page_costs_check('sb_t', max_seconds => 0);
CALL page_costs_check('sb_t', max_seconds => 'NaN');
CALL page_costs_check('sb_t', max_off_pct => 0);
CALL page_costs_check('sb_t', max_off_pct => 1001);
CALL page_costs_check('sb_t', max_off_pct => 'NaN');
CALL page_costs_check('sb_t', window_days => 0);
BEGIN;
CALL page_costs_check('sb_t');
ROLLBACK;
SELECT page_costs_history_prune(NULL);
SELECT page_costs_history_prune('1 hour');
SELECT stmt, sb_sqlstate(stmt) FROM (VALUES
	($$SELECT page_costs_record(NULL)$$),
	($$SELECT page_costs_judge(NULL)$$),
	($$SELECT page_costs_judge(-1)$$),
	($$SELECT page_costs_judge(-1, max_off_pct => -1)$$),
	($$SELECT page_costs_history_prune('1 hour')$$)) v(stmt);
SELECT count(*) AS recorded FROM page_costs_history;

-- A figure no measurement gives is refused by the recorder, by its name,
-- and by the table from any writer.
SELECT page_costs_record(jsonb_populate_record(NULL::page_costs_result,
	'{"relation": "sb_t", "ratio": "NaN"}'));
SELECT page_costs_record(jsonb_populate_record(NULL::page_costs_result,
	'{"relation": "sb_t", "seq_page_us": -1}'));
SELECT page_costs_record(jsonb_populate_record(NULL::page_costs_result,
	'{"relation": "sb_t", "recommended_random_page_cost": "Infinity"}'));
SELECT page_costs_record(jsonb_populate_record(NULL::page_costs_result,
	'{"relation": "sb_t", "ratio_low": 5, "ratio_high": 4}'));
SELECT page_costs_record(jsonb_populate_record(NULL::page_costs_result,
	'{"relation": "sb_t", "recommended_low": 5, "recommended_high": 4}'));
SELECT page_costs_record(jsonb_populate_record(NULL::page_costs_result,
	'{"relation": 1, "ratio": 4}'));
\set VERBOSITY terse
INSERT INTO page_costs_history (measured_at, relschema, relname, ratio) VALUES (now(), 'public', 'x', 'NaN');
INSERT INTO page_costs_history (measured_at, relschema, relname, ratio) VALUES (now(), 'public', 'x', 0);
INSERT INTO page_costs_history (measured_at, relschema, relname, ratio) VALUES (now(), 'public', 'x', 'Infinity');
INSERT INTO page_costs_history (measured_at, relschema, relname, ratio_low, ratio_high) VALUES (now(), 'public', 'x', 5, 4);
INSERT INTO page_costs_history (measured_at, relschema, relname, seq_page_us) VALUES (now(), 'public', 'x', -1);
INSERT INTO page_costs_history (measured_at, relschema, relname, random_page_us) VALUES (now(), 'public', 'x', 'NaN');
INSERT INTO page_costs_history (measured_at, relschema, relname, elapsed_s) VALUES (now(), 'public', 'x', 'Infinity');
INSERT INTO page_costs_history (measured_at, relschema, relname, cached_pct_before) VALUES (now(), 'public', 'x', 101);
INSERT INTO page_costs_history (measured_at, relschema, relname, recommended_random_page_cost) VALUES (now(), 'public', 'x', 0);
INSERT INTO page_costs_history (measured_at, relschema, relname, recommended_low, recommended_high) VALUES (now(), 'public', 'x', 5, 4);
INSERT INTO page_costs_history (measured_at, relschema, relname, random_page_cost) VALUES (now(), 'public', 'x', -4);
INSERT INTO page_costs_history (measured_at, relschema, relname) VALUES ('infinity', 'public', 'x');
INSERT INTO page_costs_history (measured_at, relschema, relname, verdict, ratio) VALUES (now(), 'public', 'x', '{ok}', 4);
INSERT INTO page_costs_history (measured_at, relschema, relname, limit_max_off_pct) VALUES (now(), 'public', 'x', 0);
INSERT INTO page_costs_history (measured_at, relschema, relname, recommended_eic_low, recommended_eic_high) VALUES (now(), 'public', 'x', 16, 4);
INSERT INTO page_costs_history (measured_at, relschema, relname, depths, depth_pages_s) VALUES (now(), 'public', 'x', '{1,2}', '{500}');
INSERT INTO page_costs_history (measured_at, relschema, relname, limit_window_days) VALUES (now(), 'public', 'x', 0);
\set VERBOSITY default
SELECT count(*) AS recorded FROM page_costs_history;

-- Real runs of a table of 60 MB, by the check and by hand.  Their
-- figures and verdicts are this host's: what they say is left out (the
-- check's message included: no status of a real run is an ERROR at
-- max_off_pct 1000), what must hold of them is shown.  On a busy machine
-- two seconds may not finish a round: a run over budget has no ratio.
CREATE TABLE sb_pch (id integer, pad text) WITH (autovacuum_enabled = false);
INSERT INTO sb_pch SELECT g, repeat('x', 400) FROM generate_series(1, 140000) g;
SET client_min_messages = error;
CALL page_costs_check('sb_pch', max_seconds => 2, max_off_pct => 1000, window_days => 10);
SELECT page_costs_record(page_costs('sb_pch', max_seconds => 2)) > 0 AS recorded;
RESET client_min_messages;
SELECT id > 0 AS id_ok, relschema, relname, relid = 'sb_pch'::regclass AS relid_ok, tablespace,
       pages = pg_relation_size('sb_pch') / 8192 AS all_pages,
       pg_typeof(verdict) AS verdict_type, cardinality(verdict) > 0 AS verdict_given,
       coalesce(ratio > 0, 'over_budget' = ANY (verdict)) AS ratio_ok,
       coalesce(seq_page_us > 0 AND random_page_us > 0, 'over_budget' = ANY (verdict)) AS times_ok,
       random_page_cost = current_setting('random_page_cost')::float8 AS in_force,
       (recommended_random_page_cost IS NOT NULL OR recommended_effective_io_concurrency IS NOT NULL)
         = (command IS NOT NULL) AS command_ok,
       server_major = current_setting('server_version_num')::integer / 10000 AS major_ok,
       recorded_by = current_user AS by_me, limit_max_off_pct, limit_window_days
FROM page_costs_history ORDER BY id;
SELECT j.id = h.id AS id_ok, j.relation,
       j.status IN ('ok', 'warning', 'alarm', 'unjudged') AS status_known,
       (j.status = 'unjudged') = (h.verdict <> '{ok}') AS unjudged_right,
       j.reason LIKE 'public.sb_pch%' AS reason_names_it
FROM page_costs_history h, page_costs_judge(h.id) j ORDER BY h.id;

-- Runs written by hand, at fixed times.  Each judged run at T (noon,
-- June 10th) has the same earlier runs: {ok} ratios 10, 12 and 14 at 3,
-- 2 and 1 days before it (the 30-day median 12), one of {ok} 40 days
-- before (out of the window), one {unstable} 23 hours before (not
-- judged: left out) and one {ok} a day after (later: left out); another
-- table's run of {ok} a day before is another series.
TRUNCATE page_costs_history RESTART IDENTITY;
INSERT INTO page_costs_history (measured_at, relschema, relname, tablespace, ratio,
	ratio_low, ratio_high, seq_page_cost, random_page_cost,
	recommended_random_page_cost, recommended_low, recommended_high, verdict)
SELECT '2026-06-10 12:00+00'::timestamptz + e.at::interval, 'public', r.name, 'pg_default',
	   e.ratio, e.ratio * 0.9, e.ratio * 1.1, 1, 4, 4, 3.8, 4.2, e.verdict
FROM (VALUES ('sb_ok'), ('sb_near'), ('sb_off'), ('sb_off_kept'), ('sb_moved'),
			 ('sb_cached'), ('sb_short'), ('sb_shaky'), ('sb_shallow')) r(name),
	 (VALUES ('-3 days', 10, '{ok}'::text[]), ('-2 days', 12, '{ok}'), ('-1 day', 14, '{ok}'),
			 ('-40 days', 100, '{ok}'), ('-23 hours', 50, '{unstable}'),
			 ('1 day', 500, '{ok}')) e(at, ratio, verdict);
INSERT INTO page_costs_history (measured_at, relschema, relname, ratio, random_page_cost,
	recommended_random_page_cost, recommended_low, recommended_high, verdict)
VALUES ('2026-06-09 12:00+00', 'public', 'sb_other', 1000, 4, 4, 3.8, 4.2, '{ok}');
-- The judged runs: the setting in force 4 against recommendations around
-- it (ok), 48 % off (warning: above half of 50), 160 % off (alarm), the
-- same recorded by a check with max_off_pct 200 (warning), a ratio 30
-- against the median 12 (+150 %: warning, the storage changed), and runs
-- with no recommendation.
INSERT INTO page_costs_history (measured_at, relschema, relname, tablespace, ratio, ratio_low,
	ratio_high, seq_page_cost, random_page_cost, recommended_random_page_cost,
	recommended_low, recommended_high, command, rounds, elapsed_s, cached_pct_before,
	verdict, limit_max_off_pct, limit_window_days)
VALUES
	('2026-06-10 12:00+00', 'public', 'sb_ok', 'pg_default', 12.6, 12, 13.2, 1, 4, 4.2, 3.9, 4.5,
	 'ALTER TABLESPACE pg_default SET (random_page_cost = 4.2)', 40, 30, 0, '{ok}', NULL, NULL),
	('2026-06-10 12:00+00', 'public', 'sb_near', 'pg_default', 12, 11, 13, 1, 4, 2.5, 2.2, 2.8,
	 'ALTER TABLESPACE pg_default SET (random_page_cost = 2.5)', 40, 30, 0, '{ok}', NULL, NULL),
	('2026-06-10 12:00+00', 'public', 'sb_off', 'pg_default', 12, 11, 13, 1, 4, 1.5, 1.4, 1.6,
	 'ALTER TABLESPACE pg_default SET (random_page_cost = 1.5)', 40, 30, 0, '{ok}', 50, 30),
	('2026-06-10 12:00+00', 'public', 'sb_off_kept', 'pg_default', 12, 11, 13, 1, 4, 1.5, 1.4, 1.6,
	 'ALTER TABLESPACE pg_default SET (random_page_cost = 1.5)', 40, 30, 0, '{ok}', 200, 30),
	('2026-06-10 12:00+00', 'public', 'sb_moved', 'pg_default', 30, 28, 32, 1, 4, 4, 3.8, 4.2,
	 'ALTER TABLESPACE pg_default SET (random_page_cost = 4)', 40, 30, 0, '{ok}', NULL, NULL),
	('2026-06-10 12:00+00', 'public', 'sb_cached', 'pg_default', 12, 11, 13, 1, 4, NULL, NULL, NULL,
	 NULL, 40, 30, 98.5, '{cached}', NULL, NULL),
	('2026-06-10 12:00+00', 'public', 'sb_short', 'pg_default', NULL, NULL, NULL, 1, 4, NULL, NULL, NULL,
	 NULL, 3, 1.02, 0, '{over_budget}', NULL, NULL),
	('2026-06-10 12:00+00', 'public', 'sb_shaky', 'pg_default', 12, 8, 16, 1, 4, 4, 2.7, 5.3,
	 'ALTER TABLESPACE pg_default SET (random_page_cost = 4)', 40, 30, 0, '{unstable}', NULL, NULL);
-- The setting in force within the interval, but the tablespace's
-- effective_io_concurrency 1 below every sweep's depth (4 to 16): warning.
INSERT INTO page_costs_history (measured_at, relschema, relname, tablespace, ratio, ratio_low,
	ratio_high, seq_page_cost, random_page_cost, recommended_random_page_cost,
	recommended_low, recommended_high, effective_io_concurrency, depths, depth_pages_s, sweeps,
	recommended_effective_io_concurrency, recommended_eic_low, recommended_eic_high,
	command, rounds, elapsed_s, cached_pct_before, verdict)
VALUES ('2026-06-10 12:00+00', 'public', 'sb_shallow', 'pg_default', 12.6, 12, 13.2, 1, 4, 4.2,
	3.9, 4.5, 1, '{1,2,4,8,16,32}', '{500,1000,2000,4000,4000,4000}', 7, 8, 4, 16,
	'ALTER TABLESPACE pg_default SET (random_page_cost = 4.2, effective_io_concurrency = 8)',
	40, 30, 0, '{ok}');
\x on
SELECT j.relation, j.ratio, j.window_median_ratio, j.earlier_runs, j.change_pct,
	   j.random_page_cost, j.recommended_random_page_cost, j.recommended_low,
	   j.recommended_high, j.off_pct, j.status, j.reason, j.command,
	   j.effective_io_concurrency, j.recommended_effective_io_concurrency
FROM page_costs_history h, page_costs_judge(h.id) j
WHERE h.measured_at = '2026-06-10 12:00+00'
ORDER BY h.id;
\x off

-- The window: 2 days hold the run a day before alone; 1 day none; the
-- limits given override those the run was recorded with.
SELECT w.days, j.window_median_ratio, j.earlier_runs, j.change_pct, j.status
FROM page_costs_history h, (VALUES (1), (2), (3), (30), (40)) w(days),
	 page_costs_judge(h.id, window_days => w.days) j
WHERE h.relname = 'sb_ok' AND h.measured_at = '2026-06-10 12:00+00'
ORDER BY w.days;
SELECT h.relname, m.pct, j.off_pct, j.status
FROM page_costs_history h, (VALUES (20), (50), (100), (200)) m(pct),
	 page_costs_judge(h.id, max_off_pct => m.pct) j
WHERE h.relname IN ('sb_near', 'sb_off_kept') AND h.measured_at = '2026-06-10 12:00+00'
ORDER BY 1, 2;

-- What page_costs_check says of each: an ERROR with SQLSTATE SB002 on
-- the alarm, with the command; a WARNING; a NOTICE.
SELECT sb_sqlstate($$SELECT scanbench_internal.page_costs_report(h.id, NULL, NULL)
	FROM page_costs_history h WHERE h.relname = 'sb_off' AND h.measured_at = '2026-06-10 12:00+00'$$) AS alarm;
SELECT scanbench_internal.page_costs_report(h.id, NULL, NULL)
FROM page_costs_history h WHERE h.relname = 'sb_off' AND h.measured_at = '2026-06-10 12:00+00';
SELECT scanbench_internal.page_costs_report(h.id, NULL, NULL)
FROM page_costs_history h WHERE h.relname = 'sb_near' AND h.measured_at = '2026-06-10 12:00+00';
SELECT scanbench_internal.page_costs_report(h.id, NULL, NULL)
FROM page_costs_history h WHERE h.relname = 'sb_ok' AND h.measured_at = '2026-06-10 12:00+00';

-- Pruning: the runs of June are older than a day; none is younger.
SELECT page_costs_history_prune('1 day') AS pruned;
SELECT count(*) AS left FROM page_costs_history;

-- Nobody but the superuser may record, check or prune; pg_monitor may
-- read the history and judge.
SELECT p.oid::regprocedure AS function,
       has_function_privilege('public', p.oid, 'EXECUTE') AS public,
       has_function_privilege('pg_monitor', p.oid, 'EXECUTE') AS pg_monitor
FROM pg_proc p
WHERE p.proname LIKE 'page_costs%' OR p.proname = 'scan_history_in_block'
ORDER BY p.oid::regprocedure::text;
SELECT has_table_privilege('public', 'page_costs_history', 'SELECT') AS public_reads,
       has_table_privilege('pg_monitor', 'page_costs_history', 'SELECT') AS pg_monitor_reads,
       has_table_privilege('pg_monitor', 'page_costs_history', 'INSERT') AS pg_monitor_writes;

DROP TABLE sb_pch;
