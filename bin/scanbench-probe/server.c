/*
 * server.c: the connection, and what the server is and allows this role.
 *
 * The table is looked up on the role's own search_path, as psql would
 * find it; from then on the session's search_path is pg_catalog, pg_temp,
 * and every query names its schema and its operators' too, so that
 * nothing a less privileged role planted in a schema of the path runs in
 * this session.  The table is named by the quoted name the server gave
 * for its OID, never by the text the user typed.
 *
 * What is optional (track_io_timing, pg_stat_io, pg_buffercache,
 * pg_prewarm, the system identifier) is asked for by privilege first, so
 * that a role without it leaves no error in the server's log and gets the
 * figures it can have.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "cli.h"
#include "options.h"
#include "program.h"
#include "server.h"
#include "xalloc.h"

/*
 * A connection: to the server measured (use_options: -h, -p, -U and the
 * database or conninfo), or to conninfo alone (the central history).
 */
PGconn *
server_connect(const char *conninfo, const Options *opt, const char *password,
			   bool use_options, char **error)
{
	const char *keywords[8];
	const char *values[8];
	char		ct[32];
	int			n = 0;
	PGconn	   *conn;

	snprintf(ct, sizeof(ct), "%d", (int) ceil(opt->connect_timeout));
	if (use_options)
	{
		keywords[n] = "host";
		values[n++] = opt->host;
		keywords[n] = "port";
		values[n++] = opt->port;
		keywords[n] = "user";
		values[n++] = opt->username;
	}
	keywords[n] = "password";
	values[n++] = password;
	keywords[n] = "connect_timeout";
	values[n++] = ct;
	keywords[n] = "fallback_application_name";
	values[n++] = PROBE_NAME;
	/* Last: a conninfo given as the database overrides the options above. */
	keywords[n] = "dbname";
	values[n++] = conninfo;
	keywords[n] = NULL;
	values[n] = NULL;
	conn = PQconnectdbParams(keywords, values, 1);
	if (conn == NULL)
	{
		*error = xstrdup("out of memory");
		return NULL;
	}
	if (PQstatus(conn) != CONNECTION_OK)
	{
		*error = xstrdup(one_line(PQerrorMessage(conn)));
		PQfinish(conn);
		return NULL;
	}
	return conn;
}

/*
 * What went wrong, on one line: the server's message alone (its position
 * in the query is no use to a reader of the report or the history), or
 * libpq's when the server said nothing (a connection lost).  malloc'd.
 */
char *
server_error(PGconn *conn, const PGresult *r)
{
	const char *primary = r ? PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY) : NULL;

	return xstrdup(primary ? one_line(primary) : one_line(PQerrorMessage(conn)));
}

/* A query whose result has rows or none; NULL (said why) on an error. */
PGresult *
server_exec(PGconn *conn, const char *sql, int nparams, const char *const *params, char **error)
{
	PGresult   *r = PQexecParams(conn, sql, nparams, NULL, params, NULL, NULL, 0);
	ExecStatusType st = PQresultStatus(r);

	if (st != PGRES_TUPLES_OK && st != PGRES_COMMAND_OK)
	{
		*error = server_error(conn, r);
		PQclear(r);
		return NULL;
	}
	return r;
}

/*
 * The session as every later query needs it: search_path pinned, and the
 * server's own limits on a statement and a lock wait, so that a client
 * that dies leaves nothing running for long.
 */
bool
server_pin(PGconn *conn, const Options *opt, char **error)
{
	char		ms[32],
				lock_ms[32];
	const char *params[2] = {ms, lock_ms};
	PGresult   *r;

	snprintf(ms, sizeof(ms), "%.0f", opt->timeout * 1000.0);
	snprintf(lock_ms, sizeof(lock_ms), "%.0f", opt->lock_timeout * 1000.0);
	r = server_exec(conn,
					"SELECT pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', false),\n"
					"       pg_catalog.set_config('statement_timeout', $1, false),\n"
					"       pg_catalog.set_config('lock_timeout', $2, false)",
					2, params, error);
	if (r == NULL)
		return false;
	PQclear(r);
	return true;
}

/*
 * The table, looked up on the role's search_path (before server_pin):
 * one that can be scanned, with the right to read it.
 */
