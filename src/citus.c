/*-------------------------------------------------------------------------
 *
 * citus.c
 *	  Citus tables, measured where their rows live: on a coordinator, a
 *	  distributed table's own files are an empty (or stale) shell, and its
 *	  data sits in shard placements on the nodes.
 *
 * scanbench does not link to Citus and must keep working where it is
 * absent: a table is recognised by a row in pg_catalog.pg_dist_partition,
 * looked up by name, and the nodes are driven through Citus' own
 * run_command_on_all_nodes(), which runs one command on every node at the
 * same time, each in its own connection.  The command is the same for all
 * nodes; it carries the list of (group, shard) placements and each node
 * keeps those of its own group (pg_dist_local_group), so the shards of one
 * node are measured one after another by scan_efficiency_node() while the
 * nodes work at the same time.
 *
 * scan_efficiency() on such a table gives the cluster's figure: the raw
 * read rate of all nodes together (the bytes of every placement over the
 * slowest node's time to read its own, the nodes reading at once) against
 * the rate of count(1) through the coordinator, pairs alternating as on
 * one server.  scan_efficiency_shards() gives one row per placement and
 * one per node.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/htup_details.h"
#include "catalog/namespace.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "storage/lmgr.h"
#include "utils/acl.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/timestamp.h"

#include "measure.h"

PG_FUNCTION_INFO_V1(scan_efficiency_shards);
PG_FUNCTION_INFO_V1(scan_efficiency_node);

/* Pairs a cluster figure takes at most when it samples to a target. */
#define SB_CITUS_MAX_PAIRS	100

/* Above this share resident before a cold pass, the figure is RAM's. */
#define SB_CACHED_LIMIT_PCT 5.0

/* As on one server: a 95 % interval, judged against +-5 % by default. */
#define SB_CITUS_CONFIDENCE	0.95
#define SB_CITUS_TARGET		5.0

/* One shard placement, and what was measured of it, pair by pair. */
typedef struct SbPlacement
{
	int64		shardid;
	char	   *shard;			/* qualified name of the placement's table */
	int32		groupid;
	int32		nodeid;
	char	   *node;			/* host:port */
	int64		bytes;
	int64		rows;
	double	   *read_s;			/* per pair */
	double	   *scan_s;
	double		read_cached;	/* the highest over pairs */
	double		scan_cached;
} SbPlacement;

/* A node holding placements, with its per-pair times. */
typedef struct SbNode
{
	int32		nodeid;
	char	   *node;
	double	   *read_s;			/* per pair: its placements' seconds, summed */
	double	   *scan_s;
} SbNode;

typedef struct SbCitusTable
{
	Oid			relid;
	char	   *relname;
	char		kind;			/* SB_CITUS_* */
	int			nshards;
	int			nplacements;
	SbPlacement *placements;
	int			nnodes;
	SbNode	   *nodes;
	char	   *schema;			/* where scanbench lives (quoted) */
} SbCitusTable;

#define SB_CITUS_DISTRIBUTED	'd'
#define SB_CITUS_REFERENCE		'r'
#define SB_CITUS_LOCAL			'l'

/* What one node answered for one placement in one step. */
typedef struct SbStepRow
{
	int32		nodeid;
	int64		shardid;
	int64		bytes;
	int64		rows;
	double		seconds;
	double		cached_pct;
	double		node_s;
} SbStepRow;

/* ---- recognising a Citus table ---- */

/*
 * Whether relid is a Citus table, without linking to Citus: the catalog
 * is looked up by name first, so a server without Citus pays one syscache
 * probe.  Fills *kind with SB_CITUS_* when it is.
 */
static bool
citus_table_kind(Oid relid, char *kind)
{
	Oid			argtypes[1] = {OIDOID};
	Datum		args[1];
	bool		found = false;

	if (!OidIsValid(get_relname_relid("pg_dist_partition", PG_CATALOG_NAMESPACE)))
		return false;

	args[0] = ObjectIdGetDatum(relid);
	SPI_connect();
	if (SPI_execute_with_args("SELECT partmethod::text, repmodel::text "
							  "FROM pg_catalog.pg_dist_partition WHERE logicalrelid = $1",
							  1, argtypes, args, NULL, true, 1) != SPI_OK_SELECT)
		elog(ERROR, "could not read pg_dist_partition");
	if (SPI_processed == 1)
	{
		char	   *partmethod = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1);
		char	   *repmodel = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 2);

		found = true;
		if (partmethod[0] != 'n')
			*kind = SB_CITUS_DISTRIBUTED;
		else if (repmodel[0] == 't')
			*kind = SB_CITUS_REFERENCE;
		else
			*kind = SB_CITUS_LOCAL;
	}
	SPI_finish();
	return found;
}

bool
sb_citus_table(Oid relid)
{
	char		kind;

	return citus_table_kind(relid, &kind);
}

/*
 * raw_read, raw_read_segments and scan_rate measure one server's files:
 * on a Citus table those are the shell's, empty or stale, so refuse.
 */
void
sb_citus_refuse(Oid relid, const char *function)
{
	char		kind;
	char	   *relname;

	if (!citus_table_kind(relid, &kind))
		return;
	relname = get_rel_name(relid);
	ereport(ERROR,
			(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			 errmsg("%s() cannot measure \"%s\": it is a Citus %s table",
					function, relname,
					kind == SB_CITUS_REFERENCE ? "reference" :
					kind == SB_CITUS_LOCAL ? "local" : "distributed"),
			 errdetail("Its rows live in shard placements; the files of \"%s\" on this node are the table's shell and may be empty or stale.",
					   relname),
			 errhint("Use scan_efficiency('%s') for the cluster's figure, or scan_efficiency_shards('%s') for each placement.",
					 relname, relname)));
}

