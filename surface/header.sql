/* scanbench--@VERSION@.sql: the whole SQL surface of version @VERSION@ */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "CREATE EXTENSION scanbench" to load this file. \quit

--
-- This file is the current surface, by concern; a fresh CREATE EXTENSION
-- runs it.  A database of an older version gets the same objects through
-- the upgrade steps (released/scanbench--0.1.sql, then
-- scanbench--0.1--0.2.sql, scanbench--0.2--0.3.sql and
-- scanbench--0.3--0.4.0.sql, then the unreleased step make writes from
-- surface/upgrade/), which never change once released;
-- t/080_upgrade.pl proves that both ways give the same catalog.
--
-- Result rows are named composite types, so that a history table can hold
-- them as they are (CREATE TABLE h OF scan_efficiency_result, or a column
-- of that type).  Rates are in MB/s with MB = 10^6 bytes, as lmdd prints;
-- percentages are 0 to 100; times are wall-clock seconds.  One order of
-- arguments: rel, then cache, then the rest.
--
-- Privileges stand next to each function: whatever reads server files,
-- /proc or /sys, evicts caches or writes scratch files is REVOKEd from
-- PUBLIC and is the superuser's unless granted (doc/safety.md).  The
-- measuring functions are CALLED ON NULL INPUT: the library refuses a NULL
-- by the argument's name (SQLSTATE 22004) before it opens anything.
--

