--
-- ==== The workload, nightly: its history and its judge ====
--
-- workload_check takes a snapshot of pg_stat_statements, records each
-- query's reads since the previous check's snapshot (workload_reads) in
-- workload_history, a row a query and check, with the check's own row in
-- workload_checks (the settings the planner and the reads depend on, the
-- references the figures were held against), commits them, then judges
-- each query against its own earlier checks: a rate that fell against
-- the reference it used to be near is named, with what changed between
-- (settings, plan, cache share).  Modelled on page_costs_check: the
-- histories are the extension's own tables, kept by pg_dump, in plain
-- types; the check commits before it judges, so that an alarm leaves the
-- check recorded.  Before scanbench_metrics, which reads its latest check.
--
-- It keeps one snapshot of its own: the one the next check starts from;
-- the one it started from is deleted when its figures are recorded.
--
CREATE SEQUENCE workload_checks_id_seq;

CREATE TABLE workload_checks (
	id					bigint NOT NULL DEFAULT pg_catalog.nextval('workload_checks_id_seq'::pg_catalog.regclass) PRIMARY KEY,
	measured_at			timestamptz NOT NULL,
	from_snapshot		bigint,
	to_snapshot			bigint NOT NULL,
	interval_s			float8,
	settings			jsonb,
	sequential_mb_s		float8,
	random_mb_s			float8,
	random_at_depth_mb_s float8,
	page_cache_mb_s		float8,
	server_version		text,
	recorded_by			text NOT NULL DEFAULT current_user,
	limit_max_drop_pct	float8,
	limit_warn_drop_pct	float8,
	limit_window_days	integer,
	CONSTRAINT workload_checks_measured_at_check CHECK (pg_catalog.isfinite(measured_at)),
	CONSTRAINT workload_checks_interval_check CHECK (interval_s OPERATOR(pg_catalog.>=) 0::pg_catalog.float8 AND interval_s OPERATOR(pg_catalog.<=) 1e9::pg_catalog.float8),
	CONSTRAINT workload_checks_references_check CHECK (
		(sequential_mb_s OPERATOR(pg_catalog.>) 0::pg_catalog.float8 AND sequential_mb_s OPERATOR(pg_catalog.<=) 1e9::pg_catalog.float8) AND
		(random_mb_s OPERATOR(pg_catalog.>) 0::pg_catalog.float8 AND random_mb_s OPERATOR(pg_catalog.<=) 1e9::pg_catalog.float8) AND
		(random_at_depth_mb_s OPERATOR(pg_catalog.>) 0::pg_catalog.float8 AND random_at_depth_mb_s OPERATOR(pg_catalog.<=) 1e9::pg_catalog.float8) AND
		(page_cache_mb_s OPERATOR(pg_catalog.>) 0::pg_catalog.float8 AND page_cache_mb_s OPERATOR(pg_catalog.<=) 1e9::pg_catalog.float8)),
	CONSTRAINT workload_checks_limits_check CHECK (
		(limit_max_drop_pct OPERATOR(pg_catalog.>) 0::pg_catalog.float8 AND limit_max_drop_pct OPERATOR(pg_catalog.<) 100::pg_catalog.float8) AND
		(limit_warn_drop_pct OPERATOR(pg_catalog.>) 0::pg_catalog.float8 AND limit_warn_drop_pct OPERATOR(pg_catalog.<=) limit_max_drop_pct) AND
		(limit_window_days OPERATOR(pg_catalog.>=) 1 AND limit_window_days OPERATOR(pg_catalog.<=) 36600))
);
ALTER SEQUENCE workload_checks_id_seq OWNED BY workload_checks.id;

CREATE TABLE workload_history (
	check_id			bigint NOT NULL REFERENCES workload_checks (id) ON DELETE CASCADE,
	measured_at			timestamptz NOT NULL,
	queryid				bigint NOT NULL,
	database			text,
	role				text,
	toplevel			boolean NOT NULL,
	query				text,
	calls				bigint NOT NULL,
	exec_s				float8,
	blocks_read			bigint NOT NULL,
	blocks_hit			bigint NOT NULL,
	read_wait_s			float8,
	read_wait_pct		float8,
	read_mb_s			float8,
	cached_pct			float8,
	reference			text,
	reference_pct		float8,
	verdict				text[],
	CONSTRAINT workload_history_counts_check CHECK (calls OPERATOR(pg_catalog.>=) 0::pg_catalog.int8 AND
		blocks_read OPERATOR(pg_catalog.>=) 0::pg_catalog.int8 AND blocks_hit OPERATOR(pg_catalog.>=) 0::pg_catalog.int8),
	CONSTRAINT workload_history_figures_check CHECK (
		(exec_s OPERATOR(pg_catalog.>=) 0::pg_catalog.float8 AND exec_s OPERATOR(pg_catalog.<=) 1e12::pg_catalog.float8) AND
		(read_wait_s OPERATOR(pg_catalog.>=) 0::pg_catalog.float8 AND read_wait_s OPERATOR(pg_catalog.<=) 1e12::pg_catalog.float8) AND
		(read_wait_pct OPERATOR(pg_catalog.>=) 0::pg_catalog.float8 AND read_wait_pct OPERATOR(pg_catalog.<=) 1e9::pg_catalog.float8) AND
		(read_mb_s OPERATOR(pg_catalog.>) 0::pg_catalog.float8 AND read_mb_s OPERATOR(pg_catalog.<=) 1e9::pg_catalog.float8) AND
		(cached_pct OPERATOR(pg_catalog.>=) 0::pg_catalog.float8 AND cached_pct OPERATOR(pg_catalog.<=) 100::pg_catalog.float8) AND
		(reference_pct OPERATOR(pg_catalog.>) 0::pg_catalog.float8 AND reference_pct OPERATOR(pg_catalog.<=) 1e9::pg_catalog.float8))
);
CREATE INDEX workload_history_check_idx
	ON workload_history (check_id);
