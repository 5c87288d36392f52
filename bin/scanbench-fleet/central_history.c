/*
 * central_history.c: the central history, the one place every server's
 * runs are kept (standbys' too, which cannot write their own).
 *
 * It is the scanbench extension's scan_history in the database --history
 * names, of this program's version: checked before any server is
 * measured, so that a night's measurements are never taken to be lost.
 * The rows go in through one COPY, one transaction: all of a run's rows or
 * none.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "central_history.h"
#include "cli.h"
#include "db.h"
#include "fleet.h"
#include "measure.h"
#include "options.h"
#include "servers.h"
#include "xalloc.h"

static char *history_schema;

static PGresult *
exec_ok(PGconn *conn, const char *sql, int nparams, const char *const *params,
		ExecStatusType want)
{
	PGresult   *r = PQexecParams(conn, sql, nparams, NULL, params, NULL, NULL, 0);

	if (PQresultStatus(r) != want)
	{
		log_error("central history: %s", one_line(PQerrorMessage(conn)));
		PQclear(r);
		return NULL;
	}
	return r;
}

/* The central history's schema, quoted (once history_connect succeeded). */
const char *
history_schema_name(void)
{
	return history_schema;
}

/* The central history's connection, checked; NULL (said why) if unusable. */
PGconn *
history_connect(const Options *opt)
{
	const char *keywords[] = {"dbname", "fallback_application_name", "password",
	"connect_timeout", NULL};
	char		ct[32];
	const char *values[5];
	PGconn	   *conn;
	PGresult   *r;

	snprintf(ct, sizeof(ct), "%d", (int) ceil(opt->connect_timeout));
	values[0] = opt->history;
	values[1] = FLEET_NAME;
	values[2] = fleet_password(opt);
	values[3] = ct;
	values[4] = NULL;
	conn = PQconnectdbParams(keywords, values, 1);
	if (PQstatus(conn) != CONNECTION_OK)
	{
		log_error("could not connect to the central history: %s", one_line(PQerrorMessage(conn)));
		PQfinish(conn);
		return NULL;
	}
	/* Nothing here needs the user's path: pinned at once (measure.c). */
	r = exec_ok(conn, pinned_path_query(), 0, NULL, PGRES_TUPLES_OK);
	if (r == NULL)
	{
		PQfinish(conn);
		return NULL;
	}
	PQclear(r);
	r = exec_ok(conn,
				"SELECT pg_catalog.quote_ident(n.nspname::pg_catalog.text), e.extversion,\n"
				"       pg_catalog.pg_is_in_recovery(),\n"
				"       (SELECT pg_catalog.count(*) FROM pg_catalog.pg_attribute a\n"
				"         WHERE a.attrelid OPERATOR(pg_catalog.=)\n"
				"               pg_catalog.format('%I.scan_history', n.nspname)::pg_catalog.regclass\n"
				"           AND a.attname OPERATOR(pg_catalog.=) ANY ('{server,system_identifier,server_host,"
				"server_port,server_role,tags,reason}'::pg_catalog.name[])\n"
				"           AND NOT a.attisdropped)\n"
				"FROM pg_catalog.pg_extension e\n"
				"JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) e.extnamespace\n"
				"WHERE e.extname OPERATOR(pg_catalog.=) 'scanbench'", 0, NULL, PGRES_TUPLES_OK);
	if (r == NULL)
	{
		PQfinish(conn);
		return NULL;
	}
	if (PQntuples(r) != 1)
		log_error("central history: scanbench is not installed in database \"%s\" on %s (CREATE EXTENSION scanbench)",
				  PQdb(conn), PQhost(conn));
	else if (strcmp(PQgetvalue(r, 0, 1), FLEET_VERSION) != 0)
		log_error("central history: scanbench %s is installed in database \"%s\"; this program needs %s (ALTER EXTENSION scanbench UPDATE)",
				  PQgetvalue(r, 0, 1), PQdb(conn), FLEET_VERSION);
	else if (strcmp(PQgetvalue(r, 0, 2), "t") == 0)
		log_error("central history: the server of database \"%s\" is a standby, which accepts no writes",
				  PQdb(conn));
	else if (strcmp(PQgetvalue(r, 0, 3), "7") != 0)
		log_error("central history: %s.scan_history lacks the columns of a fleet's runs (server, system_identifier, ...)",
				  PQgetvalue(r, 0, 0));
	else
	{
		history_schema = xstrdup(PQgetvalue(r, 0, 0));
		PQclear(r);
		r = exec_ok(conn, "SET statement_timeout = '60s'", 0, NULL, PGRES_COMMAND_OK);
		if (r)
		{
			PQclear(r);
			return conn;
		}
		PQfinish(conn);
		return NULL;
	}
	PQclear(r);
	PQfinish(conn);
	return NULL;
}

