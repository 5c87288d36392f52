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
	SELECT oid FROM relations
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