CREATE INDEX workload_history_query_idx
	ON workload_history (queryid, measured_at);

SELECT pg_catalog.pg_extension_config_dump('workload_checks', '');
SELECT pg_catalog.pg_extension_config_dump('workload_checks_id_seq', '');
SELECT pg_catalog.pg_extension_config_dump('workload_history', '');

COMMENT ON TABLE workload_checks IS
'one row per workload_check: the snapshots it is between, the settings in force and the references its queries were held against; kept by pg_dump';
COMMENT ON COLUMN workload_checks.id IS 'the check''s number; increasing';
COMMENT ON COLUMN workload_checks.measured_at IS 'when its snapshot was taken';
COMMENT ON COLUMN workload_checks.from_snapshot IS 'the previous check''s snapshot, which its figures start from (deleted once they are recorded); NULL for the first check, which records no query';
COMMENT ON COLUMN workload_checks.to_snapshot IS 'the snapshot it took, which the next check starts from';
COMMENT ON COLUMN workload_checks.interval_s IS 'seconds between the two snapshots';
COMMENT ON COLUMN workload_checks.settings IS 'the settings that choose a query''s plan and shape its reads, as SHOW prints them in the session of the check (the server''s, the database''s and the role''s)';
COMMENT ON COLUMN workload_checks.sequential_mb_s IS 'the sequential reference of the check (workload_references), MB/s; NULL when none was recorded';
COMMENT ON COLUMN workload_checks.random_mb_s IS 'the random reference (8 kB at depth 1), MB/s';
COMMENT ON COLUMN workload_checks.random_at_depth_mb_s IS 'the random_at_depth reference (8 kB at effective_io_concurrency), MB/s';
COMMENT ON COLUMN workload_checks.page_cache_mb_s IS 'the page_cache reference, MB/s';
COMMENT ON COLUMN workload_checks.server_version IS 'server_version at the time';
COMMENT ON COLUMN workload_checks.recorded_by IS 'the role that ran the check';
COMMENT ON COLUMN workload_checks.limit_max_drop_pct IS 'max_drop_pct of the check: kept so that workload_history_judge judges it again as the check did';
COMMENT ON COLUMN workload_checks.limit_warn_drop_pct IS 'warn_drop_pct of the check';
COMMENT ON COLUMN workload_checks.limit_window_days IS 'window_days of the check';

COMMENT ON TABLE workload_history IS
'one row per query and workload_check: its reads since the previous check, as workload_reads gave them; kept by pg_dump';
COMMENT ON COLUMN workload_history.check_id IS 'the check (workload_checks.id)';
COMMENT ON COLUMN workload_history.measured_at IS 'the check''s measured_at';
-- @comments workload_history FROM workload_reads_result: queryid database role toplevel query
COMMENT ON COLUMN workload_history.calls IS 'times it ran since the previous check';
COMMENT ON COLUMN workload_history.exec_s IS 'seconds it ran since the previous check, planning left out';
COMMENT ON COLUMN workload_history.blocks_read IS 'blocks it read from outside shared_buffers since the previous check';
COMMENT ON COLUMN workload_history.blocks_hit IS 'blocks it found in shared_buffers since the previous check';
-- @comments workload_history FROM workload_reads_result: read_wait_s read_wait_pct read_mb_s
COMMENT ON COLUMN workload_history.cached_pct IS '100 x blocks_hit / (blocks_hit + blocks_read): the share of its blocks shared_buffers held, %';
COMMENT ON COLUMN workload_history.reference IS 'the measured rate nearest read_mb_s (by ratio): sequential, random, random_at_depth or page_cache; NULL when none is recorded or nothing was timed';
-- @comments workload_history FROM workload_reads_result: reference_pct
COMMENT ON COLUMN workload_history.verdict IS 'workload_reads'' marks for the interval';

REVOKE ALL ON TABLE workload_checks FROM PUBLIC;
REVOKE ALL ON TABLE workload_history FROM PUBLIC;
REVOKE ALL ON SEQUENCE workload_checks_id_seq FROM PUBLIC;
GRANT SELECT ON TABLE workload_checks TO pg_monitor;
GRANT SELECT ON TABLE workload_history TO pg_monitor;

-- The judge of one query against its earlier checks, from literal inputs
-- (no table read: sql/workload_check.sql tests each rule).  Its limits,
-- but the two a check is given, are here and nowhere else.
CREATE FUNCTION scanbench_internal.workload_drop_judge(reference_pct float8,
	median_pct float8, earlier_checks integer, blocks_read bigint,
	reference text, compared_reference text,
	cached_pct float8, median_cached_pct float8,
	blocks_per_call float8, median_blocks_per_call float8,
	settings jsonb, earlier_settings jsonb,
	max_drop_pct float8, warn_drop_pct float8,
	OUT status text, OUT drop_pct float8, OUT changes text[], OUT changed text)
LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	-- a median of fewer earlier checks is not a query's usual rate
	min_checks constant integer := 3;
	-- a rate of fewer blocks is a few waits, not the query's (8 MB of 8 kB)
	min_blocks constant bigint := 1024;
	-- shared_buffers' share of its blocks moved by this many points
	cache_points constant float8 := 20;
	-- blocks a call grew or shrank by this factor: the plan reads other pages
	blocks_ratio constant float8 := 2;
	said text[] := '{}';
	path text;
