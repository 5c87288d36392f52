--
-- ==== Scan efficiency: the scan rate as a share of the read rate ====
--
-- scan_efficiency reads and scans the same blocks, in interleaved pairs of
-- sampled stretches (or whole passes), and gives the scan rate as a
-- percentage of the raw read rate with its interval, the facts of the
-- storage, the server and its control group, and a verdict of marks.
-- Rates are bytes over the wall-clock time of each pass, the waits for a
-- CPU included.
--
CREATE TYPE scan_efficiency_result AS (
	relation			regclass,
	bytes				bigint,
	rows				bigint,
	cache				text,
	block_size			integer,
	runs				integer,
	read_mb_s			float8,
	scan_mb_s			float8,
	scan_pct			float8,
	read_s				float8,
	scan_s				float8,
	read_cached_pct		float8,
	scan_cached_pct		float8,
	filesystem			text,
	device				text,
	measured_at			timestamptz,
	method				text,
	pairs				integer,
	coverage_pct		float8,
	scan_pct_lo			float8,
	scan_pct_hi			float8,
	scan_pct_p10		float8,
	scan_pct_p90		float8,
	elapsed_s			float8,
	settings			jsonb,
	write_mb_s			float8,
	verdict				text[],
	cpu_wait_s			float8,
	cpu_throttled_s		float8,
	cpu_quota_us		bigint,
	cpu_period_us		bigint,
	read_bps_limit		bigint,
	write_bps_limit		bigint,
	read_iops_limit		bigint,
	write_iops_limit	bigint,
	lock_wait_s			float8,
	cached_pct_start	float8,
	cached_pct_end		float8,
	restored_pct		float8,
	restore_s			float8,
	data_checksums		boolean,
	jit					boolean,
	io_max_combine_limit integer,
	io_workers			integer,
	server_major		integer,
	citus_nodes			integer,
	citus_placements	integer,
	device_mb_s			float8,
	device_pct			float8,
	device_depth		integer
);

