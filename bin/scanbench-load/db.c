/*
 * db.c: connecting and running statements, with errors logged the one way.
 *
 * Why every session's path is pinned.  The loader connects as whoever runs
 * it, often a superuser, to databases where other roles may be able to
 * CREATE in a schema on the path (public, up to PostgreSQL 14 and in
 * databases upgraded from it).  A function, aggregate, operator or type
 * such a role makes there is found by a name left to the path: an
 * exact-type match (an operator over text and integer) beats pg_catalog's
 * polymorphic or casting one, a copy of pg_catalog's own wins where public
 * comes before pg_catalog (which a database's owner can set), a domain
 * named date runs its CHECK on every row; its code would run as the
 * loader's login.  So every function, operator and type in the loader's
 * SQL is written pg_catalog.X, OPERATOR(pg_catalog.X) or of the
 * extension's schema (read from the catalog, quoted once), no construct
 * that looks an operator up by the path is used (LIKE, IN (...), NULLIF,
 * BETWEEN, IS DISTINCT FROM, CASE x WHEN), and right after connecting each
 * session's path is set to pg_catalog alone, pg_temp last: pg_temp would
 * otherwise be searched first for relations and types, where any session
 * can make them, and functions and operators are never looked up in it.
 *
 * The one thing the user's own path is for, which table --table names, is
 * asked before the control connection's path is pinned
 * (connect_db_for_table): from then on the table is named with its schema.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include <libpq-fe.h>

#include "cli.h"
#include "db.h"
#include "loader.h"
#include "options.h"
#include "progress.h"

/* The password, once asked for, serves every later connection. */
static char *password;

/* "Password for user NAME: ", as psql asks; cli.c reads it without echo. */
static char *
ask_password(const char *user)
{
	char		prompt[128];

	snprintf(prompt, sizeof(prompt), "Password for user %s: ", user ? user : "");
	return prompt_password(prompt);
}

static PGconn *
try_connect(const Options *opt)
{
	const char *keywords[] = {"host", "port", "user", "dbname", "password",
	"fallback_application_name", NULL};
	const char *values[] = {opt->host, opt->port, opt->user, opt->dbname, password,
	LOADER_NAME, NULL};

	return PQconnectdbParams(keywords, values, 1);
}

/* The session's path set to pg_catalog alone, pg_temp last (above). */
static bool
pin_search_path(PGconn *conn)
{
	PGresult   *res = PQexec(conn, "SELECT pg_catalog.set_config('search_path', "
							 "'pg_catalog, pg_temp', false)");
	bool		ok = PQresultStatus(res) == PGRES_TUPLES_OK;

	if (!ok)
		log_error("could not set the session's search_path: %s", chomp(PQerrorMessage(conn)));
	PQclear(res);
	return ok;
}

/*
 * The schema a table's name means under the session's own path, quoted:
 * where a relation of that name is found, else where CREATE TABLE would
 * make it (current_schema()).  *schema is NULL if neither; false (logged)
 * on failure.
 */
static bool
table_schema(PGconn *conn, const char *table, char **schema)
{
	const char *params[1] = {table};
	PGresult   *res = PQexecParams(conn,
								   "SELECT pg_catalog.quote_ident(coalesce("
								   "(SELECT n.nspname FROM pg_catalog.pg_class c "
								   "JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) c.relnamespace "
								   "WHERE c.oid OPERATOR(pg_catalog.=) "
								   "pg_catalog.to_regclass(pg_catalog.quote_ident($1::pg_catalog.text))), "
								   "pg_catalog.current_schema())::pg_catalog.text)",
								   1, NULL, params, NULL, NULL, 0);
	bool		ok = PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1;

	*schema = NULL;
	if (!ok)
		log_error("could not look up table \"%s\": %s", table, chomp(PQerrorMessage(conn)));
	else if (!PQgetisnull(res, 0, 0) && (*schema = strdup(PQgetvalue(res, 0, 0))) == NULL)
	{
		log_error("out of memory");
		ok = false;
	}
	PQclear(res);
	return ok;
}

/*
 * Connect, prompting for a password first with -W, or when the server asks
 * for one (unless -w), as psql does; then, with table given, the schema
 * its name means under the user's own path (table_schema); then the
 * session's path pinned.
 */
