/* scanbench--0.1--0.2.sql */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "ALTER EXTENSION scanbench UPDATE TO '0.2'" to load this file. \quit

--
-- Where a scan's time goes: the I/O workers' CPU and the I/O settings in
-- scan_rate's result; scan_breakdown, scan_shapes and scan_sweep.
--

-- CASCADE: history tables made OF the type gain the columns too.
ALTER TYPE scan_rate_result
	ADD ATTRIBUTE io_worker_user_s float8 CASCADE,
	ADD ATTRIBUTE io_worker_sys_s float8 CASCADE,
	ADD ATTRIBUTE settings jsonb CASCADE;

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
COMMENT ON COLUMN scan_breakdown_result.relation IS 'the relation measured (a partitioned table as all its members)';
COMMENT ON COLUMN scan_breakdown_result.query IS 'the select list scanned: SELECT <query> FROM relation';
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
COMMENT ON COLUMN scan_breakdown_result.io_read_s IS 'seconds this backend waited for reads: track_io_timing''s count, which pg_stat_io and EXPLAIN (ANALYZE, BUFFERS) show (EXPLAIN''s counting slows the scan, so on 18 it waits less)';
COMMENT ON COLUMN scan_breakdown_result.storage_read_bytes IS 'bytes the kernel fetched from storage for the scan''s processes (/proc/PID/io read_bytes), read-ahead included';
COMMENT ON COLUMN scan_breakdown_result.page_cache_bytes IS 'bytes their read calls returned beyond that, served from the page cache (rchar - read_bytes); NULL under io_method = io_uring, whose reads rchar does not count';
COMMENT ON COLUMN scan_breakdown_result.shared_hit IS 'blocks found in shared_buffers (or local buffers)';
COMMENT ON COLUMN scan_breakdown_result.shared_read IS 'blocks read into shared_buffers (or local buffers)';
COMMENT ON COLUMN scan_breakdown_result.cpu_ns_per_row IS 'CPU nanoseconds (user_s + sys_s) per row';
COMMENT ON COLUMN scan_breakdown_result.cpu_ns_per_page IS 'CPU nanoseconds (user_s + sys_s) per page';
COMMENT ON COLUMN scan_breakdown_result.bottleneck IS 'cpu when cpu_pct + cpu_wait_pct is at least two thirds of the wall time, io when io_wait_pct is, mixed otherwise';
COMMENT ON COLUMN scan_breakdown_result.cpu_pct IS 'percent of wall time on CPU (this backend, plus its parallel workers with wall time counted once per process)';
COMMENT ON COLUMN scan_breakdown_result.cpu_wait_pct IS 'percent of wall time this backend was runnable but waiting for a CPU held by another process (/proc/self/schedstat; 0 where the kernel does not keep it)';
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
	runs				integer,
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
COMMENT ON COLUMN scan_shape_result.relation IS 'the relation measured';
COMMENT ON COLUMN scan_shape_result.shape IS 'count(1), count(*), count(last column), sum(number column) or "filter, no row passes"';
COMMENT ON COLUMN scan_shape_result.query IS 'what ran between SELECT and FROM, and the WHERE clause if any';
COMMENT ON COLUMN scan_shape_result.cache IS 'cache state asked for: cold, warm or asis';
COMMENT ON COLUMN scan_shape_result.runs IS 'rounds; each scans every shape once, in alternating order';
COMMENT ON COLUMN scan_shape_result.cached_pct_before IS 'percent of the blocks in shared_buffers or the page cache just before the scan, the most over the rounds';
COMMENT ON COLUMN scan_shape_result.rows IS 'rows of the relation, as count(1) read them';
COMMENT ON COLUMN scan_shape_result.seconds IS 'wall seconds of the scan, ExecutorStart to ExecutorEnd, median over the rounds';
COMMENT ON COLUMN scan_shape_result.mb_s IS 'relation bytes / seconds, in MB/s (10^6 bytes)';
COMMENT ON COLUMN scan_shape_result.rows_s IS 'rows / seconds';
COMMENT ON COLUMN scan_shape_result.ns_per_row IS 'wall nanoseconds per row';
COMMENT ON COLUMN scan_shape_result.read_mb_s IS 'raw read rate of the same files in 8 kB reads, same cache state, a read at the start of each round, median, in MB/s';
COMMENT ON COLUMN scan_shape_result.read_pct IS 'mb_s as a percentage of read_mb_s';
COMMENT ON COLUMN scan_shape_result.user_s IS 'user CPU seconds of this backend during the scan, median over the rounds';
COMMENT ON COLUMN scan_shape_result.sys_s IS 'system CPU seconds of this backend during the scan, median over the rounds';

CREATE FUNCTION scan_shapes(rel regclass,
							cache text DEFAULT 'warm',
							runs integer DEFAULT 1)
RETURNS SETOF scan_shape_result
AS 'MODULE_PATHNAME', 'scan_shapes'
LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION scan_shapes(regclass, text, integer) IS
'the relation scanned as count(1), count(*), count(last column), sum(number column) and a filter no row passes, shapes interleaved over runs rounds, each against the raw read rate measured in the same call';

REVOKE ALL ON FUNCTION scan_shapes(regclass, text, integer) FROM PUBLIC;

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
COMMENT ON COLUMN scan_sweep_result.relation IS 'the relation measured';
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

--
-- scan_efficiency: paired samples of stretches, their spread and
-- confidence interval, a verdict, and a bounded cost.  The 0.1 signature is
-- replaced; the result type keeps its 16 columns and gains these.
--
DROP FUNCTION scan_efficiency(regclass, text, integer, integer);

-- CASCADE: a history table made with CREATE TABLE ... OF the type gains
-- the columns too, so INSERT ... SELECT * FROM scan_efficiency() goes on.
-- It applies to one subcommand only, hence one per attribute.
ALTER TYPE scan_efficiency_result
	ADD ATTRIBUTE method text CASCADE,
	ADD ATTRIBUTE pairs integer CASCADE,
	ADD ATTRIBUTE coverage_pct float8 CASCADE,
	ADD ATTRIBUTE scan_pct_lo float8 CASCADE,
	ADD ATTRIBUTE scan_pct_hi float8 CASCADE,
	ADD ATTRIBUTE scan_pct_p10 float8 CASCADE,
	ADD ATTRIBUTE scan_pct_p90 float8 CASCADE,
	ADD ATTRIBUTE elapsed_s float8 CASCADE,
	ADD ATTRIBUTE verdict text CASCADE,
	ADD ATTRIBUTE settings jsonb CASCADE;

CREATE FUNCTION scan_efficiency(rel regclass,
								cache text DEFAULT 'cold',
								block_size integer DEFAULT 8192,
								runs integer DEFAULT 1,
								sample float8 DEFAULT 1.0,
								max_seconds float8 DEFAULT 60,
								target_pct float8 DEFAULT 5,
								method text DEFAULT 'pairs',
								with_write boolean DEFAULT false,
								record boolean DEFAULT false)
RETURNS scan_efficiency_result
AS 'MODULE_PATHNAME', 'scan_efficiency'
LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION scan_efficiency(regclass, text, integer, integer, float8, float8, float8, text, boolean, boolean) IS
'count(1) scan rate as a percentage of the raw read rate of the same blocks. method pairs (default): 8 MB stretches in random order, each read and scanned back to back, until the 95 % interval of the median is within +-target_pct % of it, max_seconds (s) are spent or a fraction sample of the relation is covered. method whole: runs alternated whole-relation passes. cache: cold, warm or asis; with_write => true adds a sequential write in the relation''s tablespace (write_mb_s); record => true adds the run to scan_history';

COMMENT ON COLUMN scan_efficiency_result.bytes IS 'bytes of the relation when the call began (blocks x BLCKSZ); both sides read only those blocks';
COMMENT ON COLUMN scan_efficiency_result.rows IS 'rows the scans returned: over the sampled stretches (pairs) or in the last run (whole)';
COMMENT ON COLUMN scan_efficiency_result.runs IS 'whole-relation passes of each side asked for (method whole; not used by pairs)';
COMMENT ON COLUMN scan_efficiency_result.read_mb_s IS 'median raw read rate over pairs or runs, MB/s (10^6 bytes), time waiting for a CPU left out';
COMMENT ON COLUMN scan_efficiency_result.scan_mb_s IS 'median executor scan rate over pairs or runs, MB/s (10^6 bytes), time waiting for a CPU left out';
COMMENT ON COLUMN scan_efficiency_result.scan_pct IS 'median over pairs (or runs) of 100 x scan rate / read rate, %';
COMMENT ON COLUMN scan_efficiency_result.read_s IS 'seconds of raw reading, net of waits for a CPU: summed over pairs, or the median run (whole)';
COMMENT ON COLUMN scan_efficiency_result.scan_s IS 'seconds of scanning, net of waits for a CPU: summed over pairs, or the median run (whole)';
COMMENT ON COLUMN scan_efficiency_result.read_cached_pct IS 'highest % of the blocks in the page cache just before a raw read';
COMMENT ON COLUMN scan_efficiency_result.scan_cached_pct IS 'highest % of the blocks in either cache just before a scan';
COMMENT ON COLUMN scan_efficiency_result.method IS 'pairs (sampled 8 MB stretches) or whole (whole-relation passes)';
COMMENT ON COLUMN scan_efficiency_result.pairs IS 'number of pair ratios the figures rest on (runs, with method whole)';
COMMENT ON COLUMN scan_efficiency_result.coverage_pct IS '% of the relation''s blocks read on each side';
COMMENT ON COLUMN scan_efficiency_result.scan_pct_lo IS 'lower end of the 95 % confidence interval of scan_pct (order statistics), %; NULL with fewer than 6 pairs';
COMMENT ON COLUMN scan_efficiency_result.scan_pct_hi IS 'upper end of the 95 % confidence interval of scan_pct (order statistics), %; NULL with fewer than 6 pairs';
COMMENT ON COLUMN scan_efficiency_result.scan_pct_p10 IS '10th percentile of the pair ratios, %';
COMMENT ON COLUMN scan_efficiency_result.scan_pct_p90 IS '90th percentile of the pair ratios, %';
COMMENT ON COLUMN scan_efficiency_result.elapsed_s IS 'wall-clock seconds the whole call took, evictions and checks included';
COMMENT ON COLUMN scan_efficiency_result.verdict IS 'ok, or a comma-separated list of: unstable, cached, host_cache, storage_not_limiting; NULL when nothing was measured';
COMMENT ON COLUMN scan_efficiency_result.settings IS 'the server''s I/O settings during the call (io_method, io_combine_limit, effective_io_concurrency, ...)';

REVOKE ALL ON FUNCTION scan_efficiency(regclass, text, integer, integer, float8, float8, float8, text, boolean, boolean) FROM PUBLIC;

--
-- Storage: what lies under the data (storage_info), how the storage
-- writes, rewrites, reads and seeks (storage_profile), and random reads
-- of a relation's own files (random_read).
--

CREATE TYPE storage_info_result AS (
	tablespace			text,
	data_path			text,
	level				integer,
	kind				text,
	name				text,
	parent				text,
	major_minor			text,
	mount_point			text,
	fstype				text,
	mount_options		text,
	dm_name				text,
	raid_level			text,
	backing_file		text,
	rotational			boolean,
	scheduler			text,
	read_ahead_kb		integer,
	nr_requests			integer,
	logical_block_size	integer,
	physical_block_size	integer,
	max_sectors_kb		integer,
	size_bytes			bigint,
	note				text,
	settings			jsonb
);

