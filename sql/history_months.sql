--
-- The history by month: scan_history_partition makes the months, moving
-- the runs waiting in the default partition into them; a run goes into
-- its month; scan_history_prune drops the months wholly past and deletes
-- the older runs of the rest; scan_history_compress refuses where there
-- is no columnar storage.  All in one transaction, rolled back: a month
-- made here would name this month in later tests' messages.
--
\set ON_ERROR_ROLLBACK on
BEGIN;

-- Bad input is refused before anything is made.
SELECT scan_history_partition(months_ahead => -1);
SELECT scan_history_partition(months_ahead => 121);
SELECT scan_history_partition(months_ahead => NULL);
SELECT scan_history_partition(since => '3000-01-01 00:00:00+00');
SELECT scan_history_partition(since => 'infinity');
SELECT scan_history_partition(since => '1900-01-01 00:00:00+00');
SELECT scan_history_prune(interval '1 hour');
SELECT scan_history_compress(interval '0 days');
SELECT scan_history_compress();
SELECT count(*) AS months FROM scanbench_internal.scan_history_months() WHERE from_at IS NOT NULL;

-- Runs of months without a partition wait in the default partition.  The
-- months are UTC's, whatever the session's time zone: the first run is of
-- January there, of February in Tokyo.
SET TIME ZONE 'Asia/Tokyo';
INSERT INTO scan_history (measured_at, relschema, relname, cache, scan_pct, verdict, server)
VALUES ('2021-01-31 23:30:00+00', 'public', 'months', 'cold', 50, '{ok}', 'm'),
	   ('2021-02-01 00:30:00+00', 'public', 'months', 'cold', 51, '{ok}', 'm'),
	   ('2021-03-15 12:00:00+00', 'public', 'months', 'cold', 52, '{ok}', 'm');
SELECT count(*) AS waiting FROM scan_history_default WHERE relname = 'months';

-- They move into their months; every month from since to this one is made.
SELECT scan_history_partition(since => '2021-01-01', months_ahead => 0)
	   >= (SELECT count(*) FROM generate_series(timestamp '2021-01-01',
			   date_trunc('month', now() AT TIME ZONE 'UTC'), interval '1 month')) AS made;
SELECT count(*) AS waiting FROM scan_history_default;
SELECT id - (SELECT min(id) FROM scan_history WHERE relname = 'months') AS run, tableoid::regclass AS month
FROM scan_history WHERE relname = 'months' ORDER BY id;
SELECT count(*) AS missing
FROM generate_series(timestamp '2021-01-01', date_trunc('month', now() AT TIME ZONE 'UTC'), interval '1 month') g(mo)
WHERE NOT EXISTS (SELECT 1 FROM scanbench_internal.scan_history_months() m
				  WHERE m.from_at = g.mo AT TIME ZONE 'UTC' AND m.to_at = (g.mo + interval '1 month') AT TIME ZONE 'UTC');
SELECT from_at AT TIME ZONE 'UTC' AS from_utc, to_at AT TIME ZONE 'UTC' AS to_utc, access_method
FROM scanbench_internal.scan_history_months() WHERE part = 'scan_history_2021_02'::regclass;
SELECT pg_get_indexdef(indexrelid) FROM pg_index
WHERE indrelid = 'scan_history_2021_02'::regclass ORDER BY 1;
SELECT scan_history_partition(since => '2021-01-01', months_ahead => 0) AS made_again;

-- A run goes into its month; one of a month without a partition waits.
INSERT INTO scan_history (measured_at, relschema, relname, cache, scan_pct, verdict, server)
VALUES ('2021-02-10 00:00:00+00', 'public', 'months', 'cold', 53, '{ok}', 'm'),
	   ('2019-06-01 00:00:00+00', 'public', 'months', 'cold', 54, '{ok}', 'm');
SELECT scan_pct, tableoid::regclass AS month FROM scan_history
WHERE relname = 'months' AND scan_pct IN (53, 54) ORDER BY 1;

-- The judge and the trend read across the months.
SELECT status, earlier_runs FROM scan_history_judge(
	(SELECT id FROM scan_history WHERE relname = 'months' AND scan_pct = 53), max_drop_pct => 50);

-- A role that does not own the history makes no months; granted DELETE,
-- it prunes by deleting.
CREATE ROLE scanbench_months_pruner;
GRANT SELECT, DELETE ON scan_history TO scanbench_months_pruner;
GRANT EXECUTE ON FUNCTION scan_history_prune(interval), scan_history_partition(timestamptz, integer)
	TO scanbench_months_pruner;
SET ROLE scanbench_months_pruner;
SELECT scan_history_partition();
SELECT scan_history_prune(now() - timestamptz '2019-07-01 00:00:00+00') AS pruned_by_delete;
RESET ROLE;
SELECT count(*) AS months_2021 FROM scanbench_internal.scan_history_months()
WHERE from_at < '2022-01-01 00:00:00+00';

-- The owner drops the months wholly past the cutoff (January) and deletes
-- the older runs of the month it falls in (February's two before the 20th).
SELECT scan_history_prune(now() - timestamptz '2021-02-20 00:00:00+00') AS pruned;
SELECT scan_pct FROM scan_history WHERE relname = 'months' ORDER BY 1;
SELECT part::text FROM scanbench_internal.scan_history_months()
WHERE from_at < '2021-04-01 00:00:00+00' ORDER BY from_at;

ROLLBACK;
