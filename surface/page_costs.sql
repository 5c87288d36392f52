--
-- ==== Page costs: the planner's seq_page_cost and random_page_cost ====
--
-- page_costs times, cold, the pages of a table read in order (as a
-- sequential scan reads them) and one at a time at random (as an index
-- scan fetches heap pages), alternating the two, and gives their ratio
-- and the random_page_cost it means for the table's tablespace.
--
CREATE TYPE page_costs_result AS (
	relation			regclass,
	tablespace			text,
	pages				bigint,
	cached_pct_before	float8,
	passes				integer,
	rounds				integer,
	seq_pages			bigint,
	random_pages		bigint,
	seq_page_us			float8,
	random_page_us		float8,
	cached_page_us		float8,
	ratio				float8,
	ratio_low			float8,
	ratio_high			float8,
	seq_page_cost		float8,
	random_page_cost	float8,
	recommended_random_page_cost float8,
	recommended_low		float8,
	recommended_high	float8,
	effective_io_concurrency integer,
	depths				integer[],
	depth_pages_s		float8[],
	sweeps				integer,
	recommended_effective_io_concurrency integer,
	recommended_eic_low	integer,
	recommended_eic_high integer,
	command				text,
	untimed_s			float8,
	elapsed_s			float8,
	verdict				text[]
);

COMMENT ON TYPE page_costs_result IS 'page_costs: the cold time of a sequential and of a random page of one table, their ratio, and the random_page_cost it gives';
COMMENT ON COLUMN page_costs_result.relation IS 'the table measured';
COMMENT ON COLUMN page_costs_result.tablespace IS 'its tablespace, whose page costs the figures are';
COMMENT ON COLUMN page_costs_result.pages IS 'pages of the table; the first half is read in order, the second supplies the random pages';
COMMENT ON COLUMN page_costs_result.cached_pct_before IS 'percent of the table in shared_buffers or the page cache before the call: what the recommendation counts as cached';
COMMENT ON COLUMN page_costs_result.passes IS 'passes over the table, each after emptying both caches of it, until the ratio''s interval is within +-5 % or 60 % of max_seconds are spent';
COMMENT ON COLUMN page_costs_result.rounds IS 'rounds of a stretch of sequential pages then a batch of random pages; the ratio is of their mean times';
COMMENT ON COLUMN page_costs_result.seq_pages IS 'sequential pages timed, after the read-ahead ramp and any throttle allowance';
COMMENT ON COLUMN page_costs_result.random_pages IS 'random pages timed, one read of one page at a time';
COMMENT ON COLUMN page_costs_result.seq_page_us IS 'microseconds a sequential page took, cold: the timed stretches over their pages, wall clock, through the buffer manager as a scan reads them; no tuple is looked at';
COMMENT ON COLUMN page_costs_result.random_page_us IS 'microseconds a random page took, cold, read alone as an index scan fetches a heap page';
COMMENT ON COLUMN page_costs_result.cached_page_us IS 'microseconds a page took from the page cache (random pages read again)';
COMMENT ON COLUMN page_costs_result.ratio IS 'the mean random page''s time over the mean sequential page''s, over the rounds: random_page_cost for cold pages when seq_page_cost is 1';
COMMENT ON COLUMN page_costs_result.ratio_low IS 'lower end of the 95 % interval of that ratio (jackknife over the rounds)';
COMMENT ON COLUMN page_costs_result.ratio_high IS 'upper end of the 95 % interval of that ratio (jackknife over the rounds)';
COMMENT ON COLUMN page_costs_result.seq_page_cost IS 'seq_page_cost in force for the tablespace';
COMMENT ON COLUMN page_costs_result.random_page_cost IS 'random_page_cost in force for the tablespace';
COMMENT ON COLUMN page_costs_result.recommended_random_page_cost IS 'random_page_cost the figures give: the expected times of a random and a sequential page when cached_pct_before of them come from the caches, in units of seq_page_cost; NULL when over_budget or cached';
COMMENT ON COLUMN page_costs_result.recommended_low IS 'the recommendation at the ratio''s lower end';
COMMENT ON COLUMN page_costs_result.recommended_high IS 'the recommendation at the ratio''s upper end';
COMMENT ON COLUMN page_costs_result.effective_io_concurrency IS 'effective_io_concurrency in force for the tablespace: the reads a bitmap heap scan keeps in flight';
COMMENT ON COLUMN page_costs_result.depths IS 'the depths the table''s pages were read at, at random: 1, 2, 4, ... until two doublings in a row gained under 5 % each (256 at most)';
COMMENT ON COLUMN page_costs_result.depth_pages_s IS 'random 8 kB reads a second of the table''s blocks at each of those depths, cold, the median over the sweeps; NULL when no sweep was complete';
COMMENT ON COLUMN page_costs_result.sweeps IS 'complete sweeps over the depths (7 at most), in the time max_seconds left after the page times (at least 40 % of it)';
COMMENT ON COLUMN page_costs_result.recommended_effective_io_concurrency IS 'the least depth whose rate came within 90 % of the best depth''s, the median over the sweeps: what a bitmap heap scan of the table needs in flight to get the storage''s random-read rate; NULL when no sweep was complete or the table was cached';
COMMENT ON COLUMN page_costs_result.recommended_eic_low IS 'the least of the sweeps'' such depths; NULL below three sweeps';
COMMENT ON COLUMN page_costs_result.recommended_eic_high IS 'the most of the sweeps'' such depths; NULL below three sweeps';
COMMENT ON COLUMN page_costs_result.command IS 'the statement that sets the recommendations for the tablespace';
COMMENT ON COLUMN page_costs_result.untimed_s IS 'seconds of reads left out of the timing: the read-ahead ramp and, under a read limit, its first allowance on each side of a round';
COMMENT ON COLUMN page_costs_result.elapsed_s IS 'seconds the measurement took, wall clock';
COMMENT ON COLUMN page_costs_result.verdict IS '{ok}, or over_budget (fewer than 10 rounds), unstable (the interval wider than +-15 % of the ratio), cached (the caches held 90 % of the table: no recommendation)';

-- @index 120 | `page_costs(rel, …)`, `page_costs_check(rel, …)` | cold page times in order, at random, at depth: `random_page_cost`, `effective_io_concurrency`; checked nightly ([more](doc/page-costs.md)) |
CREATE FUNCTION page_costs(rel regclass,
						   max_seconds float8 DEFAULT 30)
RETURNS page_costs_result
AS 'MODULE_PATHNAME', 'page_costs'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION page_costs(regclass, float8) IS
'the cold time of a sequential page and of a random page of a table (at least 10 MB), alternated in rounds, their ratio with a 95 % interval, and the random_page_cost it gives for the table''s tablespace, weighed by how much of the table the caches held; then its random-read rate at depths 1, 2, 4, ... and the effective_io_concurrency that gets nearly all of it; within max_seconds (s)';

REVOKE ALL ON FUNCTION page_costs(regclass, float8) FROM PUBLIC;

