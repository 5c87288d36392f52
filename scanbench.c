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
	sb_row_datum(row, "bytes", Int64GetDatum(r->bytes));
	sb_row_datum(row, "reads", Int64GetDatum(r->reads));
	sb_row_datum(row, "block_size", Int32GetDatum(block_size));
	sb_row_text(row, "cache", sb_cache_name(cache));
	sb_row_float(row, "cached_pct_before", r->cached_pct_before, 1);
	sb_row_float(row, "seconds", r->timing.seconds, 3);
	sb_row_float(row, "mb_s", sb_rate(r->bytes / SB_MB, r->timing.seconds), 1);
	sb_row_float(row, "user_s", r->timing.user_s, 3);
	sb_row_float(row, "sys_s", r->timing.sys_s, 3);
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
	SbRow		row;

	sb_check_block_size(block_size);
	sb_citus_refuse(relid, "raw_read");
	tupdesc = sb_result_tupdesc(fcinfo);
	sb_row_init(&row, tupdesc);

	target = sb_target_open(relid, SB_TARGET_FILES);
	sb_raw_read(target, block_size, cache, &total, NULL);
	sb_row_datum(&row, "relation", ObjectIdGetDatum(relid));
	sb_row_datum(&row, "segments", Int32GetDatum(target->nsegments));
	row_read_result(&row, &total, block_size, cache);
	sb_target_close(target);

	PG_RETURN_DATUM(sb_row_result(&row));
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
		SbRow		row;

		sb_row_init(&row, rsinfo->setDesc);
		sb_row_datum(&row, "relation", ObjectIdGetDatum(seg->relid));
		sb_row_datum(&row, "segno", Int32GetDatum(seg->segno));
		sb_row_text(&row, "path", seg->path);
		row_read_result(&row, &per_segment[i], block_size, cache);
		tuplestore_puttuple(rsinfo->setResult, sb_row_tuple(&row));
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
	SbRow		row;

	sb_check_query(query);
	sb_check_workers(workers);
	sb_citus_refuse(relid, "scan_rate");
	tupdesc = sb_result_tupdesc(fcinfo);
	sb_row_init(&row, tupdesc);

	target = sb_target_open(relid, SB_TARGET_SCAN);
	sb_scan(target, query, workers, cache, &r);

	sb_row_datum(&row, "relation", ObjectIdGetDatum(relid));
	sb_row_text(&row, "query", query);
	sb_row_datum(&row, "rows", Int64GetDatum(r.rows));
	sb_row_datum(&row, "pages", Int64GetDatum(target->nblocks));
	sb_row_datum(&row, "bytes", Int64GetDatum(target->bytes));
	sb_row_text(&row, "cache", sb_cache_name(cache));
	sb_row_datum(&row, "workers_planned", Int32GetDatum(r.workers_planned));
	sb_row_datum(&row, "workers_launched", Int32GetDatum(r.workers_launched));
	sb_row_float(&row, "cached_pct_before", r.cached_pct_before, 1);
	sb_row_float(&row, "os_cached_pct_before", r.os_cached_pct_before, 1);
	sb_row_float(&row, "buffers_cached_pct_before", r.buffers_cached_pct_before, 1);
	sb_row_float(&row, "seconds", r.timing.seconds, 3);
	sb_row_float(&row, "mb_s", sb_rate(target->bytes / SB_MB, r.timing.seconds), 1);
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
