/*
 * run.c: the measurements, every server in parallel from one thread.
 *
 * Each server is a small state machine on a non-blocking libpq connection
 * (PQconnectStartParams, PQsendQuery, PQconsumeInput), all of them driven
 * by one poll(): connect, set the session's limits and ask who the server
 * is, then measure each relation in turn (one at a time on a server, so
 * that its measurements do not disturb each other).  At most --jobs
 * servers are busy at once; the next starts as one finishes.
 *
 * Every server x relation ends as a row: measured, or with the reason it
 * was not (could not connect, no scanbench, an error, the deadline, the
 * connection lost, interrupted).  Nothing is skipped silently.
 *
 * Deadlines: connecting may take --connect-timeout; a measurement
 * --timeout, which the server enforces itself (statement_timeout) and the
 * client too, a few seconds later, for a server that no longer answers:
 * then the call is cancelled and the connection closed.
 *
 * SIGINT or SIGTERM: the handler has sent a cancel request to every
 * running call (signals.c).  No new call starts; the calls end with their
 * "canceling statement" errors, which take the server a moment, and the
 * connections are closed within a second in any case, so that no server is
 * left measuring.
 *
 * --night: "the next server" is not the next line of the servers file but
 * the one the queue in the central database gives this runner (queue.c),
 * asked for as a slot frees; while the queue has none to give now (the
 * others held by other runners, or on a busy disk) it is asked again every
 * half second, until every server of the file is finished.  A server's
 * rows are recorded as it ends, with its place in the queue, rather than
 * all at the end; the leases of the servers being measured are renewed
 * every third of --lease.  Interrupted, a server not wholly measured is
 * given back to the queue, not recorded.
 */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libpq-fe.h>

#include "cli.h"
#include "db.h"
#include "fleet.h"
#include "measure.h"
#include "options.h"
#include "queue.h"
#include "run.h"
#include "servers.h"
#include "signals.h"
#include "xalloc.h"

/* How much longer than statement_timeout the client waits for an answer. */
#define CLIENT_GRACE_S		5.0
/* How long the calls have to end after a signal. */
#define INTERRUPT_GRACE_S	0.8
/* How often a runner with a free slot asks the queue again (--night). */
#define QUEUE_POLL_S		0.5

typedef enum
{
	CALL_CONNECTING,
	CALL_IDENTIFYING,
	CALL_MEASURING
} CallState;

typedef struct Call
{
	Server	   *server;
	Row		   *rows;			/* this server's, one per relation */
	PGconn	   *conn;
	CallState	state;
	PostgresPollingStatusType want;	/* while connecting */
	bool		flush;			/* output still to send */
	int			rel;			/* relation being measured */
	double		deadline;
	PGresult   *result;			/* the first rows returned */
	char	   *error;			/* the first error of the query */
} Call;

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double) ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The client's clock, for rows no server timed. */
static char *
wall_clock(void)
{
	struct timespec ts;
	struct tm	tm;
	char		buf[64];

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S", &tm);
	return xprintf("%s.%06ld+00", buf, ts.tv_nsec / 1000);
}

/* Rows from relation `from` on of the call's server get this reason. */
static void
fail_rows(const Options *opt, Call *c, int from, const char *reason)
{
	for (int i = from; i < opt->nrelations; i++)
		if (c->rows[i].reason == NULL && row_value(&c->rows[i], "relid") == NULL)
		{
			c->rows[i].reason = xstrdup(reason);
			c->rows[i].measured_at = wall_clock();
		}
}

static void
end_call(Call *c, int slot)
{
	signals_watch(slot, NULL);
	if (c->result)
		PQclear(c->result);
	free(c->error);
	if (c->conn)
		PQfinish(c->conn);
	memset(c, 0, sizeof(*c));
}

/*
 * A server's error as one line: its message and SQLSTATE, without the
 * severity and context lines (the row's reason); libpq's own message when
 * the server sent none.
 */
static char *
error_text(const PGresult *r, PGconn *conn)
{
	const char *msg = PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY);
	const char *state = PQresultErrorField(r, PG_DIAG_SQLSTATE);

	if (msg == NULL)
		return xstrdup(PQresultErrorMessage(r)[0] ? PQresultErrorMessage(r) : PQerrorMessage(conn));
	return state ? xprintf("%s (SQLSTATE %s)", msg, state) : xstrdup(msg);
}

