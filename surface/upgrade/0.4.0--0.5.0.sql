/* scanbench--0.4.0--0.5.0.sql: a database of 0.4.0 brought to 0.5.0 */

-- Made by make from surface/upgrade/0.4.0--0.5.0.sql, which holds what
-- only the upgrade needs (the history's move, the dropped and altered
-- objects) and names the rest of the surface it makes, each object written
-- once there (surface/assemble.pl).  Amended until 0.5.0 is released, then
-- frozen (doc/development.md).

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

-- @include scan_history_table
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
-- @comment COLUMN scan_efficiency_result.device_mb_s
-- @comment COLUMN scan_efficiency_result.device_pct
-- @comment COLUMN scan_efficiency_result.device_depth
-- @comment COLUMN scan_efficiency_result.verdict

-- A body in SQL keeps the columns its result type had when it was made:
-- made again, it reads the type with the device's columns.
-- @replace scan_history_measure

-- Stretches cover the read-ahead window's ramp where the window is large.
-- @comment COLUMN scan_efficiency_result.method

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

-- @include page_costs
-- @include fleet_queue
-- The marks of a verdict, read for every row the judge, the trend and the
-- metrics look at: from the table of marks in C, not through the set of
-- scan_verdict_marks() twice a row (a tenth of a millisecond a row, most
-- of a judgement's time in a large history).  Whether a run's figure can
-- be used, asked of the same rows, in C too (a SQL call was 3 us a row).
-- @replace scan_history_marks
-- @replace scan_history_usable

-- @include access_paths
-- The central history on Citus (scan_history_distribute): the window, the
-- median and the judge in PL/pgSQL, each query naming the run's server as
-- a value, and the trend and the metrics in one pass over each series, so
-- that no query on the history runs inside another.
-- @include scan_history_window
-- The series kept as runs are recorded, made from the runs moved above.
-- @include history_series
SELECT @extschema@.scan_history_series_rebuild();
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
-- @include history_judge
-- @include trend
-- The workload's nightly check, before the metrics that read it.
-- @include workload_check
-- @include scanbench_metrics
-- @include history_distribute
-- @replace history_months
-- scan_history_record refuses this database's own runs in a distributed
-- history at once, by name, rather than through Citus' own error.
-- @replace scan_history_record
-- The kernel's release is the recording's: a role that records is
-- granted it with scan_history_record (efficiency_check and record =>
-- true ask for both before measuring), and no one else runs it.
REVOKE ALL ON FUNCTION scanbench_internal.scan_history_kernel() FROM PUBLIC;


-- @include index_crossover
-- @include toast_efficiency
-- @include page_costs_history
-- scan_advice measures, cold, the tablespace's random_page_cost and
-- effective_io_concurrency as page_costs does.
--
-- @comment COLUMN scan_advice_result.setting
-- @comment COLUMN scan_advice_result.current
-- @comment COLUMN scan_advice_result.gain
-- @comment COLUMN scan_advice_result.pairs
-- @comment COLUMN scan_advice_result.cost
-- @comment FUNCTION scan_advice(
-- @include scan_pairs
-- @include judge_figure
-- scan_efficiency's interval holds a figure that moved during the call.
-- @comment COLUMN scan_efficiency_result.scan_pct_lo
-- @comment COLUMN scan_efficiency_result.scan_pct_hi

-- @include workload
