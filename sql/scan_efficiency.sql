--
-- scan_efficiency
--
SELECT relation, bytes = pg_relation_size('sb_t') AS all_bytes, rows, cache,
       block_size, runs, read_mb_s > 0 AS read_ok, scan_mb_s > 0 AS scan_ok,
       abs(scan_pct - 100 * scan_mb_s / read_mb_s) < 0.2 AS pct_is_ratio,
       read_s > 0 AND scan_s > 0 AS seconds_ok,
       read_cached_pct < 5 AS read_cold, scan_cached_pct < 5 AS scan_cold,
       filesystem IS NOT NULL AS has_fs, device IS NOT NULL AS has_device,
       measured_at <= now() + interval '1 hour' AS has_time
FROM scan_efficiency('sb_t');

SELECT cache, runs, block_size, read_cached_pct > 95 AS read_warm, scan_cached_pct > 95 AS scan_warm
FROM scan_efficiency('sb_t', 'warm', 65536, 3);
SELECT cache, runs, rows FROM scan_efficiency('sb_part', 'asis', runs => 2);

-- Empty: NULL rates and NULL percentage.
SELECT bytes, rows, read_mb_s, scan_mb_s, scan_pct FROM scan_efficiency('sb_empty');

-- A history table can hold result rows as they are.
CREATE TABLE sb_history OF scan_efficiency_result;
INSERT INTO sb_history SELECT * FROM scan_efficiency('sb_t', 'asis');
SELECT relation, rows FROM sb_history;

SELECT * FROM scan_efficiency('sb_t', runs => 0);
SELECT * FROM scan_efficiency('sb_t', runs => 1001);
SELECT * FROM scan_efficiency('sb_t', block_size => 4000);
SELECT * FROM scan_efficiency('sb_t', 'direct');
SELECT * FROM scan_efficiency('sb_t', 'lukewarm');
SELECT * FROM scan_efficiency('sb_view');
SELECT * FROM scan_efficiency('sb_t_id');
