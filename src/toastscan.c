/*-------------------------------------------------------------------------
 *
 * toastscan.c
 *	  What reading a table's TOASTed values costs: a scan through the
 *	  executor that detoasts every value of the table's toastable columns,
 *	  as a client fetching the rows makes the server do, against raw reads
 *	  of the bytes it stands on, the table's main fork, its TOAST table and
 *	  the TOAST table's index.
 *
 * The statement is "SELECT <the toastable columns> FROM ONLY t", planned
 * with pg_catalog alone on the search path (the caller runs it with no
 * parallel workers, no JIT and every scan from the first block).  Its
 * rows go to a receiver that detoasts each value stored out of line or
 * compressed (detoast_attr: the TOAST index looked up, the chunks read
 * and put together, decompressed) and frees it, the work a client's
 * fetch makes the server do before it sends a value.  SQL's length() or
 * octet_length() would not do: they read the size of an uncompressed
 * out-of-line value from its pointer and never fetch it.  What is timed is
 * the executor's interval, ExecutorStart to ExecutorEnd, wall clock.
 *
 * The raw reads are the three relations' files in order, 8 kB a read
 * through the page cache, as raw_read reads one relation.  The two sides
 * alternate in rounds, each from the same cache state: cold, the three
 * evicted from shared_buffers and the page cache, and under a control
 * group's read throttle its first allowance read untimed (then evicted
 * again), as accesspath.c does, so that neither side is timed through a
 * burst; warm, after one untimed pass of the same side.  The figure is
 * the ratio of the sides' summed times, with the jackknife's interval
 * over the rounds.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/detoast.h"
#include "access/htup_details.h"
#include "access/toast_internals.h"
#include "access/xact.h"
#include "catalog/pg_attribute.h"
#include "catalog/pg_class.h"
#include "catalog/pg_type.h"
#include "executor/executor.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "portability/instr_time.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"

#include "accesspath.h"
#include "accesspath_rounds.h"
#include "cache.h"
#include "cgroup.h"
#include "clock.h"
#include "compat.h"
#include "judgerules.h"
#include "randio.h"
#include "stats.h"
#include "toastscan.h"
#include "verdict.h"

/* ---- What is measured ---- */

/*
 * The columns whose values can be stored out of line or compressed: of
 * variable length, and not STORAGE PLAIN.
 */
static char **
toastable_columns(Oid relid, int *n)
{
	HeapTuple	reltup = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
	int			natts;
	char	  **cols;
	int			i;

	if (!HeapTupleIsValid(reltup))
		elog(ERROR, "cache lookup failed for relation %u", relid);
	natts = ((Form_pg_class) GETSTRUCT(reltup))->relnatts;
	ReleaseSysCache(reltup);
	cols = palloc(sizeof(char *) * Max(natts, 1));
	*n = 0;
	for (i = 1; i <= natts; i++)
	{
		HeapTuple	tup = SearchSysCache2(ATTNUM, ObjectIdGetDatum(relid),
										  Int16GetDatum(i));
		Form_pg_attribute att;

		if (!HeapTupleIsValid(tup))
			continue;
		att = (Form_pg_attribute) GETSTRUCT(tup);
		if (!att->attisdropped && att->attlen == -1 &&
			att->attstorage != TYPSTORAGE_PLAIN)
			cols[(*n)++] = pstrdup(NameStr(att->attname));
		ReleaseSysCache(tup);
	}
	return cols;
}

static void
refuse_untoasted(Oid relid, bool has_toast)
{
	if (!has_toast)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("\"%s\" has no TOAST table", get_rel_name(relid)),
				 errdetail("None of its columns can hold a value stored out of line: a scan reads its main fork alone."),
				 errhint("Measure its scan with scan_efficiency().")));
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("\"%s\" has no column whose values can be TOASTed", get_rel_name(relid)),
			 errdetail("Its TOAST table was left by columns since dropped or set to STORAGE PLAIN."),
			 errhint("Measure its scan with scan_efficiency().")));
}

/*
 * Refuse a table with nothing to detoast, before anything is opened: no
 * TOAST table, or no column left that can use it.  The caller has checked
 * that it is a table (sb_check_heap_table).
 */
void
sb_toast_check(Oid relid)
{
	HeapTuple	tup = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
	Oid			toastrelid;
	int			n;

	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for relation %u", relid);
	toastrelid = ((Form_pg_class) GETSTRUCT(tup))->reltoastrelid;
	ReleaseSysCache(tup);
	if (!OidIsValid(toastrelid))
		refuse_untoasted(relid, false);
	(void) toastable_columns(relid, &n);
	if (n == 0)
		refuse_untoasted(relid, true);
}

