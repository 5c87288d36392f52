--
-- scan_rate: the I/O workers' CPU and the settings that shape reads
--
SELECT settings->>'effective_io_concurrency' = current_setting('effective_io_concurrency') AS eic,
       settings->>'shared_buffers' = current_setting('shared_buffers') AS sb,
       settings->>'io_method' IS NOT DISTINCT FROM current_setting('io_method', true) AS io_method,
       settings->>'io_combine_limit' IS NOT DISTINCT FROM current_setting('io_combine_limit', true) AS icl,
       (io_worker_user_s IS NULL) = (current_setting('io_method', true) IS DISTINCT FROM 'worker') AS iow_user,
       (io_worker_sys_s IS NULL) = (io_worker_user_s IS NULL) AS iow_sys
FROM scan_rate('sb_t');

--
-- scan_breakdown
--
-- Seconds are rounded to the millisecond, about what these small tables
-- take: the rates, computed before rounding, show that time was measured.
-- On tables this small the scan often beats both of its references, and
-- a NOTICE then says why overlap_pct is NULL (t/030 checks it): left out
-- here, where it comes and goes.
SET client_min_messages = warning;
SELECT relation, query, cache, workers_launched, rows, pages = pg_relation_size('sb_t') / 8192 AS all_pages,
       bytes = pg_relation_size('sb_t') AS all_bytes,
       scan_s >= 0 AS seconds_ok, read_s >= 0 AS t_read_ok, cpu_s >= 0 AS t_cpu_ok,
       scan_mb_s > 0 AND read_mb_s > 0 AND warm_mb_s > 0 AS rates_ok,
       scan_pct > 0 AS scan_pct_ok,
       no_overlap_pct <= perfect_overlap_pct AS bounds_ordered,
       perfect_overlap_pct <= 100 AS perfect_le_100,
       user_s >= backend_user_s AND sys_s >= backend_sys_s AS totals_include_backend,
       parallel_user_s = 0 AND parallel_sys_s = 0 AS no_parallel,
       io_read_s >= 0 AS io_ok, storage_read_bytes >= 0 AS storage_ok,
       shared_hit + shared_read >= pages AS all_pages_read,
       cpu_ns_per_row >= 0 AND cpu_ns_per_page >= cpu_ns_per_row AS per_unit_ok,
       bottleneck IN ('cpu', 'io', 'mixed') AS bottleneck_ok,
       abs(cpu_pct + cpu_wait_pct + io_wait_pct + other_pct - 100) < 0.5 AS shares_add_up,
       least(cpu_pct, cpu_wait_pct, io_wait_pct, other_pct) >= 0 AS shares_positive,
       settings ? 'shared_buffers' AS settings_ok
FROM scan_breakdown('sb_t');

-- Other select lists, parallel workers, partitioned, empty.
SELECT query, rows, workers_launched <= 2 AS workers_ok,
       parallel_user_s IS NULL OR parallel_user_s >= 0 AS parallel_ok
FROM scan_breakdown('sb_t', 'warm', 'sum(length(pad))', 2);
SELECT rows FROM scan_breakdown('sb_part', 'asis');
RESET client_min_messages;
SELECT rows, pages, scan_s, scan_mb_s, read_mb_s, scan_pct, no_overlap_pct,
       perfect_overlap_pct, overlap_pct, cpu_ns_per_row, bottleneck, cpu_pct,
       cpu_wait_pct, io_wait_pct, other_pct
FROM scan_breakdown('sb_empty');

-- Bad arguments: refused before anything is measured.
SELECT * FROM scan_breakdown('sb_t', 'direct');
SELECT * FROM scan_breakdown('sb_t', 'cold', 'count(1) FROM sb_t WHERE id > 5 --');
SELECT * FROM scan_breakdown('sb_t', 'cold', '');
SELECT * FROM scan_breakdown('sb_t', 'cold', 'count(1)', -1);
SELECT * FROM scan_breakdown('sb_view');

--
-- scan_shapes
--
SELECT shape, query, cache, runs, rows, scan_s >= 0 AS seconds_ok, scan_mb_s > 0 AS rate_ok,
       rows_s > 0 AS rows_s_ok, ns_per_row > 0 AS ns_ok, read_mb_s > 0 AS read_ok,
       -- Each figure is rounded to 0.1; the bound is what that rounding allows.
       abs(scan_pct - 100 * scan_mb_s / read_mb_s) <= 0.06 + 5 * (scan_mb_s + read_mb_s) / read_mb_s ^ 2 AS pct_ok
FROM scan_shapes('sb_t');
-- A relation with no number column and a dropped column: fewer shapes.
CREATE TABLE sb_words (w text, dropme integer, v text) WITH (autovacuum_enabled = false);
INSERT INTO sb_words SELECT g::text, g, md5(g::text) FROM generate_series(1, 1000) g;
ALTER TABLE sb_words DROP COLUMN dropme;
SELECT shape, query, runs, rows FROM scan_shapes('sb_words', 'cold', 2);
SELECT * FROM scan_shapes('sb_words', 'warm', 0);
DROP TABLE sb_words;
-- The user's query path still refuses a WHERE clause.
SELECT * FROM scan_rate('sb_t', 'asis', 'count(1) FROM sb_t WHERE NOT (pad = pad) --');
SELECT * FROM scan_shapes('sb_t', 'direct');
SELECT * FROM scan_shapes('sb_seq');