/* ---- the table's placements, from the coordinator's metadata ---- */

static char *
spi_text(int row, int col)
{
	return SPI_getvalue(SPI_tuptable->vals[row], SPI_tuptable->tupdesc, col);
}

static int64
spi_int64(int row, int col)
{
	char	   *s = spi_text(row, col);

	return s ? strtoi64(s, NULL, 10) : 0;
}

/*
 * Open a Citus table for measuring: checks that apply to the whole table,
 * then its placements in (group, shard) order.  Runs inside SPI; what it
 * returns is allocated in 'outer'.
 */
static SbCitusTable *
citus_table_open(Oid relid, char kind, Oid funcid, MemoryContext outer)
{
	Oid			argtypes[1] = {OIDOID};
	Datum		args[1];
	SbCitusTable *ct;
	MemoryContext old;
	char	   *amname;
	AclResult	aclresult;
	int			i;

	aclresult = pg_class_aclcheck(relid, GetUserId(), ACL_SELECT);
	if (aclresult != ACLCHECK_OK)
		aclcheck_error(aclresult, OBJECT_TABLE, get_rel_name(relid));
	/* Kept to the end of the transaction: no DROP or shard move under us. */
	LockRelationOid(relid, AccessShareLock);

	args[0] = ObjectIdGetDatum(relid);
	if (SPI_execute_with_args("SELECT a.amname::text FROM pg_catalog.pg_class c "
							  "LEFT JOIN pg_catalog.pg_am a ON a.oid = c.relam WHERE c.oid = $1",
							  1, argtypes, args, NULL, true, 1) != SPI_OK_SELECT ||
		SPI_processed != 1)
		elog(ERROR, "could not read the access method of relation %u", relid);
	amname = spi_text(0, 1);
	if (amname != NULL && strcmp(amname, "heap") != 0)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("cannot measure \"%s\": tables with the %s access method are not supported",
						get_rel_name(relid), amname),
				 errdetail("scanbench reads heap files; a %s table stores its data in another layout.",
						   amname)));

	if (SPI_execute_with_args("SELECT s.shardid, pg_catalog.shard_name(s.logicalrelid, s.shardid), "
							  "       p.groupid, n.nodeid, n.nodename || ':' || n.nodeport "
							  "FROM pg_catalog.pg_dist_shard s "
							  "JOIN pg_catalog.pg_dist_placement p ON p.shardid = s.shardid "
							  "LEFT JOIN pg_catalog.pg_dist_node n "
							  "       ON n.groupid = p.groupid AND n.noderole = 'primary' "
							  "WHERE s.logicalrelid = $1 "
							  "ORDER BY p.groupid, s.shardid",
							  1, argtypes, args, NULL, true, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not read the placements of relation %u", relid);

	old = MemoryContextSwitchTo(outer);
	ct = palloc0(sizeof(SbCitusTable));
	ct->relid = relid;
	ct->relname = get_rel_name(relid);
	ct->kind = kind;
	ct->schema = pstrdup(quote_identifier(get_namespace_name(get_func_namespace(funcid))));
	ct->nplacements = SPI_processed;
	ct->placements = palloc0(sizeof(SbPlacement) * Max(ct->nplacements, 1));
	ct->nodes = palloc0(sizeof(SbNode) * Max(ct->nplacements, 1));
	for (i = 0; i < ct->nplacements; i++)
	{
		SbPlacement *p = &ct->placements[i];
		char	   *node = spi_text(i, 5);

		p->shardid = spi_int64(i, 1);
		p->shard = pstrdup(spi_text(i, 2));
		p->groupid = (int32) spi_int64(i, 3);
		p->nodeid = (int32) spi_int64(i, 4);
		if (node == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
					 errmsg("shard %lld of \"%s\" is placed in group %d, which has no primary node",
							(long long) p->shardid, ct->relname, p->groupid)));
		p->node = pstrdup(node);
		p->read_cached = p->scan_cached = NAN;
		if (ct->nnodes == 0 || ct->nodes[ct->nnodes - 1].nodeid != p->nodeid)
		{
			ct->nodes[ct->nnodes].nodeid = p->nodeid;
			ct->nodes[ct->nnodes].node = p->node;
			ct->nnodes++;
		}
	}
	MemoryContextSwitchTo(old);

	if (SPI_execute_with_args("SELECT count(*) FROM pg_catalog.pg_dist_shard WHERE logicalrelid = $1",
							  1, argtypes, args, NULL, true, 1) != SPI_OK_SELECT)
		elog(ERROR, "could not count the shards of relation %u", relid);
	ct->nshards = (int) spi_int64(0, 1);

	return ct;
}

static void
citus_alloc_pairs(SbCitusTable *ct, int maxpairs, MemoryContext outer)
{
	MemoryContext old = MemoryContextSwitchTo(outer);
	int			i;

	for (i = 0; i < ct->nplacements; i++)
	{
		ct->placements[i].read_s = palloc0(sizeof(double) * maxpairs);
		ct->placements[i].scan_s = palloc0(sizeof(double) * maxpairs);
	}
	for (i = 0; i < ct->nnodes; i++)
	{
		ct->nodes[i].read_s = palloc0(sizeof(double) * maxpairs);
		ct->nodes[i].scan_s = palloc0(sizeof(double) * maxpairs);
	}
	MemoryContextSwitchTo(old);
}

