/* scanbench--0.4.0--0.5.0.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION scanbench UPDATE TO '0.5.0'" to load this file. \quit
