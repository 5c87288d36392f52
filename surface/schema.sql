--
-- ==== Schema of the internal helpers ====
--
-- The public surface is what users call: the helpers of the check, the
-- judge and the chart live in a schema of their own, scanbench_internal,
-- so that \df in the extension's schema lists only the functions the
-- documentation describes.  An extension with members in two schemas
-- cannot be moved by ALTER EXTENSION SET SCHEMA, so scanbench is not
-- relocatable (scanbench.control); its schema is chosen at CREATE
-- EXTENSION ... SCHEMA and its scripts name it as @extschema@.
--
CREATE SCHEMA scanbench_internal;
COMMENT ON SCHEMA scanbench_internal IS
'helpers of scanbench''s check, judge and chart; not called by users';

-- USAGE lets a role that was granted efficiency_check or the chart reach
-- the helpers; each function's own EXECUTE grant still decides.
GRANT USAGE ON SCHEMA scanbench_internal TO PUBLIC;

