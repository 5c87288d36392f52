--
-- The judge of a scan_efficiency figure, fed with figures given as they
-- are (scanbench_internal.judge_figure): each rule's threshold from both
-- sides, so that a threshold moved by mistake fails here.  A stable cold
-- figure of a storage-limited scan is the base every case changes one or
-- two figures of: median 50, interval 49 to 51 (+-2 %).
--
\set SHOW_CONTEXT never
CREATE FUNCTION pg_temp.j(extra jsonb) RETURNS text
LANGUAGE sql AS $$
SELECT scanbench_internal.judge_figure(
	'{"cache": "cold", "n": 40, "median": 50, "lo": 49, "hi": 51}'::jsonb || extra)
$$;

-- The base: ok.
SELECT pg_temp.j('{}');

-- unstable: the interval's half-width over target_pct (5 when 0 or not given).
SELECT pg_temp.j('{"lo": 47.55, "hi": 52.45}') AS "4.9 %",
	   pg_temp.j('{"lo": 47.45, "hi": 52.55}') AS "5.1 %",
	   pg_temp.j('{"lo": 47.45, "hi": 52.55, "target_pct": 6}') AS "5.1 % of 6",
	   pg_temp.j('{"lo": null, "hi": null}') AS "no interval";

-- cached: more than 5 % of the blocks still cached after eviction, cold only.
SELECT pg_temp.j('{"cached_pct": 5}') AS "5 %",
	   pg_temp.j('{"cached_pct": 5.1}') AS "5.1 %",
	   pg_temp.j('{"cached_pct": 50, "cache": "warm"}') AS "warm";

-- host_cache: cold buffered reads over 1.1 times O_DIRECT's, outside limits.
SELECT pg_temp.j('{"host_ratio": 1.1}') AS "1.1",
	   pg_temp.j('{"host_ratio": 1.11}') AS "1.11",
	   pg_temp.j('{"host_ratio": 2, "cache": "warm"}') AS "warm",
	   pg_temp.j('{"host_ratio": 2, "read_bps": 100000000, "read_mb_s": 95}') AS "at a throttle";

-- io_limited: reads at 90 % of a byte throttle, or 80 % of a request one.
SELECT pg_temp.j('{"read_bps": 100000000, "read_mb_s": 89.9}') AS "89.9 of 100 MB/s",
	   pg_temp.j('{"read_bps": 100000000, "read_mb_s": 90}') AS "90 of 100 MB/s",
	   pg_temp.j('{"read_iops_limit": 400, "read_iops": 319.9}') AS "319.9 of 400/s",
	   pg_temp.j('{"read_iops_limit": 400, "read_iops": 320}') AS "320 of 400/s";

-- burst: faster than 1.1 times a limit allows.
SELECT pg_temp.j('{"read_bps": 100000000, "read_mb_s": 110}') AS "110 of 100 MB/s",
	   pg_temp.j('{"read_bps": 100000000, "read_mb_s": 110.1}') AS "110.1 of 100 MB/s",
	   pg_temp.j('{"read_iops_limit": 400, "read_iops": 440.1}') AS "440.1 of 400/s",
	   pg_temp.j('{"cpu_quota_us": 50000, "cpu_period_us": 100000, "timed_s": 10, "cpu_busy_s": 5.5}') AS "0.55 of 0.5 CPU",
	   pg_temp.j('{"cpu_quota_us": 50000, "cpu_period_us": 100000, "timed_s": 10, "cpu_busy_s": 5.51}') AS "0.551 of 0.5 CPU";

