/* scanbench--0.1--0.2.sql */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "ALTER EXTENSION scanbench UPDATE TO '0.2'" to load this file. \quit

--
-- Where a scan's time goes: the I/O workers' CPU and the I/O settings in
-- scan_rate's result; scan_breakdown, scan_shapes and scan_sweep.
--

ALTER TYPE scan_rate_result
	ADD ATTRIBUTE io_worker_user_s float8,
	ADD ATTRIBUTE io_worker_sys_s float8,
	ADD ATTRIBUTE settings jsonb;

COMMENT ON COLUMN scan_rate_result.io_worker_user_s IS
'user CPU seconds of the I/O worker processes over the timed scan (io_method = worker, PostgreSQL 18 and later; NULL otherwise); includes reads they did for other sessions meanwhile';
COMMENT ON COLUMN scan_rate_result.io_worker_sys_s IS
'system CPU seconds of the I/O worker processes over the timed scan; NULL as io_worker_user_s';
COMMENT ON COLUMN scan_rate_result.settings IS
'the server settings that shape reads (io_method, io_workers, io_combine_limit, effective_io_concurrency, track_io_timing, shared_buffers) as SHOW prints them, those this server has';

CREATE TYPE scan_breakdown_result AS (
	relation			regclass,
	query				text,
	cache				text,
	workers_launched	integer,
	rows				bigint,
	pages				bigint,
	bytes				bigint,
	cached_pct_before	float8,
	seconds				float8,
	scan_mb_s			float8,
	t_read_s			float8,
	read_mb_s			float8,
	t_cpu_s				float8,
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
	settings			jsonb
);

