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
#include "fmgr.h"
#include "funcapi.h"
#include "utils/array.h"

#include "argcheck.h"
#include "fnargs.h"
#include "pagecost.h"
#include "relcheck.h"
#include "rows.h"
#include "stats.h"
#include "verdict.h"

PG_FUNCTION_INFO_V1(page_costs);

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

/*
 * The effective_io_concurrency recommended, NULL where none is, and the
 * range of the sweeps' knees, NULL before the third sweep.
 */
static void
recommended_eic(SbRow *row, const SbCostAdvice *ca)
{
	const SbDepthSweep *ds = &ca->ds;

	sb_row_null(row, "recommended_effective_io_concurrency");
	sb_row_null(row, "recommended_eic_low");
	sb_row_null(row, "recommended_eic_high");
	if (ca->recommend_eic)
	{
		sb_row_datum(row, "recommended_effective_io_concurrency", Int32GetDatum(ds->knee));
		if (ds->knee_low > 0)
		{
			sb_row_datum(row, "recommended_eic_low", Int32GetDatum(ds->knee_low));
			sb_row_datum(row, "recommended_eic_high", Int32GetDatum(ds->knee_high));
		}
	}
}

Datum
page_costs(PG_FUNCTION_ARGS)
{
	Oid			relid;
	double		max_seconds;
	SbArgs		args;
	SbRow		row;
	SbPageCostsCall x;
	SbCostAdvice *ca = &x.ca;
	SbPageCosts *pc = &x.ca.pc;
	SbDepthSweep *ds = &x.ca.ds;

	sb_args_refuse_nulls(fcinfo);
	sb_args_init(&args, fcinfo);
	relid = sb_arg_oid(&args, "rel", REGCLASSOID);
	max_seconds = sb_arg_float8(&args, "max_seconds", 30.0);
	sb_check_max_seconds(max_seconds);
	sb_check_heap_table(relid,
						"Its partitions may live in different tablespaces, each with its own page costs.",
						"Measure one of its partitions.",
						"page_costs reads a table's heap pages, as scans and index scans fetch them.");
	sb_row_init(&row, sb_result_tupdesc(fcinfo), NULL, 0);

	sb_page_costs_call(relid, max_seconds, &x);

	sb_row_datum(&row, "relation", ObjectIdGetDatum(relid));
	sb_row_text(&row, "tablespace", x.tablespace);
	sb_row_datum(&row, "pages", Int64GetDatum(x.pages));
	sb_row_float(&row, "cached_pct_before", ca->cached_pct, 1);
	sb_row_datum(&row, "passes", Int32GetDatum(pc->passes));
	sb_row_datum(&row, "rounds", Int32GetDatum(pc->rounds));
	sb_row_datum(&row, "seq_pages", Int64GetDatum(pc->seq_pages));
	sb_row_datum(&row, "random_pages", Int64GetDatum(pc->random_pages));
	sb_row_float(&row, "seq_page_us", ca->t_seq * 1e6, 2);
	sb_row_float(&row, "random_page_us", ca->t_random * 1e6, 2);
	sb_row_float(&row, "cached_page_us", ca->t_cached * 1e6, 2);
	sb_row_float(&row, "ratio", pc->ratio, 2);
	sb_row_float(&row, "ratio_low", pc->ratio_lo, 2);
	sb_row_float(&row, "ratio_high", pc->ratio_hi, 2);
	sb_row_float(&row, "seq_page_cost", x.cur_seq, 2);
	sb_row_float(&row, "random_page_cost", x.cur_random, 2);
	sb_row_float(&row, "recommended_random_page_cost", ca->rec, 2);
	sb_row_float(&row, "recommended_low", ca->rec_lo, 2);
	sb_row_float(&row, "recommended_high", ca->rec_hi, 2);
	sb_row_datum(&row, "effective_io_concurrency", Int32GetDatum(x.cur_eic));
	depth_arrays(&row, ds);
	sb_row_datum(&row, "sweeps", Int32GetDatum(ds->sweeps));
	recommended_eic(&row, ca);
	sb_row_text(&row, "command", x.command);
	sb_row_float(&row, "untimed_s", pc->untimed_s, 3);
	sb_row_float(&row, "elapsed_s", pc->elapsed_s + ds->elapsed_s, 3);
	sb_row_verdict(&row, "verdict", &ca->v);
	PG_RETURN_DATUM(sb_row_result(&row));
}
