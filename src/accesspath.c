/*-------------------------------------------------------------------------
 *
 * accesspath.c
 *	  One question, "how many rows have a key at most this bound", answered
 *	  through each access path the planner has for one btree index: a
 *	  sequential scan, an index scan, an index-only scan and a bitmap heap
 *	  scan, each planned on its own and run through the executor, cold
 *	  and warm.
 *
 * The statement is "SELECT count(*) FROM ONLY t WHERE key <= bound", the
 * key being the index's first column and the bound the value a given
 * share of the rows have at most (sb_path_bound).  Each path is planned
 * with the enable_* settings of the others off, and with every other
 * index of the table hidden from the planner (a hook on the relation's
 * index list), so that the path is this index's and not a smaller one's.
 * A path the planner still will not take (it fell back to another) is
 * reported as not planned, not measured under another's name.
 *
 * What is timed is the executor's own interval, ExecutorStart to
 * ExecutorEnd, wall clock: the reads, the buffer manager's work, and the
 * tuples looked at, as the query pays them.  Blocks read and found are
 * the relation's own counters (the statistics system's, pending in this
 * backend), so the heap's and the index's are told apart.
 *
 * A cold path's page rate is held against random reads of the table's
 * own blocks at the depth the path keeps: one at a time for an index
 * scan and an index-only scan (no release prefetches for them), and
 * effective_io_concurrency for a bitmap heap scan (posix_fadvise hints
 * until 17, a read stream from 18).  The two alternate in rounds, each
 * round's reads as many as the path read, and the figure is the ratio of
 * their summed times with the jackknife's interval over the rounds, as
 * page_costs has it.  Under a control group's read throttle, a path run
 * is preceded by reads of the throttle's first allowance (untimed, then
 * evicted again), as the random reads are, so that neither side is timed
 * through a burst.
 * (The cold and warm runs and the rounds are accesspath_rounds.c's.)
 *
 * A call's max_seconds is kept by stopping its steps at a deadline: each
 * step (a cold run and what prepares it, a round, a warm run) runs in a
 * subtransaction with a timer set to the step's deadline, which raises a
 * cancel there as statement_timeout would, and the step is then undone
 * and left out; the call goes on to report what it finished.  So a run
 * of many seconds is cut where the time runs out rather than let finish.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <fcntl.h>
#include <math.h>
#include <unistd.h>

#include "access/relation.h"
#include "access/xact.h"
#include "catalog/pg_am.h"
#include "access/stratnum.h"
#include "catalog/pg_index.h"
#include "catalog/pg_operator.h"
#include "catalog/pg_tablespace.h"
#include "catalog/pg_type.h"
#include "executor/executor.h"
#include "executor/instrument.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "nodes/nodeFuncs.h"
#include "parser/analyze.h"
#include "rewrite/rewriteHandler.h"
#include "storage/fd.h"
#include "tcop/tcopprot.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "utils/resowner.h"
#include "utils/snapmgr.h"
#include "utils/spccache.h"
#include "utils/syscache.h"
#include "utils/timeout.h"
#include "utils/timestamp.h"

#include "accesspath.h"
#include "compat.h"
#include "compat_executor.h"
#include "compat_planner.h"

struct SbPathPlan
{
	SbPath		path;
	Relation	heap;
	Relation	index;
	PlannedStmt *plan;
	char	   *sql;
	int			depth;			/* reads the path keeps in flight */
	bool		rows;			/* the keys, not their count */
	bool		count_io;		/* ask the scan to count its reads (19) */
};

static const char *const path_names[SB_NPATHS] = {
	[SB_PATH_SEQ] = "seq",
	[SB_PATH_INDEX] = "index",
	[SB_PATH_INDEX_ONLY] = "index_only",
	[SB_PATH_BITMAP] = "bitmap",
};

/* The enable_* setting of each path, turned off for every other path. */
static const char *const path_settings[SB_NPATHS] = {
	[SB_PATH_SEQ] = "enable_seqscan",
	[SB_PATH_INDEX] = "enable_indexscan",
	[SB_PATH_INDEX_ONLY] = "enable_indexonlyscan",
	[SB_PATH_BITMAP] = "enable_bitmapscan",
};

