--
-- page_costs: what it refuses, before anything is read, and what a
-- measurement reports (host figures left out: only their relations).
--
\set SHOW_CONTEXT never
CREATE TABLE sb_pc (id integer, pad text) WITH (autovacuum_enabled = false);
INSERT INTO sb_pc SELECT g, repeat('x', 400) FROM generate_series(1, 140000) g;
CREATE INDEX sb_pc_id ON sb_pc (id);
CREATE TEMP TABLE sb_pc_temp AS SELECT * FROM sb_pc;
CREATE TABLE sb_pc_parent (id integer, pad text);
CREATE TABLE sb_pc_child () INHERITS (sb_pc_parent);

-- Not one table's heap pages.
SELECT * FROM page_costs('sb_part');
SELECT * FROM page_costs('sb_pc_id');
SELECT * FROM page_costs('sb_view');
SELECT * FROM page_costs('sb_seq');
SELECT * FROM page_costs('sb_foreign');
SELECT * FROM page_costs('sb_pc_temp');
SELECT * FROM page_costs('sb_pc_parent');

-- Too small for both sides' rounds (the detail names the storage's
-- read-ahead window, which depends on the host).
\set VERBOSITY terse
SELECT * FROM page_costs('sb_t');
SELECT * FROM page_costs('sb_empty');
\set VERBOSITY default

-- A budget of no time, or of none at all.
SELECT * FROM page_costs('sb_pc', max_seconds => 0);
SELECT * FROM page_costs('sb_pc', max_seconds => 'NaN');

SELECT stmt, sb_sqlstate(stmt) FROM (VALUES
	($$SELECT page_costs('sb_part')$$),
	($$SELECT page_costs('sb_pc_id')$$),
	($$SELECT page_costs('sb_pc_temp')$$),
	($$SELECT page_costs('sb_pc_parent')$$),
	($$SELECT page_costs('sb_t')$$),
	($$SELECT page_costs('sb_pc', max_seconds => -1)$$)) v(stmt);

-- Just written, the table is in the caches: the ratio is measured cold
-- all the same, and no setting is recommended (the mark cached).
\set VERBOSITY terse
SELECT relation, tablespace, pages = pg_relation_size('sb_pc') / 8192 AS all_pages,
       cached_pct_before >= 90 AS held, passes >= 1 AS passes_ok,
       rounds >= 10 AS rounds_ok, seq_pages > 0 AND random_pages > 0 AS pages_ok,
       seq_page_us > 0 AND random_page_us > 0 AND cached_page_us > 0 AS times_ok,
       ratio_low <= ratio AND ratio <= ratio_high AS interval_ok,
       abs(ratio - random_page_us / seq_page_us) <= 0.01 * ratio + 0.006 AS ratio_of_means,
       seq_page_cost = current_setting('seq_page_cost')::float8 AS seq_now,
       random_page_cost = current_setting('random_page_cost')::float8 AS random_now,
       recommended_random_page_cost, command,
       untimed_s >= 0 AND elapsed_s >= untimed_s AS seconds_ok,
       'cached' = ANY (verdict) AS cached
FROM page_costs('sb_pc', max_seconds => 5);
\set VERBOSITY default

DROP TABLE sb_pc, sb_pc_parent, sb_pc_child, sb_pc_temp;
