/*
 * queue.c: runners that share a night (--night).
 *
 * Several scanbench-fleet processes, on one machine or many, given the same
 * --night and --history, take their servers from the extension's
 * fleet_queue in the central database instead of going down the servers
 * file, so that each server is measured once that night:
 *
 *   - each runner puts its servers into the night (INSERT ... ON CONFLICT
 *     DO NOTHING: the first runner fills it, a later one adds only what
 *     is new, a server already finished stays finished);
 *   - a claim takes a free disk's row of fleet_queue_disk with FOR UPDATE
 *     SKIP LOCKED, then one of its servers still to be measured the same
 *     way, and gives both a lease (--lease), in one transaction: two
 *     runners never claim one server, nor two servers of one disk;
 *   - the runner renews the leases of what it measures every third of
 *     --lease; a runner that dies stops renewing, and once lease_until has
 *     passed its servers and disks are free for the others;
 *   - a server's rows go into scan_history in the same transaction that
 *     marks it finished and frees its disk, and only while the claim is
 *     still this runner's: a claim lost to another runner (this one held
 *     up longer than the lease) is recorded by that one alone.
 *
 * Every statement runs on the central history's connection, blocking:
 * they are short, and they never wait for a lock (SKIP LOCKED, and
 * updates of rows only this runner holds).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libpq-fe.h>

#include "central_history.h"
#include "cli.h"
#include "measure.h"
#include "options.h"
#include "queue.h"
#include "servers.h"
#include "xalloc.h"

static char *runner_id;

/* Set when a statement of the queue failed (said on stderr): exit 2. */
bool		queue_broken = false;

static PGresult *
queue_exec(PGconn *conn, const char *sql, int nparams, const char *const *params,
		   ExecStatusType want, const char *what)
{
	PGresult   *r = PQexecParams(conn, sql, nparams, NULL, params, NULL, NULL, 0);

	if (PQresultStatus(r) != want)
	{
		log_error("night queue: %s: %s", what, one_line(PQerrorMessage(conn)));
		queue_broken = true;
		PQclear(r);
		return NULL;
	}
	return r;
}

static bool
queue_run(PGconn *conn, const char *sql, int nparams, const char *const *params,
		  const char *what)
{
	PGresult   *r = queue_exec(conn, sql, nparams, params, PGRES_COMMAND_OK, what);

	if (r == NULL)
		return false;
	PQclear(r);
	return true;
}

static void
rollback(PGconn *conn)
{
	PQclear(PQexec(conn, "ROLLBACK"));
}

/* text[] literal of n strings. */
static char *
text_array(const char *const *v, int n)
{
	size_t		cap = 64,
				len = 0;
	char	   *out = xmalloc(cap);

	out[len++] = '{';
	for (int i = 0; i < n; i++)
	{
		out = xreserve(out, len, strlen(v[i]) * 2 + 4, &cap, 1);
		if (i > 0)
			out[len++] = ',';
		out[len++] = '"';
		for (const char *c = v[i]; *c; c++)
		{
			if (*c == '"' || *c == '\\')
				out[len++] = '\\';
			out[len++] = *c;
		}
		out[len++] = '"';
	}
	out = xreserve(out, len, 2, &cap, 1);
	out[len++] = '}';
	out[len] = '\0';
	return out;
}

/* The names of the servers of the file, every line's (an invalid one's too). */
static char *
server_names(Server *servers, int nservers)
{
	const char **v = xmalloc(sizeof(char *) * (size_t) (nservers + 1));
	char	   *out;

	for (int i = 0; i < nservers; i++)
		v[i] = servers[i].name;
	out = text_array(v, nservers);
	free(v);
	return out;
}

static char *
lease_text(const Options *opt)
{
	return xprintf("%.3f seconds", opt->lease);
}

/*
 * The night's tables checked and this runner's servers put into it; false
 * (said why) if the queue cannot be used.
 */