const char *
sb_path_name(SbPath path)
{
	return path_names[path];
}

/* ---- Steps stopped at a deadline ---- */

static TimeoutId deadline_timer = MAX_TIMEOUTS;	/* not registered yet */
static volatile sig_atomic_t deadline_passed = false;

/* What a cancel request does (postgres.c's StatementCancelHandler). */
static void
deadline_handler(void)
{
	deadline_passed = true;
	if (!proc_exit_inprogress)
	{
		InterruptPending = true;
		QueryCancelPending = true;
	}
	SetLatch(MyLatch);
}

/* The time seconds from now. */
TimestampTz
sb_path_deadline(double seconds)
{
	return GetCurrentTimestamp() + (TimestampTz) (Max(seconds, 0.0) * USECS_PER_SEC);
}

/* Seconds from now to stop_at, negative once it has passed. */
double
sb_path_seconds_left(TimestampTz stop_at)
{
	return (double) (stop_at - GetCurrentTimestamp()) / USECS_PER_SEC;
}

/*
 * Run step(arg) in a subtransaction, stopped at stop_at: true where it
 * ran to its end, false where the time ran out first (or had already),
 * everything it did undone as an error undoes it.  Any other error goes
 * on as it came.  The stop is a cancel raised by a timer, so it comes at
 * the next CHECK_FOR_INTERRUPTS of whatever the step is doing: a scan's
 * next tuple, a read's, an eviction's next buffer.  A cancel from the
 * client or statement_timeout that comes at the same moment is not taken
 * for the deadline's.
 */
bool
sb_path_until(TimestampTz stop_at, SbPathStep step, void *arg)
{
	MemoryContext caller = CurrentMemoryContext;
	ResourceOwner owner = CurrentResourceOwner;
	bool		statement_timer = get_timeout_active(STATEMENT_TIMEOUT);
	volatile bool done = true;

	CHECK_FOR_INTERRUPTS();
	if (GetCurrentTimestamp() >= stop_at)
		return false;
	if (deadline_timer == MAX_TIMEOUTS)
		deadline_timer = RegisterTimeout(USER_TIMEOUT, deadline_handler);

	BeginInternalSubTransaction(NULL);
	MemoryContextSwitchTo(caller);
	deadline_passed = false;
	enable_timeout_at(deadline_timer, stop_at);
	PG_TRY();
	{
		step(arg);
		disable_timeout(deadline_timer, false);

		/*
		 * The timer may have fired after the step's last check for
		 * interrupts: the cancel it left pending is the deadline's.
		 */
		if (deadline_passed)
			QueryCancelPending = false;
		ReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(caller);
		CurrentResourceOwner = owner;
	}
	PG_CATCH();
	{
		ErrorData  *edata;
		bool		ours;

		disable_timeout(deadline_timer, false);
		MemoryContextSwitchTo(caller);
		edata = CopyErrorData();
		FlushErrorState();
		RollbackAndReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(caller);
		CurrentResourceOwner = owner;
		/* statement_timeout fired too if its timer is no longer set */
		ours = deadline_passed && edata->sqlerrcode == ERRCODE_QUERY_CANCELED &&
			!(statement_timer && !get_timeout_active(STATEMENT_TIMEOUT));
		if (!ours)
			ReThrowError(edata);
		FreeErrorData(edata);
		done = false;
	}
	PG_END_TRY();
	deadline_passed = false;
	return done;
}

/* ---- The bound: the key a share of the rows have at most ---- */

/* What reading a bound needs and gives, a step stopped at a deadline. */
typedef struct BoundRead
{
	Relation	heap;
	Relation	index;
	double		selectivity;
	MemoryContext caller;
	char	   *bound;
} BoundRead;

