--
-- Every function, type, table, view and column of the extension has a
-- comment in the catalog (\df+, \dT+ and \d+ show them), saying what it
-- holds and in which unit.  The list of objects without one must be empty.
--
CREATE TEMP VIEW scanbench_commentable AS
WITH members AS (
	SELECT classid, objid FROM pg_depend
	WHERE refclassid = 'pg_extension'::regclass AND deptype = 'e'
	  AND refobjid = (SELECT oid FROM pg_extension WHERE extname = 'scanbench')
), types AS (
	-- Types the extension made itself: not the array types nor the row
	-- types of its tables and views, which newer servers also record.
	SELECT t.oid, t.typrelid FROM members m JOIN pg_type t
	  ON m.classid = 'pg_type'::regclass AND t.oid = m.objid
	WHERE NOT EXISTS (SELECT 1 FROM pg_type a WHERE a.typarray = t.oid)
	  AND (t.typrelid = 0 OR
		   (SELECT relkind FROM pg_class c WHERE c.oid = t.typrelid) = 'c')
), relations AS (
	SELECT c.oid FROM members m JOIN pg_class c
	  ON m.classid = 'pg_class'::regclass AND c.oid = m.objid
	WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f')
), columned AS (
	-- a partition's columns are its parent's
	SELECT r.oid FROM relations r JOIN pg_class c ON c.oid = r.oid
	WHERE NOT c.relispartition
	UNION ALL
	SELECT typrelid FROM types WHERE typrelid <> 0
)
SELECT 'function' AS kind, 'pg_proc'::regclass AS classoid, objid AS objoid, 0 AS objsubid
FROM members WHERE classid = 'pg_proc'::regclass
UNION ALL
SELECT 'type', 'pg_type'::regclass, oid, 0 FROM types
UNION ALL
SELECT 'relation', 'pg_class'::regclass, oid, 0 FROM relations
UNION ALL
SELECT 'column', 'pg_class'::regclass, a.attrelid, a.attnum
FROM pg_attribute a JOIN columned c ON a.attrelid = c.oid
WHERE a.attnum > 0 AND NOT a.attisdropped;

-- The view sees the extension's objects of every kind.
SELECT kind, count(*) > 0 AS present
FROM scanbench_commentable GROUP BY kind ORDER BY kind;

SELECT pg_describe_object(classoid, objoid, objsubid) AS without_comment
FROM scanbench_commentable o
WHERE NOT EXISTS (SELECT 1 FROM pg_description d
				  WHERE d.classoid = o.classoid AND d.objoid = o.objoid
					AND d.objsubid = o.objsubid AND d.description ~ '\S')
ORDER BY 1;

DROP VIEW scanbench_commentable;

--
-- The comments speak of columns and arguments by the names they have now.
-- A word shaped like a column of the extension's vocabulary (a time *_s,
-- a rate *_mb_s, a share *_pct) must be the name of one of its columns or
-- arguments, and no comment uses a name 0.3 retired (t_read_s, t_cpu_s,
-- read_pct, fstype, or the t_read and t_cpu they were written as).  The
-- list must be empty.
--
WITH members AS (
	SELECT classid, objid FROM pg_depend
	WHERE refclassid = 'pg_extension'::regclass AND deptype = 'e'
	  AND refobjid = (SELECT oid FROM pg_extension WHERE extname = 'scanbench')
), names AS (
	SELECT a.attname::text AS name
	FROM members m JOIN pg_type t ON m.classid = 'pg_type'::regclass AND t.oid = m.objid
	JOIN pg_attribute a ON a.attrelid = t.typrelid AND a.attnum > 0
	UNION
	SELECT a.attname::text
	FROM members m JOIN pg_attribute a ON m.classid = 'pg_class'::regclass
	  AND a.attrelid = m.objid AND a.attnum > 0
	UNION
	SELECT unnest(p.proargnames)
	FROM members m JOIN pg_proc p ON m.classid = 'pg_proc'::regclass AND p.oid = m.objid
	UNION
	-- keys of the jsonb scan_efficiency_node returns, which its comment lists
	VALUES ('cached_pct'), ('node_s')
), comments AS (
	SELECT pg_describe_object(d.classoid, d.objoid, d.objsubid) AS object, d.description
	FROM pg_description d
	WHERE (d.classoid, d.objoid) IN (SELECT classid, objid FROM members)
	   OR (d.classoid = 'pg_class'::regclass AND d.objoid IN
		   (SELECT t.typrelid FROM members m JOIN pg_type t
			  ON m.classid = 'pg_type'::regclass AND t.oid = m.objid))
)
SELECT c.object, w.word AS unknown_name
FROM comments c,
	 LATERAL (SELECT DISTINCT (regexp_matches(c.description,
				'\m([a-z][a-z0-9]*(?:_[a-z0-9]+)*_(?:s|pct)|t_read|t_cpu|fstype)\M', 'g'))[1] AS word) w
WHERE w.word NOT IN (SELECT name FROM names WHERE name IS NOT NULL)
   OR w.word IN ('t_read_s', 't_cpu_s', 'read_pct', 'fstype', 't_read', 't_cpu')
ORDER BY 1, 2;
