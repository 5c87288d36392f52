/*-------------------------------------------------------------------------
 *
 * raw_read.c
 *	  Reads of a relation's own segment files, below the executor:
 *	  - raw_read(), raw_read_segments(): lmdd over the files, sequential
 *	    reads of block_size bytes (seqread.c), for the relation or a row
 *	    per file; raw_read with depth reads in flight, as fio --iodepth
 *	    reads a device (randio.c);
 *	  - random_read(): pgiosim over the files, random reads of block_size
 *	    bytes at block-aligned offsets inside the relation, at queue depth
 *	    1 or, as fio --iodepth does, with depth reads in flight (randio.c).
 *
 * random_read's files, and raw_read's at depth, are opened read-only as
 * the reads reach them, a bounded number at once, and closed before an
 * error or a cancel goes on (randio.c); the relation is locked as raw_read
 * locks it (relfiles.c), and only the bytes it had at the start are read.
 * Reads at depth take a buffer of block_size each: depth times block_size
 * is held to SB_MAX_DEPTH_BYTES.  The caches are put in the state asked
 * for, and the random reads set up, by fileread.c.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "catalog/pg_type.h"
#include "fmgr.h"
#include "funcapi.h"
#include "utils/builtins.h"

#include "argcheck.h"
#include "citus.h"
#include "fileread.h"
#include "fnargs.h"
#include "randio.h"
#include "relfiles.h"
#include "rows.h"
#include "seqread.h"
#include "stats.h"

PG_FUNCTION_INFO_V1(raw_read);
PG_FUNCTION_INFO_V1(raw_read_segments);
PG_FUNCTION_INFO_V1(random_read);

/*
 * The arguments are read by name: up to 0.2 the definitions put cache
 * after block_size (and reads), from 0.3 it comes second, after rel, as in
 * every function; rel is first in all of them.
 */
static SbCacheMode
arg_cache(SbArgs *args)
{
	return sb_parse_cache(cstring_to_text(sb_arg_cstring(args, "cache", "cold")), true);
}

/* depth, and the memory its reads' buffers take (block_size checked) */
static void
check_depth(int32 depth, int32 block_size)
{
	if (depth < 1 || depth > SB_MAX_DEPTH)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid depth: %d", depth),
				 errhint("depth, the reads kept in flight, must be between 1 and %d.", SB_MAX_DEPTH)));
	sb_check_depth_memory(depth, block_size);
}

/*
 * raw_read's and raw_read_segments' arguments, by name from the caller's
 * definition (0.1 and 0.2 had cache last), checked before anything is
 * opened.
 */
static Oid
read_args(FunctionCallInfo fcinfo, const char *fn, SbCacheMode *cache,
		  int32 *block_size, int32 *depth)
{
	SbArgs		args;
	Oid			relid;

	sb_args_refuse_nulls(fcinfo);
	sb_args_init(&args, fcinfo);
	relid = sb_arg_oid(&args, "rel", REGCLASSOID);
	*cache = arg_cache(&args);
	*block_size = sb_arg_int32(&args, "block_size", 8192);
	sb_check_block_size(*block_size);
	/* up to 0.3, and raw_read_segments: one read at a time */
	*depth = sb_arg_int32(&args, "depth", 1);
	check_depth(*depth, *block_size);
	sb_citus_refuse(relid, fn);
	return relid;
}

/* ---- raw_read(rel, cache, block_size, depth) ---- */

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
	sb_row_float(row, "read_s", r->timing.seconds, 3);
	sb_row_float(row, "read_mb_s", sb_rate(r->bytes / SB_MB, r->timing.seconds), 1);
	sb_row_float(row, "user_s", r->timing.user_s, 3);
	sb_row_float(row, "sys_s", r->timing.sys_s, 3);
}

/*
 * The columns of raw_read_result, raw_read_segment_result and
 * random_read_result that 0.2 named seconds and mb_s.
 */
static const SbRenamed read_renamed[] =
{
	{"read_s", "seconds"},
	{"read_mb_s", "mb_s"},
};

Datum
raw_read(PG_FUNCTION_ARGS)
{
	Oid			relid;
	int32		block_size;
	int32		depth;
	SbCacheMode cache;
	TupleDesc	tupdesc;
	SbTarget   *target;
	SbReadResult total;
	SbRow		row;

	relid = read_args(fcinfo, "raw_read", &cache, &block_size, &depth);
	tupdesc = sb_result_tupdesc(fcinfo);
	sb_row_init(&row, tupdesc, read_renamed, lengthof(read_renamed));

	target = sb_target_open(relid, SB_TARGET_FILES);
	if (depth > 1)
		sb_file_read_in_flight(target, block_size, cache, depth, &total);
	else
		sb_raw_read(target, block_size, cache, &total, NULL);
	sb_row_datum(&row, "relation", ObjectIdGetDatum(relid));
	sb_row_datum(&row, "segments", Int32GetDatum(target->nsegments));
	row_read_result(&row, &total, block_size, cache);
	sb_row_datum(&row, "depth", Int32GetDatum(depth));
	sb_target_close(target);

	PG_RETURN_DATUM(sb_row_result(&row));
}

