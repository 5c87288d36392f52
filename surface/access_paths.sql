--
-- access_paths counts the rows with a key at most a bound through each
-- path the planner has for one btree index (a sequential scan, an index
-- scan, an index-only scan, a bitmap heap scan), cold and warm, and holds
-- each cold index path's page rate against random reads of the table at
-- the depth the path keeps.
--
CREATE TYPE access_paths_result AS (
	relation			regclass,
	idx					regclass,
	path				text,
	cache				text,
	selectivity			float8,
	rows				bigint,
	heap_pages_read		float8,
	index_pages_read	float8,
	pages_hit			float8,
	run_s				float8,
	pages_s				float8,
	depth				integer,
	depth_kept			float8,
	random_pages_s		float8,
	path_pct			float8,
	pct_low				float8,
	pct_high			float8,
	rounds				integer,
	cached_pct_before	float8,
	verdict				text[]
);

COMMENT ON TYPE access_paths_result IS 'access_paths: one count through one access path, cold or warm';
COMMENT ON COLUMN access_paths_result.relation IS 'the table';
COMMENT ON COLUMN access_paths_result.idx IS 'the btree index whose first key bounds the count';
COMMENT ON COLUMN access_paths_result.path IS 'seq (sequential scan), index (index scan), index_only (index-only scan) or bitmap (bitmap heap scan); a path the planner would not take is left out';
COMMENT ON COLUMN access_paths_result.cache IS 'cold (the table and the index evicted from shared_buffers and the page cache before each run) or warm (run once untimed first)';
COMMENT ON COLUMN access_paths_result.selectivity IS 'the share of the table''s rows (reltuples) asked for: the bound is the key at that place in key order';
COMMENT ON COLUMN access_paths_result.rows IS 'count(*)''s answer: the rows with a key at most the bound';
COMMENT ON COLUMN access_paths_result.heap_pages_read IS 'table blocks a run read from outside shared_buffers (mean over the rounds)';
COMMENT ON COLUMN access_paths_result.index_pages_read IS 'index blocks a run read from outside shared_buffers (mean over the rounds)';
COMMENT ON COLUMN access_paths_result.pages_hit IS 'blocks a run found in shared_buffers (mean over the rounds)';
COMMENT ON COLUMN access_paths_result.run_s IS 'seconds a run took, wall clock, executor start to end (mean over the rounds)';
COMMENT ON COLUMN access_paths_result.pages_s IS 'blocks read a second: every relation''s reads over the runs'' time; NULL when nothing was read';
COMMENT ON COLUMN access_paths_result.depth IS 'reads the path keeps in flight: 1 for index and index-only scans, effective_io_concurrency of the table''s tablespace for a bitmap heap scan; NULL for the sequential scan';
COMMENT ON COLUMN access_paths_result.depth_kept IS 'the mean look-ahead the scan''s read stream kept, as EXPLAIN (ANALYZE, IO) counts it (PostgreSQL 19 on; NULL before, and for paths without a stream)';
COMMENT ON COLUMN access_paths_result.random_pages_s IS 'random 8 kB reads a second of the table''s own blocks, cold, depth of them in flight, as many as the path read, alternated with its runs';
COMMENT ON COLUMN access_paths_result.path_pct IS 'pages_s as a percent of random_pages_s: the share of the storage''s random-read rate at that depth the path got, its CPU included';
COMMENT ON COLUMN access_paths_result.pct_low IS 'lower end of the 95 % interval of path_pct over the rounds';
COMMENT ON COLUMN access_paths_result.pct_high IS 'upper end of the 95 % interval of path_pct over the rounds';
COMMENT ON COLUMN access_paths_result.rounds IS 'cold runs of the path, each followed by the random reads, until the interval is within +-5 % or the path''s share of max_seconds is spent; 1 for the sequential scan and warm rows; 0 where that share ran out before a run ended, its figures NULL';
COMMENT ON COLUMN access_paths_result.cached_pct_before IS 'percent of the table and index still resident after an eviction (the most over the rounds)';
COMMENT ON COLUMN access_paths_result.verdict IS '{ok}, or over_budget (fewer than 5 rounds), unstable (the interval wider than +-15 %), cached (more than 5 % resident after eviction), io_limited (the server''s read throttle set the rate)';

-- @index 130 | `access_paths(rel, idx, …)` | one count through seq, index, index-only and bitmap heap scans, cold and warm ([more](doc/access-paths.md)) |
CREATE FUNCTION access_paths(rel regclass,
							 idx regclass,
							 selectivity float8 DEFAULT 0.001,
							 max_seconds float8 DEFAULT 60,
							 paths text[] DEFAULT '{seq,index,index_only,bitmap}')
RETURNS SETOF access_paths_result
AS 'MODULE_PATHNAME', 'access_paths'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE ROWS 8;

COMMENT ON FUNCTION access_paths(regclass, regclass, float8, float8, text[]) IS
'the rows with a key of a btree index at most a bound (selectivity of the table), counted through a sequential scan, an index scan, an index-only scan and a bitmap heap scan, cold and warm (those of paths); each cold index path''s page rate against random reads at its depth, in rounds for at most max_seconds (s)';

REVOKE ALL ON FUNCTION access_paths(regclass, regclass, float8, float8, text[]) FROM PUBLIC;

