--
-- workload_scans: what it refuses before anything runs (anything but one
-- plain SELECT, a cache mode it does not know, NULL), who may run it, and
-- the shape of its rows: one per scan node and run, the reference of its
-- access path.  Timed figures are the host's: only how they relate is
-- shown (t/065_workload_scans.pl checks the reads themselves).
--
\set SHOW_CONTEXT never

-- Not one plain SELECT: refused, and nothing ran.
SELECT * FROM workload_scans('');
SELECT * FROM workload_scans('  -- a comment alone');
SELECT * FROM workload_scans('SELECT 1; SELECT 2');
SELECT * FROM workload_scans('INSERT INTO sb_t VALUES (0)');
SELECT * FROM workload_scans('UPDATE sb_t SET id = id');
SELECT * FROM workload_scans('DELETE FROM sb_t');
SELECT * FROM workload_scans('MERGE INTO sb_t USING sb_t s ON false WHEN NOT MATCHED THEN DO NOTHING');
SELECT * FROM workload_scans('WITH d AS (DELETE FROM sb_t RETURNING *) SELECT count(*) FROM d');
SELECT * FROM workload_scans('SELECT * FROM sb_t FOR UPDATE');
SELECT * FROM workload_scans('SELECT * FROM (SELECT * FROM sb_t FOR SHARE) s');
SELECT * FROM workload_scans('SELECT 1 WHERE EXISTS (SELECT 1 FROM sb_t FOR KEY SHARE)');
SELECT * FROM workload_scans('SELECT * INTO sb_copy FROM sb_t');
SELECT * FROM workload_scans('CREATE TABLE sb_x (a int)');
SELECT * FROM workload_scans('DROP TABLE sb_t');
SELECT * FROM workload_scans('EXPLAIN ANALYZE SELECT 1');
SELECT * FROM workload_scans('SELECT 1', 'hot');
SELECT * FROM workload_scans(NULL);
SELECT * FROM workload_scans('SELECT 1', NULL);
SELECT stmt, sb_sqlstate(stmt) FROM (VALUES
	($$SELECT workload_scans('')$$),
	($$SELECT workload_scans('SELECT 1; SELECT 2')$$),
	($$SELECT workload_scans('DELETE FROM sb_t')$$),
	($$SELECT workload_scans('WITH d AS (DELETE FROM sb_t RETURNING *) SELECT 1')$$),
	($$SELECT workload_scans('SELECT * FROM sb_t FOR UPDATE')$$),
	($$SELECT workload_scans('SELECT * INTO sb_copy FROM sb_t')$$),
	($$SELECT workload_scans('VACUUM sb_t')$$),
	($$SELECT workload_scans('SELECT 1', 'hot')$$),
	($$SELECT workload_scans(NULL)$$)) v(stmt);
SELECT count(*) AS rows_left, to_regclass('sb_copy') AS copy, to_regclass('sb_x') AS made
FROM sb_t;

-- Nobody but the superuser until granted.
CREATE ROLE regress_scans;
SET ROLE regress_scans;
SELECT * FROM workload_scans('SELECT 1');
RESET ROLE;
DROP ROLE regress_scans;

-- References recorded by hand (in a transaction rolled back at the end):
-- sequential 100 MB/s, random 8.2 MB/s, 65.5 MB/s at depth 8.
BEGIN;
SET LOCAL effective_io_concurrency = 8;
DELETE FROM scan_history;
DELETE FROM page_costs_history;
INSERT INTO page_costs_history (measured_at, relschema, relname, tablespace, seq_page_us,
	random_page_us, cached_page_us, depths, depth_pages_s, effective_io_concurrency)
VALUES (now() - interval '2 days', 'public', 'sb_t', 'pg_default', 81.92, 1000, 4,
	'{1,2,4,8,16}', '{1000,2000,4000,8000,9000}', 8);

-- A query of no table: no scan node, no row.
SELECT count(*) FROM workload_scans('SELECT 1');

-- Each access path, cold then warm: the cold run read the blocks, the
-- warm one found them in shared_buffers; bytes are blocks, the rate is
-- bytes over the wait.
CREATE TEMP VIEW sb_scans_shape AS
SELECT cache, node, node_type, relation, alias, idx, rows, loops,
	blocks_read > 0 AS read,
	bytes_read = blocks_read * current_setting('block_size')::bigint AS bytes_are_blocks,
	read_mb_s IS NULL OR abs(read_mb_s - bytes_read / read_wait_s / 1e6) < 0.06 AS rate_is_bytes_over_wait,
	read_wait_pct IS NULL OR read_wait_pct BETWEEN 0 AND 100.1 AS pct,
	node_s >= 0 AS timed, cached_pct IS NOT NULL AS evicted,
	reference, reference_mb_s,
	reference_pct IS NULL OR abs(reference_pct - 100 * read_mb_s / reference_mb_s) < 0.06 + 6 / reference_mb_s AS pct_of_reference,
	verdict IS NULL OR verdict <@ '{ok,cached,host_cache,io_limited,depth_limited,storage_not_limiting}' AS marks
FROM workload_scans(current_setting('sb.query'));
SET LOCAL max_parallel_workers_per_gather = 0;
SET LOCAL sb.query = 'SELECT count(*) FROM sb_t';
SELECT * FROM sb_scans_shape;
SET LOCAL enable_seqscan = off;
SET LOCAL enable_bitmapscan = off;
SET LOCAL sb.query = 'SELECT sum(length(pad)) FROM sb_t t WHERE id BETWEEN 10001 AND 10050';
SELECT * FROM sb_scans_shape;
SET LOCAL sb.query = 'SELECT count(*) FROM sb_t WHERE id BETWEEN 10001 AND 10050';
SELECT * FROM sb_scans_shape;
SET LOCAL enable_indexscan = off;
SET LOCAL enable_bitmapscan = on;
SET LOCAL sb.query = 'SELECT sum(length(pad)) FROM sb_t WHERE id BETWEEN 10001 AND 10050';
SELECT * FROM sb_scans_shape;
-- cold alone, warm alone; two scans of one table, told apart by alias
RESET enable_seqscan;
RESET enable_indexscan;
SELECT cache, node, node_type, relation, alias, blocks_read > 0 AS read
FROM workload_scans('SELECT count(*) FROM sb_t a, sb_mv b WHERE a.id = b.id', 'cold');
SELECT cache, node, node_type, relation, alias, blocks_read AS read
FROM workload_scans('SELECT count(*) FROM sb_mv x WHERE x.id > 10', 'warm');
-- No reference recorded: the note says how to measure one.
DELETE FROM page_costs_history;
SELECT cache, node_type, reference, reference_mb_s, verdict IS NULL AS no_verdict, note
FROM workload_scans('SELECT count(*) FROM sb_t', 'cold');
-- The settings it changed for its runs are the session's again.
SELECT current_setting('transaction_read_only') AS read_only,
	current_setting('track_io_timing') AS timing;
ROLLBACK;
