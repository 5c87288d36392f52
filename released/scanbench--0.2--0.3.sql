/* scanbench--0.2--0.3.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION scanbench UPDATE TO '0.3'" to load this file. \quit

--
-- Rates are what the server really gets, and the limits it gets them
-- under are facts: scan_efficiency's rates are bytes over the wall-clock
-- time of each pass, the waits for a CPU included; each run shows the
-- time the backend waited for a CPU, the time its control group was held
-- back by its CPU quota, and the group's limits (CPU quota, the data
-- device's read and write throttles), as storage_info and the history do.
-- The verdict is an array of marks (text[]), given by one judge in the
-- library, which the history reads as it is.
--
-- The objects that depend on the verdict's type are dropped here and made
-- again below with the array.
--
DROP VIEW scan_trend;
DROP FUNCTION scanbench_metrics();
DROP FUNCTION scan_history_svg_runs(text, text, text, integer);
DROP FUNCTION scan_history_measure(regclass, text, integer, float8, float8, float8, text);
DROP FUNCTION scan_history_record(scan_efficiency_result);
DROP FUNCTION scan_history_marks(text);

-- The verdict becomes an array.  An attribute's type cannot change while
-- a table has a column of the type, so the array is a new attribute that
-- takes the old one's name: tables made OF the type (a user's own history)
-- have their verdicts converted; a verdict inside a column of the type
-- becomes NULL.
DO $$
DECLARE
	typ regtype;
	t regclass;
BEGIN
	FOREACH typ IN ARRAY ARRAY['scan_efficiency_result', 'scan_efficiency_shard_result']::regtype[] LOOP
		EXECUTE format('ALTER TYPE %s ADD ATTRIBUTE verdict_marks text[] CASCADE', typ);
		FOR t IN SELECT c.oid FROM pg_class c WHERE c.reloftype = typ LOOP
			EXECUTE format('UPDATE %s SET verdict_marks = string_to_array(verdict, '','')', t);
		END LOOP;
		EXECUTE format('ALTER TYPE %s DROP ATTRIBUTE verdict CASCADE', typ);
		EXECUTE format('ALTER TYPE %s RENAME ATTRIBUTE verdict_marks TO verdict CASCADE', typ);
	END LOOP;
END
$$;

ALTER TYPE scan_efficiency_result
	ADD ATTRIBUTE cpu_wait_s float8 CASCADE,
	ADD ATTRIBUTE cpu_throttled_s float8 CASCADE,
	ADD ATTRIBUTE cpu_quota_us bigint CASCADE,
	ADD ATTRIBUTE cpu_period_us bigint CASCADE,
	ADD ATTRIBUTE read_bps_limit bigint CASCADE,
	ADD ATTRIBUTE write_bps_limit bigint CASCADE,
	ADD ATTRIBUTE read_iops_limit bigint CASCADE,
	ADD ATTRIBUTE write_iops_limit bigint CASCADE;

COMMENT ON COLUMN scan_efficiency_result.read_mb_s IS 'median raw read rate over pairs or runs, MB/s (10^6 bytes): bytes over the wall-clock time of each pass';
COMMENT ON COLUMN scan_efficiency_result.scan_mb_s IS 'median executor scan rate over pairs or runs, MB/s (10^6 bytes): bytes over the wall-clock time of each pass; each side''s median comes from its own pair, so scan_mb_s / read_mb_s is a ratio of medians and need not be scan_pct';
COMMENT ON COLUMN scan_efficiency_result.scan_pct IS 'median over pairs (or runs) of each one''s own 100 x scan rate / read rate, the same stretch read then scanned back to back, %; not scan_mb_s / read_mb_s (a ratio of medians) nor read_s / scan_s (all the time together)';
COMMENT ON COLUMN scan_efficiency_result.read_s IS 'wall-clock seconds of raw reading: summed over pairs, or the median run (whole)';
COMMENT ON COLUMN scan_efficiency_result.scan_s IS 'wall-clock seconds of scanning: summed over pairs, or the median run (whole)';
COMMENT ON COLUMN scan_efficiency_result.method IS 'pairs (sampled stretches: 8 MB, or long enough to drain a rate limiter''s allowance under the server''s limits) or whole (whole-relation passes)';
COMMENT ON COLUMN scan_efficiency_result.verdict IS 'marks: {ok}, or any of unstable, cached, host_cache, burst, cpu_contended, cpu_limited, io_limited, storage_not_limiting; when nothing was measured, why: {empty} (no blocks) or {over_budget} (no pair within max_seconds)';
COMMENT ON COLUMN scan_efficiency_result.cpu_wait_s IS 'seconds the backend was runnable but waiting for a CPU during the timed passes (/proc/self/schedstat), the time its CPU quota held it back included; in the rates, not taken out of them';
COMMENT ON COLUMN scan_efficiency_result.cpu_throttled_s IS 'seconds the server''s control group was held back by its CPU quota during the timed passes (cgroup cpu.stat); NULL where it cannot be read';
COMMENT ON COLUMN scan_efficiency_result.cpu_quota_us IS 'CPU time the server''s control group may use per period, microseconds (cgroup v1 cpu.cfs_quota_us, v2 cpu.max), the tightest up to the root; NULL when none';
COMMENT ON COLUMN scan_efficiency_result.cpu_period_us IS 'the period of that quota, microseconds; NULL when no quota';
COMMENT ON COLUMN scan_efficiency_result.read_bps_limit IS 'read throttle of the data''s device for the server''s control group, bytes/s (v1 blkio.throttle.read_bps_device, v2 io.max rbps); NULL when none';
COMMENT ON COLUMN scan_efficiency_result.write_bps_limit IS 'write throttle of that device, bytes/s; NULL when none';
COMMENT ON COLUMN scan_efficiency_result.read_iops_limit IS 'read throttle of that device, I/O operations/s; NULL when none';
COMMENT ON COLUMN scan_efficiency_result.write_iops_limit IS 'write throttle of that device, I/O operations/s; NULL when none';

COMMENT ON COLUMN scan_efficiency_shard_result.verdict IS 'marks: {ok}, or any of unstable, cached, storage_not_limiting';

--
-- scan_breakdown: of the time waiting for a CPU, the part the server's own
-- CPU quota held it back.
--
ALTER TYPE scan_breakdown_result
	ADD ATTRIBUTE cpu_throttled_pct float8 CASCADE,
	ADD ATTRIBUTE cpu_quota_us bigint CASCADE,
	ADD ATTRIBUTE cpu_period_us bigint CASCADE,
	ADD ATTRIBUTE read_bps_limit bigint CASCADE,
	ADD ATTRIBUTE write_bps_limit bigint CASCADE,
	ADD ATTRIBUTE read_iops_limit bigint CASCADE,
	ADD ATTRIBUTE write_iops_limit bigint CASCADE;
COMMENT ON COLUMN scan_breakdown_result.cpu_wait_pct IS 'percent of wall time this backend was runnable but waiting for a CPU (/proc/self/schedstat; 0 where the kernel does not keep it): held by another process, or held back by the server''s CPU quota (cpu_throttled_pct)';
COMMENT ON COLUMN scan_breakdown_result.cpu_throttled_pct IS 'percent of wall time the server''s control group was held back by its CPU quota (cgroup cpu.stat), counted in cpu_wait_pct; NULL where it cannot be read';
COMMENT ON COLUMN scan_breakdown_result.cpu_quota_us IS 'CPU time the server''s control group may use per period, microseconds (cgroup v1 cpu.cfs_quota_us, v2 cpu.max), the tightest up to the root; NULL when none';
COMMENT ON COLUMN scan_breakdown_result.cpu_period_us IS 'the period of that quota, microseconds; NULL when no quota';
COMMENT ON COLUMN scan_breakdown_result.read_bps_limit IS 'read throttle of the data''s device for the server''s control group, bytes/s (v1 blkio.throttle.read_bps_device, v2 io.max rbps); NULL when none';
COMMENT ON COLUMN scan_breakdown_result.write_bps_limit IS 'write throttle of that device, bytes/s; NULL when none';
COMMENT ON COLUMN scan_breakdown_result.read_iops_limit IS 'read throttle of that device, I/O operations/s; NULL when none';
COMMENT ON COLUMN scan_breakdown_result.write_iops_limit IS 'write throttle of that device, I/O operations/s; NULL when none';

--
-- storage_info: the server's control group limits on every row.
--
ALTER TYPE storage_info_result
	ADD ATTRIBUTE cpu_quota_us bigint CASCADE,
	ADD ATTRIBUTE cpu_period_us bigint CASCADE,
	ADD ATTRIBUTE read_bps_limit bigint CASCADE,
	ADD ATTRIBUTE write_bps_limit bigint CASCADE,
	ADD ATTRIBUTE read_iops_limit bigint CASCADE,
	ADD ATTRIBUTE write_iops_limit bigint CASCADE;

COMMENT ON COLUMN storage_info_result.cpu_quota_us IS 'CPU time the server''s control group may use per period, microseconds (cgroup v1 cpu.cfs_quota_us, v2 cpu.max), the tightest up to the root; NULL when none';
COMMENT ON COLUMN storage_info_result.cpu_period_us IS 'the period of that quota, microseconds; NULL when no quota';
COMMENT ON COLUMN storage_info_result.read_bps_limit IS 'read throttle of the device under data_path for the server''s control group, bytes/s (v1 blkio.throttle.read_bps_device, v2 io.max rbps); NULL when none';
COMMENT ON COLUMN storage_info_result.write_bps_limit IS 'write throttle of that device, bytes/s; NULL when none';
COMMENT ON COLUMN storage_info_result.read_iops_limit IS 'read throttle of that device, I/O operations/s; NULL when none';
COMMENT ON COLUMN storage_info_result.write_iops_limit IS 'write throttle of that device, I/O operations/s; NULL when none';

--
-- The history: the verdict as an array, the waits and the limits of each
-- run.  A stored verdict of 0.2 ('ok' or marks joined by commas) becomes
-- its array of marks.
--
ALTER TABLE scan_history
	ALTER COLUMN verdict SET DATA TYPE text[] USING string_to_array(verdict, ','),
	ADD COLUMN cpu_wait_s float8,
	ADD COLUMN cpu_throttled_s float8,
	ADD COLUMN cpu_quota_us bigint,
	ADD COLUMN cpu_period_us bigint,
	ADD COLUMN read_bps_limit bigint,
	ADD COLUMN write_bps_limit bigint,
	ADD COLUMN read_iops_limit bigint,
	ADD COLUMN write_iops_limit bigint,
	ADD COLUMN limit_min_pct float8,
	ADD COLUMN limit_max_drop_pct float8,
	ADD COLUMN limit_warn_pct float8,
	ADD COLUMN limit_warn_drop_pct float8,
	ADD COLUMN limit_window_days integer,
	ADD COLUMN data_checksums boolean,
	ADD COLUMN jit boolean,
	ADD COLUMN io_max_combine_limit integer,
	ADD COLUMN io_workers integer,
	ADD COLUMN server_major integer;

COMMENT ON COLUMN scan_history.verdict IS 'the run''s verdict marks: {ok}, or any of unstable, cached, host_cache, burst, cpu_contended, cpu_limited, io_limited, storage_not_limiting';
COMMENT ON COLUMN scan_history.cpu_wait_s IS 'seconds the backend was runnable but waiting for a CPU during the run''s timed passes (/proc/self/schedstat), the time its CPU quota held it back included; in the rates, not taken out of them';
COMMENT ON COLUMN scan_history.cpu_throttled_s IS 'seconds the server''s control group was held back by its CPU quota during the run''s timed passes (cgroup cpu.stat); NULL where it cannot be read';
COMMENT ON COLUMN scan_history.cpu_quota_us IS 'CPU time the server''s control group may use per period, microseconds (cgroup v1 cpu.cfs_quota_us, v2 cpu.max), the tightest up to the root; NULL when none';
COMMENT ON COLUMN scan_history.cpu_period_us IS 'the period of that quota, microseconds; NULL when no quota';
COMMENT ON COLUMN scan_history.read_bps_limit IS 'read throttle of the data''s device for the server''s control group, bytes/s (v1 blkio.throttle.read_bps_device, v2 io.max rbps); NULL when none';
COMMENT ON COLUMN scan_history.write_bps_limit IS 'write throttle of that device, bytes/s; NULL when none';
COMMENT ON COLUMN scan_history.read_iops_limit IS 'read throttle of that device, I/O operations/s; NULL when none';
COMMENT ON COLUMN scan_history.write_iops_limit IS 'write throttle of that device, I/O operations/s; NULL when none';
-- The limits efficiency_check judged the run with, kept so that judging
-- the run again later gives the verdict the check gave.
COMMENT ON COLUMN scan_history.limit_min_pct IS 'efficiency_check''s min_pct (%) the run was judged with; NULL when none was given or the run was recorded otherwise';
COMMENT ON COLUMN scan_history.limit_max_drop_pct IS 'efficiency_check''s max_drop_pct (%) the run was judged with; NULL when the run was recorded otherwise (then it keeps no limits at all)';
COMMENT ON COLUMN scan_history.limit_warn_pct IS 'efficiency_check''s warn_pct (%) the run was judged with; NULL for the default (10 % above min_pct, at most halfway to 100 %)';
COMMENT ON COLUMN scan_history.limit_warn_drop_pct IS 'efficiency_check''s warn_drop_pct (%) the run was judged with; NULL when it had no warning before the alarm';
COMMENT ON COLUMN scan_history.limit_window_days IS 'efficiency_check''s window_days (days) the run was judged with';
COMMENT ON COLUMN scan_history.data_checksums IS 'data checksums were on (a CPU cost on every page read into shared buffers); NULL for a run recorded before 0.3';
COMMENT ON COLUMN scan_history.jit IS 'the jit setting during the run';
COMMENT ON COLUMN scan_history.io_max_combine_limit IS 'io_max_combine_limit, the cap of io_combine_limit, in blocks; NULL before PostgreSQL 18';
COMMENT ON COLUMN scan_history.io_workers IS 'I/O worker processes running during the run (io_method = worker); NULL where none are used';
COMMENT ON COLUMN scan_history.server_major IS 'the server''s major version, such as 18';

-- The marks a run is compared under: NULL when it cannot be judged
-- (unstable, cached, burst), else '' or the marks that make its figure a
-- different quantity, in verdict order.
CREATE FUNCTION scan_history_marks(verdict text[]) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
BEGIN ATOMIC
	SELECT CASE
		WHEN coalesce(verdict, '{}') && ARRAY['unstable', 'cached', 'burst', 'empty', 'over_budget'] THEN NULL
		ELSE array_to_string(ARRAY(
			SELECT m FROM unnest(verdict) WITH ORDINALITY AS v(m, i)
			WHERE m = ANY (ARRAY['host_cache', 'cpu_contended', 'cpu_limited',
								 'io_limited', 'storage_not_limiting'])
			ORDER BY i), ',')
	END;
END;

COMMENT ON FUNCTION scan_history_marks(text[]) IS
'NULL for a verdict that cannot be judged (unstable, cached, burst, empty, over_budget), else the marks runs are compared under (host_cache, cpu_contended, cpu_limited, io_limited, storage_not_limiting)';

-- The one median of the history: the run a figure is compared with is the
-- median of the earlier judged runs of the same relation, cache mode and
-- marks in the window_days up to it.  The judge, the trend, the metrics and
-- the chart all show this one, so that they agree with the alarm.
--
-- A fleet's runs in one history: scanbench-fleet measures many servers
-- and keeps their runs in the scan_history of one central database, each
-- with the server it was measured on.  NULL in these columns means a run
-- of this server, recorded here by scan_history_record; the fleet writes
-- its rows with COPY.  A server that could not be measured is a row too,
-- with its reason and no figures; the relation's OID and schema are then
-- NULL when the server could not be asked.
--
ALTER TABLE scan_history
	ALTER COLUMN relid DROP NOT NULL,
	ALTER COLUMN relschema DROP NOT NULL,
	ADD COLUMN server text,
	ADD COLUMN system_identifier bigint,
	ADD COLUMN server_host text,
	ADD COLUMN server_port integer,
	ADD COLUMN server_role text,
	ADD COLUMN tags jsonb,
	ADD COLUMN reason text,
	ADD CONSTRAINT scan_history_server_role_check
		CHECK (server_role IN ('primary', 'standby'));

CREATE INDEX scan_history_server_idx
	ON scan_history (server, relschema, relname, cache, measured_at)
	WHERE server IS NOT NULL;

COMMENT ON COLUMN scan_history.relid IS 'OID of the relation at the time (changes when the table is reloaded); NULL on a row of a server that could not be asked';
COMMENT ON COLUMN scan_history.relschema IS 'schema of the relation at the time; NULL on a row of a server that could not be asked';
COMMENT ON COLUMN scan_history.server IS 'the server measured, as scanbench-fleet names it (its name= tag, else host:port/dbname); NULL: this server';
COMMENT ON COLUMN scan_history.system_identifier IS 'the measured server''s database system identifier (pg_control_system()), shared by a primary and its standbys; NULL: this server';
COMMENT ON COLUMN scan_history.server_host IS 'host (or socket directory) the fleet reached the server at; NULL: this server';
COMMENT ON COLUMN scan_history.server_port IS 'port the fleet reached the server at; NULL: this server';
COMMENT ON COLUMN scan_history.server_role IS 'primary or standby (pg_is_in_recovery()) when measured; NULL: this server, or not known';
COMMENT ON COLUMN scan_history.tags IS 'the server''s tags in the fleet''s servers file, as a JSON object of strings; servers with the same tags are compared with each other';
COMMENT ON COLUMN scan_history.reason IS 'why the server or relation could not be measured (connection refused, lost mid-run, timeout, no scanbench, ...); NULL for a run that was measured';

-- A run is compared with the earlier runs of the same server: the central
-- database's own runs (server NULL) with its own, each fleet member's with
-- its own; a row that was not measured is no run to compare with.
CREATE FUNCTION scan_history_median(run bigint, window_days integer DEFAULT 30,
									OUT median_pct float8, OUT runs integer,
									OUT since timestamptz)
LANGUAGE sql STABLE
BEGIN ATOMIC
	SELECT round(percentile_cont(0.5) WITHIN GROUP (ORDER BY h.scan_pct)::numeric, 1)::float8,
		   count(h.*)::integer, min(h.measured_at)
	FROM scan_history cur
	LEFT JOIN scan_history h
	  ON h.relschema = cur.relschema AND h.relname = cur.relname
	 AND h.cache = cur.cache AND h.id <> cur.id
	 AND h.server IS NOT DISTINCT FROM cur.server
	 AND h.reason IS NULL
	 AND h.measured_at <= cur.measured_at
	 AND h.measured_at > cur.measured_at - make_interval(days => window_days)
	 AND h.scan_pct IS NOT NULL
	 AND scan_history_marks(h.verdict) = coalesce(scan_history_marks(cur.verdict), '')
	WHERE cur.id = scan_history_median.run;
END;

COMMENT ON FUNCTION scan_history_median(bigint, integer) IS
'the median a run is compared with: of the earlier judged runs of the same server, relation, cache mode and marks in the window_days (days) up to it, %; with how many there are and the first one''s time';

--
-- scan_efficiency: the lock wait said on its own, the caches before and
-- after the call, and restore => true to put back what they held.
--
ALTER TYPE scan_efficiency_result
	ADD ATTRIBUTE lock_wait_s float8 CASCADE,
	ADD ATTRIBUTE cached_pct_start float8 CASCADE,
	ADD ATTRIBUTE cached_pct_end float8 CASCADE,
	ADD ATTRIBUTE restored_pct float8 CASCADE,
	ADD ATTRIBUTE restore_s float8 CASCADE;

COMMENT ON COLUMN scan_efficiency_result.lock_wait_s IS
'seconds the call waited for its lock on the relation before measuring; the time budget (max_seconds) starts once the lock is held';
COMMENT ON COLUMN scan_efficiency_result.cached_pct_start IS
'percent of the relation''s blocks in shared_buffers or the page cache when the call began, before anything was evicted';
COMMENT ON COLUMN scan_efficiency_result.cached_pct_end IS
'percent of the relation''s blocks in shared_buffers or the page cache when the call ended (after the restore, with restore => true)';
COMMENT ON COLUMN scan_efficiency_result.restored_pct IS
'restore => true: percent of the blocks cached when the call began that were cached again at its end; NULL without restore, or when nothing was cached';
COMMENT ON COLUMN scan_efficiency_result.restore_s IS
'restore => true: wall seconds spent putting the blocks back; NULL without restore';

COMMENT ON COLUMN scan_breakdown_result.overlap_pct IS
'where the measured scan falls between the two predictions, in percent: 0 no overlap, 100 perfect; NULL when it falls outside them (the scan and its references ran under different conditions: measure again when the machine is quieter) and for an empty relation';

-- scan_history_measure, whose body names scan_efficiency, was dropped above.
DROP FUNCTION scan_efficiency(regclass, text, integer, integer, float8, float8, float8, text, boolean, boolean);

CREATE FUNCTION scan_efficiency(rel regclass,
								cache text DEFAULT 'cold',
								block_size integer DEFAULT 8192,
								runs integer DEFAULT 1,
								sample float8 DEFAULT 1.0,
								max_seconds float8 DEFAULT 60,
								target_pct float8 DEFAULT 5,
								method text DEFAULT 'pairs',
								with_write boolean DEFAULT false,
								record boolean DEFAULT false,
								restore boolean DEFAULT false)
RETURNS scan_efficiency_result
AS 'MODULE_PATHNAME', 'scan_efficiency'
LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION scan_efficiency(regclass, text, integer, integer, float8, float8, float8, text, boolean, boolean, boolean) IS
'count(1) scan rate as a percentage of the raw read rate of the same blocks. method pairs (default): 8 MB stretches in random order, each read and scanned back to back, until the 95 % interval of the median is within +-target_pct % of it, max_seconds (s) are spent once the relation''s lock is held, or a fraction sample of the relation is covered. method whole: runs alternated whole-relation passes (runs applies to whole only). cache: cold, warm or asis; with_write => true adds a sequential write in the relation''s tablespace (write_mb_s); record => true adds the run to scan_history (refused at once on a standby or without the grants); restore => true puts back afterwards the blocks shared_buffers and the page cache held when the call began';

REVOKE ALL ON FUNCTION scan_efficiency(regclass, text, integer, integer, float8, float8, float8, text, boolean, boolean, boolean) FROM PUBLIC;

CREATE OR REPLACE FUNCTION scan_history_judge(run bigint,
								   min_pct float8 DEFAULT NULL,
								   max_drop_pct float8 DEFAULT NULL,
								   warn_pct float8 DEFAULT NULL,
								   warn_drop_pct float8 DEFAULT NULL,
								   window_days integer DEFAULT NULL,
								   OUT status text, OUT message text,
								   OUT detail text, OUT hint text,
								   OUT median_pct float8, OUT drop_pct float8,
								   OUT earlier_runs integer)
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	ext_schema text;
	cur record;
	marks text;
	label text;
	subject text;
	since timestamptz;
	changes text;
	fails text[] := '{}';
	warns text[] := '{}';
	warn_at float8;
	lim text;
BEGIN
	SELECT n.nspname INTO ext_schema
	FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
	WHERE e.extname = 'scanbench';
	PERFORM set_config('search_path',
					   'pg_catalog, ' || quote_ident(ext_schema) || ', scanbench_internal, pg_temp', true);
	IF run IS NULL THEN
		RAISE EXCEPTION 'run must not be NULL'
			USING ERRCODE = 'null_value_not_allowed',
				  HINT = 'Give a run number of scan_history (its id column).';
	END IF;

	SELECT * INTO cur FROM scan_history h WHERE h.id = run;
	IF NOT FOUND THEN
		RAISE EXCEPTION 'no run % in scan_history', run
			USING ERRCODE = 'invalid_parameter_value';
	END IF;

	-- A limit not given is the one the run was judged with when
	-- efficiency_check recorded it (a run it recorded always keeps
	-- max_drop_pct), so that judging it again gives the check's verdict;
	-- a run recorded otherwise is judged with the usual defaults.
	IF cur.limit_max_drop_pct IS NOT NULL THEN
		min_pct := coalesce(min_pct, cur.limit_min_pct);
		max_drop_pct := coalesce(max_drop_pct, cur.limit_max_drop_pct);
		warn_pct := coalesce(warn_pct, cur.limit_warn_pct);
		warn_drop_pct := coalesce(warn_drop_pct, cur.limit_warn_drop_pct);
		window_days := coalesce(window_days, cur.limit_window_days, 30);
	ELSE
		max_drop_pct := coalesce(max_drop_pct, 20);
		warn_drop_pct := coalesce(warn_drop_pct, 10);
		window_days := coalesce(window_days, 30);
	END IF;
	PERFORM scan_history_check_limits(min_pct, max_drop_pct, warn_pct,
									  warn_drop_pct, window_days);

	label := CASE WHEN cur.relschema = 'public' THEN quote_ident(cur.relname)
			 ELSE quote_ident(cur.relschema) || '.' || quote_ident(cur.relname) END;
	subject := format('%s scan efficiency %s %%', label, round(cur.scan_pct::numeric, 1));
	hint := format('The runs: SELECT * FROM %I.scan_history WHERE relschema = %L AND relname = %L ORDER BY measured_at DESC;',
				   ext_schema, cur.relschema, cur.relname);
	earlier_runs := 0;

	marks := scan_history_marks(cur.verdict);
	IF cur.scan_pct IS NULL OR marks IS NULL THEN
		status := 'not_judged';
		IF 'over_budget' = ANY (cur.verdict) THEN
			message := format('%s scan efficiency was not judged: no pair was measured within the time budget (%s s)',
							  label, round(cur.elapsed_s::numeric, 1));
		ELSIF cur.scan_pct IS NULL THEN
			message := format('%s scan efficiency was not judged: nothing was measured (an empty relation)', label);
		ELSE
			message := format('%s was not judged: %s', subject, array_to_string(ARRAY[
				CASE WHEN 'unstable' = ANY (cur.verdict) THEN
					format('the measurement was unstable (95 %% interval %s–%s %%)',
						   round(cur.scan_pct_lo::numeric, 1), round(cur.scan_pct_hi::numeric, 1)) END,
				CASE WHEN 'cached' = ANY (cur.verdict) THEN
					format('part of the relation was already cached (%s %% before the reads, %s %% before the scans)',
						   round(cur.read_cached_pct::numeric, 1), round(cur.scan_cached_pct::numeric, 1)) END,
				CASE WHEN 'burst' = ANY (cur.verdict) THEN
					'its passes ran faster than the server''s limits allow over time (a burst)' END],
				'; '));
		END IF;
		detail := format('Run %s (verdict %s) is recorded and left out of later comparisons. '
						 'An unstable run needs a quieter machine or more time (max_seconds); '
						 'a cached one means another process holds the files in memory; '
						 'a burst one needs method => ''whole'' or a larger relation; '
						 'an over_budget one needs a larger max_seconds.',
						 cur.id, coalesce(array_to_string(cur.verdict, ','), 'none'));
		RETURN;
	END IF;

	SELECT m.runs, m.median_pct, m.since INTO earlier_runs, median_pct, since
	FROM scan_history_median(cur.id, window_days) m;

	IF earlier_runs = 0 THEN
		status := 'first';
		message := format('%s: first recorded run%s in %s days, nothing to compare with yet',
						  subject,
						  CASE WHEN marks <> '' THEN ' marked ' || marks ELSE '' END,
						  window_days);
		detail := format('Run %s is recorded; later runs are compared with it.', cur.id);
		RETURN;
	END IF;

	median_pct := round(median_pct::numeric, 1);
	drop_pct := CASE WHEN median_pct > 0
				THEN round((100 * (median_pct - cur.scan_pct) / median_pct)::numeric, 1) END;

	IF min_pct IS NOT NULL AND cur.scan_pct < min_pct THEN
		fails := fails || format('is below its limit of %s %%', min_pct);
	END IF;
	IF drop_pct > max_drop_pct THEN
		fails := fails || format('is %s %% below its %s-day median %s %%',
								 round(drop_pct), window_days, round(median_pct::numeric, 1));
	END IF;
	-- By default a warning 10 % above the limit, but never so high that a
	-- figure could not stay clear of it: at most halfway to 100 %.
	warn_at := coalesce(warn_pct, least(min_pct * 1.1, (min_pct + 100) / 2));
	IF cardinality(fails) = 0 THEN
		IF warn_at IS NOT NULL AND cur.scan_pct < warn_at THEN
			warns := warns || format('is close to its limit of %s %%', min_pct);
		END IF;
		IF drop_pct > warn_drop_pct THEN
			warns := warns || format('is %s %% below its %s-day median %s %% (the alarm is at %s %%)',
									 round(drop_pct), window_days, round(median_pct::numeric, 1), max_drop_pct);
		END IF;
	END IF;

	-- What changed: each fact of this run against the value most of the
	-- compared runs had (the latest of equally common ones).
	WITH w AS (
		SELECT h.* FROM scan_history h
		WHERE h.relschema = cur.relschema AND h.relname = cur.relname
		  AND h.cache = cur.cache AND h.id <> cur.id
		  AND h.measured_at <= cur.measured_at
		  AND h.measured_at > cur.measured_at - make_interval(days => window_days)
		  AND h.scan_pct IS NOT NULL
		  AND scan_history_marks(h.verdict) = marks
	), facts AS (
		SELECT f.ord, f.fact, f.val, w.measured_at
		FROM w, LATERAL (VALUES
			(1, 'filesystem', w.filesystem), (2, 'device', w.device),
			(3, 'scheduler', w.scheduler), (4, 'read_ahead_kb', w.read_ahead_kb::text),
			(5, 'kernel', w.kernel), (6, 'server version', w.server_version),
			(7, 'block_size', w.block_size::text),
			(9, 'cpu_quota_us', coalesce(w.cpu_quota_us::text, 'none')),
			(9, 'cpu_period_us', coalesce(w.cpu_period_us::text, 'none')),
			(9, 'read_bps_limit', coalesce(w.read_bps_limit::text, 'none')),
			(9, 'write_bps_limit', coalesce(w.write_bps_limit::text, 'none')),
			(9, 'read_iops_limit', coalesce(w.read_iops_limit::text, 'none')),
			(9, 'write_iops_limit', coalesce(w.write_iops_limit::text, 'none'))) AS f(ord, fact, val)
		UNION ALL
		SELECT 10, s.key, s.value, w.measured_at FROM w, jsonb_each_text(w.settings) AS s
	), usual AS (
		SELECT DISTINCT ON (fact) ord, fact, val
		FROM facts WHERE val IS NOT NULL
		GROUP BY ord, fact, val
		ORDER BY fact, count(*) DESC, max(measured_at) DESC
	), now_facts AS (
		SELECT f.fact, f.val FROM (VALUES
			('filesystem', cur.filesystem), ('device', cur.device),
			('scheduler', cur.scheduler), ('read_ahead_kb', cur.read_ahead_kb::text),
			('kernel', cur.kernel), ('server version', cur.server_version),
			('block_size', cur.block_size::text),
			('cpu_quota_us', coalesce(cur.cpu_quota_us::text, 'none')),
			('cpu_period_us', coalesce(cur.cpu_period_us::text, 'none')),
			('read_bps_limit', coalesce(cur.read_bps_limit::text, 'none')),
			('write_bps_limit', coalesce(cur.write_bps_limit::text, 'none')),
			('read_iops_limit', coalesce(cur.read_iops_limit::text, 'none')),
			('write_iops_limit', coalesce(cur.write_iops_limit::text, 'none'))) AS f(fact, val)
		UNION ALL
		SELECT s.key, s.value FROM jsonb_each_text(cur.settings) AS s
	), size AS (
		SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY w.bytes) AS bytes FROM w
	)
	SELECT string_agg(c, '; ' ORDER BY o, c) INTO changes
	FROM (
		SELECT u.ord AS o, format('%s changed %s → %s', u.fact, u.val, n.val) AS c
		FROM usual u JOIN now_facts n USING (fact)
		WHERE n.val IS NOT NULL AND n.val <> u.val
		UNION ALL
		SELECT 8, format('size changed %s → %s', pg_size_pretty(s.bytes::bigint), pg_size_pretty(cur.bytes))
		FROM size s
		WHERE s.bytes > 0 AND abs(cur.bytes - s.bytes) > 0.1 * s.bytes
	) AS changed;

	lim := concat_ws(', ',
					 CASE WHEN min_pct IS NOT NULL THEN format('alarm below %s %%', min_pct) END,
					 format('alarm at a drop of %s %%', max_drop_pct),
					 CASE WHEN warn_at IS NOT NULL THEN format('warning below %s %%', round(warn_at::numeric, 1)) END,
					 CASE WHEN warn_drop_pct IS NOT NULL THEN format('warning at a drop of %s %%', warn_drop_pct) END);
	detail := format('Run %s at %s, %s: read %s MB/s, scan %s MB/s%s, verdict %s. '
					 'Median of %s earlier run%s since %s%s. Limits: %s.',
					 cur.id, to_char(cur.measured_at, 'YYYY-MM-DD HH24:MI:SS TZ'), cur.cache,
					 coalesce(round(cur.read_mb_s::numeric, 1)::text, '?'),
					 coalesce(round(cur.scan_mb_s::numeric, 1)::text, '?'),
					 CASE WHEN cur.scan_pct_lo IS NOT NULL AND cur.scan_pct_hi IS NOT NULL
					 THEN format(', 95 %% interval %s–%s %%', round(cur.scan_pct_lo::numeric, 1),
								 round(cur.scan_pct_hi::numeric, 1)) ELSE '' END,
					 coalesce(array_to_string(cur.verdict, ','), 'none'), earlier_runs,
					 CASE WHEN earlier_runs > 1 THEN 's' ELSE '' END,
					 to_char(since, 'YYYY-MM-DD'),
					 CASE WHEN marks <> '' THEN ', all marked ' || marks ELSE '' END,
					 lim);

	IF cardinality(fails) > 0 THEN
		status := 'regression';
		message := subject || ' ' || array_to_string(fails, ' and ') || '; ' ||
			coalesce(changes, 'nothing changed in storage, limits, kernel, server version or I/O settings');
	ELSIF cardinality(warns) > 0 THEN
		status := 'warning';
		message := subject || ' ' || array_to_string(warns, ' and ') || '; ' ||
			coalesce(changes, 'nothing changed in storage, limits, kernel, server version or I/O settings');
	ELSE
		status := 'ok';
		message := format('%s is within its limits: %s-day median %s %% over %s run%s%s',
						  subject, window_days, round(median_pct::numeric, 1), earlier_runs,
						  CASE WHEN earlier_runs > 1 THEN 's' ELSE '' END,
						  CASE WHEN changes IS NOT NULL THEN '; ' || changes ELSE '' END);
	END IF;
END
$$;

COMMENT ON FUNCTION scan_history_judge(bigint, float8, float8, float8, float8, integer) IS
'compare a recorded run with the median of earlier judged runs of the same relation, cache mode and marks; status regression, warning, ok, first or not_judged, with a message, and what changed. A limit given NULL (the default) is the one efficiency_check judged the run with, kept in scan_history; for a run recorded otherwise max_drop_pct 20, warn_drop_pct 10, window_days 30 and no min_pct';

-- efficiency_check keeps the limits it judges a run with in the run's row
-- (scan_history_judge(run) judges it again the same way), and a NULL where
-- a value is needed is refused by the argument's name before measuring.
CREATE VIEW scan_trend AS
SELECT t.relation, t.cache, t.runs, t.judged_runs, t.first_at, t.latest_at,
	   t.latest_pct, t.latest_verdict, m.median_pct, t.min_pct, t.max_pct,
	   round((100 * t.latest_judged_pct / nullif(m.median_pct, 0) - 100)::numeric, 1)::float8 AS change_pct,
	   t.latest_read_mb_s, t.latest_scan_mb_s
FROM (SELECT format('%I.%I', h.relschema, h.relname) AS relation,
			 h.cache,
			 count(*) AS runs,
			 count(*) FILTER (WHERE h.judged) AS judged_runs,
			 min(h.measured_at) AS first_at,
			 max(h.measured_at) AS latest_at,
			 (array_agg(h.scan_pct ORDER BY h.measured_at DESC, h.id DESC))[1] AS latest_pct,
			 -- array_agg of arrays makes a two-dimensional array: the latest
			 -- verdict is taken as text and split again.
			 string_to_array((array_agg(array_to_string(h.verdict, ',')
									ORDER BY h.measured_at DESC, h.id DESC))[1], ',') AS latest_verdict,
			 min(h.scan_pct) FILTER (WHERE h.judged) AS min_pct,
			 max(h.scan_pct) FILTER (WHERE h.judged) AS max_pct,
			 (array_agg(h.id ORDER BY h.measured_at DESC, h.id DESC)
			  FILTER (WHERE h.judged))[1] AS latest_judged_id,
			 (array_agg(h.scan_pct ORDER BY h.measured_at DESC, h.id DESC)
			  FILTER (WHERE h.judged))[1] AS latest_judged_pct,
			 (array_agg(h.read_mb_s ORDER BY h.measured_at DESC, h.id DESC))[1] AS latest_read_mb_s,
			 (array_agg(h.scan_mb_s ORDER BY h.measured_at DESC, h.id DESC))[1] AS latest_scan_mb_s
	  FROM (SELECT sh.*, scan_history_marks(sh.verdict) IS NOT NULL
						 AND sh.scan_pct IS NOT NULL AS judged
			FROM scan_history sh) AS h
	  GROUP BY h.relschema, h.relname, h.cache) AS t
LEFT JOIN LATERAL scan_history_median(t.latest_judged_id) AS m ON true;

COMMENT ON VIEW scan_trend IS
'scan efficiency per relation and cache mode over the recorded runs';
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

CREATE FUNCTION scanbench_metrics() RETURNS text
LANGUAGE sql STABLE
BEGIN ATOMIC
	WITH latest AS (
		SELECT DISTINCT ON (h.relschema, h.relname, h.cache) h.*
		FROM scan_history h
		ORDER BY h.relschema, h.relname, h.cache, h.measured_at DESC, h.id DESC
	), counted AS (
		SELECT h.relschema, h.relname, h.cache, count(*) AS recorded
		FROM scan_history h GROUP BY h.relschema, h.relname, h.cache
	), labelled AS (
		SELECT l.*, c.recorded,
			format('relation="%s",cache="%s"',
				   replace(replace(replace(l.relschema || '.' || l.relname,
										   E'\\', E'\\\\'), '"', E'\\"'), E'\n', E'\\n'),
				   replace(replace(replace(l.cache,
										   E'\\', E'\\\\'), '"', E'\\"'), E'\n', E'\\n')) AS labels,
			(SELECT m.median_pct FROM scan_history_median(l.id) m) AS median_pct
		FROM latest l JOIN counted c USING (relschema, relname, cache)
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
		 'Read throttle of the data''s device for the server''s control group in the latest run, I/O operations/s; absent when none.')
	), samples (ord, labels, value) AS (
		SELECT v.ord, CASE WHEN v.ord = 8 THEN l.labels || format(',verdict="%s"',
					replace(replace(replace(coalesce(array_to_string(l.verdict, ','), ''),
						E'\\', E'\\\\'), '"', E'\\"'), E'\n', E'\\n'))
				ELSE l.labels END, v.value
		FROM labelled l, LATERAL (VALUES
			(1, l.scan_pct::text), (2, l.scan_pct_lo::text), (3, l.scan_pct_hi::text),
			(4, round(l.median_pct::numeric, 1)::text),
			(5, round((l.read_mb_s * 1e6)::numeric)::text),
			(6, round((l.scan_mb_s * 1e6)::numeric)::text),
			(7, CASE WHEN l.scan_pct IS NULL THEN NULL
				WHEN scan_history_marks(l.verdict) IS NULL THEN '0' ELSE '1' END),
			(8, '1'),
			(9, extract(epoch FROM l.measured_at)::text),
			(10, l.recorded::text),
			(11, round(l.cpu_quota_us::numeric / nullif(l.cpu_period_us, 0), 3)::text),
			(12, l.read_bps_limit::text),
			(13, l.read_iops_limit::text)) AS v(ord, value)
		WHERE v.value IS NOT NULL
	)
	SELECT string_agg(line, E'\n' ORDER BY ord, sub, line)
	FROM (
		SELECT f.ord, 0 AS sub,
			   format(E'# HELP %s %s\n# TYPE %s gauge', f.name, f.help, f.name) AS line
		FROM families f
		UNION ALL
		SELECT s.ord, 1, format('%s{%s} %s', f.name, s.labels, s.value)
		FROM samples s JOIN families f USING (ord)
	) AS lines;
END;

COMMENT ON FUNCTION scanbench_metrics() IS
'the latest run of each relation and cache mode in the Prometheus text exposition format (gauges; rates in bytes/s, efficiency in %)';

REVOKE ALL ON FUNCTION scanbench_metrics() FROM PUBLIC;
GRANT SELECT ON scan_trend TO pg_monitor;
GRANT EXECUTE ON FUNCTION scanbench_metrics() TO pg_monitor;

--
-- The chart in C: scan_history_svg reads the runs with one query and draws
-- them with src/chart.c (scales, axes, the interval band, the lines, the
-- changes marked), which a reader can follow and a test can check, instead
-- of 274 lines of string concatenation.  CREATE OR REPLACE keeps the
-- grants (pg_monitor may draw it) and whatever a user built on it; the
-- helper that fed the PL/pgSQL body, scan_history_svg_runs, was dropped
-- above.  Not STRICT: NULL rel draws every relation, NULL cache every
-- cache mode.
--
CREATE OR REPLACE FUNCTION scan_history_svg(rel regclass DEFAULT NULL,
								 cache text DEFAULT 'cold',
								 days integer DEFAULT 90,
								 min_pct float8 DEFAULT NULL,
								 max_drop_pct float8 DEFAULT 20)
RETURNS text
AS 'MODULE_PATHNAME', 'scan_history_svg'
LANGUAGE C STABLE
SET search_path = pg_catalog, pg_temp;

--
-- One order of arguments: rel, then cache, then the rest, as scan_rate,
-- scan_efficiency and the others have them.  raw_read, raw_read_segments
-- and random_read had cache after block_size (and reads).  Calls that name
-- their arguments (cache => 'warm') are unchanged; positional ones change
-- from raw_read('t', 65536, 'warm') to raw_read('t', 'warm', 65536).  No
-- overload keeps the old order: a call naming only block_size would match
-- both and be refused as ambiguous.  The library reads the arguments by
-- name, so it serves the old definitions too.
--
DROP FUNCTION raw_read(regclass, integer, text);
DROP FUNCTION raw_read_segments(regclass, integer, text);
DROP FUNCTION random_read(regclass, integer, integer, text);

CREATE FUNCTION raw_read(rel regclass,
						 cache text DEFAULT 'cold',
						 block_size integer DEFAULT 8192)
RETURNS raw_read_result
AS 'MODULE_PATHNAME', 'raw_read'
LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION raw_read(regclass, text, integer) IS
'sequential read of the relation''s segment files, one read() of block_size bytes after another as dd/lmdd do; cache: cold (evicted from the page cache first), warm (one untimed pass first), direct (O_DIRECT) or asis';

CREATE FUNCTION raw_read_segments(rel regclass,
								  cache text DEFAULT 'cold',
								  block_size integer DEFAULT 8192)
RETURNS SETOF raw_read_segment_result
AS 'MODULE_PATHNAME', 'raw_read_segments'
LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION raw_read_segments(regclass, text, integer) IS
'raw_read, one row per segment file, each timed on its own';

CREATE FUNCTION random_read(rel regclass,
							cache text DEFAULT 'cold',
							reads integer DEFAULT 10000,
							block_size integer DEFAULT 8192)
RETURNS random_read_result
AS 'MODULE_PATHNAME', 'random_read'
LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION random_read(regclass, text, integer, integer) IS
'pgiosim-style random reads of block_size bytes at aligned offsets in the relation''s segment files, queue depth 1; cache: cold, warm, direct or asis';

-- They read server files and evict caches: superuser only unless granted.
REVOKE ALL ON FUNCTION raw_read(regclass, text, integer) FROM PUBLIC;
REVOKE ALL ON FUNCTION raw_read_segments(regclass, text, integer) FROM PUBLIC;
REVOKE ALL ON FUNCTION random_read(regclass, text, integer, integer) FROM PUBLIC;

--
-- storage_info for a tablespace under its own name: storage_info(name)
-- beside storage_info(regclass) made storage_info('t') look for a
-- tablespace "t" (a bare literal resolves to name first).  Now
-- storage_info('t') is the relation's and storage_info_tablespace('fast')
-- the tablespace's; the library serves 0.2's overload too.
--
DROP FUNCTION storage_info(name);

CREATE FUNCTION storage_info_tablespace(tablespace name)
RETURNS SETOF storage_info_result
AS 'MODULE_PATHNAME', 'storage_info_tablespace'
LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION storage_info_tablespace(name) IS
'the filesystem and block devices under the tablespace''s directory, one row per layer';

-- It reads /proc and /sys: superuser only unless granted.
REVOKE ALL ON FUNCTION storage_info_tablespace(name) FROM PUBLIC;

--
-- The public surface is what users call: the helpers of the check, the
-- judge and the chart move to a schema of their own, scanbench_internal,
-- so that \df in the extension's schema lists only the functions the
-- documentation describes.  An extension with members in two schemas
-- cannot be moved by ALTER EXTENSION SET SCHEMA, so from 0.3 scanbench is
-- not relocatable (scanbench.control), as most extensions with more than
-- one schema are; its schema is chosen at CREATE EXTENSION ... SCHEMA and
-- its scripts name it as @extschema@.  Bodies written in SQL (BEGIN
-- ATOMIC) and views refer to the helpers by object and follow them;
-- efficiency_check names them and is made again below, and
-- scan_history_judge has the schema in its search path.
--
-- scan_efficiency_node stays beside scan_efficiency_shards: the
-- coordinator calls it on every Citus node by its name there.
--
CREATE SCHEMA scanbench_internal;
COMMENT ON SCHEMA scanbench_internal IS
'helpers of scanbench''s check, judge and chart; not called by users';
-- USAGE lets a role that was granted efficiency_check or the chart reach
-- the helpers; each function's own EXECUTE grant still decides.
GRANT USAGE ON SCHEMA scanbench_internal TO PUBLIC;

ALTER FUNCTION scan_history_kernel() SET SCHEMA scanbench_internal;
ALTER FUNCTION scan_history_outside_block() SET SCHEMA scanbench_internal;
ALTER FUNCTION scan_history_marks(text[]) SET SCHEMA scanbench_internal;
ALTER FUNCTION scan_history_median(bigint, integer) SET SCHEMA scanbench_internal;
ALTER FUNCTION scan_history_check_limits(float8, float8, float8, float8, integer) SET SCHEMA scanbench_internal;

CREATE OR REPLACE PROCEDURE efficiency_check(rel regclass,
								  cache text DEFAULT 'cold',
								  min_pct float8 DEFAULT NULL,
								  max_drop_pct float8 DEFAULT 20,
								  warn_pct float8 DEFAULT NULL,
								  warn_drop_pct float8 DEFAULT 10,
								  window_days integer DEFAULT 30,
								  max_seconds float8 DEFAULT 60,
								  target_pct float8 DEFAULT NULL,
								  sample float8 DEFAULT 1.0,
								  method text DEFAULT 'pairs',
								  runs integer DEFAULT 1)
LANGUAGE plpgsql
AS $$
DECLARE
	run bigint;
	j record;
	missing text;
BEGIN
	missing := CASE WHEN rel IS NULL THEN 'rel' WHEN cache IS NULL THEN 'cache'
				WHEN max_drop_pct IS NULL THEN 'max_drop_pct'
				WHEN window_days IS NULL THEN 'window_days'
				WHEN max_seconds IS NULL THEN 'max_seconds' WHEN sample IS NULL THEN 'sample'
				WHEN method IS NULL THEN 'method' WHEN runs IS NULL THEN 'runs' END;
	IF missing IS NOT NULL THEN
		RAISE EXCEPTION '% must not be NULL', missing
			USING ERRCODE = 'null_value_not_allowed',
				  HINT = 'Leave the argument out for its default; min_pct, warn_pct, warn_drop_pct and target_pct take NULL (no limit, the default warning, no warning, half of max_drop_pct).';
	END IF;
	PERFORM scanbench_internal.scan_history_check_limits(min_pct, max_drop_pct, warn_pct,
														 warn_drop_pct, window_days);
	PERFORM scanbench_internal.scan_history_outside_block();

	PERFORM pg_catalog.pg_advisory_xact_lock(
		(pg_catalog.hashtext('scanbench.efficiency_check')::bigint << 32) | rel::oid::bigint);
	-- The precision the check needs: a drop of max_drop_pct is told from
	-- noise when the interval is within half of it.
	run := scanbench_internal.scan_history_measure(rel, cache, runs, sample, max_seconds,
												   coalesce(target_pct, max_drop_pct / 2), method,
												   min_pct, max_drop_pct, warn_pct,
												   warn_drop_pct, window_days);
	COMMIT;

	SELECT * INTO j FROM @extschema@.scan_history_judge(run, min_pct, max_drop_pct, warn_pct,
														 warn_drop_pct, window_days);
	IF j.status = 'regression' THEN
		RAISE EXCEPTION USING ERRCODE = 'SB001', MESSAGE = j.message,
			DETAIL = j.detail, HINT = j.hint;
	ELSIF j.status IN ('warning', 'not_judged') THEN
		RAISE WARNING USING MESSAGE = j.message, DETAIL = j.detail, HINT = j.hint;
	ELSE
		RAISE NOTICE USING MESSAGE = j.message;
	END IF;
END
$$;

-- The fleet's runner writes rows with COPY: a role that records for a
-- fleet needs INSERT on the table and USAGE on its sequence, granted by
-- the DBA (see doc/fleet.md); nothing here grants them to anyone.

-- What would make a scan faster here: scan_advice measures each change a
-- session can try against the current setting, in interleaved pairs of
-- scans, and predicts the rest (server and host settings) from the scan's
-- breakdown, with the model stated.  Facts that move the CPU share go
-- with every scan_efficiency result.
--
CREATE TYPE scan_advice_result AS (
	relation regclass,
	setting text,
	value text,
	current text,
	gain float8,
	gain_lo float8,
	gain_hi float8,
	measured boolean,
	pairs integer,
	basis text,
	cost text,
	command text
);

COMMENT ON TYPE scan_advice_result IS 'one candidate change of scan_advice: measured here, or predicted from the scan''s breakdown';
COMMENT ON COLUMN scan_advice_result.relation IS 'the relation scanned';
COMMENT ON COLUMN scan_advice_result.setting IS 'what to change: a server setting, data_checksums, read-ahead, scheduler, or a control group file (cpu.max, io.max rbps, and their cgroup v1 names)';
COMMENT ON COLUMN scan_advice_result.value IS 'the value proposed';
COMMENT ON COLUMN scan_advice_result.current IS 'the value now, as SHOW prints it (for max_parallel_workers_per_gather: the workers the planner gives this scan now)';
COMMENT ON COLUMN scan_advice_result.gain IS 'scan rate with the change divided by the rate without it (1.30: 30 % faster); measured: the median of the pair ratios; predicted: the most the model allows; NULL when nothing predicts it';
COMMENT ON COLUMN scan_advice_result.gain_lo IS 'measured: lower end of the 95 % interval of the median ratio (NULL below six pairs); predicted: NULL, nothing promises a gain';
COMMENT ON COLUMN scan_advice_result.gain_hi IS 'measured: upper end of that interval; predicted: the model''s bound, as gain';
COMMENT ON COLUMN scan_advice_result.measured IS 'true: measured in this call against the current setting; false: predicted, never measured (basis says from what)';
COMMENT ON COLUMN scan_advice_result.pairs IS 'pairs of scans measured (current, proposed, alternating in order); 0 when predicted';
COMMENT ON COLUMN scan_advice_result.basis IS 'how the gain was found: the pairs, or the model and the figures it was given (storage-limited: at most min(storage, warm scan) / scan)';
COMMENT ON COLUMN scan_advice_result.cost IS 'what the change costs: none (a SET), CPU (more processes), reload, restart, root (the host or its control groups)';
COMMENT ON COLUMN scan_advice_result.command IS 'the exact command that makes the change';

CREATE FUNCTION scan_advice(rel regclass,
							cache text DEFAULT 'cold',
							max_seconds float8 DEFAULT 60,
							query text DEFAULT 'count(1)')
RETURNS SETOF scan_advice_result
AS 'MODULE_PATHNAME', 'scan_advice'
LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION scan_advice(regclass, text, float8, text) IS
'candidate changes that could make the scan faster here, best first: session settings measured in interleaved pairs against the current ones, server and host settings predicted from the scan''s breakdown, each with its gain, cost and command, within max_seconds';

REVOKE ALL ON FUNCTION scan_advice(regclass, text, float8, text) FROM PUBLIC;

ALTER TYPE scan_efficiency_result
	ADD ATTRIBUTE data_checksums boolean CASCADE,
	ADD ATTRIBUTE jit boolean CASCADE,
	ADD ATTRIBUTE io_max_combine_limit integer CASCADE,
	ADD ATTRIBUTE io_workers integer CASCADE,
	ADD ATTRIBUTE server_major integer CASCADE;

COMMENT ON COLUMN scan_efficiency_result.data_checksums IS 'data checksums on: every page read into shared buffers is verified, at a CPU cost per page';
COMMENT ON COLUMN scan_efficiency_result.jit IS 'the jit setting during the call';
COMMENT ON COLUMN scan_efficiency_result.io_max_combine_limit IS 'io_max_combine_limit, the cap of io_combine_limit, in blocks (block_size each); NULL before PostgreSQL 18';
COMMENT ON COLUMN scan_efficiency_result.io_workers IS 'I/O worker processes running during the call (io_method = worker); NULL where I/O workers are not used';
COMMENT ON COLUMN scan_efficiency_result.server_major IS 'the server''s major version, such as 18';

--
-- One vocabulary for result columns: a rate is read_mb_s or scan_mb_s,
-- a time read_s, scan_s or elapsed_s, a share scan_pct, a filesystem
-- filesystem, as scan_efficiency and the history name them.  Renamed:
--   raw_read_result, raw_read_segment_result, random_read_result:
--     seconds -> read_s, mb_s -> read_mb_s
--   scan_rate_result: seconds -> scan_s, mb_s -> scan_mb_s
--   scan_shape_result, scan_sweep_result: seconds -> scan_s,
--     mb_s -> scan_mb_s, read_pct -> scan_pct
--   scan_breakdown_result: seconds -> scan_s, t_read_s -> read_s,
--     t_cpu_s -> cpu_s
--   storage_info_result: fstype -> filesystem
--   storage_profile_result: seconds -> elapsed_s (mb_s stays: a test's
--     rate, written or read)
-- CASCADE renames the columns of tables made OF these types too.  The
-- library fills a column under its old name for an older definition
-- (src/rows.c).
--
ALTER TYPE raw_read_result RENAME ATTRIBUTE seconds TO read_s CASCADE;
ALTER TYPE raw_read_result RENAME ATTRIBUTE mb_s TO read_mb_s CASCADE;
ALTER TYPE raw_read_segment_result RENAME ATTRIBUTE seconds TO read_s CASCADE;
ALTER TYPE raw_read_segment_result RENAME ATTRIBUTE mb_s TO read_mb_s CASCADE;
ALTER TYPE random_read_result RENAME ATTRIBUTE seconds TO read_s CASCADE;
ALTER TYPE random_read_result RENAME ATTRIBUTE mb_s TO read_mb_s CASCADE;
ALTER TYPE scan_rate_result RENAME ATTRIBUTE seconds TO scan_s CASCADE;
ALTER TYPE scan_rate_result RENAME ATTRIBUTE mb_s TO scan_mb_s CASCADE;
ALTER TYPE scan_shape_result RENAME ATTRIBUTE seconds TO scan_s CASCADE;
ALTER TYPE scan_shape_result RENAME ATTRIBUTE mb_s TO scan_mb_s CASCADE;
ALTER TYPE scan_shape_result RENAME ATTRIBUTE read_pct TO scan_pct CASCADE;
ALTER TYPE scan_sweep_result RENAME ATTRIBUTE seconds TO scan_s CASCADE;
ALTER TYPE scan_sweep_result RENAME ATTRIBUTE mb_s TO scan_mb_s CASCADE;
ALTER TYPE scan_sweep_result RENAME ATTRIBUTE read_pct TO scan_pct CASCADE;
ALTER TYPE scan_breakdown_result RENAME ATTRIBUTE seconds TO scan_s CASCADE;
ALTER TYPE scan_breakdown_result RENAME ATTRIBUTE t_read_s TO read_s CASCADE;
ALTER TYPE scan_breakdown_result RENAME ATTRIBUTE t_cpu_s TO cpu_s CASCADE;
ALTER TYPE storage_info_result RENAME ATTRIBUTE fstype TO filesystem CASCADE;
ALTER TYPE storage_profile_result RENAME ATTRIBUTE seconds TO elapsed_s CASCADE;

COMMENT ON COLUMN raw_read_result.read_mb_s IS 'bytes / read_s, in MB/s (10^6 bytes)';
COMMENT ON COLUMN raw_read_segment_result.read_mb_s IS 'bytes / read_s, in MB/s (10^6 bytes)';
COMMENT ON COLUMN scan_rate_result.scan_mb_s IS 'bytes / scan_s, in MB/s (10^6 bytes)';
COMMENT ON COLUMN scan_rate_result.rows_s IS 'rows / scan_s';
COMMENT ON COLUMN scan_shape_result.scan_mb_s IS 'relation bytes / scan_s, in MB/s (10^6 bytes)';
COMMENT ON COLUMN scan_shape_result.rows_s IS 'rows / scan_s';
COMMENT ON COLUMN scan_shape_result.scan_pct IS 'scan_mb_s as a percentage of read_mb_s';
COMMENT ON COLUMN scan_sweep_result.scan_mb_s IS 'relation bytes / scan_s, in MB/s (10^6 bytes)';
COMMENT ON COLUMN scan_sweep_result.scan_pct IS 'scan_mb_s as a percentage of read_mb_s';
COMMENT ON COLUMN scan_sweep_result.speedup IS 'scan_s of the first value / scan_s of this one';
COMMENT ON COLUMN scan_breakdown_result.warm_mb_s IS 'bytes / cpu_s, in MB/s';
COMMENT ON COLUMN scan_breakdown_result.scan_mb_s IS 'bytes / scan_s, in MB/s (10^6 bytes)';
COMMENT ON COLUMN scan_breakdown_result.read_mb_s IS 'bytes / read_s, in MB/s';

--
-- NULL arguments.  A measuring function refuses a NULL by the argument's
-- name (SQLSTATE 22004) before it opens anything, instead of the row of
-- NULLs a STRICT function returns without a word; the library checks, so
-- under the STRICT definitions of 0.1 and 0.2 it is never called with one.
-- scan_history_median is STRICT: a NULL run or window gives NULL.
--
ALTER FUNCTION raw_read(regclass, text, integer) CALLED ON NULL INPUT;
ALTER FUNCTION raw_read_segments(regclass, text, integer) CALLED ON NULL INPUT;
ALTER FUNCTION random_read(regclass, text, integer, integer) CALLED ON NULL INPUT;
ALTER FUNCTION scan_rate(regclass, text, text, integer) CALLED ON NULL INPUT;
ALTER FUNCTION scan_breakdown(regclass, text, text, integer) CALLED ON NULL INPUT;
ALTER FUNCTION scan_shapes(regclass, text, integer) CALLED ON NULL INPUT;
ALTER FUNCTION scan_efficiency(regclass, text, integer, integer, float8, float8, float8, text, boolean, boolean, boolean) CALLED ON NULL INPUT;
ALTER FUNCTION storage_info(regclass) CALLED ON NULL INPUT;
ALTER FUNCTION storage_info_tablespace(name) CALLED ON NULL INPUT;
ALTER FUNCTION storage_profile(name, integer, integer, integer) CALLED ON NULL INPUT;
ALTER FUNCTION scan_efficiency_shards(regclass, text, integer, integer) CALLED ON NULL INPUT;
ALTER FUNCTION scan_efficiency_node(text, text, integer, bigint[], text[]) CALLED ON NULL INPUT;
ALTER FUNCTION scan_advice(regclass, text, float8, text) CALLED ON NULL INPUT;
ALTER FUNCTION scanbench_internal.scan_history_median(bigint, integer) STRICT;

--
-- A Citus cluster's row (scan_efficiency on a distributed table) has
-- columns of its own: filesystem and device describe one server's storage
-- and are NULL there, instead of 0.2's 'citus' and 'N nodes, M placements'
-- (which the library still gives under 0.2's definition).
--
ALTER TYPE scan_efficiency_result
	ADD ATTRIBUTE citus_nodes integer CASCADE,
	ADD ATTRIBUTE citus_placements integer CASCADE;
COMMENT ON COLUMN scan_efficiency_result.citus_nodes IS 'on a Citus distributed table: the nodes measured (the coordinator''s row for the whole cluster); NULL on one server';
COMMENT ON COLUMN scan_efficiency_result.citus_placements IS 'on a Citus distributed table: the shard placements read; NULL on one server';

--
-- The functions that record a result row.  A body written in SQL (BEGIN
-- ATOMIC) keeps the column names the row had when the body was made, so
-- they are made here, after the renames and the new columns above, and
-- name today's columns, as a fresh install's do.
--
CREATE FUNCTION scan_history_record(run scan_efficiency_result,
									min_pct float8 DEFAULT NULL,
									max_drop_pct float8 DEFAULT NULL,
									warn_pct float8 DEFAULT NULL,
									warn_drop_pct float8 DEFAULT NULL,
									window_days integer DEFAULT NULL)
RETURNS bigint
LANGUAGE sql VOLATILE
BEGIN ATOMIC
	INSERT INTO scan_history (measured_at, relid, relschema, relname, cache,
		bytes, rows, block_size, runs, read_mb_s, scan_mb_s, scan_pct,
		scan_pct_lo, scan_pct_hi, scan_pct_p10, scan_pct_p90, read_s, scan_s,
		read_cached_pct, scan_cached_pct, method, pairs, coverage_pct,
		elapsed_s, verdict, write_mb_s, filesystem, device, scheduler,
		read_ahead_kb, kernel, server_version, settings,
		cpu_wait_s, cpu_throttled_s, cpu_quota_us, cpu_period_us,
		read_bps_limit, write_bps_limit, read_iops_limit, write_iops_limit,
		limit_min_pct, limit_max_drop_pct, limit_warn_pct, limit_warn_drop_pct,
		limit_window_days, data_checksums, jit, io_max_combine_limit,
		io_workers, server_major)
	SELECT coalesce((j ->> 'measured_at')::timestamptz, now()), c.oid,
		n.nspname, c.relname, j ->> 'cache',
		(j ->> 'bytes')::bigint, (j ->> 'rows')::bigint,
		(j ->> 'block_size')::integer, (j ->> 'runs')::integer,
		(j ->> 'read_mb_s')::float8, (j ->> 'scan_mb_s')::float8,
		(j ->> 'scan_pct')::float8, (j ->> 'scan_pct_lo')::float8,
		(j ->> 'scan_pct_hi')::float8, (j ->> 'scan_pct_p10')::float8,
		(j ->> 'scan_pct_p90')::float8, (j ->> 'read_s')::float8,
		(j ->> 'scan_s')::float8, (j ->> 'read_cached_pct')::float8,
		(j ->> 'scan_cached_pct')::float8, j ->> 'method',
		(j ->> 'pairs')::integer, (j ->> 'coverage_pct')::float8,
		(j ->> 'elapsed_s')::float8,
		CASE jsonb_typeof(j -> 'verdict')
			WHEN 'array' THEN ARRAY(SELECT jsonb_array_elements_text(j -> 'verdict'))
			WHEN 'string' THEN string_to_array(j ->> 'verdict', ',') END,
		(j ->> 'write_mb_s')::float8, j ->> 'filesystem', j ->> 'device',
		st.scheduler, st.read_ahead_kb, scanbench_internal.scan_history_kernel(),
		current_setting('server_version'),
		coalesce(j -> 'settings',
				 (SELECT jsonb_object_agg(s.name, current_setting(s.name))
				  FROM pg_settings s
				  WHERE s.name IN ('io_method', 'io_workers', 'io_combine_limit',
								   'effective_io_concurrency', 'track_io_timing',
								   'shared_buffers'))),
		(j ->> 'cpu_wait_s')::float8, (j ->> 'cpu_throttled_s')::float8,
		(j ->> 'cpu_quota_us')::bigint, (j ->> 'cpu_period_us')::bigint,
		(j ->> 'read_bps_limit')::bigint, (j ->> 'write_bps_limit')::bigint,
		(j ->> 'read_iops_limit')::bigint, (j ->> 'write_iops_limit')::bigint,
		scan_history_record.min_pct, scan_history_record.max_drop_pct,
		scan_history_record.warn_pct, scan_history_record.warn_drop_pct,
		scan_history_record.window_days,
		(j ->> 'data_checksums')::boolean, (j ->> 'jit')::boolean,
		(j ->> 'io_max_combine_limit')::integer, (j ->> 'io_workers')::integer,
		coalesce((j ->> 'server_major')::integer,
				 current_setting('server_version_num')::integer / 10000)
	FROM to_jsonb(run) AS j,
		pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace,
		-- The device layers under the relation's first file: every
		-- scheduler on the way down (a device-mapper volume's "none" over
		-- its disk's "mq-deadline"), and the read-ahead of the device the
		-- filesystem sits on, which is the one its reads use.
		(SELECT string_agg(i.scheduler, '/' ORDER BY i.level)
				FILTER (WHERE i.scheduler IS NOT NULL) AS scheduler,
				(array_agg(i.read_ahead_kb ORDER BY i.level)
				 FILTER (WHERE i.read_ahead_kb IS NOT NULL))[1] AS read_ahead_kb
		 FROM storage_info((run).relation) AS i WHERE i.level > 0) AS st
	WHERE c.oid = (run).relation
	RETURNING id;
END;

COMMENT ON FUNCTION scan_history_record(scan_efficiency_result, float8, float8, float8, float8, integer) IS
'add a scan_efficiency result row to scan_history, with the schedulers and read-ahead of the devices under it (storage_info), the server''s control group limits, the kernel, server version and I/O settings, and the limits it is judged with (efficiency_check gives them; scan_history_judge uses them when given none); returns the run number';

-- efficiency_check's measurement puts the caches back as they were: a
-- nightly cold check must not leave the morning's queries reading from disk.
CREATE FUNCTION scanbench_internal.scan_history_measure(rel regclass, cache text, runs integer,
									 sample float8, max_seconds float8,
									 target_pct float8, method text,
									 min_pct float8 DEFAULT NULL,
									 max_drop_pct float8 DEFAULT NULL,
									 warn_pct float8 DEFAULT NULL,
									 warn_drop_pct float8 DEFAULT NULL,
									 window_days integer DEFAULT NULL)
RETURNS bigint
LANGUAGE sql VOLATILE
SET client_min_messages = error
BEGIN ATOMIC
	SELECT scan_history_record(r, scan_history_measure.min_pct,
							   scan_history_measure.max_drop_pct,
							   scan_history_measure.warn_pct,
							   scan_history_measure.warn_drop_pct,
							   scan_history_measure.window_days)
	FROM scan_efficiency(scan_history_measure.rel, scan_history_measure.cache,
						 runs => scan_history_measure.runs,
						 sample => scan_history_measure.sample,
						 max_seconds => scan_history_measure.max_seconds,
						 target_pct => scan_history_measure.target_pct,
						 method => scan_history_measure.method,
						 restore => true) AS r;
END;

COMMENT ON FUNCTION scanbench_internal.scan_history_measure(regclass, text, integer, float8, float8, float8, text, float8, float8, float8, float8, integer) IS
'measure with scan_efficiency (restoring the caches afterwards) and record the run with the limits it is judged with; returns the run number';

REVOKE ALL ON FUNCTION scan_history_record(scan_efficiency_result, float8, float8, float8, float8, integer) FROM PUBLIC;
REVOKE ALL ON FUNCTION scanbench_internal.scan_history_measure(regclass, text, integer, float8, float8, float8, text, float8, float8, float8, float8, integer) FROM PUBLIC;

--
-- scan_sweep takes cache second, as every other function does:
-- scan_sweep(rel, cache, setting, vals, runs), instead of 0.2's (rel,
-- setting, vals, cache, runs).  cache has no default here: an argument
-- with a default cannot come before setting and vals, which have none.
-- The library reads the arguments by name, so it serves 0.2's definition
-- too.
--
DROP FUNCTION scan_sweep(regclass, text, text[], text, integer);

CREATE FUNCTION scan_sweep(rel regclass,
						   cache text,
						   setting text,
						   vals text[],
						   runs integer DEFAULT 1)
RETURNS SETOF scan_sweep_result
AS 'MODULE_PATHNAME', 'scan_sweep'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION scan_sweep(regclass, text, text, text[], integer) IS
'count(1) scan once per value of a setting a session can change (or parallel_workers), values interleaved over runs rounds, against the raw read rate; cache: cold, warm or asis';

REVOKE ALL ON FUNCTION scan_sweep(regclass, text, text, text[], integer) FROM PUBLIC;

--
-- Comments that still named 0.2's columns (t_read_s, t_cpu_s, seconds)
-- say read_s, cpu_s and elapsed_s, as the columns are now called.
--
COMMENT ON TYPE scan_breakdown_result IS 'one scan taken apart: its time against a raw read (read_s) and a warm scan (cpu_s) of the same blocks, CPU by process, read wait, bytes by source, and shares of wall time';
COMMENT ON COLUMN scan_breakdown_result.no_overlap_pct IS 'scan_pct predicted if reads and CPU never overlapped: 100 * read_s / (read_s + cpu_s)';
COMMENT ON COLUMN scan_breakdown_result.perfect_overlap_pct IS 'scan_pct predicted if they overlapped perfectly: 100 * read_s / max(read_s, cpu_s)';
COMMENT ON FUNCTION scan_breakdown(regclass, text, text, integer) IS
'one scan of SELECT <query> FROM rel decomposed: raw read (read_s) and warm scan (cpu_s) of the same blocks, overlap, CPU by process, read wait, bytes by source, bottleneck';
COMMENT ON COLUMN storage_profile_result.cpu_pct IS '100 * (user_s + sys_s) / elapsed_s, as bonnie++ and iozone report CPU';
-- scan_breakdown on PostgreSQL 19: the scan's own count of its reads, as
-- EXPLAIN (ANALYZE, IO) shows it, beside its read wait, and whether the
-- two accounts agree.  NULL before 19, which does not count them.
--
ALTER TYPE scan_breakdown_result
	ADD ATTRIBUTE stream_reads bigint CASCADE,
	ADD ATTRIBUTE stream_read_blocks bigint CASCADE,
	ADD ATTRIBUTE stream_waits bigint CASCADE,
	ADD ATTRIBUTE stream_distance float8 CASCADE,
	ADD ATTRIBUTE stream_distance_max integer CASCADE,
	ADD ATTRIBUTE stream_check text CASCADE;
COMMENT ON COLUMN scan_breakdown_result.stream_reads IS 'PostgreSQL 19 on: reads the scan''s read streams issued, as EXPLAIN (ANALYZE, IO) counts them (I/O: count), the parallel workers'' included; NULL before 19';
COMMENT ON COLUMN scan_breakdown_result.stream_read_blocks IS 'PostgreSQL 19 on: blocks those reads brought into shared buffers (I/O: count x size); NULL before 19';
COMMENT ON COLUMN scan_breakdown_result.stream_waits IS 'PostgreSQL 19 on: times the scan waited for one of its reads to finish (I/O: waits); NULL before 19';
COMMENT ON COLUMN scan_breakdown_result.stream_distance IS 'PostgreSQL 19 on: the read streams'' mean look-ahead, in buffers (Prefetch: avg); NULL before 19 or when nothing was read through a stream';
COMMENT ON COLUMN scan_breakdown_result.stream_distance_max IS 'PostgreSQL 19 on: the longest look-ahead seen, in buffers (Prefetch: max); NULL before 19';
COMMENT ON COLUMN scan_breakdown_result.stream_check IS 'PostgreSQL 19 on: agree when the scan''s own count of its reads matches the buffer manager''s (stream_read_blocks within 1 % of shared_read; stream waits and io_read_s both there or both not); otherwise which account disagrees and why; NULL before 19';
