/* scanbench--0.2--0.3.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION scanbench UPDATE TO '0.3'" to load this file. \quit