/* v as an element of an array literal, quoted, appended to *arr. */
static void
array_add(char **arr, const char *v)
{
	size_t		len = strlen(*arr);
	size_t		cap = len + 1;
	char	   *a;

	a = xreserve(*arr, len, (v ? strlen(v) * 2 : 4) + 4, &cap, 1);
	if (a[len - 1] != '{')
		a[len++] = ',';
	if (v == NULL)
	{
		memcpy(a + len, "NULL", 4);
		len += 4;
	}
	else
	{
		a[len++] = '"';
		for (const char *c = v; *c; c++)
		{
			if (*c == '"' || *c == '\\')
				a[len++] = '\\';
			a[len++] = *c;
		}
		a[len++] = '"';
	}
	a[len] = '\0';
	*arr = a;
}

/*
 * Each measured row's own history: the median scan_pct of the server's
 * last --history-runs judged runs of the relation under the same cache
 * mode and marks (as scan_history_median compares), before this run.
 *
 * One query a server, for all its relations at once: its rows' relations,
 * cache modes and verdicts go as arrays beside the server's name, so that
 * on a history distributed by server the query reads that server's shard
 * alone (a router query), and a night costs a query a server, not a
 * query a run.
 */
bool
history_previous(PGconn *conn, const Options *opt, Row *rows, int nrows)
{
	char	   *sql = xprintf(
		"SELECT r.i, p.median, p.runs\n"
		"FROM ROWS FROM (pg_catalog.unnest($2::pg_catalog.text[]), pg_catalog.unnest($3::pg_catalog.text[]),\n"
		"                pg_catalog.unnest($4::pg_catalog.text[]), pg_catalog.unnest($5::pg_catalog.text[]))\n"
		"     WITH ORDINALITY AS r(relschema, relname, cache, verdict, i),\n"
		"LATERAL (SELECT pg_catalog.round(pg_catalog.percentile_cont(0.5::pg_catalog.float8)\n"
		"                WITHIN GROUP (ORDER BY h.scan_pct)::pg_catalog.numeric, 1) AS median,\n"
		"                pg_catalog.count(*) AS runs\n"
		"         FROM (SELECT h.scan_pct FROM %s.scan_history h\n"
		"               WHERE h.server OPERATOR(pg_catalog.=) $1 AND h.relschema OPERATOR(pg_catalog.=) r.relschema\n"
		"                 AND h.relname OPERATOR(pg_catalog.=) r.relname AND h.cache OPERATOR(pg_catalog.=) r.cache\n"
		"                 AND h.reason IS NULL AND h.scan_pct IS NOT NULL\n"
		"                 AND scanbench_internal.scan_history_marks(h.verdict) OPERATOR(pg_catalog.=)\n"
		"                     coalesce(scanbench_internal.scan_history_marks(r.verdict::pg_catalog.text[]), '')\n"
		"               ORDER BY h.measured_at DESC LIMIT $6) h) p",
		history_schema);
	char		limit[16];
	int		   *index = xmalloc(sizeof(int) * (nrows > 0 ? nrows : 1));
	bool	   *asked = xmalloc(sizeof(bool) * (nrows > 0 ? nrows : 1));
	bool		ok = true;

	snprintf(limit, sizeof(limit), "%d", opt->history_runs);
	for (int i = 0; i < nrows; i++)
	{
		rows[i].history_pct = NAN;
		rows[i].history_runs = 0;
		asked[i] = false;
	}
	for (int first = 0; ok && first < nrows; first++)
	{
		Server	   *server = rows[first].server;
		char	   *arrays[4];
		const char *params[6];
		int			n = 0;
		PGresult   *r;

		/* The server's measured rows not yet asked for: one query. */
		if (rows[first].reason || asked[first])
			continue;
		for (int a = 0; a < 4; a++)
			arrays[a] = xstrdup("{");
		for (int i = first; i < nrows; i++)
		{
			if (rows[i].server != server || rows[i].reason)
				continue;
			index[n++] = i;
			asked[i] = true;
			array_add(&arrays[0], row_value(&rows[i], "relschema"));
			array_add(&arrays[1], row_value(&rows[i], "relname"));
			array_add(&arrays[2], row_value(&rows[i], "cache"));
			array_add(&arrays[3], row_value(&rows[i], "verdict"));
		}
		for (int a = 0; a < 4; a++)
		{
			char	   *closed = xprintf("%s}", arrays[a]);

			free(arrays[a]);
			arrays[a] = closed;
		}
		params[0] = server->name;
		params[1] = arrays[0];
		params[2] = arrays[1];
		params[3] = arrays[2];
		params[4] = arrays[3];
		params[5] = limit;
		r = exec_ok(conn, sql, 6, params, PGRES_TUPLES_OK);
		for (int a = 0; a < 4; a++)
			free(arrays[a]);
		if (r == NULL)
		{
			ok = false;
			break;
		}
		for (int t = 0; t < PQntuples(r); t++)
		{
			int			k = atoi(PQgetvalue(r, t, 0)) - 1;
			Row		   *row;

			if (k < 0 || k >= n)
				continue;
			row = &rows[index[k]];
			if (!PQgetisnull(r, t, 1))
				row->history_pct = strtod(PQgetvalue(r, t, 1), NULL);
			row->history_runs = atoi(PQgetvalue(r, t, 2));
		}
		PQclear(r);
	}
	free(asked);
	free(index);
	free(sql);
	return ok;
}