static bool
send_measure(const Options *opt, Call *c)
{
	char	   *sql = measure_query(c->server->schema);
	char		sample[32],
				max_s[32],
				target[32];
	const char *params[7];
	const char *relation = opt->relations[c->rel];
	int			ok;

	snprintf(sample, sizeof(sample), "%.17g", opt->sample);
	snprintf(max_s, sizeof(max_s), "%.17g", opt->max_seconds);
	snprintf(target, sizeof(target), "%.17g", opt->target_pct);
	params[0] = relation;
	params[1] = opt->cache;
	params[2] = sample;
	params[3] = max_s;
	params[4] = target;
	params[5] = opt->restore ? "true" : "false";
	params[6] = relation_is_qualified(relation) ? "{}" : c->server->search_path;
	ok = PQsendQueryParams(c->conn, sql, 7, NULL, params, NULL, NULL, 0);
	free(sql);
	c->flush = ok && PQflush(c->conn) == 1;
	c->deadline = now_s() + opt->timeout + CLIENT_GRACE_S;
	return ok;
}

static char *
reason_of(const char *what, const char *msg)
{
	return xprintf("%s: %s", what, one_line(msg));
}

/* What the server said about itself; false if it cannot be measured. */
static bool
take_identity(const Options *opt, Call *c)
{
	Server	   *s = c->server;
	PGresult   *r = c->result;
	const char *extversion;

	if (c->error || r == NULL || PQntuples(r) != 1)
	{
		char	   *why = reason_of("could not identify the server",
									c->error ? c->error : "no answer");

		fail_rows(opt, c, 0, why);
		free(why);
		return false;
	}
	free(s->host);
	free(s->port);
	s->host = xstrdup(PQhost(c->conn));
	s->port = xstrdup(PQport(c->conn));
	s->system_identifier = xstrdup(PQgetisnull(r, 0, 0) ? NULL : PQgetvalue(r, 0, 0));
	s->role = xstrdup(PQgetvalue(r, 0, 1));
	s->server_version = xstrdup(PQgetvalue(r, 0, 2));
	s->schema = PQgetisnull(r, 0, 3) ? NULL : xstrdup(PQgetvalue(r, 0, 3));
	extversion = PQgetisnull(r, 0, 4) ? NULL : PQgetvalue(r, 0, 4);
	free(s->search_path);
	s->search_path = xstrdup(PQgetvalue(r, 0, 5));
	if (s->schema == NULL)
	{
		char	   *why = xprintf("scanbench is not installed in database \"%s\" (CREATE EXTENSION scanbench)",
								  PQdb(c->conn));

		fail_rows(opt, c, 0, why);
		free(why);
		return false;
	}
	if (strcmp(extversion, FLEET_VERSION) != 0)
	{
		char	   *why = xprintf("scanbench %s is installed; this program needs %s "
								  "(ALTER EXTENSION scanbench UPDATE)", extversion, FLEET_VERSION);

		fail_rows(opt, c, 0, why);
		free(why);
		return false;
	}
	return true;
}

static void
take_measurement(const Options *opt, Call *c)
{
	Row		   *row = &c->rows[c->rel];
	PGresult   *r = c->result;

	if (interrupted && (c->error || r == NULL))
	{
		row->reason = xstrdup("not measured: interrupted; the call was cancelled");
		row->measured_at = wall_clock();
		return;
	}
	if (c->error || r == NULL || PQntuples(r) != 1)
	{
		row->reason = reason_of("measurement failed", c->error ? c->error : "no row returned");
		row->measured_at = wall_clock();
		return;
	}
	for (int i = 0; i < history_ncolumns; i++)
	{
		int			f = PQfnumber(r, history_columns[i]);

		if (f >= 0 && !PQgetisnull(r, 0, f))
			row->values[i] = xstrdup(PQgetvalue(r, 0, f));
	}
	row->verdict_judged = strcmp(PQgetvalue(r, 0, PQfnumber(r, "verdict_judged")), "t") == 0;
	row->verdict_reads_judged =
		strcmp(PQgetvalue(r, 0, PQfnumber(r, "verdict_reads_judged")), "t") == 0;
	(void) opt;
}

