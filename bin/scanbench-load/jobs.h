/*
 * jobs.h: the jobs of a load, one thread and one connection per range of
 * orders, and the connection that freezes in steps (jobs.c).
 */
#ifndef SCANBENCH_LOAD_JOBS_H
#define SCANBENCH_LOAD_JOBS_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <libpq-fe.h>

#include "cli.h"
#include "dbt3.h"
#include "progress.h"

typedef enum
{
	JOB_RUNNING,
	JOB_COPIED,					/* COPY ended well; transaction still open */
	JOB_FAILED,					/* failed on its own: job->error says why */
	JOB_ABORTED					/* stopped because another job failed or SIGINT */
} JobState;

typedef struct Job
{
	int			id;
	const Dbt3 *gen;
	Dbt3Format	format;
	int64_t		first_unit;	/* unit indexes [first_unit, end_unit): orders, or parts */
	int64_t		end_unit;
	PGconn	   *conn;			/* NULL: write to standard output */
	pthread_t	thread;
	const char *copy_sql;
	int64_t		step_bytes;		/* commit every this many bytes; 0: at the end */

	/* written by the job, read by the main thread (relaxed atomics) */
	int64_t		units_done;
	int64_t		rows_done;
	int64_t		bytes_done;
	int64_t		bytes_committed;	/* by the steps' commits */
	int			state;

	/* set by the main thread when the server has failed this job's COPY */
	int			server_failed;
	int			backend_pid;

	int64_t		rows_copied;	/* COPYs' command tags, summed */
	char		error[1024];
} Job;

#define LOAD_RELAXED(x)		__atomic_load_n(&(x), __ATOMIC_RELAXED)
#define STORE_RELAXED(x, v)	__atomic_store_n(&(x), (v), __ATOMIC_RELAXED)
#define LOAD_ACQUIRE(x)		__atomic_load_n(&(x), __ATOMIC_ACQUIRE)
#define STORE_RELEASE(x, v)	__atomic_store_n(&(x), (v), __ATOMIC_RELEASE)

/*
 * Freezing in steps (load.c says when): while the jobs commit their rows in
 * steps, this connection runs VACUUM (FREEZE) on what they committed.
 */
typedef struct
{
	PGconn	   *conn;
	char		sql[400];
	int64_t		step_bytes;		/* a pass after this many newly committed bytes */
	int64_t		passed_bytes;	/* committed when the last pass began */
	bool		busy;			/* a pass is running */
	int			passes;
	double		busy_s;			/* the passes' time */
	double		pass_start;
	char		error[1024];	/* a failed pass; the load goes on */
} Freezer;

extern void split_units(Job *jobs, int njobs, const Dbt3 *gen, Dbt3Format format);
extern bool run_jobs(Job *jobs, int njobs, PGconn *ctl, Freezer *fz, Progress *pg);
extern void job_error(Job *job, const char *fmt,...) PRINTF_LIKE(2, 3);
extern const char *load_error(const Job *jobs, int njobs);

#endif							/* SCANBENCH_LOAD_JOBS_H */