/* ---- raw_read_segments(rel, cache, block_size): a row per file ---- */

Datum
raw_read_segments(PG_FUNCTION_ARGS)
{
	Oid			relid;
	int32		block_size;
	SbCacheMode cache;
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	SbTarget   *target;
	SbReadResult total;
	SbReadResult *per_segment;
	int32		depth;
	int			i;

	relid = read_args(fcinfo, "raw_read_segments", &cache, &block_size, &depth);
	sb_init_srf(fcinfo);

	target = sb_target_open(relid, SB_TARGET_FILES);
	per_segment = palloc0(sizeof(SbReadResult) * Max(target->nsegments, 1));
	sb_raw_read(target, block_size, cache, &total, per_segment);

	for (i = 0; i < target->nsegments; i++)
	{
		SbSegment  *seg = target->segments[i];
		SbRow		row;

		sb_row_init(&row, rsinfo->setDesc, read_renamed,
					lengthof(read_renamed));
		sb_row_datum(&row, "relation", ObjectIdGetDatum(seg->relid));
		sb_row_datum(&row, "segno", Int32GetDatum(seg->segno));
		sb_row_text(&row, "path", seg->path);
		row_read_result(&row, &per_segment[i], block_size, cache);
		tuplestore_puttuple(rsinfo->setResult, sb_row_tuple(&row));
	}
	sb_target_close(target);

	return (Datum) 0;
}

/* ---- random_read(rel, cache, reads, block_size, depth) ---- */

Datum
random_read(PG_FUNCTION_ARGS)
{
	Oid			relid;
	SbArgs		args;
	int32		reads;
	int32		block_size;
	int32		depth;
	SbCacheMode cache;
	TupleDesc	tupdesc;
	SbTarget   *target;
	SbRandomResult r;
	double		cached_pct;
	SbRow		row;

	sb_args_refuse_nulls(fcinfo);
	sb_args_init(&args, fcinfo);
	relid = sb_arg_oid(&args, "rel", REGCLASSOID);
	cache = arg_cache(&args);
	reads = sb_arg_int32(&args, "reads", 10000);
	block_size = sb_arg_int32(&args, "block_size", 8192);
	/* up to 0.3 the definitions had no depth: one read at a time */
	depth = sb_arg_int32(&args, "depth", 1);

	sb_check_random_ops("reads", reads);
	sb_check_block_size(block_size);
	check_depth(depth, block_size);
	tupdesc = sb_result_tupdesc(fcinfo);
	sb_row_init(&row, tupdesc, read_renamed, lengthof(read_renamed));

	target = sb_target_open(relid, SB_TARGET_FILES);
	cached_pct = sb_file_random_read(target, cache, reads, block_size, depth, &r);

	sb_row_datum(&row, "relation", ObjectIdGetDatum(relid));
	sb_row_datum(&row, "reads", Int64GetDatum(r.ops));
	sb_row_datum(&row, "block_size", Int32GetDatum(block_size));
	sb_row_text(&row, "cache", sb_cache_name(cache));
	sb_row_datum(&row, "bytes", Int64GetDatum(r.bytes));
	sb_row_float(&row, "cached_pct_before", cached_pct, 1);
	sb_row_float(&row, "read_s", r.timing.seconds, 3);
	sb_row_float(&row, "iops", sb_rate(r.ops, r.timing.seconds), 0);
	sb_row_float(&row, "read_mb_s", sb_rate(r.bytes / SB_MB, r.timing.seconds), 1);
	sb_row_float(&row, "latency_p50_us", r.p50_us, 1);
	sb_row_float(&row, "latency_p95_us", r.p95_us, 1);
	sb_row_float(&row, "latency_p99_us", r.p99_us, 1);
	sb_row_null(&row, "min_offset");
	sb_row_null(&row, "max_offset");
	if (r.ops > 0)
	{
		sb_row_datum(&row, "min_offset", Int64GetDatum(r.min_offset));
		sb_row_datum(&row, "max_offset", Int64GetDatum(r.max_offset));
	}
	sb_row_datum(&row, "repeats", BoolGetDatum(r.repeats));
	sb_row_float(&row, "user_s", r.timing.user_s, 3);
	sb_row_float(&row, "sys_s", r.timing.sys_s, 3);
	sb_row_datum(&row, "depth", Int32GetDatum(depth));
	sb_target_close(target);

	PG_RETURN_DATUM(sb_row_result(&row));
}