static void
start_call(const Options *opt, Call *c, int slot, Server *s, Row *rows)
{
	const char *keywords[] = {"dbname", "fallback_application_name", "password",
	"connect_timeout", NULL};
	char		ct[32];
	const char *values[5];

	snprintf(ct, sizeof(ct), "%d", (int) ceil(opt->connect_timeout));
	values[0] = s->conninfo;
	values[1] = FLEET_NAME;
	values[2] = fleet_password(opt);
	values[3] = ct;
	values[4] = NULL;
	memset(c, 0, sizeof(*c));
	c->server = s;
	c->rows = rows;
	c->state = CALL_CONNECTING;
	c->want = PGRES_POLLING_WRITING;
	c->deadline = now_s() + opt->connect_timeout;
	c->conn = PQconnectStartParams(keywords, values, 1);
	(void) slot;
}

/* The query finished: move the call on.  false when the call is over. */
static bool
query_done(const Options *opt, Call *c, int slot)
{
	bool		lost = PQstatus(c->conn) == CONNECTION_BAD;

	if (c->state == CALL_IDENTIFYING)
	{
		if (!take_identity(opt, c))
			return false;
		c->state = CALL_MEASURING;
		c->rel = 0;
	}
	else
	{
		take_measurement(opt, c);
		c->rel++;
	}
	if (c->result)
		PQclear(c->result);
	c->result = NULL;
	free(c->error);
	c->error = NULL;
	if (lost)
	{
		fail_rows(opt, c, c->rel, "not measured: the connection to the server was lost");
		return false;
	}
	if (interrupted)
	{
		fail_rows(opt, c, c->rel, "not measured: interrupted");
		return false;
	}
	if (c->rel >= opt->nrelations)
		return false;
	if (!send_measure(opt, c))
	{
		char	   *why = reason_of("could not send the measurement", PQerrorMessage(c->conn));

		fail_rows(opt, c, c->rel, why);
		free(why);
		return false;
	}
	(void) slot;
	return true;
}

/* Input arrived (or can be sent): false when the call is over. */
static bool
advance(const Options *opt, Call *c, int slot, short revents)
{
	if (c->state == CALL_CONNECTING)
	{
		char	   *setup;
		char	   *sql;

		c->want = PQconnectPoll(c->conn);
		if (c->want == PGRES_POLLING_FAILED)
		{
			char	   *why = reason_of("could not connect", PQerrorMessage(c->conn));

			fail_rows(opt, c, 0, why);
			free(why);
			return false;
		}
		if (c->want != PGRES_POLLING_OK)
			return true;
		PQsetnonblocking(c->conn, 1);
		signals_watch(slot, c->conn);
		/*
		 * The limits, who the server is (and the session's own path,
		 * recorded), then the path pinned: see measure.c.
		 */
		setup = session_setup(opt);
		sql = xprintf("%s; %s; %s", setup, identity_query(), pinned_path_query());
		free(setup);
		if (!PQsendQuery(c->conn, sql))
		{
			char	   *why = reason_of("could not send a query", PQerrorMessage(c->conn));

			free(sql);
			fail_rows(opt, c, 0, why);
			free(why);
			return false;
		}
		free(sql);
		c->flush = PQflush(c->conn) == 1;
		c->state = CALL_IDENTIFYING;
		c->deadline = now_s() + opt->timeout + CLIENT_GRACE_S;
		return true;
	}

	if (revents & POLLOUT)
		c->flush = PQflush(c->conn) == 1;
	if ((revents & (POLLIN | POLLHUP | POLLERR)) && !PQconsumeInput(c->conn))
	{
		if (c->error == NULL)
			c->error = xstrdup(PQerrorMessage(c->conn));
	}
	while (!PQisBusy(c->conn))
	{
		PGresult   *r = PQgetResult(c->conn);

		if (r == NULL)
			return query_done(opt, c, slot);
		switch (PQresultStatus(r))
		{
			case PGRES_TUPLES_OK:
				/* the identity's, not the pinning's after it */
				if (c->result)
				{
					PQclear(r);
					continue;
				}
				c->result = r;
				continue;
			case PGRES_COMMAND_OK:
				break;
			default:
				if (c->error == NULL)
					c->error = error_text(r, c->conn);
				break;
		}
		PQclear(r);
		if (PQstatus(c->conn) == CONNECTION_BAD)
			return query_done(opt, c, slot);
	}
	return true;
}

