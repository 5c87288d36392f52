/*
 * locks.c: the steps of a load that take ACCESS EXCLUSIVE on a table others
 * may be using -- the DROP of the old table (--drop) and the rename that
 * puts the new one in its place -- and what would make that DROP fail.
 *
 * Why a limit and a message: an ACCESS EXCLUSIVE request waits for every
 * lock already held on the table, and every later request on the table,
 * a plain SELECT's too, queues behind it.  A loader that waited without
 * limit behind, say, a transaction left idle would stop every reader of the
 * table for as long as that transaction stays open, and say nothing.  So
 * these statements run under lock_timeout (--lock-timeout), and while one
 * waits the loader says, from another session, which lock it waits for and
 * which sessions are in the way (pg_blocking_pids), and again whenever
 * they change.  When the time is up the server cancels the statement, the last
 * transaction rolls back, and the table is as it was (exit 3).
 *
 * A view on the old table, or a foreign key to it, makes DROP TABLE fail;
 * found only at the end, it would throw the whole load away.  It is looked
 * for before anything is written.
 */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "cli.h"
#include "db.h"
#include "load_state.h"
#include "loader.h"
#include "locks.h"
#include "progress.h"
#include "signals.h"
#include "step.h"

/* When the first look at a waiting statement's locks is taken, and the next. */
#define LOCK_LOOK_FIRST_S	1.0
#define LOCK_LOOK_EVERY_S	1.0

/*
 * Objects that DROP TABLE without CASCADE refuses to drop along with the
 * table: those with a normal dependency on it or on its row type, other
 * than its own parts (which also depend on it automatically or internally,
 * as a foreign key of the table to itself does).  A view is named as the
 * view, not as its rewrite rule.
 */
static const char *dependents_sql =
"WITH t AS (SELECT c.oid, c.reltype FROM pg_catalog.pg_class c "
"  WHERE c.oid OPERATOR(pg_catalog.=) $1::pg_catalog.regclass) "
"SELECT DISTINCT CASE WHEN d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_rewrite'::pg_catalog.regclass "
"  THEN (SELECT pg_catalog.pg_describe_object('pg_catalog.pg_class'::pg_catalog.regclass, r.ev_class, 0) "
"        FROM pg_catalog.pg_rewrite r WHERE r.oid OPERATOR(pg_catalog.=) d.objid) "
"  ELSE pg_catalog.pg_describe_object(d.classid, d.objid, 0) END AS what "
"FROM pg_catalog.pg_depend d, t "
"WHERE d.deptype OPERATOR(pg_catalog.=) 'n' "
"AND ((d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass "
"      AND d.refobjid OPERATOR(pg_catalog.=) t.oid) "
"  OR (d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_type'::pg_catalog.regclass "
"      AND d.refobjid OPERATOR(pg_catalog.=) t.reltype)) "
"AND NOT (d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass "
"         AND d.objid OPERATOR(pg_catalog.=) t.oid) "
"AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_depend o "
"  WHERE o.classid OPERATOR(pg_catalog.=) d.classid AND o.objid OPERATOR(pg_catalog.=) d.objid "
"  AND o.deptype OPERATOR(pg_catalog.=) ANY ('{a,i}'::pg_catalog.\"char\"[]) "
"  AND o.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass "
"  AND o.refobjid OPERATOR(pg_catalog.=) t.oid) "
"ORDER BY 1";

/*
 * Before any row is written: --drop's DROP TABLE would fail on these, after
 * the whole load.  False (logged) if there is one.
 */
bool
load_check_dependents(Load *ld)
{
	PGresult   *res = query_rows(ld->ctl, dependents_sql, ld->target);
	char		list[700] = "";
	size_t		len = 0;
	int			n;

	if (res == NULL)
		return false;
	n = PQntuples(res);
	for (int r = 0; r < n && len < sizeof(list) - 1; r++)
		len += snprintf(list + len, sizeof(list) - len, "%s%s", r ? ", " : "",
						PQgetvalue(res, r, 0));
	PQclear(res);
	if (n == 0)
		return true;
	log_error("cannot replace table %s: %s depend%s on it (%s)\n"
			  "hint: drop %s first, or load into another table and change %s yourself; "
			  "nothing was written", ld->qname, n == 1 ? "another object" : "other objects",
			  n == 1 ? "s" : "", list, n == 1 ? "it" : "them", n == 1 ? "it" : "them");
	return false;
}

/* lock_timeout for the rest of the last transaction. */
bool
load_set_lock_timeout(Load *ld, PGconn *conn)
{
	char		sql[64];

	snprintf(sql, sizeof(sql), "SET LOCAL lock_timeout = %.0f",
			 round(ld->opt->lock_timeout * 1000.0));
	return load_step(ld, conn, sql);
}

/*
 * What the backend pid waits for and who is in the way, from another
 * session: "AccessExclusiveLock on table public.t" into what, "pid 123
 * (psql, idle in transaction for 12 s)" into who.  False if it waits for no
 * lock (or the look failed).  pids gets the blocking pids alone, to tell
 * when they change.
 */