bool
server_find_table(PGconn *conn, const char *name, TableInfo *t, char **error)
{
	const char *params[1] = {name};
	PGresult   *r;
	char		kind;

	r = server_exec(conn,
					"SELECT c.oid, n.nspname, c.relname, c.relkind, c.relpersistence,\n"
					"       pg_catalog.quote_ident(n.nspname) OPERATOR(pg_catalog.||) '.'\n"
					"         OPERATOR(pg_catalog.||) pg_catalog.quote_ident(c.relname),\n"
					"       pg_catalog.has_table_privilege(c.oid, 'SELECT'),\n"
					"       CURRENT_USER\n"
					"FROM pg_catalog.pg_class c\n"
					"JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) c.relnamespace\n"
					"WHERE c.oid OPERATOR(pg_catalog.=) pg_catalog.to_regclass($1::pg_catalog.text)",
					1, params, error);
	if (r == NULL)
	{
		char	   *e = xprintf("could not look up table \"%s\": %s", name, *error);

		free(*error);
		*error = e;
		return false;
	}
	if (PQntuples(r) != 1)
	{
		*error = xprintf("table \"%s\" does not exist (or is not on the search_path of role \"%s\")",
						 name, PQuser(conn));
		PQclear(r);
		return false;
	}
	kind = PQgetvalue(r, 0, 3)[0];
	t->oid = xstrdup(PQgetvalue(r, 0, 0));
	t->schema = xstrdup(PQgetvalue(r, 0, 1));
	t->name = xstrdup(PQgetvalue(r, 0, 2));
	t->qualified = xstrdup(PQgetvalue(r, 0, 5));
	if (kind == 'p')
		*error = xprintf("\"%s\" is a partitioned table, which holds no rows itself: give one of its partitions",
						 t->qualified);
	else if (kind != 'r' && kind != 'm')
		*error = xprintf("\"%s\" is not a table or materialized view", t->qualified);
	else if (PQgetvalue(r, 0, 4)[0] == 't')
		*error = xprintf("\"%s\" is a temporary table, which only its own session can read", t->qualified);
	else if (strcmp(PQgetvalue(r, 0, 6), "t") != 0)
		*error = xprintf("permission denied for table %s: role \"%s\" needs SELECT on it",
						 t->qualified, PQgetvalue(r, 0, 7));
	PQclear(r);
	return *error == NULL;
}