COMMENT ON TYPE storage_info_result IS
'one layer under a relation or tablespace: the filesystem (level 0), then each block device below it';
COMMENT ON COLUMN storage_info_result.tablespace IS 'tablespace holding data_path';
COMMENT ON COLUMN storage_info_result.data_path IS 'the file or directory looked up, relative to the data directory';
COMMENT ON COLUMN storage_info_result.level IS '0 for the filesystem, then one more per layer down';
COMMENT ON COLUMN storage_info_result.kind IS 'filesystem, partition, lvm, dm, crypt, multipath, md, loop or disk';
COMMENT ON COLUMN storage_info_result.name IS 'mount source for a filesystem (/dev/sda1, tmpfs), kernel name for a device (sda1, dm-0, loop0)';
COMMENT ON COLUMN storage_info_result.parent IS 'name of the layer above; NULL at level 0';
COMMENT ON COLUMN storage_info_result.major_minor IS 'device number, major:minor';
COMMENT ON COLUMN storage_info_result.mount_point IS 'filesystems: where it is mounted (absolute path)';
COMMENT ON COLUMN storage_info_result.fstype IS 'filesystems: type from /proc/self/mountinfo (ext2, ext4, xfs, btrfs, tmpfs, nfs, ...)';
COMMENT ON COLUMN storage_info_result.mount_options IS 'filesystems: mount options, then the filesystem''s own';
COMMENT ON COLUMN storage_info_result.dm_name IS 'device-mapper: the mapped name (vg-lv for LVM)';
COMMENT ON COLUMN storage_info_result.raid_level IS 'md: the RAID level (raid0, raid1, raid10, ...)';
COMMENT ON COLUMN storage_info_result.backing_file IS 'loop: the file behind the device; its filesystem follows one level down';
COMMENT ON COLUMN storage_info_result.rotational IS 'devices: true for spinning disks (queue/rotational)';
COMMENT ON COLUMN storage_info_result.scheduler IS 'devices: I/O scheduler in use (queue/scheduler)';
COMMENT ON COLUMN storage_info_result.read_ahead_kb IS 'devices: read-ahead, kB';
COMMENT ON COLUMN storage_info_result.nr_requests IS 'devices: request queue depth';
COMMENT ON COLUMN storage_info_result.logical_block_size IS 'devices: logical block size, bytes';
COMMENT ON COLUMN storage_info_result.physical_block_size IS 'devices: physical block size, bytes';
COMMENT ON COLUMN storage_info_result.max_sectors_kb IS 'devices: largest request, kB';
COMMENT ON COLUMN storage_info_result.size_bytes IS 'devices: size, bytes';
COMMENT ON COLUMN storage_info_result.note IS 'why a value is missing, or where it comes from';
COMMENT ON COLUMN storage_info_result.settings IS 'server settings that shape I/O (block_size, segment_size, shared_buffers, effective_io_concurrency, io_method, io_combine_limit, ...)';

CREATE FUNCTION storage_info(rel regclass)
RETURNS SETOF storage_info_result
AS 'MODULE_PATHNAME', 'storage_info_rel'
LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION storage_info(regclass) IS
'the filesystem and block devices under the relation''s first file, one row per layer';

CREATE FUNCTION storage_info(tablespace name)
RETURNS SETOF storage_info_result
AS 'MODULE_PATHNAME', 'storage_info_tablespace'
LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION storage_info(name) IS
'the filesystem and block devices under the tablespace''s directory, one row per layer';

CREATE TYPE storage_profile_result AS (
	tablespace			text,
	test				text,
	block_size			integer,
	bytes				bigint,
	ops					bigint,
	cached_pct_before	float8,
	seconds				float8,
	mb_s				float8,
	iops				float8,
	latency_p50_us		float8,
	latency_p95_us		float8,
	latency_p99_us		float8,
	user_s				float8,
	sys_s				float8,
	cpu_pct				float8
);

COMMENT ON TYPE storage_profile_result IS
'one storage_profile test: seq_write, rewrite, seq_read, random_read or random_write';
COMMENT ON COLUMN storage_profile_result.tablespace IS 'tablespace whose temporary-file area held the scratch file';
COMMENT ON COLUMN storage_profile_result.test IS 'seq_write (write, fdatasync), rewrite (read, change, write back, fdatasync), seq_read (cold), random_read (cold, queue depth 1), random_write (then fdatasync)';
COMMENT ON COLUMN storage_profile_result.block_size IS 'bytes per read or write';
COMMENT ON COLUMN storage_profile_result.bytes IS 'bytes transferred (rewrite: the file size, as bonnie++ counts it)';
COMMENT ON COLUMN storage_profile_result.ops IS 'reads or writes of block_size (rewrite: read-write pairs)';
COMMENT ON COLUMN storage_profile_result.cached_pct_before IS 'percent of the scratch file in the page cache before the test (mincore); NULL for seq_write';
COMMENT ON COLUMN storage_profile_result.seconds IS 'wall-clock seconds, fdatasync included for the writing tests';
COMMENT ON COLUMN storage_profile_result.mb_s IS 'MB/s, MB = 10^6 bytes';
COMMENT ON COLUMN storage_profile_result.iops IS 'random tests: operations per second';
COMMENT ON COLUMN storage_profile_result.latency_p50_us IS 'random tests: median latency of one operation, microseconds';
COMMENT ON COLUMN storage_profile_result.latency_p95_us IS 'random tests: 95th percentile latency, microseconds';
COMMENT ON COLUMN storage_profile_result.latency_p99_us IS 'random tests: 99th percentile latency, microseconds';
COMMENT ON COLUMN storage_profile_result.user_s IS 'user CPU seconds of this backend';
COMMENT ON COLUMN storage_profile_result.sys_s IS 'system CPU seconds of this backend';
COMMENT ON COLUMN storage_profile_result.cpu_pct IS '100 * (user_s + sys_s) / seconds, as bonnie++ and iozone report CPU';

CREATE FUNCTION storage_profile(tablespace name DEFAULT 'pg_default',
								size_mb integer DEFAULT 1024,
								block_size integer DEFAULT 8192,
								random_ops integer DEFAULT 10000)
RETURNS SETOF storage_profile_result
AS 'MODULE_PATHNAME', 'storage_profile'
LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION storage_profile(name, integer, integer, integer) IS
'lmdd/bonnie++/iozone/pgiosim-style tests on a scratch file of size_mb MB (10^6 bytes) in the tablespace''s temporary-file area; block_size in bytes; random_ops reads and writes for the random tests';

CREATE TYPE random_read_result AS (
	relation			regclass,
	reads				bigint,
	block_size			integer,
	cache				text,
	bytes				bigint,
	cached_pct_before	float8,
	seconds				float8,
	iops				float8,
	mb_s				float8,
	latency_p50_us		float8,
	latency_p95_us		float8,
	latency_p99_us		float8,
	min_offset			bigint,
	max_offset			bigint,
	repeats				boolean,
	user_s				float8,
	sys_s				float8
);

COMMENT ON TYPE random_read_result IS 'random_read: random reads of a relation''s own files at queue depth 1';
COMMENT ON COLUMN random_read_result.reads IS 'reads done';
COMMENT ON COLUMN random_read_result.block_size IS 'bytes per read; offsets are multiples of it';
COMMENT ON COLUMN random_read_result.cache IS 'cold, warm, direct or asis';
COMMENT ON COLUMN random_read_result.bytes IS 'bytes read';
COMMENT ON COLUMN random_read_result.cached_pct_before IS 'percent of the relation in the page cache before the reads (mincore)';
COMMENT ON COLUMN random_read_result.seconds IS 'wall-clock seconds of all reads';
COMMENT ON COLUMN random_read_result.iops IS 'reads per second';
COMMENT ON COLUMN random_read_result.mb_s IS 'MB/s, MB = 10^6 bytes';
COMMENT ON COLUMN random_read_result.latency_p50_us IS 'median latency of one read, microseconds';
COMMENT ON COLUMN random_read_result.latency_p95_us IS '95th percentile latency, microseconds';
COMMENT ON COLUMN random_read_result.latency_p99_us IS '99th percentile latency, microseconds';
COMMENT ON COLUMN random_read_result.min_offset IS 'lowest byte offset read, within the member relation (segment files end to end)';
COMMENT ON COLUMN random_read_result.max_offset IS 'highest byte offset read; a read covers max_offset to max_offset + block_size';
COMMENT ON COLUMN random_read_result.repeats IS 'true if more reads were asked than the relation has blocks, so some blocks were read twice';
COMMENT ON COLUMN random_read_result.user_s IS 'user CPU seconds of this backend';
COMMENT ON COLUMN random_read_result.sys_s IS 'system CPU seconds of this backend';

CREATE FUNCTION random_read(rel regclass,
							reads integer DEFAULT 10000,
							block_size integer DEFAULT 8192,
							cache text DEFAULT 'cold')
RETURNS random_read_result
AS 'MODULE_PATHNAME', 'random_read'
LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION random_read(regclass, integer, integer, text) IS
'pgiosim-style random reads of block_size bytes at aligned offsets in the relation''s segment files, queue depth 1; cache: cold, warm, direct or asis';

-- scan_efficiency(with_write => true): the write rate beside the read and
-- scan rates, as lmdd's Write / Read / Scan tables put them.
ALTER TYPE scan_efficiency_result
	ADD ATTRIBUTE write_mb_s float8
	CASCADE;

COMMENT ON COLUMN scan_efficiency_result.write_mb_s IS
'with_write: sequential write then fdatasync in the relation''s tablespace, as lmdd sync=1, of as many bytes as the relation (fewer if free space is short), MB/s (10^6 bytes); NULL without with_write';

-- These read /proc and /sys, read server files or write scratch files:
-- superuser only unless granted (see the README).
REVOKE ALL ON FUNCTION storage_info(regclass) FROM PUBLIC;
REVOKE ALL ON FUNCTION storage_info(name) FROM PUBLIC;
REVOKE ALL ON FUNCTION storage_profile(name, integer, integer, integer) FROM PUBLIC;
REVOKE ALL ON FUNCTION random_read(regclass, integer, integer, text) FROM PUBLIC;

--
-- ==== Run history, scheduled checks, trend, metrics and chart ====
--
-- The history is the extension's own table: it moves with ALTER EXTENSION
-- SET SCHEMA and pg_dump keeps its rows (pg_extension_config_dump).  Its
-- columns are plain types, never the result types, so an upgrade that
-- changes scan_efficiency_result leaves the history alone.  The relation
-- is kept by schema and name as well as OID: reloading a table (DROP and
-- CREATE, as scanbench-load --drop does) gives it a new OID, and the runs
-- before and after are the same table to the people reading them.
--
-- The extension is relocatable, so no function names its schema in its
-- text.  SQL functions with a standard body (BEGIN ATOMIC) and views are
-- bound to their objects when created.  PL/pgSQL functions find the
-- schema in pg_extension when called and put it on a search_path that
-- their SET clause confines to the call; the one procedure, which must
-- commit and so cannot have a SET clause, calls the others by qualified
-- name.
--

CREATE SEQUENCE scan_history_id_seq;

CREATE TABLE scan_history (
	id					bigint NOT NULL DEFAULT nextval('scan_history_id_seq') PRIMARY KEY,
	measured_at			timestamptz NOT NULL,
	relid				oid NOT NULL,
	relschema			text NOT NULL,
	relname				text NOT NULL,
	cache				text NOT NULL,
	bytes				bigint,
	rows				bigint,
	block_size			integer,
	runs				integer,
	read_mb_s			float8,
	scan_mb_s			float8,
	scan_pct			float8,
	scan_pct_lo			float8,
	scan_pct_hi			float8,
	scan_pct_p10		float8,
	scan_pct_p90		float8,
	read_s				float8,
	scan_s				float8,
	read_cached_pct		float8,
	scan_cached_pct		float8,
	method				text,
	pairs				integer,
	coverage_pct		float8,
	elapsed_s			float8,
	verdict				text,
	write_mb_s			float8,
	filesystem			text,
	device				text,
	scheduler			text,
	read_ahead_kb		integer,
	kernel				text,
	server_version		text,
	settings			jsonb,
	recorded_by			text NOT NULL DEFAULT current_user
);
ALTER SEQUENCE scan_history_id_seq OWNED BY scan_history.id;
CREATE INDEX scan_history_relation_idx
	ON scan_history (relschema, relname, cache, measured_at);