static bool
look_at_wait(PGconn *mon, int pid, char *what, size_t whatlen, char *who, size_t wholen,
			 char *pids, size_t pidslen)
{
	char		param[16];
	const char *params[1] = {param};
	PGresult   *res;
	bool		waiting;

	snprintf(param, sizeof(param), "%d", pid);
	/* Each session in the way: its application, state and times, if any. */
	res = PQexecParams(mon,
					   "SELECT l.mode OPERATOR(pg_catalog.||) ' on ' OPERATOR(pg_catalog.||) "
					   "coalesce((SELECT 'table ' OPERATOR(pg_catalog.||) "
					   "  pg_catalog.format('%I.%I', n.nspname, c.relname) "
					   "  FROM pg_catalog.pg_class c "
					   "  JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) c.relnamespace "
					   "  WHERE c.oid OPERATOR(pg_catalog.=) l.relation), l.locktype), "
					   "(SELECT pg_catalog.string_agg('pid ' OPERATOR(pg_catalog.||) b.pid::pg_catalog.text "
					   "   OPERATOR(pg_catalog.||) CASE WHEN w.what OPERATOR(pg_catalog.=) '' THEN '' "
					   "     ELSE ' (' OPERATOR(pg_catalog.||) w.what OPERATOR(pg_catalog.||) ')' END, "
					   "   ', ' ORDER BY b.pid) "
					   " FROM pg_catalog.unnest(pg_catalog.pg_blocking_pids(l.pid)) AS b(pid) "
					   " LEFT JOIN pg_catalog.pg_stat_activity a ON a.pid OPERATOR(pg_catalog.=) b.pid "
					   " CROSS JOIN LATERAL (SELECT pg_catalog.concat_ws(', ', "
					   "   CASE WHEN a.application_name OPERATOR(pg_catalog.=) '' THEN NULL "
					   "     ELSE a.application_name END, "
					   "   a.state OPERATOR(pg_catalog.||) coalesce(' for ' OPERATOR(pg_catalog.||) "
					   "     pg_catalog.round(EXTRACT(epoch FROM pg_catalog.now() OPERATOR(pg_catalog.-) "
					   "       a.state_change))::pg_catalog.text OPERATOR(pg_catalog.||) ' s', ''), "
					   "   'transaction open ' OPERATOR(pg_catalog.||) "
					   "     pg_catalog.round(EXTRACT(epoch FROM pg_catalog.now() OPERATOR(pg_catalog.-) "
					   "       a.xact_start))::pg_catalog.text OPERATOR(pg_catalog.||) ' s') AS what) AS w), "
					   "pg_catalog.pg_blocking_pids(l.pid)::pg_catalog.text "
					   "FROM pg_catalog.pg_locks l "
					   "WHERE l.pid OPERATOR(pg_catalog.=) $1::pg_catalog.int4 AND NOT l.granted "
					   "LIMIT 1",
					   1, NULL, params, NULL, NULL, 0);
	waiting = PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1;
	if (waiting)
	{
		snprintf(what, whatlen, "%s", PQgetvalue(res, 0, 0));
		snprintf(who, wholen, "%s", PQgetisnull(res, 0, 1) ? "" : PQgetvalue(res, 0, 1));
		snprintf(pids, pidslen, "%s", PQgetvalue(res, 0, 2));
	}
	PQclear(res);
	return waiting;
}

/*
 * After the timeout, when no look was taken in time: the sessions holding a
 * lock on the table (any lock is in the way of ACCESS EXCLUSIVE).
 */
static void
lock_holders(PGconn *mon, const char *table, int waiter, char *what, size_t whatlen,
			 char *who, size_t wholen)
{
	char		pid[16];
	const char *params[2] = {table, pid};
	PGresult   *res;

	snprintf(pid, sizeof(pid), "%d", waiter);
	res = PQexecParams(mon,
					   "SELECT pg_catalog.format('%I.%I', n.nspname, c.relname), "
					   "(SELECT pg_catalog.string_agg(DISTINCT 'pid ' OPERATOR(pg_catalog.||) "
					   "   l.pid::pg_catalog.text, ', ') "
					   " FROM pg_catalog.pg_locks l "
					   " WHERE l.relation OPERATOR(pg_catalog.=) c.oid AND l.granted "
					   " AND l.pid OPERATOR(pg_catalog.<>) ALL "
					   "   (ARRAY[$2::pg_catalog.int4, pg_catalog.pg_backend_pid()])) "
					   "FROM pg_catalog.pg_class c "
					   "JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) c.relnamespace "
					   "WHERE c.oid OPERATOR(pg_catalog.=) pg_catalog.to_regclass($1::pg_catalog.text)",
					   2, NULL, params, NULL, NULL, 0);
	if (PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1)
	{
		snprintf(what, whatlen, "AccessExclusiveLock on table %s", PQgetvalue(res, 0, 0));
		if (!PQgetisnull(res, 0, 1))
			snprintf(who, wholen, "%s", PQgetvalue(res, 0, 1));
	}
	PQclear(res);
}

