/*-------------------------------------------------------------------------
 *
 * crossover.c
 *	  The selectivity at which an index scan stops beating a sequential
 *	  scan of the same table, measured cold; and the planner's, under the
 *	  settings in force and under a random_page_cost tried.
 *
 * The question is the keys at most a bound, "SELECT key FROM ONLY t WHERE
 * key <= bound", answered by a sequential scan and by an index scan of a
 * btree index on key (accesspath.c plans and runs both).
 *
 * Measured: a round is a cold sequential scan, then a cold index scan of
 * every key, stopped when it has taken as long as the sequential scan did.
 * An index scan reads in key order, so by then it has read what a scan
 * with its bound at the key it reached would have: the same index pages,
 * the same heap pages in the same order.  The rows it returned are the
 * round's crossover, the bound beyond which the index scan is slower.
 * The sequential scan's time hardly depends on its bound (it reads every
 * page whatever it returns); its bound is the planner's crossover, so
 * that it returns about what the index scan did.  Rounds follow until
 * the mean's 95 % interval (jackknife) is within +-10 %, or the time is
 * spent.  Each side starts cold: both relations evicted from shared
 * buffers and the page cache, and under a read throttle its first
 * allowance read untimed.
 *
 * The planner's crossover is the bound at which it costs the index scan
 * at the sequential scan's cost, found by halving an interval of the
 * selectivity's logarithm; each bound is a key of the table, read
 * through SPI in key order.  An index scan's cost is linear in
 * random_page_cost (every page it fetches is costed at random_page_cost
 * or seq_page_cost, interpolated by the correlation), a sequential scan's
 * does not depend on it, so the random_page_cost at which the planner's
 * crossover falls on the measured one is read from two costings.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/htup_details.h"
#include "catalog/pg_statistic.h"
#include "commands/tablespace.h"
#include "miscadmin.h"
#include "portability/instr_time.h"
#include "utils/builtins.h"
#include "utils/float.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/spccache.h"
#include "utils/syscache.h"

#include "accesspath.h"
#include "accesspath_rounds.h"
#include "cache.h"
#include "cgroup.h"
#include "clock.h"
#include "crossover.h"
#include "judgerules.h"
#include "stats.h"
#include "tablespace.h"

/* Steps of halving the interval of log selectivity: about 1 % wide. */
#define PLANNER_STEPS	12
/* Bounds read through SPI, kept for the call. */
#define MAX_BOUNDS		64

struct SbCrossPlanner
{
	Relation	heap;
	Relation	index;
	TimestampTz stop_at;		/* for reading bounds */
	double		reltuples;
	int			nbounds;
	double		sel[MAX_BOUNDS];
	char	   *bound[MAX_BOUNDS];
};

/* ---- Measured ---- */

/* One round, a step stopped at the rounds' deadline. */
typedef struct CrossRound
{
	SbPathPlan *seq;
	SbPathPlan *idx;
	SbTarget   *heap;
	SbTarget   *index;
	SbRandomFile *files;
	uint64		allowance;
	double		cached;			/* the most after an eviction */
	double		seq_s;
	int64		at_limit;
} CrossRound;

static void
cross_round(void *arg)
{
	CrossRound *cr = (CrossRound *) arg;
	SbPathRun	r;

	sb_path_evict(cr->heap, cr->index);
	sb_path_drain(cr->heap, cr->files, cr->allowance, 1);
	cr->cached = sb_path_cached_pct(cr->heap, cr->index);
	sb_path_run(cr->seq, &r);
	cr->seq_s = r.seconds;

	CHECK_FOR_INTERRUPTS();
	sb_path_evict(cr->heap, cr->index);
	sb_path_drain(cr->heap, cr->files, cr->allowance, 1);
	cr->cached = Max(cr->cached, sb_path_cached_pct(cr->heap, cr->index));
	sb_path_run_until(cr->idx, cr->seq_s, &r, &cr->at_limit);
}

/*
 * Rounds until the interval is within the target, or stop_at: a round is
 * begun only where one as long as the mean one fits, and one the
 * deadline cuts is left out.
 */