BEGIN
	changes := '{}';
	IF reference_pct IS NOT NULL AND median_pct > 0 THEN
		drop_pct := round((100 - 100 * reference_pct / median_pct)::numeric, 1)::float8;
	END IF;

	-- What changed, said whether or not the rate fell.
	IF settings IS NOT NULL AND earlier_settings IS NOT NULL THEN
		SELECT array_agg(format('%s %s, before %s', n.key, n.value, o.value) ORDER BY n.key)
		INTO said
		FROM jsonb_each_text(settings) n JOIN jsonb_each_text(earlier_settings) o USING (key)
		WHERE n.value IS DISTINCT FROM o.value;
		IF cardinality(said) > 0 THEN
			changes := changes || 'settings'::text;
			changed := array_to_string(said, ', ');
		END IF;
	END IF;
	IF reference IS DISTINCT FROM compared_reference AND reference IS NOT NULL
	   AND compared_reference IS NOT NULL THEN
		IF reference = 'page_cache' OR compared_reference = 'page_cache' THEN
			changes := changes || 'cache'::text;
			changed := concat_ws('; ', changed,
				CASE WHEN reference = 'page_cache'
					 THEN format('its reads now come from the page cache, before nearest %s', compared_reference)
					 ELSE format('its reads no longer come from the page cache: now nearest %s', reference) END);
		ELSE
			path := CASE reference WHEN 'sequential' THEN 'a sequential scan''s'
						 WHEN 'random' THEN 'an index scan''s'
						 ELSE 'a bitmap heap scan''s' END;
			changes := changes || 'plan'::text;
			changed := concat_ws('; ', changed,
				format('its reads are now nearest %s (%s), before %s', reference, path, compared_reference));
		END IF;
	END IF;
	IF blocks_per_call > 0 AND median_blocks_per_call > 0
	   AND (blocks_per_call >= blocks_ratio * median_blocks_per_call
			OR blocks_per_call * blocks_ratio <= median_blocks_per_call) THEN
		IF NOT 'plan' = ANY (changes) THEN
			changes := changes || 'plan'::text;
		END IF;
		changed := concat_ws('; ', changed,
			format('it reads %s blocks a call, before %s', round(blocks_per_call::numeric),
				   round(median_blocks_per_call::numeric)));
	END IF;
	IF abs(cached_pct - median_cached_pct) >= cache_points THEN
		IF NOT 'cache' = ANY (changes) THEN
			changes := changes || 'cache'::text;
		END IF;
		changed := concat_ws('; ', changed,
			format('shared_buffers held %s %% of its blocks, before %s %%',
				   round(cached_pct::numeric), round(median_cached_pct::numeric)));
	END IF;

	IF reference_pct IS NULL THEN
		status := 'not_judged';
		changed := concat_ws('; ', 'no read rate against its reference (nothing timed, or no reference recorded)', changed);
	ELSIF blocks_read < min_blocks THEN
		status := 'not_judged';
		changed := concat_ws('; ', format('%s blocks read, fewer than the %s a rate is judged from', blocks_read, min_blocks), changed);
	ELSIF median_pct IS NULL OR coalesce(earlier_checks, 0) < min_checks THEN
		status := 'not_judged';
		changed := concat_ws('; ', format('%s earlier check%s with a rate, %s needed',
										  coalesce(earlier_checks, 0),
										  CASE WHEN coalesce(earlier_checks, 0) = 1 THEN '' ELSE 's' END,
										  min_checks), changed);
	ELSIF drop_pct > max_drop_pct THEN
		status := 'alarm';
	ELSIF drop_pct > warn_drop_pct THEN
		status := 'warning';
	ELSE
		status := 'ok';
	END IF;
	IF status IN ('alarm', 'warning') AND changed IS NULL THEN
		changed := 'nothing changed in its settings, plan or cache share: the storage, or the load beside it';
	END IF;
END
$$;

COMMENT ON FUNCTION scanbench_internal.workload_drop_judge(float8, float8, integer, bigint, text, text, float8, float8, float8, float8, jsonb, jsonb, float8, float8) IS
'the judgement of one query''s read rate against its earlier checks: drop_pct, how far reference_pct fell below their median; status alarm (more than max_drop_pct), warning (more than warn_drop_pct), ok, or not_judged (no rate, fewer than 1024 blocks read, or fewer than 3 earlier checks); changes, the marks settings, plan (its nearest reference moved between the device''s, or its blocks a call by 2 times), cache (to or from the page cache, or shared_buffers'' share of its blocks by 20 points), and changed, what they were';

REVOKE ALL ON FUNCTION scanbench_internal.workload_drop_judge(float8, float8, integer, bigint, text, text, float8, float8, float8, float8, jsonb, jsonb, float8, float8) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION scanbench_internal.workload_drop_judge(float8, float8, integer, bigint, text, text, float8, float8, float8, float8, jsonb, jsonb, float8, float8) TO pg_monitor;

-- The limits of a check, refused by name before anything is measured.
CREATE FUNCTION scanbench_internal.workload_check_limits(max_drop_pct float8,
	warn_drop_pct float8, window_days integer)
RETURNS void
LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	-- NaN sorts above every number: it fails the upper bounds.
	IF NOT (max_drop_pct > 0 AND max_drop_pct < 100) THEN
		RAISE EXCEPTION 'max_drop_pct must be above 0 and below 100, not %', max_drop_pct
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF NOT (warn_drop_pct > 0 AND warn_drop_pct <= max_drop_pct) THEN
		RAISE EXCEPTION 'warn_drop_pct must be above 0 and at most max_drop_pct %, not %', max_drop_pct, warn_drop_pct
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF NOT (window_days >= 1 AND window_days <= 36600) THEN
		RAISE EXCEPTION 'window_days must be 1 to 36600, not %', window_days
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
END
$$;

COMMENT ON FUNCTION scanbench_internal.workload_check_limits(float8, float8, integer) IS
'refuse limits of workload_check and workload_history_judge out of range, by name';

