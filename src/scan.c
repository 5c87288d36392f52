/*-------------------------------------------------------------------------
 *
 * scan.c
 *	  Time "SELECT <query> FROM <relation>" through the executor, with the
 *	  plan forced to a sequential scan from the first block.
 *
 * The statement is parsed, checked and planned here rather than through
 * SPI so that the checks see the parse tree (one plain select list over
 * exactly this relation, nothing volatile, no sublinks) and so that the
 * timed interval is the executor's own: ExecutorStart to ExecutorEnd,
 * parallel workers' start and shutdown included, parse and plan excluded.
 *
 * Rows are the scans' own count of tuples returned, kept for the
 * statistics system whatever we do, so counting them costs the scan
 * nothing.  Parallel workers keep theirs to themselves; with workers (or
 * with track_counts off) rows come from row instrumentation of the plan
 * instead, which brings the workers' counts back to the leader at the
 * price of a counter call per tuple (about 8 % of a warm count(1)).
 *
 * A scan of one stretch, and each of scan_efficiency's whole passes, is
 * limited to the blocks the raw read reads, so that both sides of a pair
 * cover the same bytes.  The scan is begun here, between ExecutorStart and
 * the first row, the way the node would begin it (table_beginscan_strat: same ring-buffer choice,
 * same read stream), then bounded with heap_setscanlimits(), so a stretch
 * is scanned by the very code that scans the whole relation, with no
 * per-tuple TID test.  scan_rate's scan of the whole relation (one
 * statement, whose rows must be count(1)'s) instead keeps the block count
 * heap_beginscan reads, after the run's snapshot was taken, as count(1)'s
 * does: every row version that snapshot sees lies below it.  The size fixed
 * when the call began is older than the snapshot, and an UPDATE committed
 * in between whose new version went past that end (its page was full)
 * would be missed, the old version being dead to the snapshot: rows below
 * count(1)'s under concurrent writes.  The blocks added meanwhile are read
 * but not counted in the bytes, so the rate errs low, never high.
 * Parallel scans share their block counter through the DSM and are not
 * limited; only scan_rate with parallel_workers runs them.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/heapam.h"
#include "access/tableam.h"
#include "access/xact.h"
#include "catalog/pg_am.h"
#include "executor/executor.h"
#include "executor/instrument.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "parser/analyze.h"
#include "rewrite/rewriteHandler.h"
#include "tcop/tcopprot.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/snapmgr.h"

#include "argcheck.h"
#include "compat_executor.h"
#include "scan.h"
#include "stats.h"

static void
refuse_query(SbTarget *target, const char *query, const char *why)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("query \"%s\" is not a plain read of \"%s\"",
					sb_text_for_message(query, SB_QUERY_ECHO_BYTES),
					get_rel_name(target->relid)),
			 errdetail("%s", why),
			 errhint("Pass the select list alone, what goes between SELECT and FROM, such as 'count(1)' or 'sum(l_extendedprice)'.")));
}

/*
 * Settings for the measured statement, from planning to the last run,
 * undone by sb_scan_settings_end() (or by transaction abort).  Index paths
 * are disabled because count(1) can be answered from a smaller index, which
 * is not what is being measured; synchronized scans are off so the scan
 * starts at block 0; track_io_timing is on so that read wait can be
 * reported.  It is a superuser setting
 * turned on for this statement only, at the cost of two clock reads per
 * block read.
 */
static const char *const scan_off[] = {
	"enable_indexscan", "enable_indexonlyscan", "enable_bitmapscan",
	"enable_tidscan", "synchronize_seqscans"
};

/* Set for the statement too, besides scan_off, in sb_scan_settings_begin(). */
static const char *const scan_set[] = {
	"track_io_timing", "max_parallel_workers_per_gather",
	"parallel_setup_cost", "parallel_tuple_cost",
	"min_parallel_table_scan_size"
};

/*
 * Whether the measured statement runs with its own value of a setting, so
 * that a value the caller sets around it would be overridden (scan_sweep
 * refuses those).
 */
