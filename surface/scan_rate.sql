--
-- ==== Scan rate, breakdown, shapes and sweep ====
--
-- scan_rate times an executor scan of the relation (count(1) unless a
-- query is given); scan_breakdown says where its time goes (reading,
-- CPU, waits, overlap) against a raw read of the same files; scan_shapes
-- times the scan under a few query shapes; scan_sweep times it under each
-- value of one setting.
--
CREATE TYPE scan_rate_result AS (
	relation			regclass,
	query				text,
	rows				bigint,
	pages				bigint,
	bytes				bigint,
	cache				text,
	workers_planned		integer,
	workers_launched	integer,
	cached_pct_before	float8,
	os_cached_pct_before float8,
	buffers_cached_pct_before float8,
	scan_s				float8,
	scan_mb_s			float8,
	rows_s				float8,
	shared_hit			bigint,
	shared_read			bigint,
	io_read_s			float8,
	user_s				float8,
	sys_s				float8,
	io_worker_user_s	float8,
	io_worker_sys_s		float8,
	settings			jsonb
);

COMMENT ON TYPE scan_rate_result IS 'one timed executor scan of SELECT <query> FROM rel (scan_rate)';
COMMENT ON COLUMN scan_rate_result.relation IS 'the relation scanned';
COMMENT ON COLUMN scan_rate_result.query IS 'the select list that ran: SELECT <query> FROM relation';
COMMENT ON COLUMN scan_rate_result.rows IS 'tuples the sequential scans returned';
COMMENT ON COLUMN scan_rate_result.pages IS 'blocks of the relation when the call began (BLCKSZ bytes each); the scan reads no others';
COMMENT ON COLUMN scan_rate_result.bytes IS 'pages x BLCKSZ, in bytes';
COMMENT ON COLUMN scan_rate_result.cache IS 'cache state asked for: cold, warm or asis';
COMMENT ON COLUMN scan_rate_result.workers_planned IS 'parallel workers the plan asked for (0 without parallel_workers)';
COMMENT ON COLUMN scan_rate_result.workers_launched IS 'parallel workers that really started';
COMMENT ON COLUMN scan_rate_result.cached_pct_before IS 'percent of the blocks in shared_buffers or the page cache (either) just before the timed scan';
COMMENT ON COLUMN scan_rate_result.os_cached_pct_before IS 'percent of the blocks in the page cache just before the timed scan (mincore)';
COMMENT ON COLUMN scan_rate_result.buffers_cached_pct_before IS 'percent of the blocks in shared_buffers (local buffers for a temporary table) just before the timed scan';
COMMENT ON COLUMN scan_rate_result.scan_s IS 'wall-clock seconds of the scan, ExecutorStart to ExecutorEnd (parse and plan excluded)';
COMMENT ON COLUMN scan_rate_result.scan_mb_s IS 'bytes / scan_s, in MB/s (10^6 bytes)';
COMMENT ON COLUMN scan_rate_result.rows_s IS 'rows / scan_s';
COMMENT ON COLUMN scan_rate_result.shared_hit IS 'blocks found in shared_buffers (or local buffers) by the scan';
COMMENT ON COLUMN scan_rate_result.shared_read IS 'blocks read into shared_buffers (or local buffers) by the scan';
COMMENT ON COLUMN scan_rate_result.io_read_s IS 'seconds spent waiting for those reads, from track_io_timing (0 when it is off)';
COMMENT ON COLUMN scan_rate_result.user_s IS 'user CPU seconds of this backend during the scan (parallel workers not included)';
COMMENT ON COLUMN scan_rate_result.sys_s IS 'system CPU seconds of this backend during the scan (parallel workers not included)';
COMMENT ON COLUMN scan_rate_result.io_worker_user_s IS 'user CPU seconds of the I/O worker processes over the timed scan (io_method = worker, PostgreSQL 18 and later; NULL otherwise); includes reads they did for other sessions meanwhile';
COMMENT ON COLUMN scan_rate_result.io_worker_sys_s IS 'system CPU seconds of the I/O worker processes over the timed scan; NULL as io_worker_user_s';
COMMENT ON COLUMN scan_rate_result.settings IS 'the server settings that shape reads (io_method, io_workers, io_combine_limit, effective_io_concurrency, track_io_timing, shared_buffers) as SHOW prints them, those this server has';