REVOKE ALL ON FUNCTION scanbench_internal.workload_check_limits(float8, float8, integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION scanbench_internal.workload_check_limits(float8, float8, integer) TO pg_monitor;

CREATE TYPE workload_history_judge_result AS (
	check_id			bigint,
	queryid				bigint,
	database			text,
	role				text,
	toplevel			boolean,
	query				text,
	calls				bigint,
	read_mb_s			float8,
	reference			text,
	compared_reference	text,
	reference_pct		float8,
	median_pct			float8,
	earlier_checks		integer,
	drop_pct			float8,
	cached_pct			float8,
	median_cached_pct	float8,
	status				text,
	changes				text[],
	message				text
);

COMMENT ON TYPE workload_history_judge_result IS 'workload_history_judge: one query of a check against its earlier checks';
COMMENT ON COLUMN workload_history_judge_result.check_id IS 'the check judged (workload_checks.id)';
-- @comments workload_history_judge_result FROM workload_reads_result: queryid database role toplevel query read_mb_s
COMMENT ON COLUMN workload_history_judge_result.calls IS 'times it ran since the previous check';
COMMENT ON COLUMN workload_history_judge_result.reference IS 'the reference nearest its rate at this check';
COMMENT ON COLUMN workload_history_judge_result.compared_reference IS 'the reference it is held against: the one it was nearest most often in its earlier checks (else its own)';
COMMENT ON COLUMN workload_history_judge_result.reference_pct IS 'read_mb_s as a % of compared_reference''s rate at this check';
COMMENT ON COLUMN workload_history_judge_result.median_pct IS 'the median of its earlier checks'' rates as a % of compared_reference''s rate at each';
COMMENT ON COLUMN workload_history_judge_result.earlier_checks IS 'earlier checks in the window with a rate for it (a drop is judged from 3 on)';
COMMENT ON COLUMN workload_history_judge_result.drop_pct IS 'how far reference_pct is below median_pct, % of it (below 0: faster)';
-- @comments workload_history_judge_result FROM workload_history: cached_pct
COMMENT ON COLUMN workload_history_judge_result.median_cached_pct IS 'the median of cached_pct in its earlier checks';
COMMENT ON COLUMN workload_history_judge_result.status IS 'alarm (drop_pct above max_drop_pct), warning (above warn_drop_pct), ok, or not_judged (no rate, fewer than 1024 blocks read, or fewer than 3 earlier checks)';
COMMENT ON COLUMN workload_history_judge_result.changes IS 'what changed since its earlier checks: settings (of the check''s session), plan (its nearest reference moved between the device''s, or its blocks a call by 2 times), cache (to or from the page cache, or shared_buffers'' share of its blocks by 20 points)';
COMMENT ON COLUMN workload_history_judge_result.message IS 'the judgement in words: the query, its rate against the reference, the median and what changed';

CREATE FUNCTION workload_history_judge(check_id bigint DEFAULT NULL)
RETURNS SETOF workload_history_judge_result
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	cur record;
	win integer;
BEGIN
	SELECT * INTO cur FROM @extschema@.workload_checks c
	WHERE c.id = check_id OR (check_id IS NULL AND c.from_snapshot IS NOT NULL)
	ORDER BY c.id DESC LIMIT 1;
	IF NOT FOUND THEN
		IF check_id IS NULL THEN
			RETURN;
		END IF;
		RAISE EXCEPTION 'no check % in workload_checks', check_id
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	win := coalesce(cur.limit_window_days, 30);
	RETURN QUERY
	WITH rates AS (
		-- each check's rate as a % of each of its references
		SELECT h.*, c.settings,
			   jsonb_build_object('sequential', 100 * h.read_mb_s / c.sequential_mb_s,
								  'random', 100 * h.read_mb_s / c.random_mb_s,
								  'random_at_depth', 100 * h.read_mb_s / c.random_at_depth_mb_s,
								  'page_cache', 100 * h.read_mb_s / c.page_cache_mb_s) AS pct,
			   (h.blocks_read + h.blocks_hit)::float8 / nullif(h.calls, 0) AS per_call
		FROM @extschema@.workload_history h
		JOIN @extschema@.workload_checks c ON c.id = h.check_id
		WHERE c.id <= cur.id AND c.measured_at > cur.measured_at - make_interval(days => win)
	), now_q AS (
		SELECT r.* FROM rates r WHERE r.check_id = cur.id
	), compared AS (
		-- held against the reference it was nearest most often before
		SELECT n.*,
			   coalesce((SELECT mode() WITHIN GROUP (ORDER BY e.reference) FROM rates e
						 WHERE e.check_id < cur.id AND e.queryid = n.queryid AND e.toplevel = n.toplevel
						   AND e.database IS NOT DISTINCT FROM n.database AND e.role IS NOT DISTINCT FROM n.role
						   AND e.reference IS NOT NULL), n.reference) AS against,
			   (SELECT x.settings FROM rates x
				WHERE x.check_id < cur.id AND x.queryid = n.queryid AND x.toplevel = n.toplevel
				  AND x.database IS NOT DISTINCT FROM n.database AND x.role IS NOT DISTINCT FROM n.role
				ORDER BY x.check_id DESC LIMIT 1) AS earlier_settings
		FROM now_q n
	), stats AS (
		SELECT c.*, (c.pct ->> c.against)::float8 AS now_pct, m.*
		FROM compared c, LATERAL (
			SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY (e.pct ->> c.against)::float8) AS med_pct,
				   count(e.pct ->> c.against)::integer AS n,
				   percentile_cont(0.5) WITHIN GROUP (ORDER BY e.cached_pct) AS med_cached,
				   percentile_cont(0.5) WITHIN GROUP (ORDER BY e.per_call) AS med_per_call
			FROM rates e
			WHERE e.check_id < cur.id AND e.queryid = c.queryid AND e.toplevel = c.toplevel
			  AND e.database IS NOT DISTINCT FROM c.database AND e.role IS NOT DISTINCT FROM c.role
			  AND e.read_mb_s IS NOT NULL) m
	)
	SELECT cur.id, s.queryid, s.database, s.role, s.toplevel, s.query, s.calls, s.read_mb_s,
		   s.reference, s.against, round(s.now_pct::numeric, 1)::float8,
		   round(s.med_pct::numeric, 1)::float8, s.n, j.drop_pct, s.cached_pct,
		   round(s.med_cached::numeric, 1)::float8, j.status, j.changes,
		   format('query %s (%s)%s', s.queryid,
				  coalesce(left(regexp_replace(s.query, '\s+', ' ', 'g'), 60), 'text not visible'),
				  CASE WHEN j.status IN ('alarm', 'warning', 'ok')
					   THEN format(' read at %s %% of the %s reference, %s %% %s the %s-day median %s %% of %s earlier checks%s',
								   round(s.now_pct::numeric, 1), s.against, abs(j.drop_pct),
								   CASE WHEN j.drop_pct >= 0 THEN 'below' ELSE 'above' END,
								   win, round(s.med_pct::numeric, 1), s.n,
								   coalesce(': ' || j.changed, ''))
					   ELSE ' was not judged: ' || j.changed END)
	FROM stats s,
		 LATERAL scanbench_internal.workload_drop_judge(s.now_pct, s.med_pct, s.n, s.blocks_read, s.reference,
			s.against, s.cached_pct, s.med_cached, s.per_call, s.med_per_call, s.settings,
			s.earlier_settings, coalesce(cur.limit_max_drop_pct, 50),
			coalesce(cur.limit_warn_drop_pct, 25)) j
	ORDER BY CASE j.status WHEN 'alarm' THEN 1 WHEN 'warning' THEN 2 WHEN 'ok' THEN 3 ELSE 4 END,
			 j.drop_pct DESC NULLS LAST, s.read_wait_s DESC NULLS LAST, s.queryid;