SELECT pg_catalog.pg_extension_config_dump('scan_history', '');
SELECT pg_catalog.pg_extension_config_dump('scan_history_id_seq', '');

COMMENT ON TABLE scan_history IS
'one row per recorded scan_efficiency run (record => true, efficiency_check); kept by pg_dump';
COMMENT ON COLUMN scan_history.id IS 'run number, increasing';
COMMENT ON COLUMN scan_history.measured_at IS 'when the run was measured';
COMMENT ON COLUMN scan_history.relid IS 'OID of the relation at the time (changes when the table is reloaded)';
COMMENT ON COLUMN scan_history.relschema IS 'schema of the relation at the time';
COMMENT ON COLUMN scan_history.relname IS 'name of the relation at the time; runs are compared by schema and name';
COMMENT ON COLUMN scan_history.cache IS 'cache mode: cold, warm or asis';
COMMENT ON COLUMN scan_history.bytes IS 'size of the relation, bytes';
COMMENT ON COLUMN scan_history.rows IS 'rows the scan counted';
COMMENT ON COLUMN scan_history.block_size IS 'raw read size, bytes';
COMMENT ON COLUMN scan_history.runs IS 'runs asked for';
COMMENT ON COLUMN scan_history.read_mb_s IS 'raw read rate, MB/s (10^6 bytes)';
COMMENT ON COLUMN scan_history.scan_mb_s IS 'executor count(1) scan rate, MB/s (10^6 bytes)';
COMMENT ON COLUMN scan_history.scan_pct IS 'scan rate as a percentage of the read rate, %';
COMMENT ON COLUMN scan_history.scan_pct_lo IS 'lower end of the 95 % confidence interval of scan_pct, %';
COMMENT ON COLUMN scan_history.scan_pct_hi IS 'upper end of the 95 % confidence interval of scan_pct, %';
COMMENT ON COLUMN scan_history.scan_pct_p10 IS '10th percentile of the pairs'' scan percentages, %';
COMMENT ON COLUMN scan_history.scan_pct_p90 IS '90th percentile of the pairs'' scan percentages, %';
COMMENT ON COLUMN scan_history.read_s IS 'raw read time, seconds';
COMMENT ON COLUMN scan_history.scan_s IS 'scan time, seconds';
COMMENT ON COLUMN scan_history.read_cached_pct IS 'share of the relation cached before the raw reads, %';
COMMENT ON COLUMN scan_history.scan_cached_pct IS 'share of the relation cached before the scans, %';
COMMENT ON COLUMN scan_history.method IS 'how the relation was measured (pairs of stretches or whole passes)';
COMMENT ON COLUMN scan_history.pairs IS 'read/scan pairs measured';
COMMENT ON COLUMN scan_history.coverage_pct IS 'share of the relation read, %';
COMMENT ON COLUMN scan_history.elapsed_s IS 'time the measurement took, seconds';
COMMENT ON COLUMN scan_history.verdict IS 'ok, or a comma-separated list of unstable, cached, host_cache, storage_not_limiting';
COMMENT ON COLUMN scan_history.write_mb_s IS 'write rate of the storage, MB/s (10^6 bytes), when measured';
COMMENT ON COLUMN scan_history.filesystem IS 'filesystem type under the relation''s first file';
COMMENT ON COLUMN scan_history.device IS 'block device under the relation''s first file';
COMMENT ON COLUMN scan_history.scheduler IS 'I/O schedulers of the block devices under that file, top down, joined by /';
COMMENT ON COLUMN scan_history.read_ahead_kb IS 'read-ahead of the device the filesystem is on, kB';
COMMENT ON COLUMN scan_history.kernel IS 'running kernel release';
COMMENT ON COLUMN scan_history.server_version IS 'PostgreSQL server_version';
COMMENT ON COLUMN scan_history.settings IS 'the server''s I/O settings, as SHOW prints them';
COMMENT ON COLUMN scan_history.recorded_by IS 'role that recorded the run';

CREATE FUNCTION scan_history_kernel() RETURNS text
AS 'MODULE_PATHNAME', 'scan_history_kernel'
LANGUAGE C STRICT VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION scan_history_kernel() IS
'release of the running kernel (uname -r)';

CREATE FUNCTION scan_history_outside_block() RETURNS void
AS 'MODULE_PATHNAME', 'scan_history_outside_block'
LANGUAGE C STRICT VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION scan_history_outside_block() IS
'error when called inside a transaction block, where efficiency_check could not commit its run';