-- cpu_contended: others' CPU kept the backend waiting over 10 % of the
-- timed time (what its own quota held back is not others').
SELECT pg_temp.j('{"timed_s": 10, "cpu_wait_s": 1}') AS "10 %",
	   pg_temp.j('{"timed_s": 10, "cpu_wait_s": 1.01}') AS "10.1 %",
	   pg_temp.j('{"timed_s": 10, "cpu_wait_s": 2, "throttled_s": 1}') AS "10 % besides the quota's";

-- cpu_limited: the quota held the passes back over 5 % of their time, and
-- the scan ran at 90 % of its warm ceiling or used 85 % of the quota.
SELECT pg_temp.j('{"cpu_quota_us": 50000, "cpu_period_us": 100000, "timed_s": 10, "throttled_s": 0.5}') AS "5 % held",
	   pg_temp.j('{"cpu_quota_us": 50000, "cpu_period_us": 100000, "timed_s": 10, "throttled_s": 0.51}') AS "5.1 % held",
	   pg_temp.j('{"cpu_quota_us": 50000, "cpu_period_us": 100000, "timed_s": 10, "throttled_s": 1, "ceiling_ratio": 0.89}') AS "below its ceiling",
	   pg_temp.j('{"cpu_quota_us": 50000, "cpu_period_us": 100000, "timed_s": 10, "throttled_s": 1, "ceiling_ratio": 0.89, "scan_timed_s": 10, "scan_busy_s": 4.2}') AS "84 % used",
	   pg_temp.j('{"cpu_quota_us": 50000, "cpu_period_us": 100000, "timed_s": 10, "throttled_s": 1, "ceiling_ratio": 0.89, "scan_timed_s": 10, "scan_busy_s": 4.25}') AS "85 % used",
	   pg_temp.j('{"cpu_quota_us": 50000, "cpu_period_us": 100000, "timed_s": 10, "throttled_s": 1, "ceiling_ratio": 0.89, "scan_periods": 100, "scan_spent_periods": 85}') AS "85 % of periods spent";

-- depth_limited: cold, the device at depth 1.5 times the one-at-a-time
-- read and the scan, the scan below its ceiling, outside limits.
SELECT pg_temp.j('{"direct_mb_s": 100, "scan_mb_s": 100, "device_mb_s": 149.9, "device_pct": 66}') AS "1.499",
	   pg_temp.j('{"direct_mb_s": 100, "scan_mb_s": 100, "device_mb_s": 150, "device_pct": 66}') AS "1.5",
	   pg_temp.j('{"direct_mb_s": 100, "scan_mb_s": 100, "device_mb_s": 150, "device_pct": 66, "ceiling_ratio": 0.9}') AS "at its ceiling",
	   pg_temp.j('{"direct_mb_s": 100, "scan_mb_s": 100, "device_mb_s": 150, "device_pct": 66, "timed_s": 10, "cpu_wait_s": 2}') AS "kept off a CPU";

-- storage_not_limiting: the scan at 90 % of its warm ceiling, or above
-- 105 % of the device read at depth (of the raw read where there is none).
SELECT pg_temp.j('{"ceiling_ratio": 0.899}') AS "0.899",
	   pg_temp.j('{"ceiling_ratio": 0.9}') AS "0.9",
	   pg_temp.j('{"device_pct": 105, "device_mb_s": 10}') AS "105 % of the device",
	   pg_temp.j('{"device_pct": 105.1, "device_mb_s": 10}') AS "105.1 % of the device",
	   pg_temp.j('{"median": 110, "lo": 105, "hi": 115}') AS "interval from 105",
	   pg_temp.j('{"median": 110, "lo": 105.1, "hi": 115}') AS "interval from 105.1";

-- Under a request throttle, O_DIRECT's 1 MB requests meet it far below
-- buffered reads: they are not compared by their bytes (no host_cache,
-- no depth_limited).
SELECT pg_temp.j('{"read_iops_limit": 100, "read_iops": 50, "direct_mb_s": 104, "host_ratio": 3}') AS "O_DIRECT at the throttle",
	   pg_temp.j('{"read_iops_limit": 100, "read_iops": 50, "direct_mb_s": 116, "host_ratio": 3}') AS "above it";

-- Speaking: with what, the NOTICEs scan_efficiency gives.
SELECT pg_temp.j('{"what": "t", "timed_s": 10, "cpu_wait_s": 2, "read_bps": 100000000, "read_mb_s": 95,
				   "device": "8:0", "io_version": 2}');

-- Refused: an input it does not know, a number given as a string, not an
-- object, NULL, a cache mode that is none.
SELECT scanbench_internal.judge_figure('{"medain": 50}');
SELECT scanbench_internal.judge_figure('{"median": "50"}');
SELECT scanbench_internal.judge_figure('[50]');
SELECT scanbench_internal.judge_figure(NULL);
SELECT scanbench_internal.judge_figure('{"cache": "lukewarm"}');

--
-- A recorded run against its own history (scanbench_internal.judge_run,
-- src/runjudge.c): each rule's threshold from both sides.  The base: a
-- figure of 50 %, 5 % below the median of 3 earlier runs, judged with
-- efficiency_check's default limits (an alarm at a drop of 20 %, a
-- warning at 10 %).
--
CREATE FUNCTION pg_temp.r(scan_pct float8 DEFAULT 50, drop_pct float8 DEFAULT 5,
						  earlier integer DEFAULT 3, min_pct float8 DEFAULT NULL,
						  max_drop float8 DEFAULT 20, warn_pct float8 DEFAULT NULL,
						  warn_drop float8 DEFAULT 10) RETURNS text