bool
sb_scan_sets(const char *name)
{
	int			i;

	for (i = 0; i < lengthof(scan_off); i++)
		if (pg_strcasecmp(name, scan_off[i]) == 0)
			return true;
	for (i = 0; i < lengthof(scan_set); i++)
		if (pg_strcasecmp(name, scan_set[i]) == 0)
			return true;
	return false;
}

int
sb_scan_settings_begin(int workers)
{
	const char *const *off = scan_off;
	int			nestlevel = NewGUCNestLevel();
	char		nworkers[16];
	int			i;

	for (i = 0; i < lengthof(scan_off); i++)
		(void) set_config_option(off[i], "off", PGC_USERSET, PGC_S_SESSION,
								 GUC_ACTION_SAVE, true, 0, false);
	(void) set_config_option("track_io_timing", "on", PGC_SUSET, PGC_S_SESSION,
							 GUC_ACTION_SAVE, true, 0, false);

	snprintf(nworkers, sizeof(nworkers), "%d", workers);
	(void) set_config_option("max_parallel_workers_per_gather", nworkers,
							 PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SAVE,
							 true, 0, false);
	if (workers > 0)
	{
		/* Asked for N workers: use them whatever the table's size. */
		(void) set_config_option("parallel_setup_cost", "0", PGC_USERSET,
								 PGC_S_SESSION, GUC_ACTION_SAVE, true, 0, false);
		(void) set_config_option("parallel_tuple_cost", "0", PGC_USERSET,
								 PGC_S_SESSION, GUC_ACTION_SAVE, true, 0, false);
		(void) set_config_option("min_parallel_table_scan_size", "0",
								 PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SAVE,
								 true, 0, false);
	}
	return nestlevel;
}

void
sb_scan_settings_end(int nestlevel)
{
	AtEOXact_GUC(true, nestlevel);
}

/*
 * Errors from parsing the built statement point into it, not into the
 * caller's query text; report them as an internal query, as SPI does.
 */
static void
query_error_callback(void *arg)
{
	const char *sql = (const char *) arg;
	int			pos = geterrposition();

	if (pos > 0)
	{
		errposition(0);
		internalerrposition(pos);
		internalerrquery(sql);
	}
	errcontext("scanbench statement \"%s\"",
			   sb_text_for_message(sql, SB_QUERY_ECHO_BYTES));
}

/*
 * Plan "SELECT <query> FROM <target>", or "... FROM ONLY <leaf>" for the
 * scans of one leaf's stretches.
 */
