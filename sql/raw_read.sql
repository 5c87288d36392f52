--
-- raw_read and raw_read_segments
--

-- Bytes are the relation's size; reads follow from block_size.
SELECT relation, segments, bytes = pg_relation_size('sb_t') AS all_bytes,
       reads = bytes / 8192 AS reads_8k, block_size, cache,
       cached_pct_before BETWEEN 0 AND 100 AS pct_ok,
       read_s >= 0 AS seconds_ok, read_mb_s > 0 AS rate_ok,
       user_s >= 0 AND sys_s >= 0 AS cpu_ok
FROM raw_read('sb_t');

SELECT block_size, reads = ceil(bytes / 65536.0) AS reads_64k, cache
FROM raw_read('sb_t', 'warm', 65536);

SELECT block_size, reads = ceil(bytes / 1048576.0) AS reads_1m, cache
FROM raw_read('sb_t', block_size => 1048576, cache => 'asis');

-- At depth: every byte once, block_size at a time, depth reads in flight.
SELECT bytes = pg_relation_size('sb_t') AS all_bytes,
       reads = ceil(bytes / 65536.0) AS reads_64k, depth, read_mb_s > 0 AS rate_ok
FROM raw_read('sb_t', 'cold', 65536, 4);

SELECT bytes = pg_relation_size('sb_part_1') + pg_relation_size('sb_part_2') AS leaves, depth
FROM raw_read('sb_part', 'cold', 8192, 3);

SELECT segments, bytes, reads, read_mb_s, depth FROM raw_read('sb_empty', depth => 8);

-- warm means resident: one untimed pass first.
SELECT cache, cached_pct_before > 95 AS warm FROM raw_read('sb_t', cache => 'warm');

-- Anything with files can be read raw: index, sequence, matview, unlogged.
SELECT relation, bytes = pg_relation_size(relation) AS all_bytes
FROM (SELECT (raw_read(r)).* FROM unnest(ARRAY['sb_t_id', 'sb_seq', 'sb_mv', 'sb_unlogged']::regclass[]) r) s;

-- A partitioned table is its leaves together.
SELECT segments, bytes = pg_relation_size('sb_part_1') + pg_relation_size('sb_part_2') AS leaves
FROM raw_read('sb_part');

-- Empty: a row with NULL rates, no division by zero.
SELECT segments, bytes, reads, cached_pct_before, read_mb_s FROM raw_read('sb_empty');
SELECT segments, bytes, read_mb_s FROM raw_read('sb_part_empty');

-- Temp tables of our own session work.
CREATE TEMP TABLE sb_temp AS SELECT * FROM sb_t WHERE id <= 5000;
SELECT bytes = pg_relation_size('sb_temp') AS all_bytes, read_mb_s > 0 AS rate_ok
FROM raw_read('sb_temp');

-- One row per segment file, adding up to the relation.
SELECT count(*) AS files, sum(bytes) = pg_relation_size('sb_t') AS all_bytes,
       bool_and(path LIKE 'base/%') AS relative_paths, min(segno), max(segno)
FROM raw_read_segments('sb_t');
SELECT relation, segno, bytes > 0 AS has_bytes FROM raw_read_segments('sb_part') ORDER BY relation;

-- Bad arguments: a clear error, nothing done.
SELECT * FROM raw_read('sb_t', block_size => 100);
SELECT * FROM raw_read('sb_t', block_size => 1000);
SELECT * FROM raw_read('sb_t', block_size => 0);
SELECT * FROM raw_read('sb_t', block_size => 67109376);
SELECT * FROM raw_read('sb_t', block_size => -512);
SELECT * FROM raw_read('sb_t', depth => 0);
SELECT * FROM raw_read('sb_t', depth => 257);
-- Each read in flight has its buffer: depth × block_size at most 256 MB.
SELECT * FROM raw_read('sb_t', block_size => 67108864, depth => 5);
SELECT * FROM raw_read('sb_t', block_size => 1048576, depth => 257);
SELECT * FROM raw_read('sb_t', cache => 'hot');
SELECT * FROM raw_read_segments('sb_t', 'COLD', 8192);
SELECT * FROM raw_read('sb_view');
SELECT * FROM raw_read('sb_comp');
SELECT * FROM raw_read('sb_foreign');
SELECT * FROM raw_read(0);
SELECT * FROM raw_read('no_such_table');

-- A NULL argument is refused by name (sql/null_args.sql has every function).
SELECT raw_read('sb_t', block_size => NULL);

-- Error codes: 22023 bad argument, 42809 wrong kind of relation, 54000
-- more memory at depth than allowed.
SELECT stmt, sb_sqlstate(stmt) FROM (VALUES
	('SELECT raw_read(''sb_t'', block_size => 100)'),
	('SELECT raw_read(''sb_t'', block_size => 67108864, depth => 8)'),
	('SELECT raw_read(''sb_t'', cache => ''hot'')'),
	('SELECT raw_read(''sb_view'')'),
	('SELECT raw_read(0)')) v(stmt);
