--
-- The SQL surface: every function, its arguments and its result.
--
SELECT p.proname, pg_get_function_arguments(p.oid) AS arguments,
       pg_get_function_result(p.oid) AS result, p.proisstrict, p.provolatile
FROM pg_proc p JOIN pg_depend d ON d.objid = p.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'scanbench'
ORDER BY p.proname, pg_get_function_arguments(p.oid);

-- Result types only: 18 also records a table's or view's row type as a
-- member of the extension.
SELECT t.typname, string_agg(a.attname || ' ' || format_type(a.atttypid, a.atttypmod), ', ' ORDER BY a.attnum) AS columns
FROM pg_type t JOIN pg_attribute a ON a.attrelid = t.typrelid AND a.attnum > 0 AND NOT a.attisdropped
JOIN pg_class c ON c.oid = t.typrelid AND c.relkind = 'c'
JOIN pg_depend d ON d.objid = t.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'scanbench'
GROUP BY t.typname ORDER BY t.typname;

-- Nobody but the superuser may run them until granted.
SELECT p.proname, p.proacl
FROM pg_proc p JOIN pg_depend d ON d.objid = p.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'scanbench'
ORDER BY p.proname;

-- Tables the other tests share.  Autovacuum stays off them: the INSERT's
-- counts can reach the statistics after VACUUM has reset them, and an
-- autovacuum worker then reads the table in the middle of a test that
-- checks its blocks were evicted (a cold scan found 5 % of them resident).
CREATE TABLE sb_t (id integer, pad text) WITH (autovacuum_enabled = false);
INSERT INTO sb_t SELECT g, repeat(md5(g::text), 3) FROM generate_series(1, 20000) g;
CREATE INDEX sb_t_id ON sb_t (id);
CREATE TABLE sb_empty (id integer);
CREATE VIEW sb_view AS SELECT * FROM sb_t;
CREATE TYPE sb_comp AS (a integer);
CREATE EXTENSION file_fdw;
CREATE SERVER sb_files FOREIGN DATA WRAPPER file_fdw;
CREATE FOREIGN TABLE sb_foreign (a integer) SERVER sb_files OPTIONS (filename '/dev/null');
CREATE SEQUENCE sb_seq;
CREATE MATERIALIZED VIEW sb_mv WITH (autovacuum_enabled = false) AS SELECT * FROM sb_t WHERE id <= 1000;
CREATE UNLOGGED TABLE sb_unlogged WITH (autovacuum_enabled = false) AS SELECT * FROM sb_t WHERE id <= 3000;
CREATE TABLE sb_part (id integer, pad text) PARTITION BY RANGE (id);
CREATE TABLE sb_part_1 PARTITION OF sb_part FOR VALUES FROM (1) TO (10001) WITH (autovacuum_enabled = false);
CREATE TABLE sb_part_2 PARTITION OF sb_part FOR VALUES FROM (10001) TO (20001) WITH (autovacuum_enabled = false);
INSERT INTO sb_part SELECT * FROM sb_t;
CREATE TABLE sb_part_empty (id integer) PARTITION BY LIST (id);
VACUUM (FREEZE, ANALYZE) sb_t, sb_mv, sb_unlogged, sb_part;

-- The SQLSTATE of a statement's error, for tests of error codes.
CREATE FUNCTION sb_sqlstate(stmt text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE stmt;
	RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
	RETURN SQLSTATE;
END $$;
