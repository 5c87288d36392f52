/*-------------------------------------------------------------------------
 *
 * runjudge.h
 *	  The judges of recorded runs: a scan_history run against its earlier
 *	  runs, a page_costs_history run against its recommendation; the
 *	  functions that apply their rules (runjudge.c), whose thresholds and
 *	  meanings are lines of judgerules.c.
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCANBENCH_RUNJUDGE_H
#define SCANBENCH_RUNJUDGE_H

#include "judgerules.h"

#define SB_RUN_MAX_RULES	4

/*
 * The rules of judgerules.c that held, in their table's order, and the
 * worst level: a rule's name is what the SQL judge words its message by.
 */
typedef struct SbRunFired
{
	SbRunLevel	level;
	int			n;
	const SbRule *rules[SB_RUN_MAX_RULES];
} SbRunFired;

/*
 * A run's figure and what it is compared with.  NaN is a figure or a
 * limit not had (SQL's NULL).
 */
typedef struct SbRunInput
{
	double		scan_pct;
	double		drop_pct;		/* below the earlier runs' median, in % */
	int			earlier_runs;
	double		min_pct;
	double		max_drop_pct;
	double		warn_pct;
	double		warn_drop_pct;
} SbRunInput;

typedef struct SbRunVerdict
{
	SbRunFired	fired;			/* level: ok, warning, regression */
	double		warn_at;		/* a warning below this figure; NaN: none */
	double		drop_judged;	/* the drop, where enough runs judge it */
} SbRunVerdict;

/*
 * A page_costs run that has a recommendation: how far the random_page_cost
 * in force is off it, how far its ratio moved, the depth bitmap heap
 * scans keep against the least its sweeps found enough.  NaN, and -1 for
 * a depth, is a figure not had.
 */
typedef struct SbPageCostsInput
{
	double		off_pct;		/* outside the recommended interval, % of
								 * the recommendation */
	double		change_pct;		/* the ratio against the window's median */
	double		max_off_pct;
	int			eic;			/* effective_io_concurrency in force */
	int			eic_low;		/* the least depth every sweep found enough */
} SbPageCostsInput;

extern const char *sb_run_status_name(SbRunLevel level);
extern const char *sb_page_costs_status_name(SbRunLevel level);
extern void sb_judge_run(const SbRunInput *in, SbRunVerdict *v);
extern void sb_judge_page_costs_run(const SbPageCostsInput *in,
									SbRunFired *fired);

#endif							/* SCANBENCH_RUNJUDGE_H */