bool
queue_open(PGconn *conn, const Options *opt, Server *servers, int nservers)
{
	const char *schema = history_schema_name();
	const char **disks = xmalloc(sizeof(char *) * (size_t) (nservers + 1));
	char	   *names = server_names(servers, nservers);
	char	   *disk_array;
	char	   *sql;
	char		host[256];
	const char *params[3];
	bool		ok;

	if (gethostname(host, sizeof(host)) != 0)
		snprintf(host, sizeof(host), "localhost");
	host[sizeof(host) - 1] = '\0';
	runner_id = xprintf("%s:%ld", host, (long) getpid());

	for (int i = 0; i < nservers; i++)
		disks[i] = server_disk(&servers[i]);
	disk_array = text_array(disks, nservers);
	free(disks);
	params[0] = opt->night;
	params[1] = names;
	params[2] = disk_array;
	sql = xprintf(
		"INSERT INTO %s.fleet_queue AS q (night, server, disk)\n"
		"SELECT $1, u.server, u.disk\n"
		"  FROM ROWS FROM (pg_catalog.unnest($2::pg_catalog.text[]), pg_catalog.unnest($3::pg_catalog.text[])) u(server, disk)\n"
		"ORDER BY u.server\n"
		"ON CONFLICT (night, server) DO NOTHING",
		schema);
	ok = queue_run(conn, sql, 3, params, "could not put the servers into the night");
	free(sql);
	if (ok)
	{
		/* The disks as the queue has them: a runner earlier may have said. */
		sql = xprintf(
			"INSERT INTO %s.fleet_queue_disk AS d (night, disk)\n"
			"SELECT DISTINCT q.night, q.disk FROM %s.fleet_queue q\n"
			" WHERE q.night OPERATOR(pg_catalog.=) $1 AND q.server OPERATOR(pg_catalog.=) ANY ($2::pg_catalog.text[])\n"
			"ORDER BY 1, 2\n"
			"ON CONFLICT (night, disk) DO NOTHING",
			schema, schema);
		ok = queue_run(conn, sql, 2, params, "could not put the disks into the night");
		free(sql);
	}
	free(names);
	free(disk_array);
	if (!ok && strstr(PQerrorMessage(conn), "does not exist"))
		log_error("night queue: the central history has no fleet_queue (ALTER EXTENSION scanbench UPDATE)");
	return ok;
}

/*
 * A server of this runner's to measure now: its index in servers.  With
 * none to take now, QUEUE_WAIT while some of this runner's servers are
 * not finished yet (held by another runner, or on a busy disk), QUEUE_DONE
 * when every one of them is finished.
 */
