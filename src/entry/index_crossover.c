/*-------------------------------------------------------------------------
 *
 * index_crossover.c
 *	  index_crossover(rel, idx, max_seconds, random_page_cost): the
 *	  selectivity at which an index scan of idx stops beating a sequential
 *	  scan of rel, measured cold (crossover.c); the planner's, under the
 *	  settings in force and under a random_page_cost tried; the setting at
 *	  which the planner's falls on the measured one, and the command that
 *	  sets it for the table's tablespace.
 *
 * The planner's choice is checked at half and at twice the measured
 * crossover: below it the index scan is the faster, above it the
 * sequential scan, and a planner that chooses otherwise at either is
 * marked misplanned.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "catalog/pg_type.h"
#include "commands/tablespace.h"
#include "fmgr.h"
#include "funcapi.h"
#include "portability/instr_time.h"
#include "utils/builtins.h"
#include "utils/float.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/spccache.h"

#include "argcheck.h"
#include "cache.h"
#include "clock.h"
#include "accesspath.h"
#include "crossover.h"
#include "fnargs.h"
#include "relcheck.h"
#include "relfiles.h"
#include "rows.h"
#include "stats.h"
#include "tablespace.h"
#include "verdict.h"

PG_FUNCTION_INFO_V1(index_crossover);

/* The largest selectivity the sequential scan's bound is taken at. */
#define SEQ_BOUND_MAX	0.1

static void
check_random_page_cost(double cost)
{
	if (isnan(cost))
		return;
	if (isinf(cost) || cost <= 0 || cost > 1e6)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid random_page_cost: %g", cost),
				 errhint("Give the setting to check, above 0 (as page_costs() recommends it), or leave it out to check the one the measured crossover gives.")));
}

/* "index" or "seq" at a selectivity, the largest being every row. */
static const char *
cheaper_at(SbCrossPlanner *pl, double selectivity, double random_page_cost)
{
	return sb_cross_cheaper(pl, Min(selectivity, 1.0), random_page_cost);
}