/* ---- one step on every node at once ---- */

/*
 * Run scan_efficiency_node(step, ...) on every node at the same time,
 * each node on the placements of its own group, and return what they
 * answered, one SbStepRow per placement, in placement order.  A node that
 * fails fails the call with its message.
 */
static SbStepRow *
citus_run_step(SbCitusTable *ct, const char *step, SbCacheMode cache,
			   int block_size)
{
	StringInfoData cmd;
	Oid			argtypes[1] = {TEXTOID};
	Datum		args[1];
	SbStepRow  *out;
	int			nanswers;
	char	  **results;
	int32	   *nodeids;
	int			i,
				j;

	initStringInfo(&cmd);
	appendStringInfo(&cmd,
					 "SELECT %s.scan_efficiency_node(%s, %s, %d, "
					 "coalesce(array_agg(s.shardid ORDER BY s.ord), '{}'), "
					 "coalesce(array_agg(s.shard ORDER BY s.ord), '{}')) "
					 "FROM (VALUES ",
					 ct->schema, quote_literal_cstr(step),
					 quote_literal_cstr(sb_cache_name(cache)), block_size);
	for (i = 0; i < ct->nplacements; i++)
		appendStringInfo(&cmd, "%s(%d, %d, %lld::bigint, %s)", i ? ", " : "",
						 ct->placements[i].groupid, i,
						 (long long) ct->placements[i].shardid,
						 quote_literal_cstr(ct->placements[i].shard));
	appendStringInfoString(&cmd,
						   ") s(groupid, ord, shardid, shard) "
						   "WHERE s.groupid = (SELECT groupid FROM pg_catalog.pg_dist_local_group)");

	args[0] = CStringGetTextDatum(cmd.data);
	if (SPI_execute_with_args("SELECT nodeid, success, result "
							  "FROM pg_catalog.run_command_on_all_nodes($1)",
							  1, argtypes, args, NULL, false, 0) != SPI_OK_SELECT)
		elog(ERROR, "run_command_on_all_nodes() did not return rows");

	/* Copied out: the parsing below runs SPI queries of its own. */
	nanswers = SPI_processed;
	results = palloc0(sizeof(char *) * Max(nanswers, 1));
	nodeids = palloc0(sizeof(int32) * Max(nanswers, 1));
	for (i = 0; i < nanswers; i++)
	{
		char	   *success = spi_text(i, 2);
		char	   *result = spi_text(i, 3);

		nodeids[i] = (int32) spi_int64(i, 1);
		if (success == NULL || strcmp(success, "t") != 0)
			ereport(ERROR,
					(errcode(ERRCODE_CONNECTION_FAILURE),
					 errmsg("measuring the placements of \"%s\" failed on node %d",
							ct->relname, nodeids[i]),
					 errdetail("%s", result ? result : "no message"),
					 errhint("scanbench must be installed on every node: CREATE EXTENSION scanbench on the coordinator creates it on the workers too.")));
		results[i] = pstrdup(result ? result : "[]");
	}

	out = palloc0(sizeof(SbStepRow) * Max(ct->nplacements, 1));
	for (i = 0; i < ct->nplacements; i++)
		out[i].nodeid = -1;
	for (i = 0; i < nanswers; i++)
	{
		args[0] = CStringGetTextDatum(results[i]);
		if (SPI_execute_with_args("SELECT shardid, bytes, rows, seconds, cached_pct, node_s "
								  "FROM jsonb_to_recordset($1::jsonb) AS x(shardid bigint, "
								  "bytes bigint, rows bigint, seconds float8, "
								  "cached_pct float8, node_s float8)",
								  1, argtypes, args, NULL, true, 0) != SPI_OK_SELECT)
			elog(ERROR, "could not read a node's measurements");
		for (j = 0; j < (int) SPI_processed; j++)
		{
			int64		shardid = spi_int64(j, 1);
			char	   *v;
			int			k;

			for (k = 0; k < ct->nplacements; k++)
				if (ct->placements[k].shardid == shardid &&
					ct->placements[k].nodeid == nodeids[i])
					break;
			if (k == ct->nplacements)
				continue;
			out[k].nodeid = nodeids[i];
			out[k].shardid = shardid;
			out[k].bytes = spi_int64(j, 2);
			out[k].rows = spi_int64(j, 3);
			v = spi_text(j, 4);
			out[k].seconds = v ? strtod(v, NULL) : NAN;
			v = spi_text(j, 5);
			out[k].cached_pct = v ? strtod(v, NULL) : NAN;
			v = spi_text(j, 6);
			out[k].node_s = v ? strtod(v, NULL) : NAN;
		}
	}
	for (i = 0; i < ct->nplacements; i++)
		if (out[i].nodeid < 0)
			ereport(ERROR,
					(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
					 errmsg("node %s did not measure placement %s of \"%s\"",
							ct->placements[i].node, ct->placements[i].shard,
							ct->relname),
					 errhint("The node must be an active primary in pg_dist_node.")));
	return out;
}

/* The bytes-weighted share of the placements resident before a step. */
static double
step_cached_pct(SbCitusTable *ct, SbStepRow *rows)
{
	double		cached = 0;
	int64		bytes = 0;
	int			i;

	for (i = 0; i < ct->nplacements; i++)
	{
		if (isnan(rows[i].cached_pct))
			continue;
		cached += rows[i].cached_pct * rows[i].bytes;
		bytes += rows[i].bytes;
	}
	return bytes > 0 ? cached / bytes : NAN;
}

