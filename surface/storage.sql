--
-- ==== Storage: what lies under the data and what it delivers ====
--
-- storage_info: the filesystem and block devices under a relation's first
-- file (or a tablespace's directory), a row per layer, with the server's
-- control group limits; storage_profile: how the storage writes,
-- rewrites, reads and seeks, in scratch files of the tablespace.
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
	filesystem			text,
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
	settings			jsonb,
	cpu_quota_us		bigint,
	cpu_period_us		bigint,
	read_bps_limit		bigint,
	write_bps_limit		bigint,
	read_iops_limit		bigint,
	write_iops_limit	bigint
);

COMMENT ON TYPE storage_info_result IS 'one layer under a relation or tablespace: the filesystem (level 0), then each block device below it';
COMMENT ON COLUMN storage_info_result.tablespace IS 'tablespace holding data_path';
COMMENT ON COLUMN storage_info_result.data_path IS 'the file or directory looked up, relative to the data directory';
COMMENT ON COLUMN storage_info_result.level IS '0 for the filesystem, then one more per layer down';
COMMENT ON COLUMN storage_info_result.kind IS 'filesystem, partition, lvm, dm, crypt, multipath, md, loop or disk';
COMMENT ON COLUMN storage_info_result.name IS 'mount source for a filesystem (/dev/sda1, tmpfs), kernel name for a device (sda1, dm-0, loop0)';
COMMENT ON COLUMN storage_info_result.parent IS 'name of the layer above; NULL at level 0';
COMMENT ON COLUMN storage_info_result.major_minor IS 'device number, major:minor';
COMMENT ON COLUMN storage_info_result.mount_point IS 'filesystems: where it is mounted (absolute path)';
COMMENT ON COLUMN storage_info_result.filesystem IS 'filesystems: type from /proc/self/mountinfo (ext2, ext4, xfs, btrfs, tmpfs, nfs, ...)';
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
-- @comments storage_info_result FROM scan_breakdown_result: cpu_quota_us cpu_period_us
COMMENT ON COLUMN storage_info_result.read_bps_limit IS 'read throttle of the device under data_path for the server''s control group, bytes/s (v1 blkio.throttle.read_bps_device, v2 io.max rbps); NULL when none';
-- @comments storage_info_result FROM scan_breakdown_result: write_bps_limit read_iops_limit write_iops_limit

CREATE TYPE storage_profile_result AS (
	tablespace			text,
	test				text,
	block_size			integer,
	bytes				bigint,
	ops					bigint,
	cached_pct_before	float8,
	elapsed_s			float8,
	mb_s				float8,
	iops				float8,
	latency_p50_us		float8,
	latency_p95_us		float8,
	latency_p99_us		float8,
	user_s				float8,
	sys_s				float8,
	cpu_pct				float8
);

COMMENT ON TYPE storage_profile_result IS 'one storage_profile test: seq_write, rewrite, seq_read, random_read or random_write';
COMMENT ON COLUMN storage_profile_result.tablespace IS 'tablespace whose temporary-file area held the scratch file';
COMMENT ON COLUMN storage_profile_result.test IS 'seq_write (write, fdatasync), rewrite (read, change, write back, fdatasync), seq_read (cold), random_read (cold, queue depth 1), random_write (then fdatasync)';
COMMENT ON COLUMN storage_profile_result.block_size IS 'bytes per read or write';
COMMENT ON COLUMN storage_profile_result.bytes IS 'bytes transferred (rewrite: the file size, as bonnie++ counts it)';
COMMENT ON COLUMN storage_profile_result.ops IS 'reads or writes of block_size (rewrite: read-write pairs)';
COMMENT ON COLUMN storage_profile_result.cached_pct_before IS 'percent of the scratch file in the page cache before the test (mincore); NULL for seq_write';
COMMENT ON COLUMN storage_profile_result.elapsed_s IS 'wall-clock seconds, fdatasync included for the writing tests';
COMMENT ON COLUMN storage_profile_result.mb_s IS 'MB/s, MB = 10^6 bytes';
COMMENT ON COLUMN storage_profile_result.iops IS 'random tests: operations per second';
COMMENT ON COLUMN storage_profile_result.latency_p50_us IS 'random tests: median latency of one operation, microseconds';
COMMENT ON COLUMN storage_profile_result.latency_p95_us IS 'random tests: 95th percentile latency, microseconds';
COMMENT ON COLUMN storage_profile_result.latency_p99_us IS 'random tests: 99th percentile latency, microseconds';
-- @comments storage_profile_result FROM random_read_result: user_s sys_s
COMMENT ON COLUMN storage_profile_result.cpu_pct IS '100 * (user_s + sys_s) / elapsed_s, as bonnie++ and iozone report CPU';

-- @index 90 | `storage_info(rel)`, `storage_info_tablespace(tablespace)` | the layers under the data: filesystem, LVM, md, disks, read-ahead |
CREATE FUNCTION storage_info(rel regclass)
RETURNS SETOF storage_info_result
AS 'MODULE_PATHNAME', 'storage_info_rel'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION storage_info(regclass) IS
'the filesystem and block devices under the relation''s first file, one row per layer';

REVOKE ALL ON FUNCTION storage_info(regclass) FROM PUBLIC;

CREATE FUNCTION storage_info_tablespace(tablespace name)
RETURNS SETOF storage_info_result
AS 'MODULE_PATHNAME', 'storage_info_tablespace'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION storage_info_tablespace(name) IS
'the filesystem and block devices under the tablespace''s directory, one row per layer';

REVOKE ALL ON FUNCTION storage_info_tablespace(name) FROM PUBLIC;

-- @index 100 | `storage_profile(tablespace, size_mb, …)` | sequential write, rewrite, read, random read and write on a scratch file, as bonnie++ |
CREATE FUNCTION storage_profile(tablespace name DEFAULT 'pg_default',
								size_mb integer DEFAULT 1024,
								block_size integer DEFAULT 8192,
								random_ops integer DEFAULT 10000)
RETURNS SETOF storage_profile_result
AS 'MODULE_PATHNAME', 'storage_profile'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION storage_profile(name, integer, integer, integer) IS
'lmdd/bonnie++/iozone/pgiosim-style tests on a scratch file of size_mb MB (10^6 bytes) in the tablespace''s temporary-file area; block_size in bytes; random_ops reads and writes for the random tests';

REVOKE ALL ON FUNCTION storage_profile(name, integer, integer, integer) FROM PUBLIC;

