/*-------------------------------------------------------------------------
 *
 * crossover.h
 *	  The selectivity at which an index scan stops beating a sequential
 *	  scan, measured cold, and the planner's own, under the settings in
 *	  force and under a random_page_cost tried (crossover.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCANBENCH_CROSSOVER_H
#define SCANBENCH_CROSSOVER_H

#include "datatype/timestamp.h"
#include "utils/relcache.h"

#include "relfiles.h"
#include "verdict.h"

/*
 * Rounds of a cold sequential scan and a cold index scan, in pairs, until
 * the interval is this narrow; the least a judgement needs is the judge's
 * (SB_RULE_CROSS_ROUNDS, judgerules.h).
 */
#define SB_CROSS_MAX_ROUNDS		20
#define SB_CROSS_TARGET_PCT		10.0

typedef struct SbCrossRounds
{
	int			rounds;
	double		seq_s;			/* the sequential scans' mean time */
	double		rows;			/* the rows at the crossover, mean */
	double		rows_lo;		/* its interval (NaN: too few rounds) */
	double		rows_hi;
	double		cached_pct_before;	/* the most found after an eviction */
	bool		index_never_lost;	/* an index scan of every key won */
	bool		budget_hit;
} SbCrossRounds;

/*
 * index_crossover's figures: where the index scan stops being faster,
 * cold, against where the planner switches, and the random_page_cost
 * that would move the planner there.  NaN and NULL are not measured.
 */
typedef struct SbCrossover
{
	char	   *tablespace;
	double		reltuples;		/* at least 1 */
	int64		heap_pages;
	double		correlation;
	double		cached_pct_before;
	SbCrossRounds cr;
	double		cross;			/* crossover_selectivity */
	double		cross_lo;
	double		cross_hi;
	double		planned;		/* the planner's crossover */
	double		cur_random;
	double		cur_seq;
	const char *planned_half;
	const char *planned_twice;
	double		matching;		/* matching_random_page_cost */
	double		matching_lo;
	double		matching_hi;
	double		checked;		/* checked_random_page_cost */
	double		checked_cross;
	const char *checked_half;
	const char *checked_twice;
	char	   *command;
	double		elapsed_s;
	SbVerdict	verdict;
} SbCrossover;

/* The planner's view: its crossover and the cheaper path at a bound. */
typedef struct SbCrossPlanner SbCrossPlanner;

extern void sb_cross_rounds(Relation heap, Relation index, SbTarget *heap_target,
							SbTarget *index_target, double seq_selectivity,
							TimestampTz stop_at, SbCrossRounds *out);
extern SbCrossPlanner *sb_cross_planner(Relation heap, Relation index,
										TimestampTz stop_at);
extern void sb_cross_planner_until(SbCrossPlanner *pl, TimestampTz stop_at);
extern double sb_cross_planned(SbCrossPlanner *pl, double random_page_cost);
extern const char *sb_cross_cheaper(SbCrossPlanner *pl, double selectivity,
									double random_page_cost);
extern double sb_cross_matching_cost(SbCrossPlanner *pl, double selectivity);
extern double sb_key_correlation(Relation heap, Relation index);
extern void sb_crossover(Oid relid, Oid indexid, double max_seconds,
						 double tried, SbCrossover *out);

#endif							/* SCANBENCH_CROSSOVER_H */
