/* scanbench--0.3--0.4.0.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION scanbench UPDATE TO '0.4.0'" to load this file. \quit

--
-- Versions are MAJOR.MINOR.PATCH from here on, as PGXN wants them; 0.3 is
-- followed by 0.4.0.
--

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
			ORDER BY v.i), ',')
	END;
END;

COMMENT ON FUNCTION scanbench_internal.scan_history_marks(text[]) IS
'NULL for a verdict that cannot be judged (a mark scan_verdict_marks() says is not judged: unstable, cached, burst, empty, over_budget), else the marks runs are compared under (those it says are compared apart: host_cache, cpu_contended, cpu_limited, io_limited, storage_not_limiting)';
