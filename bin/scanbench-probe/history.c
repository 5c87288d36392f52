/*
 * history.c: the central history: each pass a row of scanbench's
 * scan_history in the database --history names, beside the runs
 * scanbench-fleet keeps there, so that self-hosted and managed servers
 * are one table.
 *
 * A pass measured from a client is not a scan_efficiency run, and its row
 * says so: method 'client'; scan_pct NULL (there is no raw read of the
 * same blocks to set the scan against), so that no judge of the history
 * compares it with the extension's figures; cache the pass as judged
 * (cold, warm, or asis when neither was shown); device the storage
 * profile and read_bps_limit, read_iops_limit its baseline, the limits
 * the figure is set against.  The server's identity is in the columns the
 * fleet fills, with the same default name (HOST:PORT/DBNAME).
 *
 * The history is checked before anything is measured (the right version
 * of scanbench, a primary, the fleet's columns), so that a run is never
 * measured to be lost; the rows go in in one transaction.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "cli.h"
#include "history.h"
#include "judge.h"
#include "options.h"
#include "program.h"
#include "server.h"
#include "xalloc.h"

static char *history_schema;

/* The central history's connection, checked; NULL (*error says why). */
PGconn *
history_connect(const Options *opt, const char *password, char **error)
{
	PGconn	   *conn = server_connect(opt->history, opt, password, false, error);
	PGresult   *r;

	if (conn == NULL)
	{
		char	   *e = xprintf("could not connect to the central history: %s", *error);

		free(*error);
		*error = e;
		return NULL;
	}
	r = server_exec(conn,
					"SELECT pg_catalog.quote_ident(n.nspname), e.extversion,\n"
					"       pg_catalog.pg_is_in_recovery(),\n"
					"       (SELECT pg_catalog.count(*) FROM pg_catalog.pg_attribute a\n"
					"         WHERE a.attrelid OPERATOR(pg_catalog.=) pg_catalog.format('%I.scan_history', n.nspname)::pg_catalog.regclass\n"
					"           AND a.attname OPERATOR(pg_catalog.=) ANY ('{server,system_identifier,server_host,server_port,"
					"server_role,tags,reason,method}'::pg_catalog.name[])\n"
					"           AND NOT a.attisdropped),\n"
					"       pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', false),\n"
					"       pg_catalog.set_config('statement_timeout', '60s', false)\n"
					"FROM pg_catalog.pg_extension e\n"
					"JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) e.extnamespace\n"
					"WHERE e.extname OPERATOR(pg_catalog.=) 'scanbench'",
					0, NULL, error);
	if (r == NULL)
	{
		char	   *e = xprintf("central history: %s", *error);

		free(*error);
		*error = e;
		PQfinish(conn);
		return NULL;
	}
	if (PQntuples(r) != 1)
		*error = xprintf("central history: scanbench is not installed in database \"%s\" (CREATE EXTENSION scanbench)",
						 PQdb(conn));
	else if (strcmp(PQgetvalue(r, 0, 1), PROBE_VERSION) != 0)
		*error = xprintf("central history: scanbench %s is installed in database \"%s\"; this program needs %s (ALTER EXTENSION scanbench UPDATE)",
						 PQgetvalue(r, 0, 1), PQdb(conn), PROBE_VERSION);
	else if (strcmp(PQgetvalue(r, 0, 2), "t") == 0)
		*error = xprintf("central history: the server of database \"%s\" is a standby, which accepts no writes",
						 PQdb(conn));
	else if (strcmp(PQgetvalue(r, 0, 3), "8") != 0)
		*error = xprintf("central history: %s.scan_history lacks the columns of a fleet's runs (server, system_identifier, ...)",
						 PQgetvalue(r, 0, 0));
	else
		history_schema = xstrdup(PQgetvalue(r, 0, 0));
	PQclear(r);
	if (*error)
	{
		PQfinish(conn);
		return NULL;
	}
	return conn;
}

/* The --tag words as a JSON object of strings; NULL when none. */
static char *
tags_json(const Options *opt)
{
	char	   *s;

	if (opt->ntags == 0)
		return NULL;
	s = xstrdup("{");
	for (int i = 0; i < opt->ntags; i++)
	{
		const char *t = opt->tags[i];
		size_t		cap = strlen(t) * 6 + 16,
					n = 0;
		char	   *out = xmalloc(cap);
		char	   *more;

		out[n++] = '"';
		for (const unsigned char *c = (const unsigned char *) t; *c; c++)
		{
			if (*c == '=' && c == (const unsigned char *) strchr(t, '='))
			{
				memcpy(out + n, "\": \"", 4);
				n += 4;
			}
			else if (*c == '"' || *c == '\\')
			{
				out[n++] = '\\';
				out[n++] = (char) *c;
			}
			else if (*c < 0x20)
				n += (size_t) snprintf(out + n, cap - n, "\\u%04x", *c);
			else
				out[n++] = (char) *c;
		}
		out[n++] = '"';
		out[n] = '\0';
		more = xprintf("%s%s%s", s, i ? ", " : "", out);
		free(s);
		free(out);
		s = more;
	}
	{
		char	   *more = xprintf("%s}", s);

		free(s);
		s = more;
	}
	return s;
}

/* The columns written, in the order of a row's values. */
static const char *const columns[] = {
	"measured_at", "relid", "relschema", "relname", "cache", "bytes", "rows", "block_size",
	"runs", "scan_mb_s", "scan_s", "scan_cached_pct", "method", "coverage_pct", "elapsed_s",
	"verdict", "device", "server_version", "settings", "read_bps_limit", "read_iops_limit",
	"jit", "server_major", "server", "system_identifier", "server_host", "server_port",
	"server_role", "tags", "reason"
};
#define NCOLUMNS ((int) (sizeof(columns) / sizeof(columns[0])))

