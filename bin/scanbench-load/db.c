/*
 * db.c: connecting and running statements, with errors logged the one way.
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

/*
 * Connect, prompting for a password first with -W, or when the server asks
 * for one (unless -w), as psql does.
 */
PGconn *
connect_db(const Options *opt)
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
	return conn;
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
