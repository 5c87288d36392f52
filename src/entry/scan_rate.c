/*-------------------------------------------------------------------------
 *
 * scan_rate.c
 *	  The executor's scan rate of a relation, and what it is made of:
 *	  - scan_rate(): one timed executor pass (scan.c);
 *	  - scan_breakdown(): where one scan's time goes;
 *	  - scan_shapes(): the relation scanned with statements that cost the
 *	    executor more and more;
 *	  - scan_sweep(): the scan under each value of one setting.
 *	  The last three set a raw read of the same files beside it, in the
 *	  same call.  Their engines say how: breakdown.c for scan_breakdown,
 *	  scanrounds.c for the rounds of scan_shapes and scan_sweep.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "catalog/pg_type.h"
#include "fmgr.h"
#include "funcapi.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/guc.h"

#include "argcheck.h"
#include "breakdown.h"
#include "cache.h"
#include "citus.h"
#include "fnargs.h"
#include "rows.h"
#include "scan.h"
#include "scanrounds.h"
#include "settings.h"
#include "stats.h"

PG_FUNCTION_INFO_V1(scan_rate);
PG_FUNCTION_INFO_V1(scan_breakdown);
PG_FUNCTION_INFO_V1(scan_shapes);
PG_FUNCTION_INFO_V1(scan_sweep);

/* ---- scan_rate(rel, cache, query, parallel_workers) ---- */

/* The arguments scan_rate and scan_breakdown share, checked. */
typedef struct SbScanArgs
{
	Oid			relid;
	SbCacheMode cache;
	char	   *query;
	int32		workers;
} SbScanArgs;

static void
scan_args(FunctionCallInfo fcinfo, const char *function, SbScanArgs *a)
{
	SbArgs		args;

	sb_args_refuse_nulls(fcinfo);
	sb_args_init(&args, fcinfo);
	a->relid = sb_arg_oid(&args, "rel", REGCLASSOID);
	a->cache = sb_parse_cache(cstring_to_text(sb_arg_cstring(&args, "cache", "cold")), false);
	a->query = sb_arg_cstring(&args, "query", "count(1)");
	a->workers = sb_arg_int32(&args, "parallel_workers", 0);
	sb_check_query(a->query);
	sb_check_workers(a->workers);
	sb_citus_refuse(a->relid, function);
}

/* scan_rate_result's columns renamed in 0.3 */
static const SbRenamed scan_rate_renamed[] =
{
	{"scan_s", "seconds"},
	{"scan_mb_s", "mb_s"},
};

Datum
scan_rate(PG_FUNCTION_ARGS)
{
	SbScanArgs	a;
	TupleDesc	tupdesc;
	SbTarget   *target;
	SbScanResult r;
	SbRow		row;

	scan_args(fcinfo, "scan_rate", &a);
	tupdesc = sb_result_tupdesc(fcinfo);
	sb_row_init(&row, tupdesc, scan_rate_renamed,
				lengthof(scan_rate_renamed));

	target = sb_target_open(a.relid, SB_TARGET_SCAN);
	sb_scan(target, a.query, a.workers, a.cache, &r);

	sb_row_datum(&row, "relation", ObjectIdGetDatum(a.relid));
	sb_row_text(&row, "query", a.query);
	sb_row_datum(&row, "rows", Int64GetDatum(r.rows));
	sb_row_datum(&row, "pages", Int64GetDatum(target->nblocks));
	sb_row_datum(&row, "bytes", Int64GetDatum(target->bytes));
	sb_row_text(&row, "cache", sb_cache_name(a.cache));
	sb_row_datum(&row, "workers_planned", Int32GetDatum(r.workers_planned));
	sb_row_datum(&row, "workers_launched", Int32GetDatum(r.workers_launched));
	sb_row_float(&row, "cached_pct_before", r.cached_pct_before, 1);
	sb_row_float(&row, "os_cached_pct_before", r.os_cached_pct_before, 1);
	sb_row_float(&row, "buffers_cached_pct_before", r.buffers_cached_pct_before, 1);
	sb_row_float(&row, "scan_s", r.timing.seconds, 3);
	sb_row_float(&row, "scan_mb_s", sb_rate(target->bytes / SB_MB, r.timing.seconds), 1);
	sb_row_float(&row, "rows_s", sb_rate(r.rows, r.timing.seconds), 0);
	sb_row_datum(&row, "shared_hit", Int64GetDatum(r.shared_hit));
	sb_row_datum(&row, "shared_read", Int64GetDatum(r.shared_read));
	sb_row_float(&row, "io_read_s", r.io_read_s, 3);
	sb_row_float(&row, "user_s", r.timing.user_s, 3);
	sb_row_float(&row, "sys_s", r.timing.sys_s, 3);
	sb_row_io_workers(&row, &r.procs);
	sb_row_datum(&row, "settings", sb_io_settings());
	sb_target_close(target);

	PG_RETURN_DATUM(sb_row_result(&row));
}