static void
read_bound(void *arg)
{
	BoundRead  *br = (BoundRead *) arg;
	Relation	heap = br->heap;
	AttrNumber	attno = br->index->rd_index->indkey.values[0];
	const char *col = quote_identifier(get_attname(RelationGetRelid(heap), attno, false));
	char	   *rel = quote_qualified_identifier(get_namespace_name(RelationGetNamespace(heap)),
												 RelationGetRelationName(heap));
	double		ntuples = heap->rd_rel->reltuples;
	int64		offset;
	int			nestlevel;
	int			ret = SPI_OK_SELECT;

	offset = (int64) floor(br->selectivity * Max(ntuples, 1.0));
	if (offset > 0)
		offset--;

	nestlevel = NewGUCNestLevel();
	(void) set_config_option("search_path", "pg_catalog, pg_temp",
							 PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SAVE,
							 true, 0, false);
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	/* every row: the largest key, not the whole index read to its end */
	if (br->selectivity < 1.0)
		ret = SPI_execute(psprintf("SELECT %s FROM ONLY %s WHERE %s IS NOT NULL ORDER BY %s OFFSET " INT64_FORMAT " LIMIT 1",
								   col, rel, col, col, offset), true, 1);
	if (br->selectivity >= 1.0 || (ret == SPI_OK_SELECT && SPI_processed == 0))
		/* fewer rows than the statistics say: the largest key */
		ret = SPI_execute(psprintf("SELECT %s FROM ONLY %s WHERE %s IS NOT NULL ORDER BY %s DESC LIMIT 1",
								   col, rel, col, col), true, 1);
	if (ret != SPI_OK_SELECT)
		elog(ERROR, "reading the bound of \"%s\" failed: %s",
			 RelationGetRelationName(br->index), SPI_result_code_string(ret));
	if (SPI_processed == 1)
	{
		char	   *v = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1);

		if (v != NULL)
			br->bound = MemoryContextStrdup(br->caller, v);
	}
	SPI_finish();
	AtEOXact_GUC(true, nestlevel);
}

/*
 * The first key of the index (a plain column: the entry point refuses
 * expression indexes) at offset selectivity * reltuples in key order,
 * as the text of a literal, read through SPI with pg_catalog alone on
 * the path so that the ordering is the type's own; by stop_at, or the
 * call fails saying its max_seconds ran out.  The table's row count is
 * its reltuples, as the planner has it.
 */
char *
sb_path_bound(Relation heap, Relation index, double selectivity,
			  TimestampTz stop_at, double *reltuples)
{
	BoundRead	br;

	*reltuples = heap->rd_rel->reltuples;
	memset(&br, 0, sizeof(br));
	br.heap = heap;
	br.index = index;
	br.selectivity = selectivity;
	br.caller = CurrentMemoryContext;
	if (!sb_path_until(stop_at, read_bound, &br))
		ereport(ERROR,
				(errcode(ERRCODE_QUERY_CANCELED),
				 errmsg("max_seconds ran out reading the key of \"%s\" at %g of the rows of \"%s\"",
						RelationGetRelationName(index), selectivity,
						RelationGetRelationName(heap)),
				 errhint("Give the call more time (max_seconds): it reads that key in the index's order before it measures anything.")));

	if (br.bound == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("\"%s\" has no rows with a key in \"%s\"",
						RelationGetRelationName(heap),
						RelationGetRelationName(index))));
	return br.bound;
}

/*
 * For a whole measuring call, until AtEOXact_GUC(true, the level
 * returned): no parallel workers (a path is one backend's reads), no JIT
 * (its compile time is no path's), every sequential scan from the first
 * block.
 */
int
sb_path_settings_begin(void)
{
	int			nestlevel = NewGUCNestLevel();

	(void) set_config_option("max_parallel_workers_per_gather", "0",
							 PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SAVE,
							 true, 0, false);
	(void) set_config_option("jit", "off", PGC_USERSET, PGC_S_SESSION,
							 GUC_ACTION_SAVE, true, 0, false);
	(void) set_config_option("synchronize_seqscans", "off", PGC_USERSET,
							 PGC_S_SESSION, GUC_ACTION_SAVE, true, 0, false);
	return nestlevel;
}

/*
 * The table a path is measured on, opened and locked: one table, not a
 * hierarchy, analyzed (the shares of rows are of its reltuples, and the
 * planner's choices come from its statistics: analyzed_detail says which
 * the caller needs), with pages to read.
 */