/* The slowest node's time: the nodes started together. */
static double
step_wall_s(SbCitusTable *ct, SbStepRow *rows)
{
	double		wall = 0;
	int			i;

	for (i = 0; i < ct->nplacements; i++)
		if (!isnan(rows[i].node_s) && rows[i].node_s > wall)
			wall = rows[i].node_s;
	return wall;
}

static void
store_step(SbCitusTable *ct, SbStepRow *rows, bool is_read, int pair)
{
	int			i,
				n;

	for (i = 0; i < ct->nplacements; i++)
	{
		SbPlacement *p = &ct->placements[i];

		if (is_read)
		{
			p->bytes = rows[i].bytes;
			p->read_s[pair] = rows[i].seconds;
			p->read_cached = sb_max((double[]) {p->read_cached, rows[i].cached_pct}, 2);
		}
		else
		{
			p->rows = rows[i].rows;
			p->scan_s[pair] = rows[i].seconds;
			p->scan_cached = sb_max((double[]) {p->scan_cached, rows[i].cached_pct}, 2);
		}
		/*
		 * A node's time is the sum of its placements' timed passes, so that
		 * its rate weighs its placements by their bytes and leaves out the
		 * per-placement set-up (opening, planning, residency checks).
		 */
		for (n = 0; n < ct->nnodes; n++)
			if (ct->nodes[n].nodeid == p->nodeid)
			{
				if (is_read)
					ct->nodes[n].read_s[pair] += rows[i].seconds;
				else
					ct->nodes[n].scan_s[pair] += rows[i].seconds;
			}
	}
}

/* ---- the verdict, as on one server ---- */

/*
 * The interval of the median of n pair ratios, and the median, from a
 * sorted copy (the caller's order is kept).
 */
static double
ratio_figures(const double *ratio, int n, double *lo, double *hi,
			  double *p10, double *p90)
{
	double	   *v = palloc(sizeof(double) * Max(n, 1));
	double		median;

	memcpy(v, ratio, sizeof(double) * n);
	sb_sort(v, n);
	median = sb_quantile(v, n, 0.5);
	(void) sb_median_ci(v, n, SB_CITUS_CONFIDENCE, lo, hi);
	if (p10)
		*p10 = sb_quantile(v, n, 0.1);
	if (p90)
		*p90 = sb_quantile(v, n, 0.9);
	pfree(v);
	return median;
}

/*
 * The verdict, with the single-server figure's words: unstable when the
 * interval is missing (under 6 pairs) or wider than the target, cached
 * when a cold pass found more than 5 % resident, storage_not_limiting
 * when count(1) outran the raw read.  host_cache needs O_DIRECT reads of
 * every placement, which the cluster figure does not take.  With 'what'
 * set, one NOTICE or WARNING per problem.
 */
static char *
verdict_of(SbCacheMode cache, double cached_pct, double median, double lo,
		   double hi, int pairs, double target_pct, const char *what)
{
	double		limit = target_pct > 0 ? target_pct : SB_CITUS_TARGET;
	double		halfwidth = sb_halfwidth_pct(median, lo, hi);
	StringInfoData v;

	if (isnan(median))
		return NULL;
	initStringInfo(&v);
	if (isnan(halfwidth) || halfwidth > limit)
	{
		appendStringInfoString(&v, ",unstable");
		if (what && isnan(halfwidth))
			ereport(NOTICE,
					(errmsg("the cluster figure of \"%s\" is unstable: %d pair%s too few for a 95 %% confidence interval",
							what, pairs, pairs == 1 ? " is" : "s are"),
					 errhint("Use runs => 6 or more, or allow more time (max_seconds).")));
		else if (what)
			ereport(NOTICE,
					(errmsg("the cluster figure of \"%s\" is unstable: its 95 %% confidence interval is %.1f to %.1f, +-%.1f %% of the median after %d pairs, wider than +-%g %%",
							what, lo, hi, halfwidth, pairs, limit),
					 errhint("Allow more time (max_seconds), or measure when the nodes are quieter.")));
	}
	if (cache == SB_CACHE_COLD && !isnan(cached_pct) && cached_pct > SB_CACHED_LIMIT_PCT)
	{
		appendStringInfoString(&v, ",cached");
		if (what)
			ereport(WARNING,
					(errmsg("cold measurement of \"%s\" found %.1f %% of the placements' blocks still cached after eviction",
							what, cached_pct),
					 errdetail("Part of the figure comes from memory, not from the nodes' storage."),
					 errhint("Another process on a node may hold the placements' files mapped or locked in memory.")));
	}
	if (median > 100)
	{
		appendStringInfoString(&v, ",storage_not_limiting");
		if (what)
			ereport(NOTICE,
					(errmsg("storage is not what limits count(1) on \"%s\": it ran at %.1f %% of the nodes' raw read rate",
							what, median),
					 errdetail("The figure then measures the executors' CPU cost and the coordinator, not how much of the disks' speed the query gets."),
					 errhint(cache == SB_CACHE_WARM ? "This is expected with cache => 'warm'." :
							 "Expected when reads come from memory or fast storage.")));
	}
	return v.len == 0 ? "ok" : v.data + 1;
}

/* ---- result rows, column by name ---- */

/*
 * scan_efficiency_result grows columns over releases: fill the ones this
 * file knows by name and leave the others NULL, so the cluster's row
 * keeps its meaning whatever the single-server figure adds.
 */
