/*-------------------------------------------------------------------------
 *
 * scanbench.c
 *	  The SQL-callable functions: raw_read, raw_read_segments, scan_rate
 *	  and scan_efficiency.  Arguments are checked here, at the top of each
 *	  function and before anything is opened or evicted; the measuring is
 *	  done by the pieces declared in src/scanbench.h.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/htup_details.h"
#include "fmgr.h"
#include "funcapi.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"

#include "scanbench.h"

PG_MODULE_MAGIC;

PG_FUNCTION_INFO_V1(raw_read);
PG_FUNCTION_INFO_V1(raw_read_segments);
PG_FUNCTION_INFO_V1(scan_rate);
PG_FUNCTION_INFO_V1(scan_efficiency);

#define SB_MAX_RUNS		1000
#define SB_MAX_WORKERS	1024

/* ---- argument checks ---- */

static SbCacheMode
parse_cache(text *arg, bool allow_direct)
{
	char	   *s = text_to_cstring(arg);

	if (strcmp(s, "cold") == 0)
		return SB_CACHE_COLD;
	if (strcmp(s, "warm") == 0)
		return SB_CACHE_WARM;
	if (strcmp(s, "asis") == 0)
		return SB_CACHE_ASIS;
	if (allow_direct && strcmp(s, "direct") == 0)
		return SB_CACHE_DIRECT;

	if (allow_direct)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid cache mode: \"%s\"", s),
				 errhint("Valid cache modes are \"cold\", \"warm\", \"direct\" and \"asis\".")));
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("invalid cache mode for an executor scan: \"%s\"", s),
			 errhint("Valid cache modes are \"cold\", \"warm\" and \"asis\"; \"direct\" applies to raw_read() only.")));
	pg_unreachable();
}

static const char *
cache_name(SbCacheMode cache)
{
	switch (cache)
	{
		case SB_CACHE_COLD:
			return "cold";
		case SB_CACHE_WARM:
			return "warm";
		case SB_CACHE_DIRECT:
			return "direct";
		case SB_CACHE_ASIS:
			return "asis";
	}
	return "?";
}

static void
check_block_size(int32 block_size)
{
	if (block_size < 512 || block_size > SB_MAX_BLOCK_SIZE || block_size % 512 != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid block_size: %d", block_size),
				 errhint("block_size must be a multiple of 512 between 512 and %d (64 MB).",
						 SB_MAX_BLOCK_SIZE)));
}

static void
check_runs(int32 runs)
{
	if (runs < 1 || runs > SB_MAX_RUNS)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid runs: %d", runs),
				 errhint("runs must be between 1 and %d.", SB_MAX_RUNS)));
}

static void
check_workers(int32 workers)
{
	if (workers < 0 || workers > SB_MAX_WORKERS)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid parallel_workers: %d", workers),
				 errhint("parallel_workers must be between 0 (no parallel workers) and %d.",
						 SB_MAX_WORKERS)));
}

static void
check_query(const char *query)
{
	if (query[0] == '\0')
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("query must not be empty"),
				 errhint("Pass the select list alone, such as 'count(1)'.")));
}

/* ---- result rows ---- */

/*
 * Result rows are built as Datum arrays in column order; a NaN float (a
 * rate over nothing) becomes NULL.
 */
typedef struct SbRow
{
	int			n;
	Datum		values[32];
	bool		nulls[32];
} SbRow;

static void
row_datum(SbRow *row, Datum d)
{
	row->values[row->n] = d;
	row->nulls[row->n] = false;
	row->n++;
}

static void
row_float(SbRow *row, double v, int digits)
{
	if (isnan(v))
	{
		row->values[row->n] = (Datum) 0;
		row->nulls[row->n] = true;
		row->n++;
	}
	else
		row_datum(row, Float8GetDatum(sb_round(v, digits)));
}

static void
row_text(SbRow *row, const char *s)
{
	if (s == NULL)
	{
		row->values[row->n] = (Datum) 0;
		row->nulls[row->n] = true;
		row->n++;
	}
	else
		row_datum(row, CStringGetTextDatum(s));
}

static void
row_timing(SbRow *row, SbTiming *t)
{
	row_float(row, t->user_s, 3);
	row_float(row, t->sys_s, 3);
}

static TupleDesc
result_tupdesc(FunctionCallInfo fcinfo)
{
	TupleDesc	tupdesc;

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	return BlessTupleDesc(tupdesc);
}

