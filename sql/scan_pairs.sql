--
-- scan_pairs: the pairs behind the session's last scan_efficiency or
-- scan_advice call, in order.  The figures are this machine's; here only
-- what holds on any machine.
--
SET client_min_messages = error;

-- A new session has none.
SELECT count(*) FROM scan_pairs();

-- scan_efficiency: a row a pair the result counts, the raw read (a)
-- against the scan (b) of a stretch, the order alternating from a first;
-- warm, each side run once untimed just before its timed pass.
SELECT pairs AS result_pairs, scan_pct AS result_pct
FROM scan_efficiency('sb_t', 'warm', target_pct => 0) \gset
SELECT function, relation, count(*) = :result_pairs AS a_row_a_pair,
       min(pair) = 1 AND max(pair) = count(*) AS numbered,
       bool_and(side_a = 'raw read' AND side_b = 'scan') AS sides,
       bool_and(first_side = CASE WHEN pair % 2 = 1 THEN 'a' ELSE 'b' END) AS alternating,
       bool_and(leaf = 'sb_t'::regclass AND first_block >= 0 AND blocks > 0) AS stretches,
       bool_and(a_workers IS NULL AND b_workers = 0) AS workers,
       bool_and(a_faults >= 0 AND b_faults >= 0) AS faults_counted,
       bool_and(a_s > 0 AND b_s > 0 AND a_mb_s > 0 AND b_mb_s > 0) AS timed,
       bool_and(abs(ratio - b_mb_s / a_mb_s) <= 0.01 * ratio) AS ratio_b_over_a,
       bool_and(a_cached_pct > 95 AND b_cached_pct > 95) AS warm,
       bool_and(a_buffers_pct IS NULL AND b_buffers_pct BETWEEN 0 AND 100) AS buffers_of_scans,
       bool_and(extra_passes = CASE first_side WHEN 'a' THEN '{untimed a,untimed b}'::text[]
                                               ELSE '{untimed b,untimed a}' END) AS untimed_first,
       bool_and(at_s >= 0 AND pair_s > 0) AS when_ok,
       abs(100 * percentile_cont(0.5) WITHIN GROUP (ORDER BY ratio) - :result_pct) <= 0.1
         AS median_is_scan_pct
FROM scan_pairs() GROUP BY function, relation;

-- Cold: evicted before each side, no untimed pass; the first pairs also
-- measure the warm ceiling.
SELECT pairs AS result_pairs FROM scan_efficiency('sb_t', 'cold', target_pct => 0) \gset
SELECT count(*) = :result_pairs AS a_row_a_pair,
       bool_and(a_cached_pct < 5 AND b_cached_pct < 5) AS cold,
       bool_and(NOT extra_passes && '{untimed a,untimed b}') AS no_untimed_pass,
       bool_and('warm ceiling' = ANY (extra_passes)) AS ceiling
FROM scan_pairs();

-- Whole passes: the relation is the stretch.
SELECT runs FROM scan_efficiency('sb_t', 'asis', runs => 3, method => 'whole');
SELECT count(*) AS pairs, bool_and(first_block = 0 AND blocks = pg_relation_size('sb_t') / 8192) AS whole,
       string_agg(first_side, ' ' ORDER BY pair) AS first_sides
FROM scan_pairs();

-- The next call replaces them; an empty relation has none.
SELECT pairs FROM scan_efficiency('sb_empty');
SELECT count(*) FROM scan_pairs();

-- scan_advice: as many as its measured rows count.
SELECT coalesce(sum(pairs), 0) AS advice_pairs
FROM scan_advice('sb_t', 'warm', max_seconds => 2) WHERE measured \gset
SELECT count(*) = :advice_pairs AS a_row_a_pair,
       coalesce(bool_and(function = 'scan_advice' AND leaf = 'sb_t'::regclass
                         AND first_block = 0 AND side_a <> side_b), true) AS advice_pairs
FROM scan_pairs();

RESET client_min_messages;
