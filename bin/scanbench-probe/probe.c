/*
 * probe.c: the measurement, over libpq alone.
 *
 * A pass is SELECT count(*) FROM ONLY the table, in a READ ONLY
 * transaction whose SET LOCALs hold the planner to a sequential scan in
 * this one backend (no parallel workers: one process's rate, as
 * scan_rate gives it by default; no JIT: its compile time is no part of
 * the storage's), under EXPLAIN (ANALYZE, BUFFERS, TIMING OFF): TIMING
 * OFF because a clock read per row would slow the very scan measured;
 * the execution time is still the server's own.  track_io_timing is
 * turned on for the pass where the role may (SET LOCAL: nothing outlives
 * the transaction).
 *
 * pg_stat_io is read before and after each pass: from 18 the session's
 * own counters (pg_stat_get_backend_io), in requests and bytes, which
 * give the size of the requests the server sent; on 16 and 17 the
 * cluster's client backends', other sessions' reads included.  A
 * backend's counters reach the shared ones when it goes idle, at most
 * once a second unless asked (pg_stat_force_next_flush); where the role
 * may not ask, the program waits out that second.
 *
 * Nothing here judges: the passes' figures go to judge.c as they are.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libpq-fe.h>

#include "cli.h"
#include "explain.h"
#include "options.h"
#include "probe.h"
#include "program.h"
#include "server.h"
#include "signals.h"
#include "xalloc.h"

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

static void
pause_s(double s)
{
	struct timespec ts = {(time_t) s, (long) ((s - floor(s)) * 1e9)};

	while (nanosleep(&ts, &ts) != 0 && !interrupted)
		;
}

/* The run stops: why, and whether the server is gone. */
static void
fail(PGconn *conn, Run *run, char *why)
{
	run->failed = why;
	run->lost = PQstatus(conn) == CONNECTION_BAD;
}

/*
 * pg_stat_io's read counters now (reads, bytes, ms; NAN where none), this
 * session's pending counts flushed first.
 */
static bool
stat_io_now(PGconn *conn, const ServerInfo *s, double out[3], char **error)
{
	PGresult   *r;

	out[0] = out[1] = out[2] = NAN;
	if (!s->stat_io)
		return true;
	if (s->force_flush)
	{
		r = server_exec(conn, "SELECT pg_catalog.pg_stat_force_next_flush()", 0, NULL, error);
		if (r == NULL)
			return false;
		PQclear(r);
	}
	else
		pause_s(1.1);
	if (s->stat_io_backend)
		r = server_exec(conn,
						"SELECT pg_catalog.sum(i.reads), pg_catalog.sum(i.read_bytes), pg_catalog.sum(i.read_time)\n"
						"FROM pg_catalog.pg_stat_get_backend_io(pg_catalog.pg_backend_pid()) i\n"
						"WHERE i.object OPERATOR(pg_catalog.=) 'relation'",
						0, NULL, error);
	else
		r = server_exec(conn,
						"SELECT pg_catalog.sum(i.reads), NULL, pg_catalog.sum(i.read_time)\n"
						"FROM pg_catalog.pg_stat_io i\n"
						"WHERE i.backend_type OPERATOR(pg_catalog.=) 'client backend'\n"
						"  AND i.object OPERATOR(pg_catalog.=) 'relation'",
						0, NULL, error);
	if (r == NULL)
		return false;
	for (int i = 0; i < 3; i++)
		if (!PQgetisnull(r, 0, i))
			out[i] = strtod(PQgetvalue(r, 0, i), NULL);
	PQclear(r);
	return true;
}

/* The table's blocks in shared buffers now (pg_buffercache); NAN. */
static double
buffered_blocks(PGconn *conn, const ServerInfo *s, const TableInfo *t)
{
	char	   *sql;
	const char *params[1] = {t->oid};
	PGresult   *r;
	char	   *error = NULL;
	double		n = NAN;

	if (s->buffercache == NULL)
		return NAN;
	sql = xprintf(
		"SELECT pg_catalog.count(*) FROM %s.pg_buffercache b\n"
		"WHERE b.relfilenode OPERATOR(pg_catalog.=) pg_catalog.pg_relation_filenode($1::pg_catalog.oid::pg_catalog.regclass)\n"
		"  AND b.relforknumber OPERATOR(pg_catalog.=) 0::pg_catalog.int2\n"
		"  AND b.reldatabase OPERATOR(pg_catalog.=) (SELECT d.oid FROM pg_catalog.pg_database d\n"
		"                     WHERE d.datname OPERATOR(pg_catalog.=) pg_catalog.current_database())",
		s->buffercache);
	r = server_exec(conn, sql, 1, params, &error);
	free(sql);
	if (r)
	{
		n = strtod(PQgetvalue(r, 0, 0), NULL);
		PQclear(r);
	}
	else
		free(error);			/* a figure the run can do without */
	return n;
}

/* A statement of the pass's transaction, or the run stops (rolled back). */
static bool
step(PGconn *conn, Run *run, int pass, const char *sql, PGresult **result)
{
	/* PQexec: the SET LOCALs are sent as one string of statements. */
	PGresult   *r = PQexec(conn, sql);
	ExecStatusType st = PQresultStatus(r);

	if (st != PGRES_TUPLES_OK && st != PGRES_COMMAND_OK)
	{
		char	   *error = server_error(conn, r);

		fail(conn, run, xprintf("pass %d: %s", pass, error));
		free(error);
		PQclear(r);
		if (PQstatus(conn) == CONNECTION_OK)
			PQclear(PQexec(conn, "ROLLBACK"));
		return false;
	}
	if (result)
		*result = r;
	else
		PQclear(r);
	return true;
}

