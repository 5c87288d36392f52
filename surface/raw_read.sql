--
-- ==== Raw reads: the relation's files read straight from storage ====
--
-- raw_read reads the relation's segment files with one read() after
-- another, as dd or lmdd would, with the caches cold, warm, bypassed
-- (direct) or as they are; raw_read_segments gives a row per segment
-- file; random_read reads random aligned blocks of them, one at a time or
-- depth at once, and gives the rate and the latency percentiles.
--
CREATE TYPE raw_read_result AS (
	relation			regclass,
	segments			integer,
	bytes				bigint,
	reads				bigint,
	block_size			integer,
	cache				text,
	cached_pct_before	float8,
	read_s				float8,
	read_mb_s			float8,
	user_s				float8,
	sys_s				float8,
	depth				integer
);

COMMENT ON TYPE raw_read_result IS 'one timed sequential read of all of a relation''s segment files (raw_read)';
COMMENT ON COLUMN raw_read_result.relation IS 'the relation read';
COMMENT ON COLUMN raw_read_result.segments IS 'segment files read (1 GB each at most, main fork), over all partitions or inheritance children';
COMMENT ON COLUMN raw_read_result.bytes IS 'bytes read: the relation''s size when the call began';
COMMENT ON COLUMN raw_read_result.reads IS 'read() calls made';
COMMENT ON COLUMN raw_read_result.block_size IS 'bytes asked for by each read()';
COMMENT ON COLUMN raw_read_result.cache IS 'cache state asked for: cold, warm, direct or asis';
COMMENT ON COLUMN raw_read_result.cached_pct_before IS 'percent of the blocks in the page cache just before the timed read (mincore)';
COMMENT ON COLUMN raw_read_result.read_s IS 'wall-clock seconds of the timed read';
COMMENT ON COLUMN raw_read_result.read_mb_s IS 'bytes / read_s, in MB/s (10^6 bytes)';
COMMENT ON COLUMN raw_read_result.user_s IS 'user CPU seconds of this backend during the read';
COMMENT ON COLUMN raw_read_result.sys_s IS 'system CPU seconds of this backend during the read';
COMMENT ON COLUMN raw_read_result.depth IS 'reads kept in flight at once (fio''s iodepth), each by a thread of its own; 1: one read() after another, as dd does';

CREATE TYPE raw_read_segment_result AS (
	relation			regclass,
	segno				integer,
	path				text,
	bytes				bigint,
	reads				bigint,
	block_size			integer,
	cache				text,
	cached_pct_before	float8,
	read_s				float8,
	read_mb_s			float8,
	user_s				float8,
	sys_s				float8
);

COMMENT ON TYPE raw_read_segment_result IS 'the timed read of one segment file (raw_read_segments)';
COMMENT ON COLUMN raw_read_segment_result.relation IS 'the relation the file belongs to: the one named, or one of its partitions or inheritance children';
COMMENT ON COLUMN raw_read_segment_result.segno IS 'segment number: 0 for the first file, n for the file with suffix .n';
COMMENT ON COLUMN raw_read_segment_result.path IS 'the file, relative to the data directory';
COMMENT ON COLUMN raw_read_segment_result.bytes IS 'bytes read from this file';
COMMENT ON COLUMN raw_read_segment_result.reads IS 'read() calls made on this file';
-- @comments raw_read_segment_result FROM raw_read_result: block_size cache
COMMENT ON COLUMN raw_read_segment_result.cached_pct_before IS 'percent of this file''s blocks in the page cache just before the timed read (mincore)';
COMMENT ON COLUMN raw_read_segment_result.read_s IS 'wall-clock seconds of the read of this file';
-- @comments raw_read_segment_result FROM raw_read_result: read_mb_s
COMMENT ON COLUMN raw_read_segment_result.user_s IS 'user CPU seconds of this backend during the read of this file';
COMMENT ON COLUMN raw_read_segment_result.sys_s IS 'system CPU seconds of this backend during the read of this file';

CREATE TYPE random_read_result AS (
	relation			regclass,
	reads				bigint,
	block_size			integer,
	cache				text,
	bytes				bigint,
	cached_pct_before	float8,
	read_s				float8,
	iops				float8,
	read_mb_s			float8,
	latency_p50_us		float8,
	latency_p95_us		float8,
	latency_p99_us		float8,
	min_offset			bigint,
	max_offset			bigint,
	repeats				boolean,
	user_s				float8,
	sys_s				float8,
	depth				integer
);