static Datum
row_datum_of(TupleDesc tupdesc, SbRow *row)
{
	if (row->n != tupdesc->natts)
		elog(ERROR, "scanbench built %d columns for a %d-column result",
			 row->n, tupdesc->natts);
	return HeapTupleGetDatum(heap_form_tuple(tupdesc, row->values, row->nulls));
}

/* ---- raw_read(rel, block_size, cache) ---- */

/* The columns raw_read and raw_read_segments share, from bytes on. */
static void
row_read_result(SbRow *row, SbReadResult *r, int32 block_size,
				SbCacheMode cache)
{
	row_datum(row, Int64GetDatum(r->bytes));
	row_datum(row, Int64GetDatum(r->reads));
	row_datum(row, Int32GetDatum(block_size));
	row_text(row, cache_name(cache));
	row_float(row, r->cached_pct_before, 1);
	row_float(row, r->timing.seconds, 3);
	row_float(row, sb_rate(r->bytes / SB_MB, r->timing.seconds), 1);
	row_timing(row, &r->timing);
}

Datum
raw_read(PG_FUNCTION_ARGS)
{
	Oid			relid = PG_GETARG_OID(0);
	int32		block_size = PG_GETARG_INT32(1);
	SbCacheMode cache = parse_cache(PG_GETARG_TEXT_PP(2), true);
	TupleDesc	tupdesc;
	SbTarget   *target;
	SbReadResult total;
	SbRow		row = {0};

	check_block_size(block_size);
	tupdesc = result_tupdesc(fcinfo);

	target = sb_target_open(relid, SB_TARGET_FILES);
	sb_raw_read(target, block_size, cache, &total, NULL);
	row_datum(&row, ObjectIdGetDatum(relid));
	row_datum(&row, Int32GetDatum(target->nsegments));
	row_read_result(&row, &total, block_size, cache);
	sb_target_close(target);

	PG_RETURN_DATUM(row_datum_of(tupdesc, &row));
}

/* ---- raw_read_segments(rel, block_size, cache): a row per file ---- */

Datum
raw_read_segments(PG_FUNCTION_ARGS)
{
	Oid			relid = PG_GETARG_OID(0);
	int32		block_size = PG_GETARG_INT32(1);
	SbCacheMode cache = parse_cache(PG_GETARG_TEXT_PP(2), true);
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	SbTarget   *target;
	SbReadResult total;
	SbReadResult *per_segment;
	int			i;

	check_block_size(block_size);
	sb_init_srf(fcinfo);

	target = sb_target_open(relid, SB_TARGET_FILES);
	per_segment = palloc0(sizeof(SbReadResult) * Max(target->nsegments, 1));
	sb_raw_read(target, block_size, cache, &total, per_segment);

	for (i = 0; i < target->nsegments; i++)
	{
		SbSegment  *seg = target->segments[i];
		SbRow		row = {0};

		row_datum(&row, ObjectIdGetDatum(seg->relid));
		row_datum(&row, Int32GetDatum(seg->segno));
		row_text(&row, seg->path);
		row_read_result(&row, &per_segment[i], block_size, cache);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc,
							 row.values, row.nulls);
	}
	sb_target_close(target);

	return (Datum) 0;
}

/* ---- scan_rate(rel, cache, query, parallel_workers) ---- */

Datum
scan_rate(PG_FUNCTION_ARGS)
{
	Oid			relid = PG_GETARG_OID(0);
	SbCacheMode cache = parse_cache(PG_GETARG_TEXT_PP(1), false);
	char	   *query = text_to_cstring(PG_GETARG_TEXT_PP(2));
	int32		workers = PG_GETARG_INT32(3);
	TupleDesc	tupdesc;
	SbTarget   *target;
	SbScanResult r;
	SbRow		row = {0};

	check_query(query);
	check_workers(workers);
	tupdesc = result_tupdesc(fcinfo);

	target = sb_target_open(relid, SB_TARGET_SCAN);
	sb_scan(target, query, workers, cache, &r);

	row_datum(&row, ObjectIdGetDatum(relid));
	row_text(&row, query);
	row_datum(&row, Int64GetDatum(r.rows));
	row_datum(&row, Int64GetDatum(target->nblocks));
	row_datum(&row, Int64GetDatum(target->bytes));
	row_text(&row, cache_name(cache));
	row_datum(&row, Int32GetDatum(r.workers_planned));
	row_datum(&row, Int32GetDatum(r.workers_launched));
	row_float(&row, r.cached_pct_before, 1);
	row_float(&row, r.os_cached_pct_before, 1);
	row_float(&row, r.buffers_cached_pct_before, 1);
	row_float(&row, r.timing.seconds, 3);
	row_float(&row, sb_rate(target->bytes / SB_MB, r.timing.seconds), 1);
	row_float(&row, sb_rate(r.rows, r.timing.seconds), 0);
	row_datum(&row, Int64GetDatum(r.shared_hit));
	row_datum(&row, Int64GetDatum(r.shared_read));
	row_float(&row, r.io_read_s, 3);
	row_timing(&row, &r.timing);
	sb_target_close(target);

	PG_RETURN_DATUM(row_datum_of(tupdesc, &row));
}