CREATE TYPE scan_breakdown_result AS (
	relation			regclass,
	query				text,
	cache				text,
	workers_launched	integer,
	rows				bigint,
	pages				bigint,
	bytes				bigint,
	cached_pct_before	float8,
	scan_s				float8,
	scan_mb_s			float8,
	read_s				float8,
	read_mb_s			float8,
	cpu_s				float8,
	warm_mb_s			float8,
	scan_pct			float8,
	no_overlap_pct		float8,
	perfect_overlap_pct	float8,
	overlap_pct			float8,
	user_s				float8,
	sys_s				float8,
	backend_user_s		float8,
	backend_sys_s		float8,
	parallel_user_s		float8,
	parallel_sys_s		float8,
	io_worker_user_s	float8,
	io_worker_sys_s		float8,
	io_read_s			float8,
	storage_read_bytes	bigint,
	page_cache_bytes	bigint,
	shared_hit			bigint,
	shared_read			bigint,
	cpu_ns_per_row		float8,
	cpu_ns_per_page		float8,
	bottleneck			text,
	cpu_pct				float8,
	cpu_wait_pct		float8,
	io_wait_pct			float8,
	other_pct			float8,
	settings			jsonb,
	cpu_throttled_pct	float8,
	cpu_quota_us		bigint,
	cpu_period_us		bigint,
	read_bps_limit		bigint,
	write_bps_limit		bigint,
	read_iops_limit		bigint,
	write_iops_limit	bigint,
	stream_reads		bigint,
	stream_read_blocks	bigint,
	stream_waits		bigint,
	stream_distance		float8,
	stream_distance_max	integer,
	stream_check		text
);