/*
 * Open the table, its TOAST table and the TOAST table's index, and take
 * the columns again under the table's lock.  The table's SELECT privilege
 * is the gate to all three (relfiles.c).
 */
SbToast *
sb_toast_open(Oid relid)
{
	SbToast    *t = palloc0(sizeof(SbToast));
	Relation	rel;
	Oid			toastrelid;
	SbTarget   *three[3];
	int			i,
				j;

	t->main = sb_target_open(relid, SB_TARGET_SCAN);
	if (t->main->nleaves != 1)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("\"%s\" has inheritance children", get_rel_name(relid)),
				 errhint("Measure one table of the hierarchy at a time.")));
	if (t->main->nblocks == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("\"%s\" is empty: there is nothing to read",
						get_rel_name(relid))));
	rel = t->main->leaves[0].rel;
	toastrelid = rel->rd_rel->reltoastrelid;
	t->columns = toastable_columns(relid, &t->ncolumns);
	if (!OidIsValid(toastrelid) || t->ncolumns == 0)
		refuse_untoasted(relid, OidIsValid(toastrelid));

	t->toast = sb_target_open(toastrelid, SB_TARGET_TOAST);
	t->index = sb_target_open(toast_get_valid_index(toastrelid, AccessShareLock),
							  SB_TARGET_TOAST);

	three[0] = t->main;
	three[1] = t->toast;
	three[2] = t->index;
	t->segs = palloc(sizeof(SbSegment *) *
					 Max(t->main->nsegments + t->toast->nsegments + t->index->nsegments, 1));
	for (i = 0; i < 3; i++)
		for (j = 0; j < three[i]->nsegments; j++)
			t->segs[t->nsegs++] = three[i]->segments[j];
	return t;
}

void
sb_toast_close(SbToast *t)
{
	sb_target_close(t->index);
	sb_target_close(t->toast);
	sb_target_close(t->main);
}

/*
 * Plan the scan.  Everything in it is schema-qualified and parse analysis
 * runs with pg_catalog alone on the path, so that nothing a role planted
 * in the caller's path runs as the caller.
 */
void
sb_toast_plan(SbToast *t)
{
	Relation	rel = t->main->leaves[0].rel;
	StringInfoData sql;
	int			i;

	initStringInfo(&sql);
	appendStringInfoString(&sql, "SELECT ");
	for (i = 0; i < t->ncolumns; i++)
		appendStringInfo(&sql, "%s%s", i > 0 ? ", " : "",
						 quote_identifier(t->columns[i]));
	appendStringInfo(&sql, " FROM ONLY %s",
					 quote_qualified_identifier(get_namespace_name(RelationGetNamespace(rel)),
												RelationGetRelationName(rel)));
	t->sql = sql.data;

	t->plan = sb_plan_catalog_sql(t->sql, RelationGetRelationName(rel));
}

/* ---- The scan ---- */

/*
 * Each value of a row stored out of line or compressed, detoasted into a
 * context of the receiver's and freed with it before the next row: the
 * server's part of a client's fetch, without the sending.
 */
typedef struct DetoastReceiver
{
	DestReceiver pub;
	MemoryContext cxt;
	int64		rows;
	int64		values;
	int64		bytes;
} DetoastReceiver;

static bool
detoast_receive(TupleTableSlot *slot, DestReceiver *self)
{
	DetoastReceiver *r = (DetoastReceiver *) self;
	TupleDesc	desc = slot->tts_tupleDescriptor;
	MemoryContext old;
	int			i;

	CHECK_FOR_INTERRUPTS();
	slot_getallattrs(slot);
	old = MemoryContextSwitchTo(r->cxt);
	for (i = 0; i < desc->natts; i++)
	{
		struct varlena *v;
		struct varlena *full;

		if (slot->tts_isnull[i] || TupleDescAttr(desc, i)->attlen != -1)
			continue;
		v = (struct varlena *) DatumGetPointer(slot->tts_values[i]);
		if (!VARATT_IS_EXTERNAL(v) && !VARATT_IS_COMPRESSED(v))
			continue;
		full = detoast_attr(v);
		r->values++;
		r->bytes += VARSIZE_ANY_EXHDR(full);
	}
	MemoryContextSwitchTo(old);
	MemoryContextReset(r->cxt);
	r->rows++;
	return true;
}

static void
detoast_startup(DestReceiver *self, int operation, TupleDesc typeinfo)
{
}

