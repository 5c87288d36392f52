--
-- Run history: recording, judging recorded runs, trend, metrics, errors.
--
-- scan_efficiency's notices about its verdict carry this host's figures.
SET client_min_messages = warning;
\set SHOW_CONTEXT never
-- A run records with the device's queue settings, kernel, version and
-- I/O settings; the relation by OID, schema and name.
SELECT scan_history_record(r) > 0 AS recorded FROM scan_efficiency('sb_t', 'asis') r;
-- scan_efficiency records when asked to, and only then.
SELECT relation, rows FROM scan_efficiency('sb_t', 'asis', record => true);
SELECT relation, rows FROM scan_efficiency('sb_t', 'asis');
SELECT count(*) AS recorded_runs, count(DISTINCT relid) AS relations FROM scan_history;
DELETE FROM scan_history WHERE id > (SELECT min(id) FROM scan_history);
SELECT relschema, relname, cache, relid = 'sb_t'::regclass::oid AS same_oid,
       scan_pct > 0 AS measured, server_version = current_setting('server_version') AS version,
       settings ? 'shared_buffers' AS has_settings, kernel <> '' AS has_kernel,
       recorded_by = current_user AS by_me,
       scheduler IS NOT DISTINCT FROM (SELECT string_agg(i.scheduler, '/' ORDER BY i.level)
                                       FROM storage_info('sb_t'::regclass) AS i
                                       WHERE i.level > 0) AS scheduler_as_storage_info
FROM scan_history;
-- The facts that move the scan's CPU share go with the run.
SELECT data_checksums = (current_setting('data_checksums') = 'on') AS checksums_kept,
       jit = (current_setting('jit') = 'on') AS jit_kept,
       server_major = current_setting('server_version_num')::integer / 10000 AS major_kept,
       (io_max_combine_limit IS NULL) = (current_setting('server_version_num')::integer < 180000) AS cap_kept_from_18
FROM scan_history;

-- Every column is explained, and the table depends on no type of the
-- extension (an upgrade that changes a result type leaves it alone).
SELECT a.attname FROM pg_attribute a
WHERE a.attrelid = 'scan_history'::regclass AND a.attnum > 0
  AND col_description(a.attrelid, a.attnum) IS NULL;
SELECT count(*) AS type_dependencies FROM pg_depend d
JOIN pg_type t ON d.refclassid = 'pg_type'::regclass AND t.oid = d.refobjid
JOIN pg_depend e ON e.classid = 'pg_type'::regclass AND e.objid = t.oid AND e.deptype = 'e'
WHERE d.classid = 'pg_class'::regclass AND d.objid = 'scan_history'::regclass;
-- pg_dump keeps its rows.
SELECT c.relname FROM pg_extension x, unnest(x.extconfig) AS cfg(oid)
JOIN pg_class c ON c.oid = cfg.oid WHERE x.extname = 'scanbench' ORDER BY 1;

-- Judging, against runs recorded at fixed figures.
TRUNCATE scan_history;
CREATE FUNCTION sb_seed(days_ago float8, pct float8, verdict text DEFAULT 'ok',
                        sched text DEFAULT 'mq-deadline', rel text DEFAULT 'sb_t')
RETURNS bigint LANGUAGE sql AS $$
	INSERT INTO scan_history (measured_at, relid, relschema, relname, cache, bytes,
		read_mb_s, scan_mb_s, scan_pct, scan_pct_lo, scan_pct_hi, read_cached_pct,
		scan_cached_pct, verdict, filesystem, device, scheduler, read_ahead_kb,
		kernel, server_version, settings)
	VALUES (now() - make_interval(secs => days_ago * 86400), 1, 'public', rel, 'cold',
		1000000000, 2000, 20 * pct, pct, pct - 2, pct + 2, 0, 0, string_to_array(verdict, ','), 'ext4',
		'/dev/vda', sched, 128, '6.1.0', '15.20', '{"effective_io_concurrency": "1"}')
	RETURNING id
