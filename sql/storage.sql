--
-- storage_info, storage_profile and random_read: argument checks, made
-- before anything is opened or written, and privileges.
--
CREATE TABLE sb_st AS SELECT g FROM generate_series(1, 1000) g;
CREATE VIEW sb_st_view AS SELECT 1 AS x;

-- storage_info: one filesystem row first, whatever the host.
SELECT kind, level, tablespace, data_path ~ '^base/[0-9]+/[0-9]+$' AS path_ok,
       filesystem IS NOT NULL AS has_fstype
FROM storage_info('sb_st'::regclass) WHERE level = 0;
SELECT kind, data_path FROM storage_info_tablespace('pg_default') WHERE level = 0;
SELECT kind, data_path FROM storage_info_tablespace('pg_global') WHERE level = 0;
SELECT count(*) > 0 AS has_rows FROM storage_info(rel => 'sb_st');
SELECT * FROM storage_info('sb_st_view'::regclass);
-- A bare literal names the relation; a relation's name given for a
-- tablespace is refused, with the call that looks under it.
SELECT count(*) > 0 AS bare_literal_is_the_relation FROM storage_info('sb_st');
SELECT * FROM storage_info_tablespace('sb_st');
SELECT * FROM storage_info_tablespace('no_such_tablespace');

-- storage_profile: bad arguments.
SELECT * FROM storage_profile(size_mb => 0);
SELECT * FROM storage_profile(size_mb => -5);
SELECT * FROM storage_profile(block_size => 1000);
SELECT * FROM storage_profile(block_size => 0);
SELECT * FROM storage_profile(random_ops => 0);
SELECT * FROM storage_profile(random_ops => 20000000);
SELECT * FROM storage_profile(size_mb => 1, block_size => 4194304);
SELECT * FROM storage_profile('no_such_tablespace');
SELECT * FROM storage_profile('pg_global');

-- random_read: bad arguments.
SELECT * FROM random_read('sb_st', reads => 0);
SELECT * FROM random_read('sb_st', reads => 20000000);
SELECT * FROM random_read('sb_st', block_size => 100);
SELECT * FROM random_read('sb_st', depth => 0);
SELECT * FROM random_read('sb_st', depth => 257);
SELECT * FROM random_read('sb_st', block_size => 67108864, depth => 8);
SELECT * FROM random_read('sb_st', block_size => 2097152, depth => 256);
SELECT * FROM random_read('sb_st', cache => 'lukewarm');
SELECT * FROM random_read('sb_st_view');

-- random_read: what it reports, host figures left out.
SELECT reads, block_size, cache, bytes, min_offset >= 0 AS min_ok,
       max_offset + block_size <= pg_relation_size('sb_st') AS max_ok,
       iops > 0 AS iops_ok, latency_p50_us <= latency_p99_us AS p_ok
FROM random_read('sb_st', reads => 5);

-- random_read at depth: four threads share the five reads.
SELECT reads, block_size, cache, bytes, min_offset >= 0 AS min_ok,
       max_offset + block_size <= pg_relation_size('sb_st') AS max_ok,
       iops > 0 AS iops_ok, latency_p50_us <= latency_p99_us AS p_ok, depth
FROM random_read('sb_st', reads => 5, depth => 4);

-- Privileges: EXECUTE is revoked from PUBLIC.
CREATE ROLE regress_sb_storage;
SET ROLE regress_sb_storage;
SELECT * FROM storage_info('sb_st'::regclass);
SELECT * FROM storage_info_tablespace('pg_default');
SELECT * FROM storage_profile();
SELECT * FROM random_read('sb_st');
RESET ROLE;
-- Granted EXECUTE but no SELECT on the table.
GRANT EXECUTE ON FUNCTION random_read(regclass, text, integer, integer, integer),
	storage_info(regclass) TO regress_sb_storage;
SET ROLE regress_sb_storage;
SELECT * FROM random_read('sb_st');
SELECT * FROM storage_info('sb_st'::regclass);
RESET ROLE;
DROP OWNED BY regress_sb_storage;
DROP ROLE regress_sb_storage;

DROP VIEW sb_st_view;
DROP TABLE sb_st;
