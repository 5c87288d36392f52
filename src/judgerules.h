/*-------------------------------------------------------------------------
 *
 * judgerules.h
 *	  The rules of every judge, as data (judgerules.c): each rule with its
 *	  threshold, what the threshold is compared with, the mark or the
 *	  level it gives and what it means.  Plain C with no PostgreSQL
 *	  header, so that scanbench-fleet compiles the same file as the
 *	  library and the cohort is judged by the same numbers.
 *
 * The judges read their thresholds here, and so do the engines that
 * measure for them (how many rounds a judgement needs, how wide an
 * interval it takes): the judge owns its thresholds, the engine asks.
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCANBENCH_JUDGERULES_H
#define SCANBENCH_JUDGERULES_H

/* The judges, as bits: a rule several judges apply is written once. */
typedef enum SbJudge
{
	SB_JUDGE_FIGURE = 1 << 0,	/* a scan_efficiency figure (sb_judge) */
	SB_JUDGE_PAGE_COSTS = 1 << 1,	/* page_costs' ratio */
	SB_JUDGE_CROSSOVER = 1 << 2,	/* index_crossover's */
	SB_JUDGE_ACCESS_PATH = 1 << 3,	/* access_paths', one cold path */
	SB_JUDGE_TOAST = 1 << 4,	/* toast_efficiency's */
	SB_JUDGE_SCAN_NODE = 1 << 5,	/* workload_scans', one scan node */
	SB_JUDGE_HISTORY = 1 << 6,	/* a scan_history run against earlier runs */
	SB_JUDGE_PAGE_COSTS_RUN = 1 << 7,	/* a page_costs_history run */
	SB_JUDGE_COHORT = 1 << 8	/* a server's figure against its peers' */
} SbJudge;

#define SB_JUDGE_COUNT	9

/* How bad a recorded run's rule that holds makes the run, in order. */
typedef enum SbRunLevel
{
	SB_RUN_OK,					/* a rule that gives a mark, or none */
	SB_RUN_WARNING,
	SB_RUN_ALARM
} SbRunLevel;

/* The rules, in the order of the table. */
typedef enum SbRuleId
{
	/* a figure's (sb_judge), some of them read by the small judges too */
	SB_RULE_UNSTABLE,
	SB_RULE_CACHED,
	SB_RULE_HOST_CACHE,
	SB_RULE_BURST,
	SB_RULE_DIRECT_CAPPED,
	SB_RULE_CPU_CONTENDED,
	SB_RULE_CPU_HELD,
	SB_RULE_CPU_USED,
	SB_RULE_WARM_CEILING,
	SB_RULE_IO_BYTES,
	SB_RULE_IO_REQUESTS,
	SB_RULE_DEPTH,
	SB_RULE_ABOVE_DEVICE,
	/* page_costs', index_crossover's, access_paths', toast_efficiency's */
	SB_RULE_PAGECOST_ROUNDS,
	SB_RULE_PAGECOST_INTERVAL,
	SB_RULE_CACHED_BEFORE,
	SB_RULE_CROSS_NEVER_LOST,
	SB_RULE_CROSS_ROUNDS,
	SB_RULE_CROSS_INTERVAL,
	SB_RULE_CORRELATED,
	SB_RULE_MISPLANNED,
	SB_RULE_PATH_ROUNDS,
	SB_RULE_PATH_INTERVAL,
	SB_RULE_TOAST_ROUNDS,
	SB_RULE_TOAST_INTERVAL,
	/* workload_scans' */
	SB_RULE_NODE_BOUND,
	SB_RULE_NODE_CACHE,
	/* a scan_history run's, in the order a message names them */
	SB_RULE_BELOW_LIMIT,
	SB_RULE_DROP,
	SB_RULE_NEAR_LIMIT,
	SB_RULE_DROP_WARNING,
	SB_RULE_EARLIER_RUNS,
	/* a page_costs_history run's, in that order */
	SB_RULE_OFF_LIMIT,
	SB_RULE_OFF_HALF,
	SB_RULE_MOVED,
	SB_RULE_SHALLOW,
	/* the fleet's cohort */
	SB_RULE_COHORT_SIZE,
	SB_RULE_COHORT_K,
	SB_RULE_COHORT_MAD_SCALE,
	SB_RULE_COHORT_LEAST_PCT,
	SB_RULE_COHORT_READ_FACTOR,
	SB_NRULES
} SbRuleId;

typedef struct SbRule
{
	unsigned	judges;			/* the SbJudge bits of the judges reading it */
	const char *name;			/* unique; a run's rules are named so in SQL */
	const char *mark;			/* the verdict's mark it gives; NULL: none */
	SbRunLevel	level;			/* what a run is when it holds */
	double		threshold;		/* NaN: the call's own limit, none here */
	const char *compared;		/* what is compared with it, and how */
	const char *meaning;		/* what it says when it holds */
} SbRule;

extern const SbRule *sb_rule(SbRuleId id);
extern double sb_threshold(SbRuleId id);
extern const char *sb_judge_name(SbJudge judge);

#endif							/* SCANBENCH_JUDGERULES_H */