-- The marks a run is compared under: NULL when it cannot be judged
-- (unstable or cached), else '' or the marks that make its figure a
-- different quantity (host_cache, storage_not_limiting), in verdict order.
CREATE FUNCTION scan_history_marks(verdict text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
BEGIN ATOMIC
	SELECT CASE
		WHEN string_to_array(coalesce(verdict, 'ok'), ',') && ARRAY['unstable', 'cached'] THEN NULL
		ELSE concat_ws(',',
			CASE WHEN 'host_cache' = ANY (string_to_array(verdict, ',')) THEN 'host_cache' END,
			CASE WHEN 'storage_not_limiting' = ANY (string_to_array(verdict, ',')) THEN 'storage_not_limiting' END)
	END;
END;

COMMENT ON FUNCTION scan_history_marks(text) IS
'NULL for a verdict that cannot be judged (unstable, cached), else the marks runs are compared under (host_cache, storage_not_limiting)';

-- Fields are read through jsonb so that a result row of any version of
-- the type records: a column it lacks is NULL here.
CREATE FUNCTION scan_history_record(run scan_efficiency_result) RETURNS bigint
LANGUAGE sql VOLATILE
BEGIN ATOMIC
	INSERT INTO scan_history (measured_at, relid, relschema, relname, cache,
		bytes, rows, block_size, runs, read_mb_s, scan_mb_s, scan_pct,
		scan_pct_lo, scan_pct_hi, scan_pct_p10, scan_pct_p90, read_s, scan_s,
		read_cached_pct, scan_cached_pct, method, pairs, coverage_pct,
		elapsed_s, verdict, write_mb_s, filesystem, device, scheduler,
		read_ahead_kb, kernel, server_version, settings)
	SELECT coalesce((j ->> 'measured_at')::timestamptz, now()), c.oid,
		n.nspname, c.relname, j ->> 'cache',
		(j ->> 'bytes')::bigint, (j ->> 'rows')::bigint,
		(j ->> 'block_size')::integer, (j ->> 'runs')::integer,
		(j ->> 'read_mb_s')::float8, (j ->> 'scan_mb_s')::float8,
		(j ->> 'scan_pct')::float8, (j ->> 'scan_pct_lo')::float8,
		(j ->> 'scan_pct_hi')::float8, (j ->> 'scan_pct_p10')::float8,
		(j ->> 'scan_pct_p90')::float8, (j ->> 'read_s')::float8,
		(j ->> 'scan_s')::float8, (j ->> 'read_cached_pct')::float8,
		(j ->> 'scan_cached_pct')::float8, j ->> 'method',
		(j ->> 'pairs')::integer, (j ->> 'coverage_pct')::float8,
		(j ->> 'elapsed_s')::float8, j ->> 'verdict',
		(j ->> 'write_mb_s')::float8, j ->> 'filesystem', j ->> 'device',
		st.scheduler, st.read_ahead_kb, scan_history_kernel(),
		current_setting('server_version'),
		coalesce(j -> 'settings',
				 (SELECT jsonb_object_agg(s.name, current_setting(s.name))
				  FROM pg_settings s
				  WHERE s.name IN ('io_method', 'io_workers', 'io_combine_limit',
								   'effective_io_concurrency', 'track_io_timing',
								   'shared_buffers')))
	FROM to_jsonb(run) AS j,
		pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace,
		-- The device layers under the relation's first file: every
		-- scheduler on the way down (a device-mapper volume's "none" over
		-- its disk's "mq-deadline"), and the read-ahead of the device the
		-- filesystem sits on, which is the one its reads use.
		(SELECT string_agg(i.scheduler, '/' ORDER BY i.level)
				FILTER (WHERE i.scheduler IS NOT NULL) AS scheduler,
				(array_agg(i.read_ahead_kb ORDER BY i.level)
				 FILTER (WHERE i.read_ahead_kb IS NOT NULL))[1] AS read_ahead_kb
		 FROM storage_info((run).relation) AS i WHERE i.level > 0) AS st
	WHERE c.oid = (run).relation
	RETURNING id;
END;

COMMENT ON FUNCTION scan_history_record(scan_efficiency_result) IS
'add a scan_efficiency result row to scan_history, with the schedulers and read-ahead of the devices under it (storage_info), the kernel, server version and I/O settings; returns the run number';

-- efficiency_check's measurement.  Its own messages say what the verdict
-- means for the check, so scan_efficiency's notices and warnings about
-- the same verdict stay in the server log.
CREATE FUNCTION scan_history_measure(rel regclass, cache text, runs integer,
									 sample float8, max_seconds float8,
									 target_pct float8, method text)
RETURNS bigint
LANGUAGE sql VOLATILE
SET client_min_messages = error
BEGIN ATOMIC
	SELECT scan_history_record(r)
	FROM scan_efficiency(scan_history_measure.rel, scan_history_measure.cache,
						 runs => scan_history_measure.runs,
						 sample => scan_history_measure.sample,
						 max_seconds => scan_history_measure.max_seconds,
						 target_pct => scan_history_measure.target_pct,
						 method => scan_history_measure.method) AS r;
END;

COMMENT ON FUNCTION scan_history_measure(regclass, text, integer, float8, float8, float8, text) IS
'measure with scan_efficiency and record the run; returns the run number';

CREATE FUNCTION scan_history_check_limits(min_pct float8, max_drop_pct float8,
										  warn_pct float8, warn_drop_pct float8,
										  window_days integer)
RETURNS void
LANGUAGE plpgsql IMMUTABLE
AS $$
BEGIN
	IF min_pct IS NOT NULL AND NOT (min_pct > 0 AND min_pct < 1000) THEN
		RAISE EXCEPTION 'min_pct must be above 0 and below 1000, not %', min_pct
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF warn_pct IS NOT NULL AND NOT (warn_pct > 0 AND warn_pct < 1000) THEN
		RAISE EXCEPTION 'warn_pct must be above 0 and below 1000, not %', warn_pct
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF max_drop_pct IS NULL OR NOT (max_drop_pct > 0 AND max_drop_pct < 100) THEN
		RAISE EXCEPTION 'max_drop_pct must be above 0 and below 100, not %', coalesce(max_drop_pct::text, 'NULL')
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF warn_drop_pct IS NOT NULL AND NOT (warn_drop_pct > 0 AND warn_drop_pct <= max_drop_pct) THEN
		RAISE EXCEPTION 'warn_drop_pct must be above 0 and at most max_drop_pct (%), not %', max_drop_pct, warn_drop_pct
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'Give NULL for no warning before the alarm.';
	END IF;
	IF window_days IS NULL OR window_days < 1 OR window_days > 36600 THEN
		RAISE EXCEPTION 'window_days must be from 1 to 36600, not %', coalesce(window_days::text, 'NULL')
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
END
$$;

COMMENT ON FUNCTION scan_history_check_limits(float8, float8, float8, float8, integer) IS
'argument checks shared by efficiency_check and scan_history_judge';

--
-- How a recorded run compares with the earlier ones: status 'regression'
-- (efficiency_check raises), 'warning', 'ok', 'first' (nothing earlier
-- to compare with) or 'not_judged' (unstable, cached or empty), with a
-- message a person reads in a cron mail.
--
-- Only runs that could be judged, of the same relation (by schema and
-- name) and cache mode, with the same marks, within window_days before
-- the run, make the median: a VM whose "cold" reads come from the host's
-- cache (host_cache) still alarms when that figure drops.  What changed
-- is told against the value most of those runs had.
--
CREATE FUNCTION scan_history_judge(run bigint,
								   min_pct float8 DEFAULT NULL,
								   max_drop_pct float8 DEFAULT 20,
								   warn_pct float8 DEFAULT NULL,
								   warn_drop_pct float8 DEFAULT 10,
								   window_days integer DEFAULT 30,
								   OUT status text, OUT message text,
								   OUT detail text, OUT hint text,
								   OUT median_pct float8, OUT drop_pct float8,
								   OUT earlier_runs integer)
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	ext_schema text;
	cur record;
	marks text;
	label text;
	subject text;
	since timestamptz;
	changes text;
	fails text[] := '{}';
	warns text[] := '{}';
	warn_at float8;
	lim text;
BEGIN
	SELECT n.nspname INTO ext_schema
	FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
	WHERE e.extname = 'scanbench';
	PERFORM set_config('search_path',
					   'pg_catalog, ' || quote_ident(ext_schema) || ', pg_temp', true);
	PERFORM scan_history_check_limits(min_pct, max_drop_pct, warn_pct,
									  warn_drop_pct, window_days);

	SELECT * INTO cur FROM scan_history h WHERE h.id = run;
	IF NOT FOUND THEN
		RAISE EXCEPTION 'no run % in scan_history', run
			USING ERRCODE = 'invalid_parameter_value';
	END IF;

	label := CASE WHEN cur.relschema = 'public' THEN quote_ident(cur.relname)
			 ELSE quote_ident(cur.relschema) || '.' || quote_ident(cur.relname) END;
	subject := format('%s scan efficiency %s %%', label, round(cur.scan_pct::numeric, 1));
	hint := format('The runs: SELECT * FROM %I.scan_history WHERE relschema = %L AND relname = %L ORDER BY measured_at DESC;',
				   ext_schema, cur.relschema, cur.relname);
	earlier_runs := 0;

	marks := scan_history_marks(cur.verdict);
	IF cur.scan_pct IS NULL OR marks IS NULL THEN
		status := 'not_judged';
		IF cur.scan_pct IS NULL THEN
			message := format('%s scan efficiency was not judged: nothing was measured (an empty relation)', label);
		ELSE
			message := format('%s was not judged: %s', subject, array_to_string(ARRAY[
				CASE WHEN cur.verdict ~ '(^|,)unstable(,|$)' THEN
					format('the measurement was unstable (95 %% interval %s–%s %%)',
						   round(cur.scan_pct_lo::numeric, 1), round(cur.scan_pct_hi::numeric, 1)) END,
				CASE WHEN cur.verdict ~ '(^|,)cached(,|$)' THEN
					format('part of the relation was already cached (%s %% before the reads, %s %% before the scans)',
						   round(cur.read_cached_pct::numeric, 1), round(cur.scan_cached_pct::numeric, 1)) END],
				'; '));
		END IF;
		detail := format('Run %s (verdict %s) is recorded and left out of later comparisons. '
						 'An unstable run needs a quieter machine or more time (max_seconds); '
						 'a cached one means another process holds the files in memory.',
						 cur.id, coalesce(cur.verdict, 'none'));
		RETURN;
	END IF;

	SELECT count(*), percentile_cont(0.5) WITHIN GROUP (ORDER BY h.scan_pct),
		   min(h.measured_at)
	INTO earlier_runs, median_pct, since
	FROM scan_history h
	WHERE h.relschema = cur.relschema AND h.relname = cur.relname
	  AND h.cache = cur.cache AND h.id <> cur.id
	  AND h.measured_at <= cur.measured_at
	  AND h.measured_at > cur.measured_at - make_interval(days => window_days)
	  AND h.scan_pct IS NOT NULL
	  AND scan_history_marks(h.verdict) = marks;

	IF earlier_runs = 0 THEN
		status := 'first';
		message := format('%s: first recorded run%s in %s days, nothing to compare with yet',
						  subject,
						  CASE WHEN marks <> '' THEN ' marked ' || marks ELSE '' END,
						  window_days);
		detail := format('Run %s is recorded; later runs are compared with it.', cur.id);
		RETURN;
	END IF;

	median_pct := round(median_pct::numeric, 1);
	drop_pct := CASE WHEN median_pct > 0
				THEN round((100 * (median_pct - cur.scan_pct) / median_pct)::numeric, 1) END;

	IF min_pct IS NOT NULL AND cur.scan_pct < min_pct THEN
		fails := fails || format('is below its limit of %s %%', min_pct);
	END IF;
	IF drop_pct > max_drop_pct THEN
		fails := fails || format('is %s %% below its %s-day median %s %%',
								 round(drop_pct), window_days, round(median_pct::numeric, 1));
	END IF;
	warn_at := coalesce(warn_pct, min_pct * 1.1);
	IF cardinality(fails) = 0 THEN
		IF warn_at IS NOT NULL AND cur.scan_pct < warn_at THEN
			warns := warns || format('is close to its limit of %s %%', min_pct);
		END IF;
		IF drop_pct > warn_drop_pct THEN
			warns := warns || format('is %s %% below its %s-day median %s %% (the alarm is at %s %%)',
									 round(drop_pct), window_days, round(median_pct::numeric, 1), max_drop_pct);
		END IF;
	END IF;

	-- What changed: each fact of this run against the value most of the
	-- compared runs had (the latest of equally common ones).
	WITH w AS (
		SELECT h.* FROM scan_history h
		WHERE h.relschema = cur.relschema AND h.relname = cur.relname
		  AND h.cache = cur.cache AND h.id <> cur.id
		  AND h.measured_at <= cur.measured_at
		  AND h.measured_at > cur.measured_at - make_interval(days => window_days)
		  AND h.scan_pct IS NOT NULL
		  AND scan_history_marks(h.verdict) = marks
	), facts AS (
		SELECT f.ord, f.fact, f.val, w.measured_at
		FROM w, LATERAL (VALUES
			(1, 'filesystem', w.filesystem), (2, 'device', w.device),
			(3, 'scheduler', w.scheduler), (4, 'read_ahead_kb', w.read_ahead_kb::text),
			(5, 'kernel', w.kernel), (6, 'server version', w.server_version),
			(7, 'block_size', w.block_size::text)) AS f(ord, fact, val)
		UNION ALL
		SELECT 10, s.key, s.value, w.measured_at FROM w, jsonb_each_text(w.settings) AS s
	), usual AS (
		SELECT DISTINCT ON (fact) ord, fact, val
		FROM facts WHERE val IS NOT NULL
		GROUP BY ord, fact, val
		ORDER BY fact, count(*) DESC, max(measured_at) DESC
	), now_facts AS (
		SELECT f.fact, f.val FROM (VALUES
			('filesystem', cur.filesystem), ('device', cur.device),
			('scheduler', cur.scheduler), ('read_ahead_kb', cur.read_ahead_kb::text),
			('kernel', cur.kernel), ('server version', cur.server_version),
			('block_size', cur.block_size::text)) AS f(fact, val)
		UNION ALL
		SELECT s.key, s.value FROM jsonb_each_text(cur.settings) AS s
	), size AS (
		SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY w.bytes) AS bytes FROM w
	)
	SELECT string_agg(c, '; ' ORDER BY o, c) INTO changes
	FROM (
		SELECT u.ord AS o, format('%s changed %s → %s', u.fact, u.val, n.val) AS c
		FROM usual u JOIN now_facts n USING (fact)
		WHERE n.val IS NOT NULL AND n.val <> u.val
		UNION ALL
		SELECT 8, format('size changed %s → %s', pg_size_pretty(s.bytes::bigint), pg_size_pretty(cur.bytes))
		FROM size s
		WHERE s.bytes > 0 AND abs(cur.bytes - s.bytes) > 0.1 * s.bytes
	) AS changed;

	lim := concat_ws(', ',
					 CASE WHEN min_pct IS NOT NULL THEN format('alarm below %s %%', min_pct) END,
					 format('alarm at a drop of %s %%', max_drop_pct),
					 CASE WHEN warn_at IS NOT NULL THEN format('warning below %s %%', round(warn_at::numeric, 1)) END,
					 CASE WHEN warn_drop_pct IS NOT NULL THEN format('warning at a drop of %s %%', warn_drop_pct) END);
	detail := format('Run %s at %s, %s: read %s MB/s, scan %s MB/s%s, verdict %s. '
					 'Median of %s earlier run%s since %s%s. Limits: %s.',
					 cur.id, to_char(cur.measured_at, 'YYYY-MM-DD HH24:MI:SS TZ'), cur.cache,
					 coalesce(round(cur.read_mb_s::numeric, 1)::text, '?'),
					 coalesce(round(cur.scan_mb_s::numeric, 1)::text, '?'),
					 CASE WHEN cur.scan_pct_lo IS NOT NULL AND cur.scan_pct_hi IS NOT NULL
					 THEN format(', 95 %% interval %s–%s %%', round(cur.scan_pct_lo::numeric, 1),
								 round(cur.scan_pct_hi::numeric, 1)) ELSE '' END,
					 coalesce(cur.verdict, 'none'), earlier_runs,
					 CASE WHEN earlier_runs > 1 THEN 's' ELSE '' END,
					 to_char(since, 'YYYY-MM-DD'),
					 CASE WHEN marks <> '' THEN ', all marked ' || marks ELSE '' END,
					 lim);

	IF cardinality(fails) > 0 THEN
		status := 'regression';
		message := subject || ' ' || array_to_string(fails, ' and ') || '; ' ||
			coalesce(changes, 'nothing changed in storage, kernel, server version or I/O settings');
	ELSIF cardinality(warns) > 0 THEN
		status := 'warning';
		message := subject || ' ' || array_to_string(warns, ' and ') || '; ' ||
			coalesce(changes, 'nothing changed in storage, kernel, server version or I/O settings');
	ELSE
		status := 'ok';
		message := format('%s is within its limits: %s-day median %s %% over %s run%s%s',
						  subject, window_days, round(median_pct::numeric, 1), earlier_runs,
						  CASE WHEN earlier_runs > 1 THEN 's' ELSE '' END,
						  CASE WHEN changes IS NOT NULL THEN '; ' || changes ELSE '' END);
	END IF;
END
$$;

COMMENT ON FUNCTION scan_history_judge(bigint, float8, float8, float8, float8, integer) IS
'compare a recorded run with the median of earlier judged runs of the same relation, cache mode and marks; status regression, warning, ok, first or not_judged, with a message, and what changed';

--
-- The nightly check.  A procedure, because the run must stay in the
-- history when the check then raises: it commits the recorded run before
-- it judges it.  Checks of one relation take turns (an advisory lock
-- taken before anything else, so nothing is held while waiting), so that
-- one check's eviction does not land in the middle of another's timing.
--
CREATE PROCEDURE efficiency_check(rel regclass,
								  cache text DEFAULT 'cold',
								  min_pct float8 DEFAULT NULL,
								  max_drop_pct float8 DEFAULT 20,
								  warn_pct float8 DEFAULT NULL,
								  warn_drop_pct float8 DEFAULT 10,
								  window_days integer DEFAULT 30,
								  max_seconds float8 DEFAULT 60,
								  target_pct float8 DEFAULT NULL,
								  sample float8 DEFAULT 1.0,
								  method text DEFAULT 'pairs',
								  runs integer DEFAULT 1)
LANGUAGE plpgsql
AS $$
DECLARE
	s text;
	run bigint;
	j record;
BEGIN
	IF rel IS NULL OR cache IS NULL OR runs IS NULL OR max_seconds IS NULL
	   OR sample IS NULL OR method IS NULL THEN
		RAISE EXCEPTION 'efficiency_check needs a relation, cache, max_seconds, sample, method and runs'
			USING ERRCODE = 'null_value_not_allowed';
	END IF;
	SELECT quote_ident(n.nspname) INTO s
	FROM pg_catalog.pg_extension e JOIN pg_catalog.pg_namespace n ON n.oid = e.extnamespace
	WHERE e.extname = 'scanbench';
	EXECUTE format('SELECT %s.scan_history_check_limits($1, $2, $3, $4, $5)', s)
		USING min_pct, max_drop_pct, warn_pct, warn_drop_pct, window_days;
	EXECUTE format('SELECT %s.scan_history_outside_block()', s);

	PERFORM pg_catalog.pg_advisory_xact_lock(
		(pg_catalog.hashtext('scanbench.efficiency_check')::bigint << 32) | rel::oid::bigint);
	-- The precision the check needs: a drop of max_drop_pct is told from
	-- noise when the interval is within half of it.
	EXECUTE format('SELECT %s.scan_history_measure($1, $2, $3, $4, $5, $6, $7)', s)
		INTO run USING rel, cache, runs, sample, max_seconds,
					   coalesce(target_pct, max_drop_pct / 2), method;
	COMMIT;

	EXECUTE format('SELECT * FROM %s.scan_history_judge($1, $2, $3, $4, $5, $6)', s)
		INTO j USING run, min_pct, max_drop_pct, warn_pct, warn_drop_pct, window_days;
	IF j.status = 'regression' THEN
		RAISE EXCEPTION USING ERRCODE = 'SB001', MESSAGE = j.message,
			DETAIL = j.detail, HINT = j.hint;
	ELSIF j.status IN ('warning', 'not_judged') THEN
		RAISE WARNING USING MESSAGE = j.message, DETAIL = j.detail, HINT = j.hint;
	ELSE
		RAISE NOTICE USING MESSAGE = j.message;
	END IF;
END
$$;

COMMENT ON PROCEDURE efficiency_check(regclass, text, float8, float8, float8, float8, integer, float8, float8, float8, text, integer) IS
'measure (max_seconds s, interval within target_pct %, by default half of max_drop_pct), record and judge a relation''s scan efficiency (CALL it outside a transaction block); ERROR with SQLSTATE SB001 when under min_pct (%) or more than max_drop_pct (%) below the median of window_days; WARNING near a limit or when the run cannot be judged';

--
-- Per relation and cache mode.  The median, min and max are over runs
-- that could be judged; change_pct is the latest judged run against that
-- median.
--
CREATE VIEW scan_trend AS
SELECT format('%I.%I', h.relschema, h.relname) AS relation,
	   h.cache,
	   count(*) AS runs,
	   count(*) FILTER (WHERE h.judged) AS judged_runs,
	   min(h.measured_at) AS first_at,
	   max(h.measured_at) AS latest_at,
	   (array_agg(h.scan_pct ORDER BY h.measured_at DESC, h.id DESC))[1] AS latest_pct,
	   (array_agg(h.verdict ORDER BY h.measured_at DESC, h.id DESC))[1] AS latest_verdict,
	   round(percentile_cont(0.5) WITHIN GROUP (ORDER BY h.scan_pct)
			 FILTER (WHERE h.judged)::numeric, 1)::float8 AS median_pct,
	   min(h.scan_pct) FILTER (WHERE h.judged) AS min_pct,
	   max(h.scan_pct) FILTER (WHERE h.judged) AS max_pct,
	   round((100 * (array_agg(h.scan_pct ORDER BY h.measured_at DESC, h.id DESC)
					 FILTER (WHERE h.judged))[1]
			  / nullif(percentile_cont(0.5) WITHIN GROUP (ORDER BY h.scan_pct)
					   FILTER (WHERE h.judged), 0) - 100)::numeric, 1)::float8 AS change_pct,
	   (array_agg(h.read_mb_s ORDER BY h.measured_at DESC, h.id DESC))[1] AS latest_read_mb_s,
	   (array_agg(h.scan_mb_s ORDER BY h.measured_at DESC, h.id DESC))[1] AS latest_scan_mb_s
FROM (SELECT sh.*, scan_history_marks(sh.verdict) IS NOT NULL
				   AND sh.scan_pct IS NOT NULL AS judged
	  FROM scan_history sh) AS h
GROUP BY h.relschema, h.relname, h.cache;

COMMENT ON VIEW scan_trend IS
'scan efficiency per relation and cache mode over the recorded runs';
COMMENT ON COLUMN scan_trend.relation IS 'schema-qualified name';
COMMENT ON COLUMN scan_trend.cache IS 'cache mode';
COMMENT ON COLUMN scan_trend.runs IS 'recorded runs';
COMMENT ON COLUMN scan_trend.judged_runs IS 'runs that could be judged (not unstable, not cached)';
COMMENT ON COLUMN scan_trend.first_at IS 'first recorded run';
COMMENT ON COLUMN scan_trend.latest_at IS 'latest recorded run';
COMMENT ON COLUMN scan_trend.latest_pct IS 'scan efficiency of the latest run, %';
COMMENT ON COLUMN scan_trend.latest_verdict IS 'verdict of the latest run';
COMMENT ON COLUMN scan_trend.median_pct IS 'median scan efficiency of the judged runs, %';
COMMENT ON COLUMN scan_trend.min_pct IS 'lowest scan efficiency of the judged runs, %';
COMMENT ON COLUMN scan_trend.max_pct IS 'highest scan efficiency of the judged runs, %';
COMMENT ON COLUMN scan_trend.change_pct IS 'latest judged run against the median, % (negative: lower)';
COMMENT ON COLUMN scan_trend.latest_read_mb_s IS 'raw read rate of the latest run, MB/s';
COMMENT ON COLUMN scan_trend.latest_scan_mb_s IS 'scan rate of the latest run, MB/s';

CREATE FUNCTION scan_history_prune(older_than interval DEFAULT '400 days')
RETURNS bigint
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	gone bigint;
BEGIN
	IF older_than IS NULL OR older_than < interval '1 day' THEN
		RAISE EXCEPTION 'older_than must be at least 1 day, not %', coalesce(older_than::text, 'NULL')
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'To empty the history, TRUNCATE scan_history.';
	END IF;
	PERFORM set_config('search_path', 'pg_catalog, ' || quote_ident(n.nspname) || ', pg_temp', true)
	FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
	WHERE e.extname = 'scanbench';
	DELETE FROM scan_history WHERE measured_at < now() - older_than;
	GET DIAGNOSTICS gone = ROW_COUNT;
	RETURN gone;
END
$$;

COMMENT ON FUNCTION scan_history_prune(interval) IS
'delete recorded runs older than older_than (at least 1 day); returns the number deleted';

--
-- The latest run of each relation and cache mode in the Prometheus text
-- exposition format (version 0.0.4), for node_exporter's textfile
-- collector: psql -At -c 'SELECT scanbench_metrics()' > scanbench.prom
-- Every family is a gauge; rates are in bytes per second, as Prometheus
-- names units; a figure not measured (NULL) has no sample.
--
CREATE FUNCTION scanbench_metrics() RETURNS text
LANGUAGE sql STABLE
BEGIN ATOMIC
	WITH latest AS (
		SELECT DISTINCT ON (h.relschema, h.relname, h.cache) h.*
		FROM scan_history h
		ORDER BY h.relschema, h.relname, h.cache, h.measured_at DESC, h.id DESC
	), counted AS (
		SELECT h.relschema, h.relname, h.cache, count(*) AS recorded
		FROM scan_history h GROUP BY h.relschema, h.relname, h.cache
	), labelled AS (
		SELECT l.*, c.recorded,
			format('relation="%s",cache="%s"',
				   replace(replace(replace(l.relschema || '.' || l.relname,
										   E'\\', E'\\\\'), '"', E'\\"'), E'\n', E'\\n'),
				   replace(replace(replace(l.cache,
										   E'\\', E'\\\\'), '"', E'\\"'), E'\n', E'\\n')) AS labels,
			(SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY e.scan_pct)
			 FROM scan_history e
			 WHERE e.relschema = l.relschema AND e.relname = l.relname
			   AND e.cache = l.cache AND e.scan_pct IS NOT NULL
			   AND e.measured_at > l.measured_at - interval '30 days'
			   AND e.measured_at <= l.measured_at
			   AND scan_history_marks(e.verdict) = coalesce(scan_history_marks(l.verdict), '')) AS median_pct
		FROM latest l JOIN counted c USING (relschema, relname, cache)
	), families (ord, name, help) AS (VALUES
		(1, 'scanbench_scan_efficiency_percent',
		 'Scan rate of the latest recorded run as a percentage of the raw read rate of the same files.'),
		(2, 'scanbench_scan_efficiency_lower_percent',
		 'Lower end of the 95 % confidence interval of the latest run''s scan efficiency.'),
		(3, 'scanbench_scan_efficiency_upper_percent',
		 'Upper end of the 95 % confidence interval of the latest run''s scan efficiency.'),
		(4, 'scanbench_scan_efficiency_median_percent',
		 'Median scan efficiency of the judged runs of the 30 days up to the latest run, with its marks.'),
		(5, 'scanbench_read_bytes_per_second',
		 'Raw read rate of the relation''s files in the latest run.'),
		(6, 'scanbench_scan_bytes_per_second',
		 'Executor count(1) scan rate of the relation in the latest run.'),
		(7, 'scanbench_run_judged',
		 '1 when the latest run could be judged, 0 when it was unstable or cached.'),
		(8, 'scanbench_verdict_info',
		 'Verdict of the latest run, as a label.'),
		(9, 'scanbench_last_run_timestamp_seconds',
		 'When the latest run was measured, seconds since the Unix epoch.'),
		(10, 'scanbench_recorded_runs',
		 'Runs of the relation and cache mode in the history.')
	), samples (ord, labels, value) AS (
		SELECT v.ord, CASE WHEN v.ord = 8 THEN l.labels || format(',verdict="%s"',
					replace(replace(replace(coalesce(l.verdict, ''),
						E'\\', E'\\\\'), '"', E'\\"'), E'\n', E'\\n'))
				ELSE l.labels END, v.value
		FROM labelled l, LATERAL (VALUES
			(1, l.scan_pct::text), (2, l.scan_pct_lo::text), (3, l.scan_pct_hi::text),
			(4, round(l.median_pct::numeric, 1)::text),
			(5, round((l.read_mb_s * 1e6)::numeric)::text),
			(6, round((l.scan_mb_s * 1e6)::numeric)::text),
			(7, CASE WHEN l.scan_pct IS NULL THEN NULL
				WHEN scan_history_marks(l.verdict) IS NULL THEN '0' ELSE '1' END),
			(8, '1'),
			(9, extract(epoch FROM l.measured_at)::text),
			(10, l.recorded::text)) AS v(ord, value)
		WHERE v.value IS NOT NULL
	)
	SELECT string_agg(line, E'\n' ORDER BY ord, sub, line)
	FROM (
		SELECT f.ord, 0 AS sub,
			   format(E'# HELP %s %s\n# TYPE %s gauge', f.name, f.help, f.name) AS line
		FROM families f
		UNION ALL
		SELECT s.ord, 1, format('%s{%s} %s', f.name, s.labels, s.value)
		FROM samples s JOIN families f USING (ord)
	) AS lines;
