/*
 * jobs.c: one thread and one connection per range of orders (of parts for
 * part_doc).
 *
 * A job generates its range of units (orders, or parts) into a chunk buffer
 * and hands full chunks to its connection's COPY (or to standard output).
 * Jobs never
 * commit: the main thread commits them all, or none (load.c).  The main
 * thread watches them here: progress, a signal, a COPY the server failed, and
 * a failed job, which makes the others stop.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libpq-fe.h>

#include "cli.h"
#include "dbt3.h"
#include "dbt3_copy.h"
#include "jobs.h"
#include "loader.h"
#include "progress.h"
#include "signals.h"

/*
 * COPY data goes out in CopyData messages of this size.  The server copies
 * each message whole before parsing it: 256 kB messages made a one-job text
 * load 10-15 % slower than 16-64 kB ones on the reference machine (cache
 * misses in the backend, which is the bottleneck).  A chunk is flushed when
 * less than DBT3_UNIT_MAX_BYTES is left.
 */
#define CHUNK_SIZE			(64 * 1024)

static int	abort_load;			/* atomic: tells running jobs to stop */

typedef enum
{
	GENERATED,
	GENERATE_FAILED,
	GENERATE_ABORTED
} GenerateResult;

void
job_error(Job *job, const char *fmt,...)
{
	va_list		ap;

	if (job->error[0])
		return;					/* keep the first, it is the cause */
	va_start(ap, fmt);
	vsnprintf(job->error, sizeof(job->error), fmt, ap);
	va_end(ap);
}

/* The first job that failed on its own names the cause. */
const char *
load_error(const Job *jobs, int njobs)
{
	for (int j = 0; j < njobs; j++)
		if (jobs[j].state == JOB_FAILED && jobs[j].error[0])
			return jobs[j].error;
	return "unknown error";
}

static bool
write_all(int fd, const char *buf, size_t len)
{
	while (len > 0)
	{
		ssize_t		n = write(fd, buf, len);

		if (n < 0)
		{
			if (errno == EINTR)
				continue;
			return false;
		}
		buf += n;
		len -= (size_t) n;
	}
	return true;
}

static bool
job_flush(Job *job, const char *buf, size_t len)
{
	if (job->conn == NULL)
	{
		if (!write_all(STDOUT_FILENO, buf, len))
		{
			job_error(job, "could not write to standard output: %s", strerror(errno));
			return false;
		}
		return true;
	}
	if (PQputCopyData(job->conn, buf, (int) len) != 1)
	{
		job_error(job, "%s", chomp(PQerrorMessage(job->conn)));
		return false;
	}
	return true;
}

/* What the main thread's progress reports and summary read. */
static void
job_publish(Job *job, int64_t units, int64_t rows, int64_t bytes)
{
	STORE_RELAXED(job->units_done, units);
	STORE_RELAXED(job->rows_done, rows);
	STORE_RELAXED(job->bytes_done, bytes);
}

static bool
job_start_copy(Job *job)
{
	PGresult   *res = PQexec(job->conn, job->copy_sql);
	bool		ok = PQresultStatus(res) == PGRES_COPY_IN;

	if (!ok)
		job_error(job, "%s", chomp(PQerrorMessage(job->conn)));
	PQclear(res);
	return ok;
}

/*
 * End the COPY, with abort_msg to make the server fail it, and collect its
 * result.  The server's own message, when there is one, beats libpq's report
 * that the connection went away.
 */
