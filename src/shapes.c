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
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	SbTarget   *target;
	SbShape		shapes[SB_MAX_SHAPES];
	SbScanResult results[SB_MAX_SHAPES];
	SbReadResult rr;
	double		read_mb_s;
	uint64		rows;
	int			nshapes;
	int			i;

	sb_init_srf(fcinfo);

	target = sb_target_open(relid, SB_TARGET_SCAN);
	nshapes = build_shapes(relid, shapes);

	sb_raw_read(target, BLCKSZ, cache, &rr, NULL);
	read_mb_s = sb_rate(rr.bytes / SB_MB, rr.timing.seconds);

	/*
	 * Warm: the first shape warms the caches with an untimed pass; every
	 * timed pass leaves them as warm as that, so the others need none.
	 */
	for (i = 0; i < nshapes; i++)
	{
		SbCacheMode mode = cache;

		if (cache == SB_CACHE_WARM && i > 0)
			mode = SB_CACHE_ASIS;
		sb_scan_where(target, shapes[i].query, shapes[i].where, 0, mode,
					  &results[i]);
	}

	/*
	 * Every shape reads every row; the filter's scan returns none, so the
	 * rows of all come from count(1)'s.
	 */
	rows = results[0].rows;
	for (i = 0; i < nshapes; i++)
	{
		SbScanResult *r = &results[i];
		double		mb_s = sb_rate(target->bytes / SB_MB, r->timing.seconds);
		SbRow		row = {0};

		sb_row_datum(&row, ObjectIdGetDatum(relid));
		sb_row_text(&row, shapes[i].name);
		sb_row_text(&row, shapes[i].where ?
					psprintf("%s WHERE %s", shapes[i].query, shapes[i].where) :
					shapes[i].query);
		sb_row_text(&row, sb_cache_name(cache));
		sb_row_float(&row, r->cached_pct_before, 1);
		sb_row_datum(&row, Int64GetDatum(rows));
		sb_row_float(&row, r->timing.seconds, 3);
		sb_row_float(&row, mb_s, 1);
		sb_row_float(&row, sb_rate((double) rows, r->timing.seconds), 0);
		sb_row_float(&row, sb_rate(1e9 * r->timing.seconds, (double) rows), 1);
		sb_row_float(&row, read_mb_s, 1);
		sb_row_float(&row, sb_rate(100.0 * mb_s, read_mb_s), 1);
		sb_row_timing(&row, &r->timing);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc,
							 row.values, row.nulls);
	}
	sb_target_close(target);

	return (Datum) 0;
}
