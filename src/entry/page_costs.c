/*-------------------------------------------------------------------------
 *
 * page_costs.c
 *	  page_costs(rel, max_seconds): the planner's page costs, measured on
 *	  one table: the cold time of a sequential page and of a random page
 *	  (pagecost.c), their ratio with its interval, and the random_page_cost
 *	  they give for the table's tablespace, weighed by how much of the
 *	  table the caches held.
 *
 * The ratio is what random_page_cost means when seq_page_cost is 1: how
 * much longer a page fetched alone takes than one read in order.  What the
 * server's queries pay also depends on what the caches keep: a page they
 * hold costs the same either way.  With a fraction f of the table in
 * either cache before the call (the best guess of what queries find
 * there) and c the time of a page read from the page cache, the expected
 * times are (1 - f) t + f c for each kind, and their ratio is the
 * recommendation, in units of the tablespace's seq_page_cost.  Where the
 * caches hold nearly all of the table, that ratio is the caches', not the
 * storage's, and no setting is recommended (the mark cached says so).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "catalog/pg_type.h"
#include "commands/tablespace.h"
#include "fmgr.h"
#include "funcapi.h"
#include "utils/builtins.h"
#include "utils/float.h"
#include "utils/lsyscache.h"
#include "utils/spccache.h"

#include "argcheck.h"
#include "cache.h"
#include "fnargs.h"
#include "pagecost.h"
#include "relcheck.h"
#include "relfiles.h"
#include "rows.h"
#include "stats.h"
#include "tablespace.h"
#include "verdict.h"

PG_FUNCTION_INFO_V1(page_costs);

/*
 * random_page_cost for a ratio of a cold random page's time to a cold
 * sequential page's time t_seq, when cached_pct of the pages come from the
 * caches at t_cached each, in units of the tablespace's seq_page_cost.
 */
static double
recommended(double seq_page_cost, double ratio, double t_seq,
			double cached_pct, double t_cached)
{
	double		f = cached_pct / 100.0;

	if (f <= 0)
		return seq_page_cost * ratio;
	return seq_page_cost * ((1.0 - f) * ratio * t_seq + f * t_cached) /
		((1.0 - f) * t_seq + f * t_cached);
}

