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
 *	  same call.  Each function's own account heads its section below.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/relation.h"
#include "catalog/pg_type.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/guc_tables.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/typcache.h"

#include "argcheck.h"
#include "breakdown.h"
#include "cache.h"
#include "cgroup.h"
#include "citus.h"
#include "compat_guc.h"
#include "fnargs.h"
#include "procstat.h"
#include "seqread.h"
#include "relfiles.h"
#include "rows.h"
#include "scan.h"
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

Datum
scan_breakdown(PG_FUNCTION_ARGS)
{
	SbScanArgs	a;
	TupleDesc	tupdesc;
	SbTarget   *target;
	SbBreakdown b;
	SbScanResult *sr = &b.scan;
	SbCgroupLimits limits;
	SbRow		row;

	scan_args(fcinfo, "scan_breakdown", &a);
	tupdesc = sb_result_tupdesc(fcinfo);
	sb_row_init(&row, tupdesc, scan_breakdown_renamed,
				lengthof(scan_breakdown_renamed));

	target = sb_target_open(a.relid, SB_TARGET_SCAN);
	sb_breakdown(target, a.query, a.workers, a.cache, true, &b);
	if (target->nblocks == 0)
		ereport(NOTICE,
				(errmsg("\"%s\" is empty: there is nothing to take apart",
						get_rel_name(a.relid))));
	else if (isnan(b.overlap_pct) && b.wall > 0 && b.t_read > 0 && b.t_cpu > 0)
	{
		/* Out of 0..100: the scan beat, or lost to, both of its references. */
		bool		faster = b.wall < Max(b.t_read, b.t_cpu);

		ereport(NOTICE,
				(errmsg("overlap_pct is NULL: the scan took %.3f s, %s than %s (%.3f s)",
						b.wall, faster ? "less" : "more",
						faster ? "its raw read and warm scan overlapping perfectly" :
						"its raw read and warm scan one after the other",
						faster ? Max(b.t_read, b.t_cpu) : b.t_read + b.t_cpu),
				 errdetail("The raw read took %.3f s and the warm scan %.3f s; the scan ran under other conditions than they did (the page cache, another session's load).",
						   b.t_read, b.t_cpu),
				 errhint("Measure again, or with cache => 'cold' on a relation larger than the page cache.")));
	}

	sb_row_datum(&row, "relation", ObjectIdGetDatum(a.relid));
	sb_row_text(&row, "query", a.query);
	sb_row_text(&row, "cache", sb_cache_name(a.cache));
	sb_row_datum(&row, "workers_launched", Int32GetDatum(sr->workers_launched));
	sb_row_datum(&row, "rows", Int64GetDatum(sr->rows));
	sb_row_datum(&row, "pages", Int64GetDatum(target->nblocks));
	sb_row_datum(&row, "bytes", Int64GetDatum(target->bytes));
	sb_row_float(&row, "cached_pct_before", sr->cached_pct_before, 1);
	/* The three times and what they predict. */
	sb_row_float(&row, "scan_s", b.wall, 3);
	sb_row_float(&row, "scan_mb_s", b.scan_mb_s, 1);
	sb_row_float(&row, "read_s", b.t_read, 3);
	sb_row_float(&row, "read_mb_s", b.read_mb_s, 1);
	sb_row_float(&row, "cpu_s", b.t_cpu, 3);
	sb_row_float(&row, "warm_mb_s", b.warm_mb_s, 1);
	sb_row_float(&row, "scan_pct", sb_rate(100.0 * b.t_read, b.wall), 1);
	sb_row_float(&row, "no_overlap_pct", sb_no_overlap_pct(b.t_read, b.t_cpu), 1);
	sb_row_float(&row, "perfect_overlap_pct",
				 sb_perfect_overlap_pct(b.t_read, b.t_cpu), 1);
	/* Outside 0..100 NULL, as the column's comment says. */
	sb_row_float(&row, "overlap_pct", b.overlap_pct, 1);
	/* CPU: all, then each kind of process. */
	sb_row_float(&row, "user_s", b.user_s, 3);
	sb_row_float(&row, "sys_s", b.sys_s, 3);
	sb_row_float(&row, "backend_user_s", sr->timing.user_s, 3);
	sb_row_float(&row, "backend_sys_s", sr->timing.sys_s, 3);
	if (sr->workers_launched == 0 || b.have_parallel)
	{
		sb_row_float(&row, "parallel_user_s", b.parallel_user_s, 3);
		sb_row_float(&row, "parallel_sys_s", b.parallel_sys_s, 3);
	}
	else
	{
		sb_row_null(&row, "parallel_user_s");
		sb_row_null(&row, "parallel_sys_s");
	}
	sb_row_io_workers(&row, &sr->procs);
	/* Reads. */
	sb_row_float(&row, "io_read_s", sr->io_read_s, 3);
	sb_row_null(&row, "storage_read_bytes");
	sb_row_null(&row, "page_cache_bytes");
	if (b.bytes_ok)
	{
		sb_row_datum(&row, "storage_read_bytes", Int64GetDatum(b.storage_bytes));
		if (rchar_counts_reads())
			sb_row_datum(&row, "page_cache_bytes",
						 Int64GetDatum(b.rchar > b.storage_bytes ?
									   b.rchar - b.storage_bytes : 0));
	}
	sb_row_datum(&row, "shared_hit", Int64GetDatum(sr->shared_hit));
	sb_row_datum(&row, "shared_read", Int64GetDatum(sr->shared_read));
	stream_columns(&row, &b);
	sb_row_float(&row, "cpu_ns_per_row", sb_rate(1e9 * b.cpu_s, (double) sr->rows), 1);
	sb_row_float(&row, "cpu_ns_per_page",
				 sb_rate(1e9 * b.cpu_s, (double) target->nblocks), 0);
	/* Where the wall time went. */
	sb_row_text(&row, "bottleneck", b.bottleneck);
	sb_row_float(&row, "cpu_pct", sb_share_pct(b.busy, b.budget), 1);
	sb_row_float(&row, "cpu_wait_pct", sb_share_pct(b.queued, b.budget), 1);
	/* Of that wait, the group held back by its own CPU quota (clock.c). */
	sb_row_float(&row, "cpu_throttled_pct",
				 isnan(sr->timing.throttled_s) ? NAN :
				 sb_share_pct(Min(sr->timing.throttled_s, b.queued), b.budget), 1);
	sb_row_float(&row, "io_wait_pct", sb_share_pct(b.io_wait, b.budget), 1);
	sb_row_float(&row, "other_pct",
				 sb_share_pct(b.budget - b.busy - b.queued - b.io_wait, b.budget), 1);
	/* The server's own limits, which the rates above include, not leave out. */
	sb_cgroup_limits(sb_target_first_path(target), &limits);
	sb_row_limits(&row, &limits);
	sb_row_datum(&row, "settings", sb_io_settings());
	sb_target_close(target);

	PG_RETURN_DATUM(sb_row_result(&row));
}

