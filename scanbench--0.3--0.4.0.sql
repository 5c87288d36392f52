/* scanbench--0.3--0.4.0.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION scanbench UPDATE TO '0.4.0'" to load this file. \quit

--
-- Versions are MAJOR.MINOR.PATCH from here on, as PGXN wants them; 0.3 is
-- followed by 0.4.0.
--