Datum
index_crossover(PG_FUNCTION_ARGS)
{
	SbArgs		args;
	Oid			relid;
	Oid			indexid;
	double		max_seconds;
	double		tried;
	SbTarget   *heap_target;
	SbTarget   *index_target;
	Relation	heap;
	Relation	index;
	Oid			spc;
	char	   *spcname;
	double		cur_random;
	double		cur_seq;
	double		reltuples;
	double		correlation;
	double		cached_pct;
	double		planned;
	double		seq_sel;
	double		cross = NAN;
	double		cross_lo = NAN;
	double		cross_hi = NAN;
	double		matching = NAN;
	double		checked = NAN;
	const char *planned_half = NULL;
	const char *planned_twice = NULL;
	const char *checked_half = NULL;
	const char *checked_twice = NULL;
	bool		misplanned = false;
	SbResidency res;
	SbCrossPlanner *pl;
	SbCrossRounds cr;
	SbVerdict	v;
	SbRow		row;
	int			nestlevel;
	instr_time	t0;
	instr_time	now;
	double		elapsed;
	double		planner_s;
	TimestampTz deadline;

	sb_args_refuse_nulls_but(fcinfo, "random_page_cost");
	sb_args_init(&args, fcinfo);
	relid = sb_arg_oid(&args, "rel", REGCLASSOID);
	indexid = sb_arg_oid(&args, "idx", REGCLASSOID);
	max_seconds = sb_arg_float8(&args, "max_seconds", 120.0);
	tried = sb_arg_float8_or_null(&args, "random_page_cost", NAN);
	sb_check_heap_table(relid, NULL, "Measure one of its partitions and an index of it.", NULL);
	sb_check_range_index(relid, indexid, "index_crossover");
	sb_check_max_seconds(max_seconds);
	check_random_page_cost(tried);
	sb_row_init(&row, sb_result_tupdesc(fcinfo), NULL, 0);

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
	spcname = get_tablespace_name(spc);
	get_tablespace_page_costs(spc, &cur_random, &cur_seq);
	reltuples = Max(heap->rd_rel->reltuples, 1.0);
	correlation = sb_key_correlation(heap, index);

	/* what the caches held, before the planner's bounds are read */
	sb_residency(heap_target, &res);
	cached_pct = sb_pct(res.any_blocks, res.blocks);

	pl = sb_cross_planner(heap, index, deadline);
	planned = sb_cross_planned(pl, NAN);
	seq_sel = isnan(planned) ? SEQ_BOUND_MAX :
		Min(Max(planned, 1.0 / reltuples), SEQ_BOUND_MAX);
	planner_s = sb_seconds_since(t0);

	/*
	 * The rounds stop early enough for what follows them, which costs the
	 * planner's paths again about twice over; its bounds are read by the
	 * deadline and a tenth of the budget more, so that a measurement made
	 * is not lost to a key read a moment late.
	 */
	sb_cross_rounds(heap, index, heap_target, index_target, seq_sel,
					deadline - (TimestampTz) (2 * planner_s * USECS_PER_SEC), &cr);
	sb_cross_planner_until(pl, deadline + (TimestampTz) (0.1 * max_seconds * USECS_PER_SEC));

	if (cr.rounds > 0 && !cr.index_never_lost)
	{
		cross = cr.rows / reltuples;
		cross_lo = cr.rows_lo / reltuples;
		cross_hi = cr.rows_hi / reltuples;
		matching = sb_cross_matching_cost(pl, cross);
		planned_half = cheaper_at(pl, cross / 2, NAN);
		planned_twice = cheaper_at(pl, cross * 2, NAN);
		misplanned = strcmp(planned_half, "index") != 0 ||
			(cross * 2 < 1.0 && strcmp(planned_twice, "seq") != 0);
	}
	sb_judge_crossover(cr.rounds, cr.rows, cr.rows_lo, cr.rows_hi, cached_pct,
					   cr.cached_pct_before, correlation, cr.index_never_lost,
					   misplanned, &v);

	/*
	 * The matching setting is withheld where random_page_cost does not
	 * decide the crossover (a correlated index) or the figure is not a cold
	 * table's; a setting given is checked all the same.
	 */
	if (sb_verdict_has(&v, "correlated") || sb_verdict_has(&v, "cached") ||
		sb_verdict_has(&v, "over_budget"))
		matching = NAN;
	checked = isnan(tried) ? matching : tried;
	if (!isnan(cross) && !isnan(checked))
	{
		checked_half = cheaper_at(pl, cross / 2, checked);
		checked_twice = cheaper_at(pl, cross * 2, checked);
	}

	sb_row_datum(&row, "relation", ObjectIdGetDatum(relid));
	sb_row_datum(&row, "idx", ObjectIdGetDatum(indexid));
	sb_row_text(&row, "tablespace", spcname);
	sb_row_datum(&row, "table_rows", Int64GetDatum((int64) reltuples));
	sb_row_datum(&row, "heap_pages", Int64GetDatum(heap_target->nblocks));
	sb_row_float(&row, "correlation", correlation, 3);
	sb_row_float(&row, "cached_pct_before", cached_pct, 1);
	sb_row_datum(&row, "rounds", Int32GetDatum(cr.rounds));
	sb_row_float(&row, "seq_s", cr.seq_s, 3);
	sb_row_float(&row, "crossover_rows", cr.index_never_lost ? NAN : cr.rows, 1);
	sb_row_float(&row, "crossover_selectivity", cross, 6);
	sb_row_float(&row, "crossover_low", cross_lo, 6);
	sb_row_float(&row, "crossover_high", cross_hi, 6);
	sb_row_float(&row, "planner_crossover", planned, 6);
	sb_row_float(&row, "random_page_cost", cur_random, 2);
	sb_row_float(&row, "seq_page_cost", cur_seq, 2);
	sb_row_text(&row, "planned_at_half", planned_half);
	sb_row_text(&row, "planned_at_twice", planned_twice);
	/* its range: the higher crossover is met by the lower cost */
	sb_row_float(&row, "matching_random_page_cost", matching, 2);
	sb_row_float(&row, "matching_low", isnan(matching) || isnan(cross_hi) ? NAN :
				 sb_cross_matching_cost(pl, Min(cross_hi, 1.0)), 2);
	sb_row_float(&row, "matching_high", isnan(matching) || isnan(cross_lo) ? NAN :
				 sb_cross_matching_cost(pl, Max(cross_lo, 1.0 / reltuples)), 2);
	sb_row_float(&row, "checked_random_page_cost", checked, 2);
	sb_row_float(&row, "checked_crossover",
				 isnan(checked) ? NAN : sb_cross_planned(pl, checked), 6);
	sb_row_text(&row, "checked_at_half", checked_half);
	sb_row_text(&row, "checked_at_twice", checked_twice);
	if (!isnan(matching))
		sb_row_text(&row, "command",
					psprintf("ALTER TABLESPACE %s SET (random_page_cost = %s)",
							 quote_identifier(spcname),
							 float8out_internal(sb_round(matching, 2))));
	else
		sb_row_null(&row, "command");
	INSTR_TIME_SET_CURRENT(now);
	INSTR_TIME_SUBTRACT(now, t0);
	elapsed = INSTR_TIME_GET_DOUBLE(now);
	sb_row_float(&row, "elapsed_s", elapsed, 3);
	sb_row_verdict(&row, "verdict", &v);

	if (cr.index_never_lost)
		ereport(NOTICE,
				(errmsg("\"%s\": an index scan of every key of \"%s\" ran no longer than a sequential scan",
						get_rel_name(relid), get_rel_name(indexid)),
				 errdetail("There is no selectivity at which the sequential scan is faster, cold.")));
	else if (cr.rounds == 0)
		ereport(NOTICE,
				(errmsg("\"%s\": max_seconds (%g s) ran out before a round of a sequential and an index scan ended",
						get_rel_name(relid), max_seconds),
				 errdetail("The round that outlasted it was stopped; a judgement needs %d rounds.",
						   SB_CROSS_MIN_ROUNDS),
				 errhint("Give it more time: max_seconds => %.0f at least.",
						 ceil(2 * max_seconds * SB_CROSS_MIN_ROUNDS))));
	else if (cr.rounds < SB_CROSS_MIN_ROUNDS)
		ereport(NOTICE,
				(errmsg("\"%s\": %d rounds of a sequential and an index scan in %.1f s, too few to judge",
						get_rel_name(relid), cr.rounds, elapsed),
				 errhint("Give it more time: max_seconds => %.0f.",
						 Max(2 * max_seconds, 4 * cr.seq_s * SB_CROSS_MIN_ROUNDS))));
	else
		ereport(NOTICE,
				(errmsg("\"%s\": the index scan of \"%s\" is faster up to %.4f%% of the rows (%.4f%% to %.4f%%); the planner switches at %.4f%%",
						get_rel_name(relid), get_rel_name(indexid), 100 * cross,
						100 * cross_lo, 100 * cross_hi, 100 * planned),
				 !isnan(matching) ?
				 errdetail("random_page_cost = %.2f puts the planner's switch there (it is %.2f now).",
						   matching, cur_random) : 0));

	AtEOXact_GUC(true, nestlevel);
	sb_target_close(index_target);
	sb_target_close(heap_target);
	PG_RETURN_DATUM(sb_row_result(&row));
}