Datum
page_costs(PG_FUNCTION_ARGS)
{
	Oid			relid;
	double		max_seconds;
	SbArgs		args;
	TupleDesc	tupdesc;
	SbRow		row;
	SbTarget   *target;
	SbResidency res;
	SbPageCosts pc;
	SbVerdict	v;
	Oid			spc;
	char	   *spcname;
	double		cur_random;
	double		cur_seq;
	double		cached_pct;
	double		t_seq = NAN;
	double		t_random = NAN;
	double		t_cached = NAN;
	double		ratio;
	double		lo;
	double		hi;
	bool		recommend;
	BlockNumber min_blocks;
	double		rec = NAN;

	sb_args_refuse_nulls(fcinfo);
	sb_args_init(&args, fcinfo);
	relid = sb_arg_oid(&args, "rel", REGCLASSOID);
	max_seconds = sb_arg_float8(&args, "max_seconds", 30.0);
	sb_check_max_seconds(max_seconds);
	sb_check_heap_table(relid,
						"Its partitions may live in different tablespaces, each with its own page costs.",
						"Measure one of its partitions.",
						"page_costs reads a table's heap pages, as scans and index scans fetch them.");
	tupdesc = sb_result_tupdesc(fcinfo);
	sb_row_init(&row, tupdesc, NULL, 0);

	target = sb_target_open(relid, SB_TARGET_SCAN);
	if (target->nleaves != 1)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("\"%s\" has inheritance children", get_rel_name(relid)),
				 errhint("Measure one table of the hierarchy at a time.")));
	min_blocks = sb_page_costs_min_blocks(target);
	if (target->nblocks < min_blocks)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("\"%s\" is too small to measure its page costs",
						get_rel_name(relid)),
				 errdetail("It has %u pages; page_costs needs at least %u (%u MB): a part read in order, a part at random, and three of the storage's read-ahead windows (%u kB each) between them.",
						   target->nblocks, min_blocks,
						   (unsigned) (((uint64) min_blocks * BLCKSZ + (1 << 20) - 1) >> 20),
						   (unsigned) ((uint64) (min_blocks - SB_PAGECOST_MIN_BLOCKS) / 3 * BLCKSZ / 1024)),
				 errhint("Measure a larger table in the same tablespace: the costs are the storage's.")));

	spc = sb_target_tablespace(target);
	spcname = get_tablespace_name(spc);
	get_tablespace_page_costs(spc, &cur_random, &cur_seq);

	/* What the caches held before the call, and then the measurement. */
	sb_residency(target, &res);
	cached_pct = sb_pct(res.any_blocks, res.blocks);
	sb_page_costs(target, max_seconds, &pc);

	if (pc.seq_pages > 0)
		t_seq = pc.seq_s / pc.seq_pages;
	if (pc.random_pages > 0)
		t_random = pc.random_s / pc.random_pages;
	if (pc.cached_pages > 0)
		t_cached = pc.cached_s / pc.cached_pages;
	ratio = pc.ratio;
	lo = pc.ratio_lo;
	hi = pc.ratio_hi;
	sb_judge_page_costs(pc.rounds, ratio, lo, hi, cached_pct, &v);
	recommend = !sb_verdict_has(&v, "over_budget") &&
		!sb_verdict_has(&v, "cached") && !isnan(ratio) &&
		(cached_pct <= 0 || !isnan(t_cached));
	if (recommend)
		rec = recommended(cur_seq, ratio, t_seq, cached_pct, t_cached);

	sb_row_datum(&row, "relation", ObjectIdGetDatum(relid));
	sb_row_text(&row, "tablespace", spcname);
	sb_row_datum(&row, "pages", Int64GetDatum(target->nblocks));
	sb_row_float(&row, "cached_pct_before", cached_pct, 1);
	sb_row_datum(&row, "passes", Int32GetDatum(pc.passes));
	sb_row_datum(&row, "rounds", Int32GetDatum(pc.rounds));
	sb_row_datum(&row, "seq_pages", Int64GetDatum(pc.seq_pages));
	sb_row_datum(&row, "random_pages", Int64GetDatum(pc.random_pages));
	sb_row_float(&row, "seq_page_us", t_seq * 1e6, 2);
	sb_row_float(&row, "random_page_us", t_random * 1e6, 2);
	sb_row_float(&row, "cached_page_us", t_cached * 1e6, 2);
	sb_row_float(&row, "ratio", ratio, 2);
	sb_row_float(&row, "ratio_low", lo, 2);
	sb_row_float(&row, "ratio_high", hi, 2);
	sb_row_float(&row, "seq_page_cost", cur_seq, 2);
	sb_row_float(&row, "random_page_cost", cur_random, 2);
	sb_row_null(&row, "recommended_random_page_cost");
	sb_row_null(&row, "recommended_low");
	sb_row_null(&row, "recommended_high");
	sb_row_null(&row, "command");
	if (recommend)
	{
		sb_row_float(&row, "recommended_random_page_cost", rec, 2);
		if (!isnan(lo))
		{
			sb_row_float(&row, "recommended_low", recommended(cur_seq, lo, t_seq, cached_pct, t_cached), 2);
			sb_row_float(&row, "recommended_high", recommended(cur_seq, hi, t_seq, cached_pct, t_cached), 2);
		}
		sb_row_text(&row, "command",
					psprintf("ALTER TABLESPACE %s SET (random_page_cost = %s)",
							 quote_identifier(spcname),
							 float8out_internal(sb_round(rec, 2))));
	}
	sb_row_float(&row, "untimed_s", pc.untimed_s, 3);
	sb_row_float(&row, "elapsed_s", pc.elapsed_s, 3);
	sb_row_verdict(&row, "verdict", &v);

	if (pc.rounds < SB_PAGECOST_MIN_ROUNDS)
		ereport(NOTICE,
				(errmsg("\"%s\": %d rounds of page reads in %.1f s, too few to judge",
						get_rel_name(relid), pc.rounds, pc.elapsed_s),
				 errhint("Give it more time: max_seconds => %.0f.",
						 Max(2 * max_seconds, 60.0))));
	else if (sb_verdict_has(&v, "cached"))
		ereport(NOTICE,
				(errmsg("\"%s\": the caches held %.0f%% of it, so its pages cost what the caches give",
						get_rel_name(relid), cached_pct),
				 errdetail("Cold, a random page took %.1f us and a sequential page %.1f us, a ratio of %.1f.",
						   t_random * 1e6, t_seq * 1e6, ratio),
				 errhint("No random_page_cost is recommended: with the table in memory, a value near seq_page_cost is usual.")));
	else if (recommend)
		ereport(NOTICE,
				(errmsg("\"%s\": a random page took %.1f us, a sequential page %.1f us: %.1f times as long (%.1f to %.1f)",
						get_rel_name(relid), t_random * 1e6, t_seq * 1e6,
						ratio, lo, hi),
				 errdetail("With %.0f%% of the table in the caches before the call, random_page_cost = %.2f fits tablespace %s (it is %.2f now).",
						   cached_pct, rec, spcname, cur_random)));

	sb_target_close(target);
	PG_RETURN_DATUM(sb_row_result(&row));
}