/* ---- scan_breakdown ---- */

/*
 * scan_breakdown(): where one scan's time goes, from a raw read, the scan
 * and a warm scan of the same blocks (the engine: breakdown.c, which says
 * how the time is split).
 */

/*
 * Under io_uring the kernel does the reads without going through read(2),
 * so rchar does not count them and the page cache's share is unknown.
 */
static bool
rchar_counts_reads(void)
{
	const char *method = GetConfigOption("io_method", true, false);

	return method == NULL || strcmp(method, "io_uring") != 0;
}

/*
 * The scan's own count of its reads (19 on, NULL before), beside its read
 * wait, and whether the two accounts agree (breakdown.c).
 */
static void
stream_columns(SbRow *row, SbBreakdown *b)
{
	SbScanIO   *io = &b->scan.io;

	if (!io->ok)
	{
		sb_row_null(row, "stream_reads");
		sb_row_null(row, "stream_read_blocks");
		sb_row_null(row, "stream_waits");
		sb_row_null(row, "stream_distance");
		sb_row_null(row, "stream_distance_max");
		sb_row_null(row, "stream_check");
		return;
	}
	sb_row_datum(row, "stream_reads", Int64GetDatum(io->ios));
	sb_row_datum(row, "stream_read_blocks", Int64GetDatum(io->io_blocks));
	sb_row_datum(row, "stream_waits", Int64GetDatum(io->waits));
	sb_row_float(row, "stream_distance",
				 sb_rate((double) io->distance_sum, (double) io->buffers), 1);
	sb_row_datum(row, "stream_distance_max", Int32GetDatum(io->distance_max));
	sb_row_text(row, "stream_check", b->stream_check);
}

/* scan_breakdown_result's columns renamed in 0.3 */
static const SbRenamed scan_breakdown_renamed[] =
{
	{"scan_s", "seconds"},
	{"read_s", "t_read_s"},
	{"cpu_s", "t_cpu_s"},
};

/* CPU: all, then each kind of process. */
static void
cpu_columns(SbRow *row, SbBreakdown *b)
{
	SbScanResult *sr = &b->scan;

	sb_row_float(row, "user_s", b->user_s, 3);
	sb_row_float(row, "sys_s", b->sys_s, 3);
	sb_row_float(row, "backend_user_s", sr->timing.user_s, 3);
	sb_row_float(row, "backend_sys_s", sr->timing.sys_s, 3);
	if (sr->workers_launched == 0 || b->have_parallel)
	{
		sb_row_float(row, "parallel_user_s", b->parallel_user_s, 3);
		sb_row_float(row, "parallel_sys_s", b->parallel_sys_s, 3);
	}
	else
	{
		sb_row_null(row, "parallel_user_s");
		sb_row_null(row, "parallel_sys_s");
	}
	sb_row_io_workers(row, &sr->procs);
}