QueueClaim
queue_claim(PGconn *conn, const Options *opt, Server *servers, int nservers, int *index)
{
	const char *schema = history_schema_name();
	char	   *names = server_names(servers, nservers);
	char	   *lease = lease_text(opt);
	const char *params[5];
	char	   *sql;
	PGresult   *r;
	QueueClaim	result = QUEUE_ERROR;
	char	   *disk = NULL;

	params[0] = opt->night;
	params[1] = names;
	params[2] = runner_id;
	params[3] = lease;
	if (!queue_run(conn, "BEGIN", 0, NULL, "could not claim a server"))
		goto done;

	/* A disk that is free and has a server of ours still to measure. */
	sql = xprintf(
		"SELECT d.disk FROM %s.fleet_queue_disk d\n"
		" WHERE d.night OPERATOR(pg_catalog.=) $1\n"
		"   AND (d.lease_until IS NULL OR d.lease_until OPERATOR(pg_catalog.<) pg_catalog.now())\n"
		"   AND EXISTS (SELECT FROM %s.fleet_queue q\n"
		"                WHERE q.night OPERATOR(pg_catalog.=) d.night AND q.disk OPERATOR(pg_catalog.=) d.disk\n"
		"                  AND q.finished_at IS NULL\n"
		"                  AND (q.lease_until IS NULL OR q.lease_until OPERATOR(pg_catalog.<) pg_catalog.now())\n"
		"                  AND q.server OPERATOR(pg_catalog.=) ANY ($2::pg_catalog.text[]))\n"
		" ORDER BY d.disk LIMIT 1\n"
		"   FOR UPDATE SKIP LOCKED",
		schema, schema);
	r = queue_exec(conn, sql, 2, params, PGRES_TUPLES_OK, "could not claim a disk");
	free(sql);
	if (r == NULL)
	{
		rollback(conn);
		goto done;
	}
	if (PQntuples(r) == 1)
		disk = xstrdup(PQgetvalue(r, 0, 0));
	PQclear(r);

	if (disk)
	{
		/* One of its servers, and the lease on both. */
		params[4] = disk;
		sql = xprintf(
			"WITH s AS (\n"
			"  SELECT q.night, q.server FROM %s.fleet_queue q\n"
			"   WHERE q.night OPERATOR(pg_catalog.=) $1 AND q.disk OPERATOR(pg_catalog.=) $5\n"
			"     AND q.finished_at IS NULL\n"
			"     AND (q.lease_until IS NULL OR q.lease_until OPERATOR(pg_catalog.<) pg_catalog.now())\n"
			"     AND q.server OPERATOR(pg_catalog.=) ANY ($2::pg_catalog.text[])\n"
			"   ORDER BY q.server LIMIT 1\n"
			"     FOR UPDATE SKIP LOCKED),\n"
			"c AS (\n"
			"  UPDATE %s.fleet_queue q SET runner = $3, claimed_at = pg_catalog.now(),\n"
			"         lease_until = pg_catalog.now() OPERATOR(pg_catalog.+) $4::pg_catalog.interval\n"
			"    FROM s WHERE q.night OPERATOR(pg_catalog.=) s.night AND q.server OPERATOR(pg_catalog.=) s.server\n"
			"  RETURNING q.server),\n"
			"d AS (\n"
			"  UPDATE %s.fleet_queue_disk d SET runner = $3, server = c.server,\n"
			"         lease_until = pg_catalog.now() OPERATOR(pg_catalog.+) $4::pg_catalog.interval\n"
			"    FROM c WHERE d.night OPERATOR(pg_catalog.=) $1 AND d.disk OPERATOR(pg_catalog.=) $5\n"
			"  RETURNING d.disk)\n"
			"SELECT c.server FROM c, d",
			schema, schema, schema);
		r = queue_exec(conn, sql, 5, params, PGRES_TUPLES_OK, "could not claim a server");
		free(sql);
		if (r == NULL)
		{
			rollback(conn);
			goto done;
		}
		if (PQntuples(r) == 1)
		{
			const char *name = PQgetvalue(r, 0, 0);

			for (int i = 0; i < nservers; i++)
				if (strcmp(servers[i].name, name) == 0)
					*index = i;
			result = QUEUE_GOT;
		}
		PQclear(r);
	}
	if (!queue_run(conn, "COMMIT", 0, NULL, "could not claim a server"))
	{
		result = QUEUE_ERROR;
		goto done;
	}
	if (result == QUEUE_GOT)
		goto done;

	/* Nothing to take now: is anything of ours left? */
	sql = xprintf(
		"SELECT pg_catalog.count(*) FROM %s.fleet_queue q\n"
		" WHERE q.night OPERATOR(pg_catalog.=) $1 AND q.finished_at IS NULL\n"
		"   AND q.server OPERATOR(pg_catalog.=) ANY ($2::pg_catalog.text[])",
		schema);
	r = queue_exec(conn, sql, 2, params, PGRES_TUPLES_OK, "could not read the night");
	free(sql);
	if (r)
	{
		result = strcmp(PQgetvalue(r, 0, 0), "0") == 0 ? QUEUE_DONE : QUEUE_WAIT;
		PQclear(r);
	}

done:
	free(disk);
	free(names);
	free(lease);
	return result;
}

/* The leases of the servers this runner measures, and of their disks, renewed. */
bool
queue_renew(PGconn *conn, const Options *opt, Server **busy, int nbusy)
{
	const char *schema = history_schema_name();
	const char **v = xmalloc(sizeof(char *) * (size_t) (nbusy + 1));
	char	   *names;
	char	   *lease = lease_text(opt);
	const char *params[4];
	char	   *sql;
	bool		ok;

	for (int i = 0; i < nbusy; i++)
		v[i] = busy[i]->name;
	names = text_array(v, nbusy);
	free(v);
	params[0] = opt->night;
	params[1] = names;
	params[2] = runner_id;
	params[3] = lease;
	sql = xprintf(
		"WITH q AS (\n"
		"  UPDATE %s.fleet_queue q SET lease_until = pg_catalog.now() OPERATOR(pg_catalog.+) $4::pg_catalog.interval\n"
		"   WHERE q.night OPERATOR(pg_catalog.=) $1 AND q.server OPERATOR(pg_catalog.=) ANY ($2::pg_catalog.text[])\n"
		"     AND q.runner OPERATOR(pg_catalog.=) $3 AND q.finished_at IS NULL\n"
		"  RETURNING q.server)\n"
		"UPDATE %s.fleet_queue_disk d SET lease_until = pg_catalog.now() OPERATOR(pg_catalog.+) $4::pg_catalog.interval\n"
		" WHERE d.night OPERATOR(pg_catalog.=) $1 AND d.runner OPERATOR(pg_catalog.=) $3\n"
		"   AND d.server OPERATOR(pg_catalog.=) ANY ($2::pg_catalog.text[])",
		schema, schema);
	ok = queue_run(conn, sql, 4, params, "could not renew the leases");
	free(sql);
	free(names);
	free(lease);
	return ok;
}

