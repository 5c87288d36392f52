/*-------------------------------------------------------------------------
 *
 * page_costs.c
 *	  page_costs(rel, max_seconds): the planner's page costs, measured on
 *	  one table: the cold time of a sequential page and of a random page
 *	  (pagecost.c), their ratio with its interval, and the random_page_cost
 *	  they give for the table's tablespace, weighed by how much of the
 *	  table the caches held.
 *
 * Then, with what is left of max_seconds (at least 40 % of
 * it), the table's pages are read at random at depths 1, 2,
 * 4, ... (iodepth.c): the least depth that gets nearly all of the
 * storage's random-read rate is the effective_io_concurrency a bitmap
 * heap scan of the table needs.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "catalog/pg_type.h"
#include "commands/tablespace.h"
#include "fmgr.h"
#include "funcapi.h"
#include "lib/stringinfo.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/float.h"
#include "utils/lsyscache.h"
#include "utils/spccache.h"

#include "argcheck.h"
#include "fnargs.h"
#include "pagecost.h"
#include "relcheck.h"
#include "relfiles.h"
#include "rows.h"
#include "stats.h"
#include "tablespace.h"
#include "verdict.h"

PG_FUNCTION_INFO_V1(page_costs);

/* The tablespace's recommended settings, as ALTER TABLESPACE's options. */
static char *
options(const SbCostAdvice *ca)
{
	StringInfoData buf;

	initStringInfo(&buf);
	if (ca->recommend)
		appendStringInfo(&buf, "random_page_cost = %s",
						 float8out_internal(sb_round(ca->rec, 2)));
	if (ca->recommend_eic)
		appendStringInfo(&buf, "%seffective_io_concurrency = %d",
						 ca->recommend ? ", " : "", ca->ds.knee);
	return buf.data;
}