/* Reads: the wait, the bytes from storage and the page cache, buffers. */
static void
read_columns(SbRow *row, SbBreakdown *b)
{
	SbScanResult *sr = &b->scan;

	sb_row_float(row, "io_read_s", sr->io_read_s, 3);
	sb_row_null(row, "storage_read_bytes");
	sb_row_null(row, "page_cache_bytes");
	if (b->bytes_ok)
	{
		sb_row_datum(row, "storage_read_bytes", Int64GetDatum(b->storage_bytes));
		if (rchar_counts_reads())
			sb_row_datum(row, "page_cache_bytes",
						 Int64GetDatum(b->rchar > b->storage_bytes ?
									   b->rchar - b->storage_bytes : 0));
	}
	sb_row_datum(row, "shared_hit", Int64GetDatum(sr->shared_hit));
	sb_row_datum(row, "shared_read", Int64GetDatum(sr->shared_read));
	stream_columns(row, b);
}

/* Where the wall time went. */
static void
wall_columns(SbRow *row, SbBreakdown *b)
{
	SbScanResult *sr = &b->scan;

	sb_row_text(row, "bottleneck", b->bottleneck);
	sb_row_float(row, "cpu_pct", sb_share_pct(b->busy, b->budget), 1);
	sb_row_float(row, "cpu_wait_pct", sb_share_pct(b->queued, b->budget), 1);
	/* Of that wait, the group held back by its own CPU quota (clock.c). */
	sb_row_float(row, "cpu_throttled_pct",
				 isnan(sr->timing.throttled_s) ? NAN :
				 sb_share_pct(Min(sr->timing.throttled_s, b->queued), b->budget), 1);
	sb_row_float(row, "io_wait_pct", sb_share_pct(b->io_wait, b->budget), 1);
	sb_row_float(row, "other_pct",
				 sb_share_pct(b->budget - b->busy - b->queued - b->io_wait, b->budget), 1);
}

Datum
scan_breakdown(PG_FUNCTION_ARGS)
{
	SbScanArgs	a;
	SbBreakdownCall call;
	SbBreakdown *b = &call.b;
	SbScanResult *sr = &call.b.scan;
	SbRow		row;

	scan_args(fcinfo, "scan_breakdown", &a);
	sb_row_init(&row, sb_result_tupdesc(fcinfo), scan_breakdown_renamed,
				lengthof(scan_breakdown_renamed));

	sb_breakdown_call(a.relid, a.query, a.workers, a.cache, &call);

	sb_row_datum(&row, "relation", ObjectIdGetDatum(a.relid));
	sb_row_text(&row, "query", a.query);
	sb_row_text(&row, "cache", sb_cache_name(a.cache));
	sb_row_datum(&row, "workers_launched", Int32GetDatum(sr->workers_launched));
	sb_row_datum(&row, "rows", Int64GetDatum(sr->rows));
	sb_row_datum(&row, "pages", Int64GetDatum(call.pages));
	sb_row_datum(&row, "bytes", Int64GetDatum(call.bytes));
	sb_row_float(&row, "cached_pct_before", sr->cached_pct_before, 1);
	/* The three times and what they predict. */
	sb_row_float(&row, "scan_s", b->wall, 3);
	sb_row_float(&row, "scan_mb_s", b->scan_mb_s, 1);
	sb_row_float(&row, "read_s", b->t_read, 3);
	sb_row_float(&row, "read_mb_s", b->read_mb_s, 1);
	sb_row_float(&row, "cpu_s", b->t_cpu, 3);
	sb_row_float(&row, "warm_mb_s", b->warm_mb_s, 1);
	sb_row_float(&row, "scan_pct", sb_rate(100.0 * b->t_read, b->wall), 1);
	sb_row_float(&row, "no_overlap_pct", sb_no_overlap_pct(b->t_read, b->t_cpu), 1);
	sb_row_float(&row, "perfect_overlap_pct",
				 sb_perfect_overlap_pct(b->t_read, b->t_cpu), 1);
	/* Outside 0..100 NULL, as the column's comment says. */
	sb_row_float(&row, "overlap_pct", b->overlap_pct, 1);
	cpu_columns(&row, b);
	read_columns(&row, b);
	sb_row_float(&row, "cpu_ns_per_row", sb_rate(1e9 * b->cpu_s, (double) sr->rows), 1);
	sb_row_float(&row, "cpu_ns_per_page",
				 sb_rate(1e9 * b->cpu_s, (double) call.pages), 0);
	wall_columns(&row, b);
	/* The server's own limits, which the rates above include, not leave out. */
	sb_row_limits(&row, &call.limits);
	sb_row_datum(&row, "settings", call.settings);
	PG_RETURN_DATUM(sb_row_result(&row));
}

