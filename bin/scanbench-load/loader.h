/*
 * loader.h: what every part of scanbench-load knows: its name and version,
 * its exit statuses, the most jobs it runs.  Each module has a header of
 * its own, named for its file (locks.c: locks.h); the shared types have
 * theirs (options.h: the Options; load_state.h: a load's state).
 *
 * scanbench-load writes a DBT-3 lineitem table (derived from TPC-H), or
 * part_doc, a table of TOASTed values (--toast), into PostgreSQL through
 * COPY FROM STDIN, generating the rows as they are sent.
 * Why a generator of its own: dbgen writes a file as big as the table and
 * takes longer per scale factor than the server needs to ingest it.  Here the
 * rows are made in memory at several times the server's COPY rate and
 * streamed in large buffers, so the load runs at the server's limit, in one
 * command, with flat memory.
 *
 * The files, by concern:
 *   dbt3*.c      the generator, a pure unit with its own header (dbt3.h)
 *   tables.c     the tables it makes (lineitem, part_doc): columns, storage,
 *                the columns --index takes
 *   options.c    options and --help
 *   main.c       main: options, generator, then load or --stdout
 *   server.c     what the server is: the settings that decide a load's
 *                cost, its CPUs, the WAL position and checkpoint counters
 *   plan.c       how many jobs (--jobs=auto), and what an explicit count costs
 *   load.c       create, COPY (FREEZE), commit or roll back, freeze, analyze
 *   step.c       one statement of a load, its error kept
 *   staging.c    the staging table, dropped when its load fails or was killed
 *   indexes.c    --index: names checked first, built on the staging table,
 *                renamed in with it
 *   summary.c    the one line a load prints when it is done
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

#define LOADER_NAME			"scanbench-load"
/* SCANBENCH_VERSION comes from the Makefile, read from scanbench.control. */
#define LOADER_VERSION		SCANBENCH_VERSION	/* also the extension version --check wants */

#define EXIT_FAILURE_LOAD	1
#define EXIT_USAGE			2
#define EXIT_LOCK_TIMEOUT	3

#define MAX_JOBS			256
/* signals.c's slot for the connection that freezes in steps (jobs.c) */
#define FREEZER_SLOT		(MAX_JOBS + 1)

#endif							/* LOADER_H */