/* The depths and their rates as two arrays of the row. */
static void
depth_arrays(SbRow *row, const SbDepthSweep *ds)
{
	Datum		d[SB_DEPTH_STEPS];
	Datum		r[SB_DEPTH_STEPS];
	int			i;

	if (ds->ndepths == 0 || ds->sweeps == 0)
	{
		sb_row_null(row, "depths");
		sb_row_null(row, "depth_pages_s");
		return;
	}
	for (i = 0; i < ds->ndepths; i++)
	{
		d[i] = Int32GetDatum(ds->depths[i]);
		r[i] = Float8GetDatum(sb_round(ds->pages_s[i], 1));
	}
	sb_row_datum(row, "depths",
				 PointerGetDatum(construct_array(d, ds->ndepths, INT4OID,
												 sizeof(int32), true, TYPALIGN_INT)));
	sb_row_datum(row, "depth_pages_s",
				 PointerGetDatum(construct_array(r, ds->ndepths, FLOAT8OID,
												 sizeof(float8), FLOAT8PASSBYVAL,
												 TYPALIGN_DOUBLE)));
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
	SbCostAdvice ca;
	SbPageCosts *pc = &ca.pc;
	SbDepthSweep *ds = &ca.ds;
	Oid			spc;
	char	   *spcname;
	double		cur_random;
	double		cur_seq;
	int			cur_eic;
	BlockNumber min_blocks;

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
	cur_eic = get_tablespace_io_concurrency(spc);

	sb_page_costs_advise(target, max_seconds, cur_seq,
						 sb_page_costs_cached_pct(target), &ca);

	sb_row_datum(&row, "relation", ObjectIdGetDatum(relid));
	sb_row_text(&row, "tablespace", spcname);
	sb_row_datum(&row, "pages", Int64GetDatum(target->nblocks));
	sb_row_float(&row, "cached_pct_before", ca.cached_pct, 1);
	sb_row_datum(&row, "passes", Int32GetDatum(pc->passes));
	sb_row_datum(&row, "rounds", Int32GetDatum(pc->rounds));
	sb_row_datum(&row, "seq_pages", Int64GetDatum(pc->seq_pages));
	sb_row_datum(&row, "random_pages", Int64GetDatum(pc->random_pages));
	sb_row_float(&row, "seq_page_us", ca.t_seq * 1e6, 2);
	sb_row_float(&row, "random_page_us", ca.t_random * 1e6, 2);
	sb_row_float(&row, "cached_page_us", ca.t_cached * 1e6, 2);
	sb_row_float(&row, "ratio", pc->ratio, 2);
	sb_row_float(&row, "ratio_low", pc->ratio_lo, 2);
	sb_row_float(&row, "ratio_high", pc->ratio_hi, 2);
	sb_row_float(&row, "seq_page_cost", cur_seq, 2);
	sb_row_float(&row, "random_page_cost", cur_random, 2);
	sb_row_float(&row, "recommended_random_page_cost", ca.rec, 2);
	sb_row_float(&row, "recommended_low", ca.rec_lo, 2);
	sb_row_float(&row, "recommended_high", ca.rec_hi, 2);
	sb_row_datum(&row, "effective_io_concurrency", Int32GetDatum(cur_eic));
	depth_arrays(&row, ds);
	sb_row_datum(&row, "sweeps", Int32GetDatum(ds->sweeps));
	sb_row_null(&row, "recommended_effective_io_concurrency");
	sb_row_null(&row, "recommended_eic_low");
	sb_row_null(&row, "recommended_eic_high");
	if (ca.recommend_eic)
	{
		sb_row_datum(&row, "recommended_effective_io_concurrency", Int32GetDatum(ds->knee));
		if (ds->knee_low > 0)
		{
			sb_row_datum(&row, "recommended_eic_low", Int32GetDatum(ds->knee_low));
			sb_row_datum(&row, "recommended_eic_high", Int32GetDatum(ds->knee_high));
		}
	}
	sb_row_null(&row, "command");
	if (ca.recommend || ca.recommend_eic)
		sb_row_text(&row, "command",
					psprintf("ALTER TABLESPACE %s SET (%s)",
							 quote_identifier(spcname), options(&ca)));
	sb_row_float(&row, "untimed_s", pc->untimed_s, 3);
	sb_row_float(&row, "elapsed_s", pc->elapsed_s + ds->elapsed_s, 3);
	sb_row_verdict(&row, "verdict", &ca.v);

	if (pc->rounds < SB_PAGECOST_MIN_ROUNDS)
		ereport(NOTICE,
				(errmsg("\"%s\": %d rounds of page reads in %.1f s, too few to judge",
						get_rel_name(relid), pc->rounds, pc->elapsed_s),
				 errhint("Give it more time: max_seconds => %.0f.",
						 Max(2 * max_seconds, 60.0))));
	else if (sb_verdict_has(&ca.v, "cached"))
		ereport(NOTICE,
				(errmsg("\"%s\": the caches held %.0f%% of it, so its pages cost what the caches give",
						get_rel_name(relid), ca.cached_pct),
				 errdetail("Cold, a random page took %.1f us and a sequential page %.1f us, a ratio of %.1f.",
						   ca.t_random * 1e6, ca.t_seq * 1e6, pc->ratio),
				 errhint("No setting is recommended: with the table in memory, a random_page_cost near seq_page_cost is usual.")));
	else if (ca.recommend)
		ereport(NOTICE,
				(errmsg("\"%s\": a random page took %.1f us, a sequential page %.1f us: %.1f times as long (%.1f to %.1f)",
						get_rel_name(relid), ca.t_random * 1e6, ca.t_seq * 1e6,
						pc->ratio, pc->ratio_lo, pc->ratio_hi),
				 errdetail("With %.0f%% of the table in the caches before the call, random_page_cost = %.2f fits tablespace %s (it is %.2f now).",
						   ca.cached_pct, ca.rec, spcname, cur_random)));
	if (ca.recommend_eic)
		ereport(NOTICE,
				(errmsg("\"%s\": random reads got %.0f pages/s one at a time and %.0f at depth %d, where they came within %.0f%% of the best depth's rate (the median of %d sweeps)",
						get_rel_name(relid), ds->pages_s[0],
						sb_depth_rate(ds, ds->knee), ds->knee,
						SB_DEPTH_KNEE_PCT, ds->sweeps),
				 errdetail("effective_io_concurrency = %d fits tablespace %s for bitmap heap scans (it is %d now).",
						   ds->knee, spcname, cur_eic)));
	else if (ds->sweeps == 0 && !sb_verdict_has(&ca.v, "cached"))
		ereport(NOTICE,
				(errmsg("\"%s\": no time was left to read it at depth, so no effective_io_concurrency is recommended",
						get_rel_name(relid)),
				 errhint("Give it more time: max_seconds => %.0f.",
						 Max(2 * max_seconds, 60.0))));

	sb_target_close(target);
	PG_RETURN_DATUM(sb_row_result(&row));
}