static PlannedStmt *
plan_query(SbTarget *target, SbLeaf *leaf, const char *query,
		   const char *where, int workers, char **sqlp)
{
	Oid			relid = leaf ? RelationGetRelid(leaf->rel) : target->relid;
	char	   *sql;
	List	   *parsed;
	RawStmt    *raw;
	SelectStmt *sel;
	Query	   *q;
	RangeTblEntry *rte;
	List	   *rewritten;
	PlannedStmt *plan;
	ErrorContextCallback errcallback;
	int			from_pos;
	int			save_nestlevel;
	const char *hidden_from = "A comment or a FROM clause of its own hides the FROM clause that names the relation.";

	sql = psprintf("SELECT %s FROM %s%s%s%s", query, leaf ? "ONLY " : "",
				   quote_qualified_identifier(get_namespace_name(get_rel_namespace(relid)),
											  get_rel_name(relid)),
				   where ? " WHERE " : "", where ? where : "");
	from_pos = strlen("SELECT ") + strlen(query) + strlen(" FROM ") +
		(leaf ? strlen("ONLY ") : 0);	/* where the relation's name begins */

	errcallback.callback = query_error_callback;
	errcallback.arg = sql;
	errcallback.previous = error_context_stack;
	error_context_stack = &errcallback;

	parsed = pg_parse_query(sql);
	if (list_length(parsed) != 1)
		refuse_query(target, query, "It makes more than one statement.");
	raw = linitial_node(RawStmt, parsed);
	if (!IsA(raw->stmt, SelectStmt))
		refuse_query(target, query, "It is not a SELECT.");
	sel = (SelectStmt *) raw->stmt;
	if (sel->op == SETOP_NONE && sel->targetList == NIL)
		refuse_query(target, query, "It selects nothing.");
	if (sel->op == SETOP_NONE && sel->fromClause == NIL)
		refuse_query(target, query, hidden_from);
	if (sel->op != SETOP_NONE || sel->withClause || sel->intoClause ||
		(sel->whereClause && where == NULL) || sel->groupClause || sel->havingClause ||
		sel->windowClause || sel->sortClause || sel->distinctClause ||
		sel->limitCount || sel->limitOffset || sel->lockingClause ||
		list_length(sel->fromClause) != 1 ||
		!IsA(linitial(sel->fromClause), RangeVar))
		refuse_query(target, query, "It adds clauses or relations to the scan.");

	/*
	 * The one FROM item must be the one appended above, not one the query
	 * brought along while a comment swallowed ours ("count(1) FROM ONLY t
	 * --" would read the parent alone).  Its position says whose it is.
	 */
	if (((RangeVar *) linitial(sel->fromClause))->location != from_pos)
		refuse_query(target, query, hidden_from);

	/*
	 * The select list is resolved with pg_catalog alone on the path.  An
	 * aggregate or operator that a role with CREATE on a schema of the
	 * caller's path planted (a count(integer) matches count(1) exactly,
	 * where pg_catalog's count("any") does not) would otherwise win
	 * wherever that schema stands on the path, and run as the caller.  A
	 * function or relation of one's own is named with its schema; the
	 * relation's name above is qualified.  Only the analysis, which
	 * resolves the names, runs so: the bodies of SQL functions the planner
	 * inlines are read with the caller's path, as when they are called.
	 */
	save_nestlevel = NewGUCNestLevel();
	(void) set_config_option("search_path", "pg_catalog, pg_temp",
							 PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SAVE,
							 true, 0, false);
	q = sb_parse_analyze(raw, sql);
	AtEOXact_GUC(true, save_nestlevel);
	if (q->commandType != CMD_SELECT || list_length(q->rtable) != 1)
		refuse_query(target, query, "It reads other relations.");
	rte = linitial_node(RangeTblEntry, q->rtable);
	if (rte->rtekind != RTE_RELATION || rte->relid != relid)
		refuse_query(target, query, "It reads another relation.");
	if (q->hasSubLinks || q->hasModifyingCTE || q->cteList != NIL)
		refuse_query(target, query, "It contains a subquery.");
	if (contain_volatile_functions((Node *) q->targetList))
		refuse_query(target, query, "It calls volatile functions, which may write.");

	rewritten = QueryRewrite(q);
	if (list_length(rewritten) != 1)
		refuse_query(target, query, "Rules rewrite it into several statements.");

	plan = sb_plan_query(linitial_node(Query, rewritten), sql,
						 workers > 0 ? CURSOR_OPT_PARALLEL_OK : 0, NULL);

	error_context_stack = errcallback.previous;
	*sqlp = sql;
	return plan;
}

/* A seq scan node's own count of its reads, added to the run's. */
static void
add_scan_io(SeqScanState *node, SbScanIO *io)
{
	SbIOStats	s;

	memset(&s, 0, sizeof(s));
	sb_seqscan_io_stats(node, &s);
	io->ok = true;
	io->buffers += s.prefetch_count;
	io->distance_sum += s.distance_sum;
	io->distance_max = Max(io->distance_max, s.distance_max);
	io->waits += s.wait_count;
	io->ios += s.io_count;
	io->io_blocks += s.io_nblocks;
}

/*
 * Sum the scan nodes' row counts, where instrumented (the workers' are
 * added to the leader's at shutdown), and the workers started.
 */
static bool
collect_plan_stats(PlanState *ps, void *context)
{
	SbScanResult *result = (SbScanResult *) context;

	if (ps == NULL)
		return false;
	if (IsA(ps, SeqScanState) && ps->instrument)
		result->rows += (uint64) (ps->instrument->ntuples +
								  ps->instrument->tuplecount);
	if (IsA(ps, SeqScanState) && (ps->state->es_instrument & SB_INSTRUMENT_SCAN_IO))
		add_scan_io((SeqScanState *) ps, &result->io);
	if (IsA(ps, GatherState))
	{
		result->workers_planned += ((Gather *) ps->plan)->num_workers;
		result->workers_launched += ((GatherState *) ps)->nworkers_launched;
	}
	else if (IsA(ps, GatherMergeState))
	{
		result->workers_planned += ((GatherMerge *) ps->plan)->num_workers;
		result->workers_launched += ((GatherMergeState *) ps)->nworkers_launched;
	}
	return planstate_tree_walker(ps, collect_plan_stats, context);
}

