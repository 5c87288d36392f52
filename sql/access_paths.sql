--
-- access_paths: what it refuses, before anything is read, and what a
-- measurement reports (host figures left out: only what a run must show
-- on any machine).
--
\set SHOW_CONTEXT never
CREATE TABLE sb_ap (id integer, k integer, pad text) WITH (autovacuum_enabled = false);
INSERT INTO sb_ap SELECT g, (g * 7919) % 20000, repeat('x', 200) FROM generate_series(1, 20000) g;
CREATE INDEX sb_ap_k ON sb_ap (k);
CREATE INDEX sb_ap_expr ON sb_ap ((k + 1));
CREATE INDEX sb_ap_partial ON sb_ap (k) WHERE k > 10;
CREATE INDEX sb_ap_hash ON sb_ap USING hash (k);
CREATE INDEX sb_ap_desc_text ON sb_ap (pad text_pattern_ops);
CREATE TABLE sb_ap_fresh (id integer);
CREATE INDEX sb_ap_fresh_id ON sb_ap_fresh (id);
CREATE TEMP TABLE sb_ap_temp AS SELECT * FROM sb_ap;
CREATE INDEX sb_ap_temp_k ON sb_ap_temp (k);
CREATE INDEX sb_part_id ON sb_part (id);
CREATE TABLE sb_ap_arr (k integer[]);
CREATE INDEX sb_ap_arr_k ON sb_ap_arr (k);
CREATE TYPE sb_ap_pair AS (a integer, b integer);
CREATE TABLE sb_ap_comp (k sb_ap_pair);
CREATE INDEX sb_ap_comp_k ON sb_ap_comp (k);
CREATE TABLE sb_ap_char (k char(3)) WITH (autovacuum_enabled = false);
INSERT INTO sb_ap_char SELECT lpad((g % 500)::text, 3, '0') FROM generate_series(1, 2000) g;
CREATE INDEX sb_ap_char_k ON sb_ap_char (k);
VACUUM (FREEZE, ANALYZE) sb_ap, sb_ap_char;
-- Written out now, so that a cold path's eviction has nothing to write
-- first, on a machine whose disk is busy with other work.
CHECKPOINT;

-- Not a table, not an index of it, not an index every path can answer.
SELECT * FROM access_paths('sb_part', 'sb_part_id');
SELECT * FROM access_paths('sb_view', 'sb_ap_k');
SELECT * FROM access_paths('sb_ap', 'sb_ap');
SELECT * FROM access_paths('sb_ap', 'sb_t_id');
SELECT * FROM access_paths('sb_ap', 'sb_ap_expr');
SELECT * FROM access_paths('sb_ap', 'sb_ap_partial');
SELECT * FROM access_paths('sb_ap', 'sb_ap_hash');
SELECT * FROM access_paths('sb_ap', 'sb_ap_desc_text');
SELECT * FROM access_paths('sb_ap_temp', 'sb_ap_temp_k');
SELECT * FROM access_paths('sb_ap_fresh', 'sb_ap_fresh_id');
SELECT * FROM access_paths('sb_part_1', 'sb_part_id');
-- Keys whose bound would be read with their elements' or columns' input
-- functions (and domain checks): code the caller would run.
SELECT * FROM access_paths('sb_ap_arr', 'sb_ap_arr_k');
SELECT * FROM access_paths('sb_ap_comp', 'sb_ap_comp_k');

-- A share of no rows or more than all, a budget of none.
SELECT * FROM access_paths('sb_ap', 'sb_ap_k', selectivity => 0);
SELECT * FROM access_paths('sb_ap', 'sb_ap_k', selectivity => 1.5);
SELECT * FROM access_paths('sb_ap', 'sb_ap_k', selectivity => 'NaN');
SELECT * FROM access_paths('sb_ap', 'sb_ap_k', max_seconds => 0);
SELECT * FROM access_paths('sb_ap', 'sb_ap_k', paths => '{}');
SELECT * FROM access_paths('sb_ap', 'sb_ap_k', paths => '{index,heap}');
SELECT * FROM access_paths('sb_ap', 'sb_ap_k', paths => '{index,NULL}');

SELECT stmt, sb_sqlstate(stmt) FROM (VALUES
	($$SELECT access_paths('sb_part', 'sb_part_id')$$),
	($$SELECT access_paths('sb_view', 'sb_ap_k')$$),
	($$SELECT access_paths('sb_ap', 'sb_ap')$$),
	($$SELECT access_paths('sb_ap', 'sb_t_id')$$),
	($$SELECT access_paths('sb_ap', 'sb_ap_expr')$$),
	($$SELECT access_paths('sb_ap', 'sb_ap_partial')$$),
	($$SELECT access_paths('sb_ap', 'sb_ap_hash')$$),
	($$SELECT access_paths('sb_ap_temp', 'sb_ap_temp_k')$$),
	($$SELECT access_paths('sb_ap_fresh', 'sb_ap_fresh_id')$$),
	($$SELECT access_paths('sb_ap_arr', 'sb_ap_arr_k')$$),
	($$SELECT access_paths('sb_ap_comp', 'sb_ap_comp_k')$$),
	($$SELECT access_paths('sb_ap', 'sb_ap_k', selectivity => 2)$$),
	($$SELECT access_paths('sb_ap', 'sb_ap_k', paths => '{index,heap}')$$)) v(stmt);

-- Every path counts the same rows; cold index paths read and are held
-- against random reads at their depth; warm ones read nothing.
SELECT path, cache, selectivity, rows,
       CASE WHEN cache = 'warm' OR path = 'index_only' THEN heap_pages_read = 0
            ELSE heap_pages_read > 0 END AS heap_read_ok,
       CASE WHEN path = 'seq' THEN index_pages_read = 0
            WHEN cache = 'cold' THEN index_pages_read > 0
            ELSE index_pages_read = 0 END AS index_read_ok,
       run_s > 0 AS timed,
       (pages_s IS NULL) = (cache = 'warm') AS rate_when_read,
       depth = 1 OR path IN ('seq', 'bitmap') AS depth_ok,
       (path_pct IS NOT NULL) = (cache = 'cold' AND path <> 'seq') AS pct_when_cold,
       path_pct IS NULL OR pct_low IS NULL
         OR (pct_low <= path_pct AND path_pct <= pct_high) AS interval_ok,
       rounds >= 1 AS rounds_ok
FROM access_paths('sb_ap', 'sb_ap_k', selectivity => 0.01, max_seconds => 30)
ORDER BY path, cache;

-- A char(n) key: the bound keeps its length, every path counts the rows.
SELECT DISTINCT rows FROM access_paths('sb_ap_char', 'sb_ap_char_k', selectivity => 0.5, max_seconds => 30);

DROP TABLE sb_ap, sb_ap_fresh, sb_ap_temp, sb_ap_arr, sb_ap_comp, sb_ap_char;
DROP TYPE sb_ap_pair;
DROP INDEX sb_part_id;
