--
-- Per server, relation and cache mode: a central history holding a fleet's
-- runs gives each server its own row (server NULL: this server's runs).
-- The median is the alarm's (scan_history_compared's rule: the earlier
-- judged runs of the latest judged run's marks in its 30 days), found in
-- the same pass over the series' runs; min and max are over runs that
-- could be judged; change_pct is the latest judged run against that
-- median.  The server is the last column, where 0.5.0 added it.  Every
-- step is within one series, so a query for one server (WHERE server =
-- ...) reads that server's runs alone, through scan_history_server_idx,
-- and on a history distributed by server each shard gives its own
-- servers' rows (on one shard alone for one server).
--
CREATE VIEW scan_trend AS
SELECT t.relation, t.cache, t.runs, t.judged_runs, t.first_at, t.latest_at,
	   t.latest_pct, t.latest_verdict, t.median_pct, t.min_pct, t.max_pct,
	   pg_catalog.round(((100::pg_catalog.float8 OPERATOR(pg_catalog.*) t.latest_judged_pct
						  OPERATOR(pg_catalog./) CASE WHEN t.median_pct OPERATOR(pg_catalog.<>) 0::pg_catalog.float8
													   THEN t.median_pct END)
						 OPERATOR(pg_catalog.-) 100::pg_catalog.float8)::pg_catalog.numeric, 1)::pg_catalog.float8
		   AS change_pct,
	   t.latest_read_mb_s, t.latest_scan_mb_s, t.server
FROM (SELECT h.server, pg_catalog.format('%I.%I'::pg_catalog.text, h.relschema, h.relname) AS relation,
			 h.cache,
			 pg_catalog.count(*) AS runs,
			 pg_catalog.count(*) FILTER (WHERE h.judged) AS judged_runs,
			 pg_catalog.min(h.measured_at) AS first_at,
			 pg_catalog.max(h.measured_at) AS latest_at,
			 (pg_catalog.array_agg(h.scan_pct ORDER BY h.measured_at DESC, h.id DESC))[1] AS latest_pct,
			 -- array_agg of arrays makes a two-dimensional array: the latest
			 -- verdict is taken as text and split again.
			 pg_catalog.string_to_array((pg_catalog.array_agg(pg_catalog.array_to_string(h.verdict, ','::pg_catalog.text)
									ORDER BY h.measured_at DESC, h.id DESC))[1], ','::pg_catalog.text) AS latest_verdict,
			 pg_catalog.min(h.scan_pct) FILTER (WHERE h.judged) AS min_pct,
			 pg_catalog.max(h.scan_pct) FILTER (WHERE h.judged) AS max_pct,
			 (pg_catalog.array_agg(h.scan_pct ORDER BY h.measured_at DESC, h.id DESC)
			  FILTER (WHERE h.judged))[1] AS latest_judged_pct,
			 (pg_catalog.array_agg(h.read_mb_s ORDER BY h.measured_at DESC, h.id DESC))[1] AS latest_read_mb_s,
			 (pg_catalog.array_agg(h.scan_mb_s ORDER BY h.measured_at DESC, h.id DESC))[1] AS latest_scan_mb_s,
			 pg_catalog.round((pg_catalog.percentile_cont(0.5::pg_catalog.float8) WITHIN GROUP (ORDER BY h.scan_pct)
							   FILTER (WHERE h.compared))::pg_catalog.numeric, 1)::pg_catalog.float8 AS median_pct
	  FROM (SELECT s.*,
				   -- the latest judged run's window (scan_history_compared)
				   s.last_judged AND s.reason IS NULL AND s.judged
				   AND s.relschema IS NOT NULL
				   AND s.id OPERATOR(pg_catalog.<>) s.last_id
				   AND s.marks OPERATOR(pg_catalog.=) s.last_marks
				   AND s.measured_at OPERATOR(pg_catalog.<=) s.last_at
				   AND s.measured_at OPERATOR(pg_catalog.>) (s.last_at OPERATOR(pg_catalog.-)
															 pg_catalog.make_interval(days => 30)) AS compared
			FROM (SELECT j.*,
						 pg_catalog.first_value(j.judged) OVER series AS last_judged,
						 pg_catalog.first_value(j.id) OVER series AS last_id,
						 pg_catalog.first_value(j.marks) OVER series AS last_marks,
						 pg_catalog.first_value(j.measured_at) OVER series AS last_at
				  FROM (SELECT sh.*, scanbench_internal.scan_history_marks(sh.verdict) AS marks,
							   scanbench_internal.scan_history_marks(sh.verdict) IS NOT NULL
							   AND scanbench_internal.scan_history_usable(sh.scan_pct)
							   AND pg_catalog.isfinite(sh.measured_at) AS judged
						FROM @extschema@.scan_history sh) AS j
				  WINDOW series AS (PARTITION BY j.server, j.relschema, j.relname, j.cache
									ORDER BY j.judged DESC, j.measured_at DESC, j.id DESC)) AS s) AS h
	  GROUP BY h.server, h.relschema, h.relname, h.cache) AS t;

COMMENT ON VIEW scan_trend IS
'scan efficiency per server, relation and cache mode over the recorded runs';
COMMENT ON COLUMN scan_trend.relation IS 'schema-qualified name';
COMMENT ON COLUMN scan_trend.cache IS 'cache mode';
COMMENT ON COLUMN scan_trend.runs IS 'recorded runs';
COMMENT ON COLUMN scan_trend.judged_runs IS 'runs that could be judged (not unstable, not cached)';
COMMENT ON COLUMN scan_trend.first_at IS 'first recorded run';
COMMENT ON COLUMN scan_trend.latest_at IS 'latest recorded run';
COMMENT ON COLUMN scan_trend.latest_pct IS 'scan efficiency of the latest run, %';
COMMENT ON COLUMN scan_trend.latest_verdict IS 'verdict marks of the latest run';
COMMENT ON COLUMN scan_trend.median_pct IS 'the median the latest judged run is compared with (scan_history_median: earlier judged runs of the same marks in 30 days), %';
COMMENT ON COLUMN scan_trend.min_pct IS 'lowest scan efficiency of the judged runs, %';
COMMENT ON COLUMN scan_trend.max_pct IS 'highest scan efficiency of the judged runs, %';
COMMENT ON COLUMN scan_trend.change_pct IS 'latest judged run against median_pct, % (negative: lower)';
COMMENT ON COLUMN scan_trend.latest_read_mb_s IS 'raw read rate of the latest run, MB/s';
COMMENT ON COLUMN scan_trend.latest_scan_mb_s IS 'scan rate of the latest run, MB/s';
COMMENT ON COLUMN scan_trend.server IS 'the server measured, as scan_history names it (scanbench-fleet''s runs); NULL: this server';

GRANT SELECT ON scan_trend TO pg_monitor;

