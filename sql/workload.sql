--
-- workload_snapshot, workload_reads, workload_io and workload_references:
-- what they refuse (no pg_stat_statements, bad snapshots), who may run
-- them, and each statement's figures and verdict from snapshots and
-- references written by hand; the judge's rules with literal inputs.
-- The server this runs on has no pg_stat_statements in
-- shared_preload_libraries (t/064_workload.pl has one that does).
--
\set SHOW_CONTEXT never

-- pg_stat_statements is not installed: refused, with how to install it.
SELECT workload_snapshot();
-- Installed (in a schema of its own, found through pg_extension) but not
-- loaded: refused, with the setting that loads it.
CREATE SCHEMA sb_pgss;
CREATE EXTENSION pg_stat_statements SCHEMA sb_pgss;
SELECT workload_snapshot();
DROP EXTENSION pg_stat_statements;
DROP SCHEMA sb_pgss;
SELECT count(*) AS snapshot_rows FROM workload_snapshots;

-- Arguments: a snapshot that was never taken, NULL, the wrong order.
SELECT * FROM workload_reads(NULL);
SELECT * FROM workload_reads(-1);
SELECT * FROM workload_io(NULL);
SELECT * FROM workload_io(-1, NULL);
SELECT stmt, sb_sqlstate(stmt) FROM (VALUES
	($$SELECT workload_snapshot()$$),
	($$SELECT workload_reads(NULL)$$),
	($$SELECT workload_reads(-1)$$),
	($$SELECT workload_io(-1)$$)) v(stmt);

-- Nobody but the superuser until granted; pg_monitor may read.
CREATE ROLE regress_workload;
SET ROLE regress_workload;
SELECT workload_snapshot();
SELECT * FROM workload_reads(1);
SELECT * FROM workload_references();
SELECT count(*) FROM workload_snapshots;
RESET ROLE;
GRANT pg_monitor TO regress_workload;
SET ROLE regress_workload;
SELECT count(*) AS references FROM workload_references();
SELECT count(*) AS snapshot_rows FROM workload_snapshots;
SELECT workload_snapshot();
RESET ROLE;
DROP ROLE regress_workload;

-- Snapshots written by hand, in a transaction rolled back at the end
-- (the histories the references come from are emptied in it).
\set ON_ERROR_ROLLBACK on
BEGIN;
SET LOCAL effective_io_concurrency = 8;
DELETE FROM scan_history;
DELETE FROM page_costs_history;

-- from: snapshot 1001; to: 1002.  Counters per statement:
--   1 seq      12800 blocks (104857600 bytes) waited 1 s of 1.5: 104.9 MB/s
--   2 warm     12800 blocks in 0.04 s of 0.5: 2621.4 MB/s
--   3 index    1000 blocks in 1 s of 1.2: 8.2 MB/s
--   4 bitmap   1000 blocks in 0.125 s of 0.2: 65.5 MB/s
--   5 hits     none read, 500 found in shared_buffers
--   6 untimed  100 blocks read, no wait recorded
--   7 restart  fewer calls at 1002 than at 1001: counted from 0
--   8 new      only at 1002: counted from 0
--   9 gone     only at 1001: left out
--  10 idle     no call in between: left out
CREATE TEMP TABLE sb_w (snapshot bigint, queryid bigint, calls bigint, exec_s float8,
	blocks_read bigint, blocks_hit bigint, read_wait_s float8, query text);
INSERT INTO sb_w VALUES
	(1001, 1, 10, 10, 100000, 0, 5, 'seq'),
	(1002, 1, 11, 11.5, 112800, 0, 6, 'seq'),
	(1001, 2, 1, 0.1, 0, 0, 0, 'warm'),
	(1002, 2, 2, 0.6, 12800, 0, 0.04, 'warm'),
	(1001, 3, 5, 1, 0, 0, 0, 'index'),
	(1002, 3, 6, 2.2, 1000, 0, 1, 'index'),
	(1001, 4, 5, 1, 0, 0, 0, 'bitmap'),
	(1002, 4, 6, 1.2, 1000, 0, 0.125, 'bitmap'),
	(1001, 5, 5, 1, 0, 0, 0, 'hits'),
	(1002, 5, 6, 1.1, 0, 500, 0, 'hits'),
	(1001, 6, 5, 1, 0, 0, 0, 'untimed'),
	(1002, 6, 6, 1.1, 100, 0, 0, 'untimed'),
	(1001, 7, 50, 5, 5000, 0, 5, 'restart'),
	(1002, 7, 3, 0.3, 300, 0, 0.3, 'restart'),
	(1002, 8, 2, 0.03, 200, 0, 0.0244, 'new'),
	(1001, 9, 2, 0.03, 200, 0, 0.0244, 'gone'),
	(1001, 10, 2, 0.03, 200, 0, 0.0244, 'idle'),
	(1002, 10, 2, 0.03, 200, 0, 0.0244, 'idle');
