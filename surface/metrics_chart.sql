--
-- ==== Metrics and chart ====
--
-- The latest run of each server, relation and cache mode in the
-- Prometheus text exposition format (version 0.0.4), for node_exporter's
-- textfile collector: psql -At -c 'SELECT scanbench_metrics()' > scanbench.prom
-- Every family is a gauge; rates are in bytes per second, as Prometheus
-- names units; a figure not measured (NULL) has no sample.  A fleet's run
-- in a central history carries the server's name (label server) and its
-- tags (label cohort, key=value joined by commas in key order: the
-- servers scanbench-fleet compares with each other share it); this
-- server's own runs carry neither, as before 0.5.0.
--
-- @begin scanbench_metrics
-- @index 190 | `scanbench_metrics()`, `scan_history_svg(rel, …)` | the latest runs for Prometheus; the history as SVG |
CREATE FUNCTION scanbench_metrics() RETURNS text
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
-- Compiling the statement (its estimate is far above jit_above_cost)
-- cost more than running it: 8.9 s against 2.3 s for 10,000 series.
SET jit = off
BEGIN ATOMIC
	WITH kept AS (
		-- The series kept as runs are recorded (scan_history_series): the
		-- scrape reads each series' row and its latest run.  On a history
		-- distributed by Citus, which takes no statement trigger, they are
		-- not kept, and the scrape reads the history itself (below).
		SELECT scanbench_internal.scan_history_series_kept() AS yes
	), from_series AS (
		-- Each series' latest run read from its month's key, one series
		-- at a time (a join would read every month of the history).
		SELECT sh.*, s.recorded, s.median_pct, s.compared_runs::pg_catalog.int8 AS compared_runs
		FROM @extschema@.scan_history_series s
		CROSS JOIN LATERAL scanbench_internal.scan_history_series_latest(s.server, s.relschema, s.relname,
																		  s.cache, s.last_at, s.last_id) AS sh
		WHERE (SELECT k.yes FROM kept k) AND sh.id IS NOT NULL
	), series AS (
		-- Where they are not kept: each series' runs recorded and its
		-- latest time, hashed in one pass over the history without
		-- sorting it.  Only the runs of the
		-- 30 days up to the latest can be compared with it, so only those
		-- are read again below and sorted: a year of nightly runs is a
		-- twelfth of the history.  The series' columns are joined on as
		-- values that can be hashed: a NULL server (this server's own
		-- runs) or schema is its own value, never equal to a name.
		SELECT sh.server IS NULL AS no_server, coalesce(sh.server, ''::pg_catalog.text) AS server_key,
			   sh.relschema IS NULL AS no_schema, coalesce(sh.relschema, ''::pg_catalog.text) AS schema_key,
			   sh.relname, sh.cache,
			   pg_catalog.count(*) AS recorded,
			   pg_catalog.max(sh.measured_at) AS last_at
		FROM @extschema@.scan_history sh
		WHERE NOT (SELECT k.yes FROM kept k)
		GROUP BY 1, 2, 3, 4, sh.relname, sh.cache
	), from_history AS (
		-- The latest run of each series, with the median it is compared
		-- with, in one pass over each series' recent runs
		-- (scan_history_compared's rule, against the latest run's marks);
		-- no query on the history runs inside another, which Citus would
		-- send to a node.
		SELECT (c.run).*, c.recorded,
			   (SELECT pg_catalog.round(pg_catalog.percentile_cont(0.5::pg_catalog.float8)
										WITHIN GROUP (ORDER BY x.pct)::pg_catalog.numeric, 1)::pg_catalog.float8
				FROM pg_catalog.unnest(c.compared_pct) AS x(pct)) AS median_pct,
			   c.compared_runs
		FROM (SELECT s.*,
					 pg_catalog.count(*) FILTER (WHERE s.compared) OVER whole AS compared_runs,
					 pg_catalog.array_agg(s.scan_pct) FILTER (WHERE s.compared) OVER whole AS compared_pct
			  FROM (SELECT w.*,
						   w.reason IS NULL AND w.relschema IS NOT NULL
						   AND w.id OPERATOR(pg_catalog.<>) w.last_id
						   AND scanbench_internal.scan_history_usable(w.scan_pct)
						   AND pg_catalog.isfinite(w.measured_at)
						   AND w.marks OPERATOR(pg_catalog.=) w.last_marks
						   AND w.measured_at OPERATOR(pg_catalog.<=) w.last_at
						   AND w.measured_at OPERATOR(pg_catalog.>) (w.last_at OPERATOR(pg_catalog.-)
																	 pg_catalog.make_interval(days => 30)) AS compared
					FROM (SELECT j.*,
								 pg_catalog.row_number() OVER series AS newest,
								 pg_catalog.first_value(j.id) OVER series AS last_id,
								 pg_catalog.first_value(coalesce(j.marks, ''::pg_catalog.text)) OVER series AS last_marks
						  FROM (SELECT sh.*, sh AS run, scanbench_internal.scan_history_marks(sh.verdict) AS marks,
									   g.recorded, g.last_at
								FROM @extschema@.scan_history sh
								JOIN series g
								  ON g.no_server OPERATOR(pg_catalog.=) (sh.server IS NULL)
								 AND g.server_key OPERATOR(pg_catalog.=) coalesce(sh.server, ''::pg_catalog.text)
								 AND g.no_schema OPERATOR(pg_catalog.=) (sh.relschema IS NULL)
								 AND g.schema_key OPERATOR(pg_catalog.=) coalesce(sh.relschema, ''::pg_catalog.text)
								 AND g.relname OPERATOR(pg_catalog.=) sh.relname
								 AND g.cache OPERATOR(pg_catalog.=) sh.cache
								-- >=, not >: an infinite latest time (a row
								-- kept from before the history checked them)
								-- keeps its own row.
								WHERE sh.measured_at OPERATOR(pg_catalog.>=) (g.last_at OPERATOR(pg_catalog.-)
																		   pg_catalog.make_interval(days => 30))) AS j
						  WINDOW series AS (PARTITION BY j.server, j.relschema, j.relname, j.cache
											ORDER BY j.measured_at DESC, j.id DESC)) AS w) AS s
			  WINDOW whole AS (PARTITION BY s.server, s.relschema, s.relname, s.cache)) AS c
		WHERE c.newest OPERATOR(pg_catalog.=) 1
	), latest AS (
		SELECT * FROM from_series
		UNION ALL
		SELECT * FROM from_history
	), labelled AS MATERIALIZED (
		-- The schema and the relation are labels of their own, each
		-- escaped (backslash, double quote, line feed), so that a."b.c"
		-- and "a.b".c are two series.  Made once a series: inlined, they
		-- were made again for each of its 11 to 14 samples, two thirds of
		-- the scrape.
		SELECT l.*,
			CASE WHEN l.server IS NOT NULL THEN
				pg_catalog.format('server="%s",'::pg_catalog.text,
				   pg_catalog.replace(pg_catalog.replace(pg_catalog.replace(l.server,
					E'\\'::pg_catalog.text, E'\\\\'::pg_catalog.text), '"'::pg_catalog.text, E'\\"'::pg_catalog.text),
					E'\n'::pg_catalog.text, E'\\n'::pg_catalog.text)) ELSE ''::pg_catalog.text END
			OPERATOR(pg_catalog.||)
			pg_catalog.format('schema="%s",relation="%s",cache="%s"'::pg_catalog.text,
				   pg_catalog.replace(pg_catalog.replace(pg_catalog.replace(coalesce(l.relschema, ''::pg_catalog.text),
					E'\\'::pg_catalog.text, E'\\\\'::pg_catalog.text), '"'::pg_catalog.text, E'\\"'::pg_catalog.text),
					E'\n'::pg_catalog.text, E'\\n'::pg_catalog.text),
				   pg_catalog.replace(pg_catalog.replace(pg_catalog.replace(l.relname,
					E'\\'::pg_catalog.text, E'\\\\'::pg_catalog.text), '"'::pg_catalog.text, E'\\"'::pg_catalog.text),
					E'\n'::pg_catalog.text, E'\\n'::pg_catalog.text),
				   pg_catalog.replace(pg_catalog.replace(pg_catalog.replace(l.cache,
					E'\\'::pg_catalog.text, E'\\\\'::pg_catalog.text), '"'::pg_catalog.text, E'\\"'::pg_catalog.text),
					E'\n'::pg_catalog.text, E'\\n'::pg_catalog.text))
			OPERATOR(pg_catalog.||)
			CASE WHEN l.tags IS NOT NULL THEN
				pg_catalog.format(',cohort="%s"'::pg_catalog.text,
				   pg_catalog.replace(pg_catalog.replace(pg_catalog.replace(
					(SELECT coalesce(pg_catalog.string_agg(t.key OPERATOR(pg_catalog.||) '='::pg_catalog.text OPERATOR(pg_catalog.||) t.value,
														   ','::pg_catalog.text ORDER BY t.key), ''::pg_catalog.text)
					 FROM pg_catalog.jsonb_each_text(l.tags) AS t),
					E'\\'::pg_catalog.text, E'\\\\'::pg_catalog.text), '"'::pg_catalog.text, E'\\"'::pg_catalog.text),
					E'\n'::pg_catalog.text, E'\\n'::pg_catalog.text)) ELSE ''::pg_catalog.text END AS labels
		FROM latest l
	), families (ord, name, help) AS (VALUES
		(1, 'scanbench_scan_efficiency_percent',
		 'Scan rate of the latest recorded run as a percentage of the raw read rate of the same files.'),
		(2, 'scanbench_scan_efficiency_lower_percent',
		 'Lower end of the 95 % confidence interval of the latest run''s scan efficiency.'),
		(3, 'scanbench_scan_efficiency_upper_percent',
		 'Upper end of the 95 % confidence interval of the latest run''s scan efficiency.'),
		(4, 'scanbench_scan_efficiency_median_percent',
		 'The median the latest run is compared with: earlier judged runs with its marks in the 30 days up to it.'),
		(5, 'scanbench_read_bytes_per_second',
		 'Raw read rate of the relation''s files in the latest run.'),
		(6, 'scanbench_scan_bytes_per_second',
		 'Executor count(1) scan rate of the relation in the latest run.'),
		(7, 'scanbench_run_judged',
		 '1 when the latest run could be judged, 0 when it was unstable, cached or a burst.'),
		(8, 'scanbench_verdict_info',
		 'Verdict of the latest run, as a label.'),
		(9, 'scanbench_last_run_timestamp_seconds',
		 'When the latest run was measured, seconds since the Unix epoch.'),
		(10, 'scanbench_recorded_runs',
		 'Runs of the relation and cache mode in the history.'),
		(11, 'scanbench_cpu_limit_cores',
		 'CPUs the server''s control group may use in the latest run (its quota over its period); absent when it has no quota.'),
		(12, 'scanbench_read_limit_bytes_per_second',
		 'Read throttle of the data''s device for the server''s control group in the latest run; absent when none.'),
		(13, 'scanbench_read_limit_iops',
		 'Read throttle of the data''s device for the server''s control group in the latest run, I/O operations/s; absent when none.'),
		(14, 'scanbench_compared_runs',
		 'Earlier judged runs the median is taken over (a drop is judged from 3 on).')
	), figures (ord, labels, id, value) AS (
		SELECT v.ord, CASE WHEN v.ord OPERATOR(pg_catalog.=) 8 THEN l.labels OPERATOR(pg_catalog.||)
					pg_catalog.format(',verdict="%s"'::pg_catalog.text,
						pg_catalog.replace(pg_catalog.replace(pg_catalog.replace(coalesce(pg_catalog.array_to_string(l.verdict, ','::pg_catalog.text), ''::pg_catalog.text),
					E'\\'::pg_catalog.text, E'\\\\'::pg_catalog.text), '"'::pg_catalog.text, E'\\"'::pg_catalog.text),
					E'\n'::pg_catalog.text, E'\\n'::pg_catalog.text))
				ELSE l.labels END, l.id, v.value
		FROM labelled l, LATERAL (VALUES
			(1, l.scan_pct), (2, l.scan_pct_lo), (3, l.scan_pct_hi),
			(4, pg_catalog.round(l.median_pct::pg_catalog.numeric, 1)::pg_catalog.float8),
			(5, pg_catalog.round(l.read_mb_s OPERATOR(pg_catalog.*) 1e6::pg_catalog.float8)),
			(6, pg_catalog.round(l.scan_mb_s OPERATOR(pg_catalog.*) 1e6::pg_catalog.float8)),
			(7, CASE WHEN l.scan_pct IS NULL THEN NULL
				WHEN scanbench_internal.scan_history_marks(l.verdict) IS NULL
					 OR NOT scanbench_internal.scan_history_usable(l.scan_pct) THEN 0::pg_catalog.float8
				ELSE 1::pg_catalog.float8 END),
			(8, 1::pg_catalog.float8),
			(9, pg_catalog.date_part('epoch'::pg_catalog.text, l.measured_at)),
			(10, l.recorded::pg_catalog.float8),
			(11, pg_catalog.round(l.cpu_quota_us::pg_catalog.numeric
								  OPERATOR(pg_catalog./) CASE WHEN l.cpu_period_us OPERATOR(pg_catalog.>) 0::pg_catalog.int8
															   THEN l.cpu_period_us END::pg_catalog.numeric,
								  3)::pg_catalog.float8),
			(12, l.read_bps_limit::pg_catalog.float8),
			(13, l.read_iops_limit::pg_catalog.float8),
			(14, CASE WHEN l.scan_pct IS NOT NULL THEN l.compared_runs::pg_catalog.float8 END)) AS v(ord, value)
		WHERE v.value IS NOT NULL
	), samples AS (
		-- A figure that is not a finite number (a row kept from before the
		-- history checked its figures) has no sample: a comment says so.
		SELECT f.ord, f.labels, f.id, f.value,
			   f.value OPERATOR(pg_catalog.>) '-Infinity'::pg_catalog.float8
			   AND f.value OPERATOR(pg_catalog.<) 'Infinity'::pg_catalog.float8 AS finite
		FROM figures f
	)
	SELECT pg_catalog.string_agg(line, E'\n'::pg_catalog.text ORDER BY ord, sub, line)
	FROM (
		SELECT f.ord, 0 AS sub,
			   pg_catalog.format(E'# HELP %s %s\n# TYPE %s gauge'::pg_catalog.text, f.name, f.help, f.name) AS line
		FROM families f
		UNION ALL
		SELECT s.ord, 1, pg_catalog.format('%s{%s} %s'::pg_catalog.text, f.name, s.labels,
										   s.value::pg_catalog.text)
		FROM samples s JOIN families f ON f.ord OPERATOR(pg_catalog.=) s.ord
		WHERE s.finite
		UNION ALL
		SELECT s.ord, 2, pg_catalog.format('# %s{%s}: run %s has %s, not a finite figure, and no sample'::pg_catalog.text,
										   f.name, s.labels, s.id, s.value)
		FROM samples s JOIN families f ON f.ord OPERATOR(pg_catalog.=) s.ord
		WHERE NOT s.finite
		UNION ALL
		-- The workload's part, after the history's families: the latest
		-- workload_check's queries (surface/workload_check.sql).
		SELECT 1000 OPERATOR(pg_catalog.+) w.ord, w.sub, w.line
		FROM scanbench_internal.workload_metrics() w
	) AS lines;