/* ---- what scan_shapes and scan_sweep share ---- */

/*
 * The raw read that opens each of their rounds, 8 kB at a time as the
 * executor reads, in MB/s.
 */
static double
round_read_mb_s(SbTarget *target, SbCacheMode cache)
{
	SbReadResult rr;

	sb_raw_read(target, BLCKSZ, cache, &rr, NULL);
	return sb_rate(rr.bytes / SB_MB, rr.timing.seconds);
}

/*
 * Which of n items a round measures i-th: forward in even rounds, backward
 * in odd ones, so that a drifting machine moves every item alike.
 */
static int
round_order(int round, int i, int n)
{
	return (round % 2 == 0) ? i : n - 1 - i;
}

/* ---- scan_shapes ---- */

/*
 * scan_shapes(): the same relation scanned with statements that cost
 * the executor more and more, against a raw read of the same files in
 * the same call.
 *
 * The shapes, each one step further into the tuple:
 *   count(1)              no column is looked at;
 *   count(*)              the same, through the star form;
 *   count(<last column>)  every column of every row deformed to reach it;
 *   sum(<number column>)  a column deformed and added up (numeric first);
 *   WHERE no row passes   every row deformed and a qual evaluated, with
 *                         nothing left to aggregate.
 * Together they show how much of the gap to the raw read rate is reading
 * tuples, deforming them and evaluating expressions.
 *
 * The statements are built here from the catalog, with quoted names, and
 * go through sb_scan_where(): the user's query path refuses any clause,
 * and must keep doing so.
 *
 * The filter is "NOT (c = c)" on the last column whose type has an
 * equality operator: false for every value (NaN included, which
 * PostgreSQL treats as equal to itself), NULL for NULL, so no row passes;
 * and neither the planner nor constraint exclusion can prove that ahead
 * (a top-level "c = c" would be turned into "c IS NOT NULL", and on 17
 * and later "c IS NULL" on a NOT NULL column into false).
 *

 */
#define SB_MAX_SHAPES	5

typedef struct SbShape
{
	const char *name;			/* what the shape is, for people */
	char	   *query;			/* the select list */
	char	   *where;			/* NULL, or the filter */
} SbShape;

/* Rank of a type as the column to sum: lower is better, 0 not a number. */
static int
number_rank(Oid type)
{
	switch (type)
	{
		case NUMERICOID:
			return 1;
		case FLOAT8OID:
		case INT8OID:
			return 2;
		case FLOAT4OID:
		case INT4OID:
		case INT2OID:
			return 3;
		default:
			return 0;
	}
}