/* Whether every leaf's scans count their tuples for pgstat. */
static bool
counting_tuples(SbTarget *target)
{
	int			i;

	for (i = 0; i < target->nleaves; i++)
		if (!sb_pgstat_counting(target->leaves[i].rel))
			return false;
	return true;
}

static uint64
tuples_returned(SbTarget *target)
{
	uint64		n = 0;
	int			i;

	for (i = 0; i < target->nleaves; i++)
		n += sb_pgstat_tuples_returned(target->leaves[i].rel);
	return n;
}

/* ---- A statement planned once, run many times ---- */

struct SbScanPlan
{
	SbTarget   *target;
	SbLeaf	   *leaf;			/* NULL: the whole target */
	PlannedStmt *plan;
	char	   *sql;
	bool		instrument;		/* rows from instrumentation, not pgstat */
	bool		limited;		/* scans bounded to the blocks fixed at start */
	bool		to_snapshot_end;	/* whole scans: to the end the snapshot sees */
	bool		count_io;		/* the scan nodes count their reads (19 on) */
	int			nleaves;
	Oid		   *leaf_relids;	/* sorted, for the lookup below */
	SbLeaf	  **leaves_by_relid;
};

static int
cmp_oid(const void *a, const void *b)
{
	Oid			x = *(const Oid *) a;
	Oid			y = *(const Oid *) b;

	return (x > y) - (x < y);
}

/*
 * Plan the statement once for the whole call: planning a 500-partition
 * table costs more than scanning a stretch of it, and a plan per run in the
 * caller's memory grew the backend by megabytes a run.  Call between
 * sb_scan_settings_begin() and _end().
 */
SbScanPlan *
sb_scan_plan(SbTarget *target, SbLeaf *leaf, const char *query,
			 const char *where, int workers)
{
	SbScanPlan *p = palloc0(sizeof(SbScanPlan));
	int			i;

	p->target = target;
	p->leaf = leaf;
	p->plan = plan_query(target, leaf, query, where, workers, &p->sql);
	/* SELECT on the root was checked, and covers its members. */
	if (leaf && RelationGetRelid(leaf->rel) != target->relid)
		sb_plan_drop_permission_checks(p->plan);
	p->instrument = (workers > 0 || !counting_tuples(target));
	p->limited = (workers == 0);

	p->nleaves = target->nleaves;
	p->leaf_relids = palloc(sizeof(Oid) * Max(target->nleaves, 1));
	for (i = 0; i < target->nleaves; i++)
	{
		SbLeaf	   *l = &target->leaves[i];

		/* heap_setscanlimits() is heap's; other table AMs are not read. */
		if (p->limited && l->rel->rd_rel->relam != HEAP_TABLE_AM_OID)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("cannot measure \"%s\": its table access method is not heap",
							RelationGetRelationName(l->rel))));
		p->leaf_relids[i] = RelationGetRelid(l->rel);
	}
	qsort(p->leaf_relids, target->nleaves, sizeof(Oid), cmp_oid);
	p->leaves_by_relid = palloc(sizeof(SbLeaf *) * Max(target->nleaves, 1));
	for (i = 0; i < target->nleaves; i++)
	{
		Oid			relid = RelationGetRelid(target->leaves[i].rel);
		Oid		   *at = bsearch(&relid, p->leaf_relids, target->nleaves,
								 sizeof(Oid), cmp_oid);

		p->leaves_by_relid[at - p->leaf_relids] = &target->leaves[i];
	}
	return p;
}

