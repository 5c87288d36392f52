/* scanbench--0.1.sql */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "CREATE EXTENSION scanbench" to load this file. \quit

--
-- Result rows are named composite types, so that a history table can hold
-- them as they are (CREATE TABLE h OF scan_efficiency_result, or a column
-- of that type).  Rates are in MB/s with MB = 10^6 bytes, as lmdd prints.
--

CREATE TYPE raw_read_result AS (
	relation			regclass,
	segments			integer,
	bytes				bigint,
	reads				bigint,
	block_size			integer,
	cache				text,
	cached_pct_before	float8,
	seconds				float8,
	mb_s				float8,
	user_s				float8,
	sys_s				float8
);

CREATE TYPE raw_read_segment_result AS (
	relation			regclass,
	segno				integer,
	path				text,
	bytes				bigint,
	reads				bigint,
	block_size			integer,
	cache				text,
	cached_pct_before	float8,
	seconds				float8,
	mb_s				float8,
	user_s				float8,
	sys_s				float8
);

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
	seconds				float8,
	mb_s				float8,
	rows_s				float8,
	shared_hit			bigint,
	shared_read			bigint,
	io_read_s			float8,
	user_s				float8,
	sys_s				float8
);

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
	measured_at			timestamptz
);

CREATE FUNCTION raw_read(rel regclass,
						 block_size integer DEFAULT 8192,
						 cache text DEFAULT 'cold')
RETURNS raw_read_result
AS 'MODULE_PATHNAME', 'raw_read'
LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION raw_read(regclass, integer, text) IS
'sequential read of the relation''s segment files, as lmdd/dd bs=block_size; cache: cold, warm, direct or asis';

CREATE FUNCTION raw_read_segments(rel regclass,
								  block_size integer DEFAULT 8192,
								  cache text DEFAULT 'cold')
RETURNS SETOF raw_read_segment_result
AS 'MODULE_PATHNAME', 'raw_read_segments'
LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION raw_read_segments(regclass, integer, text) IS
'raw_read, one row per segment file';

CREATE FUNCTION scan_rate(rel regclass,
						  cache text DEFAULT 'cold',
						  query text DEFAULT 'count(1)',
						  parallel_workers integer DEFAULT 0)
RETURNS scan_rate_result
AS 'MODULE_PATHNAME', 'scan_rate'
LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION scan_rate(regclass, text, text, integer) IS
'time SELECT <query> FROM rel through the executor as a sequential scan; cache: cold, warm or asis';

CREATE FUNCTION scan_efficiency(rel regclass,
								cache text DEFAULT 'cold',
								block_size integer DEFAULT 8192,
								runs integer DEFAULT 1)
RETURNS scan_efficiency_result
AS 'MODULE_PATHNAME', 'scan_efficiency'
LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION scan_efficiency(regclass, text, integer, integer) IS
'count(1) scan rate as a percentage of the raw read rate of the same files, median of runs alternated pairs';

--
-- These read server files and evict caches server-wide: superuser only
-- unless granted.  A granted role also needs SELECT on each relation.
--
REVOKE ALL ON FUNCTION raw_read(regclass, integer, text) FROM PUBLIC;
REVOKE ALL ON FUNCTION raw_read_segments(regclass, integer, text) FROM PUBLIC;
REVOKE ALL ON FUNCTION scan_rate(regclass, text, text, integer) FROM PUBLIC;
REVOKE ALL ON FUNCTION scan_efficiency(regclass, text, integer, integer) FROM PUBLIC;
