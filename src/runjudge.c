/*-------------------------------------------------------------------------
 *
 * runjudge.c
 *	  The judges of recorded runs: whether a run is an alarm, a warning or
 *	  within its limits.  The rules are data, lines of judgerules.c with
 *	  their thresholds, levels and meanings; sb_judge_run applies a
 *	  scan_history run's to its figure, the median of the earlier runs it
 *	  is compared with and the limits it is judged with,
 *	  sb_judge_page_costs_run a page_costs_history run's to that run.
 *
 * The SQL judges (scanbench_internal.scan_history_verdict and
 * page_costs_judge) read the runs, word the messages and call these
 * through scanbench_internal.judge_run() and judge_page_costs_run(): for a
 * single run, and for each run of a night judged as a set, on the node
 * that holds the run when the history is distributed.  So the thresholds
 * live in C, beside their rules in judgerules.c, and sql/judge.sql puts a
 * figure on either side of each.
 *
 * A scan_history run's rules (its alarm is called a regression), in the
 * order a message names them:
 *   below_limit   the figure below min_pct
 *   drop          the figure more than max_drop_pct below the median of
 *                 the earlier runs, with earlier_runs (3) of them at
 *                 least: against fewer, one noisy run would be the median
 *   near_limit    no alarm, and the figure below warn_pct, or by default
 *                 10 % above min_pct but never more than halfway from it to
 *                 100 %, so that a figure can stay clear of the warning
 *   drop_warning  no alarm, and the figure more than warn_drop_pct below
 *                 that median
 *
 * A page_costs_history run's rules, in that order:
 *   off_limit     the random_page_cost in force more than max_off_pct (of
 *                 the recommendation) outside the recommended interval
 *   off_half      no alarm, and it more than half of max_off_pct outside
 *   moved         the ratio more than max_off_pct from the median of the
 *                 table's earlier runs of {ok}: the storage changed
 *   shallow       effective_io_concurrency in force below the least depth
 *                 every sweep found the random reads need: bitmap heap
 *                 scans wait, the planner's choices unharmed (a warning)
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "judgerules.h"
#include "runjudge.h"

const char *
sb_run_status_name(SbRunLevel level)
{
	return level == SB_RUN_ALARM ? "regression" :
		level == SB_RUN_WARNING ? "warning" : "ok";
}

const char *
sb_page_costs_status_name(SbRunLevel level)
{
	return level == SB_RUN_ALARM ? "alarm" :
		level == SB_RUN_WARNING ? "warning" : "ok";
}

static void
fire(SbRunFired *f, SbRuleId id)
{
	const SbRule *rule = sb_rule(id);

	Assert(f->n < SB_RUN_MAX_RULES);
	f->rules[f->n++] = rule;
	if (rule->level > f->level)
		f->level = rule->level;
}

/*
 * A comparison with a figure not had (NaN, SQL's NULL) holds for no rule,
 * as SQL's comparison with NULL does.
 */
static bool
above(double a, double b)
{
	return !isnan(a) && !isnan(b) && a > b;
}

void
sb_judge_run(const SbRunInput *in, SbRunVerdict *v)
{
	SbRunFired *f = &v->fired;

	memset(v, 0, sizeof(*v));
	f->level = SB_RUN_OK;
	v->drop_judged = in->earlier_runs >= sb_threshold(SB_RULE_EARLIER_RUNS) ?
		in->drop_pct : NAN;
	if (!isnan(in->warn_pct))
		v->warn_at = in->warn_pct;
	else if (!isnan(in->min_pct))
		v->warn_at = Min(in->min_pct * sb_threshold(SB_RULE_NEAR_LIMIT),
						 (in->min_pct + 100) / 2);
	else
		v->warn_at = NAN;

	if (above(in->min_pct, in->scan_pct))
		fire(f, SB_RULE_BELOW_LIMIT);
	if (above(v->drop_judged, in->max_drop_pct))
		fire(f, SB_RULE_DROP);
	if (f->n > 0)
		return;
	if (above(v->warn_at, in->scan_pct))
		fire(f, SB_RULE_NEAR_LIMIT);
	if (above(v->drop_judged, in->warn_drop_pct))
		fire(f, SB_RULE_DROP_WARNING);
}

void
sb_judge_page_costs_run(const SbPageCostsInput *in, SbRunFired *f)
{
	memset(f, 0, sizeof(*f));
	f->level = SB_RUN_OK;
	if (above(in->off_pct, in->max_off_pct))
		fire(f, SB_RULE_OFF_LIMIT);
	else if (above(in->off_pct, in->max_off_pct * sb_threshold(SB_RULE_OFF_HALF)))
		fire(f, SB_RULE_OFF_HALF);
	if (above(fabs(in->change_pct), in->max_off_pct))
		fire(f, SB_RULE_MOVED);
	if (in->eic >= 0 && in->eic_low >= 0 && in->eic < in->eic_low)
		fire(f, SB_RULE_SHALLOW);
}
