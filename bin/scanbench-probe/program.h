/*
 * program.h: scanbench-probe, the scan efficiency of a server where
 * scanbench cannot be installed, measured from a client over libpq alone:
 * what every file knows, the program's name and version and its exit
 * statuses.  Each module has a header of its own, named for its file.
 *
 * Where each concern lives:
 *   main.c      the steps in order: options, profiles, connection, the
 *               passes, the judgement, the report, the central history
 *   options.c   the command line and --help
 *   profiles.c  the storage profiles file, a profile's lookup and the
 *               --storage override, the limit a profile gives at a request
 *               size (pure: no connection)
 *   server.c    the connection (search_path pinned), what the server is
 *               and allows: version, settings, pg_stat_io, pg_buffercache,
 *               pg_prewarm, the table
 *   explain.c   the figures of EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON)'s
 *               output (pure)
 *   probe.c     the measurement: the timed passes, with the pg_stat_io
 *               deltas and the shared buffers' state around them
 *   judge.c     the figures and the judgement of each pass: rates, how
 *               cold it was, the volume's share (pure arithmetic)
 *   report.c    the text and json output
 *   history.c   the central history: the runs into scanbench's
 *               scan_history, marked as measured from a client
 *   signals.c   SIGINT and SIGTERM: cancel the running pass
 *   ../common/xalloc.c  memory that is there or ends the program
 *               (messages: ../common/cli.c)
 */
#ifndef SCANBENCH_PROBE_PROGRAM_H
#define SCANBENCH_PROBE_PROGRAM_H

#define PROBE_NAME			"scanbench-probe"
#define PROBE_VERSION		SCANBENCH_VERSION

/* Exit status. */
#define EXIT_MEASURED		0	/* measured (and recorded, with --history) */
#define EXIT_BELOW			1	/* measured cold, below --min-pct of the volume */
#define EXIT_CANNOT_RUN		2	/* nothing measured: options, profiles, server, table */
#define EXIT_LOST			3	/* a pass failed or the server went away mid-run */
#define EXIT_NOT_RECORDED	4	/* measured, but the central history refused the runs */

#endif							/* SCANBENCH_PROBE_PROGRAM_H */
