--
-- The history refuses nonsense (CHECK constraints on scan_history and
-- scan_history_record's checks), the judge compares a run only with the
-- runs of its own server, and a drop is judged from 3 earlier runs.
--
CREATE TABLE hc_t (id integer);
-- Rows written by hand (or by a fleet's COPY) are checked by the table.
\set VERBOSITY terse
INSERT INTO scan_history (measured_at, relschema, relname, cache, scan_pct)
VALUES (now(), 'public', 'hc_x', 'cold', 'NaN');
INSERT INTO scan_history (measured_at, relschema, relname, cache, scan_pct)
VALUES (now(), 'public', 'hc_x', 'cold', 1e308);
INSERT INTO scan_history (measured_at, relschema, relname, cache, scan_pct, verdict)
VALUES (now(), 'public', 'hc_x', 'cold', 1e9, '{ok}');
INSERT INTO scan_history (measured_at, relschema, relname, cache, scan_pct)
VALUES ('infinity', 'public', 'hc_x', 'cold', 50);
INSERT INTO scan_history (measured_at, relschema, relname, cache, read_mb_s)
VALUES (now(), 'public', 'hc_x', 'cold', '-Infinity');
INSERT INTO scan_history (measured_at, relschema, relname, cache, scan_s)
VALUES (now(), 'public', 'hc_x', 'cold', -1);
INSERT INTO scan_history (measured_at, relschema, relname, cache, read_cached_pct)
VALUES (now(), 'public', 'hc_x', 'cold', 101);
INSERT INTO scan_history (measured_at, relschema, relname, cache, limit_max_drop_pct)
VALUES (now(), 'public', 'hc_x', 'cold', 100);
\set VERBOSITY default
-- scan_history_record says which figure it refuses.
SELECT scan_history_record(jsonb_populate_record(NULL::scan_efficiency_result,
	'{"relation": "hc_t", "cache": "cold", "scan_pct": 1e9, "verdict": ["ok"]}'));
SELECT scan_history_record(jsonb_populate_record(NULL::scan_efficiency_result,
	'{"relation": "hc_t", "cache": "cold", "scan_pct": "NaN"}'));
SELECT scan_history_record(jsonb_populate_record(NULL::scan_efficiency_result,
	'{"relation": "hc_t", "cache": "cold", "read_mb_s": 1e308}'));
SELECT scan_history_record(jsonb_populate_record(NULL::scan_efficiency_result,
	'{"relation": "hc_t", "cache": "cold", "measured_at": "infinity"}'));
SELECT scan_history_record(jsonb_populate_record(NULL::scan_efficiency_result,
	'{"relation": "hc_t", "cache": "sideways"}'));
SELECT scan_history_record(jsonb_populate_record(NULL::scan_efficiency_result,
	'{"relation": "hc_t", "cache": "cold", "scan_pct": 50}'), max_drop_pct => 100);
SELECT count(*) AS recorded FROM scan_history WHERE relname IN ('hc_x', 'hc_t');

-- A central history with two servers' runs of one relation: server b's
-- runs (on xfs, later and more of them) are no part of server a's
-- comparison, neither of its median nor of what changed.
INSERT INTO scan_history (measured_at, relschema, relname, cache, scan_pct, verdict, filesystem, server, kernel)
SELECT now() - make_interval(days => 10 - g), 'public', 'hc_two', 'cold', 50, '{ok}'::text[], 'ext4', 'a', '6.1'
FROM generate_series(1, 3) g
UNION ALL
SELECT now() - make_interval(days => 5 - g), 'public', 'hc_two', 'cold', 90, '{ok}', 'xfs', 'b', '6.12'
FROM generate_series(1, 4) g;
INSERT INTO scan_history (measured_at, relschema, relname, cache, scan_pct, verdict, filesystem, server, kernel)
VALUES (now(), 'public', 'hc_two', 'cold', 50, '{ok}', 'ext4', 'a', '6.1');
SELECT status, message, median_pct, earlier_runs
FROM scan_history_judge((SELECT max(id) FROM scan_history WHERE relname = 'hc_two'));
-- Each server has its own trend, series and "what changed": b's latest
-- run, back on ext4 and with its tags, is b's change alone, and a's rows
-- say nothing of it.
INSERT INTO scan_history (measured_at, relschema, relname, cache, scan_pct, verdict, filesystem, server, kernel, tags)
VALUES (now(), 'public', 'hc_two', 'cold', 60, '{ok}', 'ext4', 'b', '6.12', '{"zone": "z\"1", "class": "nvme"}');
SELECT status, message, hint FROM scan_history_judge((SELECT max(id) FROM scan_history WHERE relname = 'hc_two'));
SELECT status, message, hint FROM scan_history_judge((SELECT max(id) FROM scan_history WHERE relname = 'hc_two' AND server = 'a'));
SELECT server, relation, runs, judged_runs, latest_pct, median_pct, min_pct, max_pct, change_pct
FROM scan_trend WHERE relation = 'public.hc_two' ORDER BY server;
SELECT line FROM regexp_split_to_table(scanbench_metrics(), E'\n') AS line
WHERE line LIKE '%hc_two%' AND line NOT LIKE '%timestamp%' ORDER BY line;
SELECT svg LIKE '%hc_two on a%' AND svg LIKE '%hc_two on b%' AS a_series_per_server,
       (SELECT count(*) FROM regexp_matches(svg, 'data-relation="public.hc_two on ', 'g')) AS series
FROM scan_history_svg(NULL, 'cold') AS svg;

-- A drop against fewer than 3 earlier runs is not an alarm; from 3 on it is.
INSERT INTO scan_history (measured_at, relschema, relname, cache, scan_pct, verdict)
VALUES (now() - interval '2 days', 'public', 'hc_few', 'cold', 50, '{ok}'),
	   (now() - interval '1 day', 'public', 'hc_few', 'cold', 30, '{ok}');
SELECT status, message, drop_pct, earlier_runs
FROM scan_history_judge((SELECT max(id) FROM scan_history WHERE relname = 'hc_few'));
INSERT INTO scan_history (measured_at, relschema, relname, cache, scan_pct, verdict)
VALUES (now() - interval '3 days', 'public', 'hc_few', 'cold', 50, '{ok}'),
	   (now() - interval '4 days', 'public', 'hc_few', 'cold', 50, '{ok}');
SELECT status, message, drop_pct, earlier_runs
FROM scan_history_judge((SELECT id FROM scan_history WHERE relname = 'hc_few' AND scan_pct = 30));

-- Rows kept from before the checks (NOT VALID after an upgrade) are left
-- out: the judge does not judge them, nor compare with them; the trend,
-- the metrics and the chart skip them without overflowing.
ALTER TABLE scan_history DROP CONSTRAINT scan_history_scan_pct_check;
ALTER TABLE scan_history DROP CONSTRAINT scan_history_measured_at_check;
INSERT INTO scan_history (measured_at, relschema, relname, cache, scan_pct, verdict)
VALUES (now() - interval '12 hours', 'public', 'hc_few', 'cold', 1e308, '{ok}'),
	   (now() - interval '11 hours', 'public', 'hc_few', 'cold', 'NaN', '{ok}');
SELECT status, message, median_pct, earlier_runs
FROM scan_history_judge((SELECT max(id) FROM scan_history WHERE relname = 'hc_few'));
SELECT status, message
FROM scan_history_judge((SELECT max(id) FROM scan_history WHERE relname = 'hc_few' AND scan_pct = 1e308));
SELECT relation, runs, judged_runs, median_pct, min_pct, max_pct FROM scan_trend WHERE relation = 'public.hc_few';
SELECT regexp_replace(line, 'run [0-9]+', 'run N') AS line
FROM regexp_split_to_table(scanbench_metrics(), E'\n') AS line
WHERE line LIKE '%hc_few%' AND line NOT LIKE '%timestamp%' ORDER BY line;
INSERT INTO scan_history (measured_at, relschema, relname, cache, scan_pct, verdict)
VALUES ('infinity', 'public', 'hc_few', 'cold', 50, '{ok}');
SELECT position('NaN' IN scan_history_svg(NULL, 'cold')) AS nan_in_chart;
DELETE FROM scan_history WHERE relname IN ('hc_few', 'hc_two');
ALTER TABLE scan_history ADD CONSTRAINT scan_history_scan_pct_check CHECK ((scan_pct OPERATOR(pg_catalog.>=) 0::pg_catalog.float8 AND scan_pct OPERATOR(pg_catalog.<=) 10000::pg_catalog.float8) AND
		(scan_pct_lo OPERATOR(pg_catalog.>=) 0::pg_catalog.float8 AND scan_pct_lo OPERATOR(pg_catalog.<=) 10000::pg_catalog.float8) AND
		(scan_pct_hi OPERATOR(pg_catalog.>=) 0::pg_catalog.float8 AND scan_pct_hi OPERATOR(pg_catalog.<=) 10000::pg_catalog.float8) AND
		(scan_pct_p10 OPERATOR(pg_catalog.>=) 0::pg_catalog.float8 AND scan_pct_p10 OPERATOR(pg_catalog.<=) 10000::pg_catalog.float8) AND
		(scan_pct_p90 OPERATOR(pg_catalog.>=) 0::pg_catalog.float8 AND scan_pct_p90 OPERATOR(pg_catalog.<=) 10000::pg_catalog.float8));
ALTER TABLE scan_history ADD CONSTRAINT scan_history_measured_at_check CHECK (pg_catalog.isfinite(measured_at));
DROP TABLE hc_t;

-- The history is distributed on a Citus coordinator only.
\set SHOW_CONTEXT never
SELECT scan_history_distribute();
SELECT scan_history_distribute(0);
\set SHOW_CONTEXT errors