typedef struct SbNamedRow
{
	TupleDesc	tupdesc;
	Datum	   *values;
	bool	   *nulls;
} SbNamedRow;

static void
named_init(SbNamedRow *row, TupleDesc tupdesc)
{
	int			i;

	row->tupdesc = tupdesc;
	row->values = palloc0(sizeof(Datum) * tupdesc->natts);
	row->nulls = palloc(sizeof(bool) * tupdesc->natts);
	for (i = 0; i < tupdesc->natts; i++)
		row->nulls[i] = true;
}

static void
named_set(SbNamedRow *row, const char *name, Datum value)
{
	int			i;

	for (i = 0; i < row->tupdesc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(row->tupdesc, i);

		if (!att->attisdropped && strcmp(NameStr(att->attname), name) == 0)
		{
			row->values[i] = value;
			row->nulls[i] = false;
			return;
		}
	}
}

static void
named_float(SbNamedRow *row, const char *name, double v, int digits)
{
	if (!isnan(v))
		named_set(row, name, Float8GetDatum(sb_round(v, digits)));
}

/* ---- scan_efficiency on a Citus table: the cluster's figure ---- */

Datum
sb_citus_scan_efficiency(FunctionCallInfo fcinfo)
{
	Oid			relid = PG_GETARG_OID(0);
	SbCacheMode cache = sb_parse_cache(PG_GETARG_TEXT_PP(1), false);
	int32		block_size = PG_GETARG_INT32(2);
	int32		runs = PG_GETARG_INT32(3);
	double		max_seconds = 0;	/* 0: no budget, runs pairs */
	double		target_pct = 0;
	bool		adaptive = false;
	bool		record = false;
	MemoryContext outer = CurrentMemoryContext;
	TupleDesc	tupdesc;
	SbCitusTable *ct;
	char		kind;
	double	   *read_mb_s,
			   *scan_mb_s,
			   *ratio,
			   *read_s,
			   *scan_s;
	double		read_cached = NAN,
				scan_cached = NAN;
	double		lo,
				hi,
				p10,
				p90,
				med;
	int64		bytes = 0,
				rows = 0;
	int			maxpairs,
				pairs = 0;
	instr_time	begin,
				now;
	SbNamedRow	row;
	char	   *count_sql;
	char	   *verdict;
	Datum		result;
	MemoryContext old;

	sb_check_block_size(block_size);
	sb_check_runs(runs);

	/*
	 * scan_efficiency(rel, cache, block_size, runs, sample, max_seconds,
	 * target_pct, method, ..., record).  Method 'pairs' adds pairs of
	 * whole-cluster passes until the interval meets the target or the
	 * budget would be overrun; 'whole' takes runs pairs.  A sample of the
	 * cluster is not taken: every placement is read in every pass.
	 */
	if (PG_NARGS() >= 8)
	{
		double		sample = PG_GETARG_FLOAT8(4);

		max_seconds = PG_GETARG_FLOAT8(5);
		target_pct = PG_GETARG_FLOAT8(6);
		adaptive = (sb_parse_method(PG_GETARG_TEXT_PP(7)) == SB_METHOD_PAIRS);
		sb_check_sample(sample);
		sb_check_max_seconds(max_seconds);
		sb_check_target_pct(target_pct);
		if (sample < 1)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("sample is not supported for a Citus table"),
					 errdetail("The cluster figure reads every shard placement in each pass."),
					 errhint("Leave sample at 1; max_seconds bounds the call.")));
		if (PG_NARGS() >= 9)
			record = PG_GETARG_BOOL(PG_NARGS() - 1);
	}
	tupdesc = sb_result_tupdesc(fcinfo);

	SPI_connect();
	if (!citus_table_kind(relid, &kind))
		elog(ERROR, "relation %u is not a Citus table", relid);
	ct = citus_table_open(relid, kind, fcinfo->flinfo->fn_oid, outer);
	if (ct->kind == SB_CITUS_REFERENCE)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("the cluster figure of reference table \"%s\" is not supported", ct->relname),
				 errdetail("count(1) on a reference table reads one of its %d copies, the raw read all of them.",
						   ct->nplacements),
				 errhint("scan_efficiency_shards('%s') measures each copy on its node.", ct->relname)));
	if (ct->nplacements > ct->nshards)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("the cluster figure of \"%s\" is not supported: its shards have more than one placement",
						ct->relname),
				 errdetail("count(1) reads one placement of each shard, the raw read all of them."),
				 errhint("scan_efficiency_shards('%s') measures each placement on its node.", ct->relname)));

	maxpairs = adaptive ? Max(runs, SB_CITUS_MAX_PAIRS) : runs;
	citus_alloc_pairs(ct, maxpairs, outer);
	read_mb_s = palloc0(sizeof(double) * maxpairs);
	scan_mb_s = palloc0(sizeof(double) * maxpairs);
	ratio = palloc0(sizeof(double) * maxpairs);
	read_s = palloc0(sizeof(double) * maxpairs);
	scan_s = palloc0(sizeof(double) * maxpairs);
	count_sql = psprintf("SELECT count(1) FROM %s",
						 quote_qualified_identifier(get_namespace_name(get_rel_namespace(relid)),
													ct->relname));

	INSTR_TIME_SET_CURRENT(begin);
	while (pairs < maxpairs)
	{
		int			side;
		double		spent;

		for (side = 0; side < 2; side++)
		{
			/* Alternate which side goes first, so both see the same drift. */
			bool		do_read = ((side == 0) == (pairs % 2 == 0));

			CHECK_FOR_INTERRUPTS();
			if (do_read)
			{
				SbStepRow  *r = citus_run_step(ct, "read", cache, block_size);
				int			i;

				store_step(ct, r, true, pairs);
				bytes = 0;
				for (i = 0; i < ct->nplacements; i++)
					bytes += r[i].bytes;
				read_s[pairs] = step_wall_s(ct, r);
				read_cached = sb_max((double[]) {read_cached, step_cached_pct(ct, r)}, 2);
			}
			else
			{
				SbStepRow  *r = citus_run_step(ct, "prepare", cache, block_size);
				SbClock		clock;
				SbTiming	t;
				bool		isnull;

				scan_cached = sb_max((double[]) {scan_cached, step_cached_pct(ct, r)}, 2);
				if (cache == SB_CACHE_WARM &&
					SPI_execute(count_sql, true, 0) != SPI_OK_SELECT)
					elog(ERROR, "count(1) on \"%s\" failed", ct->relname);
				sb_clock_start(&clock);
				if (SPI_execute(count_sql, true, 0) != SPI_OK_SELECT || SPI_processed != 1)
					elog(ERROR, "count(1) on \"%s\" failed", ct->relname);
				sb_clock_stop(&clock, &t);
				rows = DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[0],
												   SPI_tuptable->tupdesc, 1, &isnull));
				scan_s[pairs] = t.seconds;
			}
		}
		read_mb_s[pairs] = sb_rate(bytes / SB_MB, read_s[pairs]);
		scan_mb_s[pairs] = sb_rate(bytes / SB_MB, scan_s[pairs]);
		ratio[pairs] = sb_rate(100.0 * scan_mb_s[pairs], read_mb_s[pairs]);
		pairs++;

		if (pairs < runs || !adaptive)
			continue;
		/* Stop at the target, or before the next pair overruns the budget. */
		INSTR_TIME_SET_CURRENT(now);
		INSTR_TIME_SUBTRACT(now, begin);
		spent = INSTR_TIME_GET_DOUBLE(now);
		if (spent + spent / pairs > max_seconds)
			break;
		med = ratio_figures(ratio, pairs, &lo, &hi, NULL, NULL);
		if (target_pct > 0 && sb_halfwidth_pct(med, lo, hi) <= target_pct)
			break;
	}
	INSTR_TIME_SET_CURRENT(now);
	INSTR_TIME_SUBTRACT(now, begin);

	med = ratio_figures(ratio, pairs, &lo, &hi, &p10, &p90);
	verdict = verdict_of(cache, sb_max((double[]) {read_cached, scan_cached}, 2),
						 med, lo, hi, pairs, target_pct, ct->relname);

	/* The row outlives SPI's memory, which SPI_finish() releases. */
	old = MemoryContextSwitchTo(outer);
	named_init(&row, tupdesc);
	named_set(&row, "relation", ObjectIdGetDatum(relid));
	named_set(&row, "bytes", Int64GetDatum(bytes));
	named_set(&row, "rows", Int64GetDatum(rows));
	named_set(&row, "cache", CStringGetTextDatum(sb_cache_name(cache)));
	named_set(&row, "block_size", Int32GetDatum(block_size));
	named_set(&row, "runs", Int32GetDatum(runs));
	named_float(&row, "read_mb_s", sb_median(read_mb_s, pairs), 1);
	named_float(&row, "scan_mb_s", sb_median(scan_mb_s, pairs), 1);
	named_float(&row, "scan_pct", med, 1);
	named_float(&row, "read_s", sb_median(read_s, pairs), 3);
	named_float(&row, "scan_s", sb_median(scan_s, pairs), 3);
	named_float(&row, "read_cached_pct", read_cached, 1);
	named_float(&row, "scan_cached_pct", scan_cached, 1);
	named_set(&row, "filesystem", CStringGetTextDatum("citus"));
	named_set(&row, "device",
			  CStringGetTextDatum(psprintf("%d nodes, %d placements",
										   ct->nnodes, ct->nplacements)));
	named_set(&row, "measured_at", TimestampTzGetDatum(GetCurrentTimestamp()));
	named_set(&row, "method", CStringGetTextDatum("cluster"));
	named_set(&row, "pairs", Int32GetDatum(pairs));
	named_float(&row, "coverage_pct", 100.0, 1);
	named_float(&row, "scan_pct_lo", lo, 1);
	named_float(&row, "scan_pct_hi", hi, 1);
	named_float(&row, "scan_pct_p10", p10, 1);
	named_float(&row, "scan_pct_p90", p90, 1);
	named_float(&row, "elapsed_s", INSTR_TIME_GET_DOUBLE(now), 3);
	if (verdict)
		named_set(&row, "verdict", CStringGetTextDatum(verdict));
	named_set(&row, "settings", sb_io_settings());
	result = HeapTupleGetDatum(heap_form_tuple(tupdesc, row.values, row.nulls));
	MemoryContextSwitchTo(old);
	SPI_finish();

	if (record)
		sb_history_record(fcinfo, result, tupdesc);
	PG_RETURN_DATUM(result);
}

