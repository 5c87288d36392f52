/*-------------------------------------------------------------------------
 *
 * planscan.c
 *	  One query given by the caller, run with EXPLAIN (ANALYZE, BUFFERS,
 *	  FORMAT JSON) cold and warm, and what each of its scan nodes read:
 *	  the engine of workload_scans().
 *
 * The query is the caller's, so it is held to what cannot change
 * anything before it is even planned: exactly one statement, a plain
 * SELECT, with no FOR UPDATE or FOR SHARE anywhere in it, no INTO and no
 * WITH query that writes (sb_planscan_check, on the raw parse tree, which
 * looks at no catalog and runs nothing).  Planned, it is checked again
 * (rules, a view's FOR UPDATE), and then it runs:
 *
 *  - with the caller's rights (the function is not SECURITY DEFINER);
 *  - in a subtransaction that is always rolled back, in which the
 *    transaction is read-only (transaction_read_only, as SET TRANSACTION
 *    READ ONLY makes it): a function the SELECT calls cannot write a
 *    table, and whatever a temporary table or a setting got is undone;
 *  - with track_io_timing on in that subtransaction alone, so that each
 *    node's wait for its reads is timed whatever the session had.
 *
 * An error in the query (a division by zero, a cancel, statement_timeout)
 * is the caller's error: the subtransaction is rolled back, then the
 * error raised as it was, so that nothing is left behind but the
 * caller's own failed statement.
 *
 * Cold, the relations the plan reads, their indexes and their TOAST
 * tables are first evicted from shared_buffers and from the page cache
 * as scan_efficiency's cold mode evicts them (cache.c), inside the same
 * subtransaction, after planning (the planner may evaluate the query's
 * stable functions); what stayed resident is measured, a node's share of
 * it kept beside its figures.  Warm runs the query again after the cold
 * run, its pages resident (alone, it runs it once first, untimed).
 *
 * EXPLAIN's figures for a node include its children's (a bitmap heap
 * scan's bitmap index scans, a subplan in its filter): a node's own are
 * its figures less its children's.
 *
 * Each node's read rate is set against the reference of its access path
 * (workload_references()) and judged there (sb_planscan_judge), so that
 * the entry file only names the columns.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/relation.h"
#include "access/xact.h"
#include "catalog/namespace.h"
#include "catalog/pg_class.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "nodes/nodeFuncs.h"
#include "nodes/parsenodes.h"
#include "parser/analyze.h"
#include "parser/parser.h"
#include "rewrite/rewriteHandler.h"
#include "tcop/tcopprot.h"
#include "tcop/utility.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"
#include "utils/guc.h"
#include "utils/jsonb.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/resowner.h"

#include "argcheck.h"
#include "cache.h"
#include "cgroup.h"
#include "compat.h"
#include "compat_explain.h"
#include "planscan.h"
#include "relfiles.h"
#include "stats.h"
#include "verdict.h"

/* ---- The refusals, before anything runs ---- */

static void
refuse_write(const char *what, const char *detail)
{
	ereport(ERROR,
			(errcode(ERRCODE_READ_ONLY_SQL_TRANSACTION),
			 errmsg("workload_scans does not run %s", what),
			 detail ? errdetail("%s", detail) : 0,
			 errhint("Pass a plain SELECT: it runs read-only, in a subtransaction rolled back.")));
}

/* FOR UPDATE, INTO or a WITH query that writes, anywhere in the tree. */
static bool
refuse_walker(Node *node, void *context)
{
	if (node == NULL)
		return false;
	check_stack_depth();
	if (IsA(node, SelectStmt))
	{
		SelectStmt *s = (SelectStmt *) node;

		if (s->lockingClause != NIL)
			refuse_write("SELECT ... FOR UPDATE or FOR SHARE",
						 "Locking rows writes them.");
		if (s->intoClause != NULL)
			refuse_write("SELECT ... INTO", "It creates a table.");
	}
	else if (IsA(node, CommonTableExpr))
	{
		Node	   *q = ((CommonTableExpr *) node)->ctequery;

		if (q != NULL && !IsA(q, SelectStmt))
			refuse_write("a WITH query that modifies data",
						 psprintf("Its WITH query is %s.", CreateCommandName(q)));
	}
	else if (IsA(node, InsertStmt) || IsA(node, UpdateStmt) ||
			 IsA(node, DeleteStmt) || IsA(node, MergeStmt))
		refuse_write(CreateCommandName(node), NULL);
	return raw_expression_tree_walker(node, refuse_walker, context);
}