INSERT INTO workload_snapshots (snapshot, taken_at, userid, dbid, toplevel, queryid,
	calls, exec_s, rows, blocks_read, blocks_hit, read_wait_s, track_io_timing,
	stats_since, stats_reset, query)
SELECT w.snapshot, '2026-01-01'::timestamptz + (w.snapshot - 1000) * interval '1 hour',
	(SELECT oid FROM pg_roles WHERE rolname = current_user),
	(SELECT oid FROM pg_database WHERE datname = current_database()),
	true, w.queryid, w.calls, w.exec_s, 0, w.blocks_read, w.blocks_hit, w.read_wait_s,
	true, NULL, '2025-12-01', w.query
FROM sb_w w;

-- Against the counters now, pg_stat_statements is needed.
SELECT * FROM workload_reads(1001);
-- The snapshots must be taken, and in order.
SELECT * FROM workload_reads(1002, 1001);
SELECT * FROM workload_reads(1001, 1001);
SELECT * FROM workload_reads(1001, 999999);

-- No reference recorded yet: the figures, and no_reference.
SELECT * FROM workload_references();
SELECT query, calls, exec_s, blocks_read, blocks_hit, bytes_read,
	bytes_read = blocks_read * current_setting('block_size')::bigint AS bytes_are_blocks,
	read_wait_s, read_wait_pct, read_mb_s, block_wait_us, reference, verdict, note,
	database = current_database() AS this_database, role = current_user AS this_role
FROM workload_reads(1001, 1002);

-- The references: a page_costs run two days old (a sequential page in
-- 81.92 us: 100 MB/s; a random one in 1 ms: 8.2 MB/s; 8000 pages a second
-- at depth 8, effective_io_concurrency: 65.5 MB/s; a page from the page
-- cache in 4 us: 2048 MB/s), then a cold scan_efficiency run a day old
-- (sequential 120 MB/s, newer: it wins) and a newer one a cache below
-- the system served (host_cache: left out).
INSERT INTO page_costs_history (measured_at, relschema, relname, tablespace, seq_page_us,
	random_page_us, cached_page_us, depths, depth_pages_s, effective_io_concurrency)
VALUES (now() - interval '2 days', 'public', 'sb_t', 'pg_default', 81.92, 1000, 4,
	'{1,2,4,8,16}', '{1000,2000,4000,8000,9000}', 8);
SELECT reference, mb_s, block_us, depth, tablespace, regexp_replace(source, '[0-9]+:', 'N:') AS source, age
FROM workload_references();
INSERT INTO scan_history (measured_at, relschema, relname, cache, read_mb_s, verdict)
VALUES (now() - interval '1 day', 'public', 'sb_t', 'cold', 120, '{ok}'),
	   (now() - interval '1 hour', 'public', 'sb_t', 'cold', 900, '{host_cache}'),
	   (now() - interval '1 hour', 'public', 'sb_t', 'warm', 5000, '{ok}');
SELECT reference, mb_s, depth, tablespace, regexp_replace(source, '[0-9]+:', 'N:') AS source, age
FROM workload_references();
DELETE FROM scan_history;

-- Each statement near its reference.
SELECT query, read_mb_s, reference, reference_mb_s, reference_pct, sequential_pct,
	random_pct, random_at_depth_pct, verdict
FROM workload_reads(1001, 1002);

-- All counters reset between two snapshots (pg_stat_statements_info's
-- stats_reset moved): every statement counted from the reset.
INSERT INTO workload_snapshots (snapshot, taken_at, userid, dbid, toplevel, queryid,
	calls, exec_s, rows, blocks_read, blocks_hit, read_wait_s, track_io_timing,
	stats_since, stats_reset, query)
SELECT 1003, taken_at + interval '1 hour', userid, dbid, toplevel, queryid, 1, 0.01, 0,
	10, 0, 0.01, true, NULL, '2026-01-01 01:30', query