/* ---- scan_efficiency_shards: a row per placement, a row per node ---- */

static void
put_shard_row(ReturnSetInfo *rsinfo, Oid relid, const char *level,
			  const char *node, int64 shardid, const char *shard,
			  int64 bytes, int64 rows, double *read_s, double *scan_s,
			  int pairs, SbCacheMode cache, double read_cached,
			  double scan_cached, const char *slowest, TimestampTz at)
{
	double	   *read_mb_s = palloc(sizeof(double) * pairs);
	double	   *scan_mb_s = palloc(sizeof(double) * pairs);
	double	   *ratio = palloc(sizeof(double) * pairs);
	double		med,
				lo,
				hi;
	SbRow		row = {0};
	int			i;

	for (i = 0; i < pairs; i++)
	{
		read_mb_s[i] = sb_rate(bytes / SB_MB, read_s[i]);
		scan_mb_s[i] = sb_rate(bytes / SB_MB, scan_s[i]);
		ratio[i] = sb_rate(100.0 * scan_mb_s[i], read_mb_s[i]);
	}
	med = ratio_figures(ratio, pairs, &lo, &hi, NULL, NULL);

	sb_row_datum(&row, ObjectIdGetDatum(relid));
	sb_row_text(&row, level);
	sb_row_text(&row, node);
	if (shard)
		sb_row_datum(&row, Int64GetDatum(shardid));
	else
		sb_row_null(&row);
	sb_row_text(&row, shard);
	sb_row_datum(&row, Int64GetDatum(bytes));
	sb_row_datum(&row, Int64GetDatum(rows));
	sb_row_float(&row, sb_median(read_mb_s, pairs), 1);
	sb_row_float(&row, sb_median(scan_mb_s, pairs), 1);
	sb_row_float(&row, med, 1);
	sb_row_float(&row, lo, 1);
	sb_row_float(&row, hi, 1);
	sb_row_float(&row, sb_median(read_s, pairs), 3);
	sb_row_float(&row, sb_median(scan_s, pairs), 3);
	sb_row_float(&row, read_cached, 1);
	sb_row_float(&row, scan_cached, 1);
	sb_row_datum(&row, Int32GetDatum(pairs));
	sb_row_text(&row, verdict_of(cache, sb_max((double[]) {read_cached, scan_cached}, 2),
								 med, lo, hi, pairs, 0, NULL));
	sb_row_text(&row, slowest);
	sb_row_datum(&row, TimestampTzGetDatum(at));
	if (row.n != rsinfo->setDesc->natts)
		elog(ERROR, "scanbench built %d columns for a %d-column result",
			 row.n, rsinfo->setDesc->natts);
	tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, row.values, row.nulls);
}

