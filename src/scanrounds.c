/*-------------------------------------------------------------------------
 *
 * scanrounds.c
 *	  scan_shapes()' and scan_sweep()'s measurement: rounds that each open
 *	  with a raw read of the relation's files and then scan every item
 *	  once (a statement's shape, a setting's value), forward in even
 *	  rounds and backward in odd ones, so that a drifting machine moves
 *	  every item alike; medians over the rounds.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/relation.h"
#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/guc_tables.h"
#include "utils/rel.h"
#include "utils/typcache.h"

#include "argcheck.h"
#include "cache.h"
#include "compat_guc.h"
#include "relfiles.h"
#include "scan.h"
#include "scanrounds.h"
#include "seqread.h"
#include "settings.h"
#include "stats.h"

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
 */
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

/*
 * Each shape of relid's scan, runs rounds, into out (SB_MAX_SHAPES at
 * most); the rounds' median raw read rate in *read_mb_s.  Returns the
 * shapes' count.
 */
int
sb_shapes(Oid relid, SbCacheMode cache, int runs, SbShapeFigures *out,
		  double *read_mb_s_median)
{
	SbTarget   *target;
	SbShape		shapes[SB_MAX_SHAPES];
	SbScanResult last[SB_MAX_SHAPES];
	double	   *seconds[SB_MAX_SHAPES];
	double	   *user_s[SB_MAX_SHAPES];
	double	   *sys_s[SB_MAX_SHAPES];
	double		cached_pct[SB_MAX_SHAPES];
	double	   *read_mb_s;
	uint64		rows;
	int			nshapes;
	int			i,
				round;

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
	*read_mb_s_median = sb_median(read_mb_s, runs);

	/*
	 * Every shape reads every row; the filter's scan returns none, so the
	 * rows of all come from count(1)'s.
	 */
	rows = last[0].rows;
	for (i = 0; i < nshapes; i++)
	{
		SbShapeFigures *f = &out[i];

		f->name = shapes[i].name;
		f->query = shapes[i].where ?
			psprintf("%s WHERE %s", shapes[i].query, shapes[i].where) :
			shapes[i].query;
		f->cached_pct = cached_pct[i];
		f->rows = rows;
		f->scan_s = sb_median(seconds[i], runs);
		f->scan_mb_s = sb_rate(target->bytes / SB_MB, f->scan_s);
		f->user_s = sb_median(user_s[i], runs);
		f->sys_s = sb_median(sys_s[i], runs);
	}
	sb_target_close(target);
	return nshapes;
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
 */
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

void
sb_sweep_check_setting(const char *setting)
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

/* A value valid for the setting: parsed, range-checked, not applied. */
void
sb_sweep_check_value(const char *setting, const char *value, int *workers)
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

/*
 * Each value of setting (checked) scanned under it, runs rounds, its
 * figures written into values; the rounds' median raw read rate is
 * returned.
 */
double
sb_sweep(Oid relid, const char *setting, SbSweepValue *values, int nvals,
		 SbCacheMode cache, int runs)
{
	SbTarget   *target;
	double	   *read_mb_s;
	double		med_read;
	int			i,
				round;

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
		values[i].scan_s = sb_median(values[i].seconds, runs);
		values[i].scan_mb_s = sb_rate(target->bytes / SB_MB, values[i].scan_s);
	}
	sb_target_close(target);
	return med_read;
}