SbTarget *
sb_path_open_table(Oid relid, const char *analyzed_detail)
{
	SbTarget   *target = sb_target_open(relid, SB_TARGET_SCAN);

	if (target->nleaves != 1)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("\"%s\" has inheritance children", get_rel_name(relid)),
				 errhint("Measure one table of the hierarchy at a time.")));
	if (target->leaves[0].rel->rd_rel->reltuples < 0)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("\"%s\" has not been analyzed", get_rel_name(relid)),
				 errdetail("%s", analyzed_detail),
				 errhint("ANALYZE %s first.", get_rel_name(relid))));
	if (target->nblocks == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("\"%s\" is empty: there is nothing to read",
						get_rel_name(relid))));
	return target;
}

/* ---- Planning one path ---- */

static Oid	hook_heap = InvalidOid;
static Oid	hook_index = InvalidOid;
static Oid	hook_cost_spc = InvalidOid;
static sb_rel_hook_type prev_rel_hook = NULL;

/*
 * The table's index list, with only the measured index left in it; and,
 * where another random_page_cost is tried, the table and the index costed
 * in a tablespace of no options of its own.
 */
static void
keep_one_index(SB_REL_HOOK_ARGS)
{
	if (prev_rel_hook)
		SB_REL_HOOK_CALL(prev_rel_hook);
	if (OidIsValid(hook_heap) && SB_REL_HOOK_RELID == hook_heap)
	{
		List	   *kept = NIL;
		ListCell   *lc;

		foreach(lc, rel->indexlist)
		{
			IndexOptInfo *info = (IndexOptInfo *) lfirst(lc);

			if (info->indexoid == hook_index)
			{
				if (OidIsValid(hook_cost_spc))
					info->reltablespace = hook_cost_spc;
				kept = lappend(kept, info);
			}
		}
		rel->indexlist = kept;
		if (OidIsValid(hook_cost_spc))
			rel->reltablespace = hook_cost_spc;
	}
}

/* Whether the plan reads the table through the path asked for. */
static bool
plan_takes(Plan *plan, SbPath path, Oid indexid)
{
	if (plan == NULL)
		return false;
	switch (nodeTag(plan))
	{
		case T_SeqScan:
			return path == SB_PATH_SEQ;
		case T_IndexScan:
			return path == SB_PATH_INDEX &&
				((IndexScan *) plan)->indexid == indexid;
		case T_IndexOnlyScan:
			return path == SB_PATH_INDEX_ONLY &&
				((IndexOnlyScan *) plan)->indexid == indexid;
		case T_BitmapHeapScan:
			return path == SB_PATH_BITMAP &&
				plan->lefttree != NULL && IsA(plan->lefttree, BitmapIndexScan) &&
				((BitmapIndexScan *) plan->lefttree)->indexid == indexid;
		default:
			return plan_takes(plan->lefttree, path, indexid) ||
				plan_takes(plan->righttree, path, indexid);
	}
}

/*
 * "key <= bound" as scanbench writes it: the key compared by its index's
 * operator class with a literal of the key's base type, never a domain's
 * (a cast to a domain runs its CHECK constraints, the table owner's code,
 * for every row), with the column's type modifier, so that a char(n) or
 * bit(n) bound keeps its length.  Where the class's input type is another
 * (a varchar key under text_ops), both sides are cast to it, which
 * relabels them and runs nothing; the operator is then named with its
 * exact types and its schema, so no other can be chosen.  relcheck.c
 * refused keys whose type or comparisons run code a superuser does not
 * own.
 */
