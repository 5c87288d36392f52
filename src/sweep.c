/*-------------------------------------------------------------------------
 *
 * sweep.c
 *	  scan_sweep(): the count(1) scan measured under each value of one
 *	  setting a session may change, against a raw read of the same files
 *	  in the same call.
 *
 * "parallel_workers" is not a server setting but the scan's own
 * parallel_workers argument, as scan_rate takes it; the row reports the
 * workers really launched, which max_worker_processes and
 * max_parallel_workers can hold below the value asked.  Any other name is
 * a setting, set for each scan at a GUC nest level of its own and undone
 * after it (and by transaction abort).
 *
 * Everything is checked before anything is measured: the setting exists,
 * a session can change it (not io_method or shared_buffers, which need a
 * restart, nor one the measured statement sets itself), and each value is
 * valid for it, by the server's own check with the change left undone.
 *
 * Values are interleaved: each round scans every value once, forward in
 * even rounds and backward in odd ones, and each round starts with a raw
 * read, so that a drifting machine moves every value's figure alike.
 * Medians over the rounds are reported.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/guc_tables.h"

#include "measure.h"

PG_FUNCTION_INFO_V1(scan_sweep);

#define SB_MAX_SWEEP_VALUES	100

static const char *const sweep_hint =
"scan_sweep varies what a session can SET, such as parallel_workers, io_combine_limit, effective_io_concurrency or jit.";

static bool
is_parallel_workers(const char *setting)
{
	return pg_strcasecmp(setting, "parallel_workers") == 0;
}

/* The context a setting is changed in, for SET as this user. */
static GucContext
session_context(void)
{
	return superuser() ? PGC_SUSET : PGC_USERSET;
}

static void
check_setting(const char *setting)
{
	struct config_generic *guc;

	if (is_parallel_workers(setting))
		return;
	guc = sb_find_guc(setting);
	if (guc == NULL || (guc->flags & GUC_CUSTOM_PLACEHOLDER))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("unrecognized setting \"%s\"", setting),
				 errhint("%s", sweep_hint)));
	if (guc->context < PGC_SUSET)
		ereport(ERROR,
				(errcode(ERRCODE_CANT_CHANGE_RUNTIME_PARAM),
				 errmsg("setting \"%s\" cannot be changed by a session", setting),
				 errdetail("It is set %s.",
						   guc->context == PGC_SIGHUP ? "in the server's configuration and reloaded" :
						   (guc->context == PGC_BACKEND || guc->context == PGC_SU_BACKEND) ?
						   "when a session starts" : "when the server starts"),
				 errhint("%s", sweep_hint)));
	/* Who runs the scan is not a setting of the scan. */
	if (guc->flags & GUC_NOT_WHILE_SEC_REST)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("setting \"%s\" cannot be swept", setting),
				 errdetail("It changes the identity the scan runs as."),
				 errhint("%s", sweep_hint)));
	if (sb_scan_sets(setting))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("setting \"%s\" cannot be swept: the measured scan sets it itself",
						setting),
				 pg_strcasecmp(setting, "max_parallel_workers_per_gather") == 0 ?
				 errhint("Sweep \"parallel_workers\" instead.") :
				 errhint("%s", sweep_hint)));
}

/* Each value valid for the setting: parsed, range-checked, not applied. */
static void
check_value(const char *setting, const char *value, int *workers)
{
	if (is_parallel_workers(setting))
	{
		char	   *end;
		long		n;

		errno = 0;
		n = strtol(value, &end, 10);
		if (end == value || *end != '\0' || errno != 0 || n < INT_MIN || n > INT_MAX)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("invalid value for parallel_workers: \"%s\"", value),
					 errhint("Values of parallel_workers are whole numbers of workers, such as '{0,1,2}'.")));
		sb_check_workers((int32) n);
		*workers = (int) n;
		return;
	}
	*workers = 0;
	(void) set_config_option(setting, value, session_context(), PGC_S_SESSION,
							 GUC_ACTION_SAVE, false, ERROR, false);
}

typedef struct SbSweepValue
{
	char	   *value;
	int			workers;
	double	   *seconds;		/* one per round */
	int			planned;
	int			launched;		/* the fewest seen over the rounds */
	double		cached_pct;		/* the most seen */
	Datum		settings;
} SbSweepValue;

