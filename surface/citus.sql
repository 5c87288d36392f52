--
-- ==== Citus ====
--
-- On a coordinator, scan_efficiency() of a Citus table measures its shard
-- placements where they live; the functions below give a row per
-- placement and per node, and do one step of the measurement on a node
-- (the coordinator calls scan_efficiency_node on every node by its name
-- there, so it stays in the public schema).  They need Citus only when
-- called on a Citus table.
--
CREATE TYPE scan_efficiency_shard_result AS (
	relation			regclass,
	level				text,
	node				text,
	shardid				bigint,
	shard				text,
	bytes				bigint,
	rows				bigint,
	read_mb_s			float8,
	scan_mb_s			float8,
	scan_pct			float8,
	scan_pct_lo			float8,
	scan_pct_hi			float8,
	read_s				float8,
	scan_s				float8,
	read_cached_pct		float8,
	scan_cached_pct		float8,
	pairs				integer,
	slowest_shard		text,
	measured_at			timestamptz,
	verdict				text[]
);

COMMENT ON TYPE scan_efficiency_shard_result IS 'scan_efficiency_shards() row: one per shard placement (level shard) and one per node (level node)';
COMMENT ON COLUMN scan_efficiency_shard_result.relation IS 'the Citus table measured';
COMMENT ON COLUMN scan_efficiency_shard_result.level IS '''shard'': one placement; ''node'': the sums of a node''s placements';
COMMENT ON COLUMN scan_efficiency_shard_result.node IS 'host:port of the node holding the placement, from pg_dist_node';
COMMENT ON COLUMN scan_efficiency_shard_result.shardid IS 'the shard''s id in pg_dist_shard; NULL on node rows';
COMMENT ON COLUMN scan_efficiency_shard_result.shard IS 'the placement''s table on its node; NULL on node rows';
COMMENT ON COLUMN scan_efficiency_shard_result.bytes IS 'bytes of the main fork read, in bytes';
COMMENT ON COLUMN scan_efficiency_shard_result.rows IS 'rows counted by count(1) on the node, in rows';
COMMENT ON COLUMN scan_efficiency_shard_result.read_mb_s IS 'raw read rate on the node, median over pairs, in MB/s (10^6 bytes); node rows: its placements one after another';
COMMENT ON COLUMN scan_efficiency_shard_result.scan_mb_s IS 'count(1) scan rate on the node, median over pairs, in MB/s (10^6 bytes)';
COMMENT ON COLUMN scan_efficiency_shard_result.scan_pct IS '100 * scan rate / raw read rate, median of the pairs'' ratios, in percent';
COMMENT ON COLUMN scan_efficiency_shard_result.scan_pct_lo IS 'lower bound of the 95 % confidence interval of scan_pct (order statistics; needs 6 pairs), in percent';
COMMENT ON COLUMN scan_efficiency_shard_result.scan_pct_hi IS 'upper bound of the 95 % confidence interval of scan_pct, in percent';
COMMENT ON COLUMN scan_efficiency_shard_result.read_s IS 'raw read time, median over pairs, in seconds';
COMMENT ON COLUMN scan_efficiency_shard_result.scan_s IS 'count(1) time, median over pairs, in seconds';
COMMENT ON COLUMN scan_efficiency_shard_result.read_cached_pct IS 'highest share of the bytes in the page cache before a timed read, in percent';
COMMENT ON COLUMN scan_efficiency_shard_result.scan_cached_pct IS 'highest share of the blocks in either cache before a timed scan, in percent';
COMMENT ON COLUMN scan_efficiency_shard_result.pairs IS 'number of read/scan pairs measured';
COMMENT ON COLUMN scan_efficiency_shard_result.slowest_shard IS 'node rows: the placement with the lowest scan_mb_s; NULL on shard rows';
-- @comments scan_efficiency_shard_result FROM scan_efficiency_result: measured_at
COMMENT ON COLUMN scan_efficiency_shard_result.verdict IS 'marks: {ok}, or any of unstable, cached, storage_not_limiting';

-- @index 200 | `scan_efficiency_shards(rel, cache, …)` | on Citus: one row per placement and per node |
CREATE FUNCTION scan_efficiency_shards(rel regclass,
									   cache text DEFAULT 'cold',
									   block_size integer DEFAULT 8192,
									   runs integer DEFAULT 1)
RETURNS SETOF scan_efficiency_shard_result
AS 'MODULE_PATHNAME', 'scan_efficiency_shards'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION scan_efficiency_shards(regclass, text, integer, integer) IS
'Citus table: raw read and count(1) of each shard placement on its node, nodes at the same time, a node''s placements one after another; a row per placement and per node';

REVOKE ALL ON FUNCTION scan_efficiency_shards(regclass, text, integer, integer) FROM PUBLIC;

CREATE FUNCTION scan_efficiency_node(step text, cache text, block_size integer,
									 shardids bigint[], shards text[],
									 snapshots bytea[] DEFAULT '{}')
RETURNS jsonb
AS 'MODULE_PATHNAME', 'scan_efficiency_node'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION scan_efficiency_node(text, text, integer, bigint[], text[], bytea[]) IS
'run by scan_efficiency and scan_efficiency_shards on each Citus node: one step (read, scan, prepare, snapshot or restore) over the named local placements, as jsonb (bytes, rows, seconds, cached_pct in percent, node_s in seconds; snapshot: the caches as bytea, which restore takes back in snapshots; restore: cached_pct_end, restored_pct)';

REVOKE ALL ON FUNCTION scan_efficiency_node(text, text, integer, bigint[], text[], bytea[]) FROM PUBLIC;

