--
-- workload_check: what it refuses before taking anything (its arguments,
-- a transaction block, track_io_timing off, no pg_stat_statements), who
-- may run it, the judge's rules with literal inputs, and the judgement
-- of checks written by hand.  t/066_workload_check.pl runs it on a server
-- with pg_stat_statements loaded.
--
\set SHOW_CONTEXT never

-- Arguments, refused by name.
CALL workload_check(max_drop_pct => NULL);
CALL workload_check(queries => NULL);
CALL workload_check(max_drop_pct => 0);
CALL workload_check(max_drop_pct => 'NaN');
CALL workload_check(warn_drop_pct => 60);
CALL workload_check(window_days => 0);
CALL workload_check(queries => 0);
-- Inside a transaction block: it could not commit its check.
BEGIN;
CALL workload_check();
\echo :LAST_ERROR_SQLSTATE
ROLLBACK;
-- track_io_timing off: no rate would be recorded.
SET track_io_timing = off;
CALL workload_check();
\echo :LAST_ERROR_SQLSTATE
RESET track_io_timing;
SET track_io_timing = on;
-- pg_stat_statements is not installed: refused, with how to install it.
CALL workload_check();
\echo :LAST_ERROR_SQLSTATE
RESET track_io_timing;
SELECT count(*) AS checks FROM workload_checks;
SELECT count(*) AS snapshots FROM workload_snapshots;
SELECT stmt, sb_sqlstate(stmt) FROM (VALUES
	($$CALL workload_check(max_drop_pct => NULL)$$),
	($$CALL workload_check(queries => 0)$$),
	($$SELECT * FROM workload_history_judge(-1)$$),
	($$SELECT workload_history_prune('1 hour')$$)) v(stmt);
RESET track_io_timing;

-- Nobody but the superuser may check until granted; pg_monitor may read
-- and judge.
CREATE ROLE regress_wcheck;
SET ROLE regress_wcheck;
CALL workload_check();
SELECT count(*) FROM workload_checks;
SELECT * FROM workload_history_judge();
RESET ROLE;
GRANT pg_monitor TO regress_wcheck;
SET ROLE regress_wcheck;
SELECT count(*) AS checks FROM workload_checks;
SELECT count(*) AS judged FROM workload_history_judge();
CALL workload_check();
RESET ROLE;
DROP ROLE regress_wcheck;

-- The judge's rules, each with literal inputs: reference_pct, its median,
-- earlier checks, blocks read, the reference now and the one compared
-- with, cached_pct and its median, blocks a call and its median, settings
-- now and before; max_drop_pct 50, warn_drop_pct 25.
SELECT t.rule, j.*
FROM (VALUES
	('ok: 10 % slower', 45::float8, 50::float8, 5, 5000::bigint, 'sequential', 'sequential', 10::float8, 12::float8, 1000::float8, 1000::float8,
	 '{"random_page_cost": "4"}'::jsonb, '{"random_page_cost": "4"}'::jsonb),
	('faster is ok', 80, 50, 5, 5000, 'sequential', 'sequential', 10, 12, 1000, 1000, NULL, NULL),
	('warning: 30 % slower, nothing changed', 35, 50, 5, 5000, 'sequential', 'sequential', 10, 12, 1000, 1000, NULL, NULL),
	('warning at exactly max_drop_pct', 25, 50, 3, 5000, 'sequential', 'sequential', 10, 12, 1000, 1000, NULL, NULL),
	('alarm: plan, from sequential to random, settings changed', 2, 50, 4, 5000, 'random', 'sequential', 10, 12, 1000, 1000,
	 '{"enable_seqscan": "off", "random_page_cost": "1.1"}', '{"enable_seqscan": "on", "random_page_cost": "1.1"}'),
	('alarm: plan, by blocks a call', 20, 50, 4, 5000, 'sequential', 'sequential', 10, 12, 5000, 1000, NULL, NULL),
	('alarm: no longer from the page cache', 5, 100, 4, 5000, 'sequential', 'page_cache', 10, 12, 1000, 1000, NULL, NULL),
	('alarm: shared_buffers'' share fell', 20, 50, 4, 5000, 'sequential', 'sequential', 5, 60, 1000, 1000, NULL, NULL),
	('not judged: 2 earlier checks', 2, 50, 2, 5000, 'sequential', 'sequential', 10, 12, 1000, 1000, NULL, NULL),
	('not judged: no rate', NULL, 50, 5, 5000, NULL, 'sequential', 10, 12, 1000, 1000, NULL, NULL),
	('not judged: too few blocks read', 2, 50, 5, 1000, 'sequential', 'sequential', 10, 12, 1000, 1000, NULL, NULL),
	('not judged: no earlier rate', 40, NULL, 0, 5000, 'sequential', 'sequential', 10, NULL, 1000, NULL, NULL, NULL)
) AS t(rule, pct, median, earlier, blocks, ref, compared, cached, median_cached, per_call, median_per_call, settings, earlier_settings),
LATERAL scanbench_internal.workload_drop_judge(t.pct, t.median, t.earlier, t.blocks, t.ref, t.compared,
	t.cached, t.median_cached, t.per_call, t.median_per_call, t.settings, t.earlier_settings, 50, 25) j;