END
$$;

COMMENT ON FUNCTION workload_history_judge(bigint) IS
'judge each query of a recorded workload_check (NULL: the latest with figures) against its earlier checks in the check''s window: its rate as a % of the reference it was usually nearest, against their median; status alarm, warning, ok or not_judged, what changed (settings, plan, cache) and a message; the worst first';

REVOKE ALL ON FUNCTION workload_history_judge(bigint) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION workload_history_judge(bigint) TO pg_monitor;

-- What makes a check fail after it measured, and what makes its figures
-- worthless, refused before anything is taken.
CREATE FUNCTION scanbench_internal.workload_check_ready(max_drop_pct float8,
	warn_drop_pct float8, window_days integer, queries integer)
RETURNS void
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	missing text;
BEGIN
	missing := CASE WHEN max_drop_pct IS NULL THEN 'max_drop_pct'
				WHEN warn_drop_pct IS NULL THEN 'warn_drop_pct'
				WHEN window_days IS NULL THEN 'window_days' WHEN queries IS NULL THEN 'queries' END;
	IF missing IS NOT NULL THEN
		RAISE EXCEPTION '% must not be NULL', missing
			USING ERRCODE = 'null_value_not_allowed',
				  HINT = 'Leave the argument out for its default.';
	END IF;
	PERFORM scanbench_internal.workload_check_limits(max_drop_pct, warn_drop_pct, window_days);
	IF NOT (queries >= 1 AND queries <= 10000) THEN
		RAISE EXCEPTION 'queries must be 1 to 10000, not %', queries
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF scanbench_internal.scan_history_in_block() THEN
		RAISE EXCEPTION 'workload_check cannot run inside a transaction block'
			USING ERRCODE = 'active_sql_transaction',
				  DETAIL = 'It commits the check it recorded before judging it, so that an alarm does not undo the record.',
				  HINT = 'CALL it on its own, as psql -c and pg_cron do.';
	END IF;
	IF pg_is_in_recovery() THEN
		RAISE EXCEPTION 'workload_check cannot record a check during recovery'
			USING ERRCODE = 'read_only_sql_transaction',
				  DETAIL = 'Its history is a table, and a standby accepts no writes.',
				  HINT = 'Run it on the primary; workload_snapshot() and workload_reads() need writes too.';
	END IF;
	IF current_setting('transaction_read_only') = 'on' THEN
		RAISE EXCEPTION 'workload_check cannot record a check in a read-only transaction'
			USING ERRCODE = 'read_only_sql_transaction',
				  HINT = 'Check default_transaction_read_only.';
	END IF;
	IF NOT current_setting('track_io_timing')::boolean THEN
		RAISE EXCEPTION 'track_io_timing is off: no read is timed, and workload_check would record no read rate'
			USING ERRCODE = 'object_not_in_prerequisite_state',
				  HINT = 'ALTER SYSTEM SET track_io_timing = on; SELECT pg_reload_conf();  (pg_test_timing shows what a timing costs on this server)';
	END IF;
	-- Refused with the command that makes it ready when it is not installed
	-- or not loaded; nothing is read.
	PERFORM 1 FROM scanbench_internal.workload_statements_now() LIMIT 1;
	FOR missing IN
		SELECT t FROM unnest(ARRAY['workload_snapshots', 'workload_io_snapshots',
								   'workload_checks', 'workload_history']) t
		WHERE NOT has_table_privilege(format('@extschema@.%I', t), 'INSERT')
		UNION ALL
		SELECT t FROM unnest(ARRAY['workload_snapshots', 'workload_io_snapshots']) t
		WHERE NOT has_table_privilege(format('@extschema@.%I', t), 'DELETE')
	LOOP
		RAISE EXCEPTION 'permission denied for table %', missing
			USING ERRCODE = 'insufficient_privilege',
				  HINT = 'doc/workload.md, "Every night", lists the grants of a role that runs the check.';
	END LOOP;
	FOR missing IN
		SELECT s FROM unnest(ARRAY['workload_snapshot_id_seq', 'workload_checks_id_seq']) s
		WHERE NOT has_sequence_privilege(format('@extschema@.%I', s), 'USAGE')
	LOOP
		RAISE EXCEPTION 'permission denied for sequence %', missing
			USING ERRCODE = 'insufficient_privilege',
				  HINT = 'doc/workload.md, "Every night", lists the grants of a role that runs the check.';
	END LOOP;