static char *
key_at_most(Relation heap, Relation index, const char *bound)
{
	AttrNumber	attno = index->rd_index->indkey.values[0];
	Form_pg_attribute att = TupleDescAttr(RelationGetDescr(heap), attno - 1);
	const char *col = quote_identifier(NameStr(att->attname));
	Oid			opfamily = index->rd_opfamily[0];
	Oid			opcintype = index->rd_opcintype[0];
	int32		typmod = att->atttypmod;
	Oid			base = getBaseTypeAndTypmod(att->atttypid, &typmod);
	bool		polymorphic = IsPolymorphicType(opcintype);
	uint16		flags = FORMAT_TYPE_TYPEMOD_GIVEN | FORMAT_TYPE_FORCE_QUALIFY;
	Oid			opno;
	HeapTuple	tup;
	Form_pg_operator op;
	char	   *opname;
	StringInfoData buf;

	opno = get_opfamily_member(opfamily, opcintype, opcintype,
							   BTLessEqualStrategyNumber);
	if (!OidIsValid(opno))
		elog(ERROR, "operator family %u has no <= for type %u", opfamily, opcintype);
	tup = SearchSysCache1(OPEROID, ObjectIdGetDatum(opno));
	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for operator %u", opno);
	op = (Form_pg_operator) GETSTRUCT(tup);
	opname = psprintf("%s.%s", quote_identifier(get_namespace_name(op->oprnamespace)),
					  NameStr(op->oprname));
	ReleaseSysCache(tup);

	initStringInfo(&buf);
	/* a polymorphic class (enums, ranges) has pg_catalog's operators */
	if (polymorphic || att->atttypid == opcintype)
		appendStringInfoString(&buf, col);
	else
		appendStringInfo(&buf, "%s::%s", col, format_type_extended(opcintype, -1, flags));
	appendStringInfo(&buf, " OPERATOR(%s) %s::%s", opname, quote_literal_cstr(bound),
					 format_type_extended(base, typmod, flags));
	if (!polymorphic && base != opcintype)
		appendStringInfo(&buf, "::%s", format_type_extended(opcintype, -1, flags));
	return buf.data;
}

/*
 * The statement: count(*) of the rows with a key at most the bound, or
 * (rows) the keys themselves, in the index's order where the path is the
 * index's.  Everything in it is schema-qualified: parse analysis runs with
 * pg_catalog alone on the path, so that an operator a role planted in the
 * caller's path cannot run as the caller.
 */
static char *
path_sql(Relation heap, Relation index, const char *bound, bool rows)
{
	AttrNumber	attno = index->rd_index->indkey.values[0];
	const char *col = quote_identifier(get_attname(RelationGetRelid(heap), attno, false));

	return psprintf("SELECT %s FROM ONLY %s WHERE %s",
					rows ? col : "pg_catalog.count(*)",
					quote_qualified_identifier(get_namespace_name(RelationGetNamespace(heap)),
											   RelationGetRelationName(heap)),
					key_at_most(heap, index, bound));
}

/*
 * A tablespace with no options, whose page costs are the settings': the
 * planner costs the table and its index in it when a random_page_cost is
 * tried (sb_path_cost), since a tablespace's own random_page_cost would
 * otherwise override the setting tried.  InvalidOid where neither of
 * PostgreSQL's own two is free of options.
 */
static Oid
costless_tablespace(void)
{
	Oid			candidates[] = {DEFAULTTABLESPACE_OID, GLOBALTABLESPACE_OID};
	int			i;

	for (i = 0; i < lengthof(candidates); i++)
	{
		HeapTuple	tup = SearchSysCache1(TABLESPACEOID,
										  ObjectIdGetDatum(candidates[i]));
		bool		isnull = true;

		if (HeapTupleIsValid(tup))
		{
			(void) SysCacheGetAttr(TABLESPACEOID, tup,
								   Anum_pg_tablespace_spcoptions, &isnull);
			ReleaseSysCache(tup);
		}
		if (isnull)
			return candidates[i];
	}
	return InvalidOid;
}

/*
 * A statement of scanbench's own, parsed, rewritten and planned with
 * pg_catalog alone on the search path, so that an operator or function a
 * role planted in the caller's path cannot run as the caller.  what names
 * the relation in the error a rule's rewriting gives.
 */
