/*-------------------------------------------------------------------------
 *
 * history_changes.c
 *	  What changed between a recorded run and the runs it is compared
 *	  with: each fact of the run (storage, kernel, server version, I/O
 *	  limits, each I/O setting) against the value most of those runs had,
 *	  and its size against their median size.  The words of a verdict's
 *	  "what changed", for scan_history_verdict.
 *
 *	  It was a query of the verdict, run once a judged run: the facts of
 *	  every compared run made rows, grouped and sorted.  Over a night of a
 *	  large fleet that query was most of the judgement (0.8 ms of about 1
 *	  a run); here the same answer is made from the rows as given, with
 *	  no query.  The rules are the query's, kept exactly:
 *	  - a fact's usual value is the one most compared runs had, among
 *	    equally common ones the one seen latest (measured_at); a NULL
 *	    value has none; an I/O limit not set is the value "none";
 *	  - facts are told apart by name, the settings' keys among the named
 *	    facts (block_size is both: each value counts for the one it is);
 *	  - the size changed when the run's size is more than a tenth off the
 *	    compared runs' median size (percentile_cont's interpolation);
 *	  - the changes are joined by "; " in the order of their fact's place
 *	    (storage first, then size, limits, settings), then of their words
 *	    under the database's collation, as string_agg(... ORDER BY) did.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/htup_details.h"
#include "access/tupdesc.h"
#include "catalog/pg_collation.h"
#include "catalog/pg_type.h"
#include "datatype/timestamp.h"
#include "fmgr.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"
#include "utils/lsyscache.h"
#include "utils/timestamp.h"
#include "utils/typcache.h"
#include "utils/varlena.h"

#include "history_changes.h"
#include "stats.h"

/* The named facts, in the query's order (ord): a column and its name. */
typedef struct ChangeFact
{
	int			ord;
	const char *name;
	const char *column;
	bool		none_if_null;	/* an I/O limit not set: "none" */
} ChangeFact;

static const ChangeFact facts[] = {
	{1, "filesystem", "filesystem", false},
	{2, "device", "device", false},
	{3, "scheduler", "scheduler", false},
	{4, "read_ahead_kb", "read_ahead_kb", false},
	{5, "kernel", "kernel", false},
	{6, "server version", "server_version", false},
	{7, "block_size", "block_size", false},
	{9, "cpu_quota_us", "cpu_quota_us", true},
	{9, "cpu_period_us", "cpu_period_us", true},
	{9, "read_bps_limit", "read_bps_limit", true},
	{9, "write_bps_limit", "write_bps_limit", true},
	{9, "read_iops_limit", "read_iops_limit", true},
	{9, "write_iops_limit", "write_iops_limit", true},
};

#define ORD_SIZE		8
#define ORD_SETTING		10

/* One fact's value and where it came from. */
typedef struct FactValue
{
	int			ord;
	const char *fact;
	const char *val;			/* NULL: none */
} FactValue;

/* A value seen among the compared runs: how often, and latest when. */
typedef struct Seen
{
	int			ord;
	const char *fact;
	const char *val;
	int			count;
	TimestampTz latest;
} Seen;

/* A change found, with what it is sorted by. */
typedef struct Change
{
	int			ord;
	char	   *words;
} Change;

/* The columns read, by number in the row type. */
typedef struct Columns
{
	int			fact[lengthof(facts)];
	int			settings;
	int			measured_at;
	int			bytes;
} Columns;

static int
column_of(TupleDesc desc, const char *name)
{
	for (int i = 0; i < desc->natts; i++)
	{
		Form_pg_attribute a = TupleDescAttr(desc, i);

		if (!a->attisdropped && strcmp(NameStr(a->attname), name) == 0)
			return i;
	}
	ereport(ERROR,
			(errcode(ERRCODE_UNDEFINED_COLUMN),
			 errmsg("the run's row has no column \"%s\"", name)));
	return -1;					/* keep the compiler quiet */
}

/* A column's value as text (its type's output), NULL where NULL. */
static const char *
column_text(TupleDesc desc, Datum *values, bool *nulls, int col)
{
	Oid			out;
	bool		varlena;

	if (nulls[col])
		return NULL;
	getTypeOutputInfo(TupleDescAttr(desc, col)->atttypid, &out, &varlena);
	return OidOutputFunctionCall(out, values[col]);
}

/*
 * A jsonb object's keys and values as jsonb_each_text gives them: a
 * string's text, a JSON null as NULL, anything else as its JSON text.
 */