static bool
job_end_copy(Job *job, const char *abort_msg)
{
	PGresult   *res;
	bool		ok = true;
	char		server_error[1024] = "";

	if (PQputCopyEnd(job->conn, abort_msg) != 1)
		ok = false;
	while ((res = PQgetResult(job->conn)) != NULL)
	{
		ExecStatusType st = PQresultStatus(res);

		if (st == PGRES_COMMAND_OK)
			job->rows_copied += strtoll(PQcmdTuples(res), NULL, 10);
		else
		{
			ok = false;
			if (!server_error[0] && PQresultErrorMessage(res)[0])
				snprintf(server_error, sizeof(server_error), "%s",
						 chomp(PQresultErrorMessage(res)));
		}
		PQclear(res);
		if (st == PGRES_COPY_IN)
			break;				/* the end did not get through; don't spin */
	}
	if (!ok && abort_msg == NULL)
	{
		if (server_error[0])
		{
			job->error[0] = '\0';	/* a lost connection's message is the effect */
			job_error(job, "%s", server_error);
		}
		else
			job_error(job, "%s", chomp(PQerrorMessage(job->conn)));
	}
	return ok && abort_msg == NULL;
}

static bool job_finish_copy(Job *job, int64_t rows);

/*
 * Freezing in steps: end this COPY, commit its rows and go on in a new
 * transaction and COPY, so that the freezer can freeze what is committed
 * while its pages are still newer than the last checkpoint.  buf is empty
 * (just flushed); returns where the next rows go, or NULL on failure.
 */
static char *
job_commit_step(Job *job, char *buf, int64_t rows, int64_t bytes)
{
	char	   *p = dbt3_put_trailer(job->format, buf);
	PGresult   *res;
	bool		ok;

	if (!job_flush(job, buf, p - buf) || !job_finish_copy(job, rows))
		return NULL;
	res = PQexec(job->conn, "COMMIT");
	ok = PQresultStatus(res) == PGRES_COMMAND_OK;
	PQclear(res);
	if (ok)
	{
		res = PQexec(job->conn, "BEGIN");
		ok = PQresultStatus(res) == PGRES_COMMAND_OK;
		PQclear(res);
	}
	if (!ok)
	{
		job_error(job, "%s", chomp(PQerrorMessage(job->conn)));
		return NULL;
	}
	STORE_RELAXED(job->bytes_committed, bytes);
	if (!job_start_copy(job))
		return NULL;
	return dbt3_put_header(job->format, buf);
}

/*
 * Generate the job's units into buf, sending each full chunk; between
 * chunks, stop if the server failed this COPY or the load is being aborted.
 */
static GenerateResult
job_generate(Job *job, char *buf, int64_t *rows_out)
{
	char	   *p = dbt3_put_header(job->format, buf);
	char	   *limit = buf + CHUNK_SIZE - DBT3_UNIT_MAX_BYTES;
	int64_t		rows = 0,
				bytes = 0,
				step_end = job->step_bytes;

	for (int64_t o = job->first_unit; o < job->end_unit; o++)
	{
		int			n;

		p = dbt3_put_unit(job->gen, job->format, o, p, &n);
		rows += n;
		if (p >= limit)
		{
			if (!job_flush(job, buf, p - buf))
				return GENERATE_FAILED;
			bytes += p - buf;
			p = buf;
			job_publish(job, o + 1 - job->first_unit, rows, bytes);
			if (LOAD_RELAXED(job->server_failed))
				return GENERATE_FAILED; /* ending the COPY fetches the error */
			if (LOAD_RELAXED(abort_load))
				return GENERATE_ABORTED;
			if (step_end > 0 && bytes >= step_end && o + 1 < job->end_unit)
			{
				if ((p = job_commit_step(job, buf, rows, bytes)) == NULL)
					return GENERATE_FAILED;
				step_end = bytes + job->step_bytes;
			}
		}
	}
	p = dbt3_put_trailer(job->format, p);
	if (!job_flush(job, buf, p - buf))
		return GENERATE_FAILED;
	bytes += p - buf;
	job_publish(job, job->end_unit - job->first_unit, rows, bytes);
	*rows_out = rows;
	return GENERATED;
}