END;

COMMENT ON FUNCTION scanbench_metrics() IS
'the latest run of each relation and cache mode in the Prometheus text exposition format (gauges; rates in bytes/s, efficiency in %)';

-- The runs a chart shows, with the time as epoch seconds and a series
-- number per relation and cache mode.
CREATE FUNCTION scan_history_svg_runs(want_schema text, want_name text,
									  want_cache text, days integer)
RETURNS TABLE (id bigint, measured_at timestamptz, t float8, series bigint,
			   relschema text, relname text, cache text,
			   scan_pct float8, scan_pct_lo float8, scan_pct_hi float8,
			   read_mb_s float8, scan_mb_s float8, verdict text,
			   filesystem text, device text, scheduler text,
			   read_ahead_kb integer, kernel text, server_version text)
LANGUAGE sql STABLE
BEGIN ATOMIC
	SELECT h.id, h.measured_at, extract(epoch FROM h.measured_at)::float8,
		   dense_rank() OVER (ORDER BY h.relschema, h.relname, h.cache),
		   h.relschema, h.relname, h.cache, h.scan_pct, h.scan_pct_lo,
		   h.scan_pct_hi, h.read_mb_s, h.scan_mb_s, h.verdict, h.filesystem,
		   h.device, h.scheduler, h.read_ahead_kb, h.kernel, h.server_version
	FROM scan_history h
	WHERE (want_name IS NULL OR (h.relschema = want_schema AND h.relname = want_name))
	  AND (want_cache IS NULL OR h.cache = want_cache)
	  AND h.measured_at > now() - make_interval(days => days);
