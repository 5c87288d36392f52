/*-------------------------------------------------------------------------
 *
 * shapes.c
 *	  scan_shapes(): the same relation scanned with statements that cost
 *	  the executor more and more, against a raw read of the same files in
 *	  the same call.
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
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/relation.h"
#include "catalog/pg_type.h"
#include "fmgr.h"
#include "funcapi.h"
#include "utils/builtins.h"
#include "utils/rel.h"
#include "utils/typcache.h"

#include "measure.h"

PG_FUNCTION_INFO_V1(scan_shapes);

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

Datum
scan_shapes(PG_FUNCTION_ARGS)
{
	Oid			relid = PG_GETARG_OID(0);
	SbCacheMode cache = sb_parse_cache(PG_GETARG_TEXT_PP(1), false);
	int32		runs = PG_GETARG_INT32(2);
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
	int			i,
				round;

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
		SbReadResult rr;

		sb_raw_read(target, BLCKSZ, cache, &rr, NULL);
		read_mb_s[round] = sb_rate(rr.bytes / SB_MB, rr.timing.seconds);
		for (i = 0; i < nshapes; i++)
		{
			int			k = (round % 2 == 0) ? i : nshapes - 1 - i;
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

		sb_row_init(&row, rsinfo->setDesc);
		sb_row_datum(&row, "relation", ObjectIdGetDatum(relid));
		sb_row_text(&row, "shape", shapes[i].name);
		sb_row_text(&row, "query", shapes[i].where ?
					psprintf("%s WHERE %s", shapes[i].query, shapes[i].where) :
					shapes[i].query);
		sb_row_text(&row, "cache", sb_cache_name(cache));
		sb_row_datum(&row, "runs", Int32GetDatum(runs));
		sb_row_float(&row, "cached_pct_before", cached_pct[i], 1);
		sb_row_datum(&row, "rows", Int64GetDatum(rows));
		sb_row_float(&row, "seconds", secs, 3);
		sb_row_float(&row, "mb_s", mb_s, 1);
		sb_row_float(&row, "rows_s", sb_rate((double) rows, secs), 0);
		sb_row_float(&row, "ns_per_row", sb_rate(1e9 * secs, (double) rows), 1);
		sb_row_float(&row, "read_mb_s", med_read, 1);
		sb_row_float(&row, "read_pct", sb_rate(100.0 * mb_s, med_read), 1);
		sb_row_float(&row, "user_s", sb_median(user_s[i], runs), 3);
		sb_row_float(&row, "sys_s", sb_median(sys_s[i], runs), 3);
		tuplestore_puttuple(rsinfo->setResult, sb_row_tuple(&row));
	}
	sb_target_close(target);

	return (Datum) 0;
}