LANGUAGE sql AS $$
SELECT concat_ws(' ', j.status, array_to_string(j.rules, ','))
FROM scanbench_internal.judge_run(scan_pct, drop_pct, earlier, min_pct, max_drop, warn_pct, warn_drop) j
$$;

SELECT pg_temp.r() AS base, * FROM scanbench_internal.judge_run(50, 5, 3, NULL, 20, NULL, 10);

-- drop: more than max_drop_pct below the median, 3 earlier runs or more.
SELECT pg_temp.r(drop_pct => 20) AS "20 of 20",
	   pg_temp.r(drop_pct => 20.1) AS "20.1 of 20",
	   pg_temp.r(drop_pct => 20.1, max_drop => 30) AS "20.1 of 30",
	   pg_temp.r(drop_pct => 90, earlier => 2) AS "90 over 2 runs",
	   pg_temp.r(drop_pct => NULL) AS "no median";
SELECT earlier_runs, drop_judged, earlier_needed
FROM generate_series(2, 3) AS earlier_runs,
	 scanbench_internal.judge_run(50, 25, earlier_runs, NULL, 20, NULL, 10);

-- drop_warning: more than warn_drop_pct below it, and no alarm.
SELECT pg_temp.r(drop_pct => 10) AS "10 of 10",
	   pg_temp.r(drop_pct => 10.1) AS "10.1 of 10",
	   pg_temp.r(drop_pct => 10.1, warn_drop => NULL) AS "no warning limit",
	   pg_temp.r(drop_pct => 15, earlier => 2) AS "15 over 2 runs";

-- below_limit: the figure below min_pct, whatever the earlier runs.
SELECT pg_temp.r(min_pct => 50) AS "50 of 50",
	   pg_temp.r(scan_pct => 49.9, min_pct => 50) AS "49.9 of 50",
	   pg_temp.r(scan_pct => 10, min_pct => 50, earlier => 0, drop_pct => NULL) AS "the first run";

-- near_limit: below warn_pct, by default 10 % above min_pct (40: 44) but at
-- most halfway from it to 100 (90: 95, not 99); not when an alarm holds.
SELECT pg_temp.r(scan_pct => 44, min_pct => 40) AS "44 over 40",
	   pg_temp.r(scan_pct => 43.9, min_pct => 40) AS "43.9 over 40",
	   pg_temp.r(scan_pct => 95, min_pct => 90) AS "95 over 90",
	   pg_temp.r(scan_pct => 94.9, min_pct => 90) AS "94.9 over 90",
	   pg_temp.r(scan_pct => 59.9, min_pct => 40, warn_pct => 60) AS "59.9, warn_pct 60",
	   pg_temp.r(scan_pct => 39, min_pct => 40) AS "below the limit";
SELECT min_pct, warn_at FROM unnest('{40, 90}'::float8[]) AS min_pct,
	 scanbench_internal.judge_run(50, 5, 3, min_pct, 20, NULL, 10);

-- Both alarms at once, in the table's order; both warnings at once.
SELECT pg_temp.r(scan_pct => 30, min_pct => 40, drop_pct => 40) AS "two alarms",
	   pg_temp.r(scan_pct => 42, min_pct => 40, drop_pct => 15) AS "two warnings";

-- Refused: earlier runs not counted.
SELECT scanbench_internal.judge_run(50, 5, -1, NULL, 20, NULL, 10);
SELECT scanbench_internal.judge_run(50, 5, NULL, NULL, 20, NULL, 10);

--
-- A recorded page_costs run that has a recommendation
-- (scanbench_internal.judge_page_costs_run, src/runjudge.c): each rule
-- from both sides.  The base: random_page_cost 10 % off the recommended
-- interval, the ratio 5 % from its median, max_off_pct 50, the depth in
-- force (16) above the least the sweeps found enough (8).
--
CREATE FUNCTION pg_temp.p(off_pct float8 DEFAULT 10, change_pct float8 DEFAULT 5,
						  max_off float8 DEFAULT 50, eic integer DEFAULT 16,
						  eic_low integer DEFAULT 8) RETURNS text
LANGUAGE sql AS $$
SELECT concat_ws(' ', j.status, array_to_string(j.rules, ','))
FROM scanbench_internal.judge_page_costs_run(off_pct, change_pct, max_off, eic, eic_low) j
$$;

SELECT pg_temp.p() AS base;