END;

COMMENT ON FUNCTION scan_history_svg_runs(text, text, text, integer) IS
'the runs scan_history_svg draws: epoch seconds (t) and a series number per relation and cache mode';

--
-- The history as a picture a DBA pastes into a ticket: scan efficiency
-- over time per relation, its 95 % interval as a band, the alarm limits as
-- dashed lines, read and scan MB/s on a second panel, and a dotted line
-- wherever the storage facts, kernel or server version changed between
-- two runs.  One circle of class "run" per recorded run (hollow when the
-- run could not be judged).
--
CREATE FUNCTION scan_history_svg(rel regclass DEFAULT NULL,
								 cache text DEFAULT 'cold',
								 days integer DEFAULT 90,
								 min_pct float8 DEFAULT NULL,
								 max_drop_pct float8 DEFAULT 20)
RETURNS text
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	-- Plot areas: panel 1 (scan %) above panel 2 (MB/s), legend at right.
	w constant integer := 980;
	h constant integer := 640;
	xl constant integer := 72;
	xr constant integer := 740;
	t1 constant integer := 56;
	b1 constant integer := 320;
	t2 constant integer := 380;
	b2 constant integer := 590;
	colors constant text[] := ARRAY['#1f77b4', '#d62728', '#2ca02c', '#9467bd',
									'#ff7f0e', '#8c564b', '#e377c2', '#17becf'];
	want_schema text;
	want_name text;
	tmin float8;
	tmax float8;
	ymax1 float8;
	ymax2 float8;
	step1 float8;
	step2 float8;
	nruns integer;
	out text[] := '{}';
	r record;
	s record;
	i integer;
	v float8;
	tx float8;
	color text;
	title text;
	pts text;
