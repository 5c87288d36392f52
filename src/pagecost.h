/*-------------------------------------------------------------------------
 *
 * pagecost.h
 *	  The time of a sequential page and of a random page, cold, as the
 *	  executor's heap access gets them (pagecost.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCANBENCH_PAGECOST_H
#define SCANBENCH_PAGECOST_H

#include "iodepth.h"
#include "relfiles.h"
#include "verdict.h"

/*
 * Rounds of one sequential stretch and one batch of random pages; the
 * least a judgement needs is the judge's (SB_RULE_PAGECOST_ROUNDS,
 * judgerules.h).
 */
#define SB_PAGECOST_MAX_ROUNDS	1000
/*
 * The ratio's interval: its confidence and the half-width (in % of the
 * ratio) at which the measurement stops; the widest worth a setting is
 * the judge's (SB_RULE_PAGECOST_INTERVAL).
 */
#define SB_PAGECOST_CONFIDENCE	0.95
#define SB_PAGECOST_TARGET_PCT	5.0
/*
 * The least share of max_seconds left for reading the table at depth
 * (iodepth.c) after the page times: room for three sweeps on a fast disk.
 */
#define SB_PAGECOST_DEPTH_SHARE	0.4
/*
 * The smallest relation measured: room for the rounds on both sides, and
 * the gap between them (sb_page_costs_min_blocks).
 */
#define SB_PAGECOST_MIN_BLOCKS	1280

typedef struct SbPageCosts
{
	int			passes;			/* over the relation, each from cold */
	int			rounds;
	double	   *seq_page_s;		/* per round: a sequential page's time */
	double	   *random_page_s;	/* and a random page's */
	double		ratio;			/* of the means: random over sequential */
	double		ratio_lo;		/* its interval (NaN: too few rounds) */
	double		ratio_hi;
	uint64		seq_pages;		/* timed */
	uint64		random_pages;	/* timed */
	double		seq_s;			/* wall clock of the timed sequential reads */
	double		random_s;		/* and of the timed random ones */
	uint64		cached_pages;	/* random pages read again from the page cache */
	double		cached_s;
	double		untimed_s;		/* ramp and throttle allowances, read untimed */
	double		elapsed_s;		/* the whole measurement */
	bool		budget_hit;		/* stopped by max_seconds */
} SbPageCosts;

/*
 * The page times and the depths, judged, and the settings they give for
 * the table's tablespace (sb_page_costs_advise).  Unknown figures are NaN.
 */
typedef struct SbCostAdvice
{
	SbPageCosts pc;
	SbDepthSweep ds;
	SbVerdict	v;
	double		cached_pct;		/* in the caches before the call, % */
	double		t_seq;			/* seconds a page, mean */
	double		t_random;
	double		t_cached;
	bool		recommend;		/* a random_page_cost is recommended */
	double		rec;
	double		rec_lo;			/* NaN: no interval */
	double		rec_hi;
	bool		recommend_eic;	/* an effective_io_concurrency is */
} SbCostAdvice;

/*
 * page_costs' figures: the tablespace's settings now, what its pages cost
 * (ca), and the ALTER TABLESPACE command that recommends (NULL: none).
 */
typedef struct SbPageCostsCall
{
	char	   *tablespace;
	int64		pages;
	double		cur_random;
	double		cur_seq;
	int			cur_eic;
	SbCostAdvice ca;
	char	   *command;
} SbPageCostsCall;

extern BlockNumber sb_page_costs_min_blocks(SbTarget *target);
extern void sb_page_costs(SbTarget *target, double max_seconds,
						  SbPageCosts *pc);
extern double sb_page_costs_cached_pct(SbTarget *target);
extern void sb_page_costs_advise(SbTarget *target, double max_seconds,
								 double seq_page_cost, double cached_pct,
								 SbCostAdvice *ca);
extern void sb_page_costs_call(Oid relid, double max_seconds,
							   SbPageCostsCall *out);

#endif							/* SCANBENCH_PAGECOST_H */