COMMENT ON TYPE random_read_result IS 'random_read: random reads of a relation''s own files, depth of them in flight';
COMMENT ON COLUMN random_read_result.relation IS 'the relation whose files were read';
COMMENT ON COLUMN random_read_result.reads IS 'reads done';
COMMENT ON COLUMN random_read_result.block_size IS 'bytes per read; offsets are multiples of it';
COMMENT ON COLUMN random_read_result.cache IS 'cold, warm, direct or asis';
COMMENT ON COLUMN random_read_result.bytes IS 'bytes read';
COMMENT ON COLUMN random_read_result.cached_pct_before IS 'percent of the relation in the page cache before the reads (mincore)';
COMMENT ON COLUMN random_read_result.read_s IS 'wall-clock seconds of all reads';
COMMENT ON COLUMN random_read_result.iops IS 'reads per second';
COMMENT ON COLUMN random_read_result.read_mb_s IS 'MB/s, MB = 10^6 bytes';
COMMENT ON COLUMN random_read_result.latency_p50_us IS 'median latency of one read, microseconds';
COMMENT ON COLUMN random_read_result.latency_p95_us IS '95th percentile latency, microseconds';
COMMENT ON COLUMN random_read_result.latency_p99_us IS '99th percentile latency, microseconds';
COMMENT ON COLUMN random_read_result.min_offset IS 'lowest byte offset read, within the member relation (segment files end to end)';
COMMENT ON COLUMN random_read_result.max_offset IS 'highest byte offset read; a read covers max_offset to max_offset + block_size';
COMMENT ON COLUMN random_read_result.repeats IS 'true if more reads were asked than the relation has blocks, so some blocks were read twice';
COMMENT ON COLUMN random_read_result.user_s IS 'user CPU seconds of this backend';
COMMENT ON COLUMN random_read_result.sys_s IS 'system CPU seconds of this backend';
COMMENT ON COLUMN random_read_result.depth IS 'reads kept in flight at once (fio''s iodepth), each by a thread of its own; 1: one at a time';

-- @index 20 | `raw_read(rel, cache, block_size, depth)` | how fast the relation's files read, like `dd bs=8k`, or with `depth` in flight like fio |
CREATE FUNCTION raw_read(rel regclass,
						 cache text DEFAULT 'cold',
						 block_size integer DEFAULT 8192,
						 depth integer DEFAULT 1)
RETURNS raw_read_result
AS 'MODULE_PATHNAME', 'raw_read'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION raw_read(regclass, text, integer, integer) IS
'sequential read of the relation''s segment files, one read() of block_size bytes after another as dd/lmdd do, or depth of them in flight as fio does at that iodepth (the device''s speed: cache => ''direct'', block_size => 1048576, depth => 32); cache: cold (evicted from the page cache first), warm (one untimed pass first), direct (O_DIRECT) or asis';

REVOKE ALL ON FUNCTION raw_read(regclass, text, integer, integer) FROM PUBLIC;

-- @index 30 | `raw_read_segments(rel, cache, block_size)` | the same, one row per segment file |
CREATE FUNCTION raw_read_segments(rel regclass,
								  cache text DEFAULT 'cold',
								  block_size integer DEFAULT 8192)
RETURNS SETOF raw_read_segment_result
AS 'MODULE_PATHNAME', 'raw_read_segments'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION raw_read_segments(regclass, text, integer) IS
'raw_read, one row per segment file, each timed on its own';

REVOKE ALL ON FUNCTION raw_read_segments(regclass, text, integer) FROM PUBLIC;

-- @index 110 | `random_read(rel, cache, reads, block_size, depth)` | random 8 kB reads over the relation's own files, as pgiosim (or fio at `depth`): IOPS, latency |
CREATE FUNCTION random_read(rel regclass,
							cache text DEFAULT 'cold',
							reads integer DEFAULT 10000,
							block_size integer DEFAULT 8192,
							depth integer DEFAULT 1)
RETURNS random_read_result
AS 'MODULE_PATHNAME', 'random_read'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION random_read(regclass, text, integer, integer, integer) IS
'pgiosim-style random reads of block_size bytes at aligned offsets in the relation''s segment files, depth of them in flight (1: one at a time); cache: cold, warm, direct or asis';

REVOKE ALL ON FUNCTION random_read(regclass, text, integer, integer, integer) FROM PUBLIC;