PlannedStmt *
sb_plan_catalog_sql(const char *sql, const char *what)
{
	RawStmt    *raw;
	Query	   *q;
	List	   *rewritten;
	PlannedStmt *plan;
	int			nestlevel;

	nestlevel = NewGUCNestLevel();
	(void) set_config_option("search_path", "pg_catalog, pg_temp",
							 PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SAVE,
							 true, 0, false);
	raw = linitial_node(RawStmt, pg_parse_query(sql));
	q = sb_parse_analyze(raw, sql);
	rewritten = QueryRewrite(q);
	if (list_length(rewritten) != 1)
		elog(ERROR, "rules rewrote the statement on \"%s\" into several", what);
	plan = sb_plan_query(linitial_node(Query, rewritten), sql, 0, NULL);
	AtEOXact_GUC(true, nestlevel);
	return plan;
}

/*
 * Plan the statement through one path, or NULL where the planner takes
 * another.  With a random_page_cost to try (not NaN), the table and the
 * index are costed in a tablespace without options under that setting,
 * seq_page_cost staying the table's tablespace's.
 */
static PlannedStmt *
plan_path(Relation heap, Relation index, SbPath path, const char *sql,
		  double random_page_cost)
{
	PlannedStmt *plan;
	int			nestlevel;
	int			i;

	nestlevel = NewGUCNestLevel();

	/*
	 * The path's own setting on, the others off; an index-only scan wants
	 * enable_indexscan on too, which governs both kinds of index scan (with
	 * it off, every path is disabled and the planner takes the cheapest,
	 * often the sequential scan).  plan_takes then tells an index-only scan
	 * from the plain one the planner may prefer.
	 */
	for (i = 0; i < SB_NPATHS; i++)
	{
		bool		on = i == (int) path ||
			(path == SB_PATH_INDEX_ONLY && i == (int) SB_PATH_INDEX);

		(void) set_config_option(path_settings[i], on ? "on" : "off",
								 PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SAVE,
								 true, 0, false);
	}
	(void) set_config_option("enable_tidscan", "off", PGC_USERSET,
							 PGC_S_SESSION, GUC_ACTION_SAVE, true, 0, false);
	hook_cost_spc = InvalidOid;
	if (!isnan(random_page_cost))
	{
		double		spc_random;
		double		spc_seq;

		hook_cost_spc = costless_tablespace();
		if (!OidIsValid(hook_cost_spc))
			ereport(ERROR,
					(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
					 errmsg("pg_default and pg_global both have options"),
					 errdetail("Another random_page_cost is tried by costing the table in a tablespace whose page costs are the settings'.")));
		get_tablespace_page_costs(heap->rd_rel->reltablespace, &spc_random, &spc_seq);
		(void) set_config_option("seq_page_cost", psprintf("%.17g", spc_seq),
								 PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SAVE,
								 true, 0, false);
		(void) set_config_option("random_page_cost", psprintf("%.17g", random_page_cost),
								 PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SAVE,
								 true, 0, false);
	}

	hook_heap = RelationGetRelid(heap);
	hook_index = RelationGetRelid(index);
	prev_rel_hook = SB_REL_HOOK;
	SB_REL_HOOK = keep_one_index;
	PG_TRY();
	{
		plan = sb_plan_catalog_sql(sql, RelationGetRelationName(heap));
	}
	PG_FINALLY();
	{
		SB_REL_HOOK = prev_rel_hook;
		hook_heap = hook_index = hook_cost_spc = InvalidOid;
	}
	PG_END_TRY();
	AtEOXact_GUC(true, nestlevel);

	if (!plan_takes(plan->planTree, path, RelationGetRelid(index)))
		return NULL;
	return plan;
}

static SbPathPlan *
make_plan(Relation heap, Relation index, SbPath path, const char *bound,
		  bool rows)
{
	SbPathPlan *p = palloc0(sizeof(SbPathPlan));
	char	   *sql = path_sql(heap, index, bound, rows);
	PlannedStmt *plan = plan_path(heap, index, path, sql, NAN);

	if (plan == NULL)
		return NULL;
	p->path = path;
	p->heap = heap;
	p->index = index;
	p->plan = plan;
	p->sql = sql;
	p->rows = rows;
	switch (path)
	{
		case SB_PATH_SEQ:
			p->depth = 0;
			break;
		case SB_PATH_INDEX:
		case SB_PATH_INDEX_ONLY:
			p->depth = 1;
			break;
		case SB_PATH_BITMAP:
			/* 0 turns prefetching off: one read at a time */
			p->depth = Max(get_tablespace_io_concurrency(heap->rd_rel->reltablespace), 1);
			p->count_io = SB_HAVE_SCAN_IO;
			break;
		default:
			elog(ERROR, "unknown access path %d", (int) path);
	}
	return p;
}

