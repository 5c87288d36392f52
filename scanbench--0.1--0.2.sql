/* scanbench--0.1--0.2.sql */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "ALTER EXTENSION scanbench UPDATE TO '0.2'" to load this file. \quit