COMMENT ON TYPE scan_breakdown_result IS 'one scan taken apart: its time against a raw read (read_s) and a warm scan (cpu_s) of the same blocks, CPU by process, read wait, bytes by source, and shares of wall time';
-- @comments scan_breakdown_result FROM scan_rate_result: relation query
COMMENT ON COLUMN scan_breakdown_result.cache IS 'cache state of the measured scan and of the raw read: cold, warm or asis';
COMMENT ON COLUMN scan_breakdown_result.workers_launched IS 'parallel workers the measured scan really started';
COMMENT ON COLUMN scan_breakdown_result.rows IS 'tuples the measured scan read';
COMMENT ON COLUMN scan_breakdown_result.pages IS 'blocks of the relation (BLCKSZ each)';
COMMENT ON COLUMN scan_breakdown_result.bytes IS 'pages times BLCKSZ, in bytes';
COMMENT ON COLUMN scan_breakdown_result.cached_pct_before IS 'percent of the blocks in shared_buffers or the page cache just before the measured scan';
COMMENT ON COLUMN scan_breakdown_result.scan_s IS 'wall seconds of the measured scan, ExecutorStart to ExecutorEnd';
-- @comments scan_breakdown_result FROM scan_rate_result: scan_mb_s
COMMENT ON COLUMN scan_breakdown_result.read_s IS 'wall seconds of a raw sequential read of the same files in 8 kB reads, same cache state';
COMMENT ON COLUMN scan_breakdown_result.read_mb_s IS 'bytes / read_s, in MB/s';
COMMENT ON COLUMN scan_breakdown_result.cpu_s IS 'wall seconds of a warm scan of the same blocks with the same select list: the executor''s work without storage';
COMMENT ON COLUMN scan_breakdown_result.warm_mb_s IS 'bytes / cpu_s, in MB/s';
COMMENT ON COLUMN scan_breakdown_result.scan_pct IS 'measured scan rate as a percentage of read_mb_s';
COMMENT ON COLUMN scan_breakdown_result.no_overlap_pct IS 'scan_pct predicted if reads and CPU never overlapped: 100 * read_s / (read_s + cpu_s)';
COMMENT ON COLUMN scan_breakdown_result.perfect_overlap_pct IS 'scan_pct predicted if they overlapped perfectly: 100 * read_s / max(read_s, cpu_s)';
COMMENT ON COLUMN scan_breakdown_result.overlap_pct IS 'where the measured scan falls between the two predictions, in percent: 0 no overlap, 100 perfect; NULL when it falls outside them (the scan and its references ran under different conditions: measure again when the machine is quieter) and for an empty relation';
COMMENT ON COLUMN scan_breakdown_result.user_s IS 'user CPU seconds of the measured scan: this backend, its parallel workers and the I/O workers';
COMMENT ON COLUMN scan_breakdown_result.sys_s IS 'system CPU seconds, summed as user_s';
COMMENT ON COLUMN scan_breakdown_result.backend_user_s IS 'user CPU seconds of this backend alone (getrusage)';
COMMENT ON COLUMN scan_breakdown_result.backend_sys_s IS 'system CPU seconds of this backend alone';
COMMENT ON COLUMN scan_breakdown_result.parallel_user_s IS 'user CPU seconds of the parallel workers (0 when none ran): what the postmaster''s reaped children grew by, which also counts any other server process that exited meanwhile; NULL if /proc could not be read';
COMMENT ON COLUMN scan_breakdown_result.parallel_sys_s IS 'system CPU seconds of the parallel workers, as parallel_user_s';
COMMENT ON COLUMN scan_breakdown_result.io_worker_user_s IS 'user CPU seconds of the I/O workers (io_method = worker, 18 and later; NULL otherwise), including reads for other sessions meanwhile';
COMMENT ON COLUMN scan_breakdown_result.io_worker_sys_s IS 'system CPU seconds of the I/O workers, as io_worker_user_s';
COMMENT ON COLUMN scan_breakdown_result.io_read_s IS 'seconds this backend waited for reads: track_io_timing''s count, which pg_stat_io and EXPLAIN (ANALYZE, BUFFERS) show (EXPLAIN''s counting slows the scan, so on 18 it waits less)';
COMMENT ON COLUMN scan_breakdown_result.storage_read_bytes IS 'bytes the kernel fetched from storage for the scan''s processes (/proc/PID/io read_bytes), read-ahead included';
COMMENT ON COLUMN scan_breakdown_result.page_cache_bytes IS 'bytes their read calls returned beyond that, served from the page cache (rchar - read_bytes); NULL under io_method = io_uring, whose reads rchar does not count';
COMMENT ON COLUMN scan_breakdown_result.shared_hit IS 'blocks found in shared_buffers (or local buffers)';
COMMENT ON COLUMN scan_breakdown_result.shared_read IS 'blocks read into shared_buffers (or local buffers)';
COMMENT ON COLUMN scan_breakdown_result.cpu_ns_per_row IS 'CPU nanoseconds (user_s + sys_s) per row';
COMMENT ON COLUMN scan_breakdown_result.cpu_ns_per_page IS 'CPU nanoseconds (user_s + sys_s) per page';
COMMENT ON COLUMN scan_breakdown_result.bottleneck IS 'cpu when cpu_pct + cpu_wait_pct is at least two thirds of the wall time, io when io_wait_pct is, mixed otherwise';
COMMENT ON COLUMN scan_breakdown_result.cpu_pct IS 'percent of wall time on CPU (this backend, plus its parallel workers with wall time counted once per process)';
COMMENT ON COLUMN scan_breakdown_result.cpu_wait_pct IS 'percent of wall time this backend was runnable but waiting for a CPU (/proc/self/schedstat; 0 where the kernel does not keep it): held by another process, or held back by the server''s CPU quota (cpu_throttled_pct)';
COMMENT ON COLUMN scan_breakdown_result.io_wait_pct IS 'percent of wall time blocked waiting for reads: the read wait, less the time on or waiting for a CPU inside it';
COMMENT ON COLUMN scan_breakdown_result.other_pct IS 'the rest, in percent of wall time: waiting for parallel workers to start or finish, locks; cpu_pct + cpu_wait_pct + io_wait_pct + other_pct = 100';
COMMENT ON COLUMN scan_breakdown_result.settings IS 'the server settings that shape reads, as in scan_rate_result.settings';
COMMENT ON COLUMN scan_breakdown_result.cpu_throttled_pct IS 'percent of wall time the server''s control group was held back by its CPU quota (cgroup cpu.stat), counted in cpu_wait_pct; NULL where it cannot be read';
COMMENT ON COLUMN scan_breakdown_result.cpu_quota_us IS 'CPU time the server''s control group may use per period, microseconds (cgroup v1 cpu.cfs_quota_us, v2 cpu.max), the tightest up to the root; NULL when none';
COMMENT ON COLUMN scan_breakdown_result.cpu_period_us IS 'the period of that quota, microseconds; NULL when no quota';
COMMENT ON COLUMN scan_breakdown_result.read_bps_limit IS 'read throttle of the data''s device for the server''s control group, bytes/s (v1 blkio.throttle.read_bps_device, v2 io.max rbps); NULL when none';
COMMENT ON COLUMN scan_breakdown_result.write_bps_limit IS 'write throttle of that device, bytes/s; NULL when none';
COMMENT ON COLUMN scan_breakdown_result.read_iops_limit IS 'read throttle of that device, I/O operations/s; NULL when none';
COMMENT ON COLUMN scan_breakdown_result.write_iops_limit IS 'write throttle of that device, I/O operations/s; NULL when none';
COMMENT ON COLUMN scan_breakdown_result.stream_reads IS 'PostgreSQL 19 on: reads the scan''s read streams issued, as EXPLAIN (ANALYZE, IO) counts them (I/O: count), the parallel workers'' included; NULL before 19';
COMMENT ON COLUMN scan_breakdown_result.stream_read_blocks IS 'PostgreSQL 19 on: blocks those reads brought into shared buffers (I/O: count x size); NULL before 19';
COMMENT ON COLUMN scan_breakdown_result.stream_waits IS 'PostgreSQL 19 on: times the scan waited for one of its reads to finish (I/O: waits); NULL before 19';
COMMENT ON COLUMN scan_breakdown_result.stream_distance IS 'PostgreSQL 19 on: the read streams'' mean look-ahead, in buffers (Prefetch: avg); NULL before 19 or when nothing was read through a stream';
COMMENT ON COLUMN scan_breakdown_result.stream_distance_max IS 'PostgreSQL 19 on: the longest look-ahead seen, in buffers (Prefetch: max); NULL before 19';
COMMENT ON COLUMN scan_breakdown_result.stream_check IS 'PostgreSQL 19 on: agree when the scan''s own count of its reads matches the buffer manager''s (stream_read_blocks within 1 % of shared_read; stream waits and io_read_s both there or both not); otherwise which account disagrees and why; NULL before 19';