/* The server's facts, one query; then what this role may use. */
bool
server_describe(PGconn *conn, ServerInfo *s, char **error)
{
	PGresult   *r;
	char	   *sql;

	r = server_exec(conn,
					"SELECT pg_catalog.current_setting('server_version_num')::pg_catalog.int4,\n"
					"       pg_catalog.current_setting('server_version'),\n"
					"       pg_catalog.current_setting('block_size')::pg_catalog.int4,\n"
					"       pg_catalog.pg_size_bytes(pg_catalog.current_setting('shared_buffers')),\n"
					"       pg_catalog.pg_is_in_recovery(),\n"
					"       pg_catalog.current_setting('track_io_timing'),\n"
					"       pg_catalog.current_setting('io_method', true),\n"
					"       pg_catalog.pg_size_bytes(pg_catalog.current_setting('io_combine_limit', true)),\n"
					"       (SELECT pg_catalog.jsonb_object_agg(g.name, pg_catalog.current_setting(g.name))\n"
					"          FROM pg_catalog.pg_settings g\n"
					"         WHERE g.name OPERATOR(pg_catalog.=) ANY ('{io_method,io_workers,io_combine_limit,"
					"effective_io_concurrency,track_io_timing,shared_buffers}'::pg_catalog.text[])),\n"
					"       pg_catalog.current_database(), CURRENT_USER",
					0, NULL, error);
	if (r == NULL)
		return false;
	s->version_num = atoi(PQgetvalue(r, 0, 0));
	s->major = s->version_num / 10000;
	s->version = xstrdup(PQgetvalue(r, 0, 1));
	s->block_size = atoi(PQgetvalue(r, 0, 2));
	s->shared_buffers_bytes = strtod(PQgetvalue(r, 0, 3), NULL);
	s->in_recovery = strcmp(PQgetvalue(r, 0, 4), "t") == 0;
	s->io_timing_on = strcmp(PQgetvalue(r, 0, 5), "on") == 0;
	s->io_method = PQgetisnull(r, 0, 6) ? NULL : xstrdup(PQgetvalue(r, 0, 6));
	s->io_combine_bytes = PQgetisnull(r, 0, 7) ? 0 : strtod(PQgetvalue(r, 0, 7), NULL);
	s->settings_json = xstrdup(PQgetvalue(r, 0, 8));
	s->dbname = xstrdup(PQgetvalue(r, 0, 9));
	s->user = xstrdup(PQgetvalue(r, 0, 10));
	s->host = xstrdup(PQhost(conn) ? PQhost(conn) : "");
	s->port = xstrdup(PQport(conn) ? PQport(conn) : "");
	PQclear(r);
	if (s->major < 13)
	{
		*error = xprintf("PostgreSQL %s is older than 13, which this program does not measure", s->version);
		return false;
	}

	/*
	 * What this role may use.  has_parameter_privilege is 15's; before,
	 * only a superuser sets track_io_timing.
	 */
	sql = xprintf(
		"SELECT %s,\n"
		"       pg_catalog.to_regclass('pg_catalog.pg_stat_io') IS NOT NULL,\n"
		"       pg_catalog.to_regprocedure('pg_catalog.pg_stat_get_backend_io(integer)') IS NOT NULL,\n"
		"       EXISTS (SELECT 1 FROM pg_catalog.pg_attribute a\n"
		"                WHERE a.attrelid OPERATOR(pg_catalog.=) pg_catalog.to_regclass('pg_catalog.pg_stat_io')\n"
		"                  AND a.attname OPERATOR(pg_catalog.=) 'read_bytes'),\n"
		"       coalesce(pg_catalog.has_function_privilege(\n"
		"                  pg_catalog.to_regprocedure('pg_catalog.pg_stat_force_next_flush()'), 'EXECUTE'), false),\n"
		"       CASE WHEN pg_catalog.has_function_privilege('pg_catalog.pg_control_system()', 'EXECUTE')\n"
		"            THEN (SELECT c.system_identifier::pg_catalog.text FROM pg_catalog.pg_control_system() c) END,\n"
		"       (SELECT pg_catalog.quote_ident(n.nspname) FROM pg_catalog.pg_extension e\n"
		"          JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) e.extnamespace\n"
		"         WHERE e.extname OPERATOR(pg_catalog.=) 'pg_buffercache'),\n"
		"       (SELECT pg_catalog.has_table_privilege(pg_catalog.format('%%I.pg_buffercache', n.nspname), 'SELECT')\n"
		"               AND pg_catalog.has_function_privilege(pg_catalog.format('%%I.pg_buffercache_pages()', n.nspname), 'EXECUTE')\n"
		"          FROM pg_catalog.pg_extension e\n"
		"          JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) e.extnamespace\n"
		"         WHERE e.extname OPERATOR(pg_catalog.=) 'pg_buffercache'),\n"
		"       (SELECT pg_catalog.quote_ident(n.nspname) FROM pg_catalog.pg_extension e\n"
		"          JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) e.extnamespace\n"
		"         WHERE e.extname OPERATOR(pg_catalog.=) 'pg_prewarm'),\n"
		"       (SELECT pg_catalog.has_function_privilege(\n"
		"                 pg_catalog.format('%%I.pg_prewarm(pg_catalog.regclass, pg_catalog.text, pg_catalog.text, pg_catalog.int8, pg_catalog.int8)', n.nspname),\n"
		"                 'EXECUTE')\n"
		"          FROM pg_catalog.pg_extension e\n"
		"          JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) e.extnamespace\n"
		"         WHERE e.extname OPERATOR(pg_catalog.=) 'pg_prewarm')",
		s->version_num >= 150000
		? "pg_catalog.has_parameter_privilege('track_io_timing', 'SET')"
		: "(SELECT r.rolsuper FROM pg_catalog.pg_roles r WHERE r.rolname OPERATOR(pg_catalog.=) CURRENT_USER)");
	r = server_exec(conn, sql, 0, NULL, error);
	free(sql);
	if (r == NULL)
		return false;
	s->io_timing_settable = strcmp(PQgetvalue(r, 0, 0), "t") == 0;
	s->stat_io = strcmp(PQgetvalue(r, 0, 1), "t") == 0;
	s->stat_io_backend = strcmp(PQgetvalue(r, 0, 2), "t") == 0;
	s->stat_io_bytes = strcmp(PQgetvalue(r, 0, 3), "t") == 0;
	s->force_flush = strcmp(PQgetvalue(r, 0, 4), "t") == 0;
	s->system_identifier = PQgetisnull(r, 0, 5) ? NULL : xstrdup(PQgetvalue(r, 0, 5));
	if (PQgetisnull(r, 0, 6))
		s->buffercache_why = xstrdup("not installed");
	else if (strcmp(PQgetvalue(r, 0, 7), "t") != 0)
		s->buffercache_why = xprintf("not readable by role \"%s\" (pg_monitor may read it)", s->user);
	else
		s->buffercache = xstrdup(PQgetvalue(r, 0, 6));
	if (PQgetisnull(r, 0, 8))
		s->prewarm_why = xstrdup("not installed");
	else if (strcmp(PQgetvalue(r, 0, 9), "t") != 0)
		s->prewarm_why = xprintf("role \"%s\" may not run it", s->user);
	else
		s->prewarm = xstrdup(PQgetvalue(r, 0, 8));
	PQclear(r);
	return true;
}
