--
-- ==== TOASTed values: a detoasting scan against raw reads ====
--
-- toast_efficiency scans a table through the executor, detoasting every
-- value of its toastable columns as a client fetching the rows makes the
-- server do, and holds the scan's rate over the bytes of the main fork,
-- the TOAST table and its index against raw reads of the same files.
--
CREATE TYPE toast_efficiency_result AS (
	relation			regclass,
	toast_relation		regclass,
	columns				text[],
	cache				text,
	rows				bigint,
	values_detoasted	bigint,
	main_bytes			bigint,
	toast_bytes			bigint,
	toast_index_bytes	bigint,
	toast_pct			float8,
	rounds				integer,
	read_s				float8,
	read_mb_s			float8,
	scan_s				float8,
	scan_mb_s			float8,
	scan_pct			float8,
	pct_low				float8,
	pct_high			float8,
	cached_pct_before	float8,
	elapsed_s			float8,
	verdict				text[]
);

COMMENT ON TYPE toast_efficiency_result IS 'toast_efficiency: a scan that detoasts every value against raw reads of the main fork, the TOAST table and its index';
-- @comments toast_efficiency_result FROM access_paths_result: relation
COMMENT ON COLUMN toast_efficiency_result.toast_relation IS 'its TOAST table';
COMMENT ON COLUMN toast_efficiency_result.columns IS 'the columns scanned and detoasted: those of variable length not set to STORAGE PLAIN';
COMMENT ON COLUMN toast_efficiency_result.cache IS 'cold (the three relations evicted from shared_buffers and the page cache before each side of a round) or warm (each side run once untimed first)';
COMMENT ON COLUMN toast_efficiency_result.rows IS 'rows a scan returned';
COMMENT ON COLUMN toast_efficiency_result.values_detoasted IS 'values a scan detoasted: those stored out of line or compressed';
COMMENT ON COLUMN toast_efficiency_result.main_bytes IS 'bytes of the table''s main fork when the call began';
COMMENT ON COLUMN toast_efficiency_result.toast_bytes IS 'bytes of the TOAST table';
COMMENT ON COLUMN toast_efficiency_result.toast_index_bytes IS 'bytes of the TOAST table''s index';
COMMENT ON COLUMN toast_efficiency_result.toast_pct IS 'percent of the three relations'' bytes in the TOAST table and its index';
COMMENT ON COLUMN toast_efficiency_result.rounds IS 'rounds of a raw read of the three relations then a scan, until the interval of scan_pct is within +-5 % or max_seconds are spent';
COMMENT ON COLUMN toast_efficiency_result.read_s IS 'seconds a raw read of the three relations took, 8 kB a read through the page cache, wall clock (mean over the rounds)';
COMMENT ON COLUMN toast_efficiency_result.read_mb_s IS 'the raw reads'' rate, MB/s (10^6 bytes)';
COMMENT ON COLUMN toast_efficiency_result.scan_s IS 'seconds a detoasting scan took, wall clock, executor start to end (mean over the rounds)';
COMMENT ON COLUMN toast_efficiency_result.scan_mb_s IS 'the scan''s rate over the three relations'' bytes, MB/s (10^6 bytes)';
COMMENT ON COLUMN toast_efficiency_result.scan_pct IS 'scan_mb_s as a percent of read_mb_s: the ratio of the rounds'' summed read and scan times';
COMMENT ON COLUMN toast_efficiency_result.pct_low IS 'lower end of the 95 % interval of scan_pct (jackknife over the rounds)';
COMMENT ON COLUMN toast_efficiency_result.pct_high IS 'upper end of the 95 % interval of scan_pct';
COMMENT ON COLUMN toast_efficiency_result.cached_pct_before IS 'percent of the three relations in shared_buffers or the page cache before a timed side (the most over the rounds)';
-- @comments toast_efficiency_result FROM index_crossover_result: elapsed_s
COMMENT ON COLUMN toast_efficiency_result.verdict IS '{ok}, or over_budget (fewer than 3 rounds), unstable (the interval wider than +-15 %), cached (cold, more than 5 % resident after eviction), io_limited (cold, the server''s read throttle set the rate)';

-- @index 150 | `toast_efficiency(rel, cache, …)` | a detoasting scan against raw reads of the table, its TOAST table and index ([more](doc/access-paths.md#toast)) |
CREATE FUNCTION toast_efficiency(rel regclass,
								 cache text DEFAULT 'cold',
								 max_seconds float8 DEFAULT 60)
RETURNS toast_efficiency_result
AS 'MODULE_PATHNAME', 'toast_efficiency'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION toast_efficiency(regclass, text, float8) IS
'the rate of a scan that detoasts every value of the table''s toastable columns, over the bytes of its main fork, TOAST table and TOAST index, as a percent of raw reads of the same files, cold or warm, in rounds for at most max_seconds (s)';

REVOKE ALL ON FUNCTION toast_efficiency(regclass, text, float8) FROM PUBLIC;

