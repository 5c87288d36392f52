/*
 * explain.h: the figures of one EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON)
 * of a count over a sequential scan (explain.c).
 */
#ifndef SCANBENCH_PROBE_EXPLAIN_H
#define SCANBENCH_PROBE_EXPLAIN_H

#include <stdbool.h>

typedef struct ExplainFigures
{
	double		execution_ms;	/* Execution Time */
	double		hit_blocks;		/* the plan's top node: the whole scan */
	double		read_blocks;
	double		dirtied_blocks;
	double		written_blocks;
	double		read_ms;		/* shared read wait; NAN without track_io_timing */
	double		rows;			/* the Seq Scan node's Actual Rows */
	char		top_node[64];	/* Node Type of the plan's top */
	bool		seq_scan;		/* a Seq Scan node is in the plan */
} ExplainFigures;

extern bool explain_parse(const char *json, ExplainFigures *f, char **error);

#endif							/* SCANBENCH_PROBE_EXPLAIN_H */
