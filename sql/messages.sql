--
-- What errors and notices say about the caller's input: numbers as given,
-- long text cut short, and no silent empty measurement.
--
-- A number just out of range is printed with every digit it needs, not
-- rounded into the range.
SELECT * FROM scan_efficiency('sb_t', sample => 1.0000001);
SELECT * FROM scan_efficiency('sb_t', target_pct => 100.00000000001);
SELECT * FROM scan_efficiency('sb_t', max_seconds => 604800.5);

-- A long argument is cut at 64 bytes in the message, a query at 1024,
-- with "...".
SELECT * FROM raw_read('sb_t', repeat('x', 100000));
SELECT * FROM scan_rate('sb_t', repeat('lukewarm', 12500));
SELECT * FROM scan_efficiency('sb_t', method => repeat('é', 50000));
SELECT * FROM scan_sweep('sb_t', 'warm', repeat('s', 100000), '{1}');
SELECT * FROM scan_sweep('sb_t', 'warm', 'parallel_workers', ARRAY[repeat('9', 100000)]);
DO $$
DECLARE
	context text;
BEGIN
	PERFORM * FROM scan_rate('sb_t', 'asis', 'count(1) -- ' || repeat('x', 100000));
EXCEPTION WHEN others THEN
	GET STACKED DIAGNOSTICS context = PG_EXCEPTION_CONTEXT;
	RAISE NOTICE 'message under 1200 bytes: %, context under 2500 bytes: %',
		octet_length(SQLERRM) < 1200, octet_length(context) < 2500;
END $$;

-- random_read: a block larger than the relation, or no block at all, is
-- an error, not a row of no reads.
CREATE TABLE sb_msg_small AS SELECT 1 AS x;
CREATE TABLE sb_msg_empty (x integer);
SELECT * FROM random_read('sb_msg_small', block_size => 65536);
SELECT * FROM random_read('sb_msg_empty');
SELECT reads FROM random_read('sb_msg_small', 'asis', 3, 8192);
DROP TABLE sb_msg_small, sb_msg_empty;