/*
 * The server's rows (nrows of them) into scan_history, with their own
 * history first, and the server finished and its disk freed, in one
 * transaction; nothing recorded when the claim is no longer this
 * runner's.  false when the central history failed.
 */
bool
queue_finish(PGconn *conn, const Options *opt, Server *s, Row *rows, int nrows)
{
	const char *schema = history_schema_name();
	const char *params[4];
	char	   *sql;
	PGresult   *r;
	long		bytes;
	bool		ours;

	params[0] = opt->night;
	params[1] = s->name;
	params[2] = runner_id;
	params[3] = server_disk(s);
	if (!queue_run(conn, "BEGIN", 0, NULL, "could not finish a server"))
		return false;
	sql = xprintf(
		"UPDATE %s.fleet_queue q SET finished_at = pg_catalog.now(), lease_until = NULL\n"
		" WHERE q.night OPERATOR(pg_catalog.=) $1 AND q.server OPERATOR(pg_catalog.=) $2\n"
		"   AND q.runner OPERATOR(pg_catalog.=) $3 AND q.finished_at IS NULL\n"
		"RETURNING q.server",
		schema);
	r = queue_exec(conn, sql, 3, params, PGRES_TUPLES_OK, "could not finish a server");
	free(sql);
	if (r == NULL)
	{
		rollback(conn);
		return false;
	}
	ours = PQntuples(r) == 1;
	PQclear(r);
	if (!ours)
	{
		rollback(conn);
		log_error("night queue: server \"%s\" was taken over by another runner (this one held it longer than --lease %g s without renewing); its rows are left to that runner",
				  s->name, opt->lease);
		return true;
	}
	sql = xprintf(
		"UPDATE %s.fleet_queue_disk d SET runner = NULL, server = NULL, lease_until = NULL\n"
		" WHERE d.night OPERATOR(pg_catalog.=) $1 AND d.disk OPERATOR(pg_catalog.=) $4\n"
		"   AND d.runner OPERATOR(pg_catalog.=) $3 AND d.server OPERATOR(pg_catalog.=) $2",
		schema);
	if (!queue_run(conn, sql, 4, params, "could not free a disk") ||
		!history_previous(conn, opt, rows, nrows) ||
		!history_copy(conn, opt, rows, nrows, &bytes) ||
		!queue_run(conn, "COMMIT", 0, NULL, "could not record a server's rows"))
	{
		free(sql);
		rollback(conn);
		return false;
	}
	free(sql);
	s->recorded = true;
	return true;
}

/*
 * Servers this runner was measuring when interrupted: their claims and
 * disks given back at once, for another runner to measure them.
 */
void
queue_release(PGconn *conn, const Options *opt, Server **busy, int nbusy)
{
	const char *schema = history_schema_name();
	const char **v = xmalloc(sizeof(char *) * (size_t) (nbusy + 1));
	char	   *names;
	const char *params[3];
	char	   *sql;

	if (nbusy == 0)
	{
		free(v);
		return;
	}
	for (int i = 0; i < nbusy; i++)
		v[i] = busy[i]->name;
	names = text_array(v, nbusy);
	free(v);
	params[0] = opt->night;
	params[1] = names;
	params[2] = runner_id;
	sql = xprintf(
		"WITH q AS (\n"
		"  UPDATE %s.fleet_queue q SET lease_until = NULL\n"
		"   WHERE q.night OPERATOR(pg_catalog.=) $1 AND q.server OPERATOR(pg_catalog.=) ANY ($2::pg_catalog.text[])\n"
		"     AND q.runner OPERATOR(pg_catalog.=) $3 AND q.finished_at IS NULL\n"
		"  RETURNING q.server)\n"
		"UPDATE %s.fleet_queue_disk d SET runner = NULL, server = NULL, lease_until = NULL\n"
		" WHERE d.night OPERATOR(pg_catalog.=) $1 AND d.runner OPERATOR(pg_catalog.=) $3\n"
		"   AND d.server OPERATOR(pg_catalog.=) ANY ($2::pg_catalog.text[])",
		schema, schema);
	(void) queue_run(conn, sql, 3, params, "could not give back the interrupted servers");
	free(sql);
	free(names);
}
