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
#include "fmgr.h"
#include "funcapi.h"

#include "argcheck.h"
#include "crossover.h"
#include "fnargs.h"
#include "relcheck.h"
#include "rows.h"
#include "verdict.h"

PG_FUNCTION_INFO_V1(index_crossover);

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

Datum
index_crossover(PG_FUNCTION_ARGS)
{
	SbArgs		args;
	Oid			relid;
	Oid			indexid;
	double		max_seconds;
	double		tried;
	SbCrossover x;
	SbRow		row;

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

	sb_crossover(relid, indexid, max_seconds, tried, &x);

	sb_row_datum(&row, "relation", ObjectIdGetDatum(relid));
	sb_row_datum(&row, "idx", ObjectIdGetDatum(indexid));
	sb_row_text(&row, "tablespace", x.tablespace);
	sb_row_datum(&row, "table_rows", Int64GetDatum((int64) x.reltuples));
	sb_row_datum(&row, "heap_pages", Int64GetDatum(x.heap_pages));
	sb_row_float(&row, "correlation", x.correlation, 3);
	sb_row_float(&row, "cached_pct_before", x.cached_pct_before, 1);
	sb_row_datum(&row, "rounds", Int32GetDatum(x.cr.rounds));
	sb_row_float(&row, "seq_s", x.cr.seq_s, 3);
	sb_row_float(&row, "crossover_rows", x.cr.index_never_lost ? NAN : x.cr.rows, 1);
	sb_row_float(&row, "crossover_selectivity", x.cross, 6);
	sb_row_float(&row, "crossover_low", x.cross_lo, 6);
	sb_row_float(&row, "crossover_high", x.cross_hi, 6);
	sb_row_float(&row, "planner_crossover", x.planned, 6);
	sb_row_float(&row, "random_page_cost", x.cur_random, 2);
	sb_row_float(&row, "seq_page_cost", x.cur_seq, 2);
	sb_row_text(&row, "planned_at_half", x.planned_half);
	sb_row_text(&row, "planned_at_twice", x.planned_twice);
	sb_row_float(&row, "matching_random_page_cost", x.matching, 2);
	sb_row_float(&row, "matching_low", x.matching_lo, 2);
	sb_row_float(&row, "matching_high", x.matching_hi, 2);
	sb_row_float(&row, "checked_random_page_cost", x.checked, 2);
	sb_row_float(&row, "checked_crossover", x.checked_cross, 6);
	sb_row_text(&row, "checked_at_half", x.checked_half);
	sb_row_text(&row, "checked_at_twice", x.checked_twice);
	sb_row_text(&row, "command", x.command);
	sb_row_float(&row, "elapsed_s", x.elapsed_s, 3);
	sb_row_verdict(&row, "verdict", &x.verdict);
	PG_RETURN_DATUM(sb_row_result(&row));
}