void
sb_cross_rounds(Relation heap, Relation index, SbTarget *heap_target,
				SbTarget *index_target, double seq_selectivity,
				TimestampTz stop_at, SbCrossRounds *out)
{
	double		reltuples;
	char	   *seq_bound = sb_path_bound(heap, index, seq_selectivity, stop_at, &reltuples);
	char	   *last_bound = sb_path_bound(heap, index, 1.0, stop_at, &reltuples);
	SbPathPlan *seq = sb_path_plan_rows(heap, index, SB_PATH_SEQ, seq_bound);
	SbPathPlan *idx = sb_path_plan_rows(heap, index, SB_PATH_INDEX, last_bound);
	CrossRound	cr;
	double		rows[SB_CROSS_MAX_ROUNDS];
	double		ones[SB_CROSS_MAX_ROUNDS];
	double		seq_sum = 0;
	instr_time	t0;

	memset(out, 0, sizeof(SbCrossRounds));
	out->seq_s = out->rows = out->rows_lo = out->rows_hi = NAN;
	if (seq == NULL || idx == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("the planner will not read \"%s\" by %s",
						RelationGetRelationName(heap),
						seq == NULL ? "a sequential scan" :
						psprintf("an index scan of \"%s\"", RelationGetRelationName(index)))));

	memset(&cr, 0, sizeof(cr));
	cr.seq = seq;
	cr.idx = idx;
	cr.heap = heap_target;
	cr.index = index_target;
	cr.files = sb_path_open_random(heap_target);
	cr.allowance = sb_cgroup_allowance_reads(heap_target->segments[0]->path,
											 BLCKSZ, SB_THROTTLE_ALLOWANCE_S);
	INSTR_TIME_SET_CURRENT(t0);
	while (out->rounds < SB_CROSS_MAX_ROUNDS)
	{
		if (!sb_path_until(stop_at, cross_round, &cr))
		{
			out->budget_hit = true;
			break;
		}
		out->cached_pct_before = Max(out->cached_pct_before, cr.cached);
		if (cr.at_limit < 0)
		{
			/* every key came sooner than the sequential scan ended */
			out->index_never_lost = true;
			break;
		}
		seq_sum += cr.seq_s;
		rows[out->rounds] = (double) cr.at_limit;
		ones[out->rounds] = 1.0;
		out->rounds++;

		if (out->rounds >= sb_threshold(SB_RULE_CROSS_ROUNDS) &&
			sb_ratio_ci(rows, ones, out->rounds, 0.95, &out->rows,
						&out->rows_lo, &out->rows_hi) &&
			sb_halfwidth_pct(out->rows, out->rows_lo, out->rows_hi) <= SB_CROSS_TARGET_PCT)
			break;
		/* another round as long as the mean one must fit */
		if (sb_seconds_since(t0) / out->rounds > sb_path_seconds_left(stop_at))
		{
			out->budget_hit = true;
			break;
		}
	}
	sb_path_close_random(heap_target, cr.files);
	if (out->rounds > 0)
	{
		out->seq_s = seq_sum / out->rounds;
		if (!sb_ratio_ci(rows, ones, out->rounds, 0.95, &out->rows,
						 &out->rows_lo, &out->rows_hi))
		{
			double		sum = 0;
			int			i;

			for (i = 0; i < out->rounds; i++)
				sum += rows[i];
			out->rows = sum / out->rounds;
			out->rows_lo = out->rows_hi = NAN;
		}
	}
}

/* ---- The planner's ---- */

/*
 * The planner's view of the table and index, its bounds read by stop_at
 * (sb_cross_planner_until moves it).
 */
SbCrossPlanner *
sb_cross_planner(Relation heap, Relation index, TimestampTz stop_at)
{
	SbCrossPlanner *pl = palloc0(sizeof(SbCrossPlanner));

	pl->heap = heap;
	pl->index = index;
	pl->stop_at = stop_at;
	pl->reltuples = Max(heap->rd_rel->reltuples, 1.0);
	return pl;
}

void
sb_cross_planner_until(SbCrossPlanner *pl, TimestampTz stop_at)
{
	pl->stop_at = stop_at;
}