COMMENT ON TYPE scan_breakdown_result IS
'one scan taken apart: its time against a raw read (t_read) and a warm scan (t_cpu) of the same blocks, CPU by process, read wait, bytes by source, and shares of wall time';
COMMENT ON COLUMN scan_breakdown_result.cache IS 'cache state of the measured scan and of the raw read: cold, warm or asis';
COMMENT ON COLUMN scan_breakdown_result.workers_launched IS 'parallel workers the measured scan really started';
COMMENT ON COLUMN scan_breakdown_result.rows IS 'tuples the measured scan read';
COMMENT ON COLUMN scan_breakdown_result.pages IS 'blocks of the relation (BLCKSZ each)';
COMMENT ON COLUMN scan_breakdown_result.bytes IS 'pages times BLCKSZ, in bytes';
COMMENT ON COLUMN scan_breakdown_result.cached_pct_before IS 'percent of the blocks in shared_buffers or the page cache just before the measured scan';
COMMENT ON COLUMN scan_breakdown_result.seconds IS 'wall seconds of the measured scan, ExecutorStart to ExecutorEnd';
COMMENT ON COLUMN scan_breakdown_result.scan_mb_s IS 'bytes / seconds, in MB/s (10^6 bytes)';
COMMENT ON COLUMN scan_breakdown_result.t_read_s IS 'wall seconds of a raw sequential read of the same files in 8 kB reads, same cache state';
COMMENT ON COLUMN scan_breakdown_result.read_mb_s IS 'bytes / t_read_s, in MB/s';
COMMENT ON COLUMN scan_breakdown_result.t_cpu_s IS 'wall seconds of a warm scan of the same blocks with the same select list: the executor''s work without storage';
COMMENT ON COLUMN scan_breakdown_result.warm_mb_s IS 'bytes / t_cpu_s, in MB/s';
COMMENT ON COLUMN scan_breakdown_result.scan_pct IS 'measured scan rate as a percentage of read_mb_s';
COMMENT ON COLUMN scan_breakdown_result.no_overlap_pct IS 'scan_pct predicted if reads and CPU never overlapped: 100 * t_read / (t_read + t_cpu)';
COMMENT ON COLUMN scan_breakdown_result.perfect_overlap_pct IS 'scan_pct predicted if they overlapped perfectly: 100 * t_read / max(t_read, t_cpu)';
COMMENT ON COLUMN scan_breakdown_result.overlap_pct IS 'where the measured scan falls between the two predictions, in percent: 0 no overlap, 100 perfect; outside 0..100 the sides ran under different conditions';
COMMENT ON COLUMN scan_breakdown_result.user_s IS 'user CPU seconds of the measured scan: this backend, its parallel workers and the I/O workers';
COMMENT ON COLUMN scan_breakdown_result.sys_s IS 'system CPU seconds, summed as user_s';
COMMENT ON COLUMN scan_breakdown_result.backend_user_s IS 'user CPU seconds of this backend alone (getrusage)';
COMMENT ON COLUMN scan_breakdown_result.backend_sys_s IS 'system CPU seconds of this backend alone';
COMMENT ON COLUMN scan_breakdown_result.parallel_user_s IS 'user CPU seconds of the parallel workers (0 when none ran): what the postmaster''s reaped children grew by, which also counts any other server process that exited meanwhile; NULL if /proc could not be read';
COMMENT ON COLUMN scan_breakdown_result.parallel_sys_s IS 'system CPU seconds of the parallel workers, as parallel_user_s';
COMMENT ON COLUMN scan_breakdown_result.io_worker_user_s IS 'user CPU seconds of the I/O workers (io_method = worker, 18 and later; NULL otherwise), including reads for other sessions meanwhile';
COMMENT ON COLUMN scan_breakdown_result.io_worker_sys_s IS 'system CPU seconds of the I/O workers, as io_worker_user_s';
COMMENT ON COLUMN scan_breakdown_result.io_read_s IS 'seconds this backend waited for reads (track_io_timing, as EXPLAIN (ANALYZE, BUFFERS) reports it)';
COMMENT ON COLUMN scan_breakdown_result.storage_read_bytes IS 'bytes the kernel fetched from storage for the scan''s processes (/proc/PID/io read_bytes), read-ahead included';
COMMENT ON COLUMN scan_breakdown_result.page_cache_bytes IS 'bytes their read calls returned beyond that, served from the page cache (rchar - read_bytes); NULL under io_method = io_uring, whose reads rchar does not count';
COMMENT ON COLUMN scan_breakdown_result.shared_hit IS 'blocks found in shared_buffers (or local buffers)';
COMMENT ON COLUMN scan_breakdown_result.shared_read IS 'blocks read into shared_buffers (or local buffers)';
COMMENT ON COLUMN scan_breakdown_result.cpu_ns_per_row IS 'CPU nanoseconds (user_s + sys_s) per row';
COMMENT ON COLUMN scan_breakdown_result.cpu_ns_per_page IS 'CPU nanoseconds (user_s + sys_s) per page';
COMMENT ON COLUMN scan_breakdown_result.bottleneck IS 'cpu when cpu_pct + cpu_wait_pct is at least two thirds of the wall time, io when io_wait_pct is, mixed otherwise';
COMMENT ON COLUMN scan_breakdown_result.cpu_pct IS 'percent of wall time on CPU (this backend, plus its parallel workers with wall time counted once per process)';
COMMENT ON COLUMN scan_breakdown_result.cpu_wait_pct IS 'percent of wall time this backend was runnable but waiting for a CPU held by another process (/proc/self/schedstat); NULL if unreadable';
COMMENT ON COLUMN scan_breakdown_result.io_wait_pct IS 'percent of wall time blocked waiting for reads: the read wait, less the time on or waiting for a CPU inside it';
COMMENT ON COLUMN scan_breakdown_result.other_pct IS 'the rest, in percent of wall time: waiting for parallel workers to start or finish, locks; cpu_pct + cpu_wait_pct + io_wait_pct + other_pct = 100';
COMMENT ON COLUMN scan_breakdown_result.settings IS 'the server settings that shape reads, as in scan_rate_result.settings';

CREATE FUNCTION scan_breakdown(rel regclass,
							   cache text DEFAULT 'cold',
							   query text DEFAULT 'count(1)',
							   parallel_workers integer DEFAULT 0)
RETURNS scan_breakdown_result
AS 'MODULE_PATHNAME', 'scan_breakdown'
LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION scan_breakdown(regclass, text, text, integer) IS
'one scan of SELECT <query> FROM rel decomposed: raw read (t_read) and warm scan (t_cpu) of the same blocks, overlap, CPU by process, read wait, bytes by source, bottleneck';

REVOKE ALL ON FUNCTION scan_breakdown(regclass, text, text, integer) FROM PUBLIC;

CREATE TYPE scan_shape_result AS (
	relation			regclass,
	shape				text,
	query				text,
	cache				text,
	cached_pct_before	float8,
	rows				bigint,
	seconds				float8,
	mb_s				float8,
	rows_s				float8,
	ns_per_row			float8,
	read_mb_s			float8,
	read_pct			float8,
	user_s				float8,
	sys_s				float8
);