COMMENT ON TYPE scan_efficiency_result IS 'the executor''s count(1) scan rate as a percentage of the raw read rate of the same blocks (scan_efficiency); one row, ready for a history table';
COMMENT ON COLUMN scan_efficiency_result.relation IS 'the relation measured';
COMMENT ON COLUMN scan_efficiency_result.bytes IS 'bytes of the relation when the call began (blocks x BLCKSZ); both sides read only those blocks';
COMMENT ON COLUMN scan_efficiency_result.rows IS 'rows the scans returned: over the sampled stretches (pairs) or in the last run (whole)';
-- @comments scan_efficiency_result FROM scan_rate_result: cache
COMMENT ON COLUMN scan_efficiency_result.block_size IS 'bytes asked for by each read() of the raw reads';
COMMENT ON COLUMN scan_efficiency_result.runs IS 'whole-relation passes of each side asked for (method whole; not used by pairs)';
COMMENT ON COLUMN scan_efficiency_result.read_mb_s IS 'median raw read rate over pairs or runs, MB/s (10^6 bytes): bytes over the wall-clock time of each pass';
COMMENT ON COLUMN scan_efficiency_result.scan_mb_s IS 'median executor scan rate over pairs or runs, MB/s (10^6 bytes): bytes over the wall-clock time of each pass; each side''s median comes from its own pair, so scan_mb_s / read_mb_s is a ratio of medians and need not be scan_pct';
COMMENT ON COLUMN scan_efficiency_result.scan_pct IS 'median over pairs (or runs) of each one''s own 100 x scan rate / read rate, the same stretch read then scanned back to back, %; not scan_mb_s / read_mb_s (a ratio of medians) nor read_s / scan_s (all the time together)';
COMMENT ON COLUMN scan_efficiency_result.read_s IS 'wall-clock seconds of raw reading: summed over pairs, or the median run (whole)';
COMMENT ON COLUMN scan_efficiency_result.scan_s IS 'wall-clock seconds of scanning: summed over pairs, or the median run (whole)';
COMMENT ON COLUMN scan_efficiency_result.read_cached_pct IS 'highest % of the blocks in the page cache just before a raw read';
COMMENT ON COLUMN scan_efficiency_result.scan_cached_pct IS 'highest % of the blocks in either cache just before a scan';
COMMENT ON COLUMN scan_efficiency_result.filesystem IS 'type of the filesystem holding the relation''s first file (ext4, xfs, ...), from /proc/self/mountinfo';
COMMENT ON COLUMN scan_efficiency_result.device IS 'source of that mount (/dev/sda1, ...), from /proc/self/mountinfo';
COMMENT ON COLUMN scan_efficiency_result.measured_at IS 'when the measurement ended';
COMMENT ON COLUMN scan_efficiency_result.method IS 'pairs (sampled stretches of 8 MB, longer where needed: 16 of the file''s read-ahead windows where they are large and the read is cold and unthrottled; enough to drain a rate limiter''s allowance under the server''s limits) or whole (whole-relation passes)';
COMMENT ON COLUMN scan_efficiency_result.pairs IS 'number of pair ratios the figures rest on (runs, with method whole)';
COMMENT ON COLUMN scan_efficiency_result.coverage_pct IS '% of the relation''s blocks read on each side';
COMMENT ON COLUMN scan_efficiency_result.scan_pct_lo IS 'lower end of the 95 % confidence interval of scan_pct (order statistics), widened to the median of the first or the last half of the pairs where the two halves'' intervals do not overlap (the figure moved during the call), %; NULL with fewer than 6 pairs';
COMMENT ON COLUMN scan_efficiency_result.scan_pct_hi IS 'upper end of the 95 % confidence interval of scan_pct (order statistics), widened as scan_pct_lo is, %; NULL with fewer than 6 pairs';
COMMENT ON COLUMN scan_efficiency_result.scan_pct_p10 IS '10th percentile of the pair ratios, %';
COMMENT ON COLUMN scan_efficiency_result.scan_pct_p90 IS '90th percentile of the pair ratios, %';
COMMENT ON COLUMN scan_efficiency_result.elapsed_s IS 'wall-clock seconds the whole call took, evictions and checks included';
COMMENT ON COLUMN scan_efficiency_result.settings IS 'the server''s I/O settings during the call (io_method, io_combine_limit, effective_io_concurrency, ...)';
COMMENT ON COLUMN scan_efficiency_result.write_mb_s IS 'with_write: sequential write then fdatasync in the relation''s tablespace, as lmdd sync=1, of as many bytes as the relation (fewer if free space is short), MB/s (10^6 bytes); NULL without with_write';
COMMENT ON COLUMN scan_efficiency_result.verdict IS 'marks: {ok}, or any of those scan_verdict_marks() lists, in its order; when nothing was measured, why: {empty} (no blocks) or {over_budget} (no pair within max_seconds)';
COMMENT ON COLUMN scan_efficiency_result.cpu_wait_s IS 'seconds the backend was runnable but waiting for a CPU during the timed passes (/proc/self/schedstat), the time its CPU quota held it back included; in the rates, not taken out of them';
COMMENT ON COLUMN scan_efficiency_result.cpu_throttled_s IS 'seconds the server''s control group was held back by its CPU quota during the timed passes (cgroup cpu.stat); NULL where it cannot be read';
-- @comments scan_efficiency_result FROM scan_breakdown_result: cpu_quota_us cpu_period_us read_bps_limit write_bps_limit read_iops_limit write_iops_limit
COMMENT ON COLUMN scan_efficiency_result.lock_wait_s IS 'seconds the call waited for its lock on the relation before measuring; the time budget (max_seconds) starts once the lock is held';
COMMENT ON COLUMN scan_efficiency_result.cached_pct_start IS 'percent of the relation''s blocks in shared_buffers or the page cache when the call began, before anything was evicted';
COMMENT ON COLUMN scan_efficiency_result.cached_pct_end IS 'percent of the relation''s blocks in shared_buffers or the page cache when the call ended (after the restore, with restore => true)';
COMMENT ON COLUMN scan_efficiency_result.restored_pct IS 'restore => true: percent of the blocks cached when the call began that were cached again at its end; NULL without restore, or when nothing was cached';
COMMENT ON COLUMN scan_efficiency_result.restore_s IS 'restore => true: wall seconds spent putting the blocks back; NULL without restore';
COMMENT ON COLUMN scan_efficiency_result.data_checksums IS 'data checksums on: every page read into shared buffers is verified, at a CPU cost per page';
COMMENT ON COLUMN scan_efficiency_result.jit IS 'the jit setting during the call';
COMMENT ON COLUMN scan_efficiency_result.io_max_combine_limit IS 'io_max_combine_limit, the cap of io_combine_limit, in blocks (block_size each); NULL before PostgreSQL 18';
COMMENT ON COLUMN scan_efficiency_result.io_workers IS 'I/O worker processes running during the call (io_method = worker); NULL where I/O workers are not used';
COMMENT ON COLUMN scan_efficiency_result.server_major IS 'the server''s major version, such as 18';
COMMENT ON COLUMN scan_efficiency_result.citus_nodes IS 'on a Citus distributed table: the nodes measured (the coordinator''s row for the whole cluster); NULL on one server';
COMMENT ON COLUMN scan_efficiency_result.citus_placements IS 'on a Citus distributed table: the shard placements read; NULL on one server';
COMMENT ON COLUMN scan_efficiency_result.device_mb_s IS 'median rate of the device itself over the same blocks, MB/s: O_DIRECT reads of 1 MB with device_depth in flight, as fio reads a device with direct=1, bs=1M and that iodepth; cold only; NULL where the filesystem refuses O_DIRECT and under a read limit of the server''s control group (read_bps_limit, read_iops_limit), which sets it';
COMMENT ON COLUMN scan_efficiency_result.device_pct IS 'median scan rate as a percentage of device_mb_s, pair by pair or run by run: how much of what the device delivers to a reader that keeps it busy the scan got (scan_pct compares with one read at a time)';
COMMENT ON COLUMN scan_efficiency_result.device_depth IS 'reads of 1 MB kept in flight by the device reads: 32, or one per MB of a shorter stretch';