/* Wait for input on the connection, up to seconds; EINTR (a signal) ends it. */
static void
wait_readable(PGconn *conn, double seconds)
{
	struct pollfd pfd = {.fd = PQsocket(conn),.events = POLLIN};

	(void) poll(&pfd, 1, (int) (seconds * 1000.0));
}

/*
 * Run one statement that takes ACCESS EXCLUSIVE on table (under the
 * lock_timeout set by load_set_lock_timeout) and say while it waits.  The
 * looks go through the control connection, or one opened for them when the
 * statement runs there.  On a lock timeout, ld->lock_timed_out is set and
 * ld->error names the lock and who held it.
 */
bool
load_locked_step(Load *ld, PGconn *conn, const char *sql_arg, const char *table)
{
	char		sql[4096];
	PGconn	   *mon = conn == ld->ctl ? NULL : ld->ctl;
	bool		own_mon = false;
	double		start = now_s();
	double		next_look = start + LOCK_LOOK_FIRST_S;
	char		what[400] = "",
				who[600] = "",
				said[1000] = "",
				pids[200] = "",
				said_key[600] = "";
	PGresult   *res;
	bool		ok = true;
	bool		timed_out = false;

	snprintf(sql, sizeof(sql), "%s", sql_arg);	/* sqlf's buffer is reused */
	if (!PQsendQuery(conn, sql))
	{
		if (!ld->error[0])
			snprintf(ld->error, sizeof(ld->error), "%s", chomp(PQerrorMessage(conn)));
		return false;
	}
	while (PQisBusy(conn))
	{
		wait_readable(conn, 0.2);
		if (!PQconsumeInput(conn))
			break;
		if (!PQisBusy(conn) || interrupted || now_s() < next_look)
			continue;
		next_look = now_s() + LOCK_LOOK_EVERY_S;
		if (mon == NULL && !own_mon)
		{
			own_mon = true;
			mon = connect_db(ld->opt);	/* logs why if it fails */
		}
		if (mon && look_at_wait(mon, PQbackendPID(conn), what, sizeof(what), who, sizeof(who),
								pids, sizeof(pids)))
		{
			char		line[sizeof(said)];
			char		key[sizeof(what) + sizeof(pids)];

			snprintf(line, sizeof(line), "%s, held by %s", what, who[0] ? who : "(nobody seen)");
			snprintf(key, sizeof(key), "%s %s", what, pids);
			if (strcmp(key, said_key) != 0)
			{
				if (ld->opt->lock_timeout > 0)
					fprintf(stderr, LOADER_NAME ": waiting %.0f s for %s; giving up after "
							"%g s (--lock-timeout)\n", now_s() - start, line,
							ld->opt->lock_timeout);
				else
					fprintf(stderr, LOADER_NAME ": waiting %.0f s for %s; waiting without "
							"limit (--lock-timeout 0)\n", now_s() - start, line);
				snprintf(said, sizeof(said), "%s", line);
				snprintf(said_key, sizeof(said_key), "%s", key);
			}
		}
	}
	while ((res = PQgetResult(conn)) != NULL)
	{
		ExecStatusType st = PQresultStatus(res);

		if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK)
		{
			const char *state = PQresultErrorField(res, PG_DIAG_SQLSTATE);

			ok = false;
			timed_out |= state && strcmp(state, "55P03") == 0 && !interrupted;
			if (!ld->error[0])
				snprintf(ld->error, sizeof(ld->error), "%s", chomp(PQerrorMessage(conn)));
		}
		PQclear(res);
	}
	if (PQstatus(conn) != CONNECTION_OK)
	{
		ok = false;
		if (!ld->error[0])
			snprintf(ld->error, sizeof(ld->error), "%s", chomp(PQerrorMessage(conn)));
	}
	if (timed_out)
	{
		if (!said[0] && mon == NULL && !own_mon)
		{
			own_mon = true;
			mon = connect_db(ld->opt);
		}
		if (!said[0])
		{
			snprintf(what, sizeof(what), "AccessExclusiveLock on table %s", table);
			who[0] = '\0';
			if (mon)
				lock_holders(mon, table, PQbackendPID(conn), what, sizeof(what),
							 who, sizeof(who));
		}
		ld->lock_timed_out = true;
		snprintf(ld->error, sizeof(ld->error),
				 "gave up after %g s (--lock-timeout) waiting for %s, held by %s\n"
				 "hint: end the transaction that holds the lock, or run again with a "
				 "longer --lock-timeout (0 waits without limit)",
				 ld->opt->lock_timeout, what, who[0] ? who : "a session that ended since");
	}
	if (own_mon)
		PQfinish(mon);
	return ok;
}