-- Checks written by hand, in a transaction rolled back at the end: one
-- query read sequentially at about 50 % of the sequential reference for
-- four checks, then at 2 % and nearest random, with enable_seqscan off;
-- another stayed as it was.
\set ON_ERROR_ROLLBACK on
BEGIN;
INSERT INTO workload_checks (id, measured_at, from_snapshot, to_snapshot, interval_s,
	settings, sequential_mb_s, random_mb_s, page_cache_mb_s,
	limit_max_drop_pct, limit_warn_drop_pct, limit_window_days)
SELECT n, '2026-01-01'::timestamptz + make_interval(days => n), CASE WHEN n > 1 THEN 100 + n - 1 END,
	100 + n, CASE WHEN n > 1 THEN 86400 END,
	jsonb_build_object('enable_seqscan', CASE WHEN n = 6 THEN 'off' ELSE 'on' END,
					   'random_page_cost', '4'),
	200, 2, 2000, 50, 25, 30
FROM generate_series(1, 6) n;
INSERT INTO workload_history (check_id, measured_at, queryid, database, role, toplevel, query,
	calls, exec_s, blocks_read, blocks_hit, read_wait_s, read_wait_pct, read_mb_s, cached_pct,
	reference, reference_pct, verdict)
SELECT c.id, c.measured_at, q.queryid, 'tpch', 'app', true, q.query, 10, 10,
	CASE WHEN q.queryid = 1 AND c.id = 6 THEN 90000 ELSE 10000 END, 100, 5, 50,
	CASE WHEN q.queryid = 2 THEN 101 WHEN c.id = 6 THEN 4 ELSE 100 + c.id END, 1,
	CASE WHEN q.queryid = 1 AND c.id = 6 THEN 'random' ELSE 'sequential' END,
	CASE WHEN q.queryid = 1 AND c.id = 6 THEN 200 ELSE 50 END, '{storage_bound}'
FROM workload_checks c,
	 (VALUES (1::bigint, 'SELECT count(*) FROM lineitem WHERE l_partkey < $1'),
			 (2, 'SELECT sum(o_totalprice) FROM orders')) q(queryid, query)
WHERE c.id > 1;
SELECT check_id, queryid, reference, compared_reference, reference_pct, median_pct,
	earlier_checks, drop_pct, status, changes, message
FROM workload_history_judge();
-- An earlier check judged again as it was.
SELECT check_id, queryid, status, earlier_checks, drop_pct FROM workload_history_judge(5);
SELECT check_id, queryid, status, earlier_checks FROM workload_history_judge(3);
-- What workload_check says of it.
SELECT scanbench_internal.workload_check_report(6);
\echo :LAST_ERROR_SQLSTATE
SELECT scanbench_internal.workload_check_report(5);
SELECT scanbench_internal.workload_check_report(1);
-- The metrics: the latest check's queries, at most the setting's number.
SELECT line FROM regexp_split_to_table(scanbench_metrics(), E'\n') line
WHERE line ~ 'workload' AND line !~ '^# HELP';
SET scanbench.workload_metrics_queries = 1;
SELECT count(*) AS reference_series FROM regexp_split_to_table(scanbench_metrics(), E'\n') line
WHERE line ~ '^scanbench_workload_reference_percent';
SET scanbench.workload_metrics_queries = 'many';
SELECT count(*) AS reference_series FROM regexp_split_to_table(scanbench_metrics(), E'\n') line
WHERE line ~ '^scanbench_workload_reference_percent';
RESET scanbench.workload_metrics_queries;
-- Pruning keeps the latest check.
SELECT workload_history_prune('1 day');
SELECT id FROM workload_checks ORDER BY id;
SELECT count(*) AS rows FROM workload_history;
ROLLBACK;
\set ON_ERROR_ROLLBACK off
-- No check, no workload family.
SELECT count(*) AS workload_lines FROM regexp_split_to_table(scanbench_metrics(), E'\n') line
WHERE line ~ 'workload';
