--
-- What is measured is what a plain SELECT of the relation reads; anything
-- that would make the figures disagree with it is refused, never left out
-- quietly.
--

-- Row-level security: a role the policies apply to may not scan, since rows
-- would count either what it may not see or only what it may.
CREATE TABLE sb_rls AS SELECT g AS id FROM generate_series(1, 1000) g;
ALTER TABLE sb_rls ENABLE ROW LEVEL SECURITY;
CREATE POLICY sb_rls_one ON sb_rls FOR SELECT USING (id = 1);
CREATE ROLE regress_sb_reader;
CREATE ROLE regress_sb_bypass BYPASSRLS;
GRANT SELECT ON sb_rls TO regress_sb_reader, regress_sb_bypass;
GRANT EXECUTE ON FUNCTION raw_read(regclass, text, integer, integer),
	scan_rate(regclass, text, text, integer),
	scan_efficiency(regclass, text, integer, integer, float8, float8, float8, text, boolean, boolean, boolean)
	TO regress_sb_reader, regress_sb_bypass;
SET ROLE regress_sb_reader;
SELECT count(*) AS visible FROM sb_rls;
SELECT rows FROM scan_rate('sb_rls', 'asis');
SELECT rows FROM scan_efficiency('sb_rls', 'asis');
-- With row_security off the server refuses queries the policies would
-- change; scanbench refuses the same way.
SET row_security = off;
SELECT rows FROM scan_rate('sb_rls', 'asis');
RESET row_security;
-- The raw read reports sizes and times only, as pg_relation_size does.
SELECT bytes = pg_relation_size('sb_rls') AS raw_read_ok FROM raw_read('sb_rls', cache => 'asis');
RESET ROLE;
-- Roles that see every row measure every row.
SET ROLE regress_sb_bypass;
SELECT rows FROM scan_rate('sb_rls', 'asis');
RESET ROLE;
SELECT rows FROM scan_rate('sb_rls', 'asis');
-- FORCE applies the policies to the owner too (the superuser still bypasses).
ALTER TABLE sb_rls OWNER TO regress_sb_reader;
ALTER TABLE sb_rls FORCE ROW LEVEL SECURITY;
SET ROLE regress_sb_reader;
SELECT rows FROM scan_rate('sb_rls', 'asis');
RESET ROLE;
ALTER TABLE sb_rls NO FORCE ROW LEVEL SECURITY;
SET ROLE regress_sb_reader;
SELECT rows FROM scan_rate('sb_rls', 'asis');
RESET ROLE;
SET ROLE regress_sb_bypass;
SELECT sb_sqlstate('SELECT scan_rate(''sb_rls'')') AS bypass;
SET ROLE regress_sb_reader;
SELECT sb_sqlstate('SELECT scan_rate(''sb_rls'')') AS owner;
ALTER TABLE sb_rls FORCE ROW LEVEL SECURITY;
SELECT sb_sqlstate('SELECT scan_rate(''sb_rls'')') AS forced_owner;
RESET ROLE;
DROP TABLE sb_rls;
REVOKE ALL ON FUNCTION raw_read(regclass, text, integer, integer),
	scan_rate(regclass, text, text, integer),
	scan_efficiency(regclass, text, integer, integer, float8, float8, float8, text, boolean, boolean, boolean)
	FROM regress_sb_reader, regress_sb_bypass;
DROP ROLE regress_sb_reader, regress_sb_bypass;

-- A foreign member has no files here: the parent is refused, by every
-- function, whether partitioned or an inheritance parent.
CREATE TABLE sb_fpart (id integer) PARTITION BY LIST (id);
CREATE TABLE sb_fpart_1 PARTITION OF sb_fpart FOR VALUES IN (1);
CREATE FOREIGN TABLE sb_fpart_2 PARTITION OF sb_fpart FOR VALUES IN (2)
	SERVER sb_files OPTIONS (filename '/dev/null');
INSERT INTO sb_fpart VALUES (1);
SELECT * FROM scan_rate('sb_fpart');
SELECT * FROM scan_efficiency('sb_fpart');
SELECT * FROM raw_read('sb_fpart');
SELECT * FROM raw_read_segments('sb_fpart');
-- Its other members can be measured one by one.
SELECT rows FROM scan_rate('sb_fpart_1', 'asis');
CREATE TABLE sb_finh (id integer);
CREATE FOREIGN TABLE sb_finh_child () INHERITS (sb_finh)
	SERVER sb_files OPTIONS (filename '/dev/null');
SELECT * FROM scan_rate('sb_finh');
SELECT sb_sqlstate('SELECT scan_rate(''sb_fpart'')');
DROP TABLE sb_fpart, sb_finh CASCADE;

