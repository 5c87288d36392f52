/*
 * loader.h: what the parts of scanbench-load share.
 *
 * scanbench-load writes a DBT-3 lineitem table (derived from TPC-H) into
 * PostgreSQL through COPY FROM STDIN, generating the rows as they are sent.
 * Why a generator of its own: dbgen writes a file as big as the table and
 * takes longer per scale factor than the server needs to ingest it.  Here the
 * rows are made in memory at several times the server's COPY rate and
 * streamed in large buffers, so the load runs at the server's limit, in one
 * command, with flat memory.
 *
 * The files, by concern:
 *   dbt3*.c      the generator, a pure unit with its own header (dbt3.h)
 *   options.c    options and --help
 *   main.c       main: options, generator, then load or --stdout
 *   server.c     what the server is: the settings that decide a load's
 *                cost, its CPUs, the WAL position and checkpoint counters
 *   plan.c       how many jobs (--jobs=auto), and what an explicit count costs
 *   load.c       create, COPY (FREEZE), commit or roll back, freeze, analyze
 *   step.c       one statement of a load, its error kept
 *   locks.c      the steps that take ACCESS EXCLUSIVE: lock_timeout, who
 *                holds the lock, what depends on the table
 *   jobs.c       one thread and one connection per range of orders
 *   progress.c   progress reports and timing
 *   signals.c    SIGINT, SIGTERM and SIGHUP
 *   db.c         connecting and running statements
 *   check.c      --check against the scanbench extension
 *   to_stdout.c  --stdout
 *   ../common/cli.c  error messages, the numeric options, the password
 *
 * Exit status: 0 loaded, 1 failure (the database is as it was), 2 bad
 * arguments, 3 gave up waiting for a lock (the database is as it was),
 * 128 + N stopped by signal N: 129 SIGHUP, 130 SIGINT, 143 SIGTERM (the
 * database is as it was, or holds the complete table).
 */
#ifndef LOADER_H
#define LOADER_H

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libpq-fe.h>

#include "cli.h"
#include "dbt3.h"

#define LOADER_NAME			"scanbench-load"
/* SCANBENCH_VERSION comes from the Makefile, read from scanbench.control. */
#define LOADER_VERSION		SCANBENCH_VERSION	/* also the extension version --check wants */

#define EXIT_FAILURE_LOAD	1
#define EXIT_USAGE			2
#define EXIT_LOCK_TIMEOUT	3

/* lock_timeout is an int of milliseconds. */
#define DEFAULT_LOCK_TIMEOUT_S	10.0
#define MAX_LOCK_TIMEOUT_S		2147483.0

#define MAX_JOBS			256
/* signals.c's slot for the connection that freezes in steps (jobs.c) */
#define FREEZER_SLOT		(MAX_JOBS + 1)

#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))

/* options.c */
typedef struct
{
	double		scale;
	uint64_t	seed;
	const char *table;
	bool		drop;
	bool		force_drop;		/* --drop a table scanbench did not make */
	bool		append;
	bool		unlogged;
	const char *distribute;		/* Citus distribution column, or NULL */
	int			shard_count;	/* 0: Citus' default */
	int			jobs;			/* 0: auto (plan.c) */
	double		lock_timeout;	/* seconds; 0 = wait without limit */
	Dbt3Format	format;
	bool		to_stdout;
	bool		quiet;
	bool		json;			/* the summary as JSON on stdout */
	bool		check;
	double		progress;		/* seconds between reports; 0 = none */
	const char *host;
	const char *port;
	const char *user;
	const char *dbname;
	int			password_prompt;	/* -1 never (-w), 0 when asked, 1 first (-W) */
} Options;

/* Longest identifier the server keeps whole (NAMEDATALEN - 1). */
#define MAX_IDENTIFIER_BYTES	63

extern bool parse_options(int argc, char **argv, Options *opt, int *status);

/* log_error, usage_error, chomp, the option parsers: ../common/cli.h */

