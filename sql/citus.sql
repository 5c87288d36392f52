--
-- The Citus functions on a server without Citus: scan_efficiency_shards
-- refuses a table Citus does not know, and the node step that the
-- coordinator runs on each node works on plain tables and checks its
-- arguments first.  (On a Citus cluster: t/060_citus_figures.pl.)
--
SELECT * FROM scan_efficiency_shards('sb_t');
SELECT sb_sqlstate($$SELECT * FROM scan_efficiency_shards('sb_t')$$);
SELECT * FROM scan_efficiency_shards('sb_t', 'sideways');
SELECT * FROM scan_efficiency_shards('sb_t', runs => 0);

SELECT scan_efficiency_node('bogus', 'cold', 8192, '{}', '{}');
SELECT scan_efficiency_node('read', 'cold', 1000, '{}', '{}');
SELECT scan_efficiency_node('read', 'cold', 8192, '{1}', '{}');
SELECT scan_efficiency_node('read', 'cold', 8192, '{1}', '{NULL}');
SELECT scan_efficiency_node('read', 'cold', 8192, '{1}', '{sb_view}');
SELECT scan_efficiency_node('read', 'cold', 8192, '{1}', '{sb_no_such_table}');
SELECT scan_efficiency_node('read', 'cold', 8192, '{}', '{}');

-- One entry per named table, in order, with its bytes and rows.
SELECT (e->>'shardid')::bigint AS shardid,
       (e->>'bytes')::bigint = pg_relation_size('sb_t') AS bytes_ok,
       (e->>'seconds')::float8 > 0 AS timed,
       (e->>'node_s')::float8 >= (e->>'seconds')::float8 AS node_covers
FROM jsonb_array_elements(scan_efficiency_node('read', 'cold', 8192, '{7,8}', '{sb_t,public.sb_t}')) e;
SELECT (e->>'rows')::bigint AS rows, (e->>'cached_pct')::float8 < 5 AS cold
FROM jsonb_array_elements(scan_efficiency_node('scan', 'cold', 8192, '{7}', '{sb_t}')) e;
SELECT (e->>'cached_pct')::float8 < 5 AS cold, e ? 'node_s' AS has_node_s
FROM jsonb_array_elements(scan_efficiency_node('prepare', 'cold', 8192, '{7}', '{sb_t}')) e;

-- restore => true on a Citus table: each node answers a snapshot of its
-- placements' caches and takes it back; the cache put back as it was.
SELECT scan_efficiency_node('restore', 'asis', 8192, '{7}', '{sb_t}');
SELECT scan_efficiency_node('restore', 'asis', 8192, '{7}', '{sb_t}', '{"\\x00"}');
SELECT scan_efficiency_node('restore', 'asis', 8192, '{7}', '{sb_t}', '{NULL}');
SELECT count(*) AS warmed
FROM jsonb_array_elements(scan_efficiency_node('read', 'warm', 8192, '{7}', '{sb_t}')) e;
CREATE TEMP TABLE sb_snap AS
SELECT (e->>'cached_pct')::float8 AS cached_pct, (e->>'snapshot')::bytea AS snapshot
FROM jsonb_array_elements(scan_efficiency_node('snapshot', 'asis', 8192, '{7}', '{sb_t}')) e;
SELECT count(*) AS snapshots, bool_and(cached_pct > 95) AS warm FROM sb_snap;
SELECT (e->>'cached_pct')::float8 < 5 AS cold
FROM jsonb_array_elements(scan_efficiency_node('prepare', 'cold', 8192, '{7}', '{sb_t}')) e;
SELECT (e->>'cached_pct')::float8 > 95 AS was_warm,
       (e->>'cached_pct_end')::float8 > 95 AS warm_again,
       (e->>'restored_pct')::float8 = 100 AS all_back
FROM sb_snap,
     jsonb_array_elements(scan_efficiency_node('restore', 'asis', 8192, '{7}', '{sb_t}',
                                               ARRAY[sb_snap.snapshot])) e;
DROP TABLE sb_snap;
