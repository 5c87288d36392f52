/*-------------------------------------------------------------------------
 *
 * chart_runs.h
 *	  The runs scan_history_svg() draws, read from the history
 *	  (chart_runs.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCANBENCH_CHART_RUNS_H
#define SCANBENCH_CHART_RUNS_H

#include "chart.h"

extern void sb_chart_read(SbChart *chart, const char *nsp,
						  const char *want_schema, const char *want_name);

#endif							/* SCANBENCH_CHART_RUNS_H */
