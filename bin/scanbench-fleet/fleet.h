/*
 * fleet.h: scanbench-fleet, scan_efficiency on many servers at once: what
 * every file knows, the program's name and version, its exit statuses, the
 * most jobs it runs.  Each module has a header of its own, named for its
 * file (run.c: run.h); options.h holds the Options, servers.h a Server,
 * measure.h a Row.
 *
 * Where each concern lives:
 *   main.c      the steps in order: options, servers, history, measure,
 *               judge, record, print
 *   options.c   the command line and --help
 *   servers.c   the servers file (one server a line, tag=value words)
 *   run.c       the measurements: non-blocking libpq over every server,
 *               --jobs at a time, with deadlines and cancellation
 *   measure.c   the SQL each server runs, the history's columns and a
 *               row's values by column
 *   cohort.c    the judgement: each row against its cohort and its own
 *               history (pure arithmetic, no connections)
 *   central_history.c  the central history: its check, the earlier
 *               runs, COPY
 *   queue.c     --night: the servers taken from a queue in the central
 *               database that several runners share, with leases
 *   report.c    the table, csv and json output
 *   signals.c   SIGINT and SIGTERM: cancel every running call
 *   db.c        the password -W asks for, once, for every connection
 *   ../common/xalloc.c  memory that is there or ends the program
 *               (messages: ../common/cli.c)
 */
#ifndef FLEET_H
#define FLEET_H

#define FLEET_NAME			"scanbench-fleet"
#define FLEET_VERSION		SCANBENCH_VERSION

/* Exit status. */
#define EXIT_HEALTHY		0
#define EXIT_ALARM			1
#define EXIT_CANNOT_RUN		2

#define MAX_JOBS			1024

#endif							/* FLEET_H */
