--
-- ==== The index scan's crossover ====
--
-- index_crossover finds, cold, the share of a table's rows up to which an
-- index scan of one btree index beats a sequential scan, and sets it
-- beside the planner's: under the settings in force and under a
-- random_page_cost tried.
--
CREATE TYPE index_crossover_result AS (
	relation					regclass,
	idx							regclass,
	tablespace					text,
	table_rows					bigint,
	heap_pages					bigint,
	correlation					float8,
	cached_pct_before			float8,
	rounds						integer,
	seq_s						float8,
	crossover_rows				float8,
	crossover_selectivity		float8,
	crossover_low				float8,
	crossover_high				float8,
	planner_crossover			float8,
	random_page_cost			float8,
	seq_page_cost				float8,
	planned_at_half				text,
	planned_at_twice			text,
	matching_random_page_cost	float8,
	matching_low				float8,
	matching_high				float8,
	checked_random_page_cost	float8,
	checked_crossover			float8,
	checked_at_half				text,
	checked_at_twice			text,
	command						text,
	elapsed_s					float8,
	verdict						text[]
);

COMMENT ON TYPE index_crossover_result IS 'index_crossover: where an index scan stops beating a sequential scan, measured and planned';
-- @comments index_crossover_result FROM access_paths_result: relation
COMMENT ON COLUMN index_crossover_result.idx IS 'the btree index whose first key bounds the rows asked for';
COMMENT ON COLUMN index_crossover_result.tablespace IS 'the table''s tablespace, whose page costs the planner uses';
COMMENT ON COLUMN index_crossover_result.table_rows IS 'the table''s rows as the planner has them (reltuples): selectivities are shares of it';
COMMENT ON COLUMN index_crossover_result.heap_pages IS 'pages of the table';
COMMENT ON COLUMN index_crossover_result.correlation IS 'the correlation between the key''s order and the table''s, as ANALYZE found it (pg_stats.correlation); NULL without statistics';
COMMENT ON COLUMN index_crossover_result.cached_pct_before IS 'percent of the table in shared_buffers or the page cache before the call';
COMMENT ON COLUMN index_crossover_result.rounds IS 'rounds of a cold sequential scan then a cold index scan stopped at the sequential scan''s time, until the crossover''s interval is within +-10 % or max_seconds are spent';
COMMENT ON COLUMN index_crossover_result.seq_s IS 'seconds a cold sequential scan took, wall clock, executor start to end (mean over the rounds)';
COMMENT ON COLUMN index_crossover_result.crossover_rows IS 'rows an index scan had returned, in key order, when it had taken as long as the sequential scan (mean over the rounds)';
COMMENT ON COLUMN index_crossover_result.crossover_selectivity IS 'crossover_rows over table_rows: below it the index scan is faster, cold; NULL when it never lost (no_crossover) or nothing was measured';
COMMENT ON COLUMN index_crossover_result.crossover_low IS 'lower end of the 95 % interval of crossover_selectivity (jackknife over the rounds)';
COMMENT ON COLUMN index_crossover_result.crossover_high IS 'upper end of the 95 % interval of crossover_selectivity';
COMMENT ON COLUMN index_crossover_result.planner_crossover IS 'the selectivity at which the planner, under the settings in force, costs the index scan above the sequential scan (within about 1 %); 0 when it never prefers the index scan, NULL when it always does';
-- @comments index_crossover_result FROM page_costs_result: random_page_cost seq_page_cost
COMMENT ON COLUMN index_crossover_result.planned_at_half IS 'index or seq: the cheaper of the two for the planner, under the settings in force, at half the measured crossover (where the index scan is the faster)';
COMMENT ON COLUMN index_crossover_result.planned_at_twice IS 'index or seq: the cheaper at twice the measured crossover (where the sequential scan is the faster)';
COMMENT ON COLUMN index_crossover_result.matching_random_page_cost IS 'the random_page_cost at which the planner''s crossover falls on the measured one, seq_page_cost as it is; NULL when correlated, cached or over_budget';
COMMENT ON COLUMN index_crossover_result.matching_low IS 'the matching random_page_cost at crossover_high';
COMMENT ON COLUMN index_crossover_result.matching_high IS 'the matching random_page_cost at crossover_low';
COMMENT ON COLUMN index_crossover_result.checked_random_page_cost IS 'the setting checked: the random_page_cost argument, or the matching one when it is NULL';
COMMENT ON COLUMN index_crossover_result.checked_crossover IS 'the planner''s crossover under the setting checked';
COMMENT ON COLUMN index_crossover_result.checked_at_half IS 'index or seq: the planner''s cheaper path at half the measured crossover under the setting checked';
COMMENT ON COLUMN index_crossover_result.checked_at_twice IS 'index or seq: the planner''s cheaper path at twice the measured crossover under the setting checked';
COMMENT ON COLUMN index_crossover_result.command IS 'the statement that sets the matching random_page_cost for the tablespace';
COMMENT ON COLUMN index_crossover_result.elapsed_s IS 'seconds the call took, wall clock';
COMMENT ON COLUMN index_crossover_result.verdict IS '{ok}, or no_crossover (an index scan of every key won), over_budget (fewer than 3 rounds), unstable (the interval wider than +-25 %), cached (the caches held 90 % of the table, or an eviction left 5 %), correlated (|correlation| 0.5 or more), misplanned (the planner, as set, takes the slower path at half or twice the crossover)';

-- @index 140 | `index_crossover(rel, idx, …)` | the share of rows up to which an index scan beats a seq scan, and the planner's ([more](doc/access-paths.md#the-crossover)) |
CREATE FUNCTION index_crossover(rel regclass,
								idx regclass,
								max_seconds float8 DEFAULT 120,
								random_page_cost float8 DEFAULT NULL)
RETURNS index_crossover_result
AS 'MODULE_PATHNAME', 'index_crossover'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION index_crossover(regclass, regclass, float8, float8) IS
'the share of the table''s rows up to which an index scan of a btree index beats a sequential scan, cold, in rounds for at most max_seconds (s); the planner''s, under the settings in force and under random_page_cost (NULL: the one that puts the planner''s on the measured one); the command that sets it';

REVOKE ALL ON FUNCTION index_crossover(regclass, regclass, float8, float8) FROM PUBLIC;

