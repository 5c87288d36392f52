--
-- EXECUTE is revoked from PUBLIC; a granted role also needs SELECT.
--
CREATE ROLE regress_nobody;
CREATE ROLE regress_monitor;
GRANT EXECUTE ON FUNCTION raw_read(regclass, text, integer, integer),
	raw_read_segments(regclass, text, integer),
	scan_rate(regclass, text, text, integer),
	scan_efficiency(regclass, text, integer, integer, float8, float8, float8, text, boolean, boolean, boolean) TO regress_monitor;

SET ROLE regress_nobody;
SELECT * FROM raw_read('sb_t');
SELECT * FROM raw_read_segments('sb_t');
SELECT * FROM scan_rate('sb_t');
SELECT * FROM scan_efficiency('sb_t');
RESET ROLE;

-- Granted EXECUTE, but no SELECT on the table.
SET ROLE regress_monitor;
SELECT * FROM raw_read('sb_t');
SELECT * FROM raw_read_segments('sb_t');
SELECT * FROM scan_rate('sb_t');
SELECT * FROM scan_efficiency('sb_t');
RESET ROLE;

-- With SELECT it works, cold included.
GRANT SELECT ON sb_t, sb_part TO regress_monitor;
SET ROLE regress_monitor;
SELECT bytes > 0 AS read_ok FROM raw_read('sb_t');
SELECT rows FROM scan_rate('sb_t');
SELECT rows FROM scan_rate('sb_part');
SET client_min_messages = error;	-- the verdict's messages carry this host's figures
SELECT rows, scan_pct > 0 AS pct_ok FROM scan_efficiency('sb_t', target_pct => 100);
-- A partition's stretches are scanned on their own: SELECT on the parent
-- is enough for them too.
SELECT rows, pairs >= 10 AS ten_pairs_or_more FROM scan_efficiency('sb_part', 'asis', target_pct => 100);
RESET client_min_messages;
-- ... but SELECT on the parent does not open other tables.
SELECT * FROM scan_rate('sb_empty');
RESET ROLE;

REVOKE ALL ON sb_t, sb_part FROM regress_monitor;
DROP OWNED BY regress_monitor;
DROP ROLE regress_monitor;
DROP ROLE regress_nobody;
