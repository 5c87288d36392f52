--
-- NULL arguments: a measuring function refuses a NULL by the argument's
-- name (22004) before it opens anything; the history's helpers that take
-- no NULL are STRICT and give NULL; where a NULL has a meaning (no limit,
-- every relation), the reference says which.
--
\set VERBOSITY sqlstate
SELECT * FROM raw_read(NULL);
\set VERBOSITY default
\set SHOW_CONTEXT never
SELECT * FROM raw_read(NULL);
SELECT * FROM raw_read('sb_t', block_size => NULL);
SELECT * FROM raw_read('sb_t', cache => NULL);
SELECT * FROM raw_read_segments('sb_t', NULL, 8192);
SELECT * FROM random_read('sb_t', reads => NULL);
SELECT * FROM access_paths(NULL, 'sb_t_id');
SELECT * FROM access_paths('sb_t', 'sb_t_id', selectivity => NULL);
SELECT * FROM access_paths('sb_t', 'sb_t_id', paths => NULL);
SELECT * FROM index_crossover('sb_t', NULL);
SELECT * FROM index_crossover('sb_t', 'sb_t_id', max_seconds => NULL);
SELECT * FROM toast_efficiency(NULL);
SELECT * FROM toast_efficiency('sb_t', cache => NULL);
SELECT * FROM toast_efficiency('sb_t', max_seconds => NULL);
SELECT * FROM page_costs(NULL);
SELECT * FROM page_costs('sb_t', max_seconds => NULL);
SELECT * FROM scan_rate(NULL);
SELECT * FROM scan_rate('sb_t', query => NULL);
SELECT * FROM scan_breakdown('sb_t', parallel_workers => NULL);
SELECT * FROM scan_shapes('sb_t', runs => NULL);
SELECT * FROM scan_sweep('sb_t', 'cold', 'jit', NULL);
SELECT * FROM scan_efficiency(NULL);
SELECT * FROM scan_efficiency('sb_t', max_seconds => NULL);
SELECT * FROM scan_efficiency('sb_t', record => NULL);
SELECT * FROM storage_info(NULL::regclass);
SELECT * FROM storage_info_tablespace(NULL);
SELECT * FROM storage_profile(size_mb => NULL);
SELECT * FROM scan_efficiency_shards('sb_t', block_size => NULL);
SELECT scan_efficiency_node('read', NULL, 8192, '{1}', '{x}');
SELECT * FROM scan_advice(NULL);
SELECT * FROM scan_advice('sb_t', max_seconds => NULL);
CALL efficiency_check('sb_t', cache => NULL);
CALL efficiency_check('sb_t', max_drop_pct => NULL);
CALL efficiency_check('sb_t', window_days => NULL);
SELECT * FROM scan_history_judge(NULL);
CALL page_costs_check(NULL);
CALL page_costs_check('sb_t', max_seconds => NULL);
CALL page_costs_check('sb_t', max_off_pct => NULL);
CALL page_costs_check('sb_t', window_days => NULL);
SELECT page_costs_record(NULL);
SELECT * FROM page_costs_judge(NULL);
SELECT page_costs_history_prune(NULL);
-- STRICT: NULL in, NULL out.
SELECT * FROM scanbench_internal.scan_history_median(NULL);
SELECT * FROM scanbench_internal.scan_history_median(1, NULL);
-- No C function is STRICT any more: each refuses by name instead.
SELECT p.proname FROM pg_proc p
JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'scanbench'
JOIN pg_language l ON l.oid = p.prolang
WHERE l.lanname = 'c' AND p.proisstrict AND p.pronargs > 0;
