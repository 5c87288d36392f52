--
-- scan_rate
--
SELECT relation, query, rows = (SELECT count(*) FROM sb_t) AS all_rows,
       pages = pg_relation_size('sb_t') / 8192 AS all_pages,
       bytes = pg_relation_size('sb_t') AS all_bytes, cache,
       workers_planned, workers_launched,
       cached_pct_before BETWEEN 0 AND 100 AS pct_ok,
       scan_s >= 0 AS seconds_ok, scan_mb_s > 0 AS rate_ok, rows_s > 0 AS rows_ok,
       shared_hit + shared_read >= pages AS all_pages_read,
       io_read_s >= 0 AS io_ok, user_s >= 0 AND sys_s >= 0 AS cpu_ok
FROM scan_rate('sb_t');

-- cold means not in shared_buffers nor page cache, and the scan reads.
SELECT cache, cached_pct_before < 5 AS cold, buffers_cached_pct_before < 5 AS buffers_cold,
       shared_read > 0 AS read_something
FROM scan_rate('sb_t', 'cold');
SELECT cache, cached_pct_before > 95 AS warm FROM scan_rate('sb_t', 'warm');

-- An index would answer count(1) faster; the scan must stay sequential.
SET enable_seqscan = off;
SELECT rows = 20000 AS all_rows, pages = pg_relation_size('sb_t') / 8192 AS all_pages
FROM scan_rate('sb_t', 'asis');
RESET enable_seqscan;
SHOW synchronize_seqscans;

-- Other select lists: each tuple deformed, numeric sums.
SELECT query, rows FROM scan_rate('sb_t', 'asis', 'sum(length(pad))');
SELECT query, rows FROM scan_rate('sb_t', 'asis', 'max(id), min(pad)');

-- Parallel workers when asked, none by default.
SELECT workers_planned, rows FROM scan_rate('sb_t', 'asis', 'count(1)', 2);
SELECT workers_planned FROM scan_rate('sb_t', 'asis');

-- Rows come from the scans' own counters, or from instrumentation when
-- statistics are off or workers keep their counts: the same either way.
SET track_counts = off;
CREATE TABLE sb_nostats WITH (autovacuum_enabled = false) AS SELECT * FROM sb_t WHERE id <= 1234;
SELECT rows FROM scan_rate('sb_nostats', 'asis');
SELECT rows FROM scan_rate('sb_nostats', 'asis', 'count(1)', 2);
RESET track_counts;
SELECT rows FROM scan_rate('sb_nostats', 'asis');
DROP TABLE sb_nostats;

-- Partitioned, matview, unlogged, temp, empty.
SELECT rows, pages = (pg_relation_size('sb_part_1') + pg_relation_size('sb_part_2')) / 8192 AS leaves
FROM scan_rate('sb_part');
SELECT rows FROM scan_rate('sb_mv');
SELECT rows FROM scan_rate('sb_unlogged');
CREATE TEMP TABLE sb_temp2 AS SELECT * FROM sb_t WHERE id <= 700;
SELECT rows, cached_pct_before < 5 AS cold FROM scan_rate('sb_temp2');
SELECT rows, pages, scan_s >= 0 AS seconds_ok, scan_mb_s, rows_s FROM scan_rate('sb_empty');
SELECT rows, pages, scan_mb_s FROM scan_rate('sb_part_empty');

-- What the query may not be.
SELECT * FROM scan_rate('sb_t', 'asis', 'count(1) FROM pg_class --');
SELECT * FROM scan_rate('sb_t', 'asis', 'count(1) FROM sb_t WHERE id > 5 --');
SELECT * FROM scan_rate('sb_t', 'asis', '(SELECT count(*) FROM pg_class)');
SELECT * FROM scan_rate('sb_t', 'asis', 'random()');
SELECT * FROM scan_rate('sb_t', 'asis', 'nextval(''public.sb_seq'')');
SELECT * FROM scan_rate('sb_t', 'asis', 'count(1); DROP TABLE sb_t');
SELECT * FROM scan_rate('sb_t', 'asis', 'count(1) FROM sb_t, sb_empty --');
SELECT * FROM scan_rate('sb_t', 'asis', '');
SELECT * FROM scan_rate('sb_t', 'asis', 'no_such_column');
SELECT count(*) AS still_there FROM sb_t;

-- A function declared stable that writes anyway is stopped at run time.
CREATE FUNCTION sb_sneaky(integer) RETURNS bigint LANGUAGE sql STABLE
	AS 'SELECT nextval(''sb_seq'')';
SELECT * FROM scan_rate('sb_t', 'asis', 'sum(public.sb_sneaky(id))');
SELECT last_value, is_called FROM sb_seq;
DROP FUNCTION sb_sneaky(integer);

-- The statement runs read-only, and an error inside it caught by the caller
-- leaves the transaction writable as it was.
BEGIN;
DO $$
BEGIN
	PERFORM scan_rate('sb_t', 'asis', 'sum(1 / (id - id))');
EXCEPTION WHEN division_by_zero THEN
	RAISE NOTICE 'caught: %', SQLERRM;
END $$;
SHOW transaction_read_only;
CREATE TEMP TABLE sb_written AS SELECT 1 AS x;
ROLLBACK;

-- Bad arguments and relations.
SELECT * FROM scan_rate('sb_t', 'direct');
SELECT * FROM scan_rate('sb_t', 'tepid');
SELECT * FROM scan_rate('sb_t', 'cold', 'count(1)', -1);
SELECT * FROM scan_rate('sb_t', 'cold', 'count(1)', 100000);
SELECT * FROM scan_rate('sb_t_id');
SELECT * FROM scan_rate('sb_view');
SELECT * FROM scan_rate('sb_seq');
SELECT * FROM scan_rate('sb_foreign');
SELECT scan_rate(NULL);

-- Error codes: 22023 bad argument or query, 42809 wrong kind of relation.
SELECT stmt, sb_sqlstate(stmt) FROM (VALUES
	('SELECT scan_rate(''sb_t'', ''direct'')'),
	('SELECT scan_rate(''sb_t'', ''asis'', ''random()'')'),
	('SELECT scan_rate(''sb_t'', ''asis'', ''count(1) FROM pg_class --'')'),
	('SELECT scan_rate(''sb_t'', ''cold'', ''count(1)'', -1)'),
	('SELECT scan_rate(''sb_t_id'')'),
	('SELECT scan_efficiency(''sb_t'', runs => 0)')) v(stmt);
