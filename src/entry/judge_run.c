/*-------------------------------------------------------------------------
 *
 * judge_run.c
 *	  scanbench_internal.judge_run() and judge_page_costs_run(): a recorded
 *	  run judged by the rules of runjudge.c, from the figures its SQL judge
 *	  read (scan_history_verdict, page_costs_judge), which then words the
 *	  result; sql/judge.sql calls them with figures on either side of each
 *	  threshold.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "catalog/pg_type.h"
#include "fmgr.h"
#include "utils/array.h"
#include "utils/builtins.h"

#include "fnargs.h"
#include "rows.h"
#include "runjudge.h"

PG_FUNCTION_INFO_V1(judge_run);
PG_FUNCTION_INFO_V1(judge_page_costs_run);

/* The rules that held, by name, in their table's order (judgerules.c). */
static Datum
rule_names(const SbRunFired *f)
{
	Datum		d[SB_RUN_MAX_RULES];
	int			i;

	for (i = 0; i < f->n; i++)
		d[i] = CStringGetTextDatum(f->rules[i]->name);
	return PointerGetDatum(construct_array(d, f->n, TEXTOID, -1, false,
										   TYPALIGN_INT));
}

/*
 * judge_run(scan_pct, drop_pct, earlier_runs, min_pct, max_drop_pct,
 *           warn_pct, warn_drop_pct)
 *   -> (status, rules, warn_at, drop_judged, earlier_needed)
 *
 * A figure or limit passed as NULL is one not had; earlier_runs must be
 * given.  The rules are those that held, by name, in the table's order.
 */
Datum
judge_run(PG_FUNCTION_ARGS)
{
	SbArgs		args;
	SbRunInput	in;
	SbRunVerdict v;
	SbRow		row;

	sb_args_init(&args, fcinfo);
	in.earlier_runs = sb_arg_int32(&args, "earlier_runs", -1);
	if (in.earlier_runs < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("earlier_runs must be 0 or more, not %d", in.earlier_runs)));
	in.scan_pct = sb_arg_float8_or_null(&args, "scan_pct", NAN);
	in.drop_pct = sb_arg_float8_or_null(&args, "drop_pct", NAN);
	in.min_pct = sb_arg_float8_or_null(&args, "min_pct", NAN);
	in.max_drop_pct = sb_arg_float8_or_null(&args, "max_drop_pct", NAN);
	in.warn_pct = sb_arg_float8_or_null(&args, "warn_pct", NAN);
	in.warn_drop_pct = sb_arg_float8_or_null(&args, "warn_drop_pct", NAN);

	sb_judge_run(&in, &v);

	sb_row_init(&row, sb_result_tupdesc(fcinfo), NULL, 0);
	sb_row_text(&row, "status", sb_run_status_name(v.fired.level));
	sb_row_datum(&row, "rules", rule_names(&v.fired));
	/* Unrounded: the SQL judge rounds where it says them. */
	sb_row_exact(&row, "warn_at", v.warn_at);
	sb_row_exact(&row, "drop_judged", v.drop_judged);
	sb_row_datum(&row, "earlier_needed", Int32GetDatum((int) sb_threshold(SB_RULE_EARLIER_RUNS)));
	return sb_row_result(&row);
}

/*
 * judge_page_costs_run(off_pct, change_pct, max_off_pct,
 *                      effective_io_concurrency, recommended_eic_low)
 *   -> (status, rules)
 *
 * For a run that has a recommendation; a figure passed as NULL is one not
 * had.  Status alarm, warning or ok.
 */
Datum
judge_page_costs_run(PG_FUNCTION_ARGS)
{
	SbArgs		args;
	SbPageCostsInput in;
	SbRunFired	f;
	SbRow		row;

	sb_args_init(&args, fcinfo);
	in.off_pct = sb_arg_float8_or_null(&args, "off_pct", NAN);
	in.change_pct = sb_arg_float8_or_null(&args, "change_pct", NAN);
	in.max_off_pct = sb_arg_float8_or_null(&args, "max_off_pct", NAN);
	in.eic = sb_arg_int32_or_null(&args, "effective_io_concurrency", -1);
	in.eic_low = sb_arg_int32_or_null(&args, "recommended_eic_low", -1);

	sb_judge_page_costs_run(&in, &f);

	sb_row_init(&row, sb_result_tupdesc(fcinfo), NULL, 0);
	sb_row_text(&row, "status", sb_page_costs_status_name(f.level));
	sb_row_datum(&row, "rules", rule_names(&f));
	return sb_row_result(&row);
}
