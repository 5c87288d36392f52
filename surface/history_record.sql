--
-- Recording a run.  Fields are read through jsonb so that a result row of
-- any version of the type records: a column it lacks is NULL here.  What
-- it records is checked first, each figure by its name, with the table's
-- CHECK constraints as the last word (they also hold for the fleet's COPY
-- and for rows written by hand): a history that took a NaN or 1e308 would
-- give every later judgement of the relation a wrong or failing answer.
--
-- @begin scan_history_record
-- @index 180 | `scan_history_record(run)`, `scan_history_judge(run)`, `scan_history_partition()`, `scan_history_prune(older_than)` | record a run, judge it; make months, drop old ones |
CREATE FUNCTION scan_history_record(run scan_efficiency_result,
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

COMMENT ON FUNCTION scan_history_record(scan_efficiency_result, float8, float8, float8, float8, integer) IS
'add a scan_efficiency result row to scan_history, with the schedulers and read-ahead of the devices under it (storage_info), the server''s control group limits, the kernel, server version and I/O settings, and the limits it is judged with (efficiency_check gives them; scan_history_judge uses them when given none); returns the run number';

REVOKE ALL ON FUNCTION scan_history_record(scan_efficiency_result, float8, float8, float8, float8, integer) FROM PUBLIC;
-- @end scan_history_record

-- efficiency_check's measurement puts the caches back as they were: a
-- nightly cold check must not leave the morning's queries reading from disk.
-- @begin scan_history_measure
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

COMMENT ON FUNCTION scanbench_internal.scan_history_measure(regclass, text, integer, float8, float8, float8, text, float8, float8, float8, float8, integer) IS
'measure with scan_efficiency (restoring the caches afterwards) and record the run with the limits it is judged with; returns the run number';

REVOKE ALL ON FUNCTION scanbench_internal.scan_history_measure(regclass, text, integer, float8, float8, float8, text, float8, float8, float8, float8, integer) FROM PUBLIC;
-- @end scan_history_measure