static SbLeaf *
plan_leaf(SbScanPlan *p, Oid relid)
{
	Oid		   *at;

	if (p->nleaves == 0)
		return NULL;
	at = bsearch(&relid, p->leaf_relids, p->nleaves, sizeof(Oid), cmp_oid);
	return at ? p->leaves_by_relid[at - p->leaf_relids] : NULL;
}

typedef struct LimitContext
{
	SbScanPlan *plan;
	SbSegment  *stretch;		/* NULL: every leaf up to its size at start */
} LimitContext;

/*
 * Begin every sequential scan of the plan: bounded to the stretch the raw
 * read covers, or over the whole relation as the run's snapshot finds it
 * (see the top of the file).  A member the call did not open (attached
 * since) gets no blocks: it was not read on the other side either.
 */
static bool
limit_scans(PlanState *ps, void *context)
{
	LimitContext *lc = (LimitContext *) context;

	if (ps == NULL)
		return false;
	if (IsA(ps, SeqScanState))
	{
		ScanState  *ss = (ScanState *) ps;
		Relation	rel = ss->ss_currentRelation;
		SbLeaf	   *leaf = plan_leaf(lc->plan, RelationGetRelid(rel));
		BlockNumber first = 0;
		BlockNumber nblocks = 0;

		if (ss->ss_currentScanDesc != NULL)
			elog(ERROR, "sequential scan of \"%s\" began before its blocks were set",
				 RelationGetRelationName(rel));
		if (lc->stretch == NULL)
			nblocks = leaf == NULL ? 0 :
				lc->plan->to_snapshot_end ? InvalidBlockNumber : leaf->nblocks;
		else if (lc->stretch->relid == RelationGetRelid(rel))
		{
			first = lc->stretch->first_block;
			nblocks = lc->stretch->bytes / BLCKSZ;
		}
		if (rel->rd_rel->relam != HEAP_TABLE_AM_OID)
			elog(ERROR, "cannot limit a scan of \"%s\": not a heap",
				 RelationGetRelationName(rel));
		/* What SeqNext() would do, syncscan aside (it is off anyway). */
		ss->ss_currentScanDesc =
			sb_beginscan_strat(rel, ps->state->es_snapshot,
							   (ps->state->es_instrument & SB_INSTRUMENT_SCAN_IO) != 0);
		if (nblocks != InvalidBlockNumber)
			heap_setscanlimits(ss->ss_currentScanDesc, nblocks > 0 ? first : 0,
							   nblocks);
	}
	return planstate_tree_walker(ps, limit_scans, context);
}

/*
 * Time one run of the plan, limited to one stretch (or, with NULL, over the
 * whole relation).  What it allocates is freed with
 * the caller's memory context.
 */
void
sb_scan_run(SbScanPlan *p, SbSegment *stretch, SbScanResult *result)
{
	SbTarget   *target = p->target;
	QueryDesc  *qd;
	BufferUsage start_usage;
	BufferUsage usage;
	SbClock		clock;
	uint64		returned_before = p->instrument ? 0 : tuples_returned(target);
	bool		save_read_only = XactReadOnly;
	SbProcSnap	procs;
	LimitContext lc;

	lc.plan = p;
	lc.stretch = stretch;

	PushActiveSnapshot(GetTransactionSnapshot());
	qd = CreateQueryDesc(p->plan, p->sql, GetActiveSnapshot(), InvalidSnapshot,
						 None_Receiver, NULL, NULL,
						 (p->instrument ? INSTRUMENT_ROWS : 0) |
						 (p->count_io ? SB_INSTRUMENT_SCAN_IO : 0));

	/*
	 * The statement runs as in a read-only transaction: whatever a function
	 * in the select list tries to write fails.  Restored even on error, for
	 * the caller may catch it in a subtransaction and go on writing.
	 */
	XactReadOnly = true;
	PG_TRY();
	{
		/*
		 * /proc is read outside the timed interval: it walks a directory.
		 * Not for a stretch: nothing reports it, and it would be read
		 * thousands of times.
		 */
		if (p->leaf == NULL)
			sb_procstat_start(&procs);
		start_usage = pgBufferUsage;
		sb_clock_start(&clock);
		ExecutorStart(qd, 0);
		if (p->limited)
			(void) limit_scans(qd->planstate, &lc);
		sb_executor_run(qd);
		ExecutorFinish(qd);
		collect_plan_stats(qd->planstate, result);
		ExecutorEnd(qd);
		sb_clock_stop(&clock, &result->timing);
		if (p->leaf == NULL)
			sb_procstat_stop(&procs, &result->procs);
	}
	PG_FINALLY();
	{
		XactReadOnly = save_read_only;
	}
	PG_END_TRY();
	if (!p->instrument)
		result->rows = tuples_returned(target) - returned_before;

	memset(&usage, 0, sizeof(usage));
	BufferUsageAccumDiff(&usage, &pgBufferUsage, &start_usage);
	result->shared_hit = usage.shared_blks_hit + usage.local_blks_hit;
	result->shared_read = usage.shared_blks_read + usage.local_blks_read;
	result->io_read_s = INSTR_TIME_GET_DOUBLE(sb_bufusage_read_time(&usage));

	FreeQueryDesc(qd);
	PopActiveSnapshot();
}