/* ---- scan_efficiency(rel, cache, block_size, runs) ---- */

static int
cmp_double(const void *a, const void *b)
{
	double		x = *(const double *) a;
	double		y = *(const double *) b;

	return (x > y) - (x < y);
}

/* Median of n values; NaN (shown as NULL) if any is NaN. */
static double
median(double *v, int n)
{
	int			i;

	for (i = 0; i < n; i++)
		if (isnan(v[i]))
			return NAN;
	qsort(v, n, sizeof(double), cmp_double);
	return (n % 2) ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

/* The worst (highest) share cached before any run: how cold "cold" was. */
static double
max_pct(double *v, int n)
{
	double		m = NAN;
	int			i;

	for (i = 0; i < n; i++)
		if (!isnan(v[i]) && (isnan(m) || v[i] > m))
			m = v[i];
	return m;
}

Datum
scan_efficiency(PG_FUNCTION_ARGS)
{
	Oid			relid = PG_GETARG_OID(0);
	SbCacheMode cache = parse_cache(PG_GETARG_TEXT_PP(1), false);
	int32		block_size = PG_GETARG_INT32(2);
	int32		runs = PG_GETARG_INT32(3);
	TupleDesc	tupdesc;
	SbTarget   *target;
	double	   *read_mb_s,
			   *scan_mb_s,
			   *read_s,
			   *scan_s,
			   *read_cached,
			   *scan_cached;
	double		med_read,
				med_scan;
	uint64		rows = 0;
	char	   *fstype;
	char	   *device;
	SbRow		row = {0};
	int			i;

	check_block_size(block_size);
	check_runs(runs);
	tupdesc = result_tupdesc(fcinfo);

	target = sb_target_open(relid, SB_TARGET_SCAN);
	read_mb_s = palloc(sizeof(double) * runs);
	scan_mb_s = palloc(sizeof(double) * runs);
	read_s = palloc(sizeof(double) * runs);
	scan_s = palloc(sizeof(double) * runs);
	read_cached = palloc(sizeof(double) * runs);
	scan_cached = palloc(sizeof(double) * runs);

	/*
	 * Alternate the two sides so that both see the same machine: drifting
	 * host caches and neighbours move both figures, not one.
	 */
	for (i = 0; i < runs; i++)
	{
		SbReadResult rr;
		SbScanResult sr;

		sb_raw_read(target, block_size, cache, &rr, NULL);
		sb_scan(target, "count(1)", 0, cache, &sr);

		read_mb_s[i] = sb_rate(rr.bytes / SB_MB, rr.timing.seconds);
		scan_mb_s[i] = sb_rate(target->bytes / SB_MB, sr.timing.seconds);
		read_s[i] = rr.timing.seconds;
		scan_s[i] = sr.timing.seconds;
		read_cached[i] = rr.cached_pct_before;
		scan_cached[i] = sr.cached_pct_before;
		rows = sr.rows;
	}
	med_read = median(read_mb_s, runs);
	med_scan = median(scan_mb_s, runs);
	sb_storage_of(sb_target_first_path(target), &fstype, &device);

	row_datum(&row, ObjectIdGetDatum(relid));
	row_datum(&row, Int64GetDatum(target->bytes));
	row_datum(&row, Int64GetDatum(rows));
	row_text(&row, cache_name(cache));
	row_datum(&row, Int32GetDatum(block_size));
	row_datum(&row, Int32GetDatum(runs));
	row_float(&row, med_read, 1);
	row_float(&row, med_scan, 1);
	row_float(&row, sb_rate(100.0 * med_scan, med_read), 1);
	row_float(&row, median(read_s, runs), 3);
	row_float(&row, median(scan_s, runs), 3);
	row_float(&row, max_pct(read_cached, runs), 1);
	row_float(&row, max_pct(scan_cached, runs), 1);
	row_text(&row, fstype);
	row_text(&row, device);
	row_datum(&row, TimestampTzGetDatum(GetCurrentTimestamp()));
	sb_target_close(target);

	PG_RETURN_DATUM(row_datum_of(tupdesc, &row));
}