COMMENT ON TYPE scan_shape_result IS
'one statement shape of scan_shapes: its scan rate against the raw read rate of the same files measured in the same call';
COMMENT ON COLUMN scan_shape_result.shape IS 'count(1), count(*), count(last column), sum(number column) or "filter, no row passes"';
COMMENT ON COLUMN scan_shape_result.query IS 'what ran between SELECT and FROM, and the WHERE clause if any';
COMMENT ON COLUMN scan_shape_result.cache IS 'cache state asked for: cold, warm or asis';
COMMENT ON COLUMN scan_shape_result.cached_pct_before IS 'percent of the blocks in shared_buffers or the page cache just before the scan';
COMMENT ON COLUMN scan_shape_result.rows IS 'rows of the relation, as count(1) read them';
COMMENT ON COLUMN scan_shape_result.seconds IS 'wall seconds of the scan, ExecutorStart to ExecutorEnd';
COMMENT ON COLUMN scan_shape_result.mb_s IS 'relation bytes / seconds, in MB/s (10^6 bytes)';
COMMENT ON COLUMN scan_shape_result.rows_s IS 'rows / seconds';
COMMENT ON COLUMN scan_shape_result.ns_per_row IS 'wall nanoseconds per row';
COMMENT ON COLUMN scan_shape_result.read_mb_s IS 'raw read rate of the same files in 8 kB reads, same cache state, measured once in the same call, in MB/s';
COMMENT ON COLUMN scan_shape_result.read_pct IS 'mb_s as a percentage of read_mb_s';
COMMENT ON COLUMN scan_shape_result.user_s IS 'user CPU seconds of this backend during the scan';
COMMENT ON COLUMN scan_shape_result.sys_s IS 'system CPU seconds of this backend during the scan';

CREATE FUNCTION scan_shapes(rel regclass,
							cache text DEFAULT 'warm')
RETURNS SETOF scan_shape_result
AS 'MODULE_PATHNAME', 'scan_shapes'
LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION scan_shapes(regclass, text) IS
'the relation scanned as count(1), count(*), count(last column), sum(number column) and a filter no row passes, each against the raw read rate measured in the same call';

REVOKE ALL ON FUNCTION scan_shapes(regclass, text) FROM PUBLIC;

CREATE TYPE scan_sweep_result AS (
	relation			regclass,
	setting				text,
	value				text,
	cache				text,
	runs				integer,
	workers_planned		integer,
	workers_launched	integer,
	cached_pct_before	float8,
	seconds				float8,
	mb_s				float8,
	speedup				float8,
	read_mb_s			float8,
	read_pct			float8,
	settings			jsonb
);

COMMENT ON TYPE scan_sweep_result IS
'the count(1) scan under one value of the swept setting';
COMMENT ON COLUMN scan_sweep_result.setting IS 'the setting swept, or parallel_workers (the scan''s own argument)';
COMMENT ON COLUMN scan_sweep_result.value IS 'its value for this row, as given';
COMMENT ON COLUMN scan_sweep_result.cache IS 'cache state of every scan and raw read: cold, warm or asis';
COMMENT ON COLUMN scan_sweep_result.runs IS 'rounds; each scans every value once, in alternating order';
COMMENT ON COLUMN scan_sweep_result.workers_planned IS 'parallel workers the plan asked for';
COMMENT ON COLUMN scan_sweep_result.workers_launched IS 'parallel workers really started, the fewest over the rounds';
COMMENT ON COLUMN scan_sweep_result.cached_pct_before IS 'percent of the blocks cached just before the scan, the most over the rounds';
COMMENT ON COLUMN scan_sweep_result.seconds IS 'wall seconds of the scan, median over the rounds';
COMMENT ON COLUMN scan_sweep_result.mb_s IS 'relation bytes / seconds, in MB/s (10^6 bytes)';
COMMENT ON COLUMN scan_sweep_result.speedup IS 'seconds of the first value / seconds of this one';
COMMENT ON COLUMN scan_sweep_result.read_mb_s IS 'raw read rate of the same files in 8 kB reads, a read at the start of each round, median, in MB/s';
COMMENT ON COLUMN scan_sweep_result.read_pct IS 'mb_s as a percentage of read_mb_s';
COMMENT ON COLUMN scan_sweep_result.settings IS 'the settings that shape reads while this value was set, as in scan_rate_result.settings';

CREATE FUNCTION scan_sweep(rel regclass,
						   setting text,
						   vals text[],
						   cache text DEFAULT 'cold',
						   runs integer DEFAULT 1)
RETURNS SETOF scan_sweep_result
AS 'MODULE_PATHNAME', 'scan_sweep'
LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION scan_sweep(regclass, text, text[], text, integer) IS
'count(1) scan once per value of a setting a session can change (or parallel_workers), values interleaved over runs rounds, against the raw read rate';

REVOKE ALL ON FUNCTION scan_sweep(regclass, text, text[], text, integer) FROM PUBLIC;