/* The count through one path, or NULL where the planner takes another. */
SbPathPlan *
sb_path_plan(Relation heap, Relation index, SbPath path, const char *bound)
{
	return make_plan(heap, index, path, bound, false);
}

/* The keys themselves through one path, for sb_path_run_until. */
SbPathPlan *
sb_path_plan_rows(Relation heap, Relation index, SbPath path,
				  const char *bound)
{
	return make_plan(heap, index, path, bound, true);
}

/*
 * The planner's total cost of returning the keys through one path, with
 * the random_page_cost given (NaN: the one in force); -1 where the planner
 * takes another path.
 */
double
sb_path_cost(Relation heap, Relation index, SbPath path, const char *bound,
			 double random_page_cost)
{
	PlannedStmt *plan = plan_path(heap, index, path,
								  path_sql(heap, index, bound, true),
								  random_page_cost);

	return plan != NULL ? plan->planTree->total_cost : -1.0;
}

int
sb_path_depth(SbPathPlan *p)
{
	return p->depth;
}

/* ---- Running it ---- */

/*
 * count(*)'s one value, kept; or, for the keys themselves, how many came
 * and how many had come when the run passed a time limit.
 */
typedef struct CountReceiver
{
	DestReceiver pub;
	bool		rows;
	int64		count;
	instr_time	start;
	double		limit_s;
	int64		rows_at_limit;	/* -1 until the limit is passed */
} CountReceiver;

static bool
count_receive(TupleTableSlot *slot, DestReceiver *self)
{
	CountReceiver *r = (CountReceiver *) self;
	bool		isnull;
	Datum		d;

	if (r->rows)
	{
		r->count++;
		if (r->rows_at_limit < 0 && r->limit_s < HUGE_VAL)
		{
			instr_time	now;

			INSTR_TIME_SET_CURRENT(now);
			INSTR_TIME_SUBTRACT(now, r->start);
			if (INSTR_TIME_GET_DOUBLE(now) >= r->limit_s)
				r->rows_at_limit = r->count;
		}
		return true;
	}
	d = slot_getattr(slot, 1, &isnull);
	if (!isnull)
		r->count = DatumGetInt64(d);
	return true;
}

static void
count_startup(DestReceiver *self, int operation, TupleDesc typeinfo)
{
}

static void
count_nothing(DestReceiver *self)
{
}

/* The scan nodes' own counts of their reads (19 on), added to the run's. */
static bool
collect_io(PlanState *ps, void *context)
{
	SbPathRun  *r = (SbPathRun *) context;

	if (ps == NULL)
		return false;
	if (IsA(ps, BitmapHeapScanState) || IsA(ps, SeqScanState))
	{
		SbIOStats	s;

		memset(&s, 0, sizeof(s));
		if (sb_scannode_io_stats((ScanState *) ps, &s))
		{
			r->io_ok = true;
			r->distance_mean = s.prefetch_count > 0 ?
				(double) s.distance_sum / s.prefetch_count : 0;
			r->distance_max = s.distance_max;
		}
	}
	return planstate_tree_walker(ps, collect_io, context);
}

static void
counters(Relation rel, int64 *fetched, int64 *hit)
{
	if (sb_pgstat_counting(rel))
	{
		*fetched = sb_pgstat_blocks_fetched(rel);
		*hit = sb_pgstat_blocks_hit(rel);
	}
	else
		*fetched = *hit = -1;
}

/*
 * Rows fetched between looks at the clock's limit: the executor stops
 * after them and is run again, so a run passes its limit by at most these.
 */
#define ROWS_PER_LOOK	16

/*
 * Time one run of the planned path, stopped once it has taken limit_s
 * (HUGE_VAL: run to the end; only for the keys themselves).  The statement
 * runs as in a read-only transaction; its rows are count(*)'s answer or
 * the keys that came, and *rows_at_limit the keys that had come when the
 * run passed its limit (-1: it never did).
 */