/* The key at a selectivity, read once for the call. */
static const char *
bound_at(SbCrossPlanner *pl, double selectivity)
{
	double		reltuples;
	char	   *bound;
	int			i;

	for (i = 0; i < pl->nbounds; i++)
		if (pl->sel[i] == selectivity)
			return pl->bound[i];
	bound = sb_path_bound(pl->heap, pl->index, selectivity, pl->stop_at,
						  &reltuples);
	if (pl->nbounds < MAX_BOUNDS)
	{
		pl->sel[pl->nbounds] = selectivity;
		pl->bound[pl->nbounds] = bound;
		pl->nbounds++;
	}
	return bound;
}

/*
 * "index" or "seq": the path the planner costs lower for the keys up to
 * the key at this selectivity, with this random_page_cost (NaN: the one in
 * force).  An index scan the planner will not make is "seq".
 */
const char *
sb_cross_cheaper(SbCrossPlanner *pl, double selectivity, double random_page_cost)
{
	const char *bound = bound_at(pl, selectivity);
	double		seq = sb_path_cost(pl->heap, pl->index, SB_PATH_SEQ, bound,
								   random_page_cost);
	double		idx = sb_path_cost(pl->heap, pl->index, SB_PATH_INDEX, bound,
								   random_page_cost);

	return idx >= 0 && (seq < 0 || idx < seq) ? "index" : "seq";
}

/*
 * The selectivity at which the planner stops choosing the index scan,
 * within about 1 %: 0 where it never chooses it, NaN where it chooses it
 * for every key.
 */
double
sb_cross_planned(SbCrossPlanner *pl, double random_page_cost)
{
	double		lo = log(1.0 / pl->reltuples);
	double		hi = 0.0;
	int			i;

	if (strcmp(sb_cross_cheaper(pl, 1.0, random_page_cost), "index") == 0)
		return NAN;
	if (strcmp(sb_cross_cheaper(pl, exp(lo), random_page_cost), "seq") == 0)
		return 0.0;
	for (i = 0; i < PLANNER_STEPS; i++)
	{
		double		mid = (lo + hi) / 2;

		CHECK_FOR_INTERRUPTS();
		if (strcmp(sb_cross_cheaper(pl, exp(mid), random_page_cost), "index") == 0)
			lo = mid;
		else
			hi = mid;
	}
	return exp((lo + hi) / 2);
}

/*
 * The random_page_cost at which the planner costs the index scan of the
 * keys up to this selectivity at the sequential scan's cost: NaN where
 * none does (the index scan's cost does not grow with it, or the
 * sequential scan is cheaper at any).
 */
double
sb_cross_matching_cost(SbCrossPlanner *pl, double selectivity)
{
	const char *bound = bound_at(pl, selectivity);
	double		seq = sb_path_cost(pl->heap, pl->index, SB_PATH_SEQ, bound, 1.0);
	double		at1 = sb_path_cost(pl->heap, pl->index, SB_PATH_INDEX, bound, 1.0);
	double		at4 = sb_path_cost(pl->heap, pl->index, SB_PATH_INDEX, bound, 4.0);
	double		slope;
	double		cost;

	if (seq < 0 || at1 < 0 || at4 < 0)
		return NAN;
	slope = (at4 - at1) / 3.0;
	if (slope <= 0)
		return NAN;
	cost = 1.0 + (seq - at1) / slope;
	return cost > 0 ? cost : NAN;
}

/*
 * The correlation between the key's order and the heap's, as ANALYZE
 * found it (pg_stats.correlation); NaN where there is none.
 */
double
sb_key_correlation(Relation heap, Relation index)
{
	AttrNumber	attno = index->rd_index->indkey.values[0];
	HeapTuple	tup;
	AttStatsSlot sslot;
	double		corr = NAN;

	tup = SearchSysCache3(STATRELATTINH,
						  ObjectIdGetDatum(RelationGetRelid(heap)),
						  Int16GetDatum(attno), BoolGetDatum(false));
	if (!HeapTupleIsValid(tup))
		return NAN;
	if (get_attstatsslot(&sslot, tup, STATISTIC_KIND_CORRELATION, InvalidOid,
						 ATTSTATSSLOT_NUMBERS))
	{
		if (sslot.nnumbers == 1)
			corr = sslot.numbers[0];
		free_attstatsslot(&sslot);
	}
	ReleaseSysCache(tup);
	return corr;
}

