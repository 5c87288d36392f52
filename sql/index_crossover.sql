--
-- index_crossover: what it refuses, before anything is read, and what a
-- measurement reports (host figures left out: only what a run must show
-- on any machine).
--
\set SHOW_CONTEXT never
CREATE TABLE sb_ic (id integer, k integer, pad text) WITH (autovacuum_enabled = false);
INSERT INTO sb_ic SELECT g, (g * 7919) % 20000, repeat('x', 200) FROM generate_series(1, 20000) g;
CREATE INDEX sb_ic_k ON sb_ic (k);
CREATE INDEX sb_ic_id ON sb_ic (id);
CREATE INDEX sb_ic_expr ON sb_ic ((k + 1));
CREATE INDEX sb_ic_hash ON sb_ic USING hash (k);
CREATE TABLE sb_ic_fresh (id integer);
CREATE INDEX sb_ic_fresh_id ON sb_ic_fresh (id);
CREATE INDEX sb_part_id ON sb_part (id);
CREATE TABLE sb_ic_arr (k integer[]);
CREATE INDEX sb_ic_arr_k ON sb_ic_arr (k);
VACUUM (FREEZE, ANALYZE) sb_ic;

-- Not a table, not an index of it, not an index a key range is read by,
-- a setting to check that is none, a budget of none.
SELECT * FROM index_crossover('sb_part', 'sb_part_id');
SELECT * FROM index_crossover('sb_view', 'sb_ic_k');
SELECT * FROM index_crossover('sb_ic', 'sb_ic');
SELECT * FROM index_crossover('sb_ic', 'sb_t_id');
SELECT * FROM index_crossover('sb_ic', 'sb_ic_expr');
SELECT * FROM index_crossover('sb_ic', 'sb_ic_hash');
SELECT * FROM index_crossover('sb_ic_fresh', 'sb_ic_fresh_id');
SELECT * FROM index_crossover('sb_ic', 'sb_ic_k', random_page_cost => 0);
SELECT * FROM index_crossover('sb_ic', 'sb_ic_k', random_page_cost => 'Infinity');
SELECT * FROM index_crossover('sb_ic', 'sb_ic_k', max_seconds => 0);
SELECT * FROM index_crossover('sb_ic_arr', 'sb_ic_arr_k');

SELECT stmt, sb_sqlstate(stmt) FROM (VALUES
	($$SELECT index_crossover('sb_part', 'sb_part_id')$$),
	($$SELECT index_crossover('sb_view', 'sb_ic_k')$$),
	($$SELECT index_crossover('sb_ic', 'sb_t_id')$$),
	($$SELECT index_crossover('sb_ic', 'sb_ic_expr')$$),
	($$SELECT index_crossover('sb_ic', 'sb_ic_hash')$$),
	($$SELECT index_crossover('sb_ic_fresh', 'sb_ic_fresh_id')$$),
	($$SELECT index_crossover('sb_ic_arr', 'sb_ic_arr_k')$$),
	($$SELECT index_crossover('sb_ic', 'sb_ic_k', random_page_cost => -1)$$)) v(stmt);

-- A measurement: the crossover within its interval, the planner's
-- choices named, a setting given is the one checked, the matching one
-- only where the verdict allows it.
SET client_min_messages = warning;
SELECT rounds >= 1 AS measured,
       seq_s > 0 AS timed,
       table_rows = 20000 AS rows_ok,
       crossover_selectivity IS NULL
         OR (crossover_selectivity > 0 AND crossover_selectivity <= 1) AS crossover_ok,
       crossover_low IS NULL
         OR (crossover_low <= crossover_selectivity AND crossover_selectivity <= crossover_high) AS interval_ok,
       planner_crossover >= 0 AND planner_crossover <= 1 AS planner_ok,
       (planned_at_half IS NOT NULL) = (crossover_selectivity IS NOT NULL)
         AND coalesce(planned_at_half IN ('index', 'seq'), true) AS planned_ok,
       checked_random_page_cost = 2 AS checked_given,
       (checked_at_half IS NULL) = (crossover_selectivity IS NULL) AS checked_ok,
       (matching_random_page_cost IS NULL) = (command IS NULL) AS command_with_setting,
       command IS NULL OR command LIKE 'ALTER TABLESPACE pg_default SET (random_page_cost = %)' AS command_ok,
       matching_random_page_cost IS NULL
         OR NOT verdict && '{correlated,cached,over_budget}' AS withheld_ok,
       verdict <@ ARRAY(SELECT mark FROM scan_verdict_marks()) AS marks_known
FROM index_crossover('sb_ic', 'sb_ic_k', max_seconds => 5, random_page_cost => 2);
-- An index in the table's order: marked, and no setting matched to it.
SELECT correlation > 0.99 AS in_order, 'correlated' = ANY (verdict) AS marked,
       matching_random_page_cost IS NULL AS withheld, command IS NULL AS no_command
FROM index_crossover('sb_ic', 'sb_ic_id', max_seconds => 2);
RESET client_min_messages;

DROP TABLE sb_ic, sb_ic_fresh, sb_ic_arr;
DROP INDEX sb_part_id;
