/*-------------------------------------------------------------------------
 *
 * scanbench.c
 *	  The SQL-callable functions raw_read, raw_read_segments and
 *	  scan_rate (scan_efficiency lives in src/efficiency.c).  Arguments are
 *	  checked here, at the top of each function and before anything is
 *	  opened or evicted; the measuring is done by the pieces declared in
 *	  src/measure.h.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "funcapi.h"
#include "utils/builtins.h"

#include "measure.h"

PG_MODULE_MAGIC;

PG_FUNCTION_INFO_V1(raw_read);
PG_FUNCTION_INFO_V1(raw_read_segments);
PG_FUNCTION_INFO_V1(scan_rate);

/* ---- raw_read(rel, block_size, cache) ---- */

/* The columns raw_read and raw_read_segments share, from bytes on. */
static void
row_read_result(SbRow *row, SbReadResult *r, int32 block_size,
				SbCacheMode cache)
{
	sb_row_datum(row, Int64GetDatum(r->bytes));
	sb_row_datum(row, Int64GetDatum(r->reads));
	sb_row_datum(row, Int32GetDatum(block_size));
	sb_row_text(row, sb_cache_name(cache));
	sb_row_float(row, r->cached_pct_before, 1);
	sb_row_float(row, r->timing.seconds, 3);
	sb_row_float(row, sb_rate(r->bytes / SB_MB, r->timing.seconds), 1);
	sb_row_timing(row, &r->timing);
}

Datum
raw_read(PG_FUNCTION_ARGS)
{
	Oid			relid = PG_GETARG_OID(0);
	int32		block_size = PG_GETARG_INT32(1);
	SbCacheMode cache = sb_parse_cache(PG_GETARG_TEXT_PP(2), true);
	TupleDesc	tupdesc;
	SbTarget   *target;
	SbReadResult total;
	SbRow		row = {0};

	sb_check_block_size(block_size);
	sb_citus_refuse(relid, "raw_read");
	tupdesc = sb_result_tupdesc(fcinfo);

	target = sb_target_open(relid, SB_TARGET_FILES);
	sb_raw_read(target, block_size, cache, &total, NULL);
	sb_row_datum(&row, ObjectIdGetDatum(relid));
	sb_row_datum(&row, Int32GetDatum(target->nsegments));
	row_read_result(&row, &total, block_size, cache);
	sb_target_close(target);

	PG_RETURN_DATUM(sb_row_result(tupdesc, &row));
}

/* ---- raw_read_segments(rel, block_size, cache): a row per file ---- */

Datum
raw_read_segments(PG_FUNCTION_ARGS)
{
	Oid			relid = PG_GETARG_OID(0);
	int32		block_size = PG_GETARG_INT32(1);
	SbCacheMode cache = sb_parse_cache(PG_GETARG_TEXT_PP(2), true);
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	SbTarget   *target;
	SbReadResult total;
	SbReadResult *per_segment;
	int			i;

	sb_check_block_size(block_size);
	sb_citus_refuse(relid, "raw_read_segments");
	sb_init_srf(fcinfo);

	target = sb_target_open(relid, SB_TARGET_FILES);
	per_segment = palloc0(sizeof(SbReadResult) * Max(target->nsegments, 1));
	sb_raw_read(target, block_size, cache, &total, per_segment);

	for (i = 0; i < target->nsegments; i++)
	{
		SbSegment  *seg = target->segments[i];
		SbRow		row = {0};

		sb_row_datum(&row, ObjectIdGetDatum(seg->relid));
		sb_row_datum(&row, Int32GetDatum(seg->segno));
		sb_row_text(&row, seg->path);
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
	SbCacheMode cache = sb_parse_cache(PG_GETARG_TEXT_PP(1), false);
	char	   *query = text_to_cstring(PG_GETARG_TEXT_PP(2));
	int32		workers = PG_GETARG_INT32(3);
	TupleDesc	tupdesc;
	SbTarget   *target;
	SbScanResult r;
	SbRow		row = {0};

	sb_check_query(query);
	sb_check_workers(workers);
	sb_citus_refuse(relid, "scan_rate");
	tupdesc = sb_result_tupdesc(fcinfo);

	target = sb_target_open(relid, SB_TARGET_SCAN);
	sb_scan(target, query, workers, cache, &r);

	sb_row_datum(&row, ObjectIdGetDatum(relid));
	sb_row_text(&row, query);
	sb_row_datum(&row, Int64GetDatum(r.rows));
	sb_row_datum(&row, Int64GetDatum(target->nblocks));
	sb_row_datum(&row, Int64GetDatum(target->bytes));
	sb_row_text(&row, sb_cache_name(cache));
	sb_row_datum(&row, Int32GetDatum(r.workers_planned));
	sb_row_datum(&row, Int32GetDatum(r.workers_launched));
	sb_row_float(&row, r.cached_pct_before, 1);
	sb_row_float(&row, r.os_cached_pct_before, 1);
	sb_row_float(&row, r.buffers_cached_pct_before, 1);
	sb_row_float(&row, r.timing.seconds, 3);
	sb_row_float(&row, sb_rate(target->bytes / SB_MB, r.timing.seconds), 1);
	sb_row_float(&row, sb_rate(r.rows, r.timing.seconds), 0);
	sb_row_datum(&row, Int64GetDatum(r.shared_hit));
	sb_row_datum(&row, Int64GetDatum(r.shared_read));
	sb_row_float(&row, r.io_read_s, 3);
	sb_row_timing(&row, &r.timing);
	sb_row_io_workers(&row, &r.procs);
	sb_row_datum(&row, sb_io_settings());
	sb_target_close(target);

	PG_RETURN_DATUM(sb_row_result(tupdesc, &row));
}