/*
 * Put the caches in the state asked for, then time one run of a planned
 * statement over the whole target.  'cold' evicts from shared_buffers (or
 * local buffers) and then from the page cache, in that order, since
 * writing a dirty buffer puts it back in the page cache; 'warm' runs the
 * statement once untimed, and then puts out of shared buffers the blocks
 * of the leaves a scan reads through a ring (cache.c says why).
 */
void
sb_scan_prepared(SbScanPlan *p, SbCacheMode cache, SbScanResult *result)
{
	SbTarget   *target = p->target;
	SbResidency res;

	memset(result, 0, sizeof(SbScanResult));
	if (cache == SB_CACHE_COLD)
	{
		sb_evict_buffers(target);
		sb_evict_page_cache(target);
	}
	else if (cache == SB_CACHE_WARM)
	{
		SbScanResult scratch;

		memset(&scratch, 0, sizeof(scratch));
		sb_scan_run(p, NULL, &scratch);
		sb_evict_ring_buffers(target);
	}

	sb_residency(target, &res);
	result->cached_pct_before = sb_pct(res.any_blocks, res.blocks);
	result->os_cached_pct_before = sb_pct(res.os_blocks, res.blocks);
	result->buffers_cached_pct_before = sb_pct(res.shared_blocks, res.blocks);

	sb_scan_run(p, NULL, result);
}

/*
 * One statement over the whole relation, planned, its caches prepared and
 * timed: its rows are count(1)'s.
 */
static void
scan_whole(SbTarget *target, const char *query, const char *where,
		   int workers, SbCacheMode cache, bool count_io, SbScanResult *result)
{
	int			nestlevel = sb_scan_settings_begin(workers);
	SbScanPlan *p = sb_scan_plan(target, NULL, query, where, workers);

	p->to_snapshot_end = true;
	p->count_io = count_io;
	sb_scan_prepared(p, cache, result);
	sb_scan_settings_end(nestlevel);
}

/* Plan, prepare the caches and time one run: scan_rate's measurement. */
void
sb_scan(SbTarget *target, const char *query, int workers,
		SbCacheMode cache, SbScanResult *result)
{
	sb_scan_where(target, query, NULL, workers, cache, result);
}

/*
 * sb_scan with a WHERE clause.  Only for statements scanbench builds
 * itself (scan_shapes): the caller's select list alone may never bring a
 * clause, which is what the checks in plan_query enforce for it.
 */
void
sb_scan_where(SbTarget *target, const char *query, const char *where,
			  int workers, SbCacheMode cache, SbScanResult *result)
{
	scan_whole(target, query, where, workers, cache, false, result);
}

/*
 * sb_scan, with the scan nodes counting their reads as EXPLAIN (ANALYZE,
 * IO) has them count (19 on; before, result->io.ok stays false).  Only
 * where the counts are reported: the instrumentation wraps every node's
 * every row in a call of its own.
 */
void
sb_scan_counting_io(SbTarget *target, const char *query, int workers,
					SbCacheMode cache, SbScanResult *result)
{
	scan_whole(target, query, NULL, workers, cache, SB_HAVE_SCAN_IO, result);
}