--
-- scan_sweep
--
SELECT setting, value, cache, runs, workers_planned, workers_launched <= workers_planned AS launched_ok,
       scan_s >= 0 AS seconds_ok, scan_mb_s > 0 AS rate_ok, scan_pct > 0 AS pct_ok
FROM scan_sweep('sb_t', 'warm', 'parallel_workers', '{0,1}');
SELECT current_setting('effective_io_concurrency') AS eic_before \gset
SELECT value, speedup IS NOT NULL AS speedup_ok, settings->>'effective_io_concurrency' AS eic
FROM scan_sweep('sb_t', 'asis', 'effective_io_concurrency', '{1,16}', 2);
SELECT value, round(speedup::numeric, 2) = 1 OR value <> 'off' AS first_is_1
FROM scan_sweep('sb_t', 'asis', 'jit', '{off,on}');
-- The setting is back as it was after the call.
SELECT current_setting('effective_io_concurrency') = :'eic_before' AS restored;

-- Settings a session cannot change, unknown ones, bad values.
SELECT * FROM scan_sweep('sb_t', 'cold', 'shared_buffers', '{256MB}');
SELECT * FROM scan_sweep('sb_t', 'cold', 'wal_level', '{logical}');
SELECT * FROM scan_sweep('sb_t', 'cold', 'no_such_setting', '{1}');
SELECT * FROM scan_sweep('sb_t', 'cold', 'max_parallel_workers_per_gather', '{1}');
SELECT * FROM scan_sweep('sb_t', 'cold', 'track_io_timing', '{off}');
SELECT * FROM scan_sweep('sb_t', 'cold', 'role', '{none}');
SELECT * FROM scan_sweep('sb_t', 'cold', 'effective_io_concurrency', '{1,-5}');
SELECT * FROM scan_sweep('sb_t', 'cold', 'parallel_workers', '{0,two}');
SELECT * FROM scan_sweep('sb_t', 'cold', 'parallel_workers', '{0,-1}');
SELECT * FROM scan_sweep('sb_t', 'cold', 'jit', '{}');
SELECT * FROM scan_sweep('sb_t', 'cold', 'jit', '{on,NULL}');
SELECT * FROM scan_sweep('sb_t', 'cold', 'jit', '{on}', 0);
SELECT * FROM scan_sweep('sb_view', 'cold', 'jit', '{on}');

-- Error codes.
SELECT stmt, sb_sqlstate(stmt) FROM (VALUES
	('SELECT scan_sweep(''sb_t'', ''cold'', ''shared_buffers'', ''{1GB}'')'),
	('SELECT scan_sweep(''sb_t'', ''cold'', ''no_such_setting'', ''{1}'')'),
	('SELECT scan_breakdown(''sb_t'', ''asis'', ''random()'')'),
	('SELECT scan_shapes(''sb_view'')')) v(stmt);

-- Every column of the new result types has a comment.
SELECT t.typname, a.attname FROM pg_type t JOIN pg_attribute a ON a.attrelid = t.typrelid
WHERE (t.typname IN ('scan_breakdown_result', 'scan_shape_result', 'scan_sweep_result')
       OR (t.typname = 'scan_rate_result' AND a.attname IN ('io_worker_user_s', 'io_worker_sys_s', 'settings')))
  AND a.attnum > 0 AND col_description(t.typrelid, a.attnum) IS NULL;
SELECT p.proname FROM pg_proc p
WHERE p.proname IN ('scan_breakdown', 'scan_shapes', 'scan_sweep') AND obj_description(p.oid, 'pg_proc') IS NULL;

-- Nobody may run them until granted; granted, SELECT on the table is needed.
CREATE ROLE regress_bd_monitor;
SET ROLE regress_bd_monitor;
SELECT * FROM scan_breakdown('sb_t');
SELECT * FROM scan_shapes('sb_t');
SELECT * FROM scan_sweep('sb_t', 'cold', 'jit', '{on}');
RESET ROLE;
GRANT EXECUTE ON FUNCTION scan_breakdown(regclass, text, text, integer),
	scan_shapes(regclass, text, integer),
	scan_sweep(regclass, text, text, text[], integer) TO regress_bd_monitor;
SET ROLE regress_bd_monitor;
SELECT * FROM scan_breakdown('sb_t');
SELECT * FROM scan_sweep('sb_t', 'cold', 'jit', '{on}');
RESET ROLE;
GRANT SELECT ON sb_t TO regress_bd_monitor;
SET ROLE regress_bd_monitor;
SET client_min_messages = warning;
SELECT rows FROM scan_breakdown('sb_t');
RESET client_min_messages;
SELECT count(*) FROM scan_shapes('sb_t');
SELECT value FROM scan_sweep('sb_t', 'cold', 'jit', '{on}');
-- a superuser-only setting is refused for a role that may not set it
SELECT value FROM scan_sweep('sb_t', 'cold', 'log_min_duration_statement', '{0}');
RESET ROLE;
REVOKE ALL ON sb_t FROM regress_bd_monitor;
DROP OWNED BY regress_bd_monitor;
DROP ROLE regress_bd_monitor;