/* The COPY's end, and its row count checked against what was sent. */
static bool
job_finish_copy(Job *job, int64_t rows)
{
	if (job->conn == NULL)
	{
		job->rows_copied = rows;
		return true;
	}
	if (!job_end_copy(job, NULL))
		return false;
	if (job->rows_copied != rows)
	{
		job_error(job, "COPY reported %" PRId64 " rows, %" PRId64 " were sent",
				  job->rows_copied, rows);
		return false;
	}
	return true;
}

static void *
run_job(void *arg)
{
	Job		   *job = arg;
	char	   *buf = malloc(CHUNK_SIZE);
	int64_t		rows = 0;
	GenerateResult result = GENERATE_FAILED;

	if (buf == NULL)
		job_error(job, "out of memory");
	else if (job->conn == NULL || job_start_copy(job))
	{
		result = job_generate(job, buf, &rows);
		if (result == GENERATED && !job_finish_copy(job, rows))
			result = GENERATE_FAILED;
		else if (result == GENERATE_FAILED && job->conn)
			job_end_copy(job, NULL);	/* for the server's message */
		else if (result == GENERATE_ABORTED && job->conn)
			job_end_copy(job, interrupted ? "interrupted by a signal"
						 : "another job of this load failed");
	}
	free(buf);
	if (result == GENERATE_FAILED)
		STORE_RELAXED(abort_load, 1);
	STORE_RELEASE(job->state, result == GENERATED ? JOB_COPIED :
				  result == GENERATE_ABORTED ? JOB_ABORTED : JOB_FAILED);
	return NULL;
}

void
split_units(Job *jobs, int njobs, const Dbt3 *gen, Dbt3Format format)
{
	for (int j = 0; j < njobs; j++)
	{
		jobs[j].id = j + 1;
		jobs[j].gen = gen;
		jobs[j].format = format;
		jobs[j].first_unit = gen->units * j / njobs;
		jobs[j].end_unit = gen->units * (j + 1) / njobs;
		jobs[j].state = JOB_RUNNING;
	}
}

/*
 * During COPY FROM STDIN libpq does not look at what the server sends, so a
 * COPY the server has failed (statement timeout, disk full, a cancel) would
 * go on being generated and sent, to be discarded, until its end.  The
 * backend of a failed COPY is "idle in transaction (aborted)" (every COPY
 * here runs in a transaction block): look for that about once a second, on
 * the control connection, and tell the job.
 */
static void
watch_backends(PGconn *ctl, Job *jobs, int njobs)
{
	char		pids[MAX_JOBS * 12 + 16];
	const char *params[1] = {pids};
	PGresult   *res;
	int			len = 0;

	len += snprintf(pids + len, sizeof(pids) - len, "{");
	for (int j = 0; j < njobs; j++)
		len += snprintf(pids + len, sizeof(pids) - len, "%s%d", j ? "," : "", jobs[j].backend_pid);
	snprintf(pids + len, sizeof(pids) - len, "}");
	res = PQexecParams(ctl,
					   "SELECT a.pid FROM pg_catalog.pg_stat_activity a "
					   "WHERE a.pid OPERATOR(pg_catalog.=) ANY ($1::pg_catalog.int4[]) "
					   "AND a.state OPERATOR(pg_catalog.=) 'idle in transaction (aborted)'",
					   1, NULL, params, NULL, NULL, 0);
	if (PQresultStatus(res) == PGRES_TUPLES_OK)
	{
		for (int r = 0; r < PQntuples(res); r++)
		{
			int			pid = atoi(PQgetvalue(res, r, 0));

			for (int j = 0; j < njobs; j++)
				if (jobs[j].backend_pid == pid)
					STORE_RELAXED(jobs[j].server_failed, 1);
		}
	}
	PQclear(res);
}

/*
 * The freezer, between the main thread's other duties: collect a pass that
 * ended, and start one when the jobs have committed step_bytes more since
 * the last began.  A failed pass is remembered and ends the freezing; the
 * VACUUM after the COPYs freezes what is left either way.  wait: block
 * until a running pass ends.
 */