$$;
-- The first run says so.
SELECT status, message FROM scan_history_judge(sb_seed(10, 60));
SELECT sb_seed(9, 64) IS NOT NULL, sb_seed(8, 62) IS NOT NULL, sb_seed(7, 63) IS NOT NULL;
-- Within its limits.
SELECT status, message, median_pct, drop_pct, earlier_runs FROM scan_history_judge(sb_seed(6, 61));
-- A drop past the warning, then past the alarm, with what changed.
SELECT status, message FROM scan_history_judge(sb_seed(5, 54));
SELECT status, message FROM scan_history_judge(sb_seed(4, 41.2, sched => 'bfq'));
UPDATE scan_history SET settings = '{"effective_io_concurrency": "16"}', kernel = '6.12.0',
	bytes = 2000000000 WHERE id = (SELECT max(id) FROM scan_history);
SELECT status, message FROM scan_history_judge((SELECT max(id) FROM scan_history));
-- An absolute limit, and near it.
SELECT status, message FROM scan_history_judge(sb_seed(3.5, 60), min_pct => 58);
SELECT status, message FROM scan_history_judge(sb_seed(3, 57), min_pct => 58, max_drop_pct => 50);
-- Runs that cannot be judged never count, and say why.
SELECT status, message FROM scan_history_judge(sb_seed(2, 10, 'unstable'));
SELECT status, message FROM scan_history_judge(sb_seed(1.5, 10, 'cached'));
-- A host_cache run is compared with host_cache runs only: first, then a drop.
SELECT status, message FROM scan_history_judge(sb_seed(1.2, 90, 'host_cache'));
SELECT sb_seed(1.1, 92, 'host_cache') IS NOT NULL;
SELECT status, message FROM scan_history_judge(sb_seed(1, 50, 'host_cache,storage_not_limiting'));
SELECT status, message FROM scan_history_judge(sb_seed(0.9, 50, 'host_cache'));
-- Outside the window, nothing to compare with.
SELECT status FROM scan_history_judge(sb_seed(0.8, 60), window_days => 1);

-- The trend, per relation and cache mode.
SELECT sb_seed(0.5, 80, rel => 'other') IS NOT NULL;
SELECT relation, cache, runs, judged_runs, latest_pct, latest_verdict, median_pct,
       min_pct, max_pct, change_pct
FROM scan_trend ORDER BY relation;

-- One median: the trend's is the one the latest judged run was judged against.
SELECT sb_seed(0.45, 76, rel => 'other') IS NOT NULL;
SELECT t.median_pct, j.median_pct AS judged_against, t.median_pct = j.median_pct AS same
FROM scan_trend t, scan_history_judge((SELECT max(id) FROM scan_history WHERE relname = 'other')) j
WHERE t.relation = 'public.other';
-- A warning limit that can be met: 10 % above min_pct, at most halfway to 100.
SELECT sb_seed(0.35, 98, rel => 'warnrel') IS NOT NULL;
SELECT status, message FROM scan_history_judge(sb_seed(0.3, 98, rel => 'warnrel'), min_pct => 95);
SELECT status FROM scan_history_judge(sb_seed(0.25, 97, rel => 'warnrel'), min_pct => 95);
-- A run keeps the limits efficiency_check judged it with: judged again with
-- none given, it gets the check's verdict (an alarm under min_pct => 95,
-- not the ok the defaults give); a limit given replaces the kept one; a run
-- recorded without limits is judged with the defaults.
SELECT sb_seed(0.2, 94, rel => 'warnrel') AS kept \gset
UPDATE scan_history SET limit_min_pct = 95, limit_max_drop_pct = 20,
	limit_warn_drop_pct = NULL, limit_window_days = 30 WHERE id = :kept;
SELECT status, message FROM scan_history_judge(:kept);
SELECT status FROM scan_history_judge(:kept, min_pct => 80);
SELECT status FROM scan_history_judge(:kept, min_pct => 80, warn_drop_pct => 1);
UPDATE scan_history SET limit_min_pct = NULL, limit_max_drop_pct = NULL,
	limit_window_days = NULL WHERE id = :kept;
SELECT status FROM scan_history_judge(:kept);
-- A set judged at once gives each run the per-run judge's answer, with
-- the limits given or those kept with each run.
SELECT count(*) AS runs,
       count(*) FILTER (WHERE (s.status, s.message, s.detail, s.hint, s.median_pct, s.drop_pct, s.earlier_runs)
                        IS NOT DISTINCT FROM (p.status, p.message, p.detail, p.hint, p.median_pct, p.drop_pct, p.earlier_runs)) AS same