/* The deadline passed: cancel what runs, and give up on the server. */
static void
expire(const Options *opt, Call *c)
{
	char	   *why;

	if (c->state == CALL_CONNECTING)
		why = xprintf("could not connect: no connection within %g s (--connect-timeout)",
					  opt->connect_timeout);
	else
	{
		PGcancel   *cancel = PQgetCancel(c->conn);
		char		errbuf[256];

		if (cancel)
		{
			(void) PQcancel(cancel, errbuf, sizeof(errbuf));
			PQfreeCancel(cancel);
		}
		why = xprintf("%s: no answer within %g s (--timeout); the call was cancelled",
					  c->state == CALL_IDENTIFYING ? "could not identify the server" : "measurement failed",
					  opt->timeout);
	}
	fail_rows(opt, c, c->state == CALL_MEASURING ? c->rel : 0, why);
	free(why);
}

/*
 * A call is over (end_call): with --night, its server's rows are recorded
 * and the server finished in the queue; or, interrupted before every row
 * was measured, given back.
 */
static void
call_over(const Options *opt, Call *c, int slot, PGconn *queue)
{
	Server	   *s = c->server;
	Row		   *r = c->rows;
	bool		whole = true;

	end_call(c, slot);
	if (queue == NULL)
		return;
	for (int i = 0; i < opt->nrelations; i++)
		if (r[i].reason || row_value(&r[i], "relid") == NULL)
			whole = false;
	if (interrupted && !whole)
		queue_release(queue, opt, &s, 1);
	else
		(void) queue_finish(queue, opt, s, r, opt->nrelations);
}

/*
 * The next server this runner measures, from the queue (--night): its
 * index, or -1 when there is none to start now (*over: none ever again, or
 * the queue failed).  A line of the servers file that cannot be used is
 * recorded as its failed rows at once, and the next one asked for.
 */
static int
next_from_queue(const Options *opt, PGconn *queue, Server *servers, int nservers, Row *rows,
				double now, double *claim_at, bool *over)
{
	for (;;)
	{
		int			idx = -1;
		QueueClaim	got;
		Row		   *r;

		if (*over || now < *claim_at)
			return -1;
		got = queue_claim(queue, opt, servers, nservers, &idx);
		if (got == QUEUE_WAIT)
		{
			*claim_at = now + QUEUE_POLL_S;
			return -1;
		}
		if (got != QUEUE_GOT || idx < 0)
		{
			*over = true;
			return -1;
		}
		servers[idx].taken = true;
		if (servers[idx].invalid == NULL)
			return idx;
		r = &rows[(size_t) idx * opt->nrelations];
		for (int i = 0; i < opt->nrelations; i++)
		{
			r[i].reason = xstrdup(servers[idx].invalid);
			r[i].measured_at = wall_clock();
		}
		(void) queue_finish(queue, opt, &servers[idx], r, opt->nrelations);
	}
}

/*
 * Measure every server; rows holds nservers * nrelations rows, server by
 * server.  With queue (--night), only the servers the queue gives this
 * runner (Server.taken).  Returns the number of rows measured.
 */