/* Their types, for the INSERT's casts. */
static const char *const types[NCOLUMNS] = {
	"timestamptz", "oid", "text", "text", "text", "int8", "int8", "int4",
	"int4", "float8", "float8", "float8", "text", "float8", "float8",
	"text[]", "text", "text", "jsonb", "int8", "int8",
	"bool", "int4", "text", "int8", "text", "int4",
	"text", "jsonb", "text"
};

static int
col(const char *name)
{
	for (int i = 0; i < NCOLUMNS; i++)
		if (strcmp(columns[i], name) == 0)
			return i;
	abort();
}

static void
put(char **v, const char *name, char *value)
{
	v[col(name)] = value;
}

static char *
num(double v, int digits)
{
	return isnan(v) || isinf(v) ? NULL : xprintf("%.*f", digits, v);
}

/* What every row of the run has: the server, the relation, the volume. */
static void
common(char **v, const Options *opt, const Outcome *o)
{
	const ServerInfo *s = o->server;
	const TableInfo *t = o->table;

	put(v, "relid", xstrdup(t->oid));
	put(v, "relschema", xstrdup(t->schema));
	put(v, "relname", xstrdup(t->name));
	put(v, "bytes", num(t->bytes, 0));
	put(v, "block_size", xprintf("%d", s->block_size));
	put(v, "method", xstrdup("client"));
	put(v, "server_version", xstrdup(s->version));
	put(v, "settings", xstrdup(s->settings_json));
	put(v, "jit", xstrdup("false"));
	put(v, "server_major", xprintf("%d", s->major));
	put(v, "server", xstrdup(o->server_name));
	put(v, "system_identifier", xstrdup(s->system_identifier));
	put(v, "server_host", xstrdup(s->host));
	put(v, "server_port", *s->port ? xstrdup(s->port) : NULL);
	put(v, "server_role", xstrdup(s->in_recovery ? "standby" : "primary"));
	put(v, "tags", tags_json(opt));
	if (o->profile)
	{
		VolumeLimit b = profile_baseline(o->profile);

		put(v, "device", profile_spec(o->profile));
		put(v, "read_bps_limit", num(b.bytes_s, 0));
		put(v, "read_iops_limit", num(b.iops, 0));
	}
}

static bool
insert(PGconn *conn, char **v, char **error)
{
	char	   *cols = xstrdup(""),
			   *vals = xstrdup(""),
			   *sql;
	PGresult   *r;

	for (int i = 0; i < NCOLUMNS; i++)
	{
		char	   *c = xprintf("%s%s%s", cols, i ? ", " : "", columns[i]);
		char	   *p = i == 0
			? xstrdup("coalesce($1::pg_catalog.timestamptz, pg_catalog.now())")
			: xprintf("%s, $%d::pg_catalog.%s", vals, i + 1, types[i]);

		free(cols);
		free(vals);
		cols = c;
		vals = p;
	}
	sql = xprintf("INSERT INTO %s.scan_history (%s) VALUES (%s)", history_schema, cols, vals);
	free(cols);
	free(vals);
	r = server_exec(conn, sql, NCOLUMNS, (const char *const *) v, error);
	free(sql);
	for (int i = 0; i < NCOLUMNS; i++)
		free(v[i]);
	if (r == NULL)
		return false;
	PQclear(r);
	return true;
}

/*
 * Each pass a row, and a row with the reason when the run stopped early;
 * one transaction.
 */
bool
history_record(PGconn *conn, const Options *opt, const Outcome *o, char **error)
{
	const Run  *run = o->run;
	PGresult   *r;
	bool		ok = true;

	r = server_exec(conn, "BEGIN", 0, NULL, error);
	if (r == NULL)
		return false;
	PQclear(r);
	for (int i = 0; ok && i < run->npasses; i++)
	{
		const Pass *p = &run->passes[i];
		const Judged *j = &o->judged[i];
		char	   *v[NCOLUMNS] = {0};

		common(v, opt, o);
		put(v, "measured_at", xstrdup(p->measured_at));
		put(v, "cache", xstrdup(j->cold == COLD_YES ? "cold" : j->cold == COLD_NO ? "warm" : "asis"));
		put(v, "rows", num(p->explain.rows, 0));
		put(v, "runs", xstrdup("1"));
		put(v, "scan_mb_s", num(j->scan_mb_s, 3));
		put(v, "scan_s", num(p->explain.execution_ms / 1000.0, 6));
		put(v, "scan_cached_pct", num(j->hit_pct, 3));
		put(v, "coverage_pct", xstrdup("100"));
		put(v, "elapsed_s", num(p->wall_s, 6));
		put(v, "verdict", j->verdict ? xstrdup(j->verdict) : NULL);
		ok = insert(conn, v, error);
	}
	if (ok && run->failed)
	{
		char	   *v[NCOLUMNS] = {0};

		common(v, opt, o);
		put(v, "cache", xstrdup("asis"));
		put(v, "reason", run->lost
			? xprintf("lost mid-run: %s", run->failed)
			: xprintf("the measurement failed: %s", run->failed));
		ok = insert(conn, v, error);
	}
	r = PQexec(conn, ok ? "COMMIT" : "ROLLBACK");
	if (ok && PQresultStatus(r) != PGRES_COMMAND_OK)
	{
		*error = xstrdup(one_line(PQerrorMessage(conn)));
		ok = false;
	}
	PQclear(r);
	return ok;
}