Datum
scan_efficiency_shards(PG_FUNCTION_ARGS)
{
	Oid			relid = PG_GETARG_OID(0);
	SbCacheMode cache = sb_parse_cache(PG_GETARG_TEXT_PP(1), false);
	int32		block_size = PG_GETARG_INT32(2);
	int32		runs = PG_GETARG_INT32(3);
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	MemoryContext outer = CurrentMemoryContext;
	SbCitusTable *ct;
	TimestampTz at;
	char		kind;
	int			pair,
				n,
				i;

	sb_check_block_size(block_size);
	sb_check_runs(runs);
	sb_init_srf(fcinfo);

	SPI_connect();
	if (!citus_table_kind(relid, &kind))
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("\"%s\" is not a Citus table", get_rel_name(relid)),
				 errhint("scan_efficiency('%s') measures a table on this server.",
						 get_rel_name(relid))));
	ct = citus_table_open(relid, kind, fcinfo->flinfo->fn_oid, outer);
	citus_alloc_pairs(ct, runs, outer);

	for (pair = 0; pair < runs; pair++)
	{
		int			side;

		for (side = 0; side < 2; side++)
		{
			bool		do_read = ((side == 0) == (pair % 2 == 0));

			CHECK_FOR_INTERRUPTS();
			store_step(ct, citus_run_step(ct, do_read ? "read" : "scan", cache, block_size),
					   do_read, pair);
		}
	}
	at = GetCurrentTimestamp();

	/* Each node's placements, then the node's own row. */
	for (n = 0; n < ct->nnodes; n++)
	{
		SbNode	   *node = &ct->nodes[n];
		int64		bytes = 0,
					rows = 0;
		double		read_cached = NAN,
					scan_cached = NAN,
					slowest_mb_s = NAN;
		char	   *slowest = NULL;

		for (i = 0; i < ct->nplacements; i++)
		{
			SbPlacement *p = &ct->placements[i];
			double	   *tmp;
			double		mb_s;

			if (p->nodeid != node->nodeid)
				continue;
			put_shard_row(rsinfo, relid, "shard", p->node, p->shardid, p->shard,
						  p->bytes, p->rows, p->read_s, p->scan_s, runs, cache,
						  p->read_cached, p->scan_cached, NULL, at);
			bytes += p->bytes;
			rows += p->rows;
			read_cached = sb_max((double[]) {read_cached, p->read_cached}, 2);
			scan_cached = sb_max((double[]) {scan_cached, p->scan_cached}, 2);

			tmp = palloc(sizeof(double) * runs);
			memcpy(tmp, p->scan_s, sizeof(double) * runs);
			mb_s = sb_rate(p->bytes / SB_MB, sb_median(tmp, runs));
			if (!isnan(mb_s) && (slowest == NULL || mb_s < slowest_mb_s))
			{
				slowest = p->shard;
				slowest_mb_s = mb_s;
			}
		}
		put_shard_row(rsinfo, relid, "node", node->node, 0, NULL, bytes, rows,
					  node->read_s, node->scan_s, runs, cache, read_cached,
					  scan_cached, slowest, at);
	}
	SPI_finish();

	return (Datum) 0;
}

