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
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
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

#include "measure.h"

static void
refuse_query(SbTarget *target, const char *query, const char *why)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("query \"%s\" is not a plain read of \"%s\"",
					query, get_rel_name(target->relid)),
			 errdetail("%s", why),
			 errhint("Pass the select list alone, what goes between SELECT and FROM, such as 'count(1)' or 'sum(l_extendedprice)'.")));
}

/*
 * Settings for the measured statement, undone when the call ends (or by
 * transaction abort).  Index paths are disabled because count(1) can be
 * answered from a smaller index, which is not what is being measured;
 * synchronized scans are off so the scan starts at block 0; track_io_timing
 * is on so that read wait can be reported.  It is a superuser setting
 * turned on for this statement only, at the cost of two clock reads per
 * block read.
 */
static const char *const scan_off[] = {
	"enable_indexscan", "enable_indexonlyscan", "enable_bitmapscan",
	"enable_tidscan", "synchronize_seqscans"
};

/* Set for the statement too, besides scan_off, in set_scan_gucs(). */
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

static void
set_scan_gucs(int workers)
{
	const char *const *off = scan_off;
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
	errcontext("scanbench statement \"%s\"", sql);
}

static PlannedStmt *
plan_query(SbTarget *target, const char *query, const char *where,
		   int workers, char **sqlp)
{
	Oid			relid = target->relid;
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
	const char *hidden_from = "A comment or a FROM clause of its own hides the FROM clause that names the relation.";

	sql = psprintf("SELECT %s FROM %s%s%s", query,
				   quote_qualified_identifier(get_namespace_name(get_rel_namespace(relid)),
											  get_rel_name(relid)),
				   where ? " WHERE " : "", where ? where : "");
	from_pos = strlen("SELECT ") + strlen(query) + strlen(" FROM ");

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

	q = sb_parse_analyze(raw, sql);
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

	plan = pg_plan_query(linitial_node(Query, rewritten), sql,
						 workers > 0 ? CURSOR_OPT_PARALLEL_OK : 0, NULL);

	error_context_stack = errcallback.previous;
	*sqlp = sql;
	return plan;
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

static void
run_once(SbTarget *target, PlannedStmt *plan, const char *sql, bool instrument,
		 SbScanResult *result)
{
	QueryDesc  *qd;
	BufferUsage start_usage;
	BufferUsage usage;
	SbClock		clock;
	SbProcSnap	procs;
	uint64		returned_before = instrument ? 0 : tuples_returned(target);
	bool		save_read_only = XactReadOnly;

	PushActiveSnapshot(GetTransactionSnapshot());
	qd = CreateQueryDesc(plan, sql, GetActiveSnapshot(), InvalidSnapshot, None_Receiver,
						 NULL, NULL, instrument ? INSTRUMENT_ROWS : 0);

	/*
	 * The statement runs as in a read-only transaction: whatever a function
	 * in the select list tries to write fails.  Restored even on error, for
	 * the caller may catch it in a subtransaction and go on writing.
	 */
	XactReadOnly = true;
	PG_TRY();
	{
		/* /proc is read outside the timed interval: it walks a directory. */
		sb_procstat_start(&procs);
		start_usage = pgBufferUsage;
		sb_clock_start(&clock);
		ExecutorStart(qd, 0);
		sb_executor_run(qd);
		ExecutorFinish(qd);
		collect_plan_stats(qd->planstate, result);
		ExecutorEnd(qd);
		sb_clock_stop(&clock, &result->timing);
		sb_procstat_stop(&procs, &result->procs);
	}
	PG_FINALLY();
	{
		XactReadOnly = save_read_only;
	}
	PG_END_TRY();
	if (!instrument)
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
 * Put the caches in the state asked for, then time one run of the query.
 * 'cold' evicts from shared_buffers (or local buffers) and then from the
 * page cache, in that order, since writing a dirty buffer puts it back in
 * the page cache; 'warm' runs the query once untimed.
 */
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
	int			nestlevel = NewGUCNestLevel();
	PlannedStmt *plan;
	char	   *sql;
	bool		instrument;
	SbResidency res;

	memset(result, 0, sizeof(SbScanResult));
	set_scan_gucs(workers);
	plan = plan_query(target, query, where, workers, &sql);
	instrument = (workers > 0 || !counting_tuples(target));

	if (cache == SB_CACHE_COLD)
	{
		sb_evict_buffers(target);
		sb_evict_page_cache(target);
	}
	else if (cache == SB_CACHE_WARM)
	{
		SbScanResult scratch;

		memset(&scratch, 0, sizeof(scratch));
		run_once(target, plan, sql, instrument, &scratch);
	}

	sb_residency(target, &res);
	result->cached_pct_before = sb_pct(res.any_blocks, res.blocks);
	result->os_cached_pct_before = sb_pct(res.os_blocks, res.blocks);
	result->buffers_cached_pct_before = sb_pct(res.shared_blocks, res.blocks);

	run_once(target, plan, sql, instrument, result);

	AtEOXact_GUC(true, nestlevel);
}