static int
settings_values(Jsonb *jb, FactValue *out, int room)
{
	JsonbIterator *it;
	JsonbValue	v;
	JsonbIteratorToken r;
	int			n = 0;
	bool		skip_nested = false;
	char	   *key = NULL;

	if (!JB_ROOT_IS_OBJECT(jb))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("cannot call %s on a non-object", "jsonb_each_text")));
	it = JsonbIteratorInit(&jb->root);
	while ((r = JsonbIteratorNext(&it, &v, skip_nested)) != WJB_DONE)
	{
		skip_nested = true;
		if (r == WJB_KEY)
			key = pnstrdup(v.val.string.val, v.val.string.len);
		else if (r == WJB_VALUE && key != NULL && n < room)
		{
			const char *val;

			if (v.type == jbvNull)
				val = NULL;
			else if (v.type == jbvString)
				val = pnstrdup(v.val.string.val, v.val.string.len);
			else
			{
				Jsonb	   *inner = JsonbValueToJsonb(&v);

				val = JsonbToCString(NULL, &inner->root, 0);
			}
			out[n].ord = ORD_SETTING;
			out[n].fact = key;
			out[n].val = val;
			n++;
			key = NULL;
		}
	}
	return n;
}

/* A run's facts: the named ones, then its settings. */
static int
run_facts(TupleDesc desc, const Columns *cols, Datum *values, bool *nulls,
		  FactValue **out)
{
	int			room = lengthof(facts);
	Jsonb	   *jb = NULL;
	int			n = 0;
	FactValue  *f;

	if (!nulls[cols->settings])
	{
		jb = DatumGetJsonbP(values[cols->settings]);
		room += JB_ROOT_COUNT(jb);
	}
	f = palloc(sizeof(FactValue) * room);
	for (int i = 0; i < lengthof(facts); i++)
	{
		f[n].ord = facts[i].ord;
		f[n].fact = facts[i].name;
		f[n].val = column_text(desc, values, nulls, cols->fact[i]);
		if (f[n].val == NULL && facts[i].none_if_null)
			f[n].val = "none";
		n++;
	}
	if (jb != NULL)
		n += settings_values(jb, f + n, room - n);
	*out = f;
	return n;
}

static int
change_order(const void *a, const void *b)
{
	const Change *x = a;
	const Change *y = b;

	if (x->ord != y->ord)
		return x->ord < y->ord ? -1 : 1;
	return varstr_cmp(x->words, strlen(x->words), y->words, strlen(y->words),
					  DEFAULT_COLLATION_OID);
}

