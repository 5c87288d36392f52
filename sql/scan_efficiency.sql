--
-- scan_efficiency
--
-- The verdict's NOTICEs and WARNINGs carry this machine's figures; they are
-- tested in t/010_trust.pl.  Here only what holds on any machine.
SET client_min_messages = error;

-- The default method: pairs of 8 MB stretches.  sb_t is one stretch: a
-- relation covered before the interval is narrow enough is read again in
-- rounds, at least 10 pairs, until it is or the budget ends; its rows and
-- coverage are counted once.
SELECT relation, bytes = pg_relation_size('sb_t') AS all_bytes, rows, cache,
       block_size, runs, read_mb_s > 0 AS read_ok, scan_mb_s > 0 AS scan_ok,
       scan_pct BETWEEN scan_pct_p10 AND scan_pct_p90 AS pct_in_spread,
       read_s >= 0 AND scan_s >= 0 AS seconds_ok,
       read_cached_pct < 5 AS read_cold, scan_cached_pct < 5 AS scan_cold,
       filesystem IS NOT NULL AS has_fs, device IS NOT NULL AS has_device,
       measured_at <= now() + interval '1 hour' AS has_time,
       method, pairs >= 10 AS ten_pairs_or_more, coverage_pct,
       elapsed_s >= read_s + scan_s AS elapsed_covers_both,
       verdict <@ ARRAY(SELECT mark FROM scan_verdict_marks()
                        WHERE mark NOT IN ('empty', 'over_budget')) AS verdict_ok,
       lock_wait_s >= 0 AS lock_wait_ok,
       cached_pct_end >= 0 AND cached_pct_start >= 0 AS cached_ok,
       restored_pct IS NULL AND restore_s IS NULL AS no_restore,
       settings ? 'shared_buffers' AS has_settings
FROM scan_efficiency('sb_t', target_pct => 100);

SELECT pairs >= 10 AS ten_pairs_or_more, rows, coverage_pct,
       scan_pct BETWEEN scan_pct_lo AND scan_pct_hi AS pct_in_interval
FROM scan_efficiency('sb_t', 'asis', target_pct => 100);
-- With no target: every stretch, in rounds up to ten pairs.
SELECT pairs, rows, coverage_pct FROM scan_efficiency('sb_t', 'asis', target_pct => 0);
-- restore => true: the caches put back as they were.
SELECT restored_pct >= 0 AS restored, restore_s >= 0 AS timed
FROM scan_efficiency('sb_t', restore => true, target_pct => 100);
-- A sample is not read twice: one pair is too few for an interval.
SELECT pairs, scan_pct_lo, scan_pct_hi, 'unstable' = ANY (verdict) AS unstable
FROM scan_efficiency('sb_t', 'asis', sample => 0.5);

-- Whole passes: six runs are the fewest that give a 95 % interval.
SELECT method, runs, pairs, coverage_pct, rows,
       scan_pct BETWEEN scan_pct_lo AND scan_pct_hi AS pct_in_interval,
       scan_pct_lo <= scan_pct_p10 AND scan_pct_p90 <= scan_pct_hi AS spread_in_interval
FROM scan_efficiency('sb_t', 'warm', runs => 6, method => 'whole');
SELECT method, pairs, scan_pct_lo IS NULL AS no_interval, 'unstable' = ANY (verdict) AS unstable
FROM scan_efficiency('sb_t', 'asis', runs => 5, method => 'whole');

SELECT cache, runs, block_size, read_cached_pct > 95 AS read_warm, scan_cached_pct > 95 AS scan_warm,
       'storage_not_limiting' = ANY (verdict) AS cpu_bound
FROM scan_efficiency('sb_t', 'warm', 65536, 3, method => 'whole');
-- Every partition's stretches, each scanned on its own.
SELECT cache, pairs >= 10 AS ten_pairs_or_more, rows, coverage_pct FROM scan_efficiency('sb_part', 'asis', target_pct => 100);
SELECT method, runs, rows FROM scan_efficiency('sb_part', 'asis', runs => 2, method => 'whole');

-- Empty: NULL rates, no pairs, nothing to judge.
SELECT bytes, rows, read_mb_s, scan_mb_s, scan_pct, pairs, coverage_pct, verdict
FROM scan_efficiency('sb_empty');

-- A history table can hold result rows as they are.
CREATE TABLE sb_history OF scan_efficiency_result;
INSERT INTO sb_history SELECT * FROM scan_efficiency('sb_t', 'asis');
SELECT relation, rows, method FROM sb_history;
RESET client_min_messages;

SELECT * FROM scan_efficiency('sb_t', runs => 0);
SELECT * FROM scan_efficiency('sb_t', runs => 1001);
SELECT * FROM scan_efficiency('sb_t', block_size => 4000);
SELECT * FROM scan_efficiency('sb_t', 'direct');
SELECT * FROM scan_efficiency('sb_t', 'lukewarm');
SELECT * FROM scan_efficiency('sb_t', sample => 0);
SELECT * FROM scan_efficiency('sb_t', sample => 1.5);
SELECT * FROM scan_efficiency('sb_t', sample => 'NaN');
SELECT * FROM scan_efficiency('sb_t', max_seconds => 0);
SELECT * FROM scan_efficiency('sb_t', max_seconds => 'Infinity');
SELECT * FROM scan_efficiency('sb_t', target_pct => -1);
SELECT * FROM scan_efficiency('sb_t', target_pct => 101);
SELECT * FROM scan_efficiency('sb_t', method => 'both');
SELECT * FROM scan_efficiency('sb_t', sample => 0.5, method => 'whole');
SELECT * FROM scan_efficiency('sb_t', runs => 5);
SELECT * FROM scan_efficiency('sb_view');
SELECT * FROM scan_efficiency('sb_t_id');
-- Bad arguments are refused before the relation is looked at.
SELECT * FROM scan_efficiency('sb_view', sample => 2);
SELECT sb_sqlstate(format('SELECT scan_efficiency(''sb_t'', %s)', a))
FROM unnest(ARRAY['sample => 0', 'max_seconds => -1', 'target_pct => 200',
                  'method => ''''', 'sample => 0.1, method => ''whole''']) a;