END
$$;

COMMENT ON FUNCTION scanbench_internal.workload_check_ready(float8, float8, integer, integer) IS
'refuse a workload_check that could not record or would record no rate, before it takes anything: its arguments, a transaction block, recovery, a read-only transaction, track_io_timing off, pg_stat_statements not installed or not loaded, a privilege missing';

REVOKE ALL ON FUNCTION scanbench_internal.workload_check_ready(float8, float8, integer, integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION scanbench_internal.workload_check_ready(float8, float8, integer, integer) TO pg_monitor;

-- The settings a check keeps: those that choose a plan (costs, the
-- planner's switches, memory, parallelism) and those that shape its reads.
CREATE FUNCTION scanbench_internal.workload_settings()
RETURNS jsonb
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
SELECT jsonb_object_agg(s.name, current_setting(s.name) ORDER BY s.name)
FROM pg_settings s
WHERE s.name IN ('seq_page_cost', 'random_page_cost', 'effective_cache_size',
				 'effective_io_concurrency', 'maintenance_io_concurrency', 'work_mem',
				 'shared_buffers', 'max_parallel_workers_per_gather', 'jit',
				 'enable_seqscan', 'enable_indexscan', 'enable_indexonlyscan',
				 'enable_bitmapscan', 'enable_tidscan', 'enable_hashjoin',
				 'enable_mergejoin', 'enable_nestloop', 'default_statistics_target',
				 'io_method', 'io_workers', 'io_combine_limit', 'track_io_timing')
$$;

COMMENT ON FUNCTION scanbench_internal.workload_settings() IS
'the settings workload_check keeps, as SHOW prints them in this session: the planner''s costs and switches, memory, parallelism and the I/O settings';

REVOKE ALL ON FUNCTION scanbench_internal.workload_settings() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION scanbench_internal.workload_settings() TO pg_monitor;

-- A check's record, in one transaction with the snapshot it takes: a
-- check cancelled or failed leaves nothing of itself.  Returns its number.
CREATE FUNCTION scanbench_internal.workload_check_record(max_drop_pct float8,
	warn_drop_pct float8, window_days integer, queries integer)
RETURNS bigint
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	from_snap bigint;
	from_at timestamptz;
	to_snap bigint;
	night bigint;
BEGIN
	-- The latest check's snapshot, if it is still there.
	SELECT c.to_snapshot INTO from_snap
	FROM @extschema@.workload_checks c
	ORDER BY c.id DESC LIMIT 1;
	SELECT min(w.taken_at) INTO from_at
	FROM (SELECT s.taken_at FROM @extschema@.workload_snapshots s WHERE s.snapshot = from_snap
		  UNION ALL
		  SELECT i.taken_at FROM @extschema@.workload_io_snapshots i WHERE i.snapshot = from_snap) w;
	IF from_at IS NULL THEN
		from_snap := NULL;
	END IF;
	to_snap := @extschema@.workload_snapshot();
	INSERT INTO @extschema@.workload_checks (measured_at, from_snapshot, to_snapshot, interval_s,
		settings, sequential_mb_s, random_mb_s, random_at_depth_mb_s, page_cache_mb_s,
		server_version, limit_max_drop_pct, limit_warn_drop_pct, limit_window_days)
	SELECT now(), from_snap, to_snap,
		   round(extract(epoch FROM now() - from_at)::numeric, 3)::float8,
		   scanbench_internal.workload_settings(),
		   max(x.mb_s) FILTER (WHERE x.reference = 'sequential'),
		   max(x.mb_s) FILTER (WHERE x.reference = 'random'),
		   max(x.mb_s) FILTER (WHERE x.reference = 'random_at_depth'),
		   max(x.mb_s) FILTER (WHERE x.reference = 'page_cache'),
		   current_setting('server_version'), max_drop_pct, warn_drop_pct, window_days
	FROM @extschema@.workload_references() x
	RETURNING id INTO night;
	IF from_snap IS NULL THEN
		RETURN night;
	END IF;

	INSERT INTO @extschema@.workload_history (check_id, measured_at, queryid, database, role,
		toplevel, query, calls, exec_s, blocks_read, blocks_hit, read_wait_s, read_wait_pct,
		read_mb_s, cached_pct, reference, reference_pct, verdict)
	SELECT night, now(), r.queryid, r.database, r.role, r.toplevel, r.query, r.calls, r.exec_s,
		   r.blocks_read, r.blocks_hit, r.read_wait_s, r.read_wait_pct, r.read_mb_s,
		   round((100 * r.blocks_hit::float8 / (r.blocks_hit + r.blocks_read))::numeric, 1)::float8,
		   r.reference, r.reference_pct, r.verdict
	FROM @extschema@.workload_reads(from_snap, to_snap) r
	WHERE r.blocks_read > 0
	ORDER BY r.read_wait_s DESC NULLS LAST, r.blocks_read DESC, r.queryid
	LIMIT queries;
	-- The snapshot it started from has served: only the latest is kept.
	DELETE FROM @extschema@.workload_snapshots s WHERE s.snapshot = from_snap;
	DELETE FROM @extschema@.workload_io_snapshots i WHERE i.snapshot = from_snap;
	RETURN night;
END
$$;

COMMENT ON FUNCTION scanbench_internal.workload_check_record(float8, float8, integer, integer) IS
'workload_check''s record: a snapshot, the check''s row in workload_checks and its queries'' reads since the previous check''s snapshot in workload_history (the longest waits first, at most queries), that snapshot deleted; returns the check''s number';

REVOKE ALL ON FUNCTION scanbench_internal.workload_check_record(float8, float8, integer, integer) FROM PUBLIC;

-- What workload_check says of a recorded check: an ERROR with SQLSTATE
-- SB003 when a query's rate fell beyond max_drop_pct, a WARNING beyond
-- warn_drop_pct, a NOTICE otherwise.  The worst query is the message; the
-- others follow in the detail.
CREATE FUNCTION scanbench_internal.workload_check_report(check_number bigint)
RETURNS void
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	cur record;
	worst record;
	alarms integer;
	warnings integer;
	judged integer;
	others text;
	hint text;
	recorded bigint;
BEGIN
	SELECT * INTO cur FROM @extschema@.workload_checks c WHERE c.id = check_number;
	IF cur.from_snapshot IS NULL THEN
		RAISE NOTICE 'workload check %: snapshot % taken; the first check records no query, the next records each query''s reads since', cur.id, cur.to_snapshot;
		RETURN;
	END IF;
	SELECT count(*) INTO recorded FROM @extschema@.workload_history h WHERE h.check_id = check_number;
	SELECT count(*) FILTER (WHERE j.status = 'alarm'), count(*) FILTER (WHERE j.status = 'warning'),
		   count(*) FILTER (WHERE j.status <> 'not_judged'),
		   string_agg(j.status || ': ' || j.message, E'\n' ORDER BY j.ord) FILTER (WHERE j.ord BETWEEN 2 AND 6)
	INTO alarms, warnings, judged, others
	FROM (SELECT x.*, row_number() OVER () AS ord
		  FROM @extschema@.workload_history_judge(check_number) x
		  WHERE x.status IN ('alarm', 'warning')) j;
	SELECT * INTO worst FROM @extschema@.workload_history_judge(check_number) x
	WHERE x.status IN ('alarm', 'warning') LIMIT 1;
	hint := format('SELECT * FROM workload_history_judge(%s) judges each query; workload_scans(''<its query>'') shows its scan nodes.', cur.id);
	IF alarms > 0 THEN
		RAISE EXCEPTION USING ERRCODE = 'SB003', MESSAGE = worst.message,
			DETAIL = concat_ws(E'\n', format('Check %s: %s queries recorded over %s s, %s judged, %s fell more than %s %%, %s more than %s %%.',
											 cur.id, recorded, round(cur.interval_s::numeric), judged,
											 alarms, cur.limit_max_drop_pct, warnings, cur.limit_warn_drop_pct),
							   others),
			HINT = hint;
	ELSIF warnings > 0 THEN
		RAISE WARNING USING MESSAGE = worst.message,
			DETAIL = concat_ws(E'\n', format('Check %s: %s queries recorded over %s s, %s judged, %s fell more than %s %%.',
											 cur.id, recorded, round(cur.interval_s::numeric), judged,
											 warnings, cur.limit_warn_drop_pct),
							   others),
			HINT = hint;
	ELSE
		RAISE NOTICE 'workload check %: % queries recorded over % s, % judged, none read more than % %% slower against its reference',
			cur.id, recorded, round(cur.interval_s::numeric), judged, cur.limit_warn_drop_pct;
	END IF;
END
$$;

COMMENT ON FUNCTION scanbench_internal.workload_check_report(bigint) IS
'judge a recorded workload_check (workload_history_judge) and say so: ERROR with SQLSTATE SB003 when a query''s rate fell more than its max_drop_pct, WARNING more than warn_drop_pct, NOTICE otherwise';

REVOKE ALL ON FUNCTION scanbench_internal.workload_check_report(bigint) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION scanbench_internal.workload_check_report(bigint) TO pg_monitor;

-- @index 220 | `workload_check()` | nightly: a query reading slower, and why; `SB003` ([more](doc/workload.md#every-night)) |
--
-- The nightly check of the workload.  A procedure, as efficiency_check
-- is: it commits the check it recorded before it judges it.  Checks take
-- turns (an advisory lock), so that two never start from one snapshot.
--
CREATE PROCEDURE workload_check(max_drop_pct float8 DEFAULT 50,
								warn_drop_pct float8 DEFAULT 25,
								window_days integer DEFAULT 30,
								queries integer DEFAULT 100)
LANGUAGE plpgsql
AS $$
DECLARE
	night pg_catalog.int8;
BEGIN
	PERFORM scanbench_internal.workload_check_ready(max_drop_pct, warn_drop_pct,
													window_days, queries);
	PERFORM pg_catalog.pg_advisory_xact_lock(
		pg_catalog.hashtext('scanbench.workload_check'::pg_catalog.text)::pg_catalog.int8);
	night := scanbench_internal.workload_check_record(max_drop_pct, warn_drop_pct,
													  window_days, queries);
	COMMIT;
	PERFORM scanbench_internal.workload_check_report(night);
END
$$;

COMMENT ON PROCEDURE workload_check(float8, float8, integer, integer) IS
'take a snapshot of pg_stat_statements, record each query''s reads since the previous check''s snapshot (workload_reads; at most queries, the longest waits first) in workload_history, and judge them against the queries'' earlier checks in window_days (workload_history_judge; CALL it outside a transaction block); ERROR with SQLSTATE SB003 when a query''s rate against its reference fell more than max_drop_pct (%) below their median, WARNING more than warn_drop_pct, naming what changed; refused when track_io_timing is off or pg_stat_statements is missing';

REVOKE ALL ON PROCEDURE workload_check(float8, float8, integer, integer) FROM PUBLIC;

CREATE FUNCTION workload_history_prune(older_than interval DEFAULT '400 days')
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
				  HINT = 'To empty the history, TRUNCATE workload_checks, workload_history.';
	END IF;
	-- The latest check stays: the next starts from its snapshot.
	DELETE FROM @extschema@.workload_checks c
	WHERE c.measured_at < now() - older_than
	  AND c.id <> (SELECT max(l.id) FROM @extschema@.workload_checks l);
	GET DIAGNOSTICS gone = ROW_COUNT;
	RETURN gone;
END
$$;

COMMENT ON FUNCTION workload_history_prune(interval) IS
'delete the workload checks older than older_than (at least 1 day), their queries'' rows with them, the latest kept; returns the number of checks deleted';

REVOKE ALL ON FUNCTION workload_history_prune(interval) FROM PUBLIC;

--
-- The workload's part of scanbench_metrics(): the latest check's queries
-- that waited longest for reads, at most scanbench.workload_metrics_queries
-- of them (a setting of the session, the role or the database; 10 when
-- unset, 0 to 100), so that a server's series stay few.  Nothing before the
-- first check with figures.
--
CREATE FUNCTION scanbench_internal.workload_metrics(OUT ord integer, OUT sub integer, OUT line text)
RETURNS SETOF record
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
WITH top AS (
	SELECT least(100, greatest(0, coalesce(
		(SELECT CASE WHEN v ~ '^\s*[0-9]{1,6}\s*$' THEN v::integer END
		 FROM current_setting('scanbench.workload_metrics_queries', true) v), 10))) AS n
), cur AS (
	SELECT c.* FROM @extschema@.workload_checks c
	WHERE c.from_snapshot IS NOT NULL
	ORDER BY c.id DESC LIMIT 1
), q AS (
	SELECT h.*, j.status, j.drop_pct, j.median_pct, j.compared_reference,
		   j.reference_pct AS compared_pct, j.changes,
		   format('queryid="%s",database="%s",role="%s",toplevel="%s"', h.queryid,
				  replace(replace(replace(coalesce(h.database, ''), E'\\', E'\\\\'), '"', E'\\"'), E'\n', E'\\n'),
				  replace(replace(replace(coalesce(h.role, ''), E'\\', E'\\\\'), '"', E'\\"'), E'\n', E'\\n'),
				  CASE WHEN h.toplevel THEN 'true' ELSE 'false' END) AS labels
	FROM cur
	JOIN @extschema@.workload_history h ON h.check_id = cur.id
	LEFT JOIN @extschema@.workload_history_judge(cur.id) j
	  ON j.queryid = h.queryid AND j.toplevel = h.toplevel
	 AND j.database IS NOT DISTINCT FROM h.database AND j.role IS NOT DISTINCT FROM h.role
	ORDER BY h.read_wait_s DESC NULLS LAST, h.blocks_read DESC, h.queryid
	LIMIT (SELECT n FROM top)
), families (ord, name, help) AS (VALUES
	(1, 'scanbench_workload_read_bytes_per_second',
	 'A query''s bytes read per second of wait for them, between the latest workload check and the one before.'),
	(2, 'scanbench_workload_reference_percent',
	 'That rate as a percentage of the reference it is held against (label reference: the one it was usually nearest).'),
	(3, 'scanbench_workload_median_percent',
	 'The median of its earlier checks'' rates against that reference (a drop is judged from 3 earlier checks on).'),
	(4, 'scanbench_workload_drop_percent',
	 'How far its rate is below that median, percent of it.'),
	(5, 'scanbench_workload_read_wait_percent',
	 'The share of its time it waited for reads.'),
	(6, 'scanbench_workload_cached_percent',
	 'The share of its blocks shared_buffers held.'),
	(7, 'scanbench_workload_status_info',
	 'The judgement of the query at the latest check (status alarm, warning, ok or not_judged; changes: settings, plan, cache), as labels.'),
	(8, 'scanbench_workload_last_check_timestamp_seconds',
	 'When the latest workload check was taken, seconds since the Unix epoch.')
), samples AS (
	SELECT v.ord, v.labels, v.value
	FROM q, LATERAL (VALUES
		(1, q.labels, round(q.read_mb_s * 1e6)),
		(2, q.labels || format(',reference="%s"', q.compared_reference), q.compared_pct),
		(3, q.labels || format(',reference="%s"', q.compared_reference), q.median_pct),
		(4, q.labels, q.drop_pct),
		(5, q.labels, q.read_wait_pct),
		(6, q.labels, q.cached_pct),
		(7, q.labels || format(',status="%s",changes="%s"', coalesce(q.status, 'not_judged'),
							   coalesce(array_to_string(q.changes, ','), '')), 1::float8)) AS v(ord, labels, value)
	WHERE v.value IS NOT NULL AND v.value > '-Infinity'::float8 AND v.value < 'Infinity'::float8
	UNION ALL
	SELECT 8, NULL, date_part('epoch', cur.measured_at) FROM cur
)
SELECT f.ord, 0, format(E'# HELP %s %s\n# TYPE %s gauge', f.name, f.help, f.name)
FROM families f
WHERE EXISTS (SELECT 1 FROM cur)
UNION ALL
SELECT s.ord, 1, format('%s%s %s', f.name, coalesce('{' || s.labels || '}', ''), s.value)
FROM samples s JOIN families f ON f.ord = s.ord
$$;

COMMENT ON FUNCTION scanbench_internal.workload_metrics() IS
'the workload''s part of scanbench_metrics(): the latest workload check''s queries that waited longest (scanbench.workload_metrics_queries of them, 10 when unset), as Prometheus gauges, a line each with its family''s order';

REVOKE ALL ON FUNCTION scanbench_internal.workload_metrics() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION scanbench_internal.workload_metrics() TO pg_monitor;