static void
detoast_nothing(DestReceiver *self)
{
}

/*
 * Time one scan, ExecutorStart to ExecutorEnd, the statement run as in a
 * read-only transaction.
 */
void
sb_toast_scan(SbToast *t, SbToastRun *r)
{
	QueryDesc  *qd;
	DetoastReceiver dest;
	instr_time	start;
	instr_time	end;
	bool		save_read_only = XactReadOnly;

	memset(r, 0, sizeof(SbToastRun));
	memset(&dest, 0, sizeof(dest));
	dest.pub.receiveSlot = detoast_receive;
	dest.pub.rStartup = detoast_startup;
	dest.pub.rShutdown = detoast_nothing;
	dest.pub.rDestroy = detoast_nothing;
	dest.pub.mydest = DestNone;
	dest.cxt = AllocSetContextCreate(CurrentMemoryContext,
									 "toast_efficiency detoasted values",
									 ALLOCSET_DEFAULT_SIZES);

	PushActiveSnapshot(GetTransactionSnapshot());
	qd = CreateQueryDesc(t->plan, t->sql, GetActiveSnapshot(), InvalidSnapshot,
						 (DestReceiver *) &dest, NULL, NULL, 0);
	XactReadOnly = true;
	PG_TRY();
	{
		INSTR_TIME_SET_CURRENT(start);
		ExecutorStart(qd, 0);
		sb_executor_run(qd);
		ExecutorFinish(qd);
		ExecutorEnd(qd);
		INSTR_TIME_SET_CURRENT(end);
	}
	PG_FINALLY();
	{
		XactReadOnly = save_read_only;
	}
	PG_END_TRY();
	FreeQueryDesc(qd);
	PopActiveSnapshot();
	MemoryContextDelete(dest.cxt);

	INSTR_TIME_SUBTRACT(end, start);
	r->seconds = INSTR_TIME_GET_DOUBLE(end);
	r->rows = dest.rows;
	r->values = dest.values;
	r->bytes = dest.bytes;
}

/* ---- The raw reads and the caches ---- */

/* The three relations' files in order, 8 kB a read, the caches as left. */
void
sb_toast_read(SbToast *t, SbReadResult *r)
{
	sb_raw_read_segments(t->segs, t->nsegs, BLCKSZ, r);
}

void
sb_toast_evict(SbToast *t)
{
	sb_evict_buffers(t->main);
	sb_evict_buffers(t->toast);
	sb_evict_buffers(t->index);
	sb_evict_page_cache(t->main);
	sb_evict_page_cache(t->toast);
	sb_evict_page_cache(t->index);
}

/* Percent of the three's blocks in shared_buffers or the page cache. */
double
sb_toast_cached_pct(SbToast *t)
{
	SbResidency m;
	SbResidency h;
	SbResidency i;

	sb_residency(t->main, &m);
	sb_residency(t->toast, &h);
	sb_residency(t->index, &i);
	return sb_pct(m.any_blocks + h.any_blocks + i.any_blocks,
				  m.blocks + h.blocks + i.blocks);
}

/*
 * The relation the throttle's allowance is drained from: the largest of
 * the three, so that the reads rarely repeat a block.
 */
static SbTarget *
largest(SbToast *t)
{
	SbTarget   *big = t->main;

	if (t->toast->nblocks > big->nblocks)
		big = t->toast;
	if (t->index->nblocks > big->nblocks)
		big = t->index;
	return big;
}

/*
 * Put the caches in the state a side starts from, and say how much of the
 * three they hold: cold, evicted, the throttle's allowance drained; warm,
 * one untimed pass of the side itself.
 */
static double
prepare_side(SbToast *t, bool cold, bool scan, SbTarget *drain,
			 SbRandomFile *files, uint64 allowance)
{
	if (cold)
	{
		sb_toast_evict(t);
		if (allowance > 0)
			sb_path_drain(drain, files, allowance, 1);
	}
	else if (scan)
	{
		SbToastRun	w;

		sb_toast_scan(t, &w);
	}
	else
	{
		SbReadResult w;

		sb_toast_read(t, &w);
	}
	return sb_toast_cached_pct(t);
}

/*
 * Rounds of the raw reads then the scan, until the interval of the
 * scan's rate over the reads' is within the target or the time is spent.
 */