static void
freezer_poll(Freezer *fz, const Job *jobs, int njobs, bool wait)
{
	int64_t		committed = 0;

	if (fz->busy)
	{
		PGresult   *res;

		if (!wait && (!PQconsumeInput(fz->conn) || PQisBusy(fz->conn)))
		{
			if (PQstatus(fz->conn) == CONNECTION_OK)
				return;
		}
		while ((res = PQgetResult(fz->conn)) != NULL)
		{
			if (PQresultStatus(res) != PGRES_COMMAND_OK && !fz->error[0])
				snprintf(fz->error, sizeof(fz->error), "%s", chomp(PQresultErrorMessage(res)));
			PQclear(res);
		}
		if (PQstatus(fz->conn) != CONNECTION_OK && !fz->error[0])
			snprintf(fz->error, sizeof(fz->error), "%s", chomp(PQerrorMessage(fz->conn)));
		fz->busy = false;
		fz->passes++;
		fz->busy_s += now_s() - fz->pass_start;
	}
	if (wait || fz->error[0])
		return;
	for (int j = 0; j < njobs; j++)
		committed += LOAD_RELAXED(jobs[j].bytes_committed);
	if (committed - fz->passed_bytes < fz->step_bytes)
		return;
	if (!PQsendQuery(fz->conn, fz->sql))
	{
		snprintf(fz->error, sizeof(fz->error), "%s", chomp(PQerrorMessage(fz->conn)));
		return;
	}
	fz->busy = true;
	fz->passed_bytes = committed;
	fz->pass_start = now_s();
}

static bool
any_running(const Job *jobs, int njobs)
{
	for (int j = 0; j < njobs; j++)
		if (LOAD_ACQUIRE(jobs[j].state) == JOB_RUNNING)
			return true;
	return false;
}

/*
 * Start the jobs and watch them until every one has ended.  ctl is NULL
 * with --stdout; fz is NULL unless the load freezes in steps.  False if a
 * job could not be started (the others are stopped, and the job says why).
 */
bool
run_jobs(Job *jobs, int njobs, PGconn *ctl, Freezer *fz, Progress *pg)
{
	double		next_report = pg->start + pg->interval;
	double		next_watch = pg->start + 1.0;
	bool		started = true;
	int			nstarted = 0;

	/* The threads inherit the mask: signals go to this thread only. */
	signals_block(true);
	for (int j = 0; j < njobs; j++)
	{
		int			rc = pthread_create(&jobs[j].thread, NULL, run_job, &jobs[j]);

		if (rc != 0)
		{
			job_error(&jobs[j], "could not start a thread: %s", strerror(rc));
			STORE_RELAXED(abort_load, 1);
			for (int k = j; k < njobs; k++)
				STORE_RELEASE(jobs[k].state, k == j ? JOB_FAILED : JOB_ABORTED);
			started = false;
			break;
		}
		nstarted++;
	}
	signals_block(false);
	while (any_running(jobs, njobs))
	{
		struct timespec nap = {0, 20 * 1000 * 1000};

		/* The handler has sent the cancels; the jobs stop at their next chunk. */
		if (interrupted)
			STORE_RELAXED(abort_load, 1);
		if (ctl && now_s() >= next_watch)
		{
			watch_backends(ctl, jobs, njobs);
			next_watch = now_s() + 1.0;
		}
		if (pg->interval > 0 && now_s() >= next_report)
		{
			report_progress(pg, jobs, njobs, false);
			next_report += pg->interval;
		}
		if (fz && !interrupted)
			freezer_poll(fz, jobs, njobs, false);
		nanosleep(&nap, NULL);
	}
	if (fz && fz->busy)
		freezer_poll(fz, jobs, njobs, true);
	for (int j = 0; j < nstarted; j++)
		pthread_join(jobs[j].thread, NULL);
	if (pg->interval > 0)
		report_progress(pg, jobs, njobs, true);
	return started;
}
