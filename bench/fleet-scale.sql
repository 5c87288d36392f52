-- bench/fleet-scale.sql: the rows of a synthetic fleet's central history,
-- written to standard output in COPY's text format, with scanbench-fleet's
-- columns in its order (bin/scanbench-fleet/measure.c, history_columns).
-- bench/fleet-scale.sh runs it with psql and feeds the output to COPY.
--
-- Variables (psql -v): servers, relations, days (the year's length),
-- day_from and day_to (the days written, 0 = the first; day "days" is the
-- night after the year), state (the random state: the same variables give
-- the same rows, whatever the machine).
--
-- Every figure comes from a hash of the random state and the run's place
-- (server, relation, day), so no row depends on another and any range of
-- days can be written alone.  Each server has a level of its own (scan
-- efficiency 55-90 %, read rate 150-2000 MB/s), each relation an offset,
-- each run noise around them.  A few odd servers: every 487th from the
-- 13th has its reads throttled to 20 MB/s (io_limited, high efficiency),
-- every 733rd from the 7th drops by 30 % in the last 20 days of the year
-- with a new kernel; 3 % of runs are unstable, 1 % cached, 0.2 % rows of a
-- server that could not be reached, and every tenth server is a standby.
CREATE FUNCTION pg_temp.u(k bigint, salt integer, state bigint) RETURNS float8
LANGUAGE sql IMMUTABLE
RETURN (pg_catalog.hashint8extended(k * 64 + salt, state) & 2147483647)::float8 / 2147483648.0;

COPY (
	WITH runs AS (
		SELECT s, r, d,
			   (d::bigint * :servers + s) * :relations + r AS k,
			   s % 487 = 13 AS throttled,
			   s % 733 = 7 AND d >= :days - 20 AS dropped
		FROM generate_series(:day_from, :day_to) AS d,
			 generate_series(1, :servers) AS s,
			 generate_series(1, :relations) AS r
	), figures AS (
		SELECT runs.*,
			   pg_temp.u(k, 9, :state) < 0.002 AS unreached,
			   pg_temp.u(k, 7, :state) AS v,
			   -- efficiency: the server's level, the relation's offset, noise
			   least(100.0, greatest(1.0,
				   (CASE WHEN throttled THEN 96.0 ELSE 55.0 + 35.0 * pg_temp.u(s, 1, :state) END
					+ CASE WHEN throttled THEN 0 ELSE -6.0 + 12.0 * pg_temp.u(r, 2, :state) END
					+ 4.0 * (pg_temp.u(k, 3, :state) + pg_temp.u(k, 4, :state) + pg_temp.u(k, 5, :state) - 1.5))
				   * CASE WHEN dropped THEN 0.7 ELSE 1.0 END)) AS pct,
			   1.0 + 3.0 * pg_temp.u(k, 6, :state) AS half,
			   CASE WHEN throttled THEN 20.0 * (0.97 + 0.06 * pg_temp.u(k, 8, :state))
			   ELSE (150.0 + 1850.0 * pg_temp.u(s, 10, :state)) * (0.9 + 0.2 * pg_temp.u(k, 8, :state)) END AS read_mb_s,
			   ((r + 1)::bigint << 28) * (1000 + d) / 1000 AS bytes,
			   0.1 + 0.3 * pg_temp.u(k, 11, :state) AS coverage
		FROM runs
	)
	SELECT
		pg_catalog.timestamptz(current_date - :days) + pg_catalog.make_interval(days => d, hours => 1,
			secs => (s * 7 % 7200) + r * 20) AS measured_at,
		CASE WHEN NOT unreached THEN 16384 + r END AS relid,
		'public' AS relschema,
		coalesce((ARRAY['lineitem', 'orders', 'customer', 'partsupp', 'part', 'supplier',
				'events', 'audit_log', 'sessions', 'invoices'])[r], 'table_' || r) AS relname,
		'cold' AS cache,
		CASE WHEN NOT unreached THEN bytes END AS bytes,
		CASE WHEN NOT unreached THEN bytes / 140 END AS rows,
		CASE WHEN NOT unreached THEN 8192 END AS block_size,
		CASE WHEN NOT unreached THEN 3 END AS runs,
		CASE WHEN NOT unreached THEN round(read_mb_s::numeric, 1) END AS read_mb_s,
		CASE WHEN NOT unreached THEN round((read_mb_s * pct / 100)::numeric, 1) END AS scan_mb_s,
		CASE WHEN NOT unreached THEN round(pct::numeric, 1) END AS scan_pct,
		CASE WHEN NOT unreached THEN round(greatest(0, pct - half)::numeric, 1) END AS scan_pct_lo,
		CASE WHEN NOT unreached THEN round((pct + half)::numeric, 1) END AS scan_pct_hi,
		CASE WHEN NOT unreached THEN round(greatest(0, pct - 2 * half)::numeric, 1) END AS scan_pct_p10,
		CASE WHEN NOT unreached THEN round((pct + 2 * half)::numeric, 1) END AS scan_pct_p90,
		CASE WHEN NOT unreached THEN round((bytes * coverage / 1e6 / read_mb_s)::numeric, 3) END AS read_s,
		CASE WHEN NOT unreached THEN round((bytes * coverage / 1e6 / (read_mb_s * pct / 100))::numeric, 3) END AS scan_s,
		CASE WHEN NOT unreached THEN CASE WHEN v < 0.04 AND v >= 0.03 THEN 35.0 ELSE 0.2 END END AS read_cached_pct,
		CASE WHEN NOT unreached THEN CASE WHEN v < 0.04 AND v >= 0.03 THEN 38.0 ELSE 0.3 END END AS scan_cached_pct,
		CASE WHEN NOT unreached THEN 'pairs' END AS method,
		CASE WHEN NOT unreached THEN 8 + (pg_catalog.hashint8extended(k, :state) & 15) END AS pairs,
		CASE WHEN NOT unreached THEN round((100 * coverage)::numeric, 1) END AS coverage_pct,
		CASE WHEN NOT unreached THEN round((2.2 * bytes * coverage / 1e6 / read_mb_s)::numeric, 3) END AS elapsed_s,
		CASE WHEN unreached THEN NULL
			 WHEN v < 0.03 THEN '{unstable}'
			 WHEN v < 0.04 THEN '{cached}'
			 WHEN throttled THEN '{io_limited}'
			 ELSE '{ok}' END AS verdict,
		NULL AS write_mb_s,
		CASE WHEN NOT unreached THEN CASE WHEN s % 5 = 0 THEN 'xfs' ELSE 'ext4' END END AS filesystem,
		CASE WHEN NOT unreached THEN CASE WHEN s % 3 = 0 THEN 'vdb' ELSE 'nvme0n1' END END AS device,
		CASE WHEN NOT unreached THEN CASE WHEN s % 3 = 0 THEN 'mq-deadline' ELSE 'none' END END AS scheduler,
		CASE WHEN NOT unreached THEN 128 END AS read_ahead_kb,
		CASE WHEN NOT unreached THEN CASE WHEN dropped THEN '6.1.0-31-amd64' ELSE '6.1.0-28-amd64' END END AS kernel,
		(ARRAY['15.10', '16.6', '17.2'])[1 + s % 3] AS server_version,
		CASE WHEN NOT unreached THEN '{"effective_io_concurrency": "1", "maintenance_io_concurrency": "10"}' END AS settings,
		CASE WHEN NOT unreached THEN round((0.01 * pg_temp.u(k, 12, :state))::numeric, 4) END AS cpu_wait_s,
		NULL AS cpu_throttled_s, NULL AS cpu_quota_us, NULL AS cpu_period_us,
		CASE WHEN throttled AND NOT unreached THEN 20971520 END AS read_bps_limit,
		NULL AS write_bps_limit, NULL AS read_iops_limit, NULL AS write_iops_limit,
		'db' || lpad(s::text, 5, '0') AS server,
		7300000000000000000 + s AS system_identifier,
		'db' || lpad(s::text, 5, '0') || '.example.net' AS server_host,
		5432 AS server_port,
		CASE WHEN s % 10 = 0 THEN 'standby' ELSE 'primary' END AS server_role,
		pg_catalog.jsonb_build_object('class', (ARRAY['oltp', 'reporting', 'batch'])[1 + s % 3],
									  'zone', 'z' || (s % 4)) AS tags,
		CASE WHEN unreached THEN 'could not connect: connection refused' END AS reason
	FROM figures
) TO STDOUT;