static bool
one_pass(PGconn *conn, const ServerInfo *s, const TableInfo *t, Run *run, Pass *p)
{
	double		before[3],
				after[3];
	char	   *error = NULL;
	char	   *sql;
	PGresult   *r;
	double		t0;
	bool		ok;

	if (!stat_io_now(conn, s, before, &error))
	{
		fail(conn, run, xprintf("pass %d: pg_stat_io: %s", p->number, error));
		free(error);
		return false;
	}
	if (!step(conn, run, p->number, "BEGIN TRANSACTION READ ONLY", NULL))
		return false;
	sql = xprintf("SET LOCAL enable_seqscan = on; SET LOCAL enable_indexscan = off;\n"
				  "SET LOCAL enable_indexonlyscan = off; SET LOCAL enable_bitmapscan = off;\n"
				  "SET LOCAL enable_tidscan = off; SET LOCAL max_parallel_workers_per_gather = 0;\n"
				  "SET LOCAL jit = off%s",
				  run->io_timing && !s->io_timing_on ? "; SET LOCAL track_io_timing = on" : "");
	ok = step(conn, run, p->number, sql, NULL);
	free(sql);
	if (!ok || !step(conn, run, p->number, "SELECT pg_catalog.clock_timestamp()", &r))
		return false;
	p->measured_at = xstrdup(PQgetvalue(r, 0, 0));
	PQclear(r);

	/*
	 * The comment first: pg_stat_activity shows the start of a query, and
	 * says so whose scan this is.
	 */
	sql = xprintf("/* " PROBE_NAME ": pass %d */\n"
				  "EXPLAIN (ANALYZE, BUFFERS, TIMING OFF, FORMAT JSON)\n"
				  "SELECT pg_catalog.count(*) FROM ONLY %s",
				  p->number, t->qualified);
	t0 = now_s();
	ok = step(conn, run, p->number, sql, &r);
	p->wall_s = now_s() - t0;
	free(sql);
	if (!ok)
		return false;
	if (!explain_parse(PQgetvalue(r, 0, 0), &p->explain, &error))
	{
		PQclear(r);
		PQclear(PQexec(conn, "ROLLBACK"));
		fail(conn, run, xprintf("pass %d: %s", p->number, error));
		free(error);
		return false;
	}
	PQclear(r);

	/*
	 * The size as the pass saw it, under the lock the scan took: read
	 * before the pass, it could wait for a lock outside any pass's
	 * timeout and differ from what was scanned.
	 */
	sql = xprintf("SELECT pg_catalog.pg_relation_size(%s::pg_catalog.oid::pg_catalog.regclass, 'main')",
				  t->oid);
	ok = step(conn, run, p->number, sql, &r);
	free(sql);
	if (!ok)
		return false;
	p->table_bytes = strtod(PQgetvalue(r, 0, 0), NULL);
	PQclear(r);
	if (!step(conn, run, p->number, "COMMIT", NULL))
		return false;
	if (!stat_io_now(conn, s, after, &error))
	{
		fail(conn, run, xprintf("pass %d: pg_stat_io: %s", p->number, error));
		free(error);
		return false;
	}
	p->io_reads = after[0] - before[0];
	p->io_read_bytes = after[1] - before[1];
	p->io_read_ms = run->io_timing ? after[2] - before[2] : NAN;
	return true;
}

void
probe_run(PGconn *conn, const ServerInfo *s, const TableInfo *t, const Options *opt, Run *run)
{
	memset(run, 0, sizeof(*run));
	run->passes = xmalloc(sizeof(Pass) * (size_t) opt->passes);
	run->buffered_before = run->buffered_after = NAN;
	if (s->io_timing_on)
	{
		run->io_timing = true;
		run->io_timing_how = "on for every session";
	}
	else if (s->io_timing_settable)
	{
		run->io_timing = true;
		run->io_timing_how = "set for the passes";
	}
	else
		run->io_timing_how = "off, and this role may not set it (GRANT SET ON PARAMETER track_io_timing, or a superuser's ALTER SYSTEM): no read wait";
	if (s->stat_io)
		run->stat_io_scope = s->stat_io_backend ? "this session's" : "every client backend's, other sessions' reads included";
	signals_watch(conn);

	if (opt->prewarm)
	{
		char	   *error = NULL;
		char	   *sql = xprintf("SELECT %s.pg_prewarm($1::pg_catalog.oid::pg_catalog.regclass, 'buffer')",
								  s->prewarm);
		const char *params[1] = {t->oid};
		PGresult   *r = server_exec(conn, sql, 1, params, &error);

		free(sql);
		if (r == NULL)
		{
			fail(conn, run, xprintf("pg_prewarm: %s", error));
			free(error);
			signals_watch(NULL);
			return;
		}
		PQclear(r);
		run->prewarmed = true;
	}
	run->buffered_before = buffered_blocks(conn, s, t);
	for (int i = 0; i < opt->passes && !interrupted; i++)
	{
		Pass	   *p = &run->passes[i];

		memset(p, 0, sizeof(*p));
		p->number = i + 1;
		if (!one_pass(conn, s, t, run, p))
			break;
		run->npasses++;
	}
	if (run->failed == NULL && !interrupted)
		run->buffered_after = buffered_blocks(conn, s, t);
	signals_watch(NULL);
}