/* ---- index_crossover's measurement ---- */

/* The largest selectivity the sequential scan's bound is taken at. */
#define SEQ_BOUND_MAX	0.1

/* "index" or "seq" at a selectivity, the largest being every row. */
static const char *
cheaper_at(SbCrossPlanner *pl, double selectivity, double random_page_cost)
{
	return sb_cross_cheaper(pl, Min(selectivity, 1.0), random_page_cost);
}

/* What the call says of its figure, one NOTICE. */
static void
crossover_notice(Oid relid, Oid indexid, double max_seconds,
				 const SbCrossover *x)
{
	const SbCrossRounds *cr = &x->cr;

	if (cr->index_never_lost)
		ereport(NOTICE,
				(errmsg("\"%s\": an index scan of every key of \"%s\" ran no longer than a sequential scan",
						get_rel_name(relid), get_rel_name(indexid)),
				 errdetail("There is no selectivity at which the sequential scan is faster, cold.")));
	else if (cr->rounds == 0)
		ereport(NOTICE,
				(errmsg("\"%s\": max_seconds (%g s) ran out before a round of a sequential and an index scan ended",
						get_rel_name(relid), max_seconds),
				 errdetail("The round that outlasted it was stopped; a judgement needs %d rounds.",
						   (int) sb_threshold(SB_RULE_CROSS_ROUNDS)),
				 errhint("Give it more time: max_seconds => %.0f at least.",
						 ceil(2 * max_seconds * sb_threshold(SB_RULE_CROSS_ROUNDS)))));
	else if (cr->rounds < sb_threshold(SB_RULE_CROSS_ROUNDS))
		ereport(NOTICE,
				(errmsg("\"%s\": %d rounds of a sequential and an index scan in %.1f s, too few to judge",
						get_rel_name(relid), cr->rounds, x->elapsed_s),
				 errhint("Give it more time: max_seconds => %.0f.",
						 Max(2 * max_seconds, 4 * cr->seq_s * sb_threshold(SB_RULE_CROSS_ROUNDS)))));
	else
		ereport(NOTICE,
				(errmsg("\"%s\": the index scan of \"%s\" is faster up to %.4f%% of the rows (%.4f%% to %.4f%%); the planner switches at %.4f%%",
						get_rel_name(relid), get_rel_name(indexid), 100 * x->cross,
						100 * x->cross_lo, 100 * x->cross_hi, 100 * x->planned),
				 !isnan(x->matching) ?
				 errdetail("random_page_cost = %.2f puts the planner's switch there (it is %.2f now).",
						   x->matching, x->cur_random) : 0));
}

/*
 * Where the index scan of indexid stops being faster than a sequential
 * scan of relid, cold, in max_seconds, against the planner's switch; a
 * random_page_cost tried (NaN: the matching one) is checked against it.
 */