/* ---- scan_shapes ---- */

/* The columns of scan_shape_result and scan_sweep_result before 0.3. */
static const SbRenamed scan_shape_renamed[] =
{
	{"scan_s", "seconds"},
	{"scan_mb_s", "mb_s"},
	{"scan_pct", "read_pct"},
};

/* ---- scan_shapes(rel, cache, runs): a row per shape (scanrounds.c) ---- */

Datum
scan_shapes(PG_FUNCTION_ARGS)
{
	Oid			relid;
	SbCacheMode cache;
	int32		runs;
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	SbShapeFigures shapes[SB_MAX_SHAPES];
	double		med_read;
	int			nshapes;
	SbArgs		args;
	int			i;

	sb_args_refuse_nulls(fcinfo);
	sb_args_init(&args, fcinfo);
	relid = sb_arg_oid(&args, "rel", REGCLASSOID);
	cache = sb_parse_cache(cstring_to_text(sb_arg_cstring(&args, "cache", "warm")), false);
	runs = sb_arg_int32(&args, "runs", 1);

	sb_check_runs(runs);
	sb_init_srf(fcinfo);

	nshapes = sb_shapes(relid, cache, runs, shapes, &med_read);
	for (i = 0; i < nshapes; i++)
	{
		SbShapeFigures *f = &shapes[i];
		SbRow		row;

		sb_row_init(&row, rsinfo->setDesc, scan_shape_renamed,
					lengthof(scan_shape_renamed));
		sb_row_datum(&row, "relation", ObjectIdGetDatum(relid));
		sb_row_text(&row, "shape", f->name);
		sb_row_text(&row, "query", f->query);
		sb_row_text(&row, "cache", sb_cache_name(cache));
		sb_row_datum(&row, "runs", Int32GetDatum(runs));
		sb_row_float(&row, "cached_pct_before", f->cached_pct, 1);
		sb_row_datum(&row, "rows", Int64GetDatum(f->rows));
		sb_row_float(&row, "scan_s", f->scan_s, 3);
		sb_row_float(&row, "scan_mb_s", f->scan_mb_s, 1);
		sb_row_float(&row, "rows_s", sb_rate((double) f->rows, f->scan_s), 0);
		sb_row_float(&row, "ns_per_row", sb_rate(1e9 * f->scan_s, (double) f->rows), 1);
		sb_row_float(&row, "read_mb_s", med_read, 1);
		sb_row_float(&row, "scan_pct", sb_rate(100.0 * f->scan_mb_s, med_read), 1);
		sb_row_float(&row, "user_s", f->user_s, 3);
		sb_row_float(&row, "sys_s", f->sys_s, 3);
		tuplestore_puttuple(rsinfo->setResult, sb_row_tuple(&row));
	}
	return (Datum) 0;
}

/*
 * ---- scan_sweep(rel, cache, setting, vals, runs): a row per value of
 * the setting (scanrounds.c says what can be swept and measures it) ----
 */

/*
 * The values of vals, each checked valid for setting (which is checked
 * first), in order; their count in *nvals.
 */
