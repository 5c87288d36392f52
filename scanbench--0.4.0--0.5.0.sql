/* scanbench--0.4.0--0.5.0.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION scanbench UPDATE TO '0.5.0'" to load this file. \quit

--
-- ==== The history by month ====
--
-- scan_history becomes partitioned by month (see scanbench--0.5.0.sql).
-- A table cannot become partitioned in place: the runs move into a new
-- one, into its default partition (scan_history_partition, called after
-- the update, makes their months: months made here would be part of the
-- extension, and pg_dump would not keep their rows).  What 0.4.0 bound to
-- the old table goes with it and is made again below.
--
DROP VIEW @extschema@.scan_trend;
DROP FUNCTION @extschema@.scanbench_metrics();
DROP FUNCTION scanbench_internal.scan_history_median(bigint, integer);
DROP FUNCTION scanbench_internal.scan_history_window(bigint, integer);
ALTER TABLE @extschema@.scan_history RENAME TO scan_history_0_4;
-- Its constraints' names go with it, so that the new table has the same
-- names as a new installation's (from 18 on, the NOT NULLs' too).
DO $$
DECLARE
	c record;
BEGIN
	FOR c IN SELECT k.conname FROM pg_catalog.pg_constraint k
			 WHERE k.conrelid OPERATOR(pg_catalog.=) '@extschema@.scan_history_0_4'::pg_catalog.regclass
			   AND k.conname OPERATOR(pg_catalog.~) '^scan_history_' LOOP
		EXECUTE pg_catalog.format('ALTER TABLE @extschema@.scan_history_0_4 RENAME CONSTRAINT %I TO %I',
								  c.conname, pg_catalog.regexp_replace(c.conname, '^scan_history_', 'scan_history_0_4_'));
	END LOOP;
END
$$;
ALTER SEQUENCE @extschema@.scan_history_id_seq OWNED BY NONE;
ALTER EXTENSION scanbench DROP TABLE @extschema@.scan_history_0_4;

CREATE TABLE scan_history (
	id					bigint NOT NULL DEFAULT pg_catalog.nextval('scan_history_id_seq'::pg_catalog.regclass),
	measured_at			timestamptz NOT NULL,
	relid				oid,
	relschema			text,
	relname				text NOT NULL,
	cache				text NOT NULL,
	bytes				bigint,
	rows				bigint,
	block_size			integer,
	runs				integer,
	read_mb_s			float8,
	scan_mb_s			float8,
	scan_pct			float8,
	scan_pct_lo			float8,
	scan_pct_hi			float8,
	scan_pct_p10		float8,
	scan_pct_p90		float8,
	read_s				float8,
	scan_s				float8,
	read_cached_pct		float8,
	scan_cached_pct		float8,
	method				text,
	pairs				integer,
	coverage_pct		float8,
	elapsed_s			float8,
	verdict				text[],
	write_mb_s			float8,
	filesystem			text,
	device				text,
	scheduler			text,
	read_ahead_kb		integer,
	kernel				text,
	server_version		text,
	settings			jsonb,
	recorded_by			text NOT NULL DEFAULT current_user,
	-- the waits and the limits of the run
	cpu_wait_s			float8,
	cpu_throttled_s		float8,
	cpu_quota_us		bigint,
	cpu_period_us		bigint,
	read_bps_limit		bigint,
	write_bps_limit		bigint,
	read_iops_limit		bigint,
	write_iops_limit	bigint,
	-- the limits efficiency_check judged the run with, kept so that
	-- judging the run again later gives the verdict the check gave
	limit_min_pct		float8,
	limit_max_drop_pct	float8,
	limit_warn_pct		float8,
	limit_warn_drop_pct	float8,
	limit_window_days	integer,
	-- facts that move the CPU share
	data_checksums		boolean,
	jit					boolean,
	io_max_combine_limit integer,
	io_workers			integer,
	server_major		integer,
	-- the server measured, for a fleet's runs; NULL: this server
	server				text,
	system_identifier	bigint,
	server_host			text,
	server_port			integer,
	server_role			text CONSTRAINT scan_history_server_role_check
							CHECK (server_role IN ('primary', 'standby')),
	tags				jsonb,
	reason				text,
	-- Figures a judgement can use: finite, in range.  A NaN or 1e308
	-- would make every later judgement of the relation wrong or fail.
	CONSTRAINT scan_history_measured_at_check CHECK (pg_catalog.isfinite(measured_at)),
	CONSTRAINT scan_history_scan_pct_check CHECK ((scan_pct OPERATOR(pg_catalog.>=) 0::pg_catalog.float8 AND scan_pct OPERATOR(pg_catalog.<=) 10000::pg_catalog.float8) AND
		(scan_pct_lo OPERATOR(pg_catalog.>=) 0::pg_catalog.float8 AND scan_pct_lo OPERATOR(pg_catalog.<=) 10000::pg_catalog.float8) AND
		(scan_pct_hi OPERATOR(pg_catalog.>=) 0::pg_catalog.float8 AND scan_pct_hi OPERATOR(pg_catalog.<=) 10000::pg_catalog.float8) AND
		(scan_pct_p10 OPERATOR(pg_catalog.>=) 0::pg_catalog.float8 AND scan_pct_p10 OPERATOR(pg_catalog.<=) 10000::pg_catalog.float8) AND
		(scan_pct_p90 OPERATOR(pg_catalog.>=) 0::pg_catalog.float8 AND scan_pct_p90 OPERATOR(pg_catalog.<=) 10000::pg_catalog.float8)),
	CONSTRAINT scan_history_cached_pct_check CHECK ((read_cached_pct OPERATOR(pg_catalog.>=) 0::pg_catalog.float8 AND read_cached_pct OPERATOR(pg_catalog.<=) 100::pg_catalog.float8) AND
		(scan_cached_pct OPERATOR(pg_catalog.>=) 0::pg_catalog.float8 AND scan_cached_pct OPERATOR(pg_catalog.<=) 100::pg_catalog.float8) AND
		(coverage_pct OPERATOR(pg_catalog.>=) 0::pg_catalog.float8 AND coverage_pct OPERATOR(pg_catalog.<=) 100::pg_catalog.float8)),
	CONSTRAINT scan_history_rates_check CHECK ((read_mb_s OPERATOR(pg_catalog.>=) 0::pg_catalog.float8 AND read_mb_s OPERATOR(pg_catalog.<=) 1e9::pg_catalog.float8) AND
		(scan_mb_s OPERATOR(pg_catalog.>=) 0::pg_catalog.float8 AND scan_mb_s OPERATOR(pg_catalog.<=) 1e9::pg_catalog.float8) AND
		(write_mb_s OPERATOR(pg_catalog.>=) 0::pg_catalog.float8 AND write_mb_s OPERATOR(pg_catalog.<=) 1e9::pg_catalog.float8)),
	CONSTRAINT scan_history_seconds_check CHECK ((read_s OPERATOR(pg_catalog.>=) 0::pg_catalog.float8 AND read_s OPERATOR(pg_catalog.<=) 1e9::pg_catalog.float8) AND
		(scan_s OPERATOR(pg_catalog.>=) 0::pg_catalog.float8 AND scan_s OPERATOR(pg_catalog.<=) 1e9::pg_catalog.float8) AND
		(elapsed_s OPERATOR(pg_catalog.>=) 0::pg_catalog.float8 AND elapsed_s OPERATOR(pg_catalog.<=) 1e9::pg_catalog.float8) AND
		(cpu_wait_s OPERATOR(pg_catalog.>=) 0::pg_catalog.float8 AND cpu_wait_s OPERATOR(pg_catalog.<=) 1e9::pg_catalog.float8) AND
		(cpu_throttled_s OPERATOR(pg_catalog.>=) 0::pg_catalog.float8 AND cpu_throttled_s OPERATOR(pg_catalog.<=) 1e9::pg_catalog.float8)),
	CONSTRAINT scan_history_limits_check CHECK ((limit_min_pct OPERATOR(pg_catalog.>) 0::pg_catalog.float8 AND limit_min_pct OPERATOR(pg_catalog.<) 1000::pg_catalog.float8) AND
		(limit_max_drop_pct OPERATOR(pg_catalog.>) 0::pg_catalog.float8 AND limit_max_drop_pct OPERATOR(pg_catalog.<) 100::pg_catalog.float8) AND
		(limit_warn_pct OPERATOR(pg_catalog.>) 0::pg_catalog.float8 AND limit_warn_pct OPERATOR(pg_catalog.<) 1000::pg_catalog.float8) AND
		(limit_warn_drop_pct OPERATOR(pg_catalog.>) 0::pg_catalog.float8 AND limit_warn_drop_pct OPERATOR(pg_catalog.<) 100::pg_catalog.float8) AND
		(limit_window_days OPERATOR(pg_catalog.>=) 1 AND limit_window_days OPERATOR(pg_catalog.<=) 36600))
) PARTITION BY RANGE (measured_at);
ALTER SEQUENCE scan_history_id_seq OWNED BY scan_history.id;

--
-- The history is partitioned by month of measured_at (months in UTC), so
-- that old runs go a month at a time (scan_history_prune drops a month
-- wholly past) and, on Citus, old months can be kept compressed
-- (scan_history_compress).  scan_history_partition makes the months.
-- The parent has no index of its own: each month has its own key and
-- indexes, made by scan_history_keys.  The months are made after the
-- extension, so they are not part of it and pg_dump keeps them as tables
-- of their own, attached to the parent; a partitioned index would make
-- their indexes a second time when its script attaches them.
--
CREATE FUNCTION scanbench_internal.scan_history_distributed() RETURNS boolean
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	-- Asked only where Citus is: without it there is no pg_dist_partition.
	IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_extension e
				   WHERE e.extname OPERATOR(pg_catalog.=) 'citus') THEN
		RETURN false;
	END IF;
	RETURN EXISTS (SELECT 1 FROM pg_catalog.pg_dist_partition d
				   WHERE d.logicalrelid OPERATOR(pg_catalog.=) '@extschema@.scan_history'::pg_catalog.regclass);
END
$$;

COMMENT ON FUNCTION scanbench_internal.scan_history_distributed() IS
'whether scan_history is a table distributed by Citus';

-- A month's key and indexes.  On Citus a key holds the distribution
-- column (server), and run numbers are found through an index of their
-- own.
CREATE FUNCTION scanbench_internal.scan_history_keys(part regclass) RETURNS void
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	nsp name;
	rel name;
BEGIN
	SELECT n.nspname, c.relname INTO STRICT nsp, rel
	FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
	WHERE c.oid = part;
	IF scanbench_internal.scan_history_distributed() THEN
		EXECUTE format('ALTER TABLE %I.%I ADD CONSTRAINT %I PRIMARY KEY (server, id)', nsp, rel, rel || '_pkey');
		EXECUTE format('CREATE INDEX %I ON %I.%I (id)', rel || '_id_idx', nsp, rel);
	ELSE
		EXECUTE format('ALTER TABLE %I.%I ADD CONSTRAINT %I PRIMARY KEY (id)', nsp, rel, rel || '_pkey');
	END IF;
	EXECUTE format('CREATE INDEX %I ON %I.%I (relschema, relname, cache, measured_at)',
				   rel || '_relation_idx', nsp, rel);
	-- Every series of one server, this server's own (server NULL)
	-- included: the runs a run is compared with are read from it alone,
	-- never those of the same relation on the fleet's other servers.
	EXECUTE format('CREATE INDEX %I ON %I.%I (server, relschema, relname, cache, measured_at)',
				   rel || '_server_idx', nsp, rel);
END
$$;

COMMENT ON FUNCTION scanbench_internal.scan_history_keys(regclass) IS
'make the key and the indexes of one partition of scan_history';

-- Whether the caller acts as the history's owner (the owner, a member of
-- its role, or a superuser): only the owner makes, drops and rewrites
-- its months.
CREATE FUNCTION scanbench_internal.scan_history_owned() RETURNS boolean
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
SELECT pg_has_role(c.relowner, 'USAGE') FROM pg_class c
WHERE c.oid = '@extschema@.scan_history'::regclass
$$;

COMMENT ON FUNCTION scanbench_internal.scan_history_owned() IS
'whether the current role acts as the owner of scan_history (its months are made, dropped and compressed by the owner alone)';

-- The partitions with their bounds (NULL for the default partition) and
-- access method, read from the catalog, never from the partitions' names.
-- PostgreSQL gives a partition's bound to SQL only as text (pg_get_expr),
-- printed under the session's DateStyle and TimeZone: under DateStyle =
-- Postgres in Dublin's summer it prints 'IST', which reads back as
-- Israel's time, an hour off.  So both are pinned here: ISO in UTC prints
-- every digit of the time and a numeric offset, and reads back as the
-- same time.
CREATE FUNCTION scanbench_internal.scan_history_months(OUT part regclass,
	OUT from_at timestamptz, OUT to_at timestamptz, OUT access_method name)
RETURNS SETOF record
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
SET DateStyle = 'ISO, YMD'
SET TimeZone = 'UTC'
AS $$
SELECT c.oid::regclass,
	   CASE WHEN b.m[1] = 'MINVALUE' THEN '-infinity' ELSE b.m[1] END::timestamptz,
	   CASE WHEN b.m[2] = 'MAXVALUE' THEN 'infinity' ELSE b.m[2] END::timestamptz,
	   a.amname
FROM pg_inherits i
JOIN pg_class c ON c.oid = i.inhrelid
LEFT JOIN pg_am a ON a.oid = c.relam,
LATERAL regexp_match(pg_get_expr(c.relpartbound, c.oid),
					 'FROM \(''?([^'')]*)''?\) TO \(''?([^'')]*)''?\)') AS b(m)
WHERE i.inhparent = '@extschema@.scan_history'::regclass
ORDER BY 2 NULLS FIRST
$$;

COMMENT ON FUNCTION scanbench_internal.scan_history_months() IS
'the partitions of scan_history: each with its bounds (NULL for the default partition) and access method';

-- Runs of a month that has no partition yet land here, until
-- scan_history_partition makes their month and moves them into it.
CREATE TABLE scan_history_default PARTITION OF scan_history DEFAULT;
COMMENT ON TABLE scan_history_default IS
'the runs of scan_history whose month has no partition yet, until scan_history_partition makes it';
SELECT scanbench_internal.scan_history_keys('scan_history_default'::pg_catalog.regclass);

SELECT pg_catalog.pg_extension_config_dump('scan_history', '');
SELECT pg_catalog.pg_extension_config_dump('scan_history_default', '');
SELECT pg_catalog.pg_extension_config_dump('scan_history_id_seq', '');

COMMENT ON TABLE scan_history IS
'one row per recorded scan_efficiency run (record => true, efficiency_check), partitioned by month of measured_at (scan_history_partition); kept by pg_dump';
COMMENT ON COLUMN scan_history.id IS 'run number, increasing';
COMMENT ON COLUMN scan_history.measured_at IS 'when the run was measured';
COMMENT ON COLUMN scan_history.relid IS 'OID of the relation at the time (changes when the table is reloaded); NULL on a row of a server that could not be asked';
COMMENT ON COLUMN scan_history.relschema IS 'schema of the relation at the time; NULL on a row of a server that could not be asked';
COMMENT ON COLUMN scan_history.relname IS 'name of the relation at the time; runs are compared by schema and name';
COMMENT ON COLUMN scan_history.cache IS 'cache mode: cold, warm or asis';
COMMENT ON COLUMN scan_history.bytes IS 'size of the relation, bytes';
COMMENT ON COLUMN scan_history.rows IS 'rows the scan counted';
COMMENT ON COLUMN scan_history.block_size IS 'raw read size, bytes';
COMMENT ON COLUMN scan_history.runs IS 'runs asked for';
COMMENT ON COLUMN scan_history.read_mb_s IS 'raw read rate, MB/s (10^6 bytes)';
COMMENT ON COLUMN scan_history.scan_mb_s IS 'executor count(1) scan rate, MB/s (10^6 bytes)';
COMMENT ON COLUMN scan_history.scan_pct IS 'scan rate as a percentage of the read rate, %';
COMMENT ON COLUMN scan_history.scan_pct_lo IS 'lower end of the 95 % confidence interval of scan_pct, %';
COMMENT ON COLUMN scan_history.scan_pct_hi IS 'upper end of the 95 % confidence interval of scan_pct, %';
COMMENT ON COLUMN scan_history.scan_pct_p10 IS '10th percentile of the pairs'' scan percentages, %';
COMMENT ON COLUMN scan_history.scan_pct_p90 IS '90th percentile of the pairs'' scan percentages, %';
COMMENT ON COLUMN scan_history.read_s IS 'raw read time, seconds';
COMMENT ON COLUMN scan_history.scan_s IS 'scan time, seconds';
COMMENT ON COLUMN scan_history.read_cached_pct IS 'share of the relation cached before the raw reads, %';
COMMENT ON COLUMN scan_history.scan_cached_pct IS 'share of the relation cached before the scans, %';
COMMENT ON COLUMN scan_history.method IS 'how the relation was measured: pairs of stretches or whole passes (scan_efficiency), or client (scanbench-probe: one timed scan from a client, without the extension; scan_pct NULL, device the storage profile, read_bps_limit and read_iops_limit the volume''s stated baseline)';
COMMENT ON COLUMN scan_history.pairs IS 'read/scan pairs measured';
COMMENT ON COLUMN scan_history.coverage_pct IS 'share of the relation read, %';
COMMENT ON COLUMN scan_history.elapsed_s IS 'time the measurement took, seconds';
COMMENT ON COLUMN scan_history.verdict IS 'the run''s verdict marks: {ok}, or any of unstable, cached, host_cache, burst, cpu_contended, cpu_limited, io_limited, storage_not_limiting';
COMMENT ON COLUMN scan_history.write_mb_s IS 'write rate of the storage, MB/s (10^6 bytes), when measured';
COMMENT ON COLUMN scan_history.filesystem IS 'filesystem type under the relation''s first file';
COMMENT ON COLUMN scan_history.device IS 'block device under the relation''s first file';
COMMENT ON COLUMN scan_history.scheduler IS 'I/O schedulers of the block devices under that file, top down, joined by /';
COMMENT ON COLUMN scan_history.read_ahead_kb IS 'read-ahead of the device the filesystem is on, kB';
COMMENT ON COLUMN scan_history.kernel IS 'running kernel release';
COMMENT ON COLUMN scan_history.server_version IS 'PostgreSQL server_version';
COMMENT ON COLUMN scan_history.settings IS 'the server''s I/O settings, as SHOW prints them';
COMMENT ON COLUMN scan_history.recorded_by IS 'role that recorded the run';
COMMENT ON COLUMN scan_history.cpu_wait_s IS 'seconds the backend was runnable but waiting for a CPU during the run''s timed passes (/proc/self/schedstat), the time its CPU quota held it back included; in the rates, not taken out of them';
COMMENT ON COLUMN scan_history.cpu_throttled_s IS 'seconds the server''s control group was held back by its CPU quota during the run''s timed passes (cgroup cpu.stat); NULL where it cannot be read';
COMMENT ON COLUMN scan_history.cpu_quota_us IS 'CPU time the server''s control group may use per period, microseconds (cgroup v1 cpu.cfs_quota_us, v2 cpu.max), the tightest up to the root; NULL when none';
COMMENT ON COLUMN scan_history.cpu_period_us IS 'the period of that quota, microseconds; NULL when no quota';
COMMENT ON COLUMN scan_history.read_bps_limit IS 'read throttle of the data''s device for the server''s control group, bytes/s (v1 blkio.throttle.read_bps_device, v2 io.max rbps); NULL when none';
COMMENT ON COLUMN scan_history.write_bps_limit IS 'write throttle of that device, bytes/s; NULL when none';
COMMENT ON COLUMN scan_history.read_iops_limit IS 'read throttle of that device, I/O operations/s; NULL when none';
COMMENT ON COLUMN scan_history.write_iops_limit IS 'write throttle of that device, I/O operations/s; NULL when none';
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
COMMENT ON COLUMN scan_history.server IS 'the server measured, as scanbench-fleet names it (its name= tag, else host:port/dbname); NULL: this server';
COMMENT ON COLUMN scan_history.system_identifier IS 'the measured server''s database system identifier (pg_control_system()), shared by a primary and its standbys; NULL: this server';
COMMENT ON COLUMN scan_history.server_host IS 'host (or socket directory) the fleet reached the server at; NULL: this server';
COMMENT ON COLUMN scan_history.server_port IS 'port the fleet reached the server at; NULL: this server';
COMMENT ON COLUMN scan_history.server_role IS 'primary or standby (pg_is_in_recovery()) when measured; NULL: this server, or not known';
COMMENT ON COLUMN scan_history.tags IS 'the server''s tags in the fleet''s servers file, as a JSON object of strings; servers with the same tags are compared with each other';
COMMENT ON COLUMN scan_history.reason IS 'why the server or relation could not be measured (connection refused, lost mid-run, timeout, no scanbench, ...); NULL for a run that was measured';

REVOKE ALL ON TABLE scan_history FROM PUBLIC;
REVOKE ALL ON SEQUENCE scan_history_id_seq FROM PUBLIC;
GRANT SELECT ON TABLE scan_history TO pg_monitor;

-- A check 0.4.0 left NOT VALID (the history keeps nonsense an older
-- version took: see scanbench--0.3--0.4.0.sql) stays NOT VALID, so that
-- no row is lost.
DO $$
DECLARE
	c record;
	unvalidated text[] := '{}';
	defs text[] := '{}';
BEGIN
	FOR c IN SELECT pg_catalog.regexp_replace(k.conname, '^scan_history_0_4_', 'scan_history_') AS conname,
					pg_catalog.pg_get_constraintdef(k.oid) AS def
			 FROM pg_catalog.pg_constraint k
			 WHERE k.conrelid OPERATOR(pg_catalog.=) '@extschema@.scan_history_0_4'::pg_catalog.regclass
			   AND k.contype OPERATOR(pg_catalog.=) 'c'::pg_catalog.char AND NOT k.convalidated LOOP
		EXECUTE pg_catalog.format('ALTER TABLE @extschema@.scan_history DROP CONSTRAINT %I', c.conname);
		unvalidated := pg_catalog.array_append(unvalidated, c.conname::pg_catalog.text);
		defs := pg_catalog.array_append(defs, c.def);
	END LOOP;
	INSERT INTO @extschema@.scan_history SELECT * FROM @extschema@.scan_history_0_4;
	FOR i IN 1 .. coalesce(pg_catalog.array_length(unvalidated, 1), 0) LOOP
		EXECUTE pg_catalog.format('ALTER TABLE @extschema@.scan_history ADD CONSTRAINT %I %s NOT VALID',
								  unvalidated[i], defs[i]);
	END LOOP;
END
$$;
-- The grants the DBA gave on the history (a fleet's INSERT) stay given.
DO $$
DECLARE
	g record;
BEGIN
	FOR g IN SELECT a.privilege_type, a.grantee::pg_catalog.regrole::pg_catalog.text AS grantee, a.is_grantable
			 FROM pg_catalog.pg_class c, pg_catalog.aclexplode(c.relacl) a
			 WHERE c.oid OPERATOR(pg_catalog.=) '@extschema@.scan_history_0_4'::pg_catalog.regclass
			   AND a.grantee OPERATOR(pg_catalog.<>) 0::pg_catalog.oid
			   AND a.grantee OPERATOR(pg_catalog.<>) c.relowner LOOP
		EXECUTE pg_catalog.format('GRANT %s ON TABLE @extschema@.scan_history TO %s%s',
								  g.privilege_type, g.grantee,
								  CASE WHEN g.is_grantable THEN ' WITH GRANT OPTION' ELSE '' END);
	END LOOP;
END
$$;
DROP TABLE @extschema@.scan_history_0_4;

--
-- ==== The device's own rate beside the dd-like read ====
--
-- scan_efficiency also reads the same blocks as a device is read by a
-- reader that keeps it busy (O_DIRECT, 1 MB, many in flight), and gives
-- the scan as a percentage of that; the verdict gains depth_limited.
--
ALTER TYPE @extschema@.scan_efficiency_result
	ADD ATTRIBUTE device_mb_s float8 CASCADE,
	ADD ATTRIBUTE device_pct float8 CASCADE,
	ADD ATTRIBUTE device_depth integer CASCADE;
COMMENT ON COLUMN @extschema@.scan_efficiency_result.device_mb_s IS 'median rate of the device itself over the same blocks, MB/s: O_DIRECT reads of 1 MB with device_depth in flight, as fio reads a device with direct=1, bs=1M and that iodepth; cold only; NULL where the filesystem refuses O_DIRECT and under a read limit of the server''s control group (read_bps_limit, read_iops_limit), which sets it';
COMMENT ON COLUMN @extschema@.scan_efficiency_result.device_pct IS 'median scan rate as a percentage of device_mb_s, pair by pair or run by run: how much of what the device delivers to a reader that keeps it busy the scan got (scan_pct compares with one read at a time)';
COMMENT ON COLUMN @extschema@.scan_efficiency_result.device_depth IS 'reads of 1 MB kept in flight by the device reads: 32, or one per MB of a shorter stretch';
COMMENT ON COLUMN @extschema@.scan_efficiency_result.verdict IS 'marks: {ok}, or any of unstable, cached, host_cache, burst, cpu_contended, cpu_limited, io_limited, depth_limited, storage_not_limiting; when nothing was measured, why: {empty} (no blocks) or {over_budget} (no pair within max_seconds)';

-- A body in SQL keeps the columns its result type had when it was made:
-- made again, it reads the type with the device's columns.
CREATE OR REPLACE FUNCTION scanbench_internal.scan_history_measure(rel regclass, cache text, runs integer,
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
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
	SELECT @extschema@.scan_history_record(r, scan_history_measure.min_pct,
							   scan_history_measure.max_drop_pct,
							   scan_history_measure.warn_pct,
							   scan_history_measure.warn_drop_pct,
							   scan_history_measure.window_days)
	FROM @extschema@.scan_efficiency(scan_history_measure.rel, scan_history_measure.cache,
						 runs => scan_history_measure.runs,
						 sample => scan_history_measure.sample,
						 max_seconds => scan_history_measure.max_seconds,
						 target_pct => scan_history_measure.target_pct,
						 method => scan_history_measure.method,
						 restore => true) AS r;
END;


-- Stretches cover the read-ahead window's ramp where the window is large.
COMMENT ON COLUMN @extschema@.scan_efficiency_result.method IS 'pairs (sampled stretches of 8 MB, longer where needed: 16 of the file''s read-ahead windows where they are large and the read is cold and unthrottled; enough to drain a rate limiter''s allowance under the server''s limits) or whole (whole-relation passes)';

--
-- ==== A fleet's runs apart: the trend, the metrics and the judge per server ====
--
-- A central history holds many servers' runs of relations of the same
-- name.  scan_trend gains the server (its last column, as CREATE OR
-- REPLACE VIEW adds one) and a row per server; scanbench_metrics() a
-- series per server, labelled with it and its cohort (the tags), and
-- scanbench_compared_runs; the judge names the server in its message and
-- hint.  The window of compared runs was already the server's own.
--
-- Both are made below, with the judge's helpers they read (the history's
-- move above dropped 0.4.0's).

--
-- ==== Page costs: the planner's seq_page_cost and random_page_cost ====
--
-- page_costs times, cold, the pages of a table read in order (as a
-- sequential scan reads them) and one at a time at random (as an index
-- scan fetches heap pages), alternating the two, and gives their ratio
-- and the random_page_cost it means for the table's tablespace.
--
CREATE TYPE page_costs_result AS (
	relation			regclass,
	tablespace			text,
	pages				bigint,
	cached_pct_before	float8,
	passes				integer,
	rounds				integer,
	seq_pages			bigint,
	random_pages		bigint,
	seq_page_us			float8,
	random_page_us		float8,
	cached_page_us		float8,
	ratio				float8,
	ratio_low			float8,
	ratio_high			float8,
	seq_page_cost		float8,
	random_page_cost	float8,
	recommended_random_page_cost float8,
	recommended_low		float8,
	recommended_high	float8,
	effective_io_concurrency integer,
	depths				integer[],
	depth_pages_s		float8[],
	sweeps				integer,
	recommended_effective_io_concurrency integer,
	recommended_eic_low	integer,
	recommended_eic_high integer,
	command				text,
	untimed_s			float8,
	elapsed_s			float8,
	verdict				text[]
);

COMMENT ON TYPE page_costs_result IS 'page_costs: the cold time of a sequential and of a random page of one table, their ratio, and the random_page_cost it gives';
COMMENT ON COLUMN page_costs_result.relation IS 'the table measured';
COMMENT ON COLUMN page_costs_result.tablespace IS 'its tablespace, whose page costs the figures are';
COMMENT ON COLUMN page_costs_result.pages IS 'pages of the table; the first half is read in order, the second supplies the random pages';
COMMENT ON COLUMN page_costs_result.cached_pct_before IS 'percent of the table in shared_buffers or the page cache before the call: what the recommendation counts as cached';
COMMENT ON COLUMN page_costs_result.passes IS 'passes over the table, each after emptying both caches of it, until the ratio''s interval is within +-5 % or 60 % of max_seconds are spent';
COMMENT ON COLUMN page_costs_result.rounds IS 'rounds of a stretch of sequential pages then a batch of random pages; the ratio is of their mean times';
COMMENT ON COLUMN page_costs_result.seq_pages IS 'sequential pages timed, after the read-ahead ramp and any throttle allowance';
COMMENT ON COLUMN page_costs_result.random_pages IS 'random pages timed, one read of one page at a time';
COMMENT ON COLUMN page_costs_result.seq_page_us IS 'microseconds a sequential page took, cold: the timed stretches over their pages, wall clock, through the buffer manager as a scan reads them; no tuple is looked at';
COMMENT ON COLUMN page_costs_result.random_page_us IS 'microseconds a random page took, cold, read alone as an index scan fetches a heap page';
COMMENT ON COLUMN page_costs_result.cached_page_us IS 'microseconds a page took from the page cache (random pages read again)';
COMMENT ON COLUMN page_costs_result.ratio IS 'the mean random page''s time over the mean sequential page''s, over the rounds: random_page_cost for cold pages when seq_page_cost is 1';
COMMENT ON COLUMN page_costs_result.ratio_low IS 'lower end of the 95 % interval of that ratio (jackknife over the rounds)';
COMMENT ON COLUMN page_costs_result.ratio_high IS 'upper end of the 95 % interval of that ratio (jackknife over the rounds)';
COMMENT ON COLUMN page_costs_result.seq_page_cost IS 'seq_page_cost in force for the tablespace';
COMMENT ON COLUMN page_costs_result.random_page_cost IS 'random_page_cost in force for the tablespace';
COMMENT ON COLUMN page_costs_result.recommended_random_page_cost IS 'random_page_cost the figures give: the expected times of a random and a sequential page when cached_pct_before of them come from the caches, in units of seq_page_cost; NULL when over_budget or cached';
COMMENT ON COLUMN page_costs_result.recommended_low IS 'the recommendation at the ratio''s lower end';
COMMENT ON COLUMN page_costs_result.recommended_high IS 'the recommendation at the ratio''s upper end';
COMMENT ON COLUMN page_costs_result.effective_io_concurrency IS 'effective_io_concurrency in force for the tablespace: the reads a bitmap heap scan keeps in flight';
COMMENT ON COLUMN page_costs_result.depths IS 'the depths the table''s pages were read at, at random: 1, 2, 4, ... until two doublings in a row gained under 5 % each (256 at most)';
COMMENT ON COLUMN page_costs_result.depth_pages_s IS 'random 8 kB reads a second of the table''s blocks at each of those depths, cold, the median over the sweeps; NULL when no sweep was complete';
COMMENT ON COLUMN page_costs_result.sweeps IS 'complete sweeps over the depths (7 at most), in the time max_seconds left after the page times (at least 40 % of it)';
COMMENT ON COLUMN page_costs_result.recommended_effective_io_concurrency IS 'the least depth whose rate came within 90 % of the best depth''s, the median over the sweeps: what a bitmap heap scan of the table needs in flight to get the storage''s random-read rate; NULL when no sweep was complete or the table was cached';
COMMENT ON COLUMN page_costs_result.recommended_eic_low IS 'the least of the sweeps'' such depths; NULL below three sweeps';
COMMENT ON COLUMN page_costs_result.recommended_eic_high IS 'the most of the sweeps'' such depths; NULL below three sweeps';
COMMENT ON COLUMN page_costs_result.command IS 'the statement that sets the recommendations for the tablespace';
COMMENT ON COLUMN page_costs_result.untimed_s IS 'seconds of reads left out of the timing: the read-ahead ramp and, under a read limit, its first allowance on each side of a round';
COMMENT ON COLUMN page_costs_result.elapsed_s IS 'seconds the measurement took, wall clock';
COMMENT ON COLUMN page_costs_result.verdict IS '{ok}, or over_budget (fewer than 10 rounds), unstable (the interval wider than +-15 % of the ratio), cached (the caches held 90 % of the table: no recommendation)';

CREATE FUNCTION page_costs(rel regclass,
						   max_seconds float8 DEFAULT 30)
RETURNS page_costs_result
AS 'MODULE_PATHNAME', 'page_costs'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION page_costs(regclass, float8) IS
'the cold time of a sequential page and of a random page of a table (at least 10 MB), alternated in rounds, their ratio with a 95 % interval, and the random_page_cost it gives for the table''s tablespace, weighed by how much of the table the caches held; then its random-read rate at depths 1, 2, 4, ... and the effective_io_concurrency that gets nearly all of it; within max_seconds (s)';

REVOKE ALL ON FUNCTION page_costs(regclass, float8) FROM PUBLIC;

--
-- ==== The fleet's queue: runners that share a night ====
--
-- Several scanbench-fleet processes given one --night take their servers
-- from these two tables of the central database, so that each server is
-- measured once that night.  A claim is a lease: a runner renews it while
-- it measures and clears it when it records the server's rows (in the
-- same transaction), so a runner that dies leaves its servers to the
-- others once lease_until has passed.  Servers on one disk (the disk= tag
-- of the servers file; a server without one is a disk of its own, named
-- as the server) are never measured at once: a claim takes the disk's row
-- with FOR UPDATE SKIP LOCKED first, and that row holds a lease too.  The
-- rows are a night's working state, not history: pg_dump leaves them out.
-- A role that runs a fleet with --night needs SELECT, INSERT and UPDATE on
-- both, granted by the DBA (see doc/fleet.md).
--
CREATE TABLE fleet_queue (
	night				text NOT NULL,
	server				text NOT NULL,
	disk				text NOT NULL,
	runner				text,
	claimed_at			timestamptz,
	lease_until			timestamptz,
	finished_at			timestamptz,
	PRIMARY KEY (night, server)
);
CREATE INDEX fleet_queue_disk_idx ON fleet_queue (night, disk);

COMMENT ON TABLE fleet_queue IS
'the servers of each night of scanbench-fleet --night, each claimed by one runner at a time and measured once; not kept by pg_dump';
COMMENT ON COLUMN fleet_queue.night IS 'the night, as --night names it';
COMMENT ON COLUMN fleet_queue.server IS 'the server, as scanbench-fleet names it (its name= tag, else host:port/dbname)';
COMMENT ON COLUMN fleet_queue.disk IS 'the disk it is on: its disk= tag, else its own name; servers of one disk are measured one at a time';
COMMENT ON COLUMN fleet_queue.runner IS 'the runner that holds or last held the claim: host:pid';
COMMENT ON COLUMN fleet_queue.claimed_at IS 'when that runner claimed the server';
COMMENT ON COLUMN fleet_queue.lease_until IS 'the claim holds until then, unless renewed; NULL when not claimed or finished';
COMMENT ON COLUMN fleet_queue.finished_at IS 'when its rows went into scan_history; NULL while it is still to be measured';

CREATE TABLE fleet_queue_disk (
	night				text NOT NULL,
	disk				text NOT NULL,
	runner				text,
	server				text,
	lease_until			timestamptz,
	PRIMARY KEY (night, disk)
);

COMMENT ON TABLE fleet_queue_disk IS
'the disks of each night of scanbench-fleet --night: a disk with a lease is measuring one of its servers, and no other server of it starts; not kept by pg_dump';
COMMENT ON COLUMN fleet_queue_disk.night IS 'the night, as --night names it';
COMMENT ON COLUMN fleet_queue_disk.disk IS 'the disk, as fleet_queue.disk names it';
COMMENT ON COLUMN fleet_queue_disk.runner IS 'the runner measuring a server of it: host:pid; NULL when none';
COMMENT ON COLUMN fleet_queue_disk.server IS 'the server being measured; NULL when none';
COMMENT ON COLUMN fleet_queue_disk.lease_until IS 'the disk is busy until then, unless renewed; NULL when free';

CREATE OR REPLACE FUNCTION scanbench_internal.scan_history_window(run bigint, window_days integer)
RETURNS SETOF bigint
LANGUAGE sql STRICT STABLE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
	-- Two branches, a fleet's server and this server (NULL), each an
	-- equality on the server the index can use: "the same server or both
	-- NULL" in one condition is none, and would read the relation's runs
	-- of every server in the central history.
	SELECT h.id
	FROM @extschema@.scan_history cur
	JOIN @extschema@.scan_history h
	  ON h.server OPERATOR(pg_catalog.=) cur.server
	 AND h.relschema OPERATOR(pg_catalog.=) cur.relschema
	 AND h.relname OPERATOR(pg_catalog.=) cur.relname
	 AND h.cache OPERATOR(pg_catalog.=) cur.cache
	 AND h.id OPERATOR(pg_catalog.<>) cur.id
	 AND h.reason IS NULL
	 AND h.measured_at OPERATOR(pg_catalog.<=) cur.measured_at
	 AND h.measured_at OPERATOR(pg_catalog.>) (cur.measured_at OPERATOR(pg_catalog.-)
											pg_catalog.make_interval(days => window_days))
	 AND scanbench_internal.scan_history_usable(h.scan_pct)
	 AND pg_catalog.isfinite(h.measured_at)
	 AND scanbench_internal.scan_history_marks(h.verdict) OPERATOR(pg_catalog.=)
		 coalesce(scanbench_internal.scan_history_marks(cur.verdict), ''::pg_catalog.text)
	WHERE cur.id OPERATOR(pg_catalog.=) scan_history_window.run
	UNION ALL
	SELECT h.id
	FROM @extschema@.scan_history cur
	JOIN @extschema@.scan_history h
	  ON h.server IS NULL
	 AND h.relschema OPERATOR(pg_catalog.=) cur.relschema
	 AND h.relname OPERATOR(pg_catalog.=) cur.relname
	 AND h.cache OPERATOR(pg_catalog.=) cur.cache
	 AND h.id OPERATOR(pg_catalog.<>) cur.id
	 AND h.reason IS NULL
	 AND h.measured_at OPERATOR(pg_catalog.<=) cur.measured_at
	 AND h.measured_at OPERATOR(pg_catalog.>) (cur.measured_at OPERATOR(pg_catalog.-)
											pg_catalog.make_interval(days => window_days))
	 AND scanbench_internal.scan_history_usable(h.scan_pct)
	 AND pg_catalog.isfinite(h.measured_at)
	 AND scanbench_internal.scan_history_marks(h.verdict) OPERATOR(pg_catalog.=)
		 coalesce(scanbench_internal.scan_history_marks(cur.verdict), ''::pg_catalog.text)
	WHERE cur.id OPERATOR(pg_catalog.=) scan_history_window.run
	  AND cur.server IS NULL;
END;

-- The marks of a verdict, read for every row the judge, the trend and the
-- metrics look at: from the table of marks in C, not through the set of
-- scan_verdict_marks() twice a row (a tenth of a millisecond a row, most
-- of a judgement's time in a large history).
CREATE OR REPLACE FUNCTION scanbench_internal.scan_history_marks(verdict text[]) RETURNS text
AS 'MODULE_PATHNAME', 'scan_history_marks'
LANGUAGE C IMMUTABLE PARALLEL SAFE;

--
-- access_paths counts the rows with a key at most a bound through each
-- path the planner has for one btree index (a sequential scan, an index
-- scan, an index-only scan, a bitmap heap scan), cold and warm, and holds
-- each cold index path's page rate against random reads of the table at
-- the depth the path keeps.
--
CREATE TYPE access_paths_result AS (
	relation			regclass,
	idx					regclass,
	path				text,
	cache				text,
	selectivity			float8,
	rows				bigint,
	heap_pages_read		float8,
	index_pages_read	float8,
	pages_hit			float8,
	run_s				float8,
	pages_s				float8,
	depth				integer,
	depth_kept			float8,
	random_pages_s		float8,
	path_pct			float8,
	pct_low				float8,
	pct_high			float8,
	rounds				integer,
	cached_pct_before	float8,
	verdict				text[]
);

COMMENT ON TYPE access_paths_result IS 'access_paths: one count through one access path, cold or warm';
COMMENT ON COLUMN access_paths_result.relation IS 'the table';
COMMENT ON COLUMN access_paths_result.idx IS 'the btree index whose first key bounds the count';
COMMENT ON COLUMN access_paths_result.path IS 'seq (sequential scan), index (index scan), index_only (index-only scan) or bitmap (bitmap heap scan); a path the planner would not take is left out';
COMMENT ON COLUMN access_paths_result.cache IS 'cold (the table and the index evicted from shared_buffers and the page cache before each run) or warm (run once untimed first)';
COMMENT ON COLUMN access_paths_result.selectivity IS 'the share of the table''s rows (reltuples) asked for: the bound is the key at that place in key order';
COMMENT ON COLUMN access_paths_result.rows IS 'count(*)''s answer: the rows with a key at most the bound';
COMMENT ON COLUMN access_paths_result.heap_pages_read IS 'table blocks a run read from outside shared_buffers (mean over the rounds)';
COMMENT ON COLUMN access_paths_result.index_pages_read IS 'index blocks a run read from outside shared_buffers (mean over the rounds)';
COMMENT ON COLUMN access_paths_result.pages_hit IS 'blocks a run found in shared_buffers (mean over the rounds)';
COMMENT ON COLUMN access_paths_result.run_s IS 'seconds a run took, wall clock, executor start to end (mean over the rounds)';
COMMENT ON COLUMN access_paths_result.pages_s IS 'blocks read a second: every relation''s reads over the runs'' time; NULL when nothing was read';
COMMENT ON COLUMN access_paths_result.depth IS 'reads the path keeps in flight: 1 for index and index-only scans, effective_io_concurrency of the table''s tablespace for a bitmap heap scan; NULL for the sequential scan';
COMMENT ON COLUMN access_paths_result.depth_kept IS 'the mean look-ahead the scan''s read stream kept, as EXPLAIN (ANALYZE, IO) counts it (PostgreSQL 19 on; NULL before, and for paths without a stream)';
COMMENT ON COLUMN access_paths_result.random_pages_s IS 'random 8 kB reads a second of the table''s own blocks, cold, depth of them in flight, as many as the path read, alternated with its runs';
COMMENT ON COLUMN access_paths_result.path_pct IS 'pages_s as a percent of random_pages_s: the share of the storage''s random-read rate at that depth the path got, its CPU included';
COMMENT ON COLUMN access_paths_result.pct_low IS 'lower end of the 95 % interval of path_pct over the rounds';
COMMENT ON COLUMN access_paths_result.pct_high IS 'upper end of the 95 % interval of path_pct over the rounds';
COMMENT ON COLUMN access_paths_result.rounds IS 'cold runs of the path, each followed by the random reads, until the interval is within +-5 % or the path''s share of max_seconds is spent; 1 for the sequential scan and warm rows; 0 where that share ran out before a run ended, its figures NULL';
COMMENT ON COLUMN access_paths_result.cached_pct_before IS 'percent of the table and index still resident after an eviction (the most over the rounds)';
COMMENT ON COLUMN access_paths_result.verdict IS '{ok}, or over_budget (fewer than 5 rounds), unstable (the interval wider than +-15 %), cached (more than 5 % resident after eviction), io_limited (the server''s read throttle set the rate)';

CREATE FUNCTION access_paths(rel regclass,
							 idx regclass,
							 selectivity float8 DEFAULT 0.001,
							 max_seconds float8 DEFAULT 60,
							 paths text[] DEFAULT '{seq,index,index_only,bitmap}')
RETURNS SETOF access_paths_result
AS 'MODULE_PATHNAME', 'access_paths'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE ROWS 8;

COMMENT ON FUNCTION access_paths(regclass, regclass, float8, float8, text[]) IS
'the rows with a key of a btree index at most a bound (selectivity of the table), counted through a sequential scan, an index scan, an index-only scan and a bitmap heap scan, cold and warm (those of paths); each cold index path''s page rate against random reads at its depth, in rounds for at most max_seconds (s)';

REVOKE ALL ON FUNCTION access_paths(regclass, regclass, float8, float8, text[]) FROM PUBLIC;

-- The central history on Citus (scan_history_distribute): the window, the
-- median and the judge in PL/pgSQL, each query naming the run's server as
-- a value, and the trend and the metrics in one pass over each series, so
-- that no query on the history runs inside another.
CREATE FUNCTION scanbench_internal.scan_history_compared(cur @extschema@.scan_history,
														 window_days integer)
RETURNS SETOF @extschema@.scan_history
LANGUAGE plpgsql STRICT STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	marks text := coalesce(scanbench_internal.scan_history_marks(cur.verdict), '');
	since timestamptz := cur.measured_at - make_interval(days => window_days);
BEGIN
	IF cur.server IS NULL THEN
		RETURN QUERY
		SELECT h.* FROM @extschema@.scan_history h
		WHERE h.server IS NULL
		  AND h.relschema = cur.relschema AND h.relname = cur.relname
		  AND h.cache = cur.cache AND h.id <> cur.id AND h.reason IS NULL
		  AND h.measured_at <= cur.measured_at AND h.measured_at > since
		  AND scanbench_internal.scan_history_usable(h.scan_pct)
		  AND isfinite(h.measured_at)
		  AND scanbench_internal.scan_history_marks(h.verdict) = marks;
	ELSE
		RETURN QUERY
		SELECT h.* FROM @extschema@.scan_history h
		WHERE h.server = cur.server
		  AND h.relschema = cur.relschema AND h.relname = cur.relname
		  AND h.cache = cur.cache AND h.id <> cur.id AND h.reason IS NULL
		  AND h.measured_at <= cur.measured_at AND h.measured_at > since
		  AND scanbench_internal.scan_history_usable(h.scan_pct)
		  AND isfinite(h.measured_at)
		  AND scanbench_internal.scan_history_marks(h.verdict) = marks;
	END IF;
END
$$;

COMMENT ON FUNCTION scanbench_internal.scan_history_compared(@extschema@.scan_history, integer) IS
'the runs a run (its row of scan_history) is compared with: the earlier judged runs of the same server, relation, cache mode and marks in the window_days (days) up to it, with a usable figure; on a distributed history, read from that server''s shard alone';

CREATE OR REPLACE FUNCTION scanbench_internal.scan_history_window(run bigint, window_days integer)
RETURNS SETOF bigint
LANGUAGE plpgsql STRICT STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	cur @extschema@.scan_history;
BEGIN
	SELECT * INTO cur FROM @extschema@.scan_history h WHERE h.id = run;
	IF FOUND THEN
		RETURN QUERY SELECT c.id FROM scanbench_internal.scan_history_compared(cur, window_days) c;
	END IF;
END
$$;

COMMENT ON FUNCTION scanbench_internal.scan_history_window(bigint, integer) IS
'the runs a run is compared with: the earlier judged runs of the same server, relation, cache mode and marks in the window_days (days) up to it, with a usable figure';

CREATE OR REPLACE FUNCTION scanbench_internal.scan_history_median(run bigint, window_days integer DEFAULT 30,
									OUT median_pct float8, OUT runs integer,
									OUT since timestamptz)
LANGUAGE plpgsql STRICT STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	cur @extschema@.scan_history;
BEGIN
	runs := 0;
	SELECT * INTO cur FROM @extschema@.scan_history h WHERE h.id = run;
	IF FOUND THEN
		SELECT round(percentile_cont(0.5) WITHIN GROUP (ORDER BY c.scan_pct)::numeric, 1)::float8,
			   count(c.id)::int4, min(c.measured_at)
		INTO median_pct, runs, since
		FROM scanbench_internal.scan_history_compared(cur, window_days) c;
	END IF;
END
$$;

-- scan_history_judge gains server (the run's server, to read it from its
-- shard alone): a new argument list, so the function is made again.  A
-- GRANT a DBA gave on the old one (to a checker role, say) goes with it:
-- say so, with the command that gives it again, rather than grant it here,
-- where it would count as the extension's own privilege and pg_dump would
-- leave it out.
DO $$
DECLARE
	who text;
BEGIN
	FOR who IN
		SELECT DISTINCT pg_catalog.quote_ident(r.rolname)
		FROM pg_catalog.pg_proc p,
			 pg_catalog.aclexplode(p.proacl) AS a,
			 pg_catalog.pg_roles r
		WHERE p.oid OPERATOR(pg_catalog.=)
			  '@extschema@.scan_history_judge(bigint, float8, float8, float8, float8, integer)'::pg_catalog.regprocedure
		  AND r.oid OPERATOR(pg_catalog.=) a.grantee
		  AND a.grantee OPERATOR(pg_catalog.<>) p.proowner
		  AND r.rolname OPERATOR(pg_catalog.<>) 'pg_monitor'
		ORDER BY 1
	LOOP
		RAISE WARNING 'scan_history_judge gains an argument: the EXECUTE granted to % on the old one is not carried over', who
			USING HINT = pg_catalog.format('GRANT EXECUTE ON FUNCTION %s.scan_history_judge(bigint, float8, float8, float8, float8, integer, text) TO %s;',
								  '@extschema@', who);
	END LOOP;
END
$$;
DROP FUNCTION scan_history_judge(bigint, float8, float8, float8, float8, integer);
CREATE FUNCTION scan_history_judge(run bigint,
								   min_pct float8 DEFAULT NULL,
								   max_drop_pct float8 DEFAULT NULL,
								   warn_pct float8 DEFAULT NULL,
								   warn_drop_pct float8 DEFAULT NULL,
								   window_days integer DEFAULT NULL,
								   server text DEFAULT NULL,
								   OUT status text, OUT message text,
								   OUT detail text, OUT hint text,
								   OUT median_pct float8, OUT drop_pct float8,
								   OUT earlier_runs integer)
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	ext_schema text;
	cur @extschema@.scan_history;
	compared @extschema@.scan_history[];
	marks text;
	label text;
	subject text;
	since timestamptz;
	changes text;
	fails text[] := '{}';
	few text;
	drop_judged float8;
	warns text[] := '{}';
	warn_at float8;
	lim text;
BEGIN
	SELECT n.nspname INTO ext_schema
	FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
	WHERE e.extname = 'scanbench';
	IF run IS NULL THEN
		RAISE EXCEPTION 'run must not be NULL'
			USING ERRCODE = 'null_value_not_allowed',
				  HINT = 'Give a run number of scan_history (its id column).';
	END IF;

	-- Given its server, the run is read from that server's shard alone; by
	-- its number alone, from every shard of a distributed history.
	IF scan_history_judge.server IS NULL THEN
		SELECT * INTO cur FROM @extschema@.scan_history h WHERE h.id = run;
	ELSE
		SELECT * INTO cur FROM @extschema@.scan_history h
		WHERE h.server = scan_history_judge.server AND h.id = run;
	END IF;
	IF NOT FOUND THEN
		RAISE EXCEPTION 'no run % in scan_history%', run,
			CASE WHEN scan_history_judge.server IS NOT NULL
			THEN format(' of server %s', scan_history_judge.server) ELSE '' END
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
	PERFORM scanbench_internal.scan_history_check_limits(min_pct, max_drop_pct, warn_pct,
														 warn_drop_pct, window_days);

	-- A fleet's run, in a central history, is named with its server: the
	-- same relation on another server is another series.
	label := CASE WHEN cur.relschema = 'public' THEN quote_ident(cur.relname)
			 ELSE quote_ident(cur.relschema) || '.' || quote_ident(cur.relname) END
			 || CASE WHEN cur.server IS NOT NULL THEN ' on ' || cur.server ELSE '' END;
	subject := format('%s scan efficiency %s %%', label, round(cur.scan_pct::numeric, 1));
	hint := format('The runs: SELECT * FROM %I.scan_history WHERE relschema = %L AND relname = %L AND %s ORDER BY measured_at DESC;',
				   ext_schema, cur.relschema, cur.relname,
				   CASE WHEN cur.server IS NULL THEN 'server IS NULL'
				   ELSE format('server = %L', cur.server) END);
	earlier_runs := 0;

	marks := scanbench_internal.scan_history_marks(cur.verdict);
	IF (cur.scan_pct IS NOT NULL AND NOT scanbench_internal.scan_history_usable(cur.scan_pct))
	   OR NOT isfinite(cur.measured_at) THEN
		-- A row kept from before the history checked its figures.
		status := 'not_judged';
		message := CASE WHEN NOT isfinite(cur.measured_at)
				   THEN format('%s scan efficiency was not judged: it was recorded at %s', label, cur.measured_at)
				   ELSE format('%s scan efficiency was not judged: its figure %s %% is not a finite number from 0 to 10000',
							   label, cur.scan_pct) END;
		detail := format('Run %s is left out of every comparison.', cur.id);
		RETURN;
	END IF;
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

	-- The runs it is compared with, read once (from one shard of a
	-- distributed history): their median, then what changed.
	compared := ARRAY(SELECT c FROM scanbench_internal.scan_history_compared(cur, window_days) c);
	SELECT count(*)::int4, round(percentile_cont(0.5) WITHIN GROUP (ORDER BY c.scan_pct)::numeric, 1)::float8,
		   min(c.measured_at)
	INTO earlier_runs, median_pct, since
	FROM unnest(compared) c;

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
	-- A drop is told from noise only against a few runs: with fewer than
	-- three earlier ones, a single noisy run would be the median (the fleet
	-- waits for three as well); the limits on the figure itself still hold.
	IF earlier_runs < 3 THEN
		few := format('a drop is judged from 3 earlier runs, there %s %s',
					  CASE WHEN earlier_runs = 1 THEN 'is' ELSE 'are' END, earlier_runs);
		drop_judged := NULL;
	ELSE
		drop_judged := drop_pct;
	END IF;
	IF drop_judged > max_drop_pct THEN
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
		IF drop_judged > warn_drop_pct THEN
			warns := warns || format('is %s %% below its %s-day median %s %% (the alarm is at %s %%)',
									 round(drop_pct), window_days, round(median_pct::numeric, 1), max_drop_pct);
		END IF;
	END IF;

	-- What changed: each fact of this run against the value most of the
	-- compared runs had (the latest of equally common ones).
	WITH w AS (
		SELECT c.* FROM unnest(compared) c
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
		message := format('%s is within its limits: %s-day median %s %% over %s run%s%s%s',
						  subject, window_days, round(median_pct::numeric, 1), earlier_runs,
						  CASE WHEN earlier_runs > 1 THEN 's' ELSE '' END,
						  CASE WHEN few IS NOT NULL THEN ' (' || few || ')' ELSE '' END,
						  CASE WHEN changes IS NOT NULL THEN '; ' || changes ELSE '' END);
	END IF;
END
$$;

COMMENT ON FUNCTION scan_history_judge(bigint, float8, float8, float8, float8, integer, text) IS
'compare a recorded run with the median of earlier judged runs of the same server, relation, cache mode and marks; status regression, warning, ok, first or not_judged, with a message, and what changed. A limit given NULL (the default) is the one efficiency_check judged the run with, kept in scan_history; for a run recorded otherwise max_drop_pct 20, warn_drop_pct 10, window_days 30 and no min_pct. server, when given, is the run''s server: on a history distributed by server, the run is then read from its shard alone';

REVOKE ALL ON FUNCTION scan_history_judge(bigint, float8, float8, float8, float8, integer, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION scan_history_judge(bigint, float8, float8, float8, float8, integer, text) TO pg_monitor;

CREATE OR REPLACE VIEW scan_trend AS
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

CREATE OR REPLACE FUNCTION scanbench_metrics() RETURNS text
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
	WITH series AS (
		-- Each series' runs recorded and its latest time, hashed in one
		-- pass over the history without sorting it.  Only the runs of the
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
		GROUP BY 1, 2, 3, 4, sh.relname, sh.cache
	), latest AS (
		-- The latest run of each series, with the median it is compared
		-- with, in one pass over each series' recent runs
		-- (scan_history_compared's rule, against the latest run's marks);
		-- no query on the history runs inside another, which Citus would
		-- send to a node.
		SELECT c.*,
			   (SELECT pg_catalog.round(pg_catalog.percentile_cont(0.5::pg_catalog.float8)
										WITHIN GROUP (ORDER BY x.pct)::pg_catalog.numeric, 1)::pg_catalog.float8
				FROM pg_catalog.unnest(c.compared_pct) AS x(pct)) AS median_pct
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
						  FROM (SELECT sh.*, scanbench_internal.scan_history_marks(sh.verdict) AS marks,
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
	), labelled AS (
		-- The schema and the relation are labels of their own, each
		-- escaped (backslash, double quote, line feed), so that a."b.c"
		-- and "a.b".c are two series.
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
	) AS lines;
END;

CREATE FUNCTION scan_history_distribute(shard_count integer DEFAULT 32)
RETURNS bigint
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	own bigint;
	runs bigint;
	failed text;
	p record;
	home_name name;
BEGIN
	IF shard_count IS NULL OR shard_count < 1 OR shard_count > 64000 THEN
		RAISE EXCEPTION 'shard_count must be from 1 to 64000, not %', coalesce(shard_count::text, 'NULL')
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'A few shards a worker node, and more for nodes to come: 32 (the default) suits up to eight nodes.';
	END IF;
	IF NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') THEN
		RAISE EXCEPTION 'scan_history can be distributed only on a Citus coordinator'
			USING ERRCODE = 'feature_not_supported',
				  DETAIL = 'The citus extension is not created in this database.',
				  HINT = 'On one server the history needs nothing more. On a Citus cluster, CREATE EXTENSION citus and add the worker nodes first.';
	END IF;
	IF scanbench_internal.scan_history_distributed() THEN
		RAISE EXCEPTION 'scan_history is distributed already'
			USING ERRCODE = 'object_not_in_prerequisite_state',
				  HINT = 'Its shards: SELECT * FROM citus_shards WHERE table_name = ''scan_history''::regclass;';
	END IF;
	SELECT count(*), count(*) FILTER (WHERE h.server IS NULL) INTO runs, own
	FROM @extschema@.scan_history h;
	IF own > 0 THEN
		RAISE EXCEPTION 'scan_history holds % runs of this database''s own, with no server', own
			USING ERRCODE = 'object_not_in_prerequisite_state',
				  DETAIL = 'A distributed history keeps each run with the server it was measured on (column server); runs recorded here by efficiency_check or record => true have none.',
				  HINT = 'Name their server (UPDATE scan_history SET server = ''coordinator'' WHERE server IS NULL) or delete them, then call it again.';
	END IF;

	-- The key on every node first: the workers' tables become the shells
	-- of the distributed one and keep their own key otherwise.  A worker's
	-- history has its default partition only, in a schema of the same name.
	SELECT n.nspname INTO STRICT home_name
	FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
	WHERE c.oid = '@extschema@.scan_history'::regclass;
	SELECT string_agg(format('%s:%s: %s', r.nodename, r.nodeport, r.result), '; ') INTO failed
	FROM run_command_on_workers(format(
		'ALTER TABLE %1$I.scan_history_default DROP CONSTRAINT scan_history_default_pkey, '
		'ADD CONSTRAINT scan_history_default_pkey PRIMARY KEY (server, id); '
		'CREATE INDEX scan_history_default_id_idx ON %1$I.scan_history_default (id)',
		home_name)) AS r
	WHERE NOT r.success;
	IF failed IS NOT NULL THEN
		RAISE EXCEPTION 'scan_history could not be keyed by server on every node'
			USING ERRCODE = 'object_not_in_prerequisite_state',
				  DETAIL = failed,
				  HINT = 'scanbench must be created on every node (CREATE EXTENSION on the coordinator does it), and a worker''s own history empty.';
	END IF;
	FOR p IN SELECT m.part, c.relname FROM scanbench_internal.scan_history_months() m
			 JOIN pg_class c ON c.oid = m.part LOOP
		EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I, ADD CONSTRAINT %I PRIMARY KEY (server, id)',
					   p.part, p.relname || '_pkey', p.relname || '_pkey');
		EXECUTE format('CREATE INDEX %I ON %s (id)', p.relname || '_id_idx', p.part);
	END LOOP;
	PERFORM create_distributed_table('@extschema@.scan_history'::regclass, 'server',
									 colocate_with => 'none', shard_count => shard_count);
	IF runs > 0 THEN
		-- The rows were copied into the shards; the coordinator's copy goes.
		PERFORM truncate_local_data_after_distributing_table('@extschema@.scan_history'::regclass);
	END IF;
	RETURN runs;
END
$$;

COMMENT ON FUNCTION scan_history_distribute(integer) IS
'on a Citus coordinator: make scan_history a table distributed by server in shard_count shards, each month keyed by (server, id), its runs moved into the shards; every query of the judge, the trend and the metrics then reads one server''s runs on its shard; refused without Citus, when distributed already, or while it holds runs with no server; returns the runs moved';

REVOKE ALL ON FUNCTION scan_history_distribute(integer) FROM PUBLIC;

--
-- A month wholly past the cutoff goes whole (DROP), where the caller owns
-- the history; the runs before the cutoff in the month it falls in, and
-- those waiting in the default partition, are deleted.  A compressed
-- (columnar) month cannot delete rows: its runs stay until the month is
-- wholly past.
--
CREATE OR REPLACE FUNCTION scan_history_prune(older_than interval DEFAULT '400 days')
RETURNS bigint
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	history regclass := '@extschema@.scan_history'::regclass;
	cutoff timestamptz;
	upto timestamptz;
	p record;
	n bigint;
	gone bigint := 0;
BEGIN
	IF older_than IS NULL OR older_than < interval '1 day' THEN
		RAISE EXCEPTION 'older_than must be at least 1 day, not %', coalesce(older_than::text, 'NULL')
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'To empty the history, TRUNCATE scan_history.';
	END IF;
	cutoff := now() - older_than;
	IF scanbench_internal.scan_history_owned() THEN
		FOR p IN SELECT m.part FROM scanbench_internal.scan_history_months() m
				 WHERE m.to_at <= cutoff LOOP
			EXECUTE format('SELECT count(*) FROM %s', p.part) INTO n;
			EXECUTE format('DROP TABLE %s', p.part);
			gone := gone + n;
		END LOOP;
	END IF;
	-- Up to the first compressed month, which would refuse the DELETE.
	SELECT least(cutoff, min(m.from_at)) INTO upto
	FROM scanbench_internal.scan_history_months() m
	WHERE m.access_method <> 'heap' AND m.from_at < cutoff;
	upto := coalesce(upto, cutoff);
	-- Planned with the bound itself (a parameter of a statement planned
	-- once is read as its value), so that the compressed months are left
	-- out of the plan, not only skipped when it runs; a value, never text
	-- read back under the session's DateStyle and TimeZone.
	EXECUTE format('DELETE FROM %s WHERE measured_at < $1', history) USING upto;
	GET DIAGNOSTICS n = ROW_COUNT;
	RETURN gone + n;
END
$$;

COMMENT ON FUNCTION scan_history_prune(interval) IS
'delete recorded runs older than older_than (at least 1 day): the months of scan_history wholly older are dropped (by its owner), the other runs deleted; a compressed month goes only whole; returns the number of runs gone';

REVOKE ALL ON FUNCTION scan_history_prune(interval) FROM PUBLIC;

--
-- The months of the history.  A month is made ahead of its runs (nightly,
-- beside scan_history_prune); runs of a month without its partition wait in
-- the default partition, and the next call makes their month and moves
-- them into it.  While they move, the default partition is out of the
-- table (DETACH takes the history's lock: recording waits until the move
-- commits); when none wait, making a month holds it for a moment.
-- A month's bounds are written as seconds since 1970 (to_timestamp), so
-- that no DateStyle or TimeZone of the session reads them otherwise.  A
-- relation of a month's name made by another role that may create in the
-- history's schema is no month of the history: it is not taken over (its
-- owner would keep her rights on it, and her triggers would run as the
-- history's owner), and it stops only its own month, with a WARNING
-- naming it, never the other months.
--
CREATE FUNCTION scan_history_partition(since timestamptz DEFAULT NULL,
									   months_ahead integer DEFAULT 1)
RETURNS integer
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	history regclass := '@extschema@.scan_history'::regclass;
	home oid;
	home_name name;
	months timestamp[];
	made timestamp[] := '{}';
	m timestamp;
	part name;
	taken record;
	waiting boolean;
	no_month bigint;
BEGIN
	IF months_ahead IS NULL OR months_ahead < 0 OR months_ahead > 120 THEN
		RAISE EXCEPTION 'months_ahead must be from 0 to 120, not %', coalesce(months_ahead::text, 'NULL')
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF since IS NOT NULL AND (NOT isfinite(since) OR since < now() - interval '100 years' OR since > now()) THEN
		RAISE EXCEPTION 'since must be a time of the last 100 years, not %', since
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'Leave it NULL to make this month and the months ahead.';
	END IF;
	IF NOT scanbench_internal.scan_history_owned() THEN
		RAISE EXCEPTION 'only the owner of scan_history can make its months'
			USING ERRCODE = 'insufficient_privilege',
				  HINT = 'Call it as the role that created the extension, nightly, with scan_history_prune.';
	END IF;

	-- The schema the months are made in: the history's, by its name in
	-- the catalog, quoted once where it is written into a command.
	SELECT c.relnamespace, n.nspname INTO STRICT home, home_name
	FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
	WHERE c.oid = history;

	-- One caller at a time.
	LOCK TABLE @extschema@.scan_history_default IN SHARE UPDATE EXCLUSIVE MODE;
	IF scanbench_internal.scan_history_distributed() THEN
		-- Citus runs DDL and a move over many shards in one transaction
		-- only shard by shard.
		PERFORM set_config('citus.multi_shard_modify_mode', 'sequential', true);
	END IF;

	-- The months of the runs waiting, and from since (or now) to
	-- months_ahead past this one, that no partition covers.  A run outside
	-- the years 1 to 9999 (UTC) has no month: scan_history_record refuses
	-- one, and one written otherwise (an infinite time 0.4.0 kept, a row
	-- copied in by hand) stays in the default partition.
	SELECT count(*) INTO no_month
	FROM @extschema@.scan_history_default d
	WHERE NOT (d.measured_at >= make_timestamptz(1, 1, 1, 0, 0, 0, 'UTC')
			   AND d.measured_at < make_timestamptz(10000, 1, 1, 0, 0, 0, 'UTC'));
	IF no_month > 0 THEN
		RAISE WARNING '% runs of scan_history have no month: they were measured outside the years 1 to 9999', no_month
			USING DETAIL = 'They stay in scan_history_default.',
				  HINT = 'See them with SELECT id, measured_at FROM scan_history_default WHERE measured_at < ''0001-01-01 00:00:00+00'' OR measured_at >= ''10000-01-01 00:00:00+00''; and correct or delete them.';
	END IF;
	SELECT array_agg(w.mo ORDER BY w.mo) INTO months
	FROM (SELECT DISTINCT date_trunc('month', d.measured_at AT TIME ZONE 'UTC') AS mo
		  FROM @extschema@.scan_history_default d
		  WHERE d.measured_at >= make_timestamptz(1, 1, 1, 0, 0, 0, 'UTC')
			AND d.measured_at < make_timestamptz(10000, 1, 1, 0, 0, 0, 'UTC')
		  UNION
		  SELECT g.mo
		  FROM generate_series(date_trunc('month', coalesce(since, now()) AT TIME ZONE 'UTC'),
							   date_trunc('month', now() AT TIME ZONE 'UTC')
								   + make_interval(months => months_ahead),
							   interval '1 month') AS g(mo)) AS w
	WHERE NOT EXISTS (SELECT 1 FROM scanbench_internal.scan_history_months() p
					  WHERE p.from_at < (w.mo + interval '1 month') AT TIME ZONE 'UTC'
						AND p.to_at > w.mo AT TIME ZONE 'UTC');
	IF months IS NULL THEN
		RETURN 0;
	END IF;

	waiting := EXISTS (SELECT 1 FROM @extschema@.scan_history_default d
					   WHERE date_trunc('month', d.measured_at AT TIME ZONE 'UTC') = ANY (months));
	IF waiting THEN
		ALTER TABLE @extschema@.scan_history DETACH PARTITION @extschema@.scan_history_default;
	END IF;
	FOREACH m IN ARRAY months LOOP
		part := 'scan_history_' || to_char(m, 'YYYY_MM');
		SELECT c.oid::regclass AS rel, c.relowner::regrole AS owner INTO taken
		FROM pg_class c
		WHERE c.relnamespace = home AND c.relname = part;
		IF FOUND THEN
			RAISE WARNING 'month % of scan_history was not made: % exists and is not one of its months', to_char(m, 'YYYY-MM'), taken.rel
				USING DETAIL = format('%s is owned by %s. The runs of that month wait in scan_history_default until it is made; the other months are made.',
									  taken.rel, taken.owner),
					  HINT = 'Drop or rename it, then call scan_history_partition() again; and let no role but the owner of scan_history create in its schema.';
			CONTINUE;
		END IF;
		BEGIN
			EXECUTE format('CREATE TABLE %I.%I PARTITION OF %s FOR VALUES FROM (pg_catalog.to_timestamp(%s)) TO (pg_catalog.to_timestamp(%s))',
						   home_name, part, history,
						   extract(epoch FROM m)::bigint,
						   extract(epoch FROM m + interval '1 month')::bigint);
			PERFORM scanbench_internal.scan_history_keys(
				(SELECT c.oid FROM pg_class c WHERE c.relnamespace = home AND c.relname = part)::regclass);
		EXCEPTION WHEN duplicate_table OR duplicate_object THEN
			-- A name its keys take (scan_history_2026_07_pkey, ...), or one
			-- made since the look above.
			RAISE WARNING 'month % of scan_history was not made: %', to_char(m, 'YYYY-MM'), SQLERRM
				USING DETAIL = 'The runs of that month wait in scan_history_default until it is made; the other months are made.',
					  HINT = 'Drop or rename what has that name, then call scan_history_partition() again; and let no role but the owner of scan_history create in its schema.';
			CONTINUE;
		END;
		made := made || m;
	END LOOP;
	IF waiting THEN
		INSERT INTO @extschema@.scan_history
		SELECT * FROM @extschema@.scan_history_default d
		WHERE date_trunc('month', d.measured_at AT TIME ZONE 'UTC') = ANY (made);
		IF EXISTS (SELECT 1 FROM @extschema@.scan_history_default d
				   WHERE date_trunc('month', d.measured_at AT TIME ZONE 'UTC') <> ALL (made)) THEN
			DELETE FROM @extschema@.scan_history_default d
			WHERE date_trunc('month', d.measured_at AT TIME ZONE 'UTC') = ANY (made);
		ELSE
			TRUNCATE @extschema@.scan_history_default;
		END IF;
		ALTER TABLE @extschema@.scan_history ATTACH PARTITION @extschema@.scan_history_default DEFAULT;
	END IF;
	RETURN cardinality(made);
END
$$;

COMMENT ON FUNCTION scan_history_partition(timestamptz, integer) IS
'make the monthly partitions of scan_history (months in UTC) that are missing: those of the runs waiting in its default partition, moved into them, and every month from since (default: this one) to months_ahead months past this one; a month whose name another relation has is not made (WARNING); returns the number made; the owner of scan_history only';

REVOKE ALL ON FUNCTION scan_history_partition(timestamptz, integer) FROM PUBLIC;

--
-- On Citus, old months kept compressed: Citus' columnar storage keeps a
-- month of runs in a fraction of its size, read as before; it cannot
-- delete or change a run, so a compressed month goes whole when
-- scan_history_prune finds it wholly past.
--
CREATE FUNCTION scan_history_compress(older_than interval DEFAULT '90 days')
RETURNS integer
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	p record;
	done integer := 0;
	distributed boolean;
BEGIN
	IF older_than IS NULL OR older_than < interval '1 day' THEN
		RAISE EXCEPTION 'older_than must be at least 1 day, not %', coalesce(older_than::text, 'NULL')
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'A month is compressed once it is wholly older than that.';
	END IF;
	IF NOT EXISTS (SELECT 1 FROM pg_am WHERE amname = 'columnar') THEN
		RAISE EXCEPTION 'no columnar storage in this database'
			USING ERRCODE = 'feature_not_supported',
				  DETAIL = 'Compressed months are stored by Citus'' columnar access method.',
				  HINT = 'CREATE EXTENSION citus_columnar first (with Citus, on the coordinator: it is created on the workers too).';
	END IF;
	IF NOT scanbench_internal.scan_history_owned() THEN
		RAISE EXCEPTION 'only the owner of scan_history can compress its months'
			USING ERRCODE = 'insufficient_privilege';
	END IF;
	distributed := scanbench_internal.scan_history_distributed();
	FOR p IN SELECT m.part FROM scanbench_internal.scan_history_months() m
			 WHERE m.to_at <= now() - older_than AND m.access_method = 'heap'
			 ORDER BY m.from_at LOOP
		IF distributed THEN
			-- Citus makes it again on every shard.
			PERFORM alter_table_set_access_method(p.part, 'columnar');
		ELSE
			EXECUTE format('ALTER TABLE %s SET ACCESS METHOD columnar', p.part);
		END IF;
		done := done + 1;
	END LOOP;
	RETURN done;
END
$$;

COMMENT ON FUNCTION scan_history_compress(interval) IS
'store the months of scan_history wholly older than older_than (at least 1 day) in Citus'' columnar storage; refused where there is none; returns the number of months compressed; the owner of scan_history only';

REVOKE ALL ON FUNCTION scan_history_compress(interval) FROM PUBLIC;

-- scan_history_record refuses this database's own runs in a distributed
-- history at once, by name, rather than through Citus' own error.
CREATE OR REPLACE FUNCTION scan_history_record(run scan_efficiency_result,
									min_pct float8 DEFAULT NULL,
									max_drop_pct float8 DEFAULT NULL,
									warn_pct float8 DEFAULT NULL,
									warn_drop_pct float8 DEFAULT NULL,
									window_days integer DEFAULT NULL)
RETURNS bigint
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	j jsonb := to_jsonb(run);
	bad record;
	measured timestamptz;
	new_id bigint;
BEGIN
	-- A NULL result (a call that gave none) records nothing, as before.
	IF run IS NULL OR (run).relation IS NULL THEN
		RETURN NULL;
	END IF;
	IF NOT (j ->> 'cache') = ANY (ARRAY['cold', 'warm', 'asis']) OR j ->> 'cache' IS NULL THEN
		RAISE EXCEPTION 'cannot record a run with cache mode %', coalesce(quote_literal(j ->> 'cache'), 'NULL')
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'A recorded run is measured cold, warm or asis.';
	END IF;
	measured := coalesce((j ->> 'measured_at')::timestamptz, now());
	IF NOT isfinite(measured) THEN
		RAISE EXCEPTION 'cannot record a run measured at %', measured
			USING ERRCODE = 'datetime_field_overflow',
				  HINT = 'measured_at must be a finite time.';
	END IF;
	-- A month of the history is a table named by its year and month
	-- (scan_history_2026_07): a month of 44 BC would take the name of
	-- AD 44's, and the month after the last a timestamp holds (294276)
	-- has no bound.
	IF measured < make_timestamptz(1, 1, 1, 0, 0, 0, 'UTC')
	   OR measured >= make_timestamptz(10000, 1, 1, 0, 0, 0, 'UTC') THEN
		RAISE EXCEPTION 'cannot record a run measured at %: the history keeps the years 1 to 9999', measured
			USING ERRCODE = 'datetime_field_overflow',
				  HINT = 'measured_at must be a time from the year 1 to the year 9999 (UTC).';
	END IF;
	-- Each figure present must be finite and within its range.
	SELECT f.name, (j ->> f.name)::float8::text AS val, f.lo, f.hi INTO bad
	FROM (VALUES ('scan_pct', 0, 10000), ('scan_pct_lo', 0, 10000),
				 ('scan_pct_hi', 0, 10000), ('scan_pct_p10', 0, 10000),
				 ('scan_pct_p90', 0, 10000),
				 ('read_cached_pct', 0, 100), ('scan_cached_pct', 0, 100),
				 ('coverage_pct', 0, 100),
				 ('read_mb_s', 0, 1e9), ('scan_mb_s', 0, 1e9), ('write_mb_s', 0, 1e9),
				 ('read_s', 0, 1e9), ('scan_s', 0, 1e9), ('elapsed_s', 0, 1e9),
				 ('cpu_wait_s', 0, 1e9), ('cpu_throttled_s', 0, 1e9)) AS f(name, lo, hi)
	WHERE j ->> f.name IS NOT NULL
	  AND NOT coalesce((j ->> f.name)::float8 BETWEEN f.lo::float8 AND f.hi::float8, false)
	LIMIT 1;
	IF FOUND THEN
		RAISE EXCEPTION 'cannot record a run whose % is %', bad.name, bad.val
			USING ERRCODE = 'numeric_value_out_of_range',
				  DETAIL = format('A recorded %s must be a finite number from %s to %s.',
								  bad.name, bad.lo, bad.hi);
	END IF;
	IF num_nonnulls(min_pct, max_drop_pct, warn_pct, warn_drop_pct, window_days) > 0 THEN
		PERFORM scanbench_internal.scan_history_check_limits(min_pct, coalesce(max_drop_pct, 20),
															 warn_pct, warn_drop_pct,
															 coalesce(window_days, 30));
	END IF;

	-- A history distributed by server (scan_history_distribute) keeps a
	-- fleet's runs, each with the server it was measured on: this
	-- database's own runs have none.
	IF scanbench_internal.scan_history_distributed() THEN
		RAISE EXCEPTION 'cannot record a run of this database in a history distributed by server'
			USING ERRCODE = 'feature_not_supported',
				  DETAIL = 'Each run of a distributed history names the server it was measured on; this database''s own runs have none.',
				  HINT = 'Keep this server''s runs in the history of another database, or measure it with scanbench-fleet, which names it.';
	END IF;

	INSERT INTO @extschema@.scan_history (measured_at, relid, relschema, relname, cache,
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
	SELECT measured, c.oid,
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
		min_pct, max_drop_pct, warn_pct, warn_drop_pct, window_days,
		(j ->> 'data_checksums')::boolean, (j ->> 'jit')::boolean,
		(j ->> 'io_max_combine_limit')::integer, (j ->> 'io_workers')::integer,
		coalesce((j ->> 'server_major')::integer,
				 current_setting('server_version_num')::integer / 10000)
	FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace,
		-- The device layers under the relation's first file: every
		-- scheduler on the way down (a device-mapper volume's "none" over
		-- its disk's "mq-deadline"), and the read-ahead of the device the
		-- filesystem sits on, which is the one its reads use.
		(SELECT string_agg(i.scheduler, '/' ORDER BY i.level)
				FILTER (WHERE i.scheduler IS NOT NULL) AS scheduler,
				(array_agg(i.read_ahead_kb ORDER BY i.level)
				 FILTER (WHERE i.read_ahead_kb IS NOT NULL))[1] AS read_ahead_kb
		 FROM @extschema@.storage_info((run).relation) AS i WHERE i.level > 0) AS st
	WHERE c.oid = (run).relation
	RETURNING scan_history.id INTO new_id;
	RETURN new_id;
END
$$;

-- The kernel's release is the recording's: a role that records is
-- granted it with scan_history_record (efficiency_check and record =>
-- true ask for both before measuring), and no one else runs it.
REVOKE ALL ON FUNCTION scanbench_internal.scan_history_kernel() FROM PUBLIC;


--
-- ==== The index scan's crossover ====
--
-- index_crossover finds, cold, the share of a table's rows up to which an
-- index scan of one btree index beats a sequential scan, and sets it
-- beside the planner's: under the settings in force and under a
-- random_page_cost tried.
--
CREATE TYPE index_crossover_result AS (
	relation					regclass,
	idx							regclass,
	tablespace					text,
	table_rows					bigint,
	heap_pages					bigint,
	correlation					float8,
	cached_pct_before			float8,
	rounds						integer,
	seq_s						float8,
	crossover_rows				float8,
	crossover_selectivity		float8,
	crossover_low				float8,
	crossover_high				float8,
	planner_crossover			float8,
	random_page_cost			float8,
	seq_page_cost				float8,
	planned_at_half				text,
	planned_at_twice			text,
	matching_random_page_cost	float8,
	matching_low				float8,
	matching_high				float8,
	checked_random_page_cost	float8,
	checked_crossover			float8,
	checked_at_half				text,
	checked_at_twice			text,
	command						text,
	elapsed_s					float8,
	verdict						text[]
);

COMMENT ON TYPE index_crossover_result IS 'index_crossover: where an index scan stops beating a sequential scan, measured and planned';
COMMENT ON COLUMN index_crossover_result.relation IS 'the table';
COMMENT ON COLUMN index_crossover_result.idx IS 'the btree index whose first key bounds the rows asked for';
COMMENT ON COLUMN index_crossover_result.tablespace IS 'the table''s tablespace, whose page costs the planner uses';
COMMENT ON COLUMN index_crossover_result.table_rows IS 'the table''s rows as the planner has them (reltuples): selectivities are shares of it';
COMMENT ON COLUMN index_crossover_result.heap_pages IS 'pages of the table';
COMMENT ON COLUMN index_crossover_result.correlation IS 'the correlation between the key''s order and the table''s, as ANALYZE found it (pg_stats.correlation); NULL without statistics';
COMMENT ON COLUMN index_crossover_result.cached_pct_before IS 'percent of the table in shared_buffers or the page cache before the call';
COMMENT ON COLUMN index_crossover_result.rounds IS 'rounds of a cold sequential scan then a cold index scan stopped at the sequential scan''s time, until the crossover''s interval is within +-10 % or max_seconds are spent';
COMMENT ON COLUMN index_crossover_result.seq_s IS 'seconds a cold sequential scan took, wall clock, executor start to end (mean over the rounds)';
COMMENT ON COLUMN index_crossover_result.crossover_rows IS 'rows an index scan had returned, in key order, when it had taken as long as the sequential scan (mean over the rounds)';
COMMENT ON COLUMN index_crossover_result.crossover_selectivity IS 'crossover_rows over table_rows: below it the index scan is faster, cold; NULL when it never lost (no_crossover) or nothing was measured';
COMMENT ON COLUMN index_crossover_result.crossover_low IS 'lower end of the 95 % interval of crossover_selectivity (jackknife over the rounds)';
COMMENT ON COLUMN index_crossover_result.crossover_high IS 'upper end of the 95 % interval of crossover_selectivity';
COMMENT ON COLUMN index_crossover_result.planner_crossover IS 'the selectivity at which the planner, under the settings in force, costs the index scan above the sequential scan (within about 1 %); 0 when it never prefers the index scan, NULL when it always does';
COMMENT ON COLUMN index_crossover_result.random_page_cost IS 'random_page_cost in force for the tablespace';
COMMENT ON COLUMN index_crossover_result.seq_page_cost IS 'seq_page_cost in force for the tablespace';
COMMENT ON COLUMN index_crossover_result.planned_at_half IS 'index or seq: the cheaper of the two for the planner, under the settings in force, at half the measured crossover (where the index scan is the faster)';
COMMENT ON COLUMN index_crossover_result.planned_at_twice IS 'index or seq: the cheaper at twice the measured crossover (where the sequential scan is the faster)';
COMMENT ON COLUMN index_crossover_result.matching_random_page_cost IS 'the random_page_cost at which the planner''s crossover falls on the measured one, seq_page_cost as it is; NULL when correlated, cached or over_budget';
COMMENT ON COLUMN index_crossover_result.matching_low IS 'the matching random_page_cost at crossover_high';
COMMENT ON COLUMN index_crossover_result.matching_high IS 'the matching random_page_cost at crossover_low';
COMMENT ON COLUMN index_crossover_result.checked_random_page_cost IS 'the setting checked: the random_page_cost argument, or the matching one when it is NULL';
COMMENT ON COLUMN index_crossover_result.checked_crossover IS 'the planner''s crossover under the setting checked';
COMMENT ON COLUMN index_crossover_result.checked_at_half IS 'index or seq: the planner''s cheaper path at half the measured crossover under the setting checked';
COMMENT ON COLUMN index_crossover_result.checked_at_twice IS 'index or seq: the planner''s cheaper path at twice the measured crossover under the setting checked';
COMMENT ON COLUMN index_crossover_result.command IS 'the statement that sets the matching random_page_cost for the tablespace';
COMMENT ON COLUMN index_crossover_result.elapsed_s IS 'seconds the call took, wall clock';
COMMENT ON COLUMN index_crossover_result.verdict IS '{ok}, or no_crossover (an index scan of every key won), over_budget (fewer than 3 rounds), unstable (the interval wider than +-25 %), cached (the caches held 90 % of the table, or an eviction left 5 %), correlated (|correlation| 0.5 or more), misplanned (the planner, as set, takes the slower path at half or twice the crossover)';

CREATE FUNCTION index_crossover(rel regclass,
								idx regclass,
								max_seconds float8 DEFAULT 120,
								random_page_cost float8 DEFAULT NULL)
RETURNS index_crossover_result
AS 'MODULE_PATHNAME', 'index_crossover'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION index_crossover(regclass, regclass, float8, float8) IS
'the share of the table''s rows up to which an index scan of a btree index beats a sequential scan, cold, in rounds for at most max_seconds (s); the planner''s, under the settings in force and under random_page_cost (NULL: the one that puts the planner''s on the measured one); the command that sets it';

REVOKE ALL ON FUNCTION index_crossover(regclass, regclass, float8, float8) FROM PUBLIC;

--
-- ==== TOASTed values: a detoasting scan against raw reads ====
--
-- toast_efficiency scans a table through the executor, detoasting every
-- value of its toastable columns as a client fetching the rows makes the
-- server do, and holds the scan's rate over the bytes of the main fork,
-- the TOAST table and its index against raw reads of the same files.
--
CREATE TYPE toast_efficiency_result AS (
	relation			regclass,
	toast_relation		regclass,
	columns				text[],
	cache				text,
	rows				bigint,
	values_detoasted	bigint,
	main_bytes			bigint,
	toast_bytes			bigint,
	toast_index_bytes	bigint,
	toast_pct			float8,
	rounds				integer,
	read_s				float8,
	read_mb_s			float8,
	scan_s				float8,
	scan_mb_s			float8,
	scan_pct			float8,
	pct_low				float8,
	pct_high			float8,
	cached_pct_before	float8,
	elapsed_s			float8,
	verdict				text[]
);

COMMENT ON TYPE toast_efficiency_result IS 'toast_efficiency: a scan that detoasts every value against raw reads of the main fork, the TOAST table and its index';
COMMENT ON COLUMN toast_efficiency_result.relation IS 'the table';
COMMENT ON COLUMN toast_efficiency_result.toast_relation IS 'its TOAST table';
COMMENT ON COLUMN toast_efficiency_result.columns IS 'the columns scanned and detoasted: those of variable length not set to STORAGE PLAIN';
COMMENT ON COLUMN toast_efficiency_result.cache IS 'cold (the three relations evicted from shared_buffers and the page cache before each side of a round) or warm (each side run once untimed first)';
COMMENT ON COLUMN toast_efficiency_result.rows IS 'rows a scan returned';
COMMENT ON COLUMN toast_efficiency_result.values_detoasted IS 'values a scan detoasted: those stored out of line or compressed';
COMMENT ON COLUMN toast_efficiency_result.main_bytes IS 'bytes of the table''s main fork when the call began';
COMMENT ON COLUMN toast_efficiency_result.toast_bytes IS 'bytes of the TOAST table';
COMMENT ON COLUMN toast_efficiency_result.toast_index_bytes IS 'bytes of the TOAST table''s index';
COMMENT ON COLUMN toast_efficiency_result.toast_pct IS 'percent of the three relations'' bytes in the TOAST table and its index';
COMMENT ON COLUMN toast_efficiency_result.rounds IS 'rounds of a raw read of the three relations then a scan, until the interval of scan_pct is within +-5 % or max_seconds are spent';
COMMENT ON COLUMN toast_efficiency_result.read_s IS 'seconds a raw read of the three relations took, 8 kB a read through the page cache, wall clock (mean over the rounds)';
COMMENT ON COLUMN toast_efficiency_result.read_mb_s IS 'the raw reads'' rate, MB/s (10^6 bytes)';
COMMENT ON COLUMN toast_efficiency_result.scan_s IS 'seconds a detoasting scan took, wall clock, executor start to end (mean over the rounds)';
COMMENT ON COLUMN toast_efficiency_result.scan_mb_s IS 'the scan''s rate over the three relations'' bytes, MB/s (10^6 bytes)';
COMMENT ON COLUMN toast_efficiency_result.scan_pct IS 'scan_mb_s as a percent of read_mb_s: the ratio of the rounds'' summed read and scan times';
COMMENT ON COLUMN toast_efficiency_result.pct_low IS 'lower end of the 95 % interval of scan_pct (jackknife over the rounds)';
COMMENT ON COLUMN toast_efficiency_result.pct_high IS 'upper end of the 95 % interval of scan_pct';
COMMENT ON COLUMN toast_efficiency_result.cached_pct_before IS 'percent of the three relations in shared_buffers or the page cache before a timed side (the most over the rounds)';
COMMENT ON COLUMN toast_efficiency_result.elapsed_s IS 'seconds the call took, wall clock';
COMMENT ON COLUMN toast_efficiency_result.verdict IS '{ok}, or over_budget (fewer than 3 rounds), unstable (the interval wider than +-15 %), cached (cold, more than 5 % resident after eviction), io_limited (cold, the server''s read throttle set the rate)';

CREATE FUNCTION toast_efficiency(rel regclass,
								 cache text DEFAULT 'cold',
								 max_seconds float8 DEFAULT 60)
RETURNS toast_efficiency_result
AS 'MODULE_PATHNAME', 'toast_efficiency'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION toast_efficiency(regclass, text, float8) IS
'the rate of a scan that detoasts every value of the table''s toastable columns, over the bytes of its main fork, TOAST table and TOAST index, as a percent of raw reads of the same files, cold or warm, in rounds for at most max_seconds (s)';

REVOKE ALL ON FUNCTION toast_efficiency(regclass, text, float8) FROM PUBLIC;

--
-- ==== Page costs, nightly: their history and its judge ====
--
-- page_costs_check measures a table's page costs, records the run in
-- page_costs_history and judges it: is the random_page_cost in force for
-- the table's tablespace within the interval the measurement recommends,
-- and has the ratio of a random to a sequential page moved from the
-- median of the earlier runs (the storage changed)?  Modelled on
-- efficiency_check and scan_history: the history is the extension's own
-- table, kept by pg_dump, its columns plain types (never the result
-- type, which an upgrade may change), its relation kept by schema and
-- name as well as OID; the check commits the run before it judges it, so
-- that an alarm leaves the run recorded.  The history and the judge are
-- for monitoring (pg_monitor may read and run them); recording and
-- checking measure, and stay with the superuser unless granted.
--
CREATE SEQUENCE page_costs_history_id_seq;

CREATE TABLE page_costs_history (
	id					bigint NOT NULL DEFAULT pg_catalog.nextval('page_costs_history_id_seq'::pg_catalog.regclass) PRIMARY KEY,
	measured_at			timestamptz NOT NULL,
	relid				oid,
	relschema			text NOT NULL,
	relname				text NOT NULL,
	tablespace			text,
	pages				bigint,
	cached_pct_before	float8,
	passes				integer,
	rounds				integer,
	seq_pages			bigint,
	random_pages		bigint,
	seq_page_us			float8,
	random_page_us		float8,
	cached_page_us		float8,
	ratio				float8,
	ratio_low			float8,
	ratio_high			float8,
	seq_page_cost		float8,
	random_page_cost	float8,
	recommended_random_page_cost float8,
	recommended_low		float8,
	recommended_high	float8,
	effective_io_concurrency integer,
	depths				integer[],
	depth_pages_s		float8[],
	sweeps				integer,
	recommended_effective_io_concurrency integer,
	recommended_eic_low	integer,
	recommended_eic_high integer,
	command				text,
	untimed_s			float8,
	elapsed_s			float8,
	verdict				text[],
	server_version		text,
	server_major		integer,
	recorded_by			text NOT NULL DEFAULT current_user,
	-- the limits page_costs_check judged the run with, kept so that
	-- judging the run again later gives the verdict the check gave
	limit_max_off_pct	float8,
	limit_window_days	integer,
	-- Figures a judgement can use: finite, in range.  A NaN or 1e308
	-- would make every later judgement of the table wrong or fail.
	CONSTRAINT page_costs_history_measured_at_check CHECK (pg_catalog.isfinite(measured_at)),
	CONSTRAINT page_costs_history_counts_check CHECK (pages OPERATOR(pg_catalog.>=) 0::pg_catalog.int8 AND
		passes OPERATOR(pg_catalog.>=) 0 AND rounds OPERATOR(pg_catalog.>=) 0 AND
		seq_pages OPERATOR(pg_catalog.>=) 0::pg_catalog.int8 AND random_pages OPERATOR(pg_catalog.>=) 0::pg_catalog.int8),
	CONSTRAINT page_costs_history_times_check CHECK ((seq_page_us OPERATOR(pg_catalog.>=) 0::pg_catalog.float8 AND seq_page_us OPERATOR(pg_catalog.<=) 1e9::pg_catalog.float8) AND
		(random_page_us OPERATOR(pg_catalog.>=) 0::pg_catalog.float8 AND random_page_us OPERATOR(pg_catalog.<=) 1e9::pg_catalog.float8) AND
		(cached_page_us OPERATOR(pg_catalog.>=) 0::pg_catalog.float8 AND cached_page_us OPERATOR(pg_catalog.<=) 1e9::pg_catalog.float8) AND
		(untimed_s OPERATOR(pg_catalog.>=) 0::pg_catalog.float8 AND untimed_s OPERATOR(pg_catalog.<=) 1e9::pg_catalog.float8) AND
		(elapsed_s OPERATOR(pg_catalog.>=) 0::pg_catalog.float8 AND elapsed_s OPERATOR(pg_catalog.<=) 1e9::pg_catalog.float8)),
	CONSTRAINT page_costs_history_cached_pct_check CHECK (cached_pct_before OPERATOR(pg_catalog.>=) 0::pg_catalog.float8 AND cached_pct_before OPERATOR(pg_catalog.<=) 100::pg_catalog.float8),
	-- The interval's lower ends may be below 0: a jackknife interval over
	-- few or scattered rounds can reach there (such a run is not {ok}).
	CONSTRAINT page_costs_history_ratio_check CHECK ((ratio OPERATOR(pg_catalog.>) 0::pg_catalog.float8 AND ratio OPERATOR(pg_catalog.<=) 1e9::pg_catalog.float8) AND
		(ratio_low OPERATOR(pg_catalog.>=) (-1e9)::pg_catalog.float8 AND ratio_low OPERATOR(pg_catalog.<=) 1e9::pg_catalog.float8) AND
		(ratio_high OPERATOR(pg_catalog.>) 0::pg_catalog.float8 AND ratio_high OPERATOR(pg_catalog.<=) 1e9::pg_catalog.float8) AND
		ratio_low OPERATOR(pg_catalog.<=) ratio_high),
	CONSTRAINT page_costs_history_costs_check CHECK ((seq_page_cost OPERATOR(pg_catalog.>=) 0::pg_catalog.float8 AND seq_page_cost OPERATOR(pg_catalog.<=) 1e9::pg_catalog.float8) AND
		(random_page_cost OPERATOR(pg_catalog.>=) 0::pg_catalog.float8 AND random_page_cost OPERATOR(pg_catalog.<=) 1e9::pg_catalog.float8) AND
		(recommended_random_page_cost OPERATOR(pg_catalog.>) 0::pg_catalog.float8 AND recommended_random_page_cost OPERATOR(pg_catalog.<=) 1e9::pg_catalog.float8) AND
		(recommended_low OPERATOR(pg_catalog.>=) (-1e9)::pg_catalog.float8 AND recommended_low OPERATOR(pg_catalog.<=) 1e9::pg_catalog.float8) AND
		(recommended_high OPERATOR(pg_catalog.>) 0::pg_catalog.float8 AND recommended_high OPERATOR(pg_catalog.<=) 1e9::pg_catalog.float8) AND
		recommended_low OPERATOR(pg_catalog.<=) recommended_high),
	CONSTRAINT page_costs_history_depths_check CHECK ((effective_io_concurrency OPERATOR(pg_catalog.>=) 0 AND effective_io_concurrency OPERATOR(pg_catalog.<=) 1000) AND
		(sweeps OPERATOR(pg_catalog.>=) 0) AND
		(recommended_effective_io_concurrency OPERATOR(pg_catalog.>=) 1 AND recommended_effective_io_concurrency OPERATOR(pg_catalog.<=) 1000) AND
		(recommended_eic_low OPERATOR(pg_catalog.>=) 1 AND recommended_eic_low OPERATOR(pg_catalog.<=) recommended_eic_high) AND
		(recommended_eic_high OPERATOR(pg_catalog.<=) 1000) AND
		pg_catalog.array_length(depths, 1) OPERATOR(pg_catalog.=) pg_catalog.array_length(depth_pages_s, 1)),
	-- A run that says {ok} has what its judgement needs.
	CONSTRAINT page_costs_history_ok_check CHECK (verdict OPERATOR(pg_catalog.<>) '{ok}'::pg_catalog.text[] OR
		(ratio IS NOT NULL AND random_page_cost IS NOT NULL AND recommended_random_page_cost IS NOT NULL AND
		 recommended_low IS NOT NULL AND recommended_high IS NOT NULL)),
	CONSTRAINT page_costs_history_limits_check CHECK ((limit_max_off_pct OPERATOR(pg_catalog.>) 0::pg_catalog.float8 AND limit_max_off_pct OPERATOR(pg_catalog.<=) 1000::pg_catalog.float8) AND
		(limit_window_days OPERATOR(pg_catalog.>=) 1 AND limit_window_days OPERATOR(pg_catalog.<=) 36600))
);
ALTER SEQUENCE page_costs_history_id_seq OWNED BY page_costs_history.id;
CREATE INDEX page_costs_history_relation_idx
	ON page_costs_history (relschema, relname, measured_at);

SELECT pg_catalog.pg_extension_config_dump('page_costs_history', '');
SELECT pg_catalog.pg_extension_config_dump('page_costs_history_id_seq', '');

COMMENT ON TABLE page_costs_history IS
'one row per recorded page_costs run (page_costs_record, page_costs_check); kept by pg_dump';
COMMENT ON COLUMN page_costs_history.id IS 'run number, increasing';
COMMENT ON COLUMN page_costs_history.measured_at IS 'when the run was measured';
COMMENT ON COLUMN page_costs_history.relid IS 'OID of the table at the time (changes when the table is reloaded)';
COMMENT ON COLUMN page_costs_history.relschema IS 'schema of the table at the time';
COMMENT ON COLUMN page_costs_history.relname IS 'name of the table at the time; runs are compared by schema and name';
COMMENT ON COLUMN page_costs_history.tablespace IS 'the table''s tablespace, whose page costs the figures are';
COMMENT ON COLUMN page_costs_history.pages IS 'pages of the table';
COMMENT ON COLUMN page_costs_history.cached_pct_before IS 'percent of the table in shared_buffers or the page cache before the call, %';
COMMENT ON COLUMN page_costs_history.passes IS 'passes over the table, each after emptying both caches of it';
COMMENT ON COLUMN page_costs_history.rounds IS 'rounds of a stretch of sequential pages then a batch of random pages';
COMMENT ON COLUMN page_costs_history.seq_pages IS 'sequential pages timed';
COMMENT ON COLUMN page_costs_history.random_pages IS 'random pages timed';
COMMENT ON COLUMN page_costs_history.seq_page_us IS 'microseconds a sequential page took, cold';
COMMENT ON COLUMN page_costs_history.random_page_us IS 'microseconds a random page took, cold';
COMMENT ON COLUMN page_costs_history.cached_page_us IS 'microseconds a page took from the page cache';
COMMENT ON COLUMN page_costs_history.ratio IS 'the mean random page''s time over the mean sequential page''s; runs of {ok} are the median page_costs_judge compares with';
COMMENT ON COLUMN page_costs_history.ratio_low IS 'lower end of the 95 % interval of that ratio';
COMMENT ON COLUMN page_costs_history.ratio_high IS 'upper end of the 95 % interval of that ratio';
COMMENT ON COLUMN page_costs_history.seq_page_cost IS 'seq_page_cost in force for the tablespace';
COMMENT ON COLUMN page_costs_history.random_page_cost IS 'random_page_cost in force for the tablespace: the setting page_costs_judge holds against the recommendation';
COMMENT ON COLUMN page_costs_history.recommended_random_page_cost IS 'random_page_cost the figures give for the tablespace; NULL when over_budget or cached';
COMMENT ON COLUMN page_costs_history.recommended_low IS 'the recommendation at the ratio''s lower end';
COMMENT ON COLUMN page_costs_history.recommended_high IS 'the recommendation at the ratio''s upper end';
COMMENT ON COLUMN page_costs_history.effective_io_concurrency IS 'effective_io_concurrency in force for the tablespace: the setting page_costs_judge holds against the recommended depth';
COMMENT ON COLUMN page_costs_history.depths IS 'the depths the table''s pages were read at, at random';
COMMENT ON COLUMN page_costs_history.depth_pages_s IS 'random 8 kB reads a second at each of those depths, cold';
COMMENT ON COLUMN page_costs_history.sweeps IS 'complete sweeps over the depths';
COMMENT ON COLUMN page_costs_history.recommended_effective_io_concurrency IS 'the depth the sweeps give bitmap heap scans; NULL when no sweep was complete or the table was cached';
COMMENT ON COLUMN page_costs_history.recommended_eic_low IS 'the least of the sweeps'' depths; NULL below three sweeps';
COMMENT ON COLUMN page_costs_history.recommended_eic_high IS 'the most of the sweeps'' depths; NULL below three sweeps';
COMMENT ON COLUMN page_costs_history.command IS 'the statement that sets the recommendation for the tablespace';
COMMENT ON COLUMN page_costs_history.untimed_s IS 'seconds of reads left out of the timing';
COMMENT ON COLUMN page_costs_history.elapsed_s IS 'seconds the measurement took, wall clock';
COMMENT ON COLUMN page_costs_history.verdict IS 'the run''s verdict: {ok}, or any of over_budget, unstable, cached; only runs of {ok} are judged';
COMMENT ON COLUMN page_costs_history.server_version IS 'PostgreSQL server_version';
COMMENT ON COLUMN page_costs_history.server_major IS 'the server''s major version, such as 18';
COMMENT ON COLUMN page_costs_history.recorded_by IS 'role that recorded the run';
COMMENT ON COLUMN page_costs_history.limit_max_off_pct IS 'page_costs_check''s max_off_pct (%) the run was judged with; NULL when the run was recorded otherwise';
COMMENT ON COLUMN page_costs_history.limit_window_days IS 'page_costs_check''s window_days (days) the run was judged with; NULL when the run was recorded otherwise';

REVOKE ALL ON TABLE page_costs_history FROM PUBLIC;
REVOKE ALL ON SEQUENCE page_costs_history_id_seq FROM PUBLIC;
GRANT SELECT ON TABLE page_costs_history TO pg_monitor;

CREATE FUNCTION scanbench_internal.page_costs_check_limits(max_off_pct float8, window_days integer)
RETURNS void
LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	IF max_off_pct IS NULL OR NOT (max_off_pct > 0 AND max_off_pct <= 1000) THEN
		RAISE EXCEPTION 'max_off_pct must be above 0 and at most 1000, not %', coalesce(max_off_pct::text, 'NULL')
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'max_off_pct is how far, in % of the recommendation, the random_page_cost in force may be outside its interval before the alarm; 50 by default.';
	END IF;
	IF window_days IS NULL OR window_days < 1 OR window_days > 36600 THEN
		RAISE EXCEPTION 'window_days must be from 1 to 36600, not %', coalesce(window_days::text, 'NULL')
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
END
$$;

COMMENT ON FUNCTION scanbench_internal.page_costs_check_limits(float8, integer) IS
'argument checks shared by page_costs_check, page_costs_record and page_costs_judge';

REVOKE ALL ON FUNCTION scanbench_internal.page_costs_check_limits(float8, integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION scanbench_internal.page_costs_check_limits(float8, integer) TO pg_monitor;

--
-- Recording a run.  Fields are read through jsonb, as scan_history_record
-- reads its own, so that a result row of any version of the type records;
-- each figure is checked by its name first, with the table's CHECK
-- constraints as the last word (they also hold for rows written by hand).
--
CREATE FUNCTION page_costs_record(run page_costs_result,
								  max_off_pct float8 DEFAULT NULL,
								  window_days integer DEFAULT NULL)
RETURNS bigint
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	j jsonb;
	bad record;
	new_id bigint;
BEGIN
	IF run IS NULL THEN
		RAISE EXCEPTION 'run must not be NULL'
			USING ERRCODE = 'null_value_not_allowed',
				  HINT = 'Give it the row page_costs returns: SELECT page_costs_record(page_costs(''t''));';
	END IF;
	IF (run).relation IS NULL THEN
		RAISE EXCEPTION 'cannot record a run whose relation is NULL'
			USING ERRCODE = 'null_value_not_allowed',
				  HINT = 'Give it the row page_costs returns: SELECT page_costs_record(page_costs(''t''));';
	END IF;
	IF num_nonnulls(max_off_pct, window_days) > 0 THEN
		PERFORM scanbench_internal.page_costs_check_limits(coalesce(max_off_pct, 50),
														   coalesce(window_days, 30));
	END IF;
	j := to_jsonb(run);

	-- Each figure present must be finite and within its range; a ratio
	-- and a recommendation above 0 (the lower ends of their intervals may
	-- be below: a jackknife interval over few rounds can reach there).
	SELECT f.name, (j ->> f.name)::float8::text AS val, f.lo, f.hi, f.above INTO bad
	FROM (VALUES ('seq_page_us', 0, 1e9, false), ('random_page_us', 0, 1e9, false),
				 ('cached_page_us', 0, 1e9, false), ('cached_pct_before', 0, 100, false),
				 ('ratio', 0, 1e9, true), ('ratio_low', -1e9, 1e9, false),
				 ('ratio_high', 0, 1e9, true),
				 ('seq_page_cost', 0, 1e9, false), ('random_page_cost', 0, 1e9, false),
				 ('recommended_random_page_cost', 0, 1e9, true),
				 ('recommended_low', -1e9, 1e9, false), ('recommended_high', 0, 1e9, true),
				 ('untimed_s', 0, 1e9, false), ('elapsed_s', 0, 1e9, false))
		 AS f(name, lo, hi, above)
	WHERE j ->> f.name IS NOT NULL
	  AND NOT coalesce((j ->> f.name)::float8 BETWEEN f.lo::float8 AND f.hi::float8
					   AND (NOT f.above OR (j ->> f.name)::float8 > f.lo::float8), false)
	LIMIT 1;
	IF FOUND THEN
		RAISE EXCEPTION 'cannot record a run whose % is %', bad.name, bad.val
			USING ERRCODE = 'numeric_value_out_of_range',
				  DETAIL = format('A recorded %s must be a finite number %s %s and at most %s.',
								  bad.name, CASE WHEN bad.above THEN 'above' ELSE 'from' END,
								  bad.lo, bad.hi);
	END IF;
	IF (j ->> 'ratio_low')::float8 > (j ->> 'ratio_high')::float8 THEN
		RAISE EXCEPTION 'cannot record a run whose ratio_low % is above its ratio_high %',
			j ->> 'ratio_low', j ->> 'ratio_high'
			USING ERRCODE = 'numeric_value_out_of_range';
	END IF;
	IF (j ->> 'recommended_low')::float8 > (j ->> 'recommended_high')::float8 THEN
		RAISE EXCEPTION 'cannot record a run whose recommended_low % is above its recommended_high %',
			j ->> 'recommended_low', j ->> 'recommended_high'
			USING ERRCODE = 'numeric_value_out_of_range';
	END IF;

	INSERT INTO @extschema@.page_costs_history (measured_at, relid, relschema, relname,
		tablespace, pages, cached_pct_before, passes, rounds, seq_pages,
		random_pages, seq_page_us, random_page_us, cached_page_us, ratio,
		ratio_low, ratio_high, seq_page_cost, random_page_cost,
		recommended_random_page_cost, recommended_low, recommended_high,
		effective_io_concurrency, depths, depth_pages_s, sweeps,
		recommended_effective_io_concurrency, recommended_eic_low,
		recommended_eic_high,
		command, untimed_s, elapsed_s, verdict, server_version, server_major,
		limit_max_off_pct, limit_window_days)
	SELECT now(), c.oid, n.nspname, c.relname, j ->> 'tablespace',
		(j ->> 'pages')::bigint, (j ->> 'cached_pct_before')::float8,
		(j ->> 'passes')::integer, (j ->> 'rounds')::integer,
		(j ->> 'seq_pages')::bigint, (j ->> 'random_pages')::bigint,
		(j ->> 'seq_page_us')::float8, (j ->> 'random_page_us')::float8,
		(j ->> 'cached_page_us')::float8, (j ->> 'ratio')::float8,
		(j ->> 'ratio_low')::float8, (j ->> 'ratio_high')::float8,
		(j ->> 'seq_page_cost')::float8, (j ->> 'random_page_cost')::float8,
		(j ->> 'recommended_random_page_cost')::float8,
		(j ->> 'recommended_low')::float8, (j ->> 'recommended_high')::float8,
		(j ->> 'effective_io_concurrency')::integer,
		CASE jsonb_typeof(j -> 'depths')
			WHEN 'array' THEN ARRAY(SELECT d::integer FROM jsonb_array_elements_text(j -> 'depths') d) END,
		CASE jsonb_typeof(j -> 'depth_pages_s')
			WHEN 'array' THEN ARRAY(SELECT r::float8 FROM jsonb_array_elements_text(j -> 'depth_pages_s') r) END,
		(j ->> 'sweeps')::integer,
		(j ->> 'recommended_effective_io_concurrency')::integer,
		(j ->> 'recommended_eic_low')::integer, (j ->> 'recommended_eic_high')::integer,
		j ->> 'command', (j ->> 'untimed_s')::float8, (j ->> 'elapsed_s')::float8,
		CASE jsonb_typeof(j -> 'verdict')
			WHEN 'array' THEN ARRAY(SELECT jsonb_array_elements_text(j -> 'verdict')) END,
		current_setting('server_version'),
		current_setting('server_version_num')::integer / 10000,
		max_off_pct, window_days
	FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
	WHERE c.oid = (run).relation
	RETURNING page_costs_history.id INTO new_id;
	IF new_id IS NULL THEN
		RAISE EXCEPTION 'cannot record a run of relation %: it does not exist', ((run).relation)::oid
			USING ERRCODE = 'undefined_table';
	END IF;
	RETURN new_id;
END
$$;

COMMENT ON FUNCTION page_costs_record(page_costs_result, float8, integer) IS
'add a page_costs result row to page_costs_history, with the server version and the limits it is judged with (page_costs_check gives them; page_costs_judge uses them when given none); returns the run number';

REVOKE ALL ON FUNCTION page_costs_record(page_costs_result, float8, integer) FROM PUBLIC;

--
-- How a recorded run stands: the random_page_cost in force against the
-- interval the run recommends, and the ratio against the median of the
-- table's earlier runs of {ok} within window_days.  off_pct is how far
-- the setting is outside [recommended_low, recommended_high], in % of
-- recommended_random_page_cost (0 inside); change_pct is the ratio
-- against that median, in %.  status: 'alarm' (off_pct above
-- max_off_pct; page_costs_check raises), 'warning' (off_pct above half of
-- max_off_pct, the ratio moved by more than max_off_pct from the
-- median: the storage changed, or the tablespace's
-- effective_io_concurrency is below every sweep's depth), 'ok', or 'unjudged' (a verdict other than
-- {ok}: no recommendation to hold the setting against).
--
CREATE FUNCTION page_costs_judge(run bigint,
								 max_off_pct float8 DEFAULT NULL,
								 window_days integer DEFAULT NULL,
								 OUT id bigint, OUT relation text,
								 OUT measured_at timestamptz, OUT ratio float8,
								 OUT window_median_ratio float8, OUT earlier_runs integer,
								 OUT change_pct float8, OUT random_page_cost float8,
								 OUT recommended_random_page_cost float8,
								 OUT recommended_low float8, OUT recommended_high float8,
								 OUT off_pct float8, OUT status text, OUT reason text,
								 OUT command text, OUT effective_io_concurrency integer,
								 OUT recommended_effective_io_concurrency integer)
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	cur @extschema@.page_costs_history;
	since timestamptz;
	setting text;
	moved text;
	shallow text;
	why text;
BEGIN
	IF run IS NULL THEN
		RAISE EXCEPTION 'run must not be NULL'
			USING ERRCODE = 'null_value_not_allowed',
				  HINT = 'Give a run number of page_costs_history (its id column).';
	END IF;
	SELECT * INTO cur FROM @extschema@.page_costs_history h WHERE h.id = run;
	IF NOT FOUND THEN
		RAISE EXCEPTION 'no run % in page_costs_history', run
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	-- A limit not given is the one page_costs_check judged the run with.
	max_off_pct := coalesce(max_off_pct, cur.limit_max_off_pct, 50);
	window_days := coalesce(window_days, cur.limit_window_days, 30);
	PERFORM scanbench_internal.page_costs_check_limits(max_off_pct, window_days);

	id := cur.id;
	relation := quote_ident(cur.relschema) || '.' || quote_ident(cur.relname);
	measured_at := cur.measured_at;
	ratio := cur.ratio;
	random_page_cost := cur.random_page_cost;
	recommended_random_page_cost := cur.recommended_random_page_cost;
	recommended_low := cur.recommended_low;
	recommended_high := cur.recommended_high;
	command := cur.command;
	effective_io_concurrency := cur.effective_io_concurrency;
	recommended_effective_io_concurrency := cur.recommended_effective_io_concurrency;
	-- Bitmap heap scans kept shallower than every sweep found the storage
	-- needs: a warning, the planner's choices being unharmed.
	shallow := CASE WHEN cur.effective_io_concurrency < cur.recommended_eic_low THEN
		format('effective_io_concurrency %s in force for tablespace %s is below the depth %s its random reads need (%s to %s): bitmap heap scans wait',
			   cur.effective_io_concurrency, coalesce(cur.tablespace, '?'),
			   cur.recommended_effective_io_concurrency, cur.recommended_eic_low,
			   cur.recommended_eic_high) END;

	-- The median of the table's earlier runs of {ok} in the window.
	since := cur.measured_at - make_interval(days => window_days);
	SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY h.ratio), count(h.id)::integer
	INTO window_median_ratio, earlier_runs
	FROM @extschema@.page_costs_history h
	WHERE h.relschema = cur.relschema AND h.relname = cur.relname
	  AND (h.measured_at < cur.measured_at
		   OR (h.measured_at = cur.measured_at AND h.id < cur.id))
	  AND h.measured_at > since
	  AND h.verdict = '{ok}'::text[] AND h.ratio IS NOT NULL;
	IF window_median_ratio IS NOT NULL AND cur.ratio IS NOT NULL THEN
		change_pct := round((100 * cur.ratio / window_median_ratio - 100)::numeric, 1)::float8;
	END IF;
	moved := CASE WHEN abs(change_pct) > max_off_pct THEN
		format('its ratio %s moved %s%s %% from the %s-day median %s of %s earlier run%s, more than max_off_pct %s %%: the storage changed',
			   cur.ratio, CASE WHEN change_pct > 0 THEN '+' ELSE '' END, change_pct,
			   window_days, round(window_median_ratio::numeric, 2)::float8,
			   earlier_runs, CASE WHEN earlier_runs > 1 THEN 's' ELSE '' END, max_off_pct) END;

	IF cur.verdict IS DISTINCT FROM '{ok}'::text[] OR cur.random_page_cost IS NULL
	   OR cur.recommended_random_page_cost IS NULL OR cur.recommended_low IS NULL
	   OR cur.recommended_high IS NULL THEN
		status := 'unjudged';
		why := CASE
			WHEN 'over_budget' = ANY (cur.verdict) THEN
				format('%s rounds in %s s were too few to judge; give it more time (max_seconds)',
					   coalesce(cur.rounds::text, 'no'), coalesce(round(cur.elapsed_s::numeric, 1)::text, '?'))
			WHEN 'cached' = ANY (cur.verdict) THEN
				format('the caches held %s %% of it before the call, so no random_page_cost is recommended',
					   round(cur.cached_pct_before::numeric))
			WHEN 'unstable' = ANY (cur.verdict) THEN
				format('its ratio''s interval (%s to %s) is wider than +-15 %% of %s: the storage''s speed changed during the measurement; measure at a quieter hour',
					   cur.ratio_low, cur.ratio_high, cur.ratio)
			ELSE 'it has no recommendation' END;
		reason := format('%s was not judged (verdict %s): %s', relation,
						 coalesce(cur.verdict::text, 'NULL'), why);
		RETURN;
	END IF;

	off_pct := round((100 * CASE
		WHEN cur.random_page_cost < cur.recommended_low THEN cur.recommended_low - cur.random_page_cost
		WHEN cur.random_page_cost > cur.recommended_high THEN cur.random_page_cost - cur.recommended_high
		ELSE 0 END / cur.recommended_random_page_cost)::numeric, 1)::float8;
	setting := format('random_page_cost %s in force for tablespace %s is %s the recommendation %s (%s to %s)',
					  cur.random_page_cost, coalesce(cur.tablespace, '?'),
					  CASE WHEN off_pct = 0 THEN 'within the interval of'
					  ELSE format('%s %% off', off_pct) END,
					  cur.recommended_random_page_cost, cur.recommended_low, cur.recommended_high);
	IF off_pct > max_off_pct THEN
		status := 'alarm';
		reason := format('%s: %s, more than max_off_pct %s %%', relation, setting, max_off_pct)
			|| coalesce('; ' || moved, '') || coalesce('; ' || shallow, '');
	ELSIF off_pct > max_off_pct / 2 OR moved IS NOT NULL OR shallow IS NOT NULL THEN
		status := 'warning';
		reason := relation || ': ' || concat_ws('; ',
			CASE WHEN off_pct > max_off_pct / 2 THEN
				format('%s, more than half of max_off_pct %s %%', setting, max_off_pct) END,
			moved, shallow);
	ELSE
		status := 'ok';
		reason := format('%s: %s; %s', relation, setting,
						 CASE WHEN earlier_runs > 0
						 THEN format('ratio %s, %s%s %% from the %s-day median %s of %s earlier run%s',
									 cur.ratio, CASE WHEN change_pct > 0 THEN '+' ELSE '' END,
									 change_pct, window_days,
									 round(window_median_ratio::numeric, 2)::float8, earlier_runs,
									 CASE WHEN earlier_runs > 1 THEN 's' ELSE '' END)
						 ELSE format('ratio %s, no earlier run of {ok} in %s days to compare it with',
									 cur.ratio, window_days) END);
	END IF;
END
$$;

COMMENT ON FUNCTION page_costs_judge(bigint, float8, integer) IS
'judge a recorded page_costs run: off_pct, how far (% of the recommendation) the random_page_cost in force is outside the recommended interval, and change_pct, the ratio against the median of the table''s earlier runs of {ok} in window_days; status alarm (off_pct above max_off_pct), warning (above half of it, the ratio moved more than max_off_pct, or the tablespace''s effective_io_concurrency below every sweep''s depth), ok, or unjudged (no recommendation), with a reason. A limit given NULL (the default) is the one page_costs_check judged the run with, else max_off_pct 50 and window_days 30';

REVOKE ALL ON FUNCTION page_costs_judge(bigint, float8, integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION page_costs_judge(bigint, float8, integer) TO pg_monitor;

-- page_costs_check's measurement, its NOTICE left out: the judge says
-- what the run means.
CREATE FUNCTION scanbench_internal.page_costs_measure(rel regclass, max_seconds float8,
													  max_off_pct float8, window_days integer)
RETURNS bigint
LANGUAGE sql VOLATILE
SET client_min_messages = error
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
	SELECT @extschema@.page_costs_record(@extschema@.page_costs(page_costs_measure.rel,
																page_costs_measure.max_seconds),
										 page_costs_measure.max_off_pct,
										 page_costs_measure.window_days);
END;

COMMENT ON FUNCTION scanbench_internal.page_costs_measure(regclass, float8, float8, integer) IS
'measure with page_costs and record the run with the limits it is judged with; returns the run number';

REVOKE ALL ON FUNCTION scanbench_internal.page_costs_measure(regclass, float8, float8, integer) FROM PUBLIC;

CREATE FUNCTION scanbench_internal.scan_history_in_block() RETURNS boolean
AS 'MODULE_PATHNAME', 'scan_history_in_block'
LANGUAGE C STRICT VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION scanbench_internal.scan_history_in_block() IS
'true inside a transaction block, where page_costs_check could not commit its run';

REVOKE ALL ON FUNCTION scanbench_internal.scan_history_in_block() FROM PUBLIC;

-- What page_costs_check says of a recorded run: an ERROR with SQLSTATE
-- SB002 on an alarm, a WARNING on a warning or a run that cannot be
-- judged, a NOTICE otherwise.  A function of its own, so that each of
-- them can be had from a run written by hand.
CREATE FUNCTION scanbench_internal.page_costs_report(run bigint, max_off_pct float8,
													 window_days integer)
RETURNS void
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	j record;
BEGIN
	SELECT * INTO j FROM @extschema@.page_costs_judge(run, max_off_pct, window_days);
	IF j.status = 'alarm' THEN
		RAISE EXCEPTION USING ERRCODE = 'SB002', MESSAGE = j.reason,
			DETAIL = format('Run %s of page_costs_history: a random page took %s times as long as a sequential page.',
							run, j.ratio),
			HINT = format('Set the recommendation: %s;', j.command);
	ELSIF j.status = 'warning' OR j.status = 'unjudged' THEN
		RAISE WARNING USING MESSAGE = j.reason;
	ELSE
		RAISE NOTICE USING MESSAGE = j.reason;
	END IF;
END
$$;

COMMENT ON FUNCTION scanbench_internal.page_costs_report(bigint, float8, integer) IS
'judge a recorded page_costs run (page_costs_judge) and say so: ERROR with SQLSTATE SB002 on an alarm, WARNING on a warning or when it cannot be judged, NOTICE when it is ok';

REVOKE ALL ON FUNCTION scanbench_internal.page_costs_report(bigint, float8, integer) FROM PUBLIC;

--
-- The nightly check of the page costs.  A procedure, as efficiency_check
-- is: it commits the recorded run before it judges it, so that the run
-- stays in the history when the check then raises.  Checks of one table
-- take turns (an advisory lock, taken before anything else), so that one
-- check's eviction does not land in the middle of another's timing; the
-- arguments are checked before anything is measured.
--
CREATE PROCEDURE page_costs_check(rel regclass,
								  max_seconds float8 DEFAULT 30,
								  max_off_pct float8 DEFAULT 50,
								  window_days integer DEFAULT 30)
LANGUAGE plpgsql
AS $$
DECLARE
	run pg_catalog.int8;
	missing pg_catalog.text;
BEGIN
	missing := CASE WHEN rel IS NULL THEN 'rel' WHEN max_seconds IS NULL THEN 'max_seconds'
				WHEN max_off_pct IS NULL THEN 'max_off_pct'
				WHEN window_days IS NULL THEN 'window_days' END;
	IF missing IS NOT NULL THEN
		RAISE EXCEPTION '% must not be NULL', missing
			USING ERRCODE = 'null_value_not_allowed',
				  HINT = 'Leave the argument out for its default.';
	END IF;
	-- NaN sorts above every number: it fails the upper bound.
	IF NOT (max_seconds OPERATOR(pg_catalog.>) 0::pg_catalog.float8
			AND max_seconds OPERATOR(pg_catalog.<=) 604800::pg_catalog.float8) THEN
		RAISE EXCEPTION 'max_seconds must be above 0 and at most 604800 (a week), not %', max_seconds
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	PERFORM scanbench_internal.page_costs_check_limits(max_off_pct, window_days);
	-- What would make recording the run fail, after the whole
	-- measurement: said first, and plainly.
	IF scanbench_internal.scan_history_in_block() THEN
		RAISE EXCEPTION 'page_costs_check cannot run inside a transaction block'
			USING ERRCODE = 'active_sql_transaction',
				  DETAIL = 'It commits the run it recorded before judging it, so that an alarm does not undo the record.',
				  HINT = 'CALL it on its own, as psql -c and pg_cron do.';
	END IF;
	IF pg_catalog.pg_is_in_recovery() THEN
		RAISE EXCEPTION 'page_costs_check cannot record a run during recovery'
			USING ERRCODE = 'read_only_sql_transaction',
				  DETAIL = 'The run history is a table, and a standby accepts no writes.',
				  HINT = 'Measure here with page_costs() and record the row on the primary with page_costs_record().';
	END IF;
	IF pg_catalog.current_setting('transaction_read_only') OPERATOR(pg_catalog.=) 'on'::pg_catalog.text THEN
		RAISE EXCEPTION 'page_costs_check cannot record a run in a read-only transaction'
			USING ERRCODE = 'read_only_sql_transaction',
				  HINT = 'Check default_transaction_read_only.';
	END IF;
	IF NOT pg_catalog.has_function_privilege('@extschema@.page_costs_record(@extschema@.page_costs_result, pg_catalog.float8, pg_catalog.int4)'::pg_catalog.text, 'EXECUTE'::pg_catalog.text) THEN
		RAISE EXCEPTION 'permission denied for function page_costs_record'
			USING ERRCODE = 'insufficient_privilege';
	END IF;
	IF NOT pg_catalog.has_table_privilege('@extschema@.page_costs_history'::pg_catalog.text, 'INSERT'::pg_catalog.text) THEN
		RAISE EXCEPTION 'permission denied for table page_costs_history'
			USING ERRCODE = 'insufficient_privilege';
	END IF;
	IF NOT pg_catalog.has_sequence_privilege('@extschema@.page_costs_history_id_seq'::pg_catalog.text, 'USAGE'::pg_catalog.text) THEN
		RAISE EXCEPTION 'permission denied for sequence page_costs_history_id_seq'
			USING ERRCODE = 'insufficient_privilege';
	END IF;

	PERFORM pg_catalog.pg_advisory_xact_lock(
		(pg_catalog.hashtext('scanbench.page_costs_check'::pg_catalog.text)::pg_catalog.int8
		 OPERATOR(pg_catalog.<<) 32)
		OPERATOR(pg_catalog.|) rel::pg_catalog.oid::pg_catalog.int8);
	run := scanbench_internal.page_costs_measure(rel, max_seconds, max_off_pct, window_days);
	COMMIT;

	PERFORM scanbench_internal.page_costs_report(run, max_off_pct, window_days);
END
$$;

COMMENT ON PROCEDURE page_costs_check(regclass, float8, float8, integer) IS
'measure a table''s page costs (page_costs, at most max_seconds s), record the run in page_costs_history and judge it (page_costs_judge; CALL it outside a transaction block); ERROR with SQLSTATE SB002 when the random_page_cost in force is more than max_off_pct (%) off the recommendation; WARNING when more than half of that, when the ratio moved more than max_off_pct from the median of window_days, or when the run cannot be judged';

REVOKE ALL ON PROCEDURE page_costs_check(regclass, float8, float8, integer) FROM PUBLIC;

CREATE FUNCTION page_costs_history_prune(older_than interval DEFAULT '400 days')
RETURNS bigint
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	gone bigint;
BEGIN
	IF older_than IS NULL OR older_than < interval '1 day' THEN
		RAISE EXCEPTION 'older_than must be at least 1 day, not %', coalesce(older_than::text, 'NULL')
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'To empty the history, TRUNCATE page_costs_history.';
	END IF;
	DELETE FROM @extschema@.page_costs_history WHERE measured_at < now() - older_than;
	GET DIAGNOSTICS gone = ROW_COUNT;
	RETURN gone;
END
$$;

COMMENT ON FUNCTION page_costs_history_prune(interval) IS
'delete recorded page_costs runs older than older_than (at least 1 day); returns the number deleted';

REVOKE ALL ON FUNCTION page_costs_history_prune(interval) FROM PUBLIC;

-- scan_advice measures, cold, the tablespace's random_page_cost and
-- effective_io_concurrency as page_costs does.
--
COMMENT ON COLUMN scan_advice_result.setting IS 'what to change: a server setting, data_checksums, read-ahead, scheduler, a control group file (cpu.max, io.max rbps, and their cgroup v1 names), or an option of the table''s tablespace (random_page_cost, effective_io_concurrency: the command says which)';
COMMENT ON COLUMN scan_advice_result.current IS 'the value now, as SHOW prints it (for max_parallel_workers_per_gather: the workers the planner gives this scan now; for a tablespace''s option: the value in force for it)';
COMMENT ON COLUMN scan_advice_result.gain IS 'scan rate with the change divided by the rate without it (1.30: 30 % faster); measured: the median of the pair ratios; predicted: the most the model allows; NULL when nothing predicts it, and for a tablespace''s random_page_cost or effective_io_concurrency, which change other plans, not this scan (the basis gives their figures)';
COMMENT ON COLUMN scan_advice_result.pairs IS 'pairs of scans measured (current, proposed, alternating in order); 0 when predicted; for the tablespace''s random_page_cost the rounds of page times, for its effective_io_concurrency the sweeps over the depths';
COMMENT ON COLUMN scan_advice_result.cost IS 'what the change costs: none (a SET or ALTER TABLESPACE), CPU (more processes), reload, restart, root (the host or its control groups)';
COMMENT ON FUNCTION scan_advice(regclass, text, float8, text) IS
'candidate changes that could make the scan faster here, best first: session settings measured in interleaved pairs against the current ones, server and host settings predicted from the scan''s breakdown, each with its gain, cost and command, within max_seconds; cold, on a table of at least 10 MB, also the tablespace''s random_page_cost and effective_io_concurrency measured as page_costs measures them (the last quarter of max_seconds), when the ones in force are off';

--
-- scan_pairs shows the pairs behind the session's last scan_efficiency or
-- scan_advice call, in the order they were measured: the samples a median
-- hides, to see whether the first pairs differ from the last.
--
CREATE FUNCTION scan_pairs(OUT function text, OUT relation regclass,
						   OUT pair integer, OUT first_side text,
						   OUT side_a text, OUT side_b text,
						   OUT leaf regclass, OUT first_block bigint,
						   OUT blocks bigint, OUT a_s float8, OUT b_s float8,
						   OUT a_mb_s float8, OUT b_mb_s float8,
						   OUT ratio float8, OUT a_cached_pct float8,
						   OUT b_cached_pct float8, OUT a_workers integer,
						   OUT b_workers integer, OUT a_faults bigint,
						   OUT b_faults bigint, OUT extra_passes text[],
						   OUT at_s float8, OUT pair_s float8)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'scan_pairs'
LANGUAGE C STRICT VOLATILE PARALLEL RESTRICTED ROWS 100;

COMMENT ON FUNCTION scan_pairs() IS
'the pairs of the session''s last scan_efficiency or scan_advice call on this server, in the order measured: the pair''s number within its comparison of side_a with side_b (the raw read with the scan, or the scan under the current setting with the scan under the proposed one), which side ran first, where it read (leaf, first_block, blocks: a stretch, or the whole relation), each side''s seconds, MB/s (10^6 bytes), percent of its blocks in either cache just before its timed pass, parallel workers launched (NULL for a raw read) and page faults the backend took in it, ratio = b_mb_s / a_mb_s (scan_pct / 100, or scan_advice''s gain), the passes the pair ran besides its two timed ones, and when it began (at_s, seconds into the call) and how long it took (pair_s)';

REVOKE ALL ON FUNCTION scan_pairs() FROM PUBLIC;

-- scan_efficiency's interval holds a figure that moved during the call.
COMMENT ON COLUMN scan_efficiency_result.scan_pct_lo IS 'lower end of the 95 % confidence interval of scan_pct (order statistics), widened to the median of the first or the last half of the pairs where the two halves'' intervals do not overlap (the figure moved during the call), %; NULL with fewer than 6 pairs';
COMMENT ON COLUMN scan_efficiency_result.scan_pct_hi IS 'upper end of the 95 % confidence interval of scan_pct (order statistics), widened as scan_pct_lo is, %; NULL with fewer than 6 pairs';

-- The comments and grants of what the history's move made again.
COMMENT ON FUNCTION scanbench_internal.scan_history_window(bigint, integer) IS
'the runs a run is compared with: the earlier judged runs of the same server, relation, cache mode and marks in the window_days (days) up to it, with a usable figure';
COMMENT ON FUNCTION scanbench_internal.scan_history_median(bigint, integer) IS
'the median a run is compared with: of the runs scan_history_window gives (earlier judged runs of the same server, relation, cache mode and marks in the window_days (days) up to it), %; with how many there are and the first one''s time';
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
COMMENT ON FUNCTION scanbench_metrics() IS
'the latest run of each server, relation and cache mode in the Prometheus text exposition format (gauges; rates in bytes/s, efficiency in %; a fleet''s runs labelled with their server and cohort)';
REVOKE ALL ON FUNCTION scanbench_metrics() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION scanbench_metrics() TO pg_monitor;

--
-- ==== The workload: each query's reads against this storage ====
--
-- pg_stat_statements keeps, per query, the blocks it read and, with
-- track_io_timing, the time it waited for them; pg_stat_io (16 on) the
-- same per kind of process and I/O context, for the whole cluster.
-- workload_snapshot keeps a copy of both here; workload_reads gives each
-- query's reads between two snapshots (or a snapshot and now): bytes over
-- the time waited for them, held against this storage's measured
-- references (workload_references: the newest page_costs and cold
-- scan_efficiency runs of the histories), with a verdict.  workload_io
-- does the same for pg_stat_io's rows.
--
-- scanbench does not depend on pg_stat_statements: it is looked for when
-- its counters are read, in the schema its extension was made in
-- (pg_extension), and every call to it is qualified with that schema.
-- Its view's columns differ by version (blk_read_time to 16,
-- shared_blk_read_time from 17; pg_stat_io's bytes from 18): that is
-- known in one place, scanbench_internal.workload_statements_now and
-- workload_io_now, which read the view's own columns.
--
-- The snapshots, the references and the report are for monitoring
-- (pg_monitor may read and run them); taking a snapshot writes, and stays
-- with the superuser unless granted (doc/workload.md).
--
CREATE SEQUENCE workload_snapshot_id_seq;

CREATE TABLE workload_snapshots (
	snapshot			bigint NOT NULL,
	taken_at			timestamptz NOT NULL,
	userid				oid NOT NULL,
	dbid				oid NOT NULL,
	toplevel			boolean NOT NULL,
	queryid				bigint NOT NULL,
	calls				bigint NOT NULL,
	exec_s				float8 NOT NULL,
	rows				bigint,
	blocks_read			bigint NOT NULL,
	blocks_hit			bigint NOT NULL,
	read_wait_s			float8 NOT NULL,
	track_io_timing		boolean NOT NULL,
	stats_since			timestamptz,
	stats_reset			timestamptz,
	query				text,
	PRIMARY KEY (snapshot, dbid, userid, toplevel, queryid),
	CONSTRAINT workload_snapshots_counts_check CHECK (calls OPERATOR(pg_catalog.>=) 0::pg_catalog.int8 AND
		blocks_read OPERATOR(pg_catalog.>=) 0::pg_catalog.int8 AND blocks_hit OPERATOR(pg_catalog.>=) 0::pg_catalog.int8 AND
		(exec_s OPERATOR(pg_catalog.>=) 0::pg_catalog.float8 AND exec_s OPERATOR(pg_catalog.<) 'Infinity'::pg_catalog.float8) AND
		(read_wait_s OPERATOR(pg_catalog.>=) 0::pg_catalog.float8 AND read_wait_s OPERATOR(pg_catalog.<) 'Infinity'::pg_catalog.float8))
);

CREATE TABLE workload_io_snapshots (
	snapshot			bigint NOT NULL,
	taken_at			timestamptz NOT NULL,
	backend_type		text NOT NULL,
	object				text NOT NULL,
	context				text NOT NULL,
	reads				bigint NOT NULL,
	bytes_read			bigint NOT NULL,
	read_wait_s			float8 NOT NULL,
	hits				bigint,
	track_io_timing		boolean NOT NULL,
	stats_reset			timestamptz,
	PRIMARY KEY (snapshot, backend_type, object, context),
	CONSTRAINT workload_io_snapshots_counts_check CHECK (reads OPERATOR(pg_catalog.>=) 0::pg_catalog.int8 AND
		bytes_read OPERATOR(pg_catalog.>=) 0::pg_catalog.int8 AND
		(read_wait_s OPERATOR(pg_catalog.>=) 0::pg_catalog.float8 AND read_wait_s OPERATOR(pg_catalog.<) 'Infinity'::pg_catalog.float8))
);
ALTER SEQUENCE workload_snapshot_id_seq OWNED BY workload_snapshots.snapshot;

SELECT pg_catalog.pg_extension_config_dump('workload_snapshots', '');
SELECT pg_catalog.pg_extension_config_dump('workload_io_snapshots', '');
SELECT pg_catalog.pg_extension_config_dump('workload_snapshot_id_seq', '');

COMMENT ON TABLE workload_snapshots IS
'pg_stat_statements'' counters as workload_snapshot found them, a row per statement; workload_reads subtracts two snapshots; kept by pg_dump';
COMMENT ON COLUMN workload_snapshots.snapshot IS 'the snapshot''s number, as workload_snapshot returned it; increasing';
COMMENT ON COLUMN workload_snapshots.taken_at IS 'when the snapshot was taken';
COMMENT ON COLUMN workload_snapshots.userid IS 'pg_stat_statements.userid: the role that ran the statement';
COMMENT ON COLUMN workload_snapshots.dbid IS 'pg_stat_statements.dbid: the database it ran in';
COMMENT ON COLUMN workload_snapshots.toplevel IS 'pg_stat_statements.toplevel: run by the client, not inside a function (true where the view has no such column)';
COMMENT ON COLUMN workload_snapshots.queryid IS 'pg_stat_statements.queryid: the statement''s normalised form';
COMMENT ON COLUMN workload_snapshots.calls IS 'times it ran, since pg_stat_statements began counting it';
COMMENT ON COLUMN workload_snapshots.exec_s IS 'seconds it ran, planning left out (total_exec_time); parallel workers'' time is not in it';
COMMENT ON COLUMN workload_snapshots.rows IS 'rows it returned or changed';
COMMENT ON COLUMN workload_snapshots.blocks_read IS 'shared and local blocks it read from outside shared_buffers (shared_blks_read + local_blks_read)';
COMMENT ON COLUMN workload_snapshots.blocks_hit IS 'shared and local blocks it found in shared_buffers';
COMMENT ON COLUMN workload_snapshots.read_wait_s IS 'seconds it waited for those reads, its parallel workers'' waits added: blk_read_time to PostgreSQL 16, shared_blk_read_time + local_blk_read_time from 17; 0 while track_io_timing is off';
COMMENT ON COLUMN workload_snapshots.track_io_timing IS 'track_io_timing in the session that took the snapshot: off, no read is timed';
COMMENT ON COLUMN workload_snapshots.stats_since IS 'when pg_stat_statements began counting this statement (PostgreSQL 17 on; NULL before): a later one means its counters started again';
COMMENT ON COLUMN workload_snapshots.stats_reset IS 'pg_stat_statements_info.stats_reset: when all its counters were last reset';
COMMENT ON COLUMN workload_snapshots.query IS 'the statement''s text, constants replaced; NULL where the role that took the snapshot may not see it';

COMMENT ON TABLE workload_io_snapshots IS
'pg_stat_io''s read counters of relations as workload_snapshot found them (PostgreSQL 16 on), a row per kind of process, object and I/O context; workload_io subtracts two snapshots; kept by pg_dump';
COMMENT ON COLUMN workload_io_snapshots.snapshot IS 'the snapshot''s number, as workload_snapshot returned it';
COMMENT ON COLUMN workload_io_snapshots.taken_at IS 'when the snapshot was taken';
COMMENT ON COLUMN workload_io_snapshots.backend_type IS 'pg_stat_io.backend_type: client backend, autovacuum worker, io worker, ...';
COMMENT ON COLUMN workload_io_snapshots.object IS 'pg_stat_io.object: relation or temp relation';
COMMENT ON COLUMN workload_io_snapshots.context IS 'pg_stat_io.context: normal, bulkread (the ring of a large sequential scan), bulkwrite or vacuum';
COMMENT ON COLUMN workload_io_snapshots.reads IS 'read operations; from 18 one may read several blocks (io_combine_limit)';
COMMENT ON COLUMN workload_io_snapshots.bytes_read IS 'bytes read: read_bytes from PostgreSQL 18, reads x op_bytes in 16 and 17';
COMMENT ON COLUMN workload_io_snapshots.read_wait_s IS 'seconds waited for the reads (read_time); 0 while track_io_timing is off';
COMMENT ON COLUMN workload_io_snapshots.hits IS 'blocks found in shared_buffers';
COMMENT ON COLUMN workload_io_snapshots.track_io_timing IS 'track_io_timing in the session that took the snapshot';
COMMENT ON COLUMN workload_io_snapshots.stats_reset IS 'pg_stat_io.stats_reset: when the row''s counters were last reset';

REVOKE ALL ON TABLE workload_snapshots FROM PUBLIC;
REVOKE ALL ON TABLE workload_io_snapshots FROM PUBLIC;
REVOKE ALL ON SEQUENCE workload_snapshot_id_seq FROM PUBLIC;
GRANT SELECT ON TABLE workload_snapshots TO pg_monitor;
GRANT SELECT ON TABLE workload_io_snapshots TO pg_monitor;

-- pg_stat_statements' counters now, in the snapshot's columns: the one
-- place that knows the view's versions, read from the view's own columns
-- (an extension not updated after pg_upgrade keeps its older view).  A
-- statement whose queryid the caller may not see is left out.
CREATE FUNCTION scanbench_internal.workload_statements_now(OUT userid oid, OUT dbid oid,
	OUT toplevel boolean, OUT queryid bigint, OUT calls bigint, OUT exec_s float8,
	OUT rows bigint, OUT blocks_read bigint, OUT blocks_hit bigint, OUT read_wait_s float8,
	OUT track_io_timing boolean, OUT stats_since timestamptz, OUT stats_reset timestamptz,
	OUT query text)
RETURNS SETOF record
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	nsp name;
	nsp_oid oid;
	cols name[];
	has_info boolean;
	stmt text;
BEGIN
	SELECT n.nspname, n.oid INTO nsp, nsp_oid
	FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
	WHERE e.extname = 'pg_stat_statements';
	IF NOT FOUND THEN
		RAISE EXCEPTION 'pg_stat_statements is not installed in this database'
			USING ERRCODE = 'object_not_in_prerequisite_state',
				  DETAIL = 'The workload''s reads per query are pg_stat_statements'' counters.',
				  HINT = 'Add pg_stat_statements to shared_preload_libraries and restart the server, then run CREATE EXTENSION pg_stat_statements in this database; track_io_timing = on times the reads.';
	END IF;
	SELECT array_agg(a.attname) INTO cols
	FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid
	WHERE c.relnamespace = nsp_oid AND c.relname = 'pg_stat_statements'
	  AND a.attnum > 0 AND NOT a.attisdropped;
	has_info := EXISTS (SELECT 1 FROM pg_class c
						WHERE c.relnamespace = nsp_oid AND c.relname = 'pg_stat_statements_info');
	stmt := format(
		'SELECT s.userid, s.dbid, %s, s.queryid, s.calls, (%s) / 1000, s.rows, '
		's.shared_blks_read + s.local_blks_read, s.shared_blks_hit + s.local_blks_hit, '
		'(%s) / 1000, current_setting(''track_io_timing'')::boolean, %s, %s, s.query '
		'FROM %I.pg_stat_statements s WHERE s.queryid IS NOT NULL',
		CASE WHEN 'toplevel' = ANY (cols) THEN 's.toplevel' ELSE 'true' END,
		CASE WHEN 'total_exec_time' = ANY (cols) THEN 's.total_exec_time' ELSE 's.total_time' END,
		CASE WHEN 'shared_blk_read_time' = ANY (cols)
			 THEN 's.shared_blk_read_time + s.local_blk_read_time'
			 ELSE 's.blk_read_time' END,
		CASE WHEN 'stats_since' = ANY (cols) THEN 's.stats_since' ELSE 'NULL::timestamptz' END,
		CASE WHEN has_info THEN format('(SELECT i.stats_reset FROM %I.pg_stat_statements_info i)', nsp)
			 ELSE 'NULL::timestamptz' END,
		nsp);
	BEGIN
		RETURN QUERY EXECUTE stmt;
	EXCEPTION WHEN object_not_in_prerequisite_state THEN
		RAISE EXCEPTION 'pg_stat_statements is installed in this database but not loaded'
			USING ERRCODE = 'object_not_in_prerequisite_state',
				  HINT = 'Add pg_stat_statements to shared_preload_libraries (keeping the libraries already there) and restart the server.';
	END;
END
$$;

COMMENT ON FUNCTION scanbench_internal.workload_statements_now() IS
'pg_stat_statements'' counters now, one row per statement, in workload_snapshots'' columns: found in the schema of its extension; refused with the command that makes it ready when it is not installed or not loaded';

REVOKE ALL ON FUNCTION scanbench_internal.workload_statements_now() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION scanbench_internal.workload_statements_now() TO pg_monitor;

-- pg_stat_io's reads of relations now (none before 16): 18 counts the
-- bytes, 16 and 17 reads of op_bytes each.
CREATE FUNCTION scanbench_internal.workload_io_now(OUT backend_type text, OUT object text,
	OUT context text, OUT reads bigint, OUT bytes_read bigint, OUT read_wait_s float8,
	OUT hits bigint, OUT track_io_timing boolean, OUT stats_reset timestamptz)
RETURNS SETOF record
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	cols name[];
BEGIN
	SELECT array_agg(a.attname) INTO cols
	FROM pg_attribute a
	WHERE a.attrelid = to_regclass('pg_catalog.pg_stat_io') AND a.attnum > 0;
	IF cols IS NULL THEN
		RETURN;
	END IF;
	RETURN QUERY EXECUTE format(
		'SELECT i.backend_type, i.object, i.context, i.reads, (%s)::bigint, '
		'coalesce(i.read_time, 0) / 1000, i.hits, current_setting(''track_io_timing'')::boolean, '
		'i.stats_reset FROM pg_catalog.pg_stat_io i '
		'WHERE i.object IN (''relation'', ''temp relation'') AND i.reads IS NOT NULL',
		CASE WHEN 'read_bytes' = ANY (cols) THEN 'i.read_bytes' ELSE 'i.reads * i.op_bytes' END);
END
$$;

COMMENT ON FUNCTION scanbench_internal.workload_io_now() IS
'pg_stat_io''s reads of relations now, in workload_io_snapshots'' columns; no row before PostgreSQL 16';

REVOKE ALL ON FUNCTION scanbench_internal.workload_io_now() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION scanbench_internal.workload_io_now() TO pg_monitor;

CREATE FUNCTION workload_snapshot()
RETURNS bigint
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	id bigint;
	statements bigint;
BEGIN
	id := nextval('@extschema@.workload_snapshot_id_seq'::regclass);
	INSERT INTO @extschema@.workload_snapshots (snapshot, taken_at, userid, dbid,
		toplevel, queryid, calls, exec_s, rows, blocks_read, blocks_hit,
		read_wait_s, track_io_timing, stats_since, stats_reset, query)
	SELECT id, now(), s.userid, s.dbid, s.toplevel, s.queryid, s.calls,
		s.exec_s, s.rows, s.blocks_read, s.blocks_hit, s.read_wait_s,
		s.track_io_timing, s.stats_since, s.stats_reset, s.query
	FROM scanbench_internal.workload_statements_now() s;
	GET DIAGNOSTICS statements = ROW_COUNT;
	INSERT INTO @extschema@.workload_io_snapshots (snapshot, taken_at, backend_type,
		object, context, reads, bytes_read, read_wait_s, hits, track_io_timing,
		stats_reset)
	SELECT id, now(), i.backend_type, i.object, i.context, i.reads,
		i.bytes_read, i.read_wait_s, i.hits, i.track_io_timing, i.stats_reset
	FROM scanbench_internal.workload_io_now() i;
	IF statements = 0 THEN
		RAISE NOTICE 'pg_stat_statements holds no statement this role may see: snapshot % has none', id;
	END IF;
	IF NOT current_setting('track_io_timing')::boolean THEN
		RAISE NOTICE 'track_io_timing is off: no read is timed, and workload_reads can give no read rate'
			USING HINT = 'ALTER SYSTEM SET track_io_timing = on; SELECT pg_reload_conf();  (pg_test_timing shows what a timing costs on this server)';
	END IF;
	RETURN id;
END
$$;

COMMENT ON FUNCTION workload_snapshot() IS
'copy pg_stat_statements'' counters (and pg_stat_io''s, PostgreSQL 16 on) into workload_snapshots; returns the snapshot''s number, for workload_reads';

REVOKE ALL ON FUNCTION workload_snapshot() FROM PUBLIC;

CREATE TYPE workload_references_result AS (
	reference			text,
	mb_s				float8,
	block_us			float8,
	depth				integer,
	tablespace			text,
	source				text,
	measured_at			timestamptz,
	age					interval
);

COMMENT ON TYPE workload_references_result IS 'one rate this storage was measured to give, which workload_reads holds queries against';
COMMENT ON COLUMN workload_references_result.reference IS 'sequential (read in order, read-ahead as a sequential scan gets it), random (8 kB at random, one at a time: an index scan''s), random_at_depth (at effective_io_concurrency: a bitmap heap scan''s) or page_cache (a page from the page cache)';
COMMENT ON COLUMN workload_references_result.mb_s IS 'the rate, MB/s (10^6 bytes), to 0.1';
COMMENT ON COLUMN workload_references_result.block_us IS 'microseconds a block (block_size) takes at that rate';
COMMENT ON COLUMN workload_references_result.depth IS 'reads in flight: 1 for random; for random_at_depth the depth measured nearest at or below the tablespace''s effective_io_concurrency (no such row where that is 0 or 1); NULL for sequential (as read-ahead keeps it) and page_cache';
COMMENT ON COLUMN workload_references_result.tablespace IS 'the tablespace measured; NULL where the run does not say (scan_history)';
COMMENT ON COLUMN workload_references_result.source IS 'the run it comes from: page_costs_history (seq_page_us, random_page_us, depth_pages_s, cached_page_us) or scan_history (a cold run''s read_mb_s), with its number and table';
COMMENT ON COLUMN workload_references_result.measured_at IS 'when that run was measured';
COMMENT ON COLUMN workload_references_result.age IS 'how long ago, to the second';

-- The newest run of each source that measured the storage itself: a
-- page_costs run (its page times are cold whatever the caches held
-- before), a cold scan_efficiency run of this server that no cache below
-- it served (not cached, host_cache or burst).  Sequential comes from the
-- newer of the two.
CREATE FUNCTION workload_references()
RETURNS SETOF workload_references_result
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
WITH blk AS (
	SELECT current_setting('block_size')::float8 AS b
), pc AS (
	SELECT h.id, h.measured_at, h.relschema, h.relname, h.tablespace,
		h.seq_page_us, h.random_page_us, h.cached_page_us, h.depths, h.depth_pages_s
	FROM @extschema@.page_costs_history h
	WHERE h.seq_page_us > 0 AND h.random_page_us > 0
	ORDER BY h.measured_at DESC, h.id DESC
	LIMIT 1
), sh AS (
	SELECT h.id, h.measured_at, h.relschema, h.relname, h.read_mb_s
	FROM @extschema@.scan_history h
	WHERE h.server IS NULL AND h.reason IS NULL AND h.cache = 'cold' AND h.read_mb_s > 0
	  AND NOT coalesce(h.verdict && '{cached,host_cache,burst}'::text[], false)
	ORDER BY h.measured_at DESC, h.id DESC
	LIMIT 1
), eic AS (
	-- the depth a bitmap heap scan of that tablespace keeps now
	SELECT greatest(1, coalesce(
		(SELECT o.option_value::integer
		 FROM pg_tablespace t, pg_options_to_table(t.spcoptions) o
		 WHERE t.spcname = pc.tablespace AND o.option_name = 'effective_io_concurrency'),
		current_setting('effective_io_concurrency')::integer)) AS depth
	FROM pc
), refs AS (
	SELECT * FROM (
		SELECT 1 AS ord, 'sequential' AS reference, s.mb_s, NULL::integer AS depth,
			s.tablespace, s.source, s.measured_at
		FROM (SELECT sh.read_mb_s AS mb_s, NULL::text AS tablespace,
					 format('scan_history %s: %I.%I, cold', sh.id, sh.relschema, sh.relname) AS source,
					 sh.measured_at
			  FROM sh
			  UNION ALL
			  SELECT blk.b / pc.seq_page_us, pc.tablespace,
					 format('page_costs_history %s: %I.%I', pc.id, pc.relschema, pc.relname),
					 pc.measured_at
			  FROM pc, blk) s
		ORDER BY s.measured_at DESC
		LIMIT 1) seq
	UNION ALL
	SELECT 2, 'random', blk.b / pc.random_page_us, 1, pc.tablespace,
		format('page_costs_history %s: %I.%I', pc.id, pc.relschema, pc.relname), pc.measured_at
	FROM pc, blk
	UNION ALL
	SELECT 3, 'random_at_depth', d.pages_s * blk.b / 1e6, d.depth, pc.tablespace,
		format('page_costs_history %s: %I.%I', pc.id, pc.relschema, pc.relname), pc.measured_at
	FROM pc, blk, eic,
		LATERAL (SELECT x.depth, x.pages_s
				 FROM unnest(pc.depths, pc.depth_pages_s) AS x(depth, pages_s)
				 WHERE x.depth > 1 AND x.depth <= eic.depth AND x.pages_s > 0
				 ORDER BY x.depth DESC
				 LIMIT 1) d
	UNION ALL
	SELECT 4, 'page_cache', blk.b / pc.cached_page_us, NULL, pc.tablespace,
		format('page_costs_history %s: %I.%I', pc.id, pc.relschema, pc.relname), pc.measured_at
	FROM pc, blk
	WHERE pc.cached_page_us > 0
)
SELECT r.reference, round(r.mb_s::numeric, 1)::float8,
	round((blk.b / r.mb_s)::numeric, 2)::float8, r.depth, r.tablespace, r.source,
	r.measured_at, date_trunc('second', now() - r.measured_at)
FROM refs r, blk
ORDER BY r.ord
$$;

COMMENT ON FUNCTION workload_references() IS
'the rates this storage was measured to give, from the newest runs in the histories: sequential (page_costs'' seq_page_us, or a cold scan_efficiency run''s read_mb_s, whichever is newer), random 8 kB at depth 1 and at the tablespace''s effective_io_concurrency (page_costs), a page from the page cache (page_costs); none until page_costs_check or efficiency_check has recorded a run';

REVOKE ALL ON FUNCTION workload_references() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION workload_references() TO pg_monitor;

-- The judge of one query's (or one pg_stat_io row's) reads: the reference
-- nearest its rate, whether the page cache served them, whether the reads
-- or the rest of the query took its time.  Literal inputs, no table read:
-- sql/workload.sql tests each rule.
CREATE FUNCTION scanbench_internal.workload_judge(bytes_read bigint, read_mb_s float8,
	read_wait_pct float8, sequential_mb_s float8, random_mb_s float8,
	random_at_depth_mb_s float8, page_cache_mb_s float8,
	OUT reference text, OUT reference_mb_s float8, OUT verdict text[], OUT note text)
LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	-- faster than every device reference by this much: not from the device
	cache_ratio constant float8 := 2;
	-- reads waited for this share of the query's time or more: the reads
	-- held it back (from the page cache too: shared_buffers did not hold
	-- what it reads)
	bound_pct constant float8 := 50;
BEGIN
	IF coalesce(bytes_read, 0) = 0 THEN
		verdict := '{no_reads}';
		note := 'no block was read from outside shared_buffers';
		RETURN;
	END IF;
	IF read_mb_s IS NULL THEN
		verdict := '{no_read_timing}';
		note := 'blocks were read but their wait was not timed: track_io_timing was off where they ran or when a snapshot was taken (ALTER SYSTEM SET track_io_timing = on; SELECT pg_reload_conf(); pg_test_timing shows what a timing costs on this server), then take a new snapshot';
		RETURN;
	END IF;
	verdict := '{}';
	SELECT r.name, r.mb_s INTO reference, reference_mb_s
	FROM (VALUES (1, 'sequential', sequential_mb_s), (2, 'random', random_mb_s),
				 (3, 'random_at_depth', random_at_depth_mb_s),
				 (4, 'page_cache', page_cache_mb_s)) AS r(ord, name, mb_s)
	WHERE r.mb_s > 0
	ORDER BY abs(ln(read_mb_s / r.mb_s)), r.ord
	LIMIT 1;
	IF reference IS NULL THEN
		verdict := verdict || 'no_reference'::text;
		note := 'no rate of this storage is recorded: page_costs_check (on a table of 10 MB or more) or efficiency_check measures it';
	ELSIF reference = 'page_cache'
		  OR read_mb_s > cache_ratio * greatest(sequential_mb_s, random_mb_s, random_at_depth_mb_s) THEN
		verdict := verdict || 'page_cache'::text;
	END IF;
	IF read_wait_pct IS NOT NULL THEN
		IF read_wait_pct >= bound_pct THEN
			verdict := verdict || 'storage_bound'::text;
		ELSE
			verdict := verdict || 'executor_bound'::text;
		END IF;
	END IF;
END
$$;

COMMENT ON FUNCTION scanbench_internal.workload_judge(bigint, float8, float8, float8, float8, float8, float8) IS
'the verdict on one query''s reads: the reference nearest its read rate (by ratio), and the marks no_reads, no_read_timing, no_reference, page_cache (nearest the page cache, or over twice every device reference), storage_bound (reads took half its time or more) or executor_bound';

REVOKE ALL ON FUNCTION scanbench_internal.workload_judge(bigint, float8, float8, float8, float8, float8, float8) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION scanbench_internal.workload_judge(bigint, float8, float8, float8, float8, float8, float8) TO pg_monitor;

-- The snapshots an interval is between: the first must exist, the second
-- (NULL: the counters now) too, and come after it.
CREATE FUNCTION scanbench_internal.workload_interval(from_snapshot bigint, to_snapshot bigint)
RETURNS void
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	s bigint;
BEGIN
	IF from_snapshot IS NULL THEN
		RAISE EXCEPTION 'from_snapshot must not be NULL'
			USING ERRCODE = 'null_value_not_allowed',
				  HINT = 'Give the number workload_snapshot() returned.';
	END IF;
	FOREACH s IN ARRAY ARRAY[from_snapshot, to_snapshot] LOOP
		CONTINUE WHEN s IS NULL;
		IF NOT EXISTS (SELECT 1 FROM @extschema@.workload_snapshots w WHERE w.snapshot = s)
		   AND NOT EXISTS (SELECT 1 FROM @extschema@.workload_io_snapshots w WHERE w.snapshot = s) THEN
			RAISE EXCEPTION 'no workload snapshot %', s
				USING ERRCODE = 'invalid_parameter_value',
					  HINT = 'workload_snapshot() takes one and returns its number; SELECT DISTINCT snapshot, taken_at FROM workload_snapshots lists them.';
		END IF;
	END LOOP;
	IF to_snapshot <= from_snapshot THEN
		RAISE EXCEPTION 'to_snapshot % was not taken after from_snapshot %', to_snapshot, from_snapshot
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'Give the earlier snapshot first; to_snapshot NULL (the default) compares with the counters now.';
	END IF;
END
$$;

COMMENT ON FUNCTION scanbench_internal.workload_interval(bigint, bigint) IS
'the argument checks of workload_reads and workload_io: from_snapshot given and taken, to_snapshot (NULL: now) taken after it';

REVOKE ALL ON FUNCTION scanbench_internal.workload_interval(bigint, bigint) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION scanbench_internal.workload_interval(bigint, bigint) TO pg_monitor;

CREATE TYPE workload_reads_result AS (
	queryid				bigint,
	database			text,
	role				text,
	toplevel			boolean,
	query				text,
	calls				bigint,
	exec_s				float8,
	blocks_read			bigint,
	blocks_hit			bigint,
	bytes_read			bigint,
	read_wait_s			float8,
	read_wait_pct		float8,
	read_mb_s			float8,
	block_wait_us		float8,
	reference			text,
	reference_mb_s		float8,
	reference_pct		float8,
	sequential_pct		float8,
	random_pct			float8,
	random_at_depth_pct	float8,
	verdict				text[],
	note				text
);

COMMENT ON TYPE workload_reads_result IS 'workload_reads: one statement''s reads between two snapshots, against the storage''s measured rates';
COMMENT ON COLUMN workload_reads_result.queryid IS 'pg_stat_statements.queryid';
COMMENT ON COLUMN workload_reads_result.database IS 'the database it ran in';
COMMENT ON COLUMN workload_reads_result.role IS 'the role that ran it';
COMMENT ON COLUMN workload_reads_result.toplevel IS 'run by the client, not inside a function';
COMMENT ON COLUMN workload_reads_result.query IS 'the statement''s text, constants replaced; NULL where it may not be seen';
COMMENT ON COLUMN workload_reads_result.calls IS 'times it ran in the interval';
COMMENT ON COLUMN workload_reads_result.exec_s IS 'seconds it ran in the interval, planning left out (its parallel workers'' time is not in it)';
COMMENT ON COLUMN workload_reads_result.blocks_read IS 'blocks it read from outside shared_buffers in the interval';
COMMENT ON COLUMN workload_reads_result.blocks_hit IS 'blocks it found in shared_buffers in the interval';
COMMENT ON COLUMN workload_reads_result.bytes_read IS 'blocks_read x block_size';
COMMENT ON COLUMN workload_reads_result.read_wait_s IS 'seconds it waited for those reads (track_io_timing), its parallel workers'' waits added; from PostgreSQL 18 the time waited, not the time the reads took (reads issued ahead are waited for less)';
COMMENT ON COLUMN workload_reads_result.read_wait_pct IS '100 x read_wait_s / exec_s: the share of its time it waited for reads, %; above 100 when parallel workers waited too';
COMMENT ON COLUMN workload_reads_result.read_mb_s IS 'bytes_read / read_wait_s, MB/s (10^6 bytes): the rate per second of wait; a parallel query''s is per process; NULL when the reads were not timed';
COMMENT ON COLUMN workload_reads_result.block_wait_us IS 'read_wait_s / blocks_read, microseconds a block';
COMMENT ON COLUMN workload_reads_result.reference IS 'the measured rate nearest read_mb_s (by ratio): sequential, random, random_at_depth or page_cache (workload_references); NULL when none is recorded or nothing was timed';
COMMENT ON COLUMN workload_reads_result.reference_mb_s IS 'that reference''s rate, MB/s';
COMMENT ON COLUMN workload_reads_result.reference_pct IS '100 x read_mb_s / reference_mb_s, %';
COMMENT ON COLUMN workload_reads_result.sequential_pct IS 'read_mb_s as a % of the sequential reference';
COMMENT ON COLUMN workload_reads_result.random_pct IS 'read_mb_s as a % of the random reference (8 kB at depth 1, an index scan''s)';
COMMENT ON COLUMN workload_reads_result.random_at_depth_pct IS 'read_mb_s as a % of the random_at_depth reference (8 kB at effective_io_concurrency, a bitmap heap scan''s)';
COMMENT ON COLUMN workload_reads_result.verdict IS 'marks: no_reads (all from shared_buffers), no_read_timing (track_io_timing was off), no_reference, page_cache (the page cache served the reads: nearest its rate, or over twice every rate of the device), storage_bound (the reads took half its time or more) or executor_bound, reset (its counters started again in the interval: counted from then)';
COMMENT ON COLUMN workload_reads_result.note IS 'what a mark means here and the command that gives a missing figure';

CREATE FUNCTION workload_reads(from_snapshot bigint, to_snapshot bigint DEFAULT NULL)
RETURNS SETOF workload_reads_result
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	r @extschema@.workload_reads_result;
	from_timing boolean;
	seq_mb_s float8;
	rnd_mb_s float8;
	depth_mb_s float8;
	cache_mb_s float8;
	blk float8 := current_setting('block_size')::float8;
	restarted_n bigint := 0;
BEGIN
	PERFORM scanbench_internal.workload_interval(from_snapshot, to_snapshot);
	SELECT bool_and(w.track_io_timing) INTO from_timing
	FROM @extschema@.workload_snapshots w WHERE w.snapshot = from_snapshot;
	SELECT max(x.mb_s) FILTER (WHERE x.reference = 'sequential'),
		   max(x.mb_s) FILTER (WHERE x.reference = 'random'),
		   max(x.mb_s) FILTER (WHERE x.reference = 'random_at_depth'),
		   max(x.mb_s) FILTER (WHERE x.reference = 'page_cache')
	INTO seq_mb_s, rnd_mb_s, depth_mb_s, cache_mb_s
	FROM @extschema@.workload_references() x;

	FOR r IN
		WITH b AS (
			SELECT w.* FROM @extschema@.workload_snapshots w WHERE w.snapshot = from_snapshot
		), a AS (
			SELECT w.userid, w.dbid, w.toplevel, w.queryid, w.calls, w.exec_s,
				w.blocks_read, w.blocks_hit, w.read_wait_s, w.track_io_timing,
				w.stats_since, w.stats_reset, w.query
			FROM @extschema@.workload_snapshots w WHERE w.snapshot = to_snapshot
			UNION ALL
			SELECT n.userid, n.dbid, n.toplevel, n.queryid, n.calls, n.exec_s,
				n.blocks_read, n.blocks_hit, n.read_wait_s, n.track_io_timing,
				n.stats_since, n.stats_reset, n.query
			FROM scanbench_internal.workload_statements_now() n
			WHERE to_snapshot IS NULL
		), j AS (
			-- Counters that started again (a reset of them all, the
			-- statement evicted and counted anew) are counted from then.
			SELECT a.*, b.queryid IS NOT NULL AND NOT
					(a.stats_reset IS DISTINCT FROM b.stats_reset
					 OR a.stats_since IS DISTINCT FROM b.stats_since
					 OR a.calls < b.calls) AS kept,
				b.queryid IS NOT NULL AND
					(a.stats_reset IS DISTINCT FROM b.stats_reset
					 OR a.stats_since IS DISTINCT FROM b.stats_since
					 OR a.calls < b.calls) AS restarted,
				b.calls AS b_calls, b.exec_s AS b_exec_s, b.blocks_read AS b_blocks_read,
				b.blocks_hit AS b_blocks_hit, b.read_wait_s AS b_read_wait_s
			FROM a LEFT JOIN b USING (userid, dbid, toplevel, queryid)
		), d AS (
			SELECT j.userid, j.dbid, j.toplevel, j.queryid, j.query, j.restarted,
				j.calls - CASE WHEN j.kept THEN j.b_calls ELSE 0 END AS calls,
				j.exec_s - CASE WHEN j.kept THEN j.b_exec_s ELSE 0 END AS exec_s,
				j.blocks_read - CASE WHEN j.kept THEN j.b_blocks_read ELSE 0 END AS blocks_read,
				j.blocks_hit - CASE WHEN j.kept THEN j.b_blocks_hit ELSE 0 END AS blocks_hit,
				greatest(j.read_wait_s - CASE WHEN j.kept THEN j.b_read_wait_s ELSE 0 END, 0) AS read_wait_s,
				j.track_io_timing AND coalesce(from_timing, true) AS timing_on
			FROM j
		), t AS (
			-- Blocks read and no wait: not timed (track_io_timing is a
			-- session's setting, and may have been off where they ran).
			SELECT d.*, d.timing_on AND (d.read_wait_s > 0 OR d.blocks_read = 0) AS timed
			FROM d
		), f AS (
			SELECT t.*, t.blocks_read::float8 * blk AS bytes,
				CASE WHEN t.timed AND t.blocks_read > 0
					 THEN t.blocks_read::float8 * blk / t.read_wait_s / 1e6 END AS mb_s,
				CASE WHEN t.exec_s > 0 AND t.timed
					 THEN 100 * t.read_wait_s / t.exec_s END AS wait_pct
			FROM t
			WHERE t.calls > 0
		)
		SELECT f.queryid,
			(SELECT db.datname::text FROM pg_database db WHERE db.oid = f.dbid),
			(SELECT ro.rolname::text FROM pg_roles ro WHERE ro.oid = f.userid),
			f.toplevel, f.query, f.calls, round(f.exec_s::numeric, 6)::float8,
			f.blocks_read, f.blocks_hit, f.bytes::bigint,
			CASE WHEN f.timed THEN round(f.read_wait_s::numeric, 6)::float8 END,
			round(f.wait_pct::numeric, 1)::float8, round(f.mb_s::numeric, 1)::float8,
			CASE WHEN f.timed AND f.blocks_read > 0
				 THEN round((1e6 * f.read_wait_s / f.blocks_read)::numeric, 2)::float8 END,
			v.reference, round(v.reference_mb_s::numeric, 1)::float8,
			round((100 * f.mb_s / v.reference_mb_s)::numeric, 1)::float8,
			round((100 * f.mb_s / seq_mb_s)::numeric, 1)::float8,
			round((100 * f.mb_s / rnd_mb_s)::numeric, 1)::float8,
			round((100 * f.mb_s / depth_mb_s)::numeric, 1)::float8,
			v.verdict || CASE WHEN f.restarted THEN '{reset}'::text[] ELSE '{}'::text[] END,
			nullif(concat_ws('; ', v.note,
				CASE WHEN f.restarted THEN 'its counters started again in the interval (pg_stat_statements_reset(), or the statement evicted and counted anew): counted from then' END), '')
		FROM f, LATERAL scanbench_internal.workload_judge(f.bytes::bigint, f.mb_s, f.wait_pct,
			seq_mb_s, rnd_mb_s, depth_mb_s, cache_mb_s) v
		ORDER BY f.read_wait_s DESC, f.blocks_read DESC, f.calls DESC, f.queryid
	LOOP
		IF 'reset' = ANY (r.verdict) THEN
			restarted_n := restarted_n + 1;
		END IF;
		RETURN NEXT r;
	END LOOP;
	IF NOT coalesce(from_timing, true) THEN
		RAISE NOTICE 'track_io_timing was off when snapshot % was taken: no read rate between it and the next', from_snapshot
			USING HINT = 'ALTER SYSTEM SET track_io_timing = on; SELECT pg_reload_conf();  then take a new snapshot';
	END IF;
	IF to_snapshot IS NULL AND NOT current_setting('track_io_timing')::boolean THEN
		RAISE NOTICE 'track_io_timing is off: no read is timed'
			USING HINT = 'ALTER SYSTEM SET track_io_timing = on; SELECT pg_reload_conf();  (pg_test_timing shows what a timing costs on this server)';
	END IF;
	IF restarted_n > 0 THEN
		RAISE NOTICE 'the counters of % % started again in the interval: counted from then', restarted_n,
			CASE WHEN restarted_n = 1 THEN 'statement' ELSE 'statements' END
			USING HINT = 'pg_stat_statements_reset() starts them all again; a statement evicted (pg_stat_statements keeps pg_stat_statements.max of them) starts again when it comes back.';
	END IF;
END
$$;

COMMENT ON FUNCTION workload_reads(bigint, bigint) IS
'each statement''s reads between two snapshots of workload_snapshot (to_snapshot NULL: the counters now): calls, blocks read and hit, bytes, the wait for them and its share of the statement''s time, the rate per second of wait held against this storage''s measured rates (workload_references), and a verdict; the statements that waited longest first';

REVOKE ALL ON FUNCTION workload_reads(bigint, bigint) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION workload_reads(bigint, bigint) TO pg_monitor;

CREATE TYPE workload_io_result AS (
	backend_type		text,
	object				text,
	context				text,
	reads				bigint,
	bytes_read			bigint,
	read_wait_s			float8,
	read_mb_s			float8,
	block_wait_us		float8,
	reference			text,
	reference_mb_s		float8,
	reference_pct		float8,
	verdict				text[],
	note				text
);

COMMENT ON TYPE workload_io_result IS 'workload_io: one row of pg_stat_io''s reads between two snapshots, against the storage''s measured rates';
COMMENT ON COLUMN workload_io_result.backend_type IS 'pg_stat_io.backend_type: client backend, background worker, autovacuum worker, io worker, ...';
COMMENT ON COLUMN workload_io_result.object IS 'relation or temp relation';
COMMENT ON COLUMN workload_io_result.context IS 'normal, bulkread (the ring of a large sequential scan), bulkwrite or vacuum';
COMMENT ON COLUMN workload_io_result.reads IS 'read operations in the interval; from PostgreSQL 18 one may read several blocks';
COMMENT ON COLUMN workload_io_result.bytes_read IS 'bytes read in the interval: read_bytes from PostgreSQL 18, reads x op_bytes in 16 and 17';
COMMENT ON COLUMN workload_io_result.read_wait_s IS 'seconds waited for them (track_io_timing); NULL when the reads were not timed';
COMMENT ON COLUMN workload_io_result.read_mb_s IS 'bytes_read / read_wait_s, MB/s (10^6 bytes): the rate per second of wait, of all processes of that kind together';
COMMENT ON COLUMN workload_io_result.block_wait_us IS 'microseconds waited a block (block_size)';
COMMENT ON COLUMN workload_io_result.reference IS 'the measured rate nearest read_mb_s (by ratio): sequential, random, random_at_depth or page_cache (workload_references)';
COMMENT ON COLUMN workload_io_result.reference_mb_s IS 'that reference''s rate, MB/s';
COMMENT ON COLUMN workload_io_result.reference_pct IS '100 x read_mb_s / reference_mb_s, %';
COMMENT ON COLUMN workload_io_result.verdict IS 'marks, as workload_reads gives them (no storage_bound or executor_bound: pg_stat_io keeps no time but the reads''), reset when the row''s counters were reset in the interval';
COMMENT ON COLUMN workload_io_result.note IS 'what a mark means here and the command that gives a missing figure';

CREATE FUNCTION workload_io(from_snapshot bigint, to_snapshot bigint DEFAULT NULL)
RETURNS SETOF workload_io_result
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	r @extschema@.workload_io_result;
	from_timing boolean;
	seq_mb_s float8;
	rnd_mb_s float8;
	depth_mb_s float8;
	cache_mb_s float8;
	blk float8 := current_setting('block_size')::float8;
BEGIN
	PERFORM scanbench_internal.workload_interval(from_snapshot, to_snapshot);
	IF to_regclass('pg_catalog.pg_stat_io') IS NULL THEN
		RAISE NOTICE 'this server has no pg_stat_io: it came in PostgreSQL 16'
			USING HINT = 'workload_reads gives the reads per statement, from pg_stat_statements.';
		RETURN;
	END IF;
	SELECT bool_and(w.track_io_timing) INTO from_timing
	FROM @extschema@.workload_io_snapshots w WHERE w.snapshot = from_snapshot;
	IF from_timing IS NULL THEN
		RAISE NOTICE 'snapshot % has no pg_stat_io rows', from_snapshot
			USING HINT = 'A snapshot taken before the server was upgraded to PostgreSQL 16 has none; take a new one.';
		RETURN;
	END IF;
	SELECT max(x.mb_s) FILTER (WHERE x.reference = 'sequential'),
		   max(x.mb_s) FILTER (WHERE x.reference = 'random'),
		   max(x.mb_s) FILTER (WHERE x.reference = 'random_at_depth'),
		   max(x.mb_s) FILTER (WHERE x.reference = 'page_cache')
	INTO seq_mb_s, rnd_mb_s, depth_mb_s, cache_mb_s
	FROM @extschema@.workload_references() x;

	FOR r IN
		WITH b AS (
			SELECT w.* FROM @extschema@.workload_io_snapshots w WHERE w.snapshot = from_snapshot
		), a AS (
			SELECT w.backend_type, w.object, w.context, w.reads, w.bytes_read,
				w.read_wait_s, w.track_io_timing, w.stats_reset
			FROM @extschema@.workload_io_snapshots w WHERE w.snapshot = to_snapshot
			UNION ALL
			SELECT n.backend_type, n.object, n.context, n.reads, n.bytes_read,
				n.read_wait_s, n.track_io_timing, n.stats_reset
			FROM scanbench_internal.workload_io_now() n
			WHERE to_snapshot IS NULL
		), j AS (
			SELECT a.*, b.reads IS NOT NULL AND
					(a.stats_reset IS DISTINCT FROM b.stats_reset OR a.reads < b.reads) AS restarted,
				b.reads AS b_reads, b.bytes_read AS b_bytes_read, b.read_wait_s AS b_read_wait_s
			FROM a LEFT JOIN b USING (backend_type, object, context)
		), d AS (
			SELECT j.backend_type, j.object, j.context, j.restarted,
				j.reads - CASE WHEN j.b_reads IS NOT NULL AND NOT j.restarted THEN j.b_reads ELSE 0 END AS reads,
				j.bytes_read - CASE WHEN j.b_reads IS NOT NULL AND NOT j.restarted THEN j.b_bytes_read ELSE 0 END AS bytes_read,
				greatest(j.read_wait_s - CASE WHEN j.b_reads IS NOT NULL AND NOT j.restarted THEN j.b_read_wait_s ELSE 0 END, 0) AS read_wait_s,
				j.track_io_timing AND from_timing AS timing_on
			FROM j
		), f AS (
			SELECT d.*, d.timing_on AND d.read_wait_s > 0 AS timed,
				CASE WHEN d.timing_on AND d.read_wait_s > 0 AND d.bytes_read > 0
					 THEN d.bytes_read / d.read_wait_s / 1e6 END AS mb_s
			FROM d
			WHERE d.reads > 0
		)
		SELECT f.backend_type, f.object, f.context, f.reads, f.bytes_read,
			CASE WHEN f.timed THEN round(f.read_wait_s::numeric, 6)::float8 END,
			round(f.mb_s::numeric, 1)::float8,
			CASE WHEN f.timed THEN round((1e6 * f.read_wait_s / (f.bytes_read / blk))::numeric, 2)::float8 END,
			v.reference, round(v.reference_mb_s::numeric, 1)::float8,
			round((100 * f.mb_s / v.reference_mb_s)::numeric, 1)::float8,
			v.verdict || CASE WHEN f.restarted THEN '{reset}'::text[] ELSE '{}'::text[] END,
			nullif(concat_ws('; ', v.note,
				CASE WHEN f.restarted THEN 'its counters were reset in the interval (pg_stat_reset_shared(''io'')): counted from then' END), '')
		FROM f, LATERAL scanbench_internal.workload_judge(f.bytes_read, f.mb_s, NULL,
			seq_mb_s, rnd_mb_s, depth_mb_s, cache_mb_s) v
		ORDER BY f.read_wait_s DESC, f.bytes_read DESC, f.backend_type, f.object, f.context
	LOOP
		RETURN NEXT r;
	END LOOP;
	IF NOT from_timing THEN
		RAISE NOTICE 'track_io_timing was off when snapshot % was taken: no read rate between it and the next', from_snapshot
			USING HINT = 'ALTER SYSTEM SET track_io_timing = on; SELECT pg_reload_conf();  then take a new snapshot';
	END IF;
	IF to_snapshot IS NULL AND NOT current_setting('track_io_timing')::boolean THEN
		RAISE NOTICE 'track_io_timing is off: no read is timed'
			USING HINT = 'ALTER SYSTEM SET track_io_timing = on; SELECT pg_reload_conf();  (pg_test_timing shows what a timing costs on this server)';
	END IF;
END
$$;

COMMENT ON FUNCTION workload_io(bigint, bigint) IS
'pg_stat_io''s reads of relations between two snapshots of workload_snapshot (to_snapshot NULL: the counters now), a row per kind of process and I/O context: reads, bytes, the wait for them, the rate per second of wait against this storage''s measured rates (workload_references), and a verdict; PostgreSQL 16 on (bytes counted from 18)';

REVOKE ALL ON FUNCTION workload_io(bigint, bigint) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION workload_io(bigint, bigint) TO pg_monitor;

-- One query given by the caller, per scan node: workload_scans runs it
-- with EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) cold (the relations its
-- plan reads evicted first, as scan_efficiency's cold mode evicts them)
-- and warm, each time in a subtransaction rolled back with the
-- transaction read-only, and gives a row per scan node and run: its
-- reads against the reference of its access path (workload_references).
-- It is C, and has no SET search_path: the query is the caller's, named
-- and run with the caller's path and rights as the caller would run it;
-- the one statement the library sends of its own names
-- workload_references with the extension's schema.  It evicts caches and
-- runs a query: the superuser's unless granted (doc/workload.md).
CREATE TYPE workload_scans_result AS (
	cache				text,
	node				integer,
	node_type			text,
	relation			regclass,
	alias				text,
	idx					regclass,
	rows				bigint,
	loops				bigint,
	blocks_read			bigint,
	blocks_hit			bigint,
	bytes_read			bigint,
	read_wait_s			float8,
	read_mb_s			float8,
	node_s				float8,
	read_wait_pct		float8,
	in_flight			float8,
	cached_pct			float8,
	reference			text,
	reference_mb_s		float8,
	reference_pct		float8,
	verdict				text[],
	note				text
);

COMMENT ON TYPE workload_scans_result IS 'workload_scans: one scan node of one run of the query, its reads against the reference of its access path';
COMMENT ON COLUMN workload_scans_result.cache IS 'cold (the relations the plan reads, their indexes and TOAST evicted from shared_buffers and the page cache first) or warm (run again after the cold run, its pages resident)';
COMMENT ON COLUMN workload_scans_result.node IS 'the node''s place in the plan, as EXPLAIN lists its nodes: 1 is the top';
COMMENT ON COLUMN workload_scans_result.node_type IS 'Seq Scan, Index Scan, Index Only Scan or Bitmap Heap Scan';
COMMENT ON COLUMN workload_scans_result.relation IS 'the table it scans';
COMMENT ON COLUMN workload_scans_result.alias IS 'the name the query gives the table (tells two scans of one table apart)';
COMMENT ON COLUMN workload_scans_result.idx IS 'the index it reads: a bitmap heap scan''s bitmap index scan''s; NULL for a sequential scan, or a bitmap built from several indexes';
COMMENT ON COLUMN workload_scans_result.rows IS 'rows it returned, over all its loops';
COMMENT ON COLUMN workload_scans_result.loops IS 'times it ran (the inner side of a nested loop runs once a row of the outer; parallel workers add theirs)';
COMMENT ON COLUMN workload_scans_result.blocks_read IS 'blocks it read from outside shared_buffers, its own: a bitmap heap scan''s bitmap index scans and a subplan in its filter are left out';
COMMENT ON COLUMN workload_scans_result.blocks_hit IS 'blocks it found in shared_buffers, its own';
COMMENT ON COLUMN workload_scans_result.bytes_read IS 'blocks_read x block_size';
COMMENT ON COLUMN workload_scans_result.read_wait_s IS 'seconds it waited for those reads (track_io_timing, set on for the run); from PostgreSQL 18 the time waited, not the time the reads took (reads issued ahead are waited for less)';
COMMENT ON COLUMN workload_scans_result.read_mb_s IS 'bytes_read / read_wait_s, MB/s (10^6 bytes): the rate per second of wait; NULL when nothing was read or no read was waited for';
COMMENT ON COLUMN workload_scans_result.node_s IS 'seconds the node ran, its own (its children''s time left out), over all its loops';
COMMENT ON COLUMN workload_scans_result.read_wait_pct IS '100 x read_wait_s / node_s: the share of its time it waited for reads, %';
COMMENT ON COLUMN workload_scans_result.in_flight IS 'reads its read stream kept in flight, on average, where EXPLAIN''s IO figures say (PostgreSQL 19 on); NULL before';
COMMENT ON COLUMN workload_scans_result.cached_pct IS 'cold: % of its table''s (and index''s) blocks still in shared_buffers or the page cache after the eviction; NULL warm';
COMMENT ON COLUMN workload_scans_result.reference IS 'the reference of its access path (workload_references): sequential for a Seq Scan, random for an Index Scan or Index Only Scan, random_at_depth for a Bitmap Heap Scan (random where none at depth is recorded)';
COMMENT ON COLUMN workload_scans_result.reference_mb_s IS 'that reference''s rate, MB/s; NULL when none is recorded';
COMMENT ON COLUMN workload_scans_result.reference_pct IS '100 x read_mb_s / reference_mb_s, %';
COMMENT ON COLUMN workload_scans_result.verdict IS '{ok}, or cached (more than 5 % resident after the eviction), host_cache (a cold run read faster than twice every rate of the storage: a cache below this system served it), io_limited (the server''s read throttle set the rate), depth_limited (read one at a time where the storage gives 1.5 times more at depth), storage_not_limiting (its reads took less than half its time); NULL when it read nothing from outside shared_buffers';
COMMENT ON COLUMN workload_scans_result.note IS 'why a figure is missing, and the command that gives it';

CREATE FUNCTION workload_scans(query text, cache text DEFAULT 'both')
RETURNS SETOF workload_scans_result
AS 'MODULE_PATHNAME', 'workload_scans'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE ROWS 4;

COMMENT ON FUNCTION workload_scans(text, text) IS
'run one SELECT, given as text, with EXPLAIN (ANALYZE, BUFFERS) cold (its relations evicted first), warm or both, read-only in a subtransaction rolled back, with the caller''s rights: a row per scan node and run, with its blocks read and hit, the wait for them, the rate per second of wait against the reference of its access path (workload_references), and a verdict; refuses anything but one plain SELECT';

REVOKE ALL ON FUNCTION workload_scans(text, text) FROM PUBLIC;