/* v in COPY's text format, appended to buf. */
static void
copy_field(char **buf, size_t *len, size_t *cap, const char *v)
{
	size_t		need = v ? strlen(v) * 2 + 4 : 4;

	*buf = xreserve(*buf, *len, need, cap, 1);
	if (v == NULL)
	{
		memcpy(*buf + *len, "\\N", 2);
		*len += 2;
		return;
	}
	for (const char *c = v; *c; c++)
	{
		char		e = 0;

		switch (*c)
		{
			case '\\':
				e = '\\';
				break;
			case '\t':
				e = 't';
				break;
			case '\n':
				e = 'n';
				break;
			case '\r':
				e = 'r';
				break;
		}
		if (e)
		{
			(*buf)[(*len)++] = '\\';
			(*buf)[(*len)++] = e;
		}
		else
			(*buf)[(*len)++] = *c;
	}
}

/* The identity and, for a row not measured, what is known of it. */
static void
complete_row(Row *row, const Options *opt)
{
	Server	   *s = row->server;
	char	   *tags = tags_json(s);

	row_set(row, "server", s->name);
	row_set(row, "system_identifier", s->system_identifier);
	row_set(row, "server_host", s->host);
	row_set(row, "server_port", s->port);
	row_set(row, "server_role", s->role);
	row_set(row, "tags", tags);
	row_set(row, "reason", row->reason);
	free(tags);
	if (row->reason)
	{
		row_set(row, "measured_at", row->measured_at);
		if (row_value(row, "relname") == NULL)
		{
			/*
			 * The relation as named: schema.name split where it plainly is
			 * one (no quotes), so that the row sits beside the server's
			 * measured ones; else the name as given, in no schema.
			 */
			const char *dot = strchr(row->relation, '.');

			if (dot && dot != row->relation && dot[1] && !strchr(dot + 1, '.') &&
				!strchr(row->relation, '"'))
			{
				char	   *schema = xstrdup(row->relation);

				schema[dot - row->relation] = '\0';
				row_set(row, "relschema", schema);
				row_set(row, "relname", dot + 1);
				free(schema);
			}
			else
				row_set(row, "relname", row->relation);
		}
		if (row_value(row, "cache") == NULL)
			row_set(row, "cache", opt->cache);
		if (row_value(row, "server_version") == NULL)
			row_set(row, "server_version", s->server_version);
	}
}

/* Every row into the history in one COPY; *bytes says how much was sent. */
bool
history_copy(PGconn *conn, const Options *opt, Row *rows, int nrows, long *bytes)
{
	size_t		cap = 8192,
				len = 0;
	char	   *buf = xmalloc(cap);
	char	   *sql;
	PGresult   *r;
	char	   *cols = xstrdup("");

	for (int i = 0; i < history_ncolumns; i++)
	{
		char	   *more = xprintf("%s%s%s", cols, i ? ", " : "", history_columns[i]);

		free(cols);
		cols = more;
	}
	for (int i = 0; i < nrows; i++)
	{
		complete_row(&rows[i], opt);
		for (int c = 0; c < history_ncolumns; c++)
		{
			copy_field(&buf, &len, &cap, rows[i].values[c]);
			buf = xreserve(buf, len, 2, &cap, 1);
			buf[len++] = c + 1 < history_ncolumns ? '\t' : '\n';
		}
	}
	sql = xprintf("COPY %s.scan_history (%s) FROM STDIN", history_schema, cols);
	free(cols);
	r = PQexec(conn, sql);
	free(sql);
	if (PQresultStatus(r) != PGRES_COPY_IN)
	{
		log_error("central history: %s", one_line(PQerrorMessage(conn)));
		PQclear(r);
		free(buf);
		return false;
	}
	PQclear(r);
	if (PQputCopyData(conn, buf, (int) len) != 1 || PQputCopyEnd(conn, NULL) != 1)
	{
		log_error("central history: %s", one_line(PQerrorMessage(conn)));
		free(buf);
		return false;
	}
	free(buf);
	*bytes = (long) len;
	r = PQgetResult(conn);
	if (PQresultStatus(r) != PGRES_COMMAND_OK)
	{
		log_error("central history: could not record the runs: %s", one_line(PQerrorMessage(conn)));
		PQclear(r);
		return false;
	}
	PQclear(r);
	while ((r = PQgetResult(conn)) != NULL)
		PQclear(r);
	return true;
}