void
sb_crossover(Oid relid, Oid indexid, double max_seconds, double tried,
			 SbCrossover *x)
{
	SbTarget   *heap_target;
	SbTarget   *index_target;
	Relation	heap;
	Relation	index;
	Oid			spc;
	double		seq_sel;
	bool		misplanned = false;
	SbResidency res;
	SbCrossPlanner *pl;
	SbCrossRounds *cr = &x->cr;
	int			nestlevel;
	instr_time	t0;
	double		planner_s;
	TimestampTz deadline;

	memset(x, 0, sizeof(*x));
	x->cross = x->cross_lo = x->cross_hi = NAN;
	x->matching = x->checked = NAN;
	heap_target = sb_path_open_table(relid,
									 "The selectivities are shares of its row count, and the planner's choices come from its statistics.");
	heap = heap_target->leaves[0].rel;
	index_target = sb_target_open(indexid, SB_TARGET_INDEX);
	index = index_target->leaves[0].rel;
	/* the budget runs from here, the locks held: every step stops by it */
	INSTR_TIME_SET_CURRENT(t0);
	deadline = sb_path_deadline(max_seconds);

	/* one backend's reads, no JIT, every scan from the first block */
	nestlevel = sb_path_settings_begin();

	spc = sb_target_tablespace(heap_target);
	x->tablespace = get_tablespace_name(spc);
	get_tablespace_page_costs(spc, &x->cur_random, &x->cur_seq);
	x->reltuples = Max(heap->rd_rel->reltuples, 1.0);
	x->heap_pages = heap_target->nblocks;
	x->correlation = sb_key_correlation(heap, index);

	/* what the caches held, before the planner's bounds are read */
	sb_residency(heap_target, &res);
	x->cached_pct_before = sb_pct(res.any_blocks, res.blocks);

	pl = sb_cross_planner(heap, index, deadline);
	x->planned = sb_cross_planned(pl, NAN);
	seq_sel = isnan(x->planned) ? SEQ_BOUND_MAX :
		Min(Max(x->planned, 1.0 / x->reltuples), SEQ_BOUND_MAX);
	planner_s = sb_seconds_since(t0);

	/*
	 * The rounds stop early enough for what follows them, which costs the
	 * planner's paths again about twice over; its bounds are read by the
	 * deadline and a tenth of the budget more, so that a measurement made
	 * is not lost to a key read a moment late.
	 */
	sb_cross_rounds(heap, index, heap_target, index_target, seq_sel,
					deadline - (TimestampTz) (2 * planner_s * USECS_PER_SEC), cr);
	sb_cross_planner_until(pl, deadline + (TimestampTz) (0.1 * max_seconds * USECS_PER_SEC));

	if (cr->rounds > 0 && !cr->index_never_lost)
	{
		x->cross = cr->rows / x->reltuples;
		x->cross_lo = cr->rows_lo / x->reltuples;
		x->cross_hi = cr->rows_hi / x->reltuples;
		x->matching = sb_cross_matching_cost(pl, x->cross);
		x->planned_half = cheaper_at(pl, x->cross / 2, NAN);
		x->planned_twice = cheaper_at(pl, x->cross * 2, NAN);
		misplanned = strcmp(x->planned_half, "index") != 0 ||
			(x->cross * 2 < 1.0 && strcmp(x->planned_twice, "seq") != 0);
	}
	sb_judge_crossover(cr->rounds, cr->rows, cr->rows_lo, cr->rows_hi,
					   x->cached_pct_before, cr->cached_pct_before,
					   x->correlation, cr->index_never_lost, misplanned,
					   &x->verdict);

	/*
	 * The matching setting is withheld where random_page_cost does not
	 * decide the crossover (a correlated index) or the figure is not a cold
	 * table's; a setting given is checked all the same.
	 */
	if (sb_verdict_has(&x->verdict, "correlated") ||
		sb_verdict_has(&x->verdict, "cached") ||
		sb_verdict_has(&x->verdict, "over_budget"))
		x->matching = NAN;
	x->checked = isnan(tried) ? x->matching : tried;
	if (!isnan(x->cross) && !isnan(x->checked))
	{
		x->checked_half = cheaper_at(pl, x->cross / 2, x->checked);
		x->checked_twice = cheaper_at(pl, x->cross * 2, x->checked);
	}

	/* its range: the higher crossover is met by the lower cost */
	x->matching_lo = isnan(x->matching) || isnan(x->cross_hi) ? NAN :
		sb_cross_matching_cost(pl, Min(x->cross_hi, 1.0));
	x->matching_hi = isnan(x->matching) || isnan(x->cross_lo) ? NAN :
		sb_cross_matching_cost(pl, Max(x->cross_lo, 1.0 / x->reltuples));
	x->checked_cross = isnan(x->checked) ? NAN : sb_cross_planned(pl, x->checked);
	if (!isnan(x->matching))
		x->command = psprintf("ALTER TABLESPACE %s SET (random_page_cost = %s)",
							  quote_identifier(x->tablespace),
							  float8out_internal(sb_round(x->matching, 2)));
	x->elapsed_s = sb_seconds_since(t0);

	crossover_notice(relid, indexid, max_seconds, x);

	AtEOXact_GUC(true, nestlevel);
	sb_target_close(index_target);
	sb_target_close(heap_target);
}
