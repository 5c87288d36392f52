/*-------------------------------------------------------------------------
 *
 * judge_cohort.c
 *	  scanbench_internal.judge_cohort(): a figure against its cohort's, by
 *	  the rule scanbench-fleet judges a night's servers by (cohortrule.c,
 *	  the same file compiled into both), so that a judgement made in SQL
 *	  over a central history is the client's; sql/judge.sql calls it with
 *	  figures on either side of the band.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "catalog/pg_type.h"
#include "fmgr.h"
#include "utils/array.h"

#include "cohortrule.h"
#include "fnargs.h"
#include "judgerules.h"
#include "rows.h"

PG_FUNCTION_INFO_V1(judge_cohort);

static const char *
side_name(SbCohortSide side)
{
	return side == SB_COHORT_BELOW ? "below" : side == SB_COHORT_ABOVE ? "above" : "inside";
}

/* The array's figures: a NULL or NaN element is none (a run not measured). */
static double *
figures_of(ArrayType *arr, int *n)
{
	Datum	   *elems;
	bool	   *nulls;
	int			nelems;
	double	   *x;

	deconstruct_array(arr, FLOAT8OID, sizeof(float8), FLOAT8PASSBYVAL, TYPALIGN_DOUBLE,
					  &elems, &nulls, &nelems);
	x = palloc(sizeof(double) * (nelems + 1));
	*n = 0;
	for (int i = 0; i < nelems; i++)
		if (!nulls[i] && !isnan(DatumGetFloat8(elems[i])))
			x[(*n)++] = DatumGetFloat8(elems[i]);
	return x;
}

/*
 * judge_cohort(figures, lo, hi, k, min_spread)
 *   -> (n, centre, spread, side, needed)
 *
 * The band of the figures (a NULL element is a figure not had), and where
 * the interval [lo, hi] lies against it; side is NULL without an interval
 * or where fewer figures than needed make no band.
 */
Datum
judge_cohort(PG_FUNCTION_ARGS)
{
	SbArgs		args;
	ArrayType  *arr;
	int			n;
	double	   *x,
				lo,
				hi,
				k,
				min_spread;
	SbCohortBand band;
	SbRow		row;

	/* The one argument without a default, first in the only definition. */
	if (PG_ARGISNULL(0))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("figures must not be NULL"),
				 errhint("Pass an empty array for a cohort without figures.")));
	sb_args_init(&args, fcinfo);
	arr = sb_arg_array(&args, "figures", FLOAT8OID);
	if (arr == NULL || ARR_NDIM(arr) > 1)
		ereport(ERROR,
				(errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
				 errmsg("figures must be a one-dimensional array of float8")));
	lo = sb_arg_float8_or_null(&args, "lo", NAN);
	hi = sb_arg_float8_or_null(&args, "hi", NAN);
	k = sb_arg_float8(&args, "k", sb_threshold(SB_RULE_COHORT_K));
	min_spread = sb_arg_float8(&args, "min_spread",
							   sb_threshold(SB_RULE_COHORT_LEAST_PCT));
	if (!(k > 0) || isinf(k))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("k must be a positive number of spreads, not %g", k)));
	if (!(min_spread >= 0) || isinf(min_spread))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("min_spread must be 0 or more, not %g", min_spread)));
	if (isnan(lo) != isnan(hi) || lo > hi)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("lo and hi must both be given, lo at most hi, or both be NULL")));

	x = figures_of(arr, &n);
	sb_row_init(&row, sb_result_tupdesc(fcinfo), NULL, 0);
	sb_row_datum(&row, "n", Int32GetDatum(n));
	sb_row_datum(&row, "needed", Int32GetDatum((int) sb_threshold(SB_RULE_COHORT_SIZE)));
	/* No band: its figures NaN, so NULL, and no side. */
	sb_cohort_band(x, n, k, min_spread, palloc(sizeof(double) * (n + 1)), &band);
	sb_row_exact(&row, "centre", band.centre);
	sb_row_exact(&row, "spread", band.spread);
	sb_row_text(&row, "side", isnan(lo) || isnan(band.centre) ? NULL :
				side_name(sb_cohort_side(&band, lo, hi)));
	return sb_row_result(&row);
}