/* signals.c */
extern volatile sig_atomic_t interrupted;
extern void signals_init(void);
extern void signals_block(bool block);
extern void signals_set_phase(bool undo, const char *message);
extern void signals_watch_conn(int slot, PGconn *conn);
extern int	interrupted_status(void);

/* jobs.c */
typedef enum
{
	JOB_RUNNING,
	JOB_COPIED,					/* COPY ended well; transaction still open */
	JOB_FAILED,					/* failed on its own: job->error says why */
	JOB_ABORTED					/* stopped because another job failed or SIGINT */
} JobState;

typedef struct
{
	int			id;
	const Dbt3 *gen;
	Dbt3Format	format;
	int64_t		first_order;	/* order indexes [first_order, end_order) */
	int64_t		end_order;
	PGconn	   *conn;			/* NULL: write to standard output */
	pthread_t	thread;
	const char *copy_sql;
	int64_t		step_bytes;		/* commit every this many bytes; 0: at the end */

	/* written by the job, read by the main thread (relaxed atomics) */
	int64_t		orders_done;
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

/* progress.c */
typedef struct
{
	double		interval;		/* seconds between reports; 0 = none */
	bool		tty;			/* rewrite one line on a terminal */
	int			width;			/* of the line last written */
	double		start;			/* now_s() when the jobs' work began */
} Progress;

extern double now_s(void);
extern long peak_rss_mb(void);
extern double cpu_s(void);
extern void report_progress(Progress *pg, const Job *jobs, int njobs, bool last);

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

extern void split_orders(Job *jobs, int njobs, const Dbt3 *gen, Dbt3Format format);
extern bool run_jobs(Job *jobs, int njobs, PGconn *ctl, Freezer *fz, Progress *pg);
extern void job_error(Job *job, const char *fmt,...) PRINTF_LIKE(2, 3);
extern const char *load_error(const Job *jobs, int njobs);

/* db.c */
extern PGconn *connect_db(const Options *opt);
extern PGconn *reconnect_db(const Options *opt, double seconds);
extern bool run_sql(PGconn *conn, const char *sql, const char *what);
extern bool run_cleanup_sql(PGconn *conn, const char *sql);
extern char *query_value(PGconn *conn, const char *sql, const char *qname);
extern PGresult *query_rows(PGconn *conn, const char *sql, const char *param);
extern char *sqlf(const char *fmt,...) PRINTF_LIKE(1, 2);

/* server.c */
typedef struct
{
	int			version_num;	/* server_version_num */
	char		wal_level[16];
	bool		wal_minimal;
	bool		fsync;
	bool		full_page_writes;
	bool		wal_log_hints;
	bool		data_checksums;
	int64_t		max_wal_size_mb;
	bool		in_recovery;	/* a standby */
	int			standbys;		/* streaming from it */
	int			cpus;			/* 0: not known (a remote server) */
} ServerInfo;

extern bool server_inspect(PGconn *conn, ServerInfo *si);
extern void server_describe(const ServerInfo *si, char *buf, size_t size);
extern int64_t server_wal_lsn(PGconn *conn);
extern bool server_checkpoints(PGconn *conn, const ServerInfo *si, int64_t *timed,
							   int64_t *requested);

/* plan.c */
typedef struct
{
	int			jobs;
	bool		automatic;		/* chosen by --jobs=auto */
	bool		freeze_steps;	/* several jobs: freeze while loading (load.c) */
	int64_t		step_bytes;		/* a job commits, and the freezer runs, this often */
	char		why[256];		/* what the rule saw */
	char		cost[512];		/* an explicit count expected slower than one job */
} JobsPlan;

extern void plan_jobs(JobsPlan *plan, const ServerInfo *si, int given, bool unlogged,
					  bool citus, bool append, int64_t orders);

/* check.c */
extern bool check_extension(PGconn *conn);
extern bool run_check(PGconn *conn, const char *qname);

/* load.c */
extern int	load(const Options *opt, const Dbt3 *gen, Progress *pg);

/* to_stdout.c */
extern int	write_stdout(const Options *opt, const Dbt3 *gen, Progress *pg);

#endif							/* LOADER_H */
