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