/* The shapes this relation allows, built from its columns. */
static int
build_shapes(Oid relid, SbShape *shapes)
{
	Relation	rel = relation_open(relid, AccessShareLock);
	TupleDesc	desc = RelationGetDescr(rel);
	Form_pg_attribute last = NULL;
	Form_pg_attribute number = NULL;
	Form_pg_attribute comparable = NULL;
	int			n = 0;
	int			i;

	for (i = 0; i < desc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(desc, i);
		int			rank = number_rank(att->atttypid);

		if (att->attisdropped)
			continue;
		last = att;
		if (rank > 0 && (number == NULL || rank < number_rank(number->atttypid)))
			number = att;
		if (OidIsValid(lookup_type_cache(att->atttypid, TYPECACHE_EQ_OPR)->eq_opr))
			comparable = att;
	}

	shapes[n++] = (SbShape) {"count(1)", "count(1)", NULL};
	shapes[n++] = (SbShape) {"count(*)", "count(*)", NULL};
	if (last)
		shapes[n++] = (SbShape) {"count(last column)",
			psprintf("count(%s)", quote_identifier(NameStr(last->attname))), NULL};
	if (number)
		shapes[n++] = (SbShape) {"sum(number column)",
			psprintf("sum(%s)", quote_identifier(NameStr(number->attname))), NULL};
	if (comparable)
	{
		const char *c = quote_identifier(NameStr(comparable->attname));

		shapes[n++] = (SbShape) {"filter, no row passes", "count(1)",
			psprintf("NOT (%s = %s)", c, c)};
	}

	/* Keep the lock to the end of the transaction, as the target does. */
	relation_close(rel, NoLock);
	return n;
}

/* The columns of scan_shape_result and scan_sweep_result before 0.3. */
static const SbRenamed scan_shape_renamed[] =
{
	{"scan_s", "seconds"},
	{"scan_mb_s", "mb_s"},
	{"scan_pct", "read_pct"},
};

Datum
scan_shapes(PG_FUNCTION_ARGS)
{
	Oid			relid;
	SbCacheMode cache;
	int32		runs;
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	SbTarget   *target;
	SbShape		shapes[SB_MAX_SHAPES];
	SbScanResult last[SB_MAX_SHAPES];
	double	   *seconds[SB_MAX_SHAPES];
	double	   *user_s[SB_MAX_SHAPES];
	double	   *sys_s[SB_MAX_SHAPES];
	double		cached_pct[SB_MAX_SHAPES];
	double	   *read_mb_s;
	double		med_read;
	uint64		rows;
	int			nshapes;
	SbArgs		args;
	int			i,
				round;

	sb_args_refuse_nulls(fcinfo);
	sb_args_init(&args, fcinfo);
	relid = sb_arg_oid(&args, "rel", REGCLASSOID);
	cache = sb_parse_cache(cstring_to_text(sb_arg_cstring(&args, "cache", "warm")), false);
	runs = sb_arg_int32(&args, "runs", 1);

	sb_check_runs(runs);
	sb_init_srf(fcinfo);

	target = sb_target_open(relid, SB_TARGET_SCAN);
	nshapes = build_shapes(relid, shapes);
	for (i = 0; i < nshapes; i++)
	{
		seconds[i] = palloc(sizeof(double) * runs);
		user_s[i] = palloc(sizeof(double) * runs);
		sys_s[i] = palloc(sizeof(double) * runs);
		cached_pct[i] = 0;
	}
	read_mb_s = palloc(sizeof(double) * runs);

	/*
	 * Each round reads the files raw, then scans every shape once, forward
	 * in even rounds and backward in odd ones, so that a drifting machine
	 * moves every shape alike.  Warm: the first scan of the first round
	 * warms the caches with an untimed pass; every timed pass leaves them
	 * as warm as that, so the others need none.
	 */
	for (round = 0; round < runs; round++)
	{
		read_mb_s[round] = round_read_mb_s(target, cache);
		for (i = 0; i < nshapes; i++)
		{
			int			k = round_order(round, i, nshapes);
			SbCacheMode mode = cache;
			SbScanResult *r = &last[k];

			if (cache == SB_CACHE_WARM && (round > 0 || i > 0))
				mode = SB_CACHE_ASIS;
			CHECK_FOR_INTERRUPTS();
			sb_scan_where(target, shapes[k].query, shapes[k].where, 0, mode, r);
			seconds[k][round] = r->timing.seconds;
			user_s[k][round] = r->timing.user_s;
			sys_s[k][round] = r->timing.sys_s;
			cached_pct[k] = Max(cached_pct[k], r->cached_pct_before);
		}
	}
	med_read = sb_median(read_mb_s, runs);

	/*
	 * Every shape reads every row; the filter's scan returns none, so the
	 * rows of all come from count(1)'s.
	 */
	rows = last[0].rows;
	for (i = 0; i < nshapes; i++)
	{
		double		secs = sb_median(seconds[i], runs);
		double		mb_s = sb_rate(target->bytes / SB_MB, secs);
		SbRow		row;

		sb_row_init(&row, rsinfo->setDesc, scan_shape_renamed,
				lengthof(scan_shape_renamed));
		sb_row_datum(&row, "relation", ObjectIdGetDatum(relid));
		sb_row_text(&row, "shape", shapes[i].name);
		sb_row_text(&row, "query", shapes[i].where ?
					psprintf("%s WHERE %s", shapes[i].query, shapes[i].where) :
					shapes[i].query);
		sb_row_text(&row, "cache", sb_cache_name(cache));
		sb_row_datum(&row, "runs", Int32GetDatum(runs));
		sb_row_float(&row, "cached_pct_before", cached_pct[i], 1);
		sb_row_datum(&row, "rows", Int64GetDatum(rows));
		sb_row_float(&row, "scan_s", secs, 3);
		sb_row_float(&row, "scan_mb_s", mb_s, 1);
		sb_row_float(&row, "rows_s", sb_rate((double) rows, secs), 0);
		sb_row_float(&row, "ns_per_row", sb_rate(1e9 * secs, (double) rows), 1);
		sb_row_float(&row, "read_mb_s", med_read, 1);
		sb_row_float(&row, "scan_pct", sb_rate(100.0 * mb_s, med_read), 1);
		sb_row_float(&row, "user_s", sb_median(user_s[i], runs), 3);
		sb_row_float(&row, "sys_s", sb_median(sys_s[i], runs), 3);
		tuplestore_puttuple(rsinfo->setResult, sb_row_tuple(&row));
	}
	sb_target_close(target);

	return (Datum) 0;
}