-- A table access method other than heap is refused, as pgstattuple does,
-- named or as a member (heap2 is the heap's handler under another name).
CREATE ACCESS METHOD sb_heap2 TYPE TABLE HANDLER heap_tableam_handler;
CREATE TABLE sb_am (id integer) USING sb_heap2;
INSERT INTO sb_am VALUES (1);
SELECT * FROM scan_rate('sb_am');
SELECT * FROM raw_read('sb_am');
SELECT * FROM scan_efficiency('sb_am');
CREATE TABLE sb_ampart (id integer) PARTITION BY LIST (id);
CREATE TABLE sb_ampart_1 PARTITION OF sb_ampart FOR VALUES IN (1) USING sb_heap2;
SELECT * FROM scan_rate('sb_ampart');
SELECT * FROM raw_read_segments('sb_ampart');
SELECT sb_sqlstate('SELECT scan_rate(''sb_am'')');
-- Its indexes are files like any other.
CREATE INDEX sb_am_id ON sb_am (id);
SELECT segments FROM raw_read('sb_am_id', cache => 'asis');
DROP TABLE sb_am, sb_ampart;
DROP ACCESS METHOD sb_heap2;

-- The query is the select list alone: nothing may hide the FROM clause
-- that names the relation, and a blank or empty list is refused.
CREATE TABLE sb_inh (id integer);
CREATE TABLE sb_inh_child () INHERITS (sb_inh);
INSERT INTO sb_inh_child SELECT generate_series(1, 10);
SELECT rows FROM scan_rate('sb_inh', 'asis');
SELECT * FROM scan_rate('sb_inh', 'asis', 'count(1) from only sb_inh --');
SELECT * FROM scan_rate('sb_inh', 'asis', 'count(1) FROM sb_inh --');
SELECT * FROM scan_rate('sb_inh', 'asis', 'count(1) --');
SELECT * FROM scan_rate('sb_inh', 'asis', 'count(1) -- rows');
SELECT * FROM scan_rate('sb_inh', 'asis', '--');
SELECT * FROM scan_rate('sb_inh', 'asis', '/* nothing */');
SELECT * FROM scan_rate('sb_inh', 'asis', ' ');
SELECT * FROM scan_rate('sb_inh', 'asis', E'\t\n ');
SELECT * FROM scan_rate('sb_inh', 'asis', 'count(1) /*');
-- A comment inside the list is harmless.
SELECT query, rows FROM scan_rate('sb_inh', 'asis', 'count(1) /* rows */');
SELECT query, rows FROM scan_rate('sb_inh', 'asis', E'count(1) -- rows\n');
SELECT stmt, sb_sqlstate(stmt) FROM (VALUES
	('SELECT scan_rate(''sb_inh'', ''asis'', ''count(1) from only sb_inh --'')'),
	('SELECT scan_rate(''sb_inh'', ''asis'', '' '')'),
	('SELECT scan_rate(''sb_inh'', ''asis'', ''/**/'')')) v(stmt);
DROP TABLE sb_inh CASCADE;

-- The statement runs as in a read-only transaction: what such a transaction
-- refuses fails, what it allows gets through.  The select list runs with the
-- caller's own rights, so none of this is beyond what the caller could do
-- with a plain SELECT.
CREATE TABLE sb_written (x integer);
CREATE TEMP TABLE sb_temp_written (x integer);
-- Volatile writers, called through functions that claim to be stable.
CREATE FUNCTION sb_do_write(tab regclass, x integer) RETURNS integer LANGUAGE plpgsql
	AS $$ BEGIN EXECUTE format('INSERT INTO %s VALUES (%s)', tab, x); RETURN x; END $$;
CREATE FUNCTION sb_write_table(integer) RETURNS integer LANGUAGE sql STABLE
	AS $$ SELECT sb_do_write('sb_written', $1) $$;
CREATE FUNCTION sb_write_temp(integer) RETURNS integer LANGUAGE sql STABLE
	AS $$ SELECT sb_do_write('sb_temp_written', $1) $$;
CREATE FUNCTION sb_nextval(integer) RETURNS bigint LANGUAGE sql STABLE
	AS $$ SELECT nextval('sb_seq') + $1 $$;
CREATE FUNCTION sb_lo(integer) RETURNS integer LANGUAGE sql STABLE
	AS $$ SELECT lo_create(0)::integer * 0 + $1 $$;
CREATE FUNCTION sb_lock(integer) RETURNS integer LANGUAGE sql STABLE
	AS $$ SELECT CASE WHEN pg_try_advisory_lock(4711) THEN $1 ELSE $1 END $$;
CREATE TABLE sb_three AS SELECT generate_series(1, 3) AS id;
-- Refused: writes to permanent tables and sequences.
SELECT * FROM scan_rate('sb_three', 'asis', 'max(public.sb_write_table(id))');
SELECT count(*) AS permanent_rows FROM sb_written;
SELECT * FROM scan_rate('sb_three', 'asis', 'max(public.sb_nextval(id))');
-- Large objects: read-only transactions refuse their writers from 16 on
-- (25006), and let them through before.
SELECT sb_sqlstate('SELECT scan_rate(''sb_three'', ''asis'', ''max(public.sb_lo(id))'')')
	= CASE WHEN current_setting('server_version_num')::integer >= 160000
		THEN '25006' ELSE 'no error' END AS large_objects_as_documented;
SELECT count(lo_unlink(oid))
	= CASE WHEN current_setting('server_version_num')::integer >= 160000
		THEN 0 ELSE 3 END AS large_objects_as_documented
FROM pg_largeobject_metadata;
-- Not refused: temp tables, advisory locks.
SELECT rows FROM scan_rate('sb_three', 'asis', 'max(public.sb_write_temp(id))');
SELECT count(*) AS temp_rows FROM sb_temp_written;
SELECT rows FROM scan_rate('sb_three', 'asis', 'max(public.sb_lock(id))');
SELECT count(*) AS advisory_locks FROM pg_locks
	WHERE locktype = 'advisory' AND pid = pg_backend_pid();
SELECT pg_advisory_unlock_all();
DROP FUNCTION sb_write_table(integer), sb_write_temp(integer), sb_nextval(integer),
	sb_lo(integer), sb_lock(integer), sb_do_write(regclass, integer);
DROP TABLE sb_written, sb_temp_written, sb_three;