char *
sb_history_changes(HeapTupleHeader cur, ArrayType *compared)
{
	Oid			type = HeapTupleHeaderGetTypeId(cur);
	int32		typmod = HeapTupleHeaderGetTypMod(cur);
	TupleDesc	desc = lookup_rowtype_tupdesc_copy(type, typmod);
	Columns		cols;
	int			natts = desc->natts;
	Datum	   *values = palloc(sizeof(Datum) * natts);
	bool	   *nulls = palloc(sizeof(bool) * natts);
	HeapTupleData tup;
	FactValue  *now;
	int			nnow;
	Seen	   *seen = NULL;
	int			nseen = 0;
	int			seen_room = 0;
	double	   *sizes;
	int			nsizes = 0;
	Datum	   *elems;
	bool	   *elem_nulls;
	int			nelems;
	int16		elmlen;
	bool		elmbyval;
	char		elmalign;
	Change	   *changes;
	int			nchanges = 0;
	int			changes_room;
	StringInfoData buf;

	for (int i = 0; i < lengthof(facts); i++)
		cols.fact[i] = column_of(desc, facts[i].column);
	cols.settings = column_of(desc, "settings");
	cols.measured_at = column_of(desc, "measured_at");
	cols.bytes = column_of(desc, "bytes");

	/* The compared runs: how often each fact had each value, latest when. */
	nelems = 0;
	elems = NULL;
	elem_nulls = NULL;
	if (compared != NULL)
	{
		if (ARR_NDIM(compared) > 1 || ARR_ELEMTYPE(compared) != type)
			ereport(ERROR,
					(errcode(ERRCODE_DATATYPE_MISMATCH),
					 errmsg("the compared runs must be an array of the run's row type")));
		get_typlenbyvalalign(type, &elmlen, &elmbyval, &elmalign);
		deconstruct_array(compared, type, elmlen, elmbyval, elmalign,
						  &elems, &elem_nulls, &nelems);
	}
	sizes = palloc(sizeof(double) * (nelems > 0 ? nelems : 1));
	for (int e = 0; e < nelems; e++)
	{
		HeapTupleHeader h;
		FactValue  *f;
		int			nf;
		TimestampTz at;

		CHECK_FOR_INTERRUPTS();
		if (elem_nulls[e])
			continue;
		h = DatumGetHeapTupleHeader(elems[e]);
		tup.t_len = HeapTupleHeaderGetDatumLength(h);
		ItemPointerSetInvalid(&tup.t_self);
		tup.t_tableOid = InvalidOid;
		tup.t_data = h;
		heap_deform_tuple(&tup, desc, values, nulls);
		if (!nulls[cols.bytes])
			sizes[nsizes++] = (double) DatumGetInt64(values[cols.bytes]);
		/* A NULL measured_at counts for no value's latest. */
		at = nulls[cols.measured_at] ? DT_NOBEGIN : DatumGetTimestampTz(values[cols.measured_at]);
		nf = run_facts(desc, &cols, values, nulls, &f);
		for (int i = 0; i < nf; i++)
		{
			int			s;

			if (f[i].val == NULL)
				continue;
			for (s = 0; s < nseen; s++)
				if (seen[s].ord == f[i].ord && strcmp(seen[s].fact, f[i].fact) == 0 &&
					strcmp(seen[s].val, f[i].val) == 0)
					break;
			if (s == nseen)
			{
				if (nseen == seen_room)
				{
					seen_room = seen_room ? seen_room * 2 : 32;
					seen = seen ? repalloc(seen, sizeof(Seen) * seen_room)
						: palloc(sizeof(Seen) * seen_room);
				}
				seen[s].ord = f[i].ord;
				seen[s].fact = f[i].fact;
				seen[s].val = f[i].val;
				seen[s].count = 0;
				seen[s].latest = DT_NOBEGIN;
				nseen++;
			}
			seen[s].count++;
			if (at > seen[s].latest)
				seen[s].latest = at;
		}
	}

	/* The run's own facts. */
	tup.t_len = HeapTupleHeaderGetDatumLength(cur);
	ItemPointerSetInvalid(&tup.t_self);
	tup.t_tableOid = InvalidOid;
	tup.t_data = cur;
	heap_deform_tuple(&tup, desc, values, nulls);
	nnow = run_facts(desc, &cols, values, nulls, &now);

	changes_room = nnow + 1;
	changes = palloc(sizeof(Change) * changes_room);

	/*
	 * Each fact's usual value (the most common, then the latest seen; its
	 * place is that value's), against each of the run's values of that
	 * name.
	 */
	for (int s = 0; s < nseen; s++)
	{
		int			best = s;
		bool		first = true;

		/* Each fact name once: at its first value seen. */
		for (int t = 0; t < s; t++)
			if (strcmp(seen[t].fact, seen[s].fact) == 0)
			{
				first = false;
				break;
			}
		if (!first)
			continue;
		for (int t = s + 1; t < nseen; t++)
			if (strcmp(seen[t].fact, seen[s].fact) == 0 &&
				(seen[t].count > seen[best].count ||
				 (seen[t].count == seen[best].count && seen[t].latest > seen[best].latest)))
				best = t;
		for (int i = 0; i < nnow; i++)
		{
			if (now[i].val == NULL || strcmp(now[i].fact, seen[best].fact) != 0 ||
				strcmp(now[i].val, seen[best].val) == 0)
				continue;
			if (nchanges == changes_room)
			{
				changes_room *= 2;
				changes = repalloc(changes, sizeof(Change) * changes_room);
			}
			changes[nchanges].ord = seen[best].ord;
			changes[nchanges].words = psprintf("%s changed %s → %s", seen[best].fact,
											   seen[best].val, now[i].val);
			nchanges++;
		}
	}

	/* The size, against the compared runs' median size. */
	if (nsizes > 0 && !nulls[cols.bytes])
	{
		/* percentile_cont(0.5): the middle one, or the mean of two */
		double		median = sb_median(sizes, nsizes);
		double		run_bytes = (double) DatumGetInt64(values[cols.bytes]);

		if (median > 0 && fabs(run_bytes - median) > 0.1 * median)
		{
			Datum		was = DirectFunctionCall1(dtoi8, Float8GetDatum(median));

			if (nchanges == changes_room)
			{
				changes_room *= 2;
				changes = repalloc(changes, sizeof(Change) * changes_room);
			}
			changes[nchanges].ord = ORD_SIZE;
			changes[nchanges].words =
				psprintf("size changed %s → %s",
						 text_to_cstring(DatumGetTextPP(DirectFunctionCall1(pg_size_pretty, was))),
						 text_to_cstring(DatumGetTextPP(DirectFunctionCall1(pg_size_pretty,
																			values[cols.bytes]))));
			nchanges++;
		}
	}

	if (nchanges == 0)
		return NULL;
	qsort(changes, nchanges, sizeof(Change), change_order);
	initStringInfo(&buf);
	for (int c = 0; c < nchanges; c++)
	{
		if (c > 0)
			appendStringInfoString(&buf, "; ");
		appendStringInfoString(&buf, changes[c].words);
	}
	return buf.data;
}