END;

COMMENT ON FUNCTION scanbench_metrics() IS
'the latest run of each server, relation and cache mode in the Prometheus text exposition format (gauges; rates in bytes/s, efficiency in %; a fleet''s runs labelled with their server and cohort)';

REVOKE ALL ON FUNCTION scanbench_metrics() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION scanbench_metrics() TO pg_monitor;
-- @end scanbench_metrics

--
-- The history as a picture a DBA pastes into a ticket: scan efficiency
-- over time per relation, its 95 % interval as a band, the alarm limits as
-- dashed lines, read and scan MB/s on a second panel, and a line wherever
-- the storage facts, kernel or server version changed between two runs.
-- Drawn by src/chart.c from the runs one query reads.  Not STRICT: NULL
-- rel draws every relation, NULL cache every cache mode.
--
CREATE FUNCTION scan_history_svg(rel regclass DEFAULT NULL,
								 cache text DEFAULT 'cold',
								 days integer DEFAULT 90,
								 min_pct float8 DEFAULT NULL,
								 max_drop_pct float8 DEFAULT 20)
RETURNS text
AS 'MODULE_PATHNAME', 'scan_history_svg'
LANGUAGE C STABLE
SET search_path = pg_catalog, pg_temp;

COMMENT ON FUNCTION scan_history_svg(regclass, text, integer, float8, float8) IS
'SVG chart of the recorded runs of the last days (all relations when rel is NULL, all cache modes when cache is NULL): scan % with its interval and alarm limits, read and scan MB/s, changes of storage, kernel or server version';

REVOKE ALL ON FUNCTION scan_history_svg(regclass, text, integer, float8, float8) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION scan_history_svg(regclass, text, integer, float8, float8) TO pg_monitor;