static void
measure_value(SbTarget *target, const char *setting, SbSweepValue *v,
			  SbCacheMode cache, int round)
{
	int			nestlevel = NewGUCNestLevel();
	SbScanResult r;

	if (!is_parallel_workers(setting))
		(void) set_config_option(setting, v->value, session_context(),
								 PGC_S_SESSION, GUC_ACTION_SAVE, true, 0, false);
	sb_scan(target, "count(1)", v->workers, cache, &r);
	if (round == 0)
	{
		v->settings = sb_io_settings();
		v->launched = r.workers_launched;
		v->cached_pct = r.cached_pct_before;
	}
	v->launched = Min(v->launched, r.workers_launched);
	v->planned = r.workers_planned;
	v->cached_pct = Max(v->cached_pct, r.cached_pct_before);
	v->seconds[round] = r.timing.seconds;
	AtEOXact_GUC(true, nestlevel);
}

Datum
scan_sweep(PG_FUNCTION_ARGS)
{
	Oid			relid = PG_GETARG_OID(0);
	char	   *setting = text_to_cstring(PG_GETARG_TEXT_PP(1));
	ArrayType  *vals = PG_GETARG_ARRAYTYPE_P(2);
	SbCacheMode cache = sb_parse_cache(PG_GETARG_TEXT_PP(3), false);
	int32		runs = PG_GETARG_INT32(4);
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	Datum	   *elems;
	bool	   *elem_nulls;
	int			nvals;
	SbSweepValue *values;
	double	   *read_mb_s;
	double		med_read;
	double		first_s = 0;
	SbTarget   *target;
	int			i,
				round;

	/* Everything checked before anything is opened or measured. */
	sb_check_runs(runs);
	if (ARR_NDIM(vals) > 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("vals must be a one-dimensional array")));
	deconstruct_array(vals, TEXTOID, -1, false, TYPALIGN_INT,
					  &elems, &elem_nulls, &nvals);
	if (nvals < 1 || nvals > SB_MAX_SWEEP_VALUES)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("vals must hold 1 to %d values, not %d",
						SB_MAX_SWEEP_VALUES, nvals)));
	check_setting(setting);
	values = palloc0(sizeof(SbSweepValue) * nvals);
	for (i = 0; i < nvals; i++)
	{
		if (elem_nulls[i])
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("vals must not contain NULL")));
		values[i].value = TextDatumGetCString(elems[i]);
		values[i].seconds = palloc(sizeof(double) * runs);
		check_value(setting, values[i].value, &values[i].workers);
	}
	sb_init_srf(fcinfo);

	target = sb_target_open(relid, SB_TARGET_SCAN);
	read_mb_s = palloc(sizeof(double) * runs);
	for (round = 0; round < runs; round++)
	{
		SbReadResult rr;

		sb_raw_read(target, BLCKSZ, cache, &rr, NULL);
		read_mb_s[round] = sb_rate(rr.bytes / SB_MB, rr.timing.seconds);
		for (i = 0; i < nvals; i++)
		{
			int			k = (round % 2 == 0) ? i : nvals - 1 - i;

			CHECK_FOR_INTERRUPTS();
			measure_value(target, setting, &values[k], cache, round);
		}
	}
	med_read = sb_median(read_mb_s, runs);

	for (i = 0; i < nvals; i++)
	{
		SbSweepValue *v = &values[i];
		double		seconds = sb_median(v->seconds, runs);
		double		mb_s = sb_rate(target->bytes / SB_MB, seconds);
		SbRow		row;

		if (i == 0)
			first_s = seconds;
		sb_row_init(&row, rsinfo->setDesc);
		sb_row_datum(&row, "relation", ObjectIdGetDatum(relid));
		sb_row_text(&row, "setting", setting);
		sb_row_text(&row, "value", v->value);
		sb_row_text(&row, "cache", sb_cache_name(cache));
		sb_row_datum(&row, "runs", Int32GetDatum(runs));
		sb_row_datum(&row, "workers_planned", Int32GetDatum(v->planned));
		sb_row_datum(&row, "workers_launched", Int32GetDatum(v->launched));
		sb_row_float(&row, "cached_pct_before", v->cached_pct, 1);
		sb_row_float(&row, "seconds", seconds, 3);
		sb_row_float(&row, "mb_s", mb_s, 1);
		sb_row_float(&row, "speedup", sb_rate(first_s, seconds), 2);
		sb_row_float(&row, "read_mb_s", med_read, 1);
		sb_row_float(&row, "read_pct", sb_rate(100.0 * mb_s, med_read), 1);
		sb_row_datum(&row, "settings", v->settings);
		tuplestore_puttuple(rsinfo->setResult, sb_row_tuple(&row));
	}
	sb_target_close(target);

	return (Datum) 0;
}