BEGIN
	PERFORM set_config('search_path', 'pg_catalog, ' || quote_ident(n.nspname) || ', pg_temp', true)
	FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
	WHERE e.extname = 'scanbench';
	IF days IS NULL OR days < 1 THEN
		RAISE EXCEPTION 'days must be at least 1, not %', coalesce(days::text, 'NULL')
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	PERFORM scan_history_check_limits(min_pct, coalesce(max_drop_pct, 20), NULL, NULL, days);
	IF rel IS NOT NULL THEN
		SELECT n.nspname, c.relname INTO want_schema, want_name
		FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
		WHERE c.oid = rel;
	END IF;

	SELECT count(*), min(x.t), max(x.t),
		   max(greatest(x.scan_pct, x.scan_pct_hi, min_pct)),
		   max(greatest(x.read_mb_s, x.scan_mb_s))
	INTO nruns, tmin, tmax, ymax1, ymax2
	FROM scan_history_svg_runs(want_schema, want_name, scan_history_svg.cache, days) x;

	title := 'Scan efficiency'
		|| CASE WHEN want_name IS NOT NULL THEN ' of ' || quote_ident(want_schema) || '.' || quote_ident(want_name) ELSE '' END
		|| CASE WHEN scan_history_svg.cache IS NOT NULL THEN ', ' || scan_history_svg.cache ELSE '' END
		|| CASE WHEN nruns > 0 THEN format(', %s run%s from %s to %s', nruns,
					CASE WHEN nruns > 1 THEN 's' ELSE '' END,
					to_char(to_timestamp(tmin), 'YYYY-MM-DD'), to_char(to_timestamp(tmax), 'YYYY-MM-DD'))
			ELSE '' END;
	out := out || format('<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-size="12">',
						 w, h, w, h)
			   || format('<title>%s</title>', replace(replace(replace(title, '&', '&amp;'), '<', '&lt;'), '>', '&gt;'))
			   || format('<rect width="%s" height="%s" fill="white"/>', w, h)
			   || format('<text x="%s" y="28" font-size="17" font-weight="bold">%s</text>',
						 xl, replace(replace(replace(title, '&', '&amp;'), '<', '&lt;'), '>', '&gt;'));
	IF nruns = 0 THEN
		out := out || format('<text x="%s" y="%s" font-size="15" fill="#555">No recorded runs in the last %s days.</text>', xl, (t1 + b1) / 2, days)
				   || '</svg>'::text;
		RETURN array_to_string(out, E'\n');
	END IF;
	IF tmax - tmin < 3600 THEN
		tmin := tmin - 1800;
		tmax := tmax + 1800;
	ELSE
		-- a margin so that the first and last points clear the axes
		tx := (tmax - tmin) * 0.03;
		tmin := tmin - tx;
		tmax := tmax + tx;
	END IF;

	-- Axes on round steps of 1, 2 or 5 times a power of ten.
	ymax1 := greatest(coalesce(ymax1, 100), 1) * 1.05;
	step1 := power(10, floor(log(ymax1 / 5)));
	step1 := step1 * CASE WHEN ymax1 / 5 <= step1 THEN 1 WHEN ymax1 / 5 <= 2 * step1 THEN 2
						  WHEN ymax1 / 5 <= 5 * step1 THEN 5 ELSE 10 END;
	ymax1 := ceil(ymax1 / step1) * step1;
	ymax2 := greatest(coalesce(ymax2, 1), 1) * 1.05;
	step2 := power(10, floor(log(ymax2 / 5)));
	step2 := step2 * CASE WHEN ymax2 / 5 <= step2 THEN 1 WHEN ymax2 / 5 <= 2 * step2 THEN 2
						  WHEN ymax2 / 5 <= 5 * step2 THEN 5 ELSE 10 END;
	ymax2 := ceil(ymax2 / step2) * step2;

	-- Frames, grid and axis labels.
	out := out || format('<g class="grid" stroke="#ddd" stroke-width="1">');
	v := 0;
	WHILE v <= ymax1 + step1 / 2 LOOP
		out := out || format('<line x1="%s" y1="%s" x2="%s" y2="%s"/>', xl, round((b1 - v / ymax1 * (b1 - t1))::numeric, 1), xr, round((b1 - v / ymax1 * (b1 - t1))::numeric, 1));
		v := v + step1;
	END LOOP;
	v := 0;
	WHILE v <= ymax2 + step2 / 2 LOOP
		out := out || format('<line x1="%s" y1="%s" x2="%s" y2="%s"/>', xl, round((b2 - v / ymax2 * (b2 - t2))::numeric, 1), xr, round((b2 - v / ymax2 * (b2 - t2))::numeric, 1));
		v := v + step2;
	END LOOP;
	FOR i IN 0 .. 5 LOOP
		tx := xl + i * (xr - xl) / 5.0;
		out := out || format('<line x1="%s" y1="%s" x2="%s" y2="%s"/>', round(tx::numeric, 1), t1, round(tx::numeric, 1), b1)
				   || format('<line x1="%s" y1="%s" x2="%s" y2="%s"/>', round(tx::numeric, 1), t2, round(tx::numeric, 1), b2);
	END LOOP;
	out := out || '</g>'::text
			   || format('<g fill="none" stroke="#333"><rect x="%s" y="%s" width="%s" height="%s"/><rect x="%s" y="%s" width="%s" height="%s"/></g>',
						 xl, t1, xr - xl, b1 - t1, xl, t2, xr - xl, b2 - t2);
	out := out || '<g class="axis" fill="#333" text-anchor="end">'::text;
	v := 0;
	WHILE v <= ymax1 + step1 / 2 LOOP
		out := out || format('<text x="%s" y="%s">%s</text>', xl - 6, round((b1 - v / ymax1 * (b1 - t1) + 4)::numeric, 1), v);
		v := v + step1;
	END LOOP;
	v := 0;
	WHILE v <= ymax2 + step2 / 2 LOOP
		out := out || format('<text x="%s" y="%s">%s</text>', xl - 6, round((b2 - v / ymax2 * (b2 - t2) + 4)::numeric, 1), v);
		v := v + step2;
	END LOOP;
	out := out || '</g>'::text
			   || format('<text transform="translate(18 %s) rotate(-90)" text-anchor="middle" fill="#333">scan %% of raw read</text>', (t1 + b1) / 2)
			   || format('<text transform="translate(18 %s) rotate(-90)" text-anchor="middle" fill="#333">MB/s</text>', (t2 + b2) / 2)
			   || format('<text x="%s" y="%s" fill="#333">Scan efficiency, %%, with its 95 %% interval</text>', xl + 4, t1 - 6)
			   || format('<text x="%s" y="%s" fill="#333">Raw read (solid) and executor scan (dashed), MB/s</text>', xl + 4, t2 - 6);
	out := out || '<g class="axis" fill="#333" text-anchor="middle">'::text;
	FOR i IN 0 .. 5 LOOP
		tx := tmin + i * (tmax - tmin) / 5.0;
		out := out || format('<text x="%s" y="%s">%s</text>', round((xl + i * (xr - xl) / 5.0)::numeric, 1), b2 + 18,
							 to_char(to_timestamp(tx), CASE WHEN tmax - tmin > 3 * 86400 THEN 'YYYY-MM-DD' ELSE 'MM-DD HH24:MI' END));
	END LOOP;
	out := out || '</g>'::text;

	-- A fixed limit, across the panel.
	IF min_pct IS NOT NULL THEN
		out := out || format('<g class="limit" paint-order="stroke"><line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#c00" stroke-width="1.5" stroke-dasharray="8 4"/><text x="%s" y="%s" fill="#c00" stroke="white" stroke-width="3" text-anchor="end">alarm below %s %%</text></g>',
							 xl, round((b1 - min_pct / ymax1 * (b1 - t1))::numeric, 1), xr, round((b1 - min_pct / ymax1 * (b1 - t1))::numeric, 1),
							 xr - 4, round((b1 - min_pct / ymax1 * (b1 - t1) - 4)::numeric, 1), min_pct);
	END IF;

	-- Series: band, limit, line and points, then the rates below.
	FOR s IN
		SELECT x.series, min(x.relschema) AS relschema, min(x.relname) AS relname, min(x.cache) AS cache,
			   percentile_cont(0.5) WITHIN GROUP (ORDER BY x.scan_pct)
				 FILTER (WHERE scan_history_marks(x.verdict) IS NOT NULL) AS median
		FROM scan_history_svg_runs(want_schema, want_name, scan_history_svg.cache, days) x GROUP BY x.series ORDER BY x.series
	LOOP
		color := colors[1 + (s.series - 1) % cardinality(colors)];
		out := out || format('<g class="series" data-relation="%s">',
							 replace(replace(replace(replace(quote_ident(s.relschema) || '.' || quote_ident(s.relname), '&', '&amp;'), '<', '&lt;'), '>', '&gt;'), '"', '&quot;'));

		SELECT string_agg(p, ' ' ORDER BY k) INTO pts FROM (
			SELECT 1 AS k, x.t AS o, format('%s,%s', round((xl + (x.t - tmin) / (tmax - tmin) * (xr - xl))::numeric, 1),
							  round((b1 - x.scan_pct_hi / ymax1 * (b1 - t1))::numeric, 1)) AS p
			FROM scan_history_svg_runs(want_schema, want_name, scan_history_svg.cache, days) x WHERE x.series = s.series AND x.scan_pct_hi IS NOT NULL AND x.scan_pct_lo IS NOT NULL
			UNION ALL
			SELECT 2, -x.t, format('%s,%s', round((xl + (x.t - tmin) / (tmax - tmin) * (xr - xl))::numeric, 1),
							  round((b1 - x.scan_pct_lo / ymax1 * (b1 - t1))::numeric, 1))
			FROM scan_history_svg_runs(want_schema, want_name, scan_history_svg.cache, days) x WHERE x.series = s.series AND x.scan_pct_hi IS NOT NULL AND x.scan_pct_lo IS NOT NULL
			ORDER BY 1, 2) AS band(k, o, p);
		IF pts IS NOT NULL THEN
			out := out || format('<polygon class="band" points="%s" fill="%s" fill-opacity="0.18" stroke="%s" stroke-opacity="0.35"/>', pts, color, color);
		END IF;

		IF s.median IS NOT NULL THEN
			v := s.median * (1 - coalesce(max_drop_pct, 20) / 100);
			out := out || format('<g class="limit" paint-order="stroke"><line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="1.2" stroke-dasharray="8 4"/><text x="%s" y="%s" fill="%s" stroke="white" stroke-width="3" text-anchor="end">alarm: %s %% below median %s %%</text></g>',
								 xl, round((b1 - v / ymax1 * (b1 - t1))::numeric, 1), xr, round((b1 - v / ymax1 * (b1 - t1))::numeric, 1), color,
								 xr - 4, round((b1 - v / ymax1 * (b1 - t1) + 14)::numeric, 1), color,
								 coalesce(max_drop_pct, 20), round(s.median::numeric, 1));
		END IF;

		SELECT string_agg(format('%s,%s', round((xl + (x.t - tmin) / (tmax - tmin) * (xr - xl))::numeric, 1),
								 round((b1 - x.scan_pct / ymax1 * (b1 - t1))::numeric, 1)), ' ' ORDER BY x.t, x.id)
		INTO pts FROM scan_history_svg_runs(want_schema, want_name, scan_history_svg.cache, days) x WHERE x.series = s.series AND x.scan_pct IS NOT NULL;
		IF pts IS NOT NULL THEN
			out := out || format('<polyline points="%s" fill="none" stroke="%s" stroke-width="1.8"/>', pts, color);
		END IF;
		FOR r IN SELECT x.* FROM scan_history_svg_runs(want_schema, want_name, scan_history_svg.cache, days) x WHERE x.series = s.series ORDER BY x.t, x.id LOOP
			tx := xl + (r.t - tmin) / (tmax - tmin) * (xr - xl);
			out := out || format('<circle class="run" cx="%s" cy="%s" r="3.5" fill="%s" stroke="%s" stroke-width="1.5"><title>%s</title></circle>',
								 round(tx::numeric, 1), round((b1 - coalesce(r.scan_pct, 0) / ymax1 * (b1 - t1))::numeric, 1),
								 CASE WHEN r.scan_pct IS NOT NULL AND scan_history_marks(r.verdict) IS NOT NULL THEN color ELSE 'white' END,
								 color,
								 replace(replace(replace(format('run %s, %s: %s %% (%s–%s), %s, read %s MB/s, scan %s MB/s',
									r.id, to_char(r.measured_at, 'YYYY-MM-DD HH24:MI'),
									coalesce(round(r.scan_pct::numeric, 1)::text, 'not measured'),
									coalesce(round(r.scan_pct_lo::numeric, 1)::text, '?'),
									coalesce(round(r.scan_pct_hi::numeric, 1)::text, '?'),
									coalesce(r.verdict, 'no verdict'),
									coalesce(round(r.read_mb_s::numeric, 1)::text, '?'),
									coalesce(round(r.scan_mb_s::numeric, 1)::text, '?')), '&', '&amp;'), '<', '&lt;'), '>', '&gt;'));
		END LOOP;

		SELECT string_agg(format('%s,%s', round((xl + (x.t - tmin) / (tmax - tmin) * (xr - xl))::numeric, 1),
								 round((b2 - x.read_mb_s / ymax2 * (b2 - t2))::numeric, 1)), ' ' ORDER BY x.t, x.id)
		INTO pts FROM scan_history_svg_runs(want_schema, want_name, scan_history_svg.cache, days) x WHERE x.series = s.series AND x.read_mb_s IS NOT NULL;
		IF pts IS NOT NULL THEN
			out := out || format('<polyline class="read" points="%s" fill="none" stroke="%s" stroke-width="1.8"/>', pts, color);
		END IF;
		SELECT string_agg(format('%s,%s', round((xl + (x.t - tmin) / (tmax - tmin) * (xr - xl))::numeric, 1),
								 round((b2 - x.scan_mb_s / ymax2 * (b2 - t2))::numeric, 1)), ' ' ORDER BY x.t, x.id)
		INTO pts FROM scan_history_svg_runs(want_schema, want_name, scan_history_svg.cache, days) x WHERE x.series = s.series AND x.scan_mb_s IS NOT NULL;
		IF pts IS NOT NULL THEN
			out := out || format('<polyline class="scan" points="%s" fill="none" stroke="%s" stroke-width="1.8" stroke-dasharray="6 4"/>', pts, color);
		END IF;
		SELECT string_agg(format('<circle class="rate" cx="%1$s" cy="%2$s" r="2.5" fill="%4$s"/><circle class="rate" cx="%1$s" cy="%3$s" r="2.5" fill="white" stroke="%4$s"/>',
								 round((xl + (x.t - tmin) / (tmax - tmin) * (xr - xl))::numeric, 1),
								 round((b2 - x.read_mb_s / ymax2 * (b2 - t2))::numeric, 1),
								 round((b2 - x.scan_mb_s / ymax2 * (b2 - t2))::numeric, 1), color), '' ORDER BY x.t, x.id)
		INTO pts FROM scan_history_svg_runs(want_schema, want_name, scan_history_svg.cache, days) x
		WHERE x.series = s.series AND x.read_mb_s IS NOT NULL AND x.scan_mb_s IS NOT NULL;
		out := out || coalesce(pts, '') || '</g>'::text;

		-- Legend entry.
		out := out || format('<g class="legend"><rect x="%s" y="%s" width="14" height="14" fill="%s"/><text x="%s" y="%s">%s</text></g>',
							 xr + 16, t1 + (s.series - 1) * 22, color, xr + 36, t1 + (s.series - 1) * 22 + 12,
							 replace(replace(replace(quote_ident(s.relschema) || '.' || quote_ident(s.relname) || ' (' || s.cache || ')',
									 '&', '&amp;'), '<', '&lt;'), '>', '&gt;'));
	END LOOP;

	-- Changes of storage facts, kernel or server version between two
	-- consecutive runs of a series, drawn over the series to stay legible.
	out := out || '<g class="changes" font-size="11" fill="#444" stroke="white" stroke-width="3" paint-order="stroke">'::text;
	FOR r IN
		SELECT x.t, string_agg(c.what, ', ') AS what
		FROM (SELECT y.*, lag(y.filesystem) OVER p AS p_fs, lag(y.device) OVER p AS p_dev,
					 lag(y.scheduler) OVER p AS p_sched, lag(y.read_ahead_kb) OVER p AS p_ra,
					 lag(y.kernel) OVER p AS p_kernel, lag(y.server_version) OVER p AS p_ver
			  FROM scan_history_svg_runs(want_schema, want_name, scan_history_svg.cache, days) y
			  WINDOW p AS (PARTITION BY y.series ORDER BY y.measured_at, y.id)) AS x,
			 LATERAL (VALUES
				(1, 'filesystem', x.p_fs, x.filesystem), (2, 'device', x.p_dev, x.device),
				(3, 'scheduler', x.p_sched, x.scheduler), (4, 'read-ahead', x.p_ra::text, x.read_ahead_kb::text),
				(5, 'kernel', x.p_kernel, x.kernel), (6, 'server', split_part(x.p_ver, ' ', 1), split_part(x.server_version, ' ', 1))
			 ) AS f(ord, fact, before, after),
			 LATERAL (SELECT format('%s %s → %s', f.fact, f.before, f.after) AS what) AS c
		WHERE f.before IS NOT NULL AND f.after IS NOT NULL AND f.before <> f.after
		GROUP BY x.t, x.series, x.id
		ORDER BY x.t
	LOOP
		tx := xl + (r.t - tmin) / (tmax - tmin) * (xr - xl);
		out := out || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#777" stroke-width="1" stroke-dasharray="2 3"/>',
							 round(tx::numeric, 1), t1, round(tx::numeric, 1), b2)
				   || format('<text transform="translate(%s %s) rotate(90)">%s</text>',
							 round((tx + 4)::numeric, 1), t1 + 6,
							 replace(replace(replace(r.what, '&', '&amp;'), '<', '&lt;'), '>', '&gt;'));
	END LOOP;
	out := out || '</g>'::text;

	out := out || format('<g class="key" fill="#333" font-size="11" transform="translate(%s %s)">', xr + 16, t2)
			   || '<circle cx="7" cy="0" r="3.5" fill="#333"/><text x="20" y="4">a run</text>'::text
			   || '<circle cx="7" cy="18" r="3.5" fill="white" stroke="#333" stroke-width="1.5"/><text x="20" y="22">a run not judged</text>'::text
			   || '<rect x="0" y="30" width="14" height="10" fill="#333" fill-opacity="0.18"/><text x="20" y="40">95 % interval</text>'::text
			   || '<line x1="0" y1="54" x2="14" y2="54" stroke="#333" stroke-dasharray="8 4"/><text x="20" y="58">alarm limit</text>'::text
			   || '<line x1="0" y1="72" x2="14" y2="72" stroke="#333" stroke-width="1.8"/><text x="20" y="76">raw read MB/s</text>'::text
			   || '<line x1="0" y1="90" x2="14" y2="90" stroke="#333" stroke-width="1.8" stroke-dasharray="6 4"/><text x="20" y="94">scan MB/s</text>'::text
			   || '<line x1="7" y1="102" x2="7" y2="116" stroke="#777" stroke-dasharray="2 3"/><text x="20" y="112">storage, kernel or</text><text x="20" y="126">server changed</text>'::text
			   || '</g></svg>'::text;
	RETURN array_to_string(out, E'\n');
END
$$;

COMMENT ON FUNCTION scan_history_svg(regclass, text, integer, float8, float8) IS
'SVG chart of the recorded runs of the last days (all relations when rel is NULL, all cache modes when cache is NULL): scan % with its interval and alarm limits, read and scan MB/s, changes of storage, kernel or server version';

--
-- Who may do what: the history and its summaries are for monitoring
-- (pg_monitor may read them); recording and checking measure, and stay
-- with the superuser unless granted.
--
REVOKE ALL ON TABLE scan_history FROM PUBLIC;
REVOKE ALL ON SEQUENCE scan_history_id_seq FROM PUBLIC;
REVOKE ALL ON FUNCTION scan_history_record(scan_efficiency_result) FROM PUBLIC;
REVOKE ALL ON FUNCTION scan_history_measure(regclass, text, integer, float8, float8, float8, text) FROM PUBLIC;
REVOKE ALL ON PROCEDURE efficiency_check(regclass, text, float8, float8, float8, float8, integer, float8, float8, float8, text, integer) FROM PUBLIC;
REVOKE ALL ON FUNCTION scan_history_prune(interval) FROM PUBLIC;
REVOKE ALL ON FUNCTION scan_history_judge(bigint, float8, float8, float8, float8, integer) FROM PUBLIC;
REVOKE ALL ON FUNCTION scanbench_metrics() FROM PUBLIC;
REVOKE ALL ON FUNCTION scan_history_svg(regclass, text, integer, float8, float8) FROM PUBLIC;
REVOKE ALL ON FUNCTION scan_history_svg_runs(text, text, text, integer) FROM PUBLIC;
GRANT SELECT ON TABLE scan_history TO pg_monitor;
GRANT SELECT ON scan_trend TO pg_monitor;
GRANT EXECUTE ON FUNCTION scan_history_judge(bigint, float8, float8, float8, float8, integer) TO pg_monitor;
GRANT EXECUTE ON FUNCTION scanbench_metrics() TO pg_monitor;
GRANT EXECUTE ON FUNCTION scan_history_svg(regclass, text, integer, float8, float8) TO pg_monitor;
GRANT EXECUTE ON FUNCTION scan_history_svg_runs(text, text, text, integer) TO pg_monitor;