/*
 * The query as the caller gave it: one statement, a plain SELECT.  Only
 * the raw parser runs: no catalog is read, nothing is planned or run.
 */
void
sb_planscan_check(const char *query)
{
	List	   *stmts = pg_parse_query(query);
	Node	   *stmt;

	if (list_length(stmts) == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("query must not be empty"),
				 errhint("Pass one SELECT statement, such as 'SELECT count(*) FROM t WHERE k < 100'.")));
	if (list_length(stmts) > 1)
		ereport(ERROR,
				(errcode(ERRCODE_SYNTAX_ERROR),
				 errmsg("query must be one statement, not %d", list_length(stmts)),
				 errhint("Pass one SELECT; call workload_scans once for each.")));
	stmt = linitial_node(RawStmt, stmts)->stmt;
	if (IsA(stmt, InsertStmt) || IsA(stmt, UpdateStmt) ||
		IsA(stmt, DeleteStmt) || IsA(stmt, MergeStmt))
		refuse_write(CreateCommandName(stmt), NULL);
	if (!IsA(stmt, SelectStmt))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("workload_scans runs a SELECT, not %s", CreateCommandName(stmt)),
				 errhint("Pass the SELECT alone: workload_scans runs it under EXPLAIN ANALYZE itself.")));
	(void) refuse_walker(stmt, NULL);
}

/* ---- The references ---- */

/*
 * workload_references() of the extension's schema, named with it: the
 * rates a node's read rate is held against.  Read before the query runs,
 * so that a role that may not read them is told before anything else.
 */