CREATE TYPE scan_shape_result AS (
	relation			regclass,
	shape				text,
	query				text,
	cache				text,
	runs				integer,
	cached_pct_before	float8,
	rows				bigint,
	scan_s				float8,
	scan_mb_s			float8,
	rows_s				float8,
	ns_per_row			float8,
	read_mb_s			float8,
	scan_pct			float8,
	user_s				float8,
	sys_s				float8
);

COMMENT ON TYPE scan_shape_result IS 'one statement shape of scan_shapes: its scan rate against the raw read rate of the same files measured in the same call';
-- @comments scan_shape_result FROM scan_rate_result: relation
COMMENT ON COLUMN scan_shape_result.shape IS 'count(1), count(*), count(last column), sum(number column) or "filter, no row passes"';
COMMENT ON COLUMN scan_shape_result.query IS 'what ran between SELECT and FROM, and the WHERE clause if any';
-- @comments scan_shape_result FROM scan_rate_result: cache
COMMENT ON COLUMN scan_shape_result.runs IS 'rounds; each scans every shape once, in alternating order';
COMMENT ON COLUMN scan_shape_result.cached_pct_before IS 'percent of the blocks in shared_buffers or the page cache just before the scan, the most over the rounds';
COMMENT ON COLUMN scan_shape_result.rows IS 'rows of the relation, as count(1) read them';
COMMENT ON COLUMN scan_shape_result.scan_s IS 'wall seconds of the scan, ExecutorStart to ExecutorEnd, median over the rounds';
COMMENT ON COLUMN scan_shape_result.scan_mb_s IS 'relation bytes / scan_s, in MB/s (10^6 bytes)';
-- @comments scan_shape_result FROM scan_rate_result: rows_s
COMMENT ON COLUMN scan_shape_result.ns_per_row IS 'wall nanoseconds per row';
COMMENT ON COLUMN scan_shape_result.read_mb_s IS 'raw read rate of the same files in 8 kB reads, same cache state, a read at the start of each round, median, in MB/s';
COMMENT ON COLUMN scan_shape_result.scan_pct IS 'scan_mb_s as a percentage of read_mb_s';
COMMENT ON COLUMN scan_shape_result.user_s IS 'user CPU seconds of this backend during the scan, median over the rounds';
COMMENT ON COLUMN scan_shape_result.sys_s IS 'system CPU seconds of this backend during the scan, median over the rounds';

CREATE TYPE scan_sweep_result AS (
	relation			regclass,
	setting				text,
	value				text,
	cache				text,
	runs				integer,
	workers_planned		integer,
	workers_launched	integer,
	cached_pct_before	float8,
	scan_s				float8,
	scan_mb_s			float8,
	speedup				float8,
	read_mb_s			float8,
	scan_pct			float8,
	settings			jsonb
);

