/*
 * probe.h: the measurement: the timed passes over the table, with the
 * pg_stat_io deltas and the shared buffers' state around them (probe.c).
 */
#ifndef SCANBENCH_PROBE_PROBE_H
#define SCANBENCH_PROBE_PROBE_H

#include <stdbool.h>

#include <libpq-fe.h>

#include "explain.h"
#include "options.h"
#include "server.h"

/* One pass: a count of the whole table, timed. */
typedef struct Pass
{
	int			number;			/* from 1 */
	char	   *measured_at;	/* the server's clock as it began */
	double		wall_s;			/* the client's clock around the EXPLAIN */
	ExplainFigures explain;
	double		table_bytes;	/* the main fork's size, under the pass's lock */
	/* pg_stat_io over the pass; NAN where not known */
	double		io_reads;		/* read requests (18), or blocks (16, 17) */
	double		io_read_bytes;	/* 18 */
	double		io_read_ms;		/* with track_io_timing */
} Pass;

typedef struct Run
{
	bool		io_timing;		/* track_io_timing was on for the passes */
	const char *io_timing_how;	/* on for everyone, set for the passes, or why not */
	const char *stat_io_scope;	/* whose reads pg_stat_io counted; NULL: none */
	bool		prewarmed;
	double		buffered_before;	/* pg_buffercache: the table's blocks in
									 * shared buffers before pass 1; NAN */
	double		buffered_after; /* and after the last */
	Pass	   *passes;
	int			npasses;		/* done */
	char	   *failed;			/* why the run stopped early; NULL */
	bool		lost;			/* the server went away */
} Run;

extern void probe_run(PGconn *conn, const ServerInfo *s, const TableInfo *t,
					  const Options *opt, Run *run);

#endif							/* SCANBENCH_PROBE_PROBE_H */
