--
-- toast_efficiency: what it refuses, before anything is read, and what a
-- measurement reports (host figures left out: only what a run must show
-- on any machine).
--
\set SHOW_CONTEXT never
CREATE TABLE sb_toast (id integer, doc text) WITH (autovacuum_enabled = false);
ALTER TABLE sb_toast ALTER COLUMN doc SET STORAGE EXTERNAL;
INSERT INTO sb_toast SELECT g, repeat(md5(g::text), 100) FROM generate_series(1, 300) g;
INSERT INTO sb_toast VALUES (301, NULL), (302, 'short');
CREATE TABLE sb_notoast (id integer, n bigint);
CREATE TABLE sb_plain (id integer, doc text);
ALTER TABLE sb_plain DROP COLUMN doc;
CREATE TABLE sb_toast_parent (id integer, doc text);
CREATE TABLE sb_toast_child () INHERITS (sb_toast_parent);
CREATE TEMP TABLE sb_toast_temp (id integer, doc text);
CREATE TABLE sb_toast_empty (id integer, doc text);
VACUUM (FREEZE, ANALYZE) sb_toast;

-- Nothing to detoast, not a table of its own, a mode or a budget of none.
SELECT * FROM toast_efficiency('sb_notoast');
SELECT * FROM toast_efficiency('sb_plain');
SELECT * FROM toast_efficiency('sb_part');
SELECT * FROM toast_efficiency('sb_view');
SELECT * FROM toast_efficiency('sb_toast_temp');
SELECT * FROM toast_efficiency('sb_toast_parent');
SELECT * FROM toast_efficiency('sb_toast_empty');
SELECT * FROM toast_efficiency('sb_toast', cache => 'direct');
SELECT * FROM toast_efficiency('sb_toast', cache => 'asis');
SELECT * FROM toast_efficiency('sb_toast', max_seconds => 0);
SELECT * FROM toast_efficiency('sb_toast', max_seconds => 'NaN');

SELECT stmt, sb_sqlstate(stmt) FROM (VALUES
	($$SELECT toast_efficiency(NULL)$$),
	($$SELECT toast_efficiency('sb_notoast')$$),
	($$SELECT toast_efficiency('sb_plain')$$),
	($$SELECT toast_efficiency('sb_part')$$),
	($$SELECT toast_efficiency('sb_view')$$),
	($$SELECT toast_efficiency('sb_toast_temp')$$),
	($$SELECT toast_efficiency('sb_toast_parent')$$),
	($$SELECT toast_efficiency('sb_toast_empty')$$),
	($$SELECT toast_efficiency('sb_toast', cache => 'hot')$$),
	($$SELECT toast_efficiency('sb_toast', max_seconds => -1)$$)) v(stmt);

-- A measurement, cold and warm: every row returned, every value stored
-- out of line detoasted, the bytes the relations' own, the figure within
-- its interval.
SET client_min_messages = warning;
SELECT relation, toast_relation = (SELECT reltoastrelid FROM pg_class WHERE oid = 'sb_toast'::regclass) AS toast_ok,
       columns, cache, rows, values_detoasted,
       main_bytes = pg_relation_size('sb_toast') AS main_ok,
       toast_bytes = pg_relation_size(toast_relation) AS toast_bytes_ok,
       toast_index_bytes > 0 AS has_index,
       toast_pct > 50 AS mostly_toast,
       rounds >= 1 AS measured,
       read_s > 0 AND scan_s > 0 AS timed,
       read_mb_s > 0 AND scan_mb_s > 0 AS rates,
       pct_low IS NULL OR (pct_low <= scan_pct AND scan_pct <= pct_high) AS interval_ok,
       cached_pct_before BETWEEN 0 AND 100 AS cached_ok,
       elapsed_s > 0 AS elapsed_ok,
       verdict <@ ARRAY(SELECT mark FROM scan_verdict_marks()) AS marks_known
FROM toast_efficiency('sb_toast', max_seconds => 2);
SELECT cache, rows, values_detoasted, rounds >= 1 AS measured,
       NOT 'cached' = ANY (verdict) AS warm_not_cached
FROM toast_efficiency('sb_toast', 'warm', max_seconds => 2);
-- A table of the extension's other tests: inline values, none to detoast.
SELECT rows, values_detoasted FROM toast_efficiency('sb_t', max_seconds => 1);
RESET client_min_messages;

DROP TABLE sb_toast, sb_notoast, sb_plain, sb_toast_parent, sb_toast_child, sb_toast_temp,
	sb_toast_empty;
