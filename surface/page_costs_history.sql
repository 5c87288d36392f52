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
-- @comments page_costs_history FROM scan_history: id measured_at
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
-- @comments page_costs_history FROM page_costs_result: seq_page_cost
COMMENT ON COLUMN page_costs_history.random_page_cost IS 'random_page_cost in force for the tablespace: the setting page_costs_judge holds against the recommendation';
COMMENT ON COLUMN page_costs_history.recommended_random_page_cost IS 'random_page_cost the figures give for the tablespace; NULL when over_budget or cached';
-- @comments page_costs_history FROM page_costs_result: recommended_low recommended_high
COMMENT ON COLUMN page_costs_history.effective_io_concurrency IS 'effective_io_concurrency in force for the tablespace: the setting page_costs_judge holds against the recommended depth';
COMMENT ON COLUMN page_costs_history.depths IS 'the depths the table''s pages were read at, at random';
COMMENT ON COLUMN page_costs_history.depth_pages_s IS 'random 8 kB reads a second at each of those depths, cold';
COMMENT ON COLUMN page_costs_history.sweeps IS 'complete sweeps over the depths';
COMMENT ON COLUMN page_costs_history.recommended_effective_io_concurrency IS 'the depth the sweeps give bitmap heap scans; NULL when no sweep was complete or the table was cached';
COMMENT ON COLUMN page_costs_history.recommended_eic_low IS 'the least of the sweeps'' depths; NULL below three sweeps';
COMMENT ON COLUMN page_costs_history.recommended_eic_high IS 'the most of the sweeps'' depths; NULL below three sweeps';
COMMENT ON COLUMN page_costs_history.command IS 'the statement that sets the recommendation for the tablespace';
COMMENT ON COLUMN page_costs_history.untimed_s IS 'seconds of reads left out of the timing';
-- @comments page_costs_history FROM page_costs_result: elapsed_s
COMMENT ON COLUMN page_costs_history.verdict IS 'the run''s verdict: {ok}, or any of over_budget, unstable, cached; only runs of {ok} are judged';
-- @comments page_costs_history FROM scan_history: server_version
-- @comments page_costs_history FROM scan_efficiency_result: server_major
-- @comments page_costs_history FROM scan_history: recorded_by
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
-- The rules, in the library (src/runjudge.c); they read nothing, so any
-- role that may judge may call them.
CREATE FUNCTION scanbench_internal.judge_page_costs_run(off_pct float8, change_pct float8,
														max_off_pct float8,
														effective_io_concurrency integer,
														recommended_eic_low integer,
														OUT status text, OUT rules text[])
AS 'MODULE_PATHNAME', 'judge_page_costs_run'
LANGUAGE C CALLED ON NULL INPUT IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION scanbench_internal.judge_page_costs_run(float8, float8, float8, integer, integer) IS
'the rules of a page_costs run that has a recommendation (src/runjudge.c), for figures given: how far (%) the random_page_cost in force is outside the recommended interval, how far its ratio moved from the window''s median, max_off_pct, and the depth in force against the least the sweeps found enough (NULL: not had); status alarm, warning or ok, and the rules that held (off_limit, off_half, moved, shallow)';

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
	judged record;
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
	-- needs, worded here for the rule that says so (src/runjudge.c).
	shallow := format('effective_io_concurrency %s in force for tablespace %s is below the depth %s its random reads need (%s to %s): bitmap heap scans wait',
					  cur.effective_io_concurrency, coalesce(cur.tablespace, '?'),
					  cur.recommended_effective_io_concurrency, cur.recommended_eic_low,
					  cur.recommended_eic_high);

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
	moved := format('its ratio %s moved %s%s %% from the %s-day median %s of %s earlier run%s, more than max_off_pct %s %%: the storage changed',
					cur.ratio, CASE WHEN change_pct > 0 THEN '+' ELSE '' END, change_pct,
					window_days, round(window_median_ratio::numeric, 2)::float8,
					earlier_runs, CASE WHEN earlier_runs > 1 THEN 's' ELSE '' END, max_off_pct);

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
	judged := scanbench_internal.judge_page_costs_run(off_pct, change_pct, max_off_pct,
													  cur.effective_io_concurrency,
													  cur.recommended_eic_low);
	status := judged.status;
	IF status <> 'ok' THEN
		reason := relation || ': ' || concat_ws('; ',
			CASE WHEN 'off_limit' = ANY (judged.rules) THEN
				format('%s, more than max_off_pct %s %%', setting, max_off_pct)
			WHEN 'off_half' = ANY (judged.rules) THEN
				format('%s, more than half of max_off_pct %s %%', setting, max_off_pct) END,
			CASE WHEN 'moved' = ANY (judged.rules) THEN moved END,
			CASE WHEN 'shallow' = ANY (judged.rules) THEN shallow END);
	ELSE
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