static SbSweepValue *
sweep_values(ArrayType *vals, const char *setting, int runs, int *nvals)
{
	Datum	   *elems;
	bool	   *elem_nulls;
	SbSweepValue *values;
	int			i;

	if (ARR_NDIM(vals) > 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("vals must be a one-dimensional array")));
	deconstruct_array(vals, TEXTOID, -1, false, TYPALIGN_INT,
					  &elems, &elem_nulls, nvals);
	if (*nvals < 1 || *nvals > SB_MAX_SWEEP_VALUES)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("vals must hold 1 to %d values, not %d",
						SB_MAX_SWEEP_VALUES, *nvals)));
	sb_sweep_check_setting(setting);
	values = palloc0(sizeof(SbSweepValue) * *nvals);
	for (i = 0; i < *nvals; i++)
	{
		if (elem_nulls[i])
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("vals must not contain NULL")));
		values[i].value = TextDatumGetCString(elems[i]);
		values[i].seconds = palloc(sizeof(double) * runs);
		sb_sweep_check_value(setting, values[i].value, &values[i].workers);
	}
	return values;
}

Datum
scan_sweep(PG_FUNCTION_ARGS)
{
	Oid			relid;
	char	   *setting;
	ArrayType  *vals;
	SbCacheMode cache;
	int32		runs;
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	int			nvals;
	SbSweepValue *values;
	double		med_read;
	SbArgs		args;
	int			i;

	/*
	 * By name: 0.3 has (rel, cache, setting, vals, runs), cache second as
	 * in every other function; 0.2 had (rel, setting, vals, cache, runs).
	 * Every definition names all five.
	 */
	sb_args_refuse_nulls(fcinfo);
	sb_args_init(&args, fcinfo);
	relid = sb_arg_oid(&args, "rel", REGCLASSOID);
	setting = sb_arg_cstring(&args, "setting", NULL);
	vals = sb_arg_array(&args, "vals", TEXTOID);
	if (setting == NULL || vals == NULL)
		elog(ERROR, "scan_sweep's definition lacks setting or vals");
	cache = sb_parse_cache(cstring_to_text(sb_arg_cstring(&args, "cache", "cold")), false);
	runs = sb_arg_int32(&args, "runs", 1);

	/* Everything checked before anything is opened or measured. */
	sb_check_runs(runs);
	values = sweep_values(vals, setting, runs, &nvals);
	sb_init_srf(fcinfo);

	med_read = sb_sweep(relid, setting, values, nvals, cache, runs);
	for (i = 0; i < nvals; i++)
	{
		SbSweepValue *v = &values[i];
		SbRow		row;

		sb_row_init(&row, rsinfo->setDesc, scan_shape_renamed,
					lengthof(scan_shape_renamed));
		sb_row_datum(&row, "relation", ObjectIdGetDatum(relid));
		sb_row_text(&row, "setting", setting);
		sb_row_text(&row, "value", v->value);
		sb_row_text(&row, "cache", sb_cache_name(cache));
		sb_row_datum(&row, "runs", Int32GetDatum(runs));
		sb_row_datum(&row, "workers_planned", Int32GetDatum(v->planned));
		sb_row_datum(&row, "workers_launched", Int32GetDatum(v->launched));
		sb_row_float(&row, "cached_pct_before", v->cached_pct, 1);
		sb_row_float(&row, "scan_s", v->scan_s, 3);
		sb_row_float(&row, "scan_mb_s", v->scan_mb_s, 1);
		sb_row_float(&row, "speedup", sb_rate(values[0].scan_s, v->scan_s), 2);
		sb_row_float(&row, "read_mb_s", med_read, 1);
		sb_row_float(&row, "scan_pct", sb_rate(100.0 * v->scan_mb_s, med_read), 1);
		sb_row_datum(&row, "settings", v->settings);
		tuplestore_puttuple(rsinfo->setResult, sb_row_tuple(&row));
	}
	return (Datum) 0;
}