static void
run_path(SbPathPlan *p, double limit_s, SbPathRun *r, int64 *rows_at_limit)
{
	QueryDesc  *qd;
	CountReceiver dest;
	BufferUsage start_usage;
	BufferUsage usage;
	instr_time	start;
	instr_time	end;
	int64		heap_f0, heap_h0, index_f0, index_h0;
	int64		heap_f1, heap_h1, index_f1, index_h1;
	bool		save_read_only = XactReadOnly;

	memset(r, 0, sizeof(SbPathRun));
	memset(&dest, 0, sizeof(dest));
	dest.pub.receiveSlot = count_receive;
	dest.pub.rStartup = count_startup;
	dest.pub.rShutdown = count_nothing;
	dest.pub.rDestroy = count_nothing;
	dest.pub.mydest = DestNone;
	dest.rows = p->rows;
	dest.limit_s = limit_s;
	dest.rows_at_limit = -1;

	PushActiveSnapshot(GetTransactionSnapshot());
	qd = CreateQueryDesc(p->plan, p->sql, GetActiveSnapshot(), InvalidSnapshot,
						 (DestReceiver *) &dest, NULL, NULL,
						 p->count_io ? SB_INSTRUMENT_SCAN_IO : 0);
	counters(p->heap, &heap_f0, &heap_h0);
	counters(p->index, &index_f0, &index_h0);
	XactReadOnly = true;
	PG_TRY();
	{
		start_usage = pgBufferUsage;
		INSTR_TIME_SET_CURRENT(start);
		dest.start = start;
		ExecutorStart(qd, 0);
		if (limit_s < HUGE_VAL)
		{
			int64		before;

			do
			{
				CHECK_FOR_INTERRUPTS();
				before = dest.count;
				sb_executor_run_rows(qd, ROWS_PER_LOOK);
			} while (dest.count - before == ROWS_PER_LOOK &&
					 dest.rows_at_limit < 0);
		}
		else
			sb_executor_run(qd);
		ExecutorFinish(qd);
		if (p->count_io)
			(void) collect_io(qd->planstate, r);
		ExecutorEnd(qd);
		INSTR_TIME_SET_CURRENT(end);
	}
	PG_FINALLY();
	{
		XactReadOnly = save_read_only;
	}
	PG_END_TRY();
	counters(p->heap, &heap_f1, &heap_h1);
	counters(p->index, &index_f1, &index_h1);

	INSTR_TIME_SUBTRACT(end, start);
	r->seconds = INSTR_TIME_GET_DOUBLE(end);
	r->rows = dest.count;
	memset(&usage, 0, sizeof(usage));
	BufferUsageAccumDiff(&usage, &pgBufferUsage, &start_usage);
	r->pages_read = usage.shared_blks_read;
	r->pages_hit = usage.shared_blks_hit;
	r->heap_read = r->heap_hit = r->index_read = r->index_hit = -1;
	if (heap_f0 >= 0)
	{
		r->heap_hit = heap_h1 - heap_h0;
		r->heap_read = (heap_f1 - heap_f0) - r->heap_hit;
	}
	if (index_f0 >= 0)
	{
		r->index_hit = index_h1 - index_h0;
		r->index_read = (index_f1 - index_f0) - r->index_hit;
	}

	FreeQueryDesc(qd);
	PopActiveSnapshot();
	if (rows_at_limit != NULL)
		*rows_at_limit = dest.rows_at_limit;
}

void
sb_path_run(SbPathPlan *p, SbPathRun *r)
{
	run_path(p, HUGE_VAL, r, NULL);
}

/*
 * A run of the keys, stopped once it has taken limit_s: a scan in key
 * order has then fetched what a scan with a bound at the key it reached
 * would have, so one run gives the time of every bound up to it.
 */
void
sb_path_run_until(SbPathPlan *p, double limit_s, SbPathRun *r,
				  int64 *rows_at_limit)
{
	Assert(p->rows);
	run_path(p, limit_s, r, rows_at_limit);
}