-- @index 10 | `scan_efficiency(rel, cache, …)` | the scan rate as a % of the raw read rate of the same blocks, with its interval and verdict |
CREATE FUNCTION scan_efficiency(rel regclass,
								cache text DEFAULT 'cold',
								block_size integer DEFAULT 8192,
								runs integer DEFAULT 1,
								sample float8 DEFAULT 1.0,
								max_seconds float8 DEFAULT 60,
								target_pct float8 DEFAULT 5,
								method text DEFAULT 'pairs',
								with_write boolean DEFAULT false,
								record boolean DEFAULT false,
								restore boolean DEFAULT false)
RETURNS scan_efficiency_result
AS 'MODULE_PATHNAME', 'scan_efficiency'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION scan_efficiency(regclass, text, integer, integer, float8, float8, float8, text, boolean, boolean, boolean) IS
'count(1) scan rate as a percentage of the raw read rate of the same blocks. method pairs (default): 8 MB stretches in random order, each read and scanned back to back, until the 95 % interval of the median is within +-target_pct % of it, max_seconds (s) are spent once the relation''s lock is held, or a fraction sample of the relation is covered. method whole: runs alternated whole-relation passes (runs applies to whole only). cache: cold, warm or asis; with_write => true adds a sequential write in the relation''s tablespace (write_mb_s); record => true adds the run to scan_history (refused at once on a standby or without the grants); restore => true puts back afterwards the blocks shared_buffers and the page cache held when the call began';

REVOKE ALL ON FUNCTION scan_efficiency(regclass, text, integer, integer, float8, float8, float8, text, boolean, boolean, boolean) FROM PUBLIC;

--
-- scan_pairs shows the pairs behind the session's last scan_efficiency or
-- scan_advice call, in the order they were measured: the samples a median
-- hides, to see whether the first pairs differ from the last.
--
-- @begin scan_pairs
CREATE FUNCTION scan_pairs(OUT function text, OUT relation regclass,
						   OUT pair integer, OUT first_side text,
						   OUT side_a text, OUT side_b text,
						   OUT leaf regclass, OUT first_block bigint,
						   OUT blocks bigint, OUT a_s float8, OUT b_s float8,
						   OUT a_mb_s float8, OUT b_mb_s float8,
						   OUT ratio float8, OUT a_cached_pct float8,
						   OUT b_cached_pct float8, OUT a_buffers_pct float8,
						   OUT b_buffers_pct float8, OUT a_workers integer,
						   OUT b_workers integer, OUT a_faults bigint,
						   OUT b_faults bigint, OUT extra_passes text[],
						   OUT at_s float8, OUT pair_s float8)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'scan_pairs'
LANGUAGE C STRICT VOLATILE PARALLEL RESTRICTED ROWS 100;

COMMENT ON FUNCTION scan_pairs() IS
'the pairs of the session''s last scan_efficiency or scan_advice call on this server, in the order measured: the pair''s number within its comparison of side_a with side_b (the raw read with the scan, or the scan under the current setting with the scan under the proposed one), which side ran first, where it read (leaf, first_block, blocks: a stretch, or the whole relation), each side''s seconds, MB/s (10^6 bytes), percent of its blocks in either cache just before its timed pass and percent in shared buffers (NULL for a raw read; 0 for a warm stretch of a relation scanned through a ring of buffers, whose blocks are put out of shared buffers before the timed scan as a whole scan would find them), parallel workers launched (NULL for a raw read) and page faults the backend took in it, ratio = b_mb_s / a_mb_s (scan_pct / 100, or scan_advice''s gain), the passes the pair ran besides its two timed ones, and when it began (at_s, seconds into the call) and how long it took (pair_s)';

REVOKE ALL ON FUNCTION scan_pairs() FROM PUBLIC;

-- @end scan_pairs

-- The judge of a figure fed with figures given as they are: each rule's
-- threshold tested from both sides under pg_regress (sql/judge.sql), in
-- milliseconds, where the lab shows them end to end.
--
-- @begin judge_figure
CREATE FUNCTION scanbench_internal.judge_figure(input jsonb)
RETURNS text
AS 'MODULE_PATHNAME', 'judge_figure'
LANGUAGE C CALLED ON NULL INPUT IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION scanbench_internal.judge_figure(jsonb) IS
'scan_efficiency''s verdict for figures given, not measured: a JSON object of the judge''s inputs (median, lo, hi, cache, read_mb_s, ceiling_ratio, cpu_wait_s, read_bps, ... as src/verdict.h names them; a key left out is a figure not had, an unknown key an error), the marks as text (ok, or marks separated by commas); silent unless what names a relation';

REVOKE ALL ON FUNCTION scanbench_internal.judge_figure(jsonb) FROM PUBLIC;

-- @end judge_figure
