/*
 * db.c: connecting and running statements, with errors logged the one way.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader.h"

PGconn *
connect_db(const Options *opt)
{
	const char *keywords[] = {"host", "port", "user", "dbname",
	"fallback_application_name", NULL};
	const char *values[] = {opt->host, opt->port, opt->user, opt->dbname,
	LOADER_NAME, NULL};
	PGconn	   *conn = PQconnectdbParams(keywords, values, 1);
	PGresult   *res;

	if (conn == NULL)
	{
		log_error("out of memory");
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
