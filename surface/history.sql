--
-- ==== History, checks and alarms ====
--
-- The history is the extension's own table: pg_dump keeps its rows
-- (pg_extension_config_dump).  Its columns are plain types, never the
-- result types, so an upgrade that changes scan_efficiency_result leaves
-- the history alone.  The relation is kept by schema and name as well as
-- OID: reloading a table (DROP and CREATE, as scanbench-load --drop does)
-- gives it a new OID, and the runs before and after are the same table to
-- the people reading them.
--
-- A fleet's runs in one history: scanbench-fleet measures many servers
-- and keeps their runs in the scan_history of one central database, each
-- with the server it was measured on.  NULL in these columns means a run
-- of this server, recorded here by scan_history_record; the fleet writes
-- its rows with COPY.  A server that could not be measured is a row too,
-- with its reason and no figures; the relation's OID and schema are then
-- NULL when the server could not be asked.  A role that records for a
-- fleet needs INSERT on the table and USAGE on its sequence, granted by
-- the DBA (see doc/fleet.md); nothing here grants them to anyone.
--
-- The history and its summaries are for monitoring (pg_monitor may read
-- them); recording and checking measure, and stay with the superuser
-- unless granted.
--
CREATE SEQUENCE scan_history_id_seq;

-- @begin scan_history_table
-- @index 170 | `scan_history`, `scan_history_series`, `scan_trend` | every recorded run; each series' latest and median, kept as runs are recorded; the latest against the median |
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
COMMENT ON COLUMN scan_history.verdict IS 'the run''s verdict marks: {ok}, or any of those scan_verdict_marks() lists';
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
-- @comments scan_history FROM scan_breakdown_result: cpu_quota_us cpu_period_us read_bps_limit write_bps_limit read_iops_limit write_iops_limit
COMMENT ON COLUMN scan_history.limit_min_pct IS 'efficiency_check''s min_pct (%) the run was judged with; NULL when none was given or the run was recorded otherwise';
COMMENT ON COLUMN scan_history.limit_max_drop_pct IS 'efficiency_check''s max_drop_pct (%) the run was judged with; NULL when the run was recorded otherwise (then it keeps no limits at all)';
COMMENT ON COLUMN scan_history.limit_warn_pct IS 'efficiency_check''s warn_pct (%) the run was judged with; NULL for the default (10 % above min_pct, at most halfway to 100 %)';
COMMENT ON COLUMN scan_history.limit_warn_drop_pct IS 'efficiency_check''s warn_drop_pct (%) the run was judged with; NULL when it had no warning before the alarm';
COMMENT ON COLUMN scan_history.limit_window_days IS 'efficiency_check''s window_days (days) the run was judged with';
COMMENT ON COLUMN scan_history.data_checksums IS 'data checksums were on (a CPU cost on every page read into shared buffers); NULL for a run recorded before 0.3';
COMMENT ON COLUMN scan_history.jit IS 'the jit setting during the run';
COMMENT ON COLUMN scan_history.io_max_combine_limit IS 'io_max_combine_limit, the cap of io_combine_limit, in blocks; NULL before PostgreSQL 18';
COMMENT ON COLUMN scan_history.io_workers IS 'I/O worker processes running during the run (io_method = worker); NULL where none are used';
-- @comments scan_history FROM scan_efficiency_result: server_major
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

-- @end scan_history_table
