--
-- How a recorded run compares with the earlier ones: status 'regression'
-- (efficiency_check raises), 'warning', 'ok', 'first' (nothing earlier
-- to compare with) or 'not_judged' (unstable, cached or empty), with a
-- message a person reads in a cron mail.
--
--
-- The judge itself: one run's verdict from its row and the runs it is
-- compared with, as its caller read them.  It reads nothing, so that
-- scan_history_judge (one run) and scan_history_judge_runs (a set, in a
-- few statements over the whole set) give one answer, and so that on a
-- distributed history it runs on the worker that holds the run.  Volatile
-- though it reads nothing: a subquery that calls it is then not pulled up
-- into its caller, which would call it once for each column it reads.
--
-- @begin scan_history_verdict
-- The rules, in the library (src/runjudge.c).  Like the judge that calls
-- them, they read nothing, so any role that may judge may call them.
CREATE FUNCTION scanbench_internal.judge_run(scan_pct float8, drop_pct float8, earlier_runs integer,
											 min_pct float8, max_drop_pct float8,
											 warn_pct float8, warn_drop_pct float8,
											 OUT status text, OUT rules text[],
											 OUT warn_at float8, OUT drop_judged float8,
											 OUT earlier_needed integer)
AS 'MODULE_PATHNAME', 'judge_run'
LANGUAGE C CALLED ON NULL INPUT IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION scanbench_internal.judge_run(float8, float8, integer, float8, float8, float8, float8) IS
'the rules of a run against its history (src/runjudge.c), for figures given: the run''s scan_pct, its drop_pct below the median of its earlier_runs, and the limits (NULL: none); status regression, warning or ok, the rules that held (below_limit, drop, near_limit, drop_warning), the figure a warning starts below, the drop judged, and the earlier runs a drop is judged against (under as many, drop_judged is NULL)';

-- What changed between a run and the runs it is compared with, in the
-- verdict's words (src/history_changes.c), made from the rows as given:
-- as a query of the verdict's, run once a run, it was most of a night's
-- judgement.
CREATE FUNCTION scanbench_internal.scan_history_changes(cur @extschema@.scan_history,
													   compared @extschema@.scan_history[])
RETURNS text
AS 'MODULE_PATHNAME', 'scan_history_changes'
LANGUAGE C CALLED ON NULL INPUT STABLE PARALLEL SAFE;

COMMENT ON FUNCTION scanbench_internal.scan_history_changes(@extschema@.scan_history, @extschema@.scan_history[]) IS
'what changed between a run (its row of scan_history) and the runs it is compared with: each fact (filesystem, device, scheduler, read_ahead_kb, kernel, server version, block_size, the I/O limits, each setting) against the value most of them had (the latest of equally common ones), and its size against their median size when more than a tenth off; "; "-separated in that order, NULL when nothing changed or no run is given';

CREATE FUNCTION scanbench_internal.scan_history_judged_days(window_days integer,
															 limit_max_drop_pct float8,
															 limit_window_days integer)
RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE
-- No search_path of its own: its body names no function or operator (CASE
-- and coalesce are syntax), and without one it is inlined into the set
-- judge's join, where a call for each pair of runs cost a second a night.
BEGIN ATOMIC
	SELECT CASE WHEN limit_max_drop_pct IS NOT NULL
		   THEN coalesce(window_days, limit_window_days, 30)
		   ELSE coalesce(window_days, 30) END;
END;

COMMENT ON FUNCTION scanbench_internal.scan_history_judged_days(integer, float8, integer) IS
'the window (days) a run is judged over: the one given, else the one efficiency_check judged it with (a run it recorded keeps limit_max_drop_pct), else 30';