FROM workload_snapshots WHERE snapshot = 1002 AND queryid IN (1, 3);
SELECT query, calls, blocks_read, read_wait_s, verdict FROM workload_reads(1002, 1003);
-- The counters of one statement started again (from PostgreSQL 17,
-- stats_since says so even when its calls have grown past the old ones).
UPDATE workload_snapshots SET stats_since = '2026-01-01 01:40', stats_reset = '2025-12-01',
	calls = 20 WHERE snapshot = 1003 AND queryid = 3;
UPDATE workload_snapshots SET stats_reset = '2025-12-01', calls = 12, exec_s = 12,
	blocks_read = 112900, read_wait_s = 6.01 WHERE snapshot = 1003 AND queryid = 1;
SELECT query, calls, blocks_read, read_wait_s, verdict FROM workload_reads(1002, 1003);

-- track_io_timing off when the first snapshot was taken: no rate.
UPDATE workload_snapshots SET track_io_timing = false WHERE snapshot = 1002;
SELECT query, read_wait_s, read_mb_s, verdict FROM workload_reads(1002, 1003) WHERE query = 'seq';
ROLLBACK;
\set ON_ERROR_ROLLBACK off

-- The judge's rules, with literal inputs (bytes_read, read_mb_s,
-- read_wait_pct, then the references: sequential, random,
-- random_at_depth, page_cache).
SELECT * FROM scanbench_internal.workload_judge(0, NULL, 10, 100, 8, 60, 2000);
SELECT * FROM scanbench_internal.workload_judge(8192, NULL, 10, 100, 8, 60, 2000);
SELECT * FROM scanbench_internal.workload_judge(8192, 90, 75, NULL, NULL, NULL, NULL);
SELECT * FROM scanbench_internal.workload_judge(8192, 90, 50, 100, 8, 60, 2000);
SELECT * FROM scanbench_internal.workload_judge(8192, 90, 49.9, 100, 8, 60, 2000);
SELECT * FROM scanbench_internal.workload_judge(8192, 1500, 80, 100, 8, 60, 2000);
-- No page-cache reference: over twice every device rate is the page cache.
SELECT * FROM scanbench_internal.workload_judge(8192, 201, 80, 100, 8, NULL, NULL);
SELECT * FROM scanbench_internal.workload_judge(8192, 199, 80, 100, 8, NULL, NULL);
-- Nearest by ratio, not by difference: the middle of 8 and 100 MB/s is
-- their geometric mean, 28.3 MB/s.
SELECT * FROM scanbench_internal.workload_judge(8192, 25, NULL, 100, 8, NULL, NULL);
SELECT * FROM scanbench_internal.workload_judge(8192, 30, NULL, 100, 8, NULL, NULL);

-- workload_references_measure: its limits refused before anything is
-- read; the references measured (page_costs, recorded) only where none is
-- recorded or the newest is older than max_age.
SELECT * FROM workload_references_measure(max_seconds => 0);
SELECT * FROM workload_references_measure(max_seconds => 'NaN');
SELECT * FROM workload_references_measure(max_age => '-1 day');
SELECT * FROM workload_references_measure(max_age => NULL);
DELETE FROM page_costs_history;
CREATE TABLE sb_wl_small AS SELECT g FROM generate_series(1, 1000) g;
CREATE TABLE sb_wl_refs (id integer, pad text) WITH (autovacuum_enabled = false);
INSERT INTO sb_wl_refs SELECT g, repeat('x', 400) FROM generate_series(1, 140000) g;
-- Too small for page_costs' rounds, named: its own error, nothing kept.
\set VERBOSITY terse
SELECT * FROM workload_references_measure(rel => 'sb_wl_small');
\set VERBOSITY default
SELECT count(*) AS runs FROM page_costs_history;
SET client_min_messages = warning;
SELECT reference, mb_s > 0 AS measured, source LIKE 'page_costs_history %: public.sb_wl_refs' AS from_it
FROM workload_references_measure(rel => 'sb_wl_refs', max_seconds => 2)
WHERE reference IN ('sequential', 'random') ORDER BY reference;
SELECT count(*) AS runs FROM page_costs_history;
-- Fresh: returned as they are, nothing measured again.
SELECT count(*) > 0 AS has_references FROM workload_references_measure(rel => 'sb_wl_refs', max_seconds => 2);
SELECT count(*) AS runs FROM page_costs_history;
-- max_age 0: measured again.
SELECT count(*) > 0 AS has_references
FROM workload_references_measure(rel => 'sb_wl_refs', max_seconds => 2, max_age => '0');
SELECT count(*) AS runs FROM page_costs_history;
RESET client_min_messages;
DROP TABLE sb_wl_refs, sb_wl_small;
DELETE FROM page_costs_history;
