/*-------------------------------------------------------------------------
 *
 * runjudge.c
 *	  The judges of recorded runs: whether a run is an alarm, a warning or
 *	  within its limits.  The rules are data (the tables below), each with
 *	  what it means; sb_judge_run applies history_rules to a scan_history
 *	  run's figure, the median of the earlier runs it is compared with
 *	  and the limits it is judged with, sb_judge_page_costs_run applies
 *	  page_costs_rules to a page_costs_history run.
 *
 * The SQL judges (scanbench_internal.scan_history_verdict and
 * page_costs_judge) read the runs, word the messages and call these
 * through scanbench_internal.judge_run() and judge_page_costs_run(): for a
 * single run, and for each run of a night judged as a set, on the node
 * that holds the run when the history is distributed.  So the thresholds
 * live here, beside their rules, and sql/judge.sql puts a figure on either
 * side of each.
 *
 * A scan_history run's rules (its alarm is called a regression), in the
 * order a message names them:
 *   below_limit   the figure below min_pct
 *   drop          the figure more than max_drop_pct below the median of
 *                 the earlier runs, with SB_RUN_MIN_EARLIER of them at
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

#include "runjudge.h"

/*
 * By default a warning this far above min_pct (a factor), and at most
 * halfway from it to 100 %.
 */
#define SB_RUN_WARN_MARGIN	1.1

/* A page-cost warning beyond this share of max_off_pct. */
#define SB_PAGE_COSTS_WARN_SHARE	0.5

enum
{
	RULE_BELOW_LIMIT,
	RULE_DROP,
	RULE_NEAR_LIMIT,
	RULE_DROP_WARNING
};

static const SbRunRule history_rules[] = {
	[RULE_BELOW_LIMIT] = {"below_limit", SB_RUN_ALARM,
	"the figure is below min_pct"},
	[RULE_DROP] = {"drop", SB_RUN_ALARM,
	"the figure is more than max_drop_pct below the median of the earlier runs, 3 of them at least"},
	[RULE_NEAR_LIMIT] = {"near_limit", SB_RUN_WARNING,
	"no alarm, and the figure is below warn_pct (by default 10 % above min_pct, at most halfway from it to 100)"},
	[RULE_DROP_WARNING] = {"drop_warning", SB_RUN_WARNING,
	"no alarm, and the figure is more than warn_drop_pct below the median of the earlier runs, 3 of them at least"},
};

enum
{
	RULE_OFF_LIMIT,
	RULE_OFF_HALF,
	RULE_MOVED,
	RULE_SHALLOW
};

static const SbRunRule page_costs_rules[] = {
	[RULE_OFF_LIMIT] = {"off_limit", SB_RUN_ALARM,
	"random_page_cost in force is more than max_off_pct (of the recommendation) outside the recommended interval"},
	[RULE_OFF_HALF] = {"off_half", SB_RUN_WARNING,
	"no alarm, and random_page_cost in force is more than half of max_off_pct outside it"},
	[RULE_MOVED] = {"moved", SB_RUN_WARNING,
	"the ratio moved more than max_off_pct from the median of the table's earlier runs of {ok}"},
	[RULE_SHALLOW] = {"shallow", SB_RUN_WARNING,
	"effective_io_concurrency in force is below the least depth every sweep found the random reads need"},
};

StaticAssertDecl(lengthof(history_rules) <= SB_RUN_MAX_RULES &&
				 lengthof(page_costs_rules) <= SB_RUN_MAX_RULES,
				 "SbRunFired holds every rule of a table");

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
fire(SbRunFired *f, const SbRunRule *rule)
{
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
	v->drop_judged = in->earlier_runs >= SB_RUN_MIN_EARLIER ? in->drop_pct : NAN;
	if (!isnan(in->warn_pct))
		v->warn_at = in->warn_pct;
	else if (!isnan(in->min_pct))
		v->warn_at = Min(in->min_pct * SB_RUN_WARN_MARGIN, (in->min_pct + 100) / 2);
	else
		v->warn_at = NAN;

	if (above(in->min_pct, in->scan_pct))
		fire(f, &history_rules[RULE_BELOW_LIMIT]);
	if (above(v->drop_judged, in->max_drop_pct))
		fire(f, &history_rules[RULE_DROP]);
	if (f->n > 0)
		return;
	if (above(v->warn_at, in->scan_pct))
		fire(f, &history_rules[RULE_NEAR_LIMIT]);
	if (above(v->drop_judged, in->warn_drop_pct))
		fire(f, &history_rules[RULE_DROP_WARNING]);
}

void
sb_judge_page_costs_run(const SbPageCostsInput *in, SbRunFired *f)
{
	memset(f, 0, sizeof(*f));
	f->level = SB_RUN_OK;
	if (above(in->off_pct, in->max_off_pct))
		fire(f, &page_costs_rules[RULE_OFF_LIMIT]);
	else if (above(in->off_pct, in->max_off_pct * SB_PAGE_COSTS_WARN_SHARE))
		fire(f, &page_costs_rules[RULE_OFF_HALF]);
	if (above(fabs(in->change_pct), in->max_off_pct))
		fire(f, &page_costs_rules[RULE_MOVED]);
	if (in->eic >= 0 && in->eic_low >= 0 && in->eic < in->eic_low)
		fire(f, &page_costs_rules[RULE_SHALLOW]);
}