void
sb_toast_rounds(SbToast *t, bool cold, double max_seconds,
				SbToastRounds *out)
{
	SbTarget   *drain = largest(t);
	uint64		allowance = 0;
	SbRandomFile *files = NULL;
	double	   *read_s = palloc(sizeof(double) * SB_TOAST_MAX_ROUNDS);
	double	   *scan_s = palloc(sizeof(double) * SB_TOAST_MAX_ROUNDS);
	instr_time	t0;
	instr_time	now;

	memset(out, 0, sizeof(SbToastRounds));
	out->pct = out->pct_lo = out->pct_hi = NAN;
	if (cold && drain->nsegments > 0)
	{
		allowance = sb_cgroup_allowance_reads(t->segs[0]->path, BLCKSZ,
											  SB_THROTTLE_ALLOWANCE_S);
		if (allowance > 0)
			files = sb_path_open_random(drain);
	}

	INSTR_TIME_SET_CURRENT(t0);
	while (out->rounds < SB_TOAST_MAX_ROUNDS)
	{
		SbReadResult rr;
		SbToastRun	run;
		double		cached;
		double		elapsed;

		CHECK_FOR_INTERRUPTS();
		cached = prepare_side(t, cold, false, drain, files, allowance);
		out->cached_pct_before = Max(out->cached_pct_before, cached);
		sb_toast_read(t, &rr);

		CHECK_FOR_INTERRUPTS();
		cached = prepare_side(t, cold, true, drain, files, allowance);
		out->cached_pct_before = Max(out->cached_pct_before, cached);
		sb_toast_scan(t, &run);

		read_s[out->rounds] = rr.timing.seconds;
		scan_s[out->rounds] = run.seconds;
		out->read_s += rr.timing.seconds;
		out->read_bytes += rr.bytes;
		out->scan_s += run.seconds;
		out->last = run;
		out->rounds++;

		INSTR_TIME_SET_CURRENT(now);
		INSTR_TIME_SUBTRACT(now, t0);
		elapsed = INSTR_TIME_GET_DOUBLE(now);
		if (out->rounds >= sb_threshold(SB_RULE_TOAST_ROUNDS) &&
			sb_ratio_ci(read_s, scan_s, out->rounds, 0.95, &out->pct,
						&out->pct_lo, &out->pct_hi) &&
			sb_halfwidth_pct(out->pct, out->pct_lo, out->pct_hi) <= SB_TOAST_TARGET_PCT)
			break;
		/* another round as long as the mean one must fit */
		if (elapsed * (out->rounds + 1) / out->rounds > max_seconds)
		{
			out->budget_hit = true;
			break;
		}
	}

	/* the scan's rate over the reads', the same bytes: their times' ratio */
	(void) sb_ratio_ci(read_s, scan_s, out->rounds, 0.95, &out->pct,
					   &out->pct_lo, &out->pct_hi);
	out->pct *= 100.0;
	out->pct_lo *= 100.0;
	out->pct_hi *= 100.0;
	if (files != NULL)
		sb_path_close_random(drain, files);
	pfree(read_s);
	pfree(scan_s);
}

/*
 * toast_efficiency(relid, cold, max_seconds)'s measurement: the table,
 * its TOAST table and index opened, the scan planned under one backend's
 * settings, the rounds, and the verdict; the elapsed time from the open.
 */
void
sb_toast_call(Oid relid, bool cold, double max_seconds, SbToastCall *out)
{
	SbToast    *t;
	SbToastRounds *rounds = &out->rounds;
	double		limit_rate;
	double		read_rate;
	int			nestlevel;
	instr_time	t0;

	memset(out, 0, sizeof(*out));
	INSTR_TIME_SET_CURRENT(t0);
	t = sb_toast_open(relid);

	/* one backend's reads, no JIT, every scan from the first block */
	nestlevel = sb_path_settings_begin();
	sb_toast_plan(t);
	limit_rate = sb_cgroup_path_read_rate(t->main->segments[0]->path, BLCKSZ);

	sb_toast_rounds(t, cold, max_seconds, rounds);
	AtEOXact_GUC(true, nestlevel);

	read_rate = sb_rate(rounds->read_bytes / (double) BLCKSZ, rounds->read_s);
	sb_judge_toast(rounds->rounds, rounds->pct, rounds->pct_lo, rounds->pct_hi,
				   cold, rounds->cached_pct_before, read_rate, limit_rate,
				   &out->verdict);

	out->toast_relid = t->toast->relid;
	out->ncolumns = t->ncolumns;
	out->columns = t->columns;
	out->main_bytes = (int64) t->main->bytes;
	out->toast_bytes = (int64) t->toast->bytes;
	out->index_bytes = (int64) t->index->bytes;
	out->elapsed_s = sb_seconds_since(t0);
	sb_toast_close(t);
}
