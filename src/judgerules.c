/*-------------------------------------------------------------------------
 *
 * judgerules.c
 *	  The one table of the judges' rules (judgerules.h): a figure's verdict
 *	  (verdict.c), the small judges of page_costs, index_crossover,
 *	  access_paths, toast_efficiency and workload_scans (verdict.c too), a
 *	  recorded run's (runjudge.c) and the fleet's cohort (cohortrule.c).
 *
 * Each threshold is written once, here, beside what it is compared with
 * and what the rule says when it holds; the judges keep the code that
 * reads the figures (which side of a limit, which marks exclude which)
 * and the words of their NOTICEs, since those name the figures judged.
 * A threshold several judges share is one line with their bits: the
 * share resident after an eviction that makes a cold figure cached, for
 * instance, is the same for a scan, a path and a TOAST scan.  A NaN
 * threshold is a limit the caller gives (min_pct, max_off_pct): the rule
 * is here for its name, level and meaning.  sql/judge.sql and the
 * client's unit test put a figure on either side of each threshold.
 *
 * Plain C (no palloc, no ereport): scanbench-fleet compiles this file.
 *
 *-------------------------------------------------------------------------
 */
#include <math.h>
#include <stddef.h>

#include "judgerules.h"

#define FIGURE		SB_JUDGE_FIGURE
#define PAGE_COSTS	SB_JUDGE_PAGE_COSTS
#define CROSSOVER	SB_JUDGE_CROSSOVER
#define ACCESS_PATH SB_JUDGE_ACCESS_PATH
#define TOAST		SB_JUDGE_TOAST
#define SCAN_NODE	SB_JUDGE_SCAN_NODE
#define HISTORY		SB_JUDGE_HISTORY
#define PAGE_COSTS_RUN SB_JUDGE_PAGE_COSTS_RUN
#define COHORT		SB_JUDGE_COHORT