FROM scan_history_judge_runs(first_run => 0) s, scan_history_judge(s.run) p;
SELECT count(*) AS runs,
       count(*) FILTER (WHERE (s.status, s.message, s.detail, s.hint, s.median_pct, s.drop_pct, s.earlier_runs)
                        IS NOT DISTINCT FROM (p.status, p.message, p.detail, p.hint, p.median_pct, p.drop_pct, p.earlier_runs)) AS same
FROM scan_history_judge_runs(first_run => 0, min_pct => 55, window_days => 2) s,
     scan_history_judge(s.run, min_pct => 55, window_days => 2) p;
SELECT string_agg(status, ',' ORDER BY run) FROM scan_history_judge_runs(first_run => :kept, last_run => :kept);
SELECT count(*) FROM scan_history_judge_runs(servers => '{nowhere}');
SELECT * FROM scan_history_judge_runs();
SELECT * FROM scan_history_judge_runs(0, window_days => 0);
DELETE FROM scan_history WHERE id = :kept;

-- Metrics: names, labels and values of the latest runs (timestamps aside).
SELECT sb_seed(0.4, 70, rel => E'we"ird\\na\nme') IS NOT NULL;
SELECT line FROM regexp_split_to_table(scanbench_metrics(), E'\n') AS line
WHERE line NOT LIKE 'scanbench_last_run_timestamp_seconds{%';

-- The chart: one circle of class "run" per run.
SELECT (SELECT count(*) FROM regexp_matches(scan_history_svg(NULL, NULL), 'class="run"', 'g'))
       = (SELECT count(*) FROM scan_history) AS one_point_per_run;
SELECT scan_history_svg('sb_empty') LIKE '%No recorded runs%' AS empty_chart;

-- Retention.
SELECT scan_history_prune('9 days');
SELECT count(*) FROM scan_history WHERE measured_at < now() - interval '9 days';

-- Bad arguments are refused before anything is measured.
SELECT count(*) AS runs_before FROM scan_history \gset
SELECT * FROM scan_history_judge(0);
SELECT max(id) AS some_run FROM scan_history \gset
SELECT * FROM scan_history_judge(:some_run, max_drop_pct => 0);
SELECT * FROM scan_history_judge(:some_run, warn_drop_pct => 30);
SELECT * FROM scan_history_judge(:some_run, window_days => 0);
CALL efficiency_check('sb_t', max_drop_pct => 150);
CALL efficiency_check('sb_t', min_pct => -1);
CALL efficiency_check(NULL);
CALL efficiency_check('sb_view');
CALL efficiency_check('sb_t', 'lukewarm');
CALL efficiency_check('sb_t', max_seconds => -1);
SELECT count(*) = :runs_before AS nothing_recorded FROM scan_history;
SELECT scan_history_prune('1 hour');
SELECT scan_history_svg(days => 0);
SELECT scan_history_svg(days => 2147483647);
SELECT scan_history_svg('sb_t', cache => 'bogus');
-- The grants the README gives a role that runs the check are enough;
-- pg_monitor reads the history and its summaries but cannot check.
CREATE ROLE regress_checker;
GRANT EXECUTE ON PROCEDURE efficiency_check TO regress_checker;
GRANT EXECUTE ON FUNCTION scan_efficiency, scanbench_internal.scan_history_measure,
                          scan_history_record, scanbench_internal.scan_history_kernel, scan_history_judge,
                          storage_info(regclass) TO regress_checker;
GRANT SELECT, INSERT ON scan_history TO regress_checker;
GRANT USAGE ON SEQUENCE scan_history_id_seq TO regress_checker;
GRANT SELECT ON sb_t TO regress_checker;
CREATE ROLE regress_watcher IN ROLE pg_monitor;
SET ROLE regress_checker;
SET client_min_messages = error;
CALL efficiency_check('sb_t', 'asis');
SET client_min_messages = warning;
RESET ROLE;
SELECT relname, recorded_by FROM scan_history ORDER BY id DESC LIMIT 1;
-- The check keeps the limits it judged the run with, and judging the run
-- again gives the status the check gave.
SET ROLE regress_checker;
SET client_min_messages = error;
CALL efficiency_check('sb_t', 'asis', min_pct => 0.5, max_drop_pct => 99, warn_drop_pct => NULL, window_days => 7, max_seconds => 2);
SET client_min_messages = warning;
RESET ROLE;
SELECT limit_min_pct, limit_max_drop_pct, limit_warn_pct, limit_warn_drop_pct, limit_window_days,
       (SELECT message FROM scan_history_judge(h.id)) =
       (SELECT message FROM scan_history_judge(h.id, min_pct => 0.5, max_drop_pct => 99,
                                               warn_drop_pct => NULL, window_days => 7)) AS same_judgement
