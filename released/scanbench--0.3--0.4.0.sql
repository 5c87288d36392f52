/* scanbench--0.3--0.4.0.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION scanbench UPDATE TO '0.4.0'" to load this file. \quit

--
-- Versions are MAJOR.MINOR.PATCH from here on, as PGXN wants them; 0.3 is
-- followed by 0.4.0.
--

--
-- ==== Safety on a shared server: SQL bodies that cannot be hijacked, a
-- history that refuses nonsense ====
--
-- Every body is made again with its calls and operators qualified
-- (pg_catalog's, scanbench_internal's, the extension's schema) and a
-- fixed search_path of pg_catalog and pg_temp, so that nothing a role
-- plants in public or in the extension's schema runs inside scanbench.
--
ALTER TABLE scan_history ALTER COLUMN id
	SET DEFAULT pg_catalog.nextval('scan_history_id_seq'::pg_catalog.regclass);

CREATE OR REPLACE FUNCTION scanbench_internal.scan_history_marks(verdict text[]) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
BEGIN ATOMIC
	SELECT CASE
		WHEN coalesce(verdict, '{}'::pg_catalog.text[]) OPERATOR(pg_catalog.&&)
			 ARRAY['unstable', 'cached', 'burst', 'empty', 'over_budget']::pg_catalog.text[] THEN NULL
		ELSE pg_catalog.array_to_string(ARRAY(
			SELECT v.m FROM pg_catalog.unnest(verdict) WITH ORDINALITY AS v(m, i)
			WHERE v.m OPERATOR(pg_catalog.=) ANY (ARRAY['host_cache', 'cpu_contended', 'cpu_limited',
								 'io_limited', 'storage_not_limiting']::pg_catalog.text[])
			ORDER BY v.i), ','::pg_catalog.text)
	END;
END;

CREATE FUNCTION scanbench_internal.scan_history_usable(scan_pct float8) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
	SELECT coalesce(scan_pct OPERATOR(pg_catalog.>=) 0::pg_catalog.float8
					AND scan_pct OPERATOR(pg_catalog.<=) 10000::pg_catalog.float8, false);
END;

COMMENT ON FUNCTION scanbench_internal.scan_history_usable(float8) IS
'true for a scan efficiency a judgement can use: finite, from 0 to 10000 %';

CREATE FUNCTION scanbench_internal.scan_history_window(run bigint, window_days integer)
RETURNS SETOF bigint
LANGUAGE sql STRICT STABLE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
	SELECT h.id
	FROM @extschema@.scan_history cur
	JOIN @extschema@.scan_history h
	  ON h.relschema OPERATOR(pg_catalog.=) cur.relschema
	 AND h.relname OPERATOR(pg_catalog.=) cur.relname
	 AND h.cache OPERATOR(pg_catalog.=) cur.cache
	 AND h.id OPERATOR(pg_catalog.<>) cur.id
	 AND (h.server OPERATOR(pg_catalog.=) cur.server OR (h.server IS NULL AND cur.server IS NULL))
	 AND h.reason IS NULL
	 AND h.measured_at OPERATOR(pg_catalog.<=) cur.measured_at
	 AND h.measured_at OPERATOR(pg_catalog.>) (cur.measured_at OPERATOR(pg_catalog.-)
											pg_catalog.make_interval(days => window_days))
	 AND scanbench_internal.scan_history_usable(h.scan_pct)
	 AND pg_catalog.isfinite(h.measured_at)
	 AND scanbench_internal.scan_history_marks(h.verdict) OPERATOR(pg_catalog.=)
		 coalesce(scanbench_internal.scan_history_marks(cur.verdict), ''::pg_catalog.text)
	WHERE cur.id OPERATOR(pg_catalog.=) scan_history_window.run;
END;

COMMENT ON FUNCTION scanbench_internal.scan_history_window(bigint, integer) IS
'the runs a run is compared with: the earlier judged runs of the same server, relation, cache mode and marks in the window_days (days) up to it, with a usable figure';

CREATE OR REPLACE FUNCTION scanbench_internal.scan_history_median(run bigint, window_days integer DEFAULT 30,
									OUT median_pct float8, OUT runs integer,
									OUT since timestamptz)
LANGUAGE sql STRICT STABLE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
	SELECT pg_catalog.round(pg_catalog.percentile_cont(0.5::pg_catalog.float8)
							WITHIN GROUP (ORDER BY h.scan_pct)::pg_catalog.numeric, 1)::pg_catalog.float8,
		   pg_catalog.count(h.id)::pg_catalog.int4, pg_catalog.min(h.measured_at)
	FROM @extschema@.scan_history cur
	LEFT JOIN @extschema@.scan_history h
	  ON h.id OPERATOR(pg_catalog.=) ANY (ARRAY(
			SELECT scanbench_internal.scan_history_window(cur.id, scan_history_median.window_days)))
	WHERE cur.id OPERATOR(pg_catalog.=) scan_history_median.run;
END;

COMMENT ON FUNCTION scanbench_internal.scan_history_median(bigint, integer) IS
'the median a run is compared with: of the runs scan_history_window gives (earlier judged runs of the same server, relation, cache mode and marks in the window_days (days) up to it), %; with how many there are and the first one''s time';

CREATE OR REPLACE FUNCTION scanbench_internal.scan_history_check_limits(min_pct float8, max_drop_pct float8,
										  warn_pct float8, warn_drop_pct float8,
										  window_days integer)
RETURNS void
LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	IF min_pct IS NOT NULL AND NOT (min_pct > 0 AND min_pct < 1000) THEN
		RAISE EXCEPTION 'min_pct must be above 0 and below 1000, not %', min_pct
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF warn_pct IS NOT NULL AND NOT (warn_pct > 0 AND warn_pct < 1000) THEN
		RAISE EXCEPTION 'warn_pct must be above 0 and below 1000, not %', warn_pct
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF max_drop_pct IS NULL OR NOT (max_drop_pct > 0 AND max_drop_pct < 100) THEN
		RAISE EXCEPTION 'max_drop_pct must be above 0 and below 100, not %', coalesce(max_drop_pct::text, 'NULL')
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF warn_drop_pct IS NOT NULL AND NOT (warn_drop_pct > 0 AND warn_drop_pct <= max_drop_pct) THEN
		RAISE EXCEPTION 'warn_drop_pct must be above 0 and at most max_drop_pct (%), not %', max_drop_pct, warn_drop_pct
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'Give NULL for no warning before the alarm.';
	END IF;
	IF window_days IS NULL OR window_days < 1 OR window_days > 36600 THEN
		RAISE EXCEPTION 'window_days must be from 1 to 36600, not %', coalesce(window_days::text, 'NULL')
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
END
$$;

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

	SELECT * INTO cur FROM @extschema@.scan_history h WHERE h.id = run;
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
	PERFORM scanbench_internal.scan_history_check_limits(min_pct, max_drop_pct, warn_pct,
														 warn_drop_pct, window_days);

	label := CASE WHEN cur.relschema = 'public' THEN quote_ident(cur.relname)
			 ELSE quote_ident(cur.relschema) || '.' || quote_ident(cur.relname) END;
	subject := format('%s scan efficiency %s %%', label, round(cur.scan_pct::numeric, 1));
	hint := format('The runs: SELECT * FROM %I.scan_history WHERE relschema = %L AND relname = %L ORDER BY measured_at DESC;',
				   ext_schema, cur.relschema, cur.relname);
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

	SELECT m.runs, m.median_pct, m.since INTO earlier_runs, median_pct, since
	FROM scanbench_internal.scan_history_median(cur.id, window_days) m;

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
		SELECT h.* FROM @extschema@.scan_history h
		WHERE h.id IN (SELECT scanbench_internal.scan_history_window(cur.id, window_days))
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
	run pg_catalog.int8;
	j record;
	missing pg_catalog.text;
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
		(pg_catalog.hashtext('scanbench.efficiency_check'::pg_catalog.text)::pg_catalog.int8
		 OPERATOR(pg_catalog.<<) 32)
		OPERATOR(pg_catalog.|) rel::pg_catalog.oid::pg_catalog.int8);
	-- The precision the check needs: a drop of max_drop_pct is told from
	-- noise when the interval is within half of it.
	run := scanbench_internal.scan_history_measure(rel, cache, runs, sample, max_seconds,
												   coalesce(target_pct, max_drop_pct OPERATOR(pg_catalog./) 2::pg_catalog.float8), method,
												   min_pct, max_drop_pct, warn_pct,
												   warn_drop_pct, window_days);
	COMMIT;

	SELECT * INTO j FROM @extschema@.scan_history_judge(run, min_pct, max_drop_pct, warn_pct,
														 warn_drop_pct, window_days);
	IF j.status OPERATOR(pg_catalog.=) 'regression'::pg_catalog.text THEN
		RAISE EXCEPTION USING ERRCODE = 'SB001', MESSAGE = j.message,
			DETAIL = j.detail, HINT = j.hint;
	ELSIF j.status OPERATOR(pg_catalog.=) 'warning'::pg_catalog.text
		  OR j.status OPERATOR(pg_catalog.=) 'not_judged'::pg_catalog.text THEN
		RAISE WARNING USING MESSAGE = j.message, DETAIL = j.detail, HINT = j.hint;
	ELSE
		RAISE NOTICE USING MESSAGE = j.message;
	END IF;
END
$$;

CREATE OR REPLACE FUNCTION scan_history_prune(older_than interval DEFAULT '400 days')
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
				  HINT = 'To empty the history, TRUNCATE scan_history.';
	END IF;
	DELETE FROM @extschema@.scan_history WHERE measured_at < now() - older_than;
	GET DIAGNOSTICS gone = ROW_COUNT;
	RETURN gone;
END
$$;

CREATE OR REPLACE VIEW scan_trend AS
SELECT t.relation, t.cache, t.runs, t.judged_runs, t.first_at, t.latest_at,
	   t.latest_pct, t.latest_verdict, m.median_pct, t.min_pct, t.max_pct,
	   pg_catalog.round(((100::pg_catalog.float8 OPERATOR(pg_catalog.*) t.latest_judged_pct
						  OPERATOR(pg_catalog./) CASE WHEN m.median_pct OPERATOR(pg_catalog.<>) 0::pg_catalog.float8
													   THEN m.median_pct END)
						 OPERATOR(pg_catalog.-) 100::pg_catalog.float8)::pg_catalog.numeric, 1)::pg_catalog.float8
		   AS change_pct,
	   t.latest_read_mb_s, t.latest_scan_mb_s
FROM (SELECT pg_catalog.format('%I.%I'::pg_catalog.text, h.relschema, h.relname) AS relation,
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
			 (pg_catalog.array_agg(h.id ORDER BY h.measured_at DESC, h.id DESC)
			  FILTER (WHERE h.judged))[1] AS latest_judged_id,
			 (pg_catalog.array_agg(h.scan_pct ORDER BY h.measured_at DESC, h.id DESC)
			  FILTER (WHERE h.judged))[1] AS latest_judged_pct,
			 (pg_catalog.array_agg(h.read_mb_s ORDER BY h.measured_at DESC, h.id DESC))[1] AS latest_read_mb_s,
			 (pg_catalog.array_agg(h.scan_mb_s ORDER BY h.measured_at DESC, h.id DESC))[1] AS latest_scan_mb_s
	  FROM (SELECT sh.*, scanbench_internal.scan_history_marks(sh.verdict) IS NOT NULL
						 AND scanbench_internal.scan_history_usable(sh.scan_pct)
						 AND pg_catalog.isfinite(sh.measured_at) AS judged
			FROM @extschema@.scan_history sh) AS h
	  GROUP BY h.relschema, h.relname, h.cache) AS t
LEFT JOIN LATERAL scanbench_internal.scan_history_median(t.latest_judged_id) AS m ON true;

CREATE OR REPLACE FUNCTION scanbench_metrics() RETURNS text
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
	WITH latest AS (
		SELECT DISTINCT ON (h.relschema, h.relname, h.cache) h.*
		FROM @extschema@.scan_history h
		ORDER BY h.relschema, h.relname, h.cache, h.measured_at DESC, h.id DESC
	), counted AS (
		SELECT h.relschema, h.relname, h.cache, pg_catalog.count(*) AS recorded
		FROM @extschema@.scan_history h GROUP BY h.relschema, h.relname, h.cache
	), labelled AS (
		-- The schema and the relation are labels of their own, each
		-- escaped (backslash, double quote, line feed), so that a."b.c"
		-- and "a.b".c are two series.
		SELECT l.*, c.recorded,
			pg_catalog.format('schema="%s",relation="%s",cache="%s"'::pg_catalog.text,
				   pg_catalog.replace(pg_catalog.replace(pg_catalog.replace(coalesce(l.relschema, ''::pg_catalog.text),
					E'\\'::pg_catalog.text, E'\\\\'::pg_catalog.text), '"'::pg_catalog.text, E'\\"'::pg_catalog.text),
					E'\n'::pg_catalog.text, E'\\n'::pg_catalog.text),
				   pg_catalog.replace(pg_catalog.replace(pg_catalog.replace(l.relname,
					E'\\'::pg_catalog.text, E'\\\\'::pg_catalog.text), '"'::pg_catalog.text, E'\\"'::pg_catalog.text),
					E'\n'::pg_catalog.text, E'\\n'::pg_catalog.text),
				   pg_catalog.replace(pg_catalog.replace(pg_catalog.replace(l.cache,
					E'\\'::pg_catalog.text, E'\\\\'::pg_catalog.text), '"'::pg_catalog.text, E'\\"'::pg_catalog.text),
					E'\n'::pg_catalog.text, E'\\n'::pg_catalog.text)) AS labels,
			(SELECT m.median_pct FROM scanbench_internal.scan_history_median(l.id) m) AS median_pct
		FROM latest l
		JOIN counted c
		  ON (c.relschema OPERATOR(pg_catalog.=) l.relschema OR (c.relschema IS NULL AND l.relschema IS NULL))
		 AND c.relname OPERATOR(pg_catalog.=) l.relname AND c.cache OPERATOR(pg_catalog.=) l.cache
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
			(13, l.read_iops_limit::pg_catalog.float8)) AS v(ord, value)
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


-- The history's figures checked: rows recorded from now on must be
-- finite and in range.  Rows already there are kept as they are: when
-- every one passes, the constraints are validated; otherwise they stay
-- NOT VALID with a WARNING, and the judge, the trend, the metrics and the
-- chart leave those rows out.

ALTER TABLE scan_history ADD CONSTRAINT scan_history_measured_at_check CHECK (pg_catalog.isfinite(measured_at)) NOT VALID;

ALTER TABLE scan_history ADD CONSTRAINT scan_history_scan_pct_check CHECK ((scan_pct OPERATOR(pg_catalog.>=) 0::pg_catalog.float8 AND scan_pct OPERATOR(pg_catalog.<=) 10000::pg_catalog.float8) AND
		(scan_pct_lo OPERATOR(pg_catalog.>=) 0::pg_catalog.float8 AND scan_pct_lo OPERATOR(pg_catalog.<=) 10000::pg_catalog.float8) AND
		(scan_pct_hi OPERATOR(pg_catalog.>=) 0::pg_catalog.float8 AND scan_pct_hi OPERATOR(pg_catalog.<=) 10000::pg_catalog.float8) AND
		(scan_pct_p10 OPERATOR(pg_catalog.>=) 0::pg_catalog.float8 AND scan_pct_p10 OPERATOR(pg_catalog.<=) 10000::pg_catalog.float8) AND
		(scan_pct_p90 OPERATOR(pg_catalog.>=) 0::pg_catalog.float8 AND scan_pct_p90 OPERATOR(pg_catalog.<=) 10000::pg_catalog.float8)) NOT VALID;

ALTER TABLE scan_history ADD CONSTRAINT scan_history_cached_pct_check CHECK ((read_cached_pct OPERATOR(pg_catalog.>=) 0::pg_catalog.float8 AND read_cached_pct OPERATOR(pg_catalog.<=) 100::pg_catalog.float8) AND
		(scan_cached_pct OPERATOR(pg_catalog.>=) 0::pg_catalog.float8 AND scan_cached_pct OPERATOR(pg_catalog.<=) 100::pg_catalog.float8) AND
		(coverage_pct OPERATOR(pg_catalog.>=) 0::pg_catalog.float8 AND coverage_pct OPERATOR(pg_catalog.<=) 100::pg_catalog.float8)) NOT VALID;

ALTER TABLE scan_history ADD CONSTRAINT scan_history_rates_check CHECK ((read_mb_s OPERATOR(pg_catalog.>=) 0::pg_catalog.float8 AND read_mb_s OPERATOR(pg_catalog.<=) 1e9::pg_catalog.float8) AND
		(scan_mb_s OPERATOR(pg_catalog.>=) 0::pg_catalog.float8 AND scan_mb_s OPERATOR(pg_catalog.<=) 1e9::pg_catalog.float8) AND
		(write_mb_s OPERATOR(pg_catalog.>=) 0::pg_catalog.float8 AND write_mb_s OPERATOR(pg_catalog.<=) 1e9::pg_catalog.float8)) NOT VALID;

ALTER TABLE scan_history ADD CONSTRAINT scan_history_seconds_check CHECK ((read_s OPERATOR(pg_catalog.>=) 0::pg_catalog.float8 AND read_s OPERATOR(pg_catalog.<=) 1e9::pg_catalog.float8) AND
		(scan_s OPERATOR(pg_catalog.>=) 0::pg_catalog.float8 AND scan_s OPERATOR(pg_catalog.<=) 1e9::pg_catalog.float8) AND
		(elapsed_s OPERATOR(pg_catalog.>=) 0::pg_catalog.float8 AND elapsed_s OPERATOR(pg_catalog.<=) 1e9::pg_catalog.float8) AND
		(cpu_wait_s OPERATOR(pg_catalog.>=) 0::pg_catalog.float8 AND cpu_wait_s OPERATOR(pg_catalog.<=) 1e9::pg_catalog.float8) AND
		(cpu_throttled_s OPERATOR(pg_catalog.>=) 0::pg_catalog.float8 AND cpu_throttled_s OPERATOR(pg_catalog.<=) 1e9::pg_catalog.float8)) NOT VALID;

ALTER TABLE scan_history ADD CONSTRAINT scan_history_limits_check CHECK ((limit_min_pct OPERATOR(pg_catalog.>) 0::pg_catalog.float8 AND limit_min_pct OPERATOR(pg_catalog.<) 1000::pg_catalog.float8) AND
		(limit_max_drop_pct OPERATOR(pg_catalog.>) 0::pg_catalog.float8 AND limit_max_drop_pct OPERATOR(pg_catalog.<) 100::pg_catalog.float8) AND
		(limit_warn_pct OPERATOR(pg_catalog.>) 0::pg_catalog.float8 AND limit_warn_pct OPERATOR(pg_catalog.<) 1000::pg_catalog.float8) AND
		(limit_warn_drop_pct OPERATOR(pg_catalog.>) 0::pg_catalog.float8 AND limit_warn_drop_pct OPERATOR(pg_catalog.<) 100::pg_catalog.float8) AND
		(limit_window_days OPERATOR(pg_catalog.>=) 1 AND limit_window_days OPERATOR(pg_catalog.<=) 36600)) NOT VALID;

DO $$
BEGIN

	BEGIN
		ALTER TABLE @extschema@.scan_history VALIDATE CONSTRAINT scan_history_measured_at_check;
	EXCEPTION WHEN check_violation THEN
		RAISE WARNING 'scan_history keeps rows that break scan_history_measured_at_check; the constraint is left NOT VALID'
			USING HINT = 'Those rows are left out of judgements. Correct or delete them, then ALTER TABLE scan_history VALIDATE CONSTRAINT scan_history_measured_at_check.';
	END;

	BEGIN
		ALTER TABLE @extschema@.scan_history VALIDATE CONSTRAINT scan_history_scan_pct_check;
	EXCEPTION WHEN check_violation THEN
		RAISE WARNING 'scan_history keeps rows that break scan_history_scan_pct_check; the constraint is left NOT VALID'
			USING HINT = 'Those rows are left out of judgements. Correct or delete them, then ALTER TABLE scan_history VALIDATE CONSTRAINT scan_history_scan_pct_check.';
	END;

	BEGIN
		ALTER TABLE @extschema@.scan_history VALIDATE CONSTRAINT scan_history_cached_pct_check;
	EXCEPTION WHEN check_violation THEN
		RAISE WARNING 'scan_history keeps rows that break scan_history_cached_pct_check; the constraint is left NOT VALID'
			USING HINT = 'Those rows are left out of judgements. Correct or delete them, then ALTER TABLE scan_history VALIDATE CONSTRAINT scan_history_cached_pct_check.';
	END;

	BEGIN
		ALTER TABLE @extschema@.scan_history VALIDATE CONSTRAINT scan_history_rates_check;
	EXCEPTION WHEN check_violation THEN
		RAISE WARNING 'scan_history keeps rows that break scan_history_rates_check; the constraint is left NOT VALID'
			USING HINT = 'Those rows are left out of judgements. Correct or delete them, then ALTER TABLE scan_history VALIDATE CONSTRAINT scan_history_rates_check.';
	END;

	BEGIN
		ALTER TABLE @extschema@.scan_history VALIDATE CONSTRAINT scan_history_seconds_check;
	EXCEPTION WHEN check_violation THEN
		RAISE WARNING 'scan_history keeps rows that break scan_history_seconds_check; the constraint is left NOT VALID'
			USING HINT = 'Those rows are left out of judgements. Correct or delete them, then ALTER TABLE scan_history VALIDATE CONSTRAINT scan_history_seconds_check.';
	END;

	BEGIN
		ALTER TABLE @extschema@.scan_history VALIDATE CONSTRAINT scan_history_limits_check;
	EXCEPTION WHEN check_violation THEN
		RAISE WARNING 'scan_history keeps rows that break scan_history_limits_check; the constraint is left NOT VALID'
			USING HINT = 'Those rows are left out of judgements. Correct or delete them, then ALTER TABLE scan_history VALIDATE CONSTRAINT scan_history_limits_check.';
	END;

END
$$;

-- Reads at depth: random_read keeps depth reads in flight (fio --iodepth),
-- and says how many it kept.  A changed argument list is a new function:
-- EXECUTE granted on the old one is to be granted again.
--
ALTER TYPE random_read_result ADD ATTRIBUTE depth integer CASCADE;
COMMENT ON TYPE random_read_result IS 'random_read: random reads of a relation''s own files, depth of them in flight';
COMMENT ON COLUMN random_read_result.depth IS 'reads kept in flight at once (fio''s iodepth), each by a thread of its own; 1: one at a time';

DROP FUNCTION random_read(regclass, text, integer, integer);

CREATE FUNCTION random_read(rel regclass,
							cache text DEFAULT 'cold',
							reads integer DEFAULT 10000,
							block_size integer DEFAULT 8192,
							depth integer DEFAULT 1)
RETURNS random_read_result
AS 'MODULE_PATHNAME', 'random_read'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION random_read(regclass, text, integer, integer, integer) IS
'pgiosim-style random reads of block_size bytes at aligned offsets in the relation''s segment files, depth of them in flight (1: one at a time); cache: cold, warm, direct or asis';

REVOKE ALL ON FUNCTION random_read(regclass, text, integer, integer, integer) FROM PUBLIC;

ALTER TYPE raw_read_result ADD ATTRIBUTE depth integer CASCADE;
COMMENT ON COLUMN raw_read_result.depth IS 'reads kept in flight at once (fio''s iodepth), each by a thread of its own; 1: one read() after another, as dd does';

DROP FUNCTION raw_read(regclass, text, integer);

CREATE FUNCTION raw_read(rel regclass,
						 cache text DEFAULT 'cold',
						 block_size integer DEFAULT 8192,
						 depth integer DEFAULT 1)
RETURNS raw_read_result
AS 'MODULE_PATHNAME', 'raw_read'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION raw_read(regclass, text, integer, integer) IS
'sequential read of the relation''s segment files, one read() of block_size bytes after another as dd/lmdd do, or depth of them in flight as fio does at that iodepth (the device''s speed: cache => ''direct'', block_size => 1048576, depth => 32); cache: cold (evicted from the page cache first), warm (one untimed pass first), direct (O_DIRECT) or asis';

REVOKE ALL ON FUNCTION raw_read(regclass, text, integer, integer) FROM PUBLIC;

--
-- Citus: scan_efficiency on a Citus table records and restores as asked
-- (record => true, restore => true): each node's caches are snapshotted
-- and put back, the snapshots carried through the coordinator.
--
DROP FUNCTION scan_efficiency_node(text, text, integer, bigint[], text[]);

CREATE FUNCTION scan_efficiency_node(step text, cache text, block_size integer,
									 shardids bigint[], shards text[],
									 snapshots bytea[] DEFAULT '{}')
RETURNS jsonb
AS 'MODULE_PATHNAME', 'scan_efficiency_node'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION scan_efficiency_node(text, text, integer, bigint[], text[], bytea[]) IS
'run by scan_efficiency and scan_efficiency_shards on each Citus node: one step (read, scan, prepare, snapshot or restore) over the named local placements, as jsonb (bytes, rows, seconds, cached_pct in percent, node_s in seconds; snapshot: the caches as bytea, which restore takes back in snapshots; restore: cached_pct_end, restored_pct)';

REVOKE ALL ON FUNCTION scan_efficiency_node(text, text, integer, bigint[], text[], bytea[]) FROM PUBLIC;

--
-- The verdict's marks in one place: scan_verdict_marks() shows the
-- library's table of them, and the history asks it which marks leave a run
-- unjudged and which set runs apart.
--
CREATE FUNCTION scan_verdict_marks(OUT mark text, OUT judged boolean,
								   OUT reads_judged boolean,
								   OUT compared_apart boolean, OUT meaning text)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'scan_verdict_marks'
LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE ROWS 16;

COMMENT ON FUNCTION scan_verdict_marks() IS
'the marks scan_efficiency''s verdict may hold, in verdict order: whether a run with the mark is judged against earlier runs (judged), whether its read rate is still the storage''s (reads_judged), whether runs with it are compared only with runs with it (compared_apart), and what it means';

CREATE OR REPLACE FUNCTION scanbench_internal.scan_history_marks(verdict text[]) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
BEGIN ATOMIC
	SELECT CASE
		WHEN EXISTS (SELECT FROM @extschema@.scan_verdict_marks() AS k
					 WHERE NOT k.judged AND k.mark OPERATOR(pg_catalog.=) ANY (verdict)) THEN NULL
		ELSE pg_catalog.array_to_string(ARRAY(
			SELECT v.m FROM pg_catalog.unnest(verdict) WITH ORDINALITY AS v(m, i)
			JOIN @extschema@.scan_verdict_marks() AS k
			  ON k.mark OPERATOR(pg_catalog.=) v.m AND k.compared_apart
			ORDER BY v.i), ','::pg_catalog.text)
	END;
END;

COMMENT ON FUNCTION scanbench_internal.scan_history_marks(text[]) IS
'NULL for a verdict that cannot be judged (a mark scan_verdict_marks() says is not judged: unstable, cached, burst, empty, over_budget), else the marks runs are compared under (those it says are compared apart: host_cache, cpu_contended, cpu_limited, io_limited, storage_not_limiting)';