/* ---- scan_sweep ---- */

/*
 * scan_sweep(): the count(1) scan measured under each value of one
 * setting a session may change, against a raw read of the same files
 * in the same call.
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

 */
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
				 errmsg("unrecognized setting \"%s\"", sb_arg_for_message(setting)),
				 errhint("%s", sweep_hint)));
	if (guc->context < PGC_SUSET)
		ereport(ERROR,
				(errcode(ERRCODE_CANT_CHANGE_RUNTIME_PARAM),
				 errmsg("setting \"%s\" cannot be changed by a session", sb_arg_for_message(setting)),
				 errdetail("It is set %s.",
						   guc->context == PGC_SIGHUP ? "in the server's configuration and reloaded" :
						   (guc->context == PGC_BACKEND || guc->context == PGC_SU_BACKEND) ?
						   "when a session starts" : "when the server starts"),
				 errhint("%s", sweep_hint)));
	/* Who runs the scan is not a setting of the scan. */
	if (guc->flags & GUC_NOT_WHILE_SEC_REST)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("setting \"%s\" cannot be swept", sb_arg_for_message(setting)),
				 errdetail("It changes the identity the scan runs as."),
				 errhint("%s", sweep_hint)));
	if (sb_scan_sets(setting))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("setting \"%s\" cannot be swept: the measured scan sets it itself",
						sb_arg_for_message(setting)),
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
					 errmsg("invalid value for parallel_workers: \"%s\"", sb_arg_for_message(value)),
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
	Oid			relid;
	char	   *setting;
	ArrayType  *vals;
	SbCacheMode cache;
	int32		runs;
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	Datum	   *elems;
	bool	   *elem_nulls;
	int			nvals;
	SbSweepValue *values;
	double	   *read_mb_s;
	double		med_read;
	double		first_s = 0;
	SbTarget   *target;
	SbArgs		args;
	int			i,
				round;

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
		read_mb_s[round] = round_read_mb_s(target, cache);
		for (i = 0; i < nvals; i++)
		{
			int			k = round_order(round, i, nvals);

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
		sb_row_float(&row, "scan_s", seconds, 3);
		sb_row_float(&row, "scan_mb_s", mb_s, 1);
		sb_row_float(&row, "speedup", sb_rate(first_s, seconds), 2);
		sb_row_float(&row, "read_mb_s", med_read, 1);
		sb_row_float(&row, "scan_pct", sb_rate(100.0 * mb_s, med_read), 1);
		sb_row_datum(&row, "settings", v->settings);
		tuplestore_puttuple(rsinfo->setResult, sb_row_tuple(&row));
	}
	sb_target_close(target);

	return (Datum) 0;
}