COMMENT ON TYPE scan_sweep_result IS 'the count(1) scan under one value of the swept setting';
-- @comments scan_sweep_result FROM scan_rate_result: relation
COMMENT ON COLUMN scan_sweep_result.setting IS 'the setting swept, or parallel_workers (the scan''s own argument)';
COMMENT ON COLUMN scan_sweep_result.value IS 'its value for this row, as given';
COMMENT ON COLUMN scan_sweep_result.cache IS 'cache state of every scan and raw read: cold, warm or asis';
COMMENT ON COLUMN scan_sweep_result.runs IS 'rounds; each scans every value once, in alternating order';
COMMENT ON COLUMN scan_sweep_result.workers_planned IS 'parallel workers the plan asked for';
COMMENT ON COLUMN scan_sweep_result.workers_launched IS 'parallel workers really started, the fewest over the rounds';
COMMENT ON COLUMN scan_sweep_result.cached_pct_before IS 'percent of the blocks cached just before the scan, the most over the rounds';
COMMENT ON COLUMN scan_sweep_result.scan_s IS 'wall seconds of the scan, median over the rounds';
-- @comments scan_sweep_result FROM scan_shape_result: scan_mb_s
COMMENT ON COLUMN scan_sweep_result.speedup IS 'scan_s of the first value / scan_s of this one';
COMMENT ON COLUMN scan_sweep_result.read_mb_s IS 'raw read rate of the same files in 8 kB reads, a read at the start of each round, median, in MB/s';
-- @comments scan_sweep_result FROM scan_shape_result: scan_pct
COMMENT ON COLUMN scan_sweep_result.settings IS 'the settings that shape reads while this value was set, as in scan_rate_result.settings';

-- @index 40 | `scan_rate(rel, cache, query, parallel_workers)` | how fast `SELECT query FROM rel` runs, forced to a sequential scan |
CREATE FUNCTION scan_rate(rel regclass,
						  cache text DEFAULT 'cold',
						  query text DEFAULT 'count(1)',
						  parallel_workers integer DEFAULT 0)
RETURNS scan_rate_result
AS 'MODULE_PATHNAME', 'scan_rate'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION scan_rate(regclass, text, text, integer) IS
'time SELECT <query> FROM rel through the executor as a sequential scan, read-only, ExecutorStart to ExecutorEnd; cache: cold, warm or asis; parallel_workers: 0 for none';

REVOKE ALL ON FUNCTION scan_rate(regclass, text, text, integer) FROM PUBLIC;

-- @index 50 | `scan_breakdown(rel, cache, query, parallel_workers)` | where one scan's time went: reads, CPU, their overlap, the bottleneck |
CREATE FUNCTION scan_breakdown(rel regclass,
							   cache text DEFAULT 'cold',
							   query text DEFAULT 'count(1)',
							   parallel_workers integer DEFAULT 0)
RETURNS scan_breakdown_result
AS 'MODULE_PATHNAME', 'scan_breakdown'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION scan_breakdown(regclass, text, text, integer) IS
'one scan of SELECT <query> FROM rel decomposed: raw read (read_s) and warm scan (cpu_s) of the same blocks, overlap, CPU by process, read wait, bytes by source, bottleneck';

REVOKE ALL ON FUNCTION scan_breakdown(regclass, text, text, integer) FROM PUBLIC;

-- @index 60 | `scan_shapes(rel, cache, runs)` | nanoseconds per row for statements that cost the executor more |
CREATE FUNCTION scan_shapes(rel regclass,
							cache text DEFAULT 'warm',
							runs integer DEFAULT 1)
RETURNS SETOF scan_shape_result
AS 'MODULE_PATHNAME', 'scan_shapes'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION scan_shapes(regclass, text, integer) IS
'the relation scanned as count(1), count(*), count(last column), sum(number column) and a filter no row passes, shapes interleaved over runs rounds, each against the raw read rate measured in the same call';

REVOKE ALL ON FUNCTION scan_shapes(regclass, text, integer) FROM PUBLIC;

-- @index 70 | `scan_sweep(rel, cache, setting, vals, runs)` | the scan under each value of one setting (`parallel_workers`, `io_combine_limit`, …) |
-- cache has no default in scan_sweep: an argument with a default cannot
-- come before setting and vals, which have none.
CREATE FUNCTION scan_sweep(rel regclass,
						   cache text,
						   setting text,
						   vals text[],
						   runs integer DEFAULT 1)
RETURNS SETOF scan_sweep_result
AS 'MODULE_PATHNAME', 'scan_sweep'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION scan_sweep(regclass, text, text, text[], integer) IS
'count(1) scan once per value of a setting a session can change (or parallel_workers), values interleaved over runs rounds, against the raw read rate; cache: cold, warm or asis';

REVOKE ALL ON FUNCTION scan_sweep(regclass, text, text, text[], integer) FROM PUBLIC;