CREATE FUNCTION scanbench_internal.scan_history_verdict(cur @extschema@.scan_history,
													   compared @extschema@.scan_history[],
													   min_pct float8, max_drop_pct float8,
													   warn_pct float8, warn_drop_pct float8,
													   window_days integer, ext_schema text,
													   OUT status text, OUT message text,
													   OUT detail text, OUT hint text,
													   OUT median_pct float8, OUT drop_pct float8,
													   OUT earlier_runs integer)
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	marks text;
	label text;
	subject text;
	since timestamptz;
	changes text;
	judged record;
	below text;
	said text[] := '{}';
	few text;
	lim text;
BEGIN
	-- A limit not given is the one the run was judged with when
	-- efficiency_check recorded it (a run it recorded always keeps
	-- max_drop_pct), so that judging it again gives the check's verdict;
	-- a run recorded otherwise is judged with the usual defaults.
	IF cur.limit_max_drop_pct IS NOT NULL THEN
		min_pct := coalesce(min_pct, cur.limit_min_pct);
		max_drop_pct := coalesce(max_drop_pct, cur.limit_max_drop_pct);
		warn_pct := coalesce(warn_pct, cur.limit_warn_pct);
		warn_drop_pct := coalesce(warn_drop_pct, cur.limit_warn_drop_pct);
	ELSE
		max_drop_pct := coalesce(max_drop_pct, 20);
		warn_drop_pct := coalesce(warn_drop_pct, 10);
	END IF;
	window_days := scanbench_internal.scan_history_judged_days(window_days, cur.limit_max_drop_pct,
															   cur.limit_window_days);
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

	-- The runs it is compared with, as its caller read them: their
	-- median, then what changed.
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

	-- The rules (src/runjudge.c), then their words: a drop is told from
	-- noise only against a few earlier runs, so with fewer the limits on
	-- the figure itself still hold and the message says why.
	judged := scanbench_internal.judge_run(cur.scan_pct, drop_pct, earlier_runs, min_pct,
										   max_drop_pct, warn_pct, warn_drop_pct);
	IF earlier_runs < judged.earlier_needed THEN
		few := format('a drop is judged from %s earlier runs, there %s %s', judged.earlier_needed,
					  CASE WHEN earlier_runs = 1 THEN 'is' ELSE 'are' END, earlier_runs);
	END IF;
	below := format('is %s %% below its %s-day median %s %%',
					round(drop_pct), window_days, round(median_pct::numeric, 1));
	IF 'below_limit' = ANY (judged.rules) THEN
		said := said || format('is below its limit of %s %%', min_pct);
	END IF;
	IF 'drop' = ANY (judged.rules) THEN
		said := said || below;
	END IF;
	IF 'near_limit' = ANY (judged.rules) THEN
		said := said || format('is close to its limit of %s %%', min_pct);
	END IF;
	IF 'drop_warning' = ANY (judged.rules) THEN
		said := said || format('%s (the alarm is at %s %%)', below, max_drop_pct);
	END IF;

	-- What changed: each fact of this run against the value most of the
	-- compared runs had (the latest of equally common ones), and its size
	-- against their median size.
	changes := scanbench_internal.scan_history_changes(cur, compared);

	lim := concat_ws(', ',
					 CASE WHEN min_pct IS NOT NULL THEN format('alarm below %s %%', min_pct) END,
					 format('alarm at a drop of %s %%', max_drop_pct),
					 CASE WHEN judged.warn_at IS NOT NULL THEN format('warning below %s %%', round(judged.warn_at::numeric, 1)) END,
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

	status := judged.status;
	IF status <> 'ok' THEN
		message := subject || ' ' || array_to_string(said, ' and ') || '; ' ||
			coalesce(changes, 'nothing changed in storage, limits, kernel, server version or I/O settings');
	ELSE
		message := format('%s is within its limits: %s-day median %s %% over %s run%s%s%s',
						  subject, window_days, round(median_pct::numeric, 1), earlier_runs,
						  CASE WHEN earlier_runs > 1 THEN 's' ELSE '' END,
						  CASE WHEN few IS NOT NULL THEN ' (' || few || ')' ELSE '' END,
						  CASE WHEN changes IS NOT NULL THEN '; ' || changes ELSE '' END);
	END IF;
END
$$;

COMMENT ON FUNCTION scanbench_internal.scan_history_verdict(@extschema@.scan_history, @extschema@.scan_history[], float8, float8, float8, float8, integer, text) IS
'the verdict on a run (its row of scan_history) against the runs it is compared with (scan_history_compared''s), with the limits given (NULL: those kept with the run, else the defaults); the judge of scan_history_judge and scan_history_judge_runs, reading nothing';
-- @end scan_history_verdict

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

	-- The runs it is compared with, read once (from one shard of a
	-- distributed history), then judged.
	IF cur.scan_pct IS NOT NULL AND scanbench_internal.scan_history_marks(cur.verdict) IS NOT NULL THEN
		-- At most the longest window the judge allows: a longer one is
		-- refused by the verdict, with its reason, not by the date's range.
		compared := ARRAY(SELECT c FROM scanbench_internal.scan_history_compared(cur,
					 least(scanbench_internal.scan_history_judged_days(window_days, cur.limit_max_drop_pct,
																	   cur.limit_window_days), 36600)) c);
	END IF;
	SELECT * INTO status, message, detail, hint, median_pct, drop_pct, earlier_runs
	FROM scanbench_internal.scan_history_verdict(cur, coalesce(compared, '{}'), min_pct, max_drop_pct,
												 warn_pct, warn_drop_pct, window_days, ext_schema) v;
END
$$;

COMMENT ON FUNCTION scan_history_judge(bigint, float8, float8, float8, float8, integer, text) IS
'compare a recorded run with the median of earlier judged runs of the same server, relation, cache mode and marks; status regression, warning, ok, first or not_judged, with a message, and what changed. A limit given NULL (the default) is the one efficiency_check judged the run with, kept in scan_history; for a run recorded otherwise max_drop_pct 20, warn_drop_pct 10, window_days 30 and no min_pct. server, when given, is the run''s server: on a history distributed by server, the run is then read from its shard alone';

REVOKE ALL ON FUNCTION scan_history_judge(bigint, float8, float8, float8, float8, integer, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION scan_history_judge(bigint, float8, float8, float8, float8, integer, text) TO pg_monitor;


--
-- A night judged as a set: every run of the set with the verdict
-- scan_history_judge gives it, in one statement over the set.  The runs
-- each is compared with are read by one join of the set with the history
-- (scan_history_compared's rule), grouped by run, and the verdict is
-- given in the same statement: on a history distributed by server, the
-- join, the grouping and the verdicts are on the server's column, so each
-- worker judges its own servers' runs and sends back their verdicts.
--
-- The statement is written once and run by EXECUTE with the set's bounds
-- as literals: a run's server in the join is an equality (a distributed
-- history has no run without one) and, on one server, the database's own
-- runs (server NULL) are a second branch of their own, each branch an
-- equality the index can use.
--
CREATE FUNCTION scan_history_judge_runs(first_run bigint DEFAULT NULL,
										last_run bigint DEFAULT NULL,
										min_pct float8 DEFAULT NULL,
										max_drop_pct float8 DEFAULT NULL,
										warn_pct float8 DEFAULT NULL,
										warn_drop_pct float8 DEFAULT NULL,
										window_days integer DEFAULT NULL,
										servers text[] DEFAULT NULL,
										measured_since timestamptz DEFAULT NULL,
										OUT run bigint, OUT server text,
										OUT status text, OUT message text,
										OUT detail text, OUT hint text,
										OUT median_pct float8, OUT drop_pct float8,
										OUT earlier_runs integer)
RETURNS SETOF record
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
-- The statement's estimate (a join over the history) is far above
-- jit_above_cost, and compiling it cost more than running it: at a night
-- of 10,000 runs, 35 s with JIT against 5.5 s without (PostgreSQL 15).
SET jit = off
AS $$
DECLARE
	ext_schema text;
	hist text;
	night text;
	since timestamptz;
	pair text;
	pairs text;
BEGIN
	SELECT n.nspname INTO ext_schema
	FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
	WHERE e.extname = 'scanbench';
	IF first_run IS NULL AND last_run IS NULL AND servers IS NULL AND measured_since IS NULL THEN
		RAISE EXCEPTION 'the runs to judge must be named'
			USING ERRCODE = 'null_value_not_allowed',
				  HINT = 'Give first_run and last_run (run numbers of scan_history), servers or measured_since.';
	END IF;
	hist := format('%I.scan_history', ext_schema);

	night := format('SELECT h.* FROM %s h WHERE true', hist)
		|| CASE WHEN first_run IS NOT NULL THEN format(' AND h.id >= %L::pg_catalog.int8', first_run) ELSE '' END
		|| CASE WHEN last_run IS NOT NULL THEN format(' AND h.id <= %L::pg_catalog.int8', last_run) ELSE '' END
		|| CASE WHEN servers IS NOT NULL THEN format(' AND h.server = ANY (%L::pg_catalog.text[])', servers) ELSE '' END
		|| CASE WHEN measured_since IS NOT NULL
		   THEN format(' AND h.measured_at >= %L::pg_catalog.timestamptz', measured_since) ELSE '' END;

	-- The earliest run any run of the set may be compared with, as a
	-- literal of the statement: the months before it are left out when it
	-- is planned (on Citus, on each worker), and the planner knows how
	-- many runs the windows hold, so that a whole night's windows can be
	-- read in one pass rather than a probe a run.
	EXECUTE format($q$
		SELECT pg_catalog.min(n.measured_at - pg_catalog.make_interval(days => least(
				   scanbench_internal.scan_history_judged_days(%1$L::pg_catalog.int4, n.limit_max_drop_pct,
															   n.limit_window_days), 36600)))
		FROM (%2$s) n$q$, window_days, night)
	INTO since;

	-- Each run of the set with the runs it is compared with: the earlier
	-- judged runs of its server, relation, cache mode and marks in its
	-- window (scan_history_compared), the window at most the longest the
	-- judge allows (a longer one is refused by the verdict, with its reason).
	pair := format($q$
		SELECT n.id AS run, n.server AS run_server, ROW(c.*)::%1$s AS c
		FROM (%2$s) n JOIN %1$s c
		  ON /* the server */
		 AND c.relschema = n.relschema AND c.relname = n.relname AND c.cache = n.cache
		 AND c.id <> n.id AND c.reason IS NULL
		 AND c.measured_at <= n.measured_at
		 AND c.measured_at > %4$L::pg_catalog.timestamptz
		 AND c.measured_at > n.measured_at - make_interval(days => least(
				 scanbench_internal.scan_history_judged_days(%3$L::pg_catalog.int4, n.limit_max_drop_pct,
															 n.limit_window_days), 36600))
		 AND scanbench_internal.scan_history_usable(c.scan_pct)
		 AND isfinite(c.measured_at)
		 AND scanbench_internal.scan_history_marks(c.verdict)
			 = coalesce(scanbench_internal.scan_history_marks(n.verdict), '')
		WHERE n.scan_pct IS NOT NULL AND scanbench_internal.scan_history_marks(n.verdict) IS NOT NULL$q$,
		hist, night, window_days, coalesce(since, '-infinity'));
	IF scanbench_internal.scan_history_distributed() THEN
		pairs := replace(pair, '/* the server */', 'c.server = n.server');
	ELSE
		pairs := replace(pair, '/* the server */', 'c.server = n.server') || E'\n\t\tUNION ALL'
			  || replace(pair, '/* the server */', 'c.server IS NULL AND n.server IS NULL');
	END IF;

	-- The verdict is made once a run, in the subquery (volatile, so that
	-- it is not pulled up into one call a column), next to its run.
	RETURN QUERY EXECUTE format($q$
		SELECT x.id, x.server, (x.v).status, (x.v).message, (x.v).detail, (x.v).hint,
			   (x.v).median_pct, (x.v).drop_pct, (x.v).earlier_runs
		FROM (SELECT n.id, n.server,
					 scanbench_internal.scan_history_verdict(ROW(n.*)::%1$s, coalesce(s.compared, '{}'),
						%4$L::pg_catalog.float8, %5$L::pg_catalog.float8, %6$L::pg_catalog.float8,
						%7$L::pg_catalog.float8, %8$L::pg_catalog.int4, %9$L) AS v
			  FROM (%2$s) n
			  LEFT JOIN (SELECT p.run_server, p.run, array_agg(p.c) AS compared
						 FROM (%3$s) p
						 GROUP BY p.run_server, p.run) s
				ON s.run = n.id AND %10$s) x
		ORDER BY x.id$q$,
		hist, night, pairs, min_pct, max_drop_pct, warn_pct, warn_drop_pct, window_days, ext_schema,
		CASE WHEN scanbench_internal.scan_history_distributed() THEN 's.run_server = n.server'
		ELSE 's.run_server IS NOT DISTINCT FROM n.server' END);
END
$$;

COMMENT ON FUNCTION scan_history_judge_runs(bigint, bigint, float8, float8, float8, float8, integer, text[], timestamptz) IS
'judge a set of recorded runs at once, each as scan_history_judge judges it (the same status, message, detail, hint and figures, the limits given or those kept with each run): the runs numbered first_run to last_run, of the servers named, measured since measured_since (each NULL: any; at least one given), in run order. On a history distributed by server, each worker judges its own servers'' runs';

REVOKE ALL ON FUNCTION scan_history_judge_runs(bigint, bigint, float8, float8, float8, float8, integer, text[], timestamptz) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION scan_history_judge_runs(bigint, bigint, float8, float8, float8, float8, integer, text[], timestamptz) TO pg_monitor;

--
-- A run against its cohort: the rule scanbench-fleet flags a server's
-- figure by among its peers' (the library's src/cohortrule.c, compiled
-- into the client too), for a judgement made in SQL over a central
-- history.  It reads nothing, so any role may call it.
CREATE FUNCTION scanbench_internal.judge_cohort(figures float8[], lo float8 DEFAULT NULL,
												hi float8 DEFAULT NULL,
												k float8 DEFAULT 3, min_spread float8 DEFAULT 5,
												OUT n integer, OUT centre float8,
												OUT spread float8, OUT side text,
												OUT needed integer)
AS 'MODULE_PATHNAME', 'judge_cohort'
LANGUAGE C CALLED ON NULL INPUT IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION scanbench_internal.judge_cohort(float8[], float8, float8, float8, float8) IS
'the fleet''s cohort rule (src/cohortrule.c, scanbench-fleet''s own): of the figures given (NULL elements left out), n, their median (centre) and spread, max(k * 1.4826 * the median absolute deviation, min_spread), when there are needed (3) or more; side is below or above when the whole interval lo to hi lies outside centre +- spread, else inside (NULL without an interval or a band). Read rates are judged on their logarithms, with min_spread ln(2)';

--
-- The rules every judge reads, each with its threshold (the library's
-- src/judgerules.c, scanbench-fleet's too for the cohort's): what the
-- judges above, scan_efficiency's verdict and the fleet decide by, read
-- from the one table rather than copied.  It reads nothing.
CREATE FUNCTION scanbench_internal.judge_rules(OUT rule text, OUT judges text[],
											   OUT mark text, OUT level text,
											   OUT threshold float8,
											   OUT compared text, OUT meaning text)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'judge_rules'
LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE ROWS 48;

COMMENT ON FUNCTION scanbench_internal.judge_rules() IS
'the judges'' rules (src/judgerules.c), in its order: the rule, the judges that read it (figure, page_costs, crossover, access_path, toast, scan_node, history, page_costs_run, cohort), the verdict mark it gives or the status it makes a recorded run, its threshold (NULL: the limit the call gives), what is compared with it and what it means when it holds';