void
sb_planscan_references(Oid schema, SbScanReferences *refs)
{
	char	   *sql;
	uint64		i;

	refs->sequential = refs->random = refs->random_at_depth = refs->page_cache = NAN;
	sql = psprintf("SELECT r.reference, r.mb_s FROM %s.workload_references() r",
				   quote_identifier(get_namespace_name(schema)));
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	if (SPI_execute(sql, true, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not read workload_references()");
	for (i = 0; i < SPI_processed; i++)
	{
		HeapTuple	tup = SPI_tuptable->vals[i];
		char	   *name = SPI_getvalue(tup, SPI_tuptable->tupdesc, 1);
		bool		isnull;
		Datum		d = SPI_getbinval(tup, SPI_tuptable->tupdesc, 2, &isnull);
		double		mb_s = isnull ? NAN : DatumGetFloat8(d);

		if (name == NULL || !(mb_s > 0))
			continue;
		if (strcmp(name, "sequential") == 0)
			refs->sequential = mb_s;
		else if (strcmp(name, "random") == 0)
			refs->random = mb_s;
		else if (strcmp(name, "random_at_depth") == 0)
			refs->random_at_depth = mb_s;
		else if (strcmp(name, "page_cache") == 0)
			refs->page_cache = mb_s;
	}
	SPI_finish();
}

/*
 * The reference of a node's access path: a sequential scan reads in
 * order, an index scan one page at a time, a bitmap heap scan several at
 * once; where no rate at depth is recorded (effective_io_concurrency 0 or
 * 1), a bitmap heap scan too reads one at a time.
 */
static const char *
reference_name(const char *node_type)
{
	if (strcmp(node_type, "Seq Scan") == 0)
		return "sequential";
	if (strcmp(node_type, "Bitmap Heap Scan") == 0)
		return "random_at_depth";
	return "random";
}

static double
reference_mb_s(const SbScanReferences *refs, const char *node_type)
{
	const char *name = reference_name(node_type);

	if (strcmp(name, "sequential") == 0)
		return refs->sequential;
	if (strcmp(name, "random_at_depth") == 0)
		return refs->random_at_depth;
	return refs->random;
}

/* The largest of the storage's device rates (page_cache is not one). */
static double
device_max(const SbScanReferences *refs)
{
	double		m = NAN;

	if (refs->sequential > 0)
		m = refs->sequential;
	if (refs->random > 0 && !(m >= refs->random))
		m = refs->random;
	if (refs->random_at_depth > 0 && !(m >= refs->random_at_depth))
		m = refs->random_at_depth;
	return m;
}

/*
 * A node's reads against its reference, and its verdict where it read a
 * block from outside shared_buffers.  It read one page at a time when the
 * server says it kept about one read in flight, or, where the server does
 * not say, when it is an index scan.
 */
void
sb_planscan_judge(const SbScanNode *s, const SbScanReferences *refs,
				  SbScanJudged *j)
{
	double		bytes = (double) s->blocks_read * BLCKSZ;
	bool		one_at_a_time;

	j->reference = reference_name(s->node_type);
	j->reference_mb_s = reference_mb_s(refs, s->node_type);
	/* No rate at depth recorded: a bitmap heap scan reads one at a time. */
	if (strcmp(j->reference, "random_at_depth") == 0 && isnan(j->reference_mb_s))
	{
		j->reference = "random";
		j->reference_mb_s = refs->random;
	}
	j->read_mb_s = NAN;
	j->read_wait_pct = NAN;
	if (s->blocks_read > 0 && s->read_wait_s > 0)
		j->read_mb_s = bytes / s->read_wait_s / 1e6;
	if (s->node_s > 0)
		j->read_wait_pct = 100 * s->read_wait_s / s->node_s;
	j->verdict.n = 0;
	if (s->blocks_read == 0)
		return;

	one_at_a_time = !isnan(s->in_flight) ? s->in_flight <= 1.5 :
		(strcmp(s->node_type, "Index Scan") == 0 ||
		 strcmp(s->node_type, "Index Only Scan") == 0);
	sb_judge_scan_node(s->cold, j->read_wait_pct, j->read_mb_s,
					   device_max(refs), refs->random_at_depth,
					   one_at_a_time, s->cached_pct,
					   s->read_wait_s > 0 ? s->blocks_read / s->read_wait_s : NAN,
					   s->limit_rate, &j->verdict);
}

/* ---- Cold: the plan's relations evicted ---- */

/* A relation evicted, and what stayed of it. */
typedef struct SbEvicted
{
	Oid			relid;
	uint64		blocks;
	uint64		resident;
	double		limit_rate;
} SbEvicted;

static List *
evict_target(List *evicted, Oid relid, SbTargetKind kind)
{
	SbTarget   *target;
	SbResidency res;
	SbEvicted  *e;
	ListCell   *lc;

	foreach(lc, evicted)
		if (((SbEvicted *) lfirst(lc))->relid == relid)
			return evicted;
	target = sb_target_open(relid, kind);
	sb_evict_buffers(target);
	sb_evict_page_cache(target);
	sb_residency(target, &res);
	e = palloc0(sizeof(SbEvicted));
	e->relid = relid;
	e->blocks = res.blocks;
	e->resident = res.any_blocks;
	e->limit_rate = target->nsegments > 0 ?
		sb_cgroup_path_read_rate(target->segments[0]->path, BLCKSZ) : HUGE_VAL;
	sb_target_close(target);
	return lappend(evicted, e);
}

/*
 * Plan the query as the caller (search_path, rights), check the plan once
 * more, and evict every table it reads, with its indexes and TOAST.
 */
static List *
evict_plan_relations(const char *query)
{
	RawStmt    *raw = linitial_node(RawStmt, pg_parse_query(query));
	List	   *rewritten = QueryRewrite(sb_parse_analyze(raw, query));
	List	   *evicted = NIL;
	ListCell   *lc;

	foreach(lc, rewritten)
	{
		Query	   *q = lfirst_node(Query, lc);
		PlannedStmt *plan;
		ListCell   *rc;

		if (q->commandType != CMD_SELECT || q->utilityStmt != NULL)
			refuse_write("a query that rules rewrite into a write", NULL);
		plan = sb_plan_query(q, query, CURSOR_OPT_PARALLEL_OK, NULL);
		if (plan->hasModifyingCTE || plan->rowMarks != NIL)
			refuse_write("a query whose plan writes or locks rows",
						 "A view it reads may lock rows (FOR UPDATE) or a rule write.");
		foreach(rc, plan->rtable)
		{
			RangeTblEntry *rte = lfirst_node(RangeTblEntry, rc);
			Relation	rel;
			List	   *indexes;
			ListCell   *ic;
			Oid			toast;

			CHECK_FOR_INTERRUPTS();
			if (rte->rtekind != RTE_RELATION ||
				(rte->relkind != RELKIND_RELATION && rte->relkind != RELKIND_MATVIEW))
				continue;
			evicted = evict_target(evicted, rte->relid, SB_TARGET_FILES);
			rel = relation_open(rte->relid, AccessShareLock);
			indexes = RelationGetIndexList(rel);
			toast = rel->rd_rel->reltoastrelid;
			relation_close(rel, NoLock);
			foreach(ic, indexes)
				evicted = evict_target(evicted, lfirst_oid(ic), SB_TARGET_INDEX);
			if (OidIsValid(toast))
			{
				Relation	t = relation_open(toast, AccessShareLock);

				indexes = RelationGetIndexList(t);
				relation_close(t, NoLock);
				evicted = evict_target(evicted, toast, SB_TARGET_TOAST);
				foreach(ic, indexes)
					evicted = evict_target(evicted, lfirst_oid(ic), SB_TARGET_TOAST);
			}
		}
	}
	return evicted;
}

static SbEvicted *
find_evicted(List *evicted, Oid relid)
{
	ListCell   *lc;

	foreach(lc, evicted)
		if (((SbEvicted *) lfirst(lc))->relid == relid)
			return (SbEvicted *) lfirst(lc);
	return NULL;
}

/* ---- EXPLAIN's JSON ---- */

static bool
jget(JsonbContainer *c, const char *key, JsonbValue *v)
{
	return getKeyJsonValueFromContainer(c, key, strlen(key), v) != NULL;
}

/* A number of the node, 0 where it has none. */
static double
jnum(JsonbContainer *c, const char *key)
{
	JsonbValue	v;

	if (key == NULL || !jget(c, key, &v) || v.type != jbvNumeric)
		return 0;
	return DatumGetFloat8(DirectFunctionCall1(numeric_float8,
											  NumericGetDatum(v.val.numeric)));
}

static char *
jstr(JsonbContainer *c, const char *key)
{
	JsonbValue	v;

	if (!jget(c, key, &v) || v.type != jbvString)
		return NULL;
	return pnstrdup(v.val.string.val, v.val.string.len);
}

/* The children of a node ("Plans"), or NULL. */
static JsonbContainer *
jplans(JsonbContainer *c)
{
	JsonbValue	v;

	if (!jget(c, "Plans", &v) || v.type != jbvBinary)
		return NULL;
	return v.val.binary.data;
}

static JsonbContainer *
jchild(JsonbContainer *plans, int i)
{
	JsonbValue *v = getIthJsonbValueFromContainer(plans, i);

	if (v == NULL || v->type != jbvBinary)
		elog(ERROR, "EXPLAIN gave a plan node that is not an object");
	return v->val.binary.data;
}

/* The figures of a node that add up over its children. */
typedef struct SbFigures
{
	double		read;
	double		hit;
	double		read_ms;
	double		total_ms;
} SbFigures;

static void
figures(JsonbContainer *node, SbFigures *f)
{
	static const char *const read_time_keys[] = SB_EXPLAIN_READ_TIME_KEYS;
	int			i;

	f->read = jnum(node, "Shared Read Blocks") + jnum(node, "Local Read Blocks");
	f->hit = jnum(node, "Shared Hit Blocks") + jnum(node, "Local Hit Blocks");
	f->read_ms = 0;
	for (i = 0; i < lengthof(read_time_keys); i++)
		f->read_ms += jnum(node, read_time_keys[i]);
	f->total_ms = jnum(node, "Actual Total Time") * jnum(node, "Actual Loops");
}

static bool
is_scan(const char *type)
{
	return type != NULL &&
		(strcmp(type, "Seq Scan") == 0 || strcmp(type, "Index Scan") == 0 ||
		 strcmp(type, "Index Only Scan") == 0 || strcmp(type, "Bitmap Heap Scan") == 0);
}

/*
 * The one index a bitmap heap scan's bitmap was built from (through
 * BitmapAnd and BitmapOr), or NULL where there are several.
 */
static char *
bitmap_index(JsonbContainer *node, int *n)
{
	JsonbContainer *plans = jplans(node);
	char	   *found = NULL;
	int			i;

	if (plans == NULL)
		return NULL;
	for (i = 0; i < JsonContainerSize(plans); i++)
	{
		JsonbContainer *c = jchild(plans, i);
		char	   *type = jstr(c, "Node Type");
		char	   *name;

		if (type == NULL)
			continue;
		if (strcmp(type, "Bitmap Index Scan") == 0)
		{
			(*n)++;
			found = jstr(c, "Index Name");
		}
		else if (strcmp(type, "BitmapAnd") == 0 || strcmp(type, "BitmapOr") == 0)
		{
			name = bitmap_index(c, n);
			if (name != NULL)
				found = name;
		}
	}
	return *n == 1 ? found : NULL;
}

typedef struct SbWalk
{
	bool		cold;
	int			counter;
	List	   *evicted;
	List	   *nodes;
} SbWalk;

static void
walk_plan(JsonbContainer *node, SbWalk *w)
{
	int			id = ++w->counter;
	char	   *type = jstr(node, "Node Type");
	JsonbContainer *plans = jplans(node);
	int			nplans = plans ? JsonContainerSize(plans) : 0;
	int			i;

	CHECK_FOR_INTERRUPTS();
	check_stack_depth();
	if (is_scan(type))
	{
		SbScanNode *s = palloc0(sizeof(SbScanNode));
		SbFigures	own;
		char	   *schema = jstr(node, "Schema");
		char	   *relname = jstr(node, "Relation Name");
		char	   *idxname = NULL;
		Oid			nsp = schema ? get_namespace_oid(schema, true) : InvalidOid;
		const char *in_flight_key = SB_EXPLAIN_IN_FLIGHT_KEY;
		SbEvicted  *er;
		SbEvicted  *ei;

		figures(node, &own);
		for (i = 0; i < nplans; i++)
		{
			SbFigures	kid;

			figures(jchild(plans, i), &kid);
			own.read -= kid.read;
			own.hit -= kid.hit;
			own.read_ms -= kid.read_ms;
			own.total_ms -= kid.total_ms;
		}
		s->cold = w->cold;
		s->node = id;
		s->node_type = type;
		s->alias = jstr(node, "Alias");
		s->relid = (OidIsValid(nsp) && relname) ? get_relname_relid(relname, nsp) : InvalidOid;
		if (strcmp(type, "Bitmap Heap Scan") == 0)
		{
			int			n = 0;

			idxname = bitmap_index(node, &n);
		}
		else
			idxname = jstr(node, "Index Name");
		s->indexid = (OidIsValid(nsp) && idxname) ? get_relname_relid(idxname, nsp) : InvalidOid;
		s->loops = (int64) jnum(node, "Actual Loops");
		s->rows = (int64) llround(jnum(node, "Actual Rows") * s->loops);
		s->blocks_read = (int64) Max(own.read, 0);
		s->blocks_hit = (int64) Max(own.hit, 0);
		s->read_wait_s = Max(own.read_ms, 0) / 1000.0;
		s->node_s = Max(own.total_ms, 0) / 1000.0;
		/* no read of its own, or a server that does not say: none */
		s->in_flight = jnum(node, SB_EXPLAIN_IO_COUNT_KEY) > 0 ?
			jnum(node, in_flight_key) : NAN;
		s->cached_pct = NAN;
		s->limit_rate = HUGE_VAL;
		er = OidIsValid(s->relid) ? find_evicted(w->evicted, s->relid) : NULL;
		ei = OidIsValid(s->indexid) ? find_evicted(w->evicted, s->indexid) : NULL;
		if (w->cold && er != NULL)
		{
			uint64		blocks = er->blocks + (ei ? ei->blocks : 0);
			uint64		resident = er->resident + (ei ? ei->resident : 0);

			s->cached_pct = sb_pct(resident, blocks);
		}
		if (er != NULL)
			s->limit_rate = er->limit_rate;
		w->nodes = lappend(w->nodes, s);
	}
	for (i = 0; i < nplans; i++)
		walk_plan(jchild(plans, i), w);
}

static List *
read_plan(const char *json, bool cold, List *evicted, List *nodes)
{
	Jsonb	   *jb = DatumGetJsonbP(DirectFunctionCall1(jsonb_in, CStringGetDatum(json)));
	JsonbContainer *top = &jb->root;
	JsonbContainer *plan;
	JsonbValue	v;
	SbWalk		w;

	if (!JsonContainerIsArray(top) || JsonContainerSize(top) != 1)
		elog(ERROR, "EXPLAIN gave no plan");
	plan = jchild(top, 0);
	if (!jget(plan, "Plan", &v) || v.type != jbvBinary)
		elog(ERROR, "EXPLAIN gave no plan");
	w.cold = cold;
	w.counter = 0;
	w.evicted = evicted;
	w.nodes = nodes;
	walk_plan(v.val.binary.data, &w);
	return w.nodes;
}

/* ---- The runs ---- */

static void
run_context(void *arg)
{
	errcontext("workload_scans, %s run of the query", (const char *) arg);
}

static char *
explain(const char *sql, MemoryContext keep)
{
	char	   *json;

	if (SPI_execute(sql, false, 0) != SPI_OK_UTILITY ||
		SPI_tuptable == NULL || SPI_processed != 1)
		elog(ERROR, "EXPLAIN of the query gave no plan");
	json = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1);
	if (json == NULL)
		elog(ERROR, "EXPLAIN of the query gave no plan");
	return MemoryContextStrdup(keep, json);
}

/*
 * One run in a subtransaction rolled back at its end; prime: run it once
 * first, untimed (warm alone).
 */
static List *
run_once(const char *query, bool cold, bool prime, List *nodes)
{
	MemoryContext outer = CurrentMemoryContext;
	ResourceOwner owner = CurrentResourceOwner;
	ErrorContextCallback errcallback;
	char	   *sql = psprintf("EXPLAIN (%s) %s", SB_EXPLAIN_OPTIONS, query);
	char	   *volatile json = NULL;
	List	   *volatile evicted = NIL;

	errcallback.callback = run_context;
	errcallback.arg = (void *) (cold ? "the cold" : "the warm");
	errcallback.previous = error_context_stack;
	error_context_stack = &errcallback;

	BeginInternalSubTransaction(NULL);
	MemoryContextSwitchTo(outer);
	PG_TRY();
	{
		(void) set_config_option("transaction_read_only", "on", PGC_USERSET,
								 PGC_S_SESSION, GUC_ACTION_LOCAL, true, 0, false);
		(void) set_config_option("track_io_timing", "on", PGC_SUSET,
								 PGC_S_SESSION, GUC_ACTION_LOCAL, true, 0, false);
		if (cold)
			evicted = evict_plan_relations(query);
		if (SPI_connect() != SPI_OK_CONNECT)
			elog(ERROR, "SPI_connect failed");
		if (prime)
			(void) explain(sql, outer);
		json = explain(sql, outer);
		SPI_finish();
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		/*
		 * An internal subtransaction left aborted would leave the caller's
		 * session in a failed transaction block: roll it back here, then
		 * raise the query's error as it was.
		 */
		error_context_stack = errcallback.previous;
		MemoryContextSwitchTo(outer);
		edata = CopyErrorData();
		FlushErrorState();
		RollbackAndReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(outer);
		CurrentResourceOwner = owner;
		ReThrowError(edata);
	}
	PG_END_TRY();
	RollbackAndReleaseCurrentSubTransaction();
	MemoryContextSwitchTo(outer);
	CurrentResourceOwner = owner;

	error_context_stack = errcallback.previous;
	return read_plan(json, cold, evicted, nodes);
}

/* The query's scan nodes, cold then warm as asked: a list of SbScanNode. */
List *
sb_planscan_run(const char *query, bool cold, bool warm)
{
	List	   *nodes = NIL;

	if (cold)
		nodes = run_once(query, true, false, nodes);
	if (warm)
		nodes = run_once(query, false, !cold, nodes);
	return nodes;
}