int
run_fleet(const Options *opt, Server *servers, int nservers, Row *rows, PGconn *queue)
{
	int			jobs = opt->jobs < nservers ? opt->jobs : nservers;
	Call	   *calls = xmalloc(sizeof(Call) * (size_t) jobs);
	struct pollfd *fds = xmalloc(sizeof(struct pollfd) * (size_t) (jobs + 1));
	int		   *slot_of = xmalloc(sizeof(int) * (size_t) (jobs + 1));
	int			next = 0,
				active = 0,
				measured = 0;
	double		stop_at = 0;
	bool		queue_over = false;
	double		claim_at = 0,
				renew_at = now_s() + opt->lease / 3;
	Server	  **busy = xmalloc(sizeof(Server *) * (size_t) (jobs + 1));

	for (;;)
	{
		int			nfds = 0;
		double		now = now_s(),
					wake = now + 0.5;
		int			rc;

		if (interrupted && stop_at == 0)
			stop_at = now + INTERRUPT_GRACE_S;

		/* The queue's leases on what this runner measures, renewed. */
		if (queue && now >= renew_at)
		{
			int			nbusy = 0;

			for (int j = 0; j < jobs; j++)
				if (calls[j].server)
					busy[nbusy++] = calls[j].server;
			if (nbusy > 0 && !queue_renew(queue, opt, busy, nbusy))
				queue_over = true;
			renew_at = now + opt->lease / 3;
		}

		/* Start servers while there is room. */
		for (int j = 0; j < jobs && !interrupted && (queue || next < nservers); j++)
		{
			int			idx;

			if (calls[j].server)
				continue;
			if (queue)
			{
				idx = next_from_queue(opt, queue, servers, nservers, rows, now,
									  &claim_at, &queue_over);
				if (idx < 0)
					break;
			}
			else
			{
				/* A line of the servers file that cannot be used: its rows fail. */
				while (next < nservers && servers[next].invalid)
				{
					Row		   *r = &rows[(size_t) next * opt->nrelations];

					for (int i = 0; i < opt->nrelations; i++)
					{
						r[i].reason = xstrdup(servers[next].invalid);
						r[i].measured_at = wall_clock();
					}
					next++;
				}
				if (next >= nservers)
					break;
				idx = next++;
			}
			start_call(opt, &calls[j], j, &servers[idx], &rows[(size_t) idx * opt->nrelations]);
			active++;
			if (calls[j].conn == NULL || PQstatus(calls[j].conn) == CONNECTION_BAD)
			{
				char	   *why = reason_of("could not connect",
											calls[j].conn ? PQerrorMessage(calls[j].conn) : "out of memory");

				fail_rows(opt, &calls[j], 0, why);
				free(why);
				call_over(opt, &calls[j], j, queue);
				active--;
				j--;			/* the slot is free again */
			}
		}
		if (active == 0 && (interrupted || (queue ? queue_over : next >= nservers)))
			break;

		/* After a signal, the calls that have not ended by now are closed. */
		if (stop_at && now >= stop_at)
		{
			for (int j = 0; j < jobs; j++)
				if (calls[j].server)
				{
					fail_rows(opt, &calls[j], calls[j].state == CALL_MEASURING ? calls[j].rel : 0,
							  "not measured: interrupted");
					call_over(opt, &calls[j], j, queue);
					active--;
				}
			break;
		}

		fds[nfds].fd = signal_pipe[0];
		fds[nfds].events = POLLIN;
		slot_of[nfds++] = -1;
		for (int j = 0; j < jobs; j++)
		{
			Call	   *c = &calls[j];

			if (c->server == NULL)
				continue;
			if (now >= c->deadline)
			{
				expire(opt, c);
				call_over(opt, c, j, queue);
				active--;
				continue;
			}
			if (c->deadline < wake)
				wake = c->deadline;
			fds[nfds].fd = PQsocket(c->conn);
			if (c->state == CALL_CONNECTING)
				fds[nfds].events = c->want == PGRES_POLLING_READING ? POLLIN : POLLOUT;
			else
				fds[nfds].events = POLLIN | (c->flush ? POLLOUT : 0);
			fds[nfds].revents = 0;
			slot_of[nfds++] = j;
		}
		if (stop_at && stop_at < wake)
			wake = stop_at;
		if (queue && !queue_over && claim_at > now && claim_at < wake)
			wake = claim_at;
		if (active == 0 && queue == NULL)
			continue;

		rc = poll(fds, (nfds_t) nfds, (int) ceil((wake - now) * 1000.0));
		if (rc < 0 && errno != EINTR)
		{
			log_error("poll failed: %s", strerror(errno));
			exit(EXIT_CANNOT_RUN);
		}
		if (rc <= 0)
			continue;
		if (fds[0].revents & POLLIN)
		{
			char		buf[16];
			ssize_t		n = read(signal_pipe[0], buf, sizeof(buf));

			(void) n;
		}
		for (int i = 1; i < nfds; i++)
		{
			int			j = slot_of[i];

			if (fds[i].revents == 0)
				continue;
			if (!advance(opt, &calls[j], j, fds[i].revents))
			{
				call_over(opt, &calls[j], j, queue);
				active--;
			}
		}
	}

	for (int i = 0; i < nservers * opt->nrelations; i++)
		if (rows[i].reason == NULL && row_value(&rows[i], "relid"))
			measured++;
		else if (rows[i].reason == NULL)
		{
			rows[i].reason = xstrdup("not measured: interrupted");
			rows[i].measured_at = wall_clock();
		}
	free(busy);
	free(calls);
	free(fds);
	free(slot_of);
	return measured;
}