static const SbRule rules[SB_NRULES] = {
	/* a scan_efficiency figure */
	[SB_RULE_UNSTABLE] = {FIGURE, "unstable", "unstable", SB_RUN_OK, 5.0,
		"the half-width of scan_pct's interval, in % of its median, above it (above target_pct where the call gives one); or no interval",
	"the figure is too imprecise to read"},
	[SB_RULE_CACHED] = {FIGURE | CROSSOVER | ACCESS_PATH | TOAST | SCAN_NODE,
		"cached", "cached", SB_RUN_OK, 5.0,
		"the % of the blocks (of the table and index, of the three relations of a TOAST scan) still resident after an eviction, above it",
	"a cold pass found blocks resident: part of the figure came from memory, not from the storage"},
	[SB_RULE_HOST_CACHE] = {FIGURE, "host_cache", "host_cache", SB_RUN_OK, 1.1,
		"cold buffered reads' rate over the faster of the O_DIRECT reads one at a time and many in flight, above it, outside a read throttle",
	"a cache below this system served the cold reads"},
	[SB_RULE_BURST] = {FIGURE, "burst", "burst", SB_RUN_OK, 1.1,
		"the raw reads' bytes or requests a second, or the CPU the passes used, over what the group's limit allows, above it",
	"the timed passes fitted in a rate limiter's allowance: a long scan gets less"},
	[SB_RULE_DIRECT_CAPPED] = {FIGURE, "direct_capped", NULL, SB_RUN_OK, 1.1,
		"the O_DIRECT reads' rate over what a throttle of requests a second allows in 1 MB requests, at or below it",
	"the O_DIRECT reads measured the throttle, not the device: no host_cache and no depth_limited is judged on them"},
	[SB_RULE_CPU_CONTENDED] = {FIGURE, "cpu_contended", "cpu_contended", SB_RUN_OK, 0.1,
		"the time the backend was runnable but not running, less the time its quota held it, as a share of the timed passes, above it",
	"other processes kept the backend off a CPU: the rates include that wait"},
	[SB_RULE_CPU_HELD] = {FIGURE, "cpu_limited_held", "cpu_limited", SB_RUN_OK, 0.05,
		"the time the group's CPU quota held it back, as a share of the timed passes, above it; with the scan at its warm ceiling (warm_ceiling) or the quota used (cpu_limited_used)",
	"the server's own CPU quota held the scans back"},
	[SB_RULE_CPU_USED] = {FIGURE, "cpu_limited_used", "cpu_limited", SB_RUN_OK, 0.85,
		"the scans' CPU as a share of what the quota allows, or the share of the quota's periods the group ran out of it, at or above it",
	"the scans used up what the quota allows: a cold pass spends CPU in read() and meets the quota below the warm ceiling"},
	[SB_RULE_WARM_CEILING] = {FIGURE, "warm_ceiling", "storage_not_limiting", SB_RUN_OK, 0.9,
		"the scan's rate over its warm rate under the same limits, at or above it",
	"the scan ran at its CPU ceiling: the storage did not limit it (and a quota that held it back did)"},
	[SB_RULE_IO_BYTES] = {FIGURE, "io_limited_bytes", "io_limited", SB_RUN_OK, 0.9,
		"the raw reads' rate over the group's read throttle of bytes a second, at or above it",
	"the server's own read throttle, not the device, set the read rate"},
	/*
	 * Below the throttle's rate: seen in the lab, 339 requests/s of 4 MB
	 * under a limit of 400, the rate that limit and that size make.
	 */
	[SB_RULE_IO_REQUESTS] = {FIGURE | ACCESS_PATH | TOAST | SCAN_NODE,
		"io_limited_requests", "io_limited", SB_RUN_OK, 0.8,
		"the reads' requests a second over the group's read throttle of requests a second, at or above it (one large read-ahead request after another leaves gaps the throttle does not fill)",
	"the server's own read throttle, not the device, set the read rate"},
	[SB_RULE_DEPTH] = {FIGURE | SCAN_NODE, "depth_limited", "depth_limited", SB_RUN_OK, 1.5,
		"the device's rate with many reads in flight over its rate with one and over the scan's, at or above it (over a scan node's, above it, of a node reading one block at a time)",
	"the device's latency at the depth the scan kept set the scan's rate"},
	[SB_RULE_ABOVE_DEVICE] = {FIGURE, "storage_not_limiting", "storage_not_limiting", SB_RUN_OK, 105.0,
		"the scan's rate in % of the device read at depth, above it; where O_DIRECT is refused, scan_pct's whole interval above it",
	"the scan ran faster than the storage reads: scan_pct measures the CPU"},

	/* page_costs' ratio */
	[SB_RULE_PAGECOST_ROUNDS] = {PAGE_COSTS, "page_costs_rounds", "over_budget", SB_RUN_OK, 10,
		"the rounds of sequential and random page reads measured, below it",
	"too few rounds for an interval worth reading"},
	[SB_RULE_PAGECOST_INTERVAL] = {PAGE_COSTS, "page_costs_interval", "unstable", SB_RUN_OK, 15.0,
		"the half-width of the ratio's interval, in % of the ratio, above it; or no interval",
	"the ratio is too imprecise for a setting"},
	[SB_RULE_CACHED_BEFORE] = {PAGE_COSTS | CROSSOVER, "cached_before", "cached", SB_RUN_OK, 90.0,
		"the % of the table in the caches before the call, at or above it",
	"what queries on the table pay is the caches' speed, not the storage's"},

	/* index_crossover's */
	[SB_RULE_CROSS_NEVER_LOST] = {CROSSOVER, "no_crossover", "no_crossover", SB_RUN_OK, NAN,
		"an index scan of every key against a sequential scan: no longer (nothing else is judged)",
	"the index scan wins at any selectivity"},
	[SB_RULE_CROSS_ROUNDS] = {CROSSOVER, "crossover_rounds", "over_budget", SB_RUN_OK, 3,
		"the rounds of a cold sequential and a cold index scan measured, below it",
	"too few rounds for an interval worth reading"},
	[SB_RULE_CROSS_INTERVAL] = {CROSSOVER, "crossover_interval", "unstable", SB_RUN_OK, 25.0,
		"the half-width of the crossover's interval, in % of it, above it; or no interval",
	"the crossover is too imprecise to read"},
	[SB_RULE_CORRELATED] = {CROSSOVER, "correlated", "correlated", SB_RUN_OK, 0.5,
		"the index key's correlation with the table's order, either way, at or above it",
	"an index scan reads the table mostly in order: random_page_cost does not decide its crossover"},
	[SB_RULE_MISPLANNED] = {CROSSOVER, "misplanned", "misplanned", SB_RUN_OK, NAN,
		"the planner's path under the settings in force, at half and at twice the crossover: the slower one",
	"the settings lead the planner to the slower path"},

	/* access_paths', one cold path */
	[SB_RULE_PATH_ROUNDS] = {ACCESS_PATH, "path_rounds", "over_budget", SB_RUN_OK, 5,
		"the rounds of the path and of random reads at its depth measured, below it",
	"too few rounds for an interval worth reading"},
	[SB_RULE_PATH_INTERVAL] = {ACCESS_PATH, "path_interval", "unstable", SB_RUN_OK, 15.0,
		"the half-width of the path's interval, in % of its figure, above it; or no interval",
	"the path's figure is too imprecise to read"},

	/* toast_efficiency's */
	[SB_RULE_TOAST_ROUNDS] = {TOAST, "toast_rounds", "over_budget", SB_RUN_OK, 3,
		"the rounds of raw reads of the three relations and a detoasting scan measured, below it",
	"too few rounds for an interval worth reading"},
	[SB_RULE_TOAST_INTERVAL] = {TOAST, "toast_interval", "unstable", SB_RUN_OK, 15.0,
		"the half-width of the figure's interval, in % of it, above it; or no interval",
	"the figure is too imprecise to read"},

	/* workload_scans', one scan node */
	/* the same as workload_judge's bound_pct and cache_ratio (workload.sql) */
	[SB_RULE_NODE_BOUND] = {SCAN_NODE, "node_bound", "storage_not_limiting", SB_RUN_OK, 50.0,
		"the node's reads' share of its time, in %, below it (at or above it, its reads held it back)",
	"read-ahead or asynchronous reads had the blocks ready: the node's rate per second of wait is not the storage's"},
	[SB_RULE_NODE_CACHE] = {SCAN_NODE, "node_host_cache", "host_cache", SB_RUN_OK, 2.0,
		"a cold node's read rate, of a node its reads held back and nothing resident, over every rate the storage was measured to give, above it",
	"a cache below this system served the node's reads"},

	/* a scan_history run against its earlier runs */
	[SB_RULE_BELOW_LIMIT] = {HISTORY, "below_limit", NULL, SB_RUN_ALARM, NAN,
		"the run's scan_pct, below the call's min_pct",
	"the figure is below min_pct"},
	[SB_RULE_DROP] = {HISTORY, "drop", NULL, SB_RUN_ALARM, NAN,
		"the run's drop below the earlier runs' median, in %, above the call's max_drop_pct, with earlier_runs of them",
	"the figure is more than max_drop_pct below the median of the earlier runs, 3 of them at least"},
	[SB_RULE_NEAR_LIMIT] = {HISTORY, "near_limit", NULL, SB_RUN_WARNING, 1.1,
		"no alarm, and the run's scan_pct below warn_pct, or by default below min_pct times this, never more than halfway from min_pct to 100",
	"no alarm, and the figure is below warn_pct (by default 10 % above min_pct, at most halfway from it to 100)"},
	[SB_RULE_DROP_WARNING] = {HISTORY, "drop_warning", NULL, SB_RUN_WARNING, NAN,
		"no alarm, and the run's drop below the earlier runs' median, in %, above the call's warn_drop_pct, with earlier_runs of them",
	"no alarm, and the figure is more than warn_drop_pct below the median of the earlier runs, 3 of them at least"},
	[SB_RULE_EARLIER_RUNS] = {HISTORY, "earlier_runs", NULL, SB_RUN_OK, 3,
		"the earlier runs a drop is judged against, at least",
	"against fewer, one noisy run would be the median"},

	/* a page_costs_history run against its recommendation */
	[SB_RULE_OFF_LIMIT] = {PAGE_COSTS_RUN, "off_limit", NULL, SB_RUN_ALARM, NAN,
		"how far random_page_cost in force lies outside the recommended interval, in % of the recommendation, above the call's max_off_pct",
	"random_page_cost in force is more than max_off_pct (of the recommendation) outside the recommended interval"},
	[SB_RULE_OFF_HALF] = {PAGE_COSTS_RUN, "off_half", NULL, SB_RUN_WARNING, 0.5,
		"no alarm, and that distance above max_off_pct times this",
	"no alarm, and random_page_cost in force is more than half of max_off_pct outside it"},
	[SB_RULE_MOVED] = {PAGE_COSTS_RUN, "moved", NULL, SB_RUN_WARNING, NAN,
		"the ratio's change from the median of the table's earlier runs of {ok}, in %, either way, above the call's max_off_pct",
	"the ratio moved more than max_off_pct from the median of the table's earlier runs of {ok}"},
	[SB_RULE_SHALLOW] = {PAGE_COSTS_RUN, "shallow", NULL, SB_RUN_WARNING, NAN,
		"effective_io_concurrency in force, below the least depth every sweep found enough",
	"effective_io_concurrency in force is below the least depth every sweep found the random reads need"},

	/* the fleet's cohort */
	[SB_RULE_COHORT_SIZE] = {COHORT, "cohort_size", NULL, SB_RUN_OK, 3,
		"the figures of a cohort, at least",
	"fewer make no band: nothing lies outside it"},
	[SB_RULE_COHORT_K] = {COHORT, "cohort_k", NULL, SB_RUN_OK, 3.0,
		"the scaled MADs of the band's spread about the median, by default (the call's k)",
	"a figure whose whole interval lies outside the band is below or above its peers"},
	[SB_RULE_COHORT_MAD_SCALE] = {COHORT, "cohort_mad_scale", NULL, SB_RUN_OK, 1.4826,
		"the median absolute deviation times this: a normal standard deviation",
	"the spread is robust: one slow server cannot widen it by much"},
	[SB_RULE_COHORT_LEAST_PCT] = {COHORT, "cohort_least_pct", NULL, SB_RUN_OK, 5.0,
		"the least spread of scan_pct, in points, by default (the call's min_spread)",
	"servers that agree closely are not told apart by noise"},
	[SB_RULE_COHORT_READ_FACTOR] = {COHORT, "cohort_read_factor", NULL, SB_RUN_OK, 2.0,
		"the least spread of read rates, a factor either way (the band of their logarithms)",
	"read rates are judged on their logarithms, by ratios"},
};

static const char *const judge_names[SB_JUDGE_COUNT] = {
	"figure", "page_costs", "crossover", "access_path", "toast", "scan_node",
	"history", "page_costs_run", "cohort"
};

const SbRule *
sb_rule(SbRuleId id)
{
	return &rules[id];
}

double
sb_threshold(SbRuleId id)
{
	return rules[id].threshold;
}

/* The judge's name, for a single bit of SbJudge; NULL for anything else. */
const char *
sb_judge_name(SbJudge judge)
{
	int			i;

	for (i = 0; i < SB_JUDGE_COUNT; i++)
		if ((unsigned) judge == 1u << i)
			return judge_names[i];
	return NULL;
}