/* ---- scan_efficiency_node: one step on this node's placements ---- */

static void
json_float(StringInfo buf, const char *key, double v)
{
	if (isnan(v))
		appendStringInfo(buf, ", \"%s\": null", key);
	else
		appendStringInfo(buf, ", \"%s\": %.9g", key, v);
}

/*
 * Run on each node by the coordinator.  step is 'read' (raw reads),
 * 'scan' (count(1) of each placement through this node's executor) or
 * 'prepare' (put the caches in the state asked for, for a count(1) that
 * the coordinator runs next).  The caches of all the placements are set
 * first and the timed passes follow back to back, so that the nodes,
 * started together, read at the same time.
 */
Datum
scan_efficiency_node(PG_FUNCTION_ARGS)
{
	char	   *step = text_to_cstring(PG_GETARG_TEXT_PP(0));
	SbCacheMode cache = sb_parse_cache(PG_GETARG_TEXT_PP(1), false);
	int32		block_size = PG_GETARG_INT32(2);
	ArrayType  *ids_arr = PG_GETARG_ARRAYTYPE_P(3);
	ArrayType  *names_arr = PG_GETARG_ARRAYTYPE_P(4);
	Datum	   *ids,
			   *names;
	bool	   *id_nulls,
			   *name_nulls;
	int			nids,
				nnames;
	SbTarget  **targets;
	SbReadResult *reads;
	SbScanResult *scans;
	SbResidency *res;
	SbClock		clock;
	SbTiming	node_t;
	StringInfoData out;
	bool		is_read = strcmp(step, "read") == 0;
	bool		is_scan = strcmp(step, "scan") == 0;
	int			i;

	if (!is_read && !is_scan && strcmp(step, "prepare") != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid step \"%s\"", step),
				 errhint("Valid steps are \"read\", \"scan\" and \"prepare\".")));
	sb_check_block_size(block_size);
	deconstruct_array(ids_arr, INT8OID, 8, FLOAT8PASSBYVAL, TYPALIGN_DOUBLE,
					  &ids, &id_nulls, &nids);
	deconstruct_array(names_arr, TEXTOID, -1, false, TYPALIGN_INT,
					  &names, &name_nulls, &nnames);
	if (nids != nnames)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("shardids and shards must have the same length")));
	for (i = 0; i < nids; i++)
		if (id_nulls[i] || name_nulls[i])
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("shardids and shards must not contain NULL")));

	targets = palloc0(sizeof(SbTarget *) * Max(nids, 1));
	reads = palloc0(sizeof(SbReadResult) * Max(nids, 1));
	scans = palloc0(sizeof(SbScanResult) * Max(nids, 1));
	res = palloc0(sizeof(SbResidency) * Max(nids, 1));
	for (i = 0; i < nids; i++)
	{
		char	   *name = TextDatumGetCString(names[i]);
		Oid			shard_relid = DatumGetObjectId(DirectFunctionCall1(regclassin,
																	   CStringGetDatum(name)));

		targets[i] = sb_target_open(shard_relid, SB_TARGET_SCAN);
	}

	/* The caches first, for all; then the timed passes. */
	for (i = 0; i < nids; i++)
	{
		CHECK_FOR_INTERRUPTS();
		if (cache == SB_CACHE_COLD)
		{
			if (!is_read)
				sb_evict_buffers(targets[i]);
			sb_evict_page_cache(targets[i]);
		}
		else if (cache == SB_CACHE_WARM && is_read)
			sb_raw_read(targets[i], block_size, SB_CACHE_ASIS, &reads[i], NULL);
		else if (cache == SB_CACHE_WARM && is_scan)
			sb_scan(targets[i], "count(1)", 0, SB_CACHE_ASIS, &scans[i]);
	}

	sb_clock_start(&clock);
	for (i = 0; i < nids; i++)
	{
		CHECK_FOR_INTERRUPTS();
		if (is_read)
			sb_raw_read(targets[i], block_size, SB_CACHE_ASIS, &reads[i], NULL);
		else if (is_scan)
			sb_scan(targets[i], "count(1)", 0, SB_CACHE_ASIS, &scans[i]);
		else
			sb_residency(targets[i], &res[i]);
	}
	sb_clock_stop(&clock, &node_t);

	initStringInfo(&out);
	appendStringInfoChar(&out, '[');
	for (i = 0; i < nids; i++)
	{
		appendStringInfo(&out, "%s{\"shardid\": " INT64_FORMAT ", \"bytes\": " UINT64_FORMAT,
						 i ? ", " : "", DatumGetInt64(ids[i]), targets[i]->bytes);
		if (is_read)
		{
			json_float(&out, "seconds", reads[i].timing.seconds);
			json_float(&out, "cached_pct", reads[i].cached_pct_before);
		}
		else if (is_scan)
		{
			appendStringInfo(&out, ", \"rows\": " UINT64_FORMAT, scans[i].rows);
			json_float(&out, "seconds", scans[i].timing.seconds);
			json_float(&out, "cached_pct", scans[i].cached_pct_before);
		}
		else
			json_float(&out, "cached_pct", sb_pct(res[i].any_blocks, res[i].blocks));
		json_float(&out, "node_s", is_read || is_scan ? node_t.seconds : NAN);
		appendStringInfoChar(&out, '}');
		sb_target_close(targets[i]);
	}
	appendStringInfoChar(&out, ']');

	PG_RETURN_DATUM(DirectFunctionCall1(jsonb_in, CStringGetDatum(out.data)));
}