--
-- Citus: on a coordinator, scan_efficiency() of a Citus table measures its
-- shard placements where they live (src/citus.c); the functions below give
-- a row per placement and per node, and do one step of the measurement on
-- a node.  They need Citus only when called on a Citus table.
--

CREATE TYPE scan_efficiency_shard_result AS (
	relation			regclass,
	level				text,
	node				text,
	shardid				bigint,
	shard				text,
	bytes				bigint,
	rows				bigint,
	read_mb_s			float8,
	scan_mb_s			float8,
	scan_pct			float8,
	scan_pct_lo			float8,
	scan_pct_hi			float8,
	read_s				float8,
	scan_s				float8,
	read_cached_pct		float8,
	scan_cached_pct		float8,
	pairs				integer,
	verdict				text,
	slowest_shard		text,
	measured_at			timestamptz
);

COMMENT ON TYPE scan_efficiency_shard_result IS
'scan_efficiency_shards() row: one per shard placement (level shard) and one per node (level node)';
COMMENT ON COLUMN scan_efficiency_shard_result.relation IS 'the Citus table measured';
COMMENT ON COLUMN scan_efficiency_shard_result.level IS '''shard'': one placement; ''node'': the sums of a node''s placements';
COMMENT ON COLUMN scan_efficiency_shard_result.node IS 'host:port of the node holding the placement, from pg_dist_node';
COMMENT ON COLUMN scan_efficiency_shard_result.shardid IS 'the shard''s id in pg_dist_shard; NULL on node rows';
COMMENT ON COLUMN scan_efficiency_shard_result.shard IS 'the placement''s table on its node; NULL on node rows';
COMMENT ON COLUMN scan_efficiency_shard_result.bytes IS 'bytes of the main fork read, in bytes';
COMMENT ON COLUMN scan_efficiency_shard_result.rows IS 'rows counted by count(1) on the node, in rows';
COMMENT ON COLUMN scan_efficiency_shard_result.read_mb_s IS 'raw read rate on the node, median over pairs, in MB/s (10^6 bytes); node rows: its placements one after another';
COMMENT ON COLUMN scan_efficiency_shard_result.scan_mb_s IS 'count(1) scan rate on the node, median over pairs, in MB/s (10^6 bytes)';
COMMENT ON COLUMN scan_efficiency_shard_result.scan_pct IS '100 * scan rate / raw read rate, median of the pairs'' ratios, in percent';
COMMENT ON COLUMN scan_efficiency_shard_result.scan_pct_lo IS 'lower bound of the 95 % confidence interval of scan_pct (order statistics; needs 6 pairs), in percent';
COMMENT ON COLUMN scan_efficiency_shard_result.scan_pct_hi IS 'upper bound of the 95 % confidence interval of scan_pct, in percent';
COMMENT ON COLUMN scan_efficiency_shard_result.read_s IS 'raw read time, median over pairs, in seconds';
COMMENT ON COLUMN scan_efficiency_shard_result.scan_s IS 'count(1) time, median over pairs, in seconds';
COMMENT ON COLUMN scan_efficiency_shard_result.read_cached_pct IS 'highest share of the bytes in the page cache before a timed read, in percent';
COMMENT ON COLUMN scan_efficiency_shard_result.scan_cached_pct IS 'highest share of the blocks in either cache before a timed scan, in percent';
COMMENT ON COLUMN scan_efficiency_shard_result.pairs IS 'number of read/scan pairs measured';
COMMENT ON COLUMN scan_efficiency_shard_result.verdict IS '''ok'' or a comma-separated list of: cached, storage_not_limiting';
COMMENT ON COLUMN scan_efficiency_shard_result.slowest_shard IS 'node rows: the placement with the lowest scan_mb_s; NULL on shard rows';
COMMENT ON COLUMN scan_efficiency_shard_result.measured_at IS 'when the measurement ended';

CREATE FUNCTION scan_efficiency_shards(rel regclass,
									   cache text DEFAULT 'cold',
									   block_size integer DEFAULT 8192,
									   runs integer DEFAULT 1)
RETURNS SETOF scan_efficiency_shard_result
AS 'MODULE_PATHNAME', 'scan_efficiency_shards'
LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION scan_efficiency_shards(regclass, text, integer, integer) IS
'Citus table: raw read and count(1) of each shard placement on its node, nodes at the same time, a node''s placements one after another; a row per placement and per node';

CREATE FUNCTION scan_efficiency_node(step text, cache text, block_size integer,
									 shardids bigint[], shards text[])
RETURNS jsonb
AS 'MODULE_PATHNAME', 'scan_efficiency_node'
LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION scan_efficiency_node(text, text, integer, bigint[], text[]) IS
'run by scan_efficiency and scan_efficiency_shards on each Citus node: one step (read, scan or prepare) over the named local placements, as jsonb (bytes, rows, seconds, cached_pct in percent, node_s in seconds)';

REVOKE ALL ON FUNCTION scan_efficiency_shards(regclass, text, integer, integer) FROM PUBLIC;
REVOKE ALL ON FUNCTION scan_efficiency_node(text, text, integer, bigint[], text[]) FROM PUBLIC;

--
-- ==== Comments on the 0.1 result types and columns, with their units ====
--
-- psql shows them with \dT+ and \d+ <type>.  Rates are MB/s with
-- MB = 10^6 bytes, as lmdd prints; percentages are 0 to 100.
--

COMMENT ON FUNCTION raw_read(regclass, integer, text) IS
'sequential read of the relation''s segment files, one read() of block_size bytes after another as dd/lmdd do; cache: cold (evicted from the page cache first), warm (one untimed pass first), direct (O_DIRECT) or asis';
COMMENT ON FUNCTION raw_read_segments(regclass, integer, text) IS
'raw_read, one row per segment file, each timed on its own';
COMMENT ON FUNCTION scan_rate(regclass, text, text, integer) IS
'time SELECT <query> FROM rel through the executor as a sequential scan, read-only, ExecutorStart to ExecutorEnd; cache: cold, warm or asis; parallel_workers: 0 for none';

COMMENT ON TYPE raw_read_result IS
'one timed sequential read of all of a relation''s segment files (raw_read)';
COMMENT ON COLUMN raw_read_result.relation IS 'the relation read';
COMMENT ON COLUMN raw_read_result.segments IS 'segment files read (1 GB each at most, main fork), over all partitions or inheritance children';
COMMENT ON COLUMN raw_read_result.bytes IS 'bytes read: the relation''s size when the call began';
COMMENT ON COLUMN raw_read_result.reads IS 'read() calls made';
COMMENT ON COLUMN raw_read_result.block_size IS 'bytes asked for by each read()';
COMMENT ON COLUMN raw_read_result.cache IS 'cache state asked for: cold, warm, direct or asis';
COMMENT ON COLUMN raw_read_result.cached_pct_before IS 'percent of the blocks in the page cache just before the timed read (mincore)';
COMMENT ON COLUMN raw_read_result.seconds IS 'wall-clock seconds of the timed read';
COMMENT ON COLUMN raw_read_result.mb_s IS 'bytes / seconds, in MB/s (10^6 bytes)';
COMMENT ON COLUMN raw_read_result.user_s IS 'user CPU seconds of this backend during the read';
COMMENT ON COLUMN raw_read_result.sys_s IS 'system CPU seconds of this backend during the read';

COMMENT ON TYPE raw_read_segment_result IS
'the timed read of one segment file (raw_read_segments)';
COMMENT ON COLUMN raw_read_segment_result.relation IS 'the relation the file belongs to: the one named, or one of its partitions or inheritance children';
COMMENT ON COLUMN raw_read_segment_result.segno IS 'segment number: 0 for the first file, n for the file with suffix .n';
COMMENT ON COLUMN raw_read_segment_result.path IS 'the file, relative to the data directory';
COMMENT ON COLUMN raw_read_segment_result.bytes IS 'bytes read from this file';
COMMENT ON COLUMN raw_read_segment_result.reads IS 'read() calls made on this file';
COMMENT ON COLUMN raw_read_segment_result.block_size IS 'bytes asked for by each read()';
COMMENT ON COLUMN raw_read_segment_result.cache IS 'cache state asked for: cold, warm, direct or asis';
COMMENT ON COLUMN raw_read_segment_result.cached_pct_before IS 'percent of this file''s blocks in the page cache just before the timed read (mincore)';
COMMENT ON COLUMN raw_read_segment_result.seconds IS 'wall-clock seconds of the read of this file';
COMMENT ON COLUMN raw_read_segment_result.mb_s IS 'bytes / seconds, in MB/s (10^6 bytes)';
COMMENT ON COLUMN raw_read_segment_result.user_s IS 'user CPU seconds of this backend during the read of this file';
COMMENT ON COLUMN raw_read_segment_result.sys_s IS 'system CPU seconds of this backend during the read of this file';

COMMENT ON TYPE scan_rate_result IS
'one timed executor scan of SELECT <query> FROM rel (scan_rate)';
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
COMMENT ON COLUMN scan_rate_result.seconds IS 'wall-clock seconds of the scan, ExecutorStart to ExecutorEnd (parse and plan excluded)';
COMMENT ON COLUMN scan_rate_result.mb_s IS 'bytes / seconds, in MB/s (10^6 bytes)';
COMMENT ON COLUMN scan_rate_result.rows_s IS 'rows / seconds';
COMMENT ON COLUMN scan_rate_result.shared_hit IS 'blocks found in shared_buffers (or local buffers) by the scan';
COMMENT ON COLUMN scan_rate_result.shared_read IS 'blocks read into shared_buffers (or local buffers) by the scan';
COMMENT ON COLUMN scan_rate_result.io_read_s IS 'seconds spent waiting for those reads, from track_io_timing (0 when it is off)';
COMMENT ON COLUMN scan_rate_result.user_s IS 'user CPU seconds of this backend during the scan (parallel workers not included)';
COMMENT ON COLUMN scan_rate_result.sys_s IS 'system CPU seconds of this backend during the scan (parallel workers not included)';

COMMENT ON TYPE scan_efficiency_result IS
'the executor''s count(1) scan rate as a percentage of the raw read rate of the same blocks (scan_efficiency); one row, ready for a history table';
COMMENT ON COLUMN scan_efficiency_result.relation IS 'the relation measured';
COMMENT ON COLUMN scan_efficiency_result.cache IS 'cache state asked for: cold, warm or asis';
COMMENT ON COLUMN scan_efficiency_result.block_size IS 'bytes asked for by each read() of the raw reads';
COMMENT ON COLUMN scan_efficiency_result.filesystem IS 'type of the filesystem holding the relation''s first file (ext4, xfs, ...), from /proc/self/mountinfo';
COMMENT ON COLUMN scan_efficiency_result.device IS 'source of that mount (/dev/sda1, ...), from /proc/self/mountinfo';
COMMENT ON COLUMN scan_efficiency_result.measured_at IS 'when the measurement ended';

-- Columns of 0.2's result types that had no comment yet.
COMMENT ON COLUMN scan_breakdown_result.relation IS 'the relation scanned';
COMMENT ON COLUMN scan_breakdown_result.query IS 'the select list that ran: SELECT <query> FROM relation';
COMMENT ON COLUMN scan_shape_result.relation IS 'the relation scanned';
COMMENT ON COLUMN scan_sweep_result.relation IS 'the relation scanned';
COMMENT ON COLUMN random_read_result.relation IS 'the relation whose files were read';