-- off_limit above max_off_pct; off_half above half of it, without the alarm.
SELECT pg_temp.p(off_pct => 50) AS "50 of 50",
	   pg_temp.p(off_pct => 50.1) AS "50.1 of 50",
	   pg_temp.p(off_pct => 25) AS "25 of 50",
	   pg_temp.p(off_pct => 25.1) AS "25.1 of 50",
	   pg_temp.p(off_pct => 25.1, max_off => 60) AS "25.1 of 60";

-- moved: the ratio more than max_off_pct from its median, either way.
SELECT pg_temp.p(change_pct => 50) AS "+50",
	   pg_temp.p(change_pct => 50.1) AS "+50.1",
	   pg_temp.p(change_pct => -50.1) AS "-50.1",
	   pg_temp.p(change_pct => NULL) AS "no median";

-- shallow: the depth in force below the least the sweeps found enough.
SELECT pg_temp.p(eic => 8) AS "8 of 8",
	   pg_temp.p(eic => 7) AS "7 of 8",
	   pg_temp.p(eic => 0) AS "0 of 8",
	   pg_temp.p(eic_low => NULL) AS "no sweeps";

-- Every rule at once: the alarm, then the rest in the table's order.
SELECT pg_temp.p(off_pct => 80, change_pct => -70, eic => 1) AS "all";

--
-- The fleet's cohort rule (src/cohortrule.c, compiled into scanbench-fleet
-- too): the figures' median, and max(k scaled MADs, min_spread) about it; an
-- interval outside only when all of it is.
--
-- Two figures make no band; a NULL element is a figure not had.
SELECT * FROM scanbench_internal.judge_cohort('{50, 60}', 1, 2);
SELECT * FROM scanbench_internal.judge_cohort('{50, NULL, 60}', 1, 2);
-- Figures that mostly agree (MAD 0): the least spread, 50 +- 5, its ends
-- inside.
SELECT lo, hi, c.side
FROM (VALUES (40, 44.99), (40, 45), (55, 70), (55.01, 70), (44, 56)) AS i(lo, hi),
	 scanbench_internal.judge_cohort('{50, 50, 50, 60, 40}', i.lo, i.hi) c;
SELECT n, centre, spread FROM scanbench_internal.judge_cohort('{50, 50, 50, 60, 40}');
-- Figures apart (MAD 10): 3 scaled MADs, 30 +- 44.478; k and min_spread given.
SELECT n, centre, round(spread::numeric, 3) AS spread
FROM scanbench_internal.judge_cohort('{10, 20, 30, 40, 50}');
SELECT round(spread::numeric, 3) AS "k 1", side
FROM scanbench_internal.judge_cohort('{10, 20, 30, 40, 50}', 45, 46, k => 1);
SELECT spread AS "min_spread 50" FROM scanbench_internal.judge_cohort('{10, 20, 30, 40, 50}', min_spread => 50);
-- Read rates on their logarithms, at least a factor of 2.
SELECT c.side, round(exp(c.centre)::numeric, 1) AS read_mb_s, round(exp(c.spread)::numeric, 1) AS factor
FROM scanbench_internal.judge_cohort(ARRAY[ln(100), ln(110), ln(90), ln(40)], ln(40), ln(40), min_spread => ln(2)) c;
-- Refused before anything is judged.
SELECT * FROM scanbench_internal.judge_cohort('{1, 2, 3}', k => 0);
SELECT * FROM scanbench_internal.judge_cohort('{1, 2, 3}', min_spread => -1);
SELECT * FROM scanbench_internal.judge_cohort('{1, 2, 3}', 5, NULL);
SELECT * FROM scanbench_internal.judge_cohort('{1, 2, 3}', 5, 4);
SELECT * FROM scanbench_internal.judge_cohort('{{1, 2}, {3, 4}}');
SELECT * FROM scanbench_internal.judge_cohort(NULL);

--
-- The table of rules every judge reads (judgerules.c), each threshold in
-- it: the judges of page_costs, index_crossover, access_paths,
-- toast_efficiency and workload_scans take figures no literal reaches,
-- so a threshold of theirs moved by mistake fails here.
--
SELECT rule, judges, mark, level, threshold FROM scanbench_internal.judge_rules();
-- Each mark a rule gives is one of the verdict's, and each rule's name is
-- its own.
SELECT r.rule, r.mark FROM scanbench_internal.judge_rules() r
WHERE r.mark IS NOT NULL AND r.mark NOT IN (SELECT m.mark FROM scan_verdict_marks() m);
SELECT rule, count(*) FROM scanbench_internal.judge_rules() GROUP BY rule HAVING count(*) > 1;
