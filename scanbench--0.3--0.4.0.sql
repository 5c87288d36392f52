/* scanbench--0.3--0.4.0.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION scanbench UPDATE TO '0.4.0'" to load this file. \quit

--
-- Versions are MAJOR.MINOR.PATCH from here on, as PGXN wants them; 0.3 is
-- followed by 0.4.0.
--

--
-- Reads at depth: random_read keeps depth reads in flight (fio --iodepth),
-- and says how many it kept.  A changed argument list is a new function:
-- EXECUTE granted on the old one is to be granted again.
--
ALTER TYPE random_read_result ADD ATTRIBUTE depth integer CASCADE;
COMMENT ON TYPE random_read_result IS 'random_read: random reads of a relation''s own files, depth of them in flight';
COMMENT ON COLUMN random_read_result.depth IS 'reads kept in flight at once (fio''s iodepth), each by a thread of its own; 1: one at a time';

DROP FUNCTION random_read(regclass, text, integer, integer);

CREATE FUNCTION random_read(rel regclass,
							cache text DEFAULT 'cold',
							reads integer DEFAULT 10000,
							block_size integer DEFAULT 8192,
							depth integer DEFAULT 1)
RETURNS random_read_result
AS 'MODULE_PATHNAME', 'random_read'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION random_read(regclass, text, integer, integer, integer) IS
'pgiosim-style random reads of block_size bytes at aligned offsets in the relation''s segment files, depth of them in flight (1: one at a time); cache: cold, warm, direct or asis';

REVOKE ALL ON FUNCTION random_read(regclass, text, integer, integer, integer) FROM PUBLIC;

ALTER TYPE raw_read_result ADD ATTRIBUTE depth integer CASCADE;
COMMENT ON COLUMN raw_read_result.depth IS 'reads kept in flight at once (fio''s iodepth), each by a thread of its own; 1: one read() after another, as dd does';

DROP FUNCTION raw_read(regclass, text, integer);

CREATE FUNCTION raw_read(rel regclass,
						 cache text DEFAULT 'cold',
						 block_size integer DEFAULT 8192,
						 depth integer DEFAULT 1)
RETURNS raw_read_result
AS 'MODULE_PATHNAME', 'raw_read'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION raw_read(regclass, text, integer, integer) IS
'sequential read of the relation''s segment files, one read() of block_size bytes after another as dd/lmdd do, or depth of them in flight as fio does at that iodepth (the device''s speed: cache => ''direct'', block_size => 1048576, depth => 32); cache: cold (evicted from the page cache first), warm (one untimed pass first), direct (O_DIRECT) or asis';

REVOKE ALL ON FUNCTION raw_read(regclass, text, integer, integer) FROM PUBLIC;