FROM scan_history h ORDER BY id DESC LIMIT 1;
SET ROLE regress_watcher;
SELECT count(*) > 0 AS reads_history FROM scan_history;
SELECT relation, cache, runs > 0 AS has_runs FROM scan_trend WHERE relation = 'public.sb_t' ORDER BY cache;
SELECT scanbench_metrics() LIKE '%schema="public",relation="sb_t"%' AS reads_metrics;
SELECT scan_history_svg('sb_t', 'asis') LIKE '<svg%' AS draws;
CALL efficiency_check('sb_t', 'asis');
DELETE FROM scan_history;
RESET ROLE;
DROP ROLE regress_watcher;
DROP OWNED BY regress_checker;
DROP ROLE regress_checker;

-- Inside a transaction block the run cannot be committed first: refused
-- before anything is measured.
BEGIN;
CALL efficiency_check('sb_t', 'asis');
ROLLBACK;
DROP FUNCTION sb_seed;
TRUNCATE scan_history;
RESET client_min_messages;

-- The verdict's marks, from the library's one table of them (the history,
-- the fleet and the docs check read it): each named once and explained, a
-- mark that sets runs apart only on runs that are judged, and the marks
-- that say there is no judged figure.
SELECT count(*) = count(DISTINCT mark) AS named_once,
       bool_and(meaning <> '') AS explained,
       bool_and(judged OR NOT compared_apart) AS apart_only_judged
FROM scan_verdict_marks();
SELECT mark, judged, reads_judged, compared_apart FROM scan_verdict_marks()
WHERE mark IN ('ok', 'unstable', 'cached', 'burst', 'empty', 'over_budget')
ORDER BY mark;

-- What changed, from the rows given (scanbench_internal.scan_history_changes,
-- the verdict's words): each fact against the value most compared runs
-- had, the latest of equally common ones; block_size both a fact and a
-- setting; an I/O limit not set is "none"; the size against the median
-- size; in the facts' order, then the words'.  Nothing given, nothing.
WITH w(n, j) AS (VALUES
	(1, '{"measured_at": "2026-01-01", "kernel": "6.1", "device": "sda", "bytes": 1000, "block_size": 8192,
		"settings": {"block_size": "8192", "effective_io_concurrency": "1"}}'),
	(2, '{"measured_at": "2026-01-02", "kernel": "6.1", "device": "sdb", "bytes": 1200, "block_size": 8192,
		"settings": {"block_size": "8192", "effective_io_concurrency": "1"}}'),
	(3, '{"measured_at": "2026-01-03", "kernel": "6.2", "device": "sdc", "bytes": 1100, "block_size": 8192,
		"read_bps_limit": 1000, "settings": {"block_size": "8192", "effective_io_concurrency": 1}}')
), cur(j) AS (VALUES
	('{"measured_at": "2026-01-04", "kernel": "6.3", "device": "sdc", "bytes": 2000, "block_size": 16384,
	   "settings": {"block_size": "16384", "effective_io_concurrency": "2", "new_setting": "on"}}')
)
SELECT scanbench_internal.scan_history_changes(jsonb_populate_record(NULL::scan_history, cur.j::jsonb),
		   ARRAY(SELECT jsonb_populate_record(NULL::scan_history, w.j::jsonb) FROM w ORDER BY w.n)) AS changed,
	   scanbench_internal.scan_history_changes(jsonb_populate_record(NULL::scan_history, cur.j::jsonb),
		   ARRAY(SELECT jsonb_populate_record(NULL::scan_history, w.j::jsonb) FROM w WHERE w.n > 1)) AS two_alike,
	   scanbench_internal.scan_history_changes(jsonb_populate_record(NULL::scan_history, cur.j::jsonb), NULL) IS NULL
		   AS none_compared,
	   scanbench_internal.scan_history_changes(NULL, ARRAY(SELECT jsonb_populate_record(NULL::scan_history, w.j::jsonb) FROM w))
		   IS NULL AS no_run
FROM cur;