static PGconn *
connect_pinned(const Options *opt, const char *table, char **schema)
{
	PGconn	   *conn;
	PGresult   *res;

	if (opt->password_prompt > 0 && password == NULL &&
		(password = ask_password(opt->user)) == NULL)
	{
		log_error("out of memory");
		return NULL;
	}
	conn = try_connect(opt);
	if (conn && PQstatus(conn) == CONNECTION_BAD && PQconnectionNeedsPassword(conn) &&
		password == NULL && opt->password_prompt >= 0)
	{
		char	   *user = strdup(PQuser(conn));

		PQfinish(conn);
		password = ask_password(user);
		free(user);
		conn = password ? try_connect(opt) : NULL;
	}
	if (conn == NULL)
	{
		log_error("out of memory");
		PQfinish(conn);
		return NULL;
	}
	if (PQstatus(conn) != CONNECTION_OK)
	{
		log_error("%s", chomp(PQerrorMessage(conn)));
		PQfinish(conn);
		return NULL;
	}
	/* "table does not exist, skipping" and the like are not news here */
	res = PQexec(conn, "SET client_min_messages = warning");
	PQclear(res);
	if ((table && !table_schema(conn, table, schema)) || !pin_search_path(conn))
	{
		PQfinish(conn);
		return NULL;
	}
	return conn;
}

/* A connection whose path is pinned (above). */
PGconn *
connect_db(const Options *opt)
{
	return connect_pinned(opt, NULL, NULL);
}

/*
 * The control connection: connect_db, and the schema the table's name
 * means to the user, asked before the path is pinned (*schema: quoted, or
 * NULL if the name means no table and no schema is selected to make it in).
 */
PGconn *
connect_db_for_table(const Options *opt, const char *table, char **schema)
{
	return connect_pinned(opt, table, schema);
}

/*
 * Connect again after the server went away (a restart), trying for up to
 * the given seconds; NULL if it did not come back.  Quiet until then.
 */
PGconn *
reconnect_db(const Options *opt, double seconds)
{
	double		deadline = now_s() + seconds;

	for (;;)
	{
		PGconn	   *conn = try_connect(opt);
		struct timespec nap = {0, 250 * 1000 * 1000};

		if (conn && PQstatus(conn) == CONNECTION_OK)
		{
			PGresult   *res = PQexec(conn, "SET client_min_messages = warning");

			PQclear(res);
			if (pin_search_path(conn))
				return conn;
		}
		if (now_s() >= deadline)
		{
			log_error("%s", conn ? chomp(PQerrorMessage(conn)) : "out of memory");
			PQfinish(conn);
			return NULL;
		}
		PQfinish(conn);
		nanosleep(&nap, NULL);
	}
}

/* Run a statement; on failure, log "<what> failed: ..." unless what is NULL. */
bool
run_sql(PGconn *conn, const char *sql, const char *what)
{
	PGresult   *res = PQexec(conn, sql);
	ExecStatusType st = PQresultStatus(res);
	bool		ok = st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK;

	if (!ok && what)
		log_error("%s failed: %s", what, chomp(PQerrorMessage(conn)));
	PQclear(res);
	return ok;
}

/*
 * A statement of the clean-up after a failure: run it again if a cancel
 * request sent for the failure arrives late and cancels it instead.
 */
bool
run_cleanup_sql(PGconn *conn, const char *sql)
{
	for (int attempt = 0; attempt < 3; attempt++)
	{
		PGresult   *res = PQexec(conn, sql);
		ExecStatusType st = PQresultStatus(res);
		const char *state = PQresultErrorField(res, PG_DIAG_SQLSTATE);
		bool		cancelled = state && strcmp(state, "57014") == 0;

		PQclear(res);
		if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK)
			return true;
		if (!cancelled)
			return false;
		/* a cancelled statement in a transaction block leaves it aborted */
		if (PQtransactionStatus(conn) == PQTRANS_INERROR)
		{
			res = PQexec(conn, "ROLLBACK");
			PQclear(res);
		}
	}
	return false;
}

/* One-value query with the quoted table name as $1; NULL on error. */
char *
query_value(PGconn *conn, const char *sql, const char *qname)
{
	const char *params[1] = {qname};
	PGresult   *res = PQexecParams(conn, sql, qname ? 1 : 0, NULL,
								   qname ? params : NULL, NULL, NULL, 0);
	char	   *val = NULL;

	if (PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1 &&
		!PQgetisnull(res, 0, 0))
		val = strdup(PQgetvalue(res, 0, 0));
	else if (PQresultStatus(res) != PGRES_TUPLES_OK)
		log_error("%s", chomp(PQerrorMessage(conn)));
	PQclear(res);
	return val;
}

/*
 * A statement made of the quoted table name and fixed words; the result
 * lives until the next call.  Only the main thread builds statements.
 */
char *
sqlf(const char *fmt,...)
{
	static char buf[4096];
	va_list		ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return buf;
}

/* A query's rows with the quoted table name as $1, or NULL (logged). */
PGresult *
query_rows(PGconn *conn, const char *sql, const char *param)
{
	const char *params[1] = {param};
	PGresult   *res = PQexecParams(conn, sql, param ? 1 : 0, NULL, param ? params : NULL,
								   NULL, NULL, 0);

	if (PQresultStatus(res) != PGRES_TUPLES_OK)
	{
		log_error("%s", chomp(PQerrorMessage(conn)));
		PQclear(res);
		return NULL;
	}
	return res;
}
