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
#include "utils/memutils.h"
#include "utils/timestamp.h"

#include "argcheck.h"
#include "citus.h"
#include "stats.h"

/* ---- recognising a Citus table ---- */

/*
 * Whether relid is a Citus table, without linking to Citus: the catalog
 * is looked up by name first, so a server without Citus pays one syscache
 * probe.  Fills *kind with SB_CITUS_* when it is.
 */
bool
sb_citus_table_kind(Oid relid, char *kind)
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

	return sb_citus_table_kind(relid, &kind);
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

	if (!sb_citus_table_kind(relid, &kind))
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
 * then its placements in (group, shard) order.  schema is scanbench's,
 * where the nodes find scan_efficiency_node.  Runs inside SPI; what it
 * returns is allocated in 'outer'.
 */
SbCitusTable *
sb_citus_table_open(Oid relid, char kind, Oid schema, MemoryContext outer)
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
	ct->schema = pstrdup(quote_identifier(get_namespace_name(schema)));
	ct->schema_oid = schema;
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

void
sb_citus_alloc_pairs(SbCitusTable *ct, int maxpairs, MemoryContext outer)
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
SbStepRow *
sb_citus_run_step(SbCitusTable *ct, const char *step, SbCacheMode cache,
				  int block_size)
{
	bool		restore = strcmp(step, "restore") == 0;
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
					 "coalesce(array_agg(s.shard ORDER BY s.ord), '{}')%s) "
					 "FROM (VALUES ",
					 ct->schema, quote_literal_cstr(step),
					 quote_literal_cstr(sb_cache_name(cache)), block_size,
					 restore ? ", snapshots => coalesce(array_agg(s.snapshot ORDER BY s.ord), '{}')" : "");
	/* Every node's snapshots travel to every node; each keeps its own. */
	for (i = 0; i < ct->nplacements; i++)
		appendStringInfo(&cmd, "%s(%d, %d, %lld::bigint, %s, %s::bytea)", i ? ", " : "",
						 ct->placements[i].groupid, i,
						 (long long) ct->placements[i].shardid,
						 quote_literal_cstr(ct->placements[i].shard),
						 restore ? quote_literal_cstr(ct->placements[i].snapshot) : "NULL");
	appendStringInfoString(&cmd,
						   ") s(groupid, ord, shardid, shard, snapshot) "
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
					 errhint("scanbench must be installed on every node, at a version that measures Citus tables (0.2 or later): CREATE EXTENSION scanbench and ALTER EXTENSION scanbench UPDATE on the coordinator do it on the workers too.")));
		results[i] = pstrdup(result ? result : "[]");
	}

	out = palloc0(sizeof(SbStepRow) * Max(ct->nplacements, 1));
	for (i = 0; i < ct->nplacements; i++)
		out[i].nodeid = -1;
	for (i = 0; i < nanswers; i++)
	{
		args[0] = CStringGetTextDatum(results[i]);
		if (SPI_execute_with_args("SELECT shardid, bytes, rows, seconds, cached_pct, node_s, "
								  "snapshot, cached_pct_end, restored_pct "
								  "FROM jsonb_to_recordset($1::jsonb) AS x(shardid bigint, "
								  "bytes bigint, rows bigint, seconds float8, "
								  "cached_pct float8, node_s float8, snapshot text, "
								  "cached_pct_end float8, restored_pct float8)",
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
			out[k].snapshot = spi_text(j, 7);
			v = spi_text(j, 8);
			out[k].cached_pct_end = v ? strtod(v, NULL) : NAN;
			v = spi_text(j, 9);
			out[k].restored_pct = v ? strtod(v, NULL) : NAN;
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
double
sb_citus_step_cached_pct(SbCitusTable *ct, SbStepRow *rows)
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
double
sb_citus_step_wall_s(SbCitusTable *ct, SbStepRow *rows)
{
	double		wall = 0;
	int			i;

	for (i = 0; i < ct->nplacements; i++)
		if (!isnan(rows[i].node_s) && rows[i].node_s > wall)
			wall = rows[i].node_s;
	return wall;
}

/*
 * Whether the nodes can put their caches back: scan_efficiency_node takes
 * the snapshots from 0.4.0 on.  A database not yet at ALTER EXTENSION
 * UPDATE has the older definition, here and, with Citus propagating the
 * extension, on the nodes.  Runs inside SPI.
 */
bool
sb_citus_can_restore(SbCitusTable *ct)
{
	Oid			argtypes[1] = {OIDOID};
	Datum		args[1] = {ObjectIdGetDatum(ct->schema_oid)};

	if (SPI_execute_with_args("SELECT 1 FROM pg_catalog.pg_proc p "
							  "WHERE p.proname OPERATOR(pg_catalog.=) 'scan_efficiency_node' "
							  "AND p.pronamespace OPERATOR(pg_catalog.=) $1 "
							  "AND 'snapshots' OPERATOR(pg_catalog.=) ANY (p.proargnames)",
							  1, argtypes, args, NULL, true, 1) != SPI_OK_SELECT)
		elog(ERROR, "could not read the definition of scan_efficiency_node");
	return SPI_processed == 1;
}

/*
 * restore => true: what every node's caches hold of its placements, kept
 * in the placements for sb_citus_restore(); returns the bytes-weighted
 * share cached, %.
 */
double
sb_citus_snapshot(SbCitusTable *ct)
{
	SbStepRow  *rows = sb_citus_run_step(ct, "snapshot", SB_CACHE_ASIS, BLCKSZ);
	MemoryContext old = MemoryContextSwitchTo(GetMemoryChunkContext(ct));
	int			i;

	for (i = 0; i < ct->nplacements; i++)
	{
		if (rows[i].snapshot == NULL)
			elog(ERROR, "node %s answered no snapshot of placement %s",
				 ct->placements[i].node, ct->placements[i].shard);
		ct->placements[i].snapshot = pstrdup(rows[i].snapshot);
	}
	MemoryContextSwitchTo(old);
	return sb_citus_step_cached_pct(ct, rows);
}

/*
 * Every node puts back what its caches held at the snapshot.  The shares
 * are weighted by bytes, the restored one by the bytes cached at the start;
 * the time is the slowest node's.
 */
void
sb_citus_restore(SbCitusTable *ct, SbCitusRestore *result)
{
	SbStepRow  *rows = sb_citus_run_step(ct, "restore", SB_CACHE_ASIS, BLCKSZ);
	double		cached_before = 0,
				kept = 0,
				end = 0;
	int64		bytes = 0;
	int			i;

	for (i = 0; i < ct->nplacements; i++)
	{
		double		before = rows[i].cached_pct / 100.0 * rows[i].bytes;

		bytes += rows[i].bytes;
		cached_before += before;
		end += rows[i].cached_pct_end / 100.0 * rows[i].bytes;
		if (!isnan(rows[i].restored_pct))
			kept += rows[i].restored_pct / 100.0 * before;
	}
	result->cached_pct_start = bytes > 0 ? 100.0 * cached_before / bytes : NAN;
	result->cached_pct_end = bytes > 0 ? 100.0 * end / bytes : NAN;
	result->restored_pct = cached_before > 0 ? 100.0 * kept / cached_before : NAN;
	result->seconds = sb_citus_step_wall_s(ct, rows);
}

void
sb_citus_store_step(SbCitusTable *ct, SbStepRow *rows, bool is_read, int pair)
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
double
sb_citus_ratio_figures(const double *ratio, int n, double *lo, double *hi,
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
 * The verdict, from the judge of the single-server figure (verdict.c), on
 * what a cluster figure has: the interval, the cached share and the
 * ratio.  host_cache needs O_DIRECT reads of every placement and
 * storage_not_limiting's ceiling a warm scan of each, which the cluster
 * figure does not take; the limits are the nodes', not this server's.
 * With 'what' set, one NOTICE or WARNING per mark.  False when there is
 * no figure to judge.
 */
bool
sb_citus_verdict(SbCacheMode cache, double cached_pct, double median, double lo,
				 double hi, int pairs, double target_pct, const char *what,
				 SbVerdict *v)
{
	SbJudgeInput in;

	memset(v, 0, sizeof(SbVerdict));
	if (isnan(median))
		return false;
	sb_judge_input_init(&in);
	in.what = what;
	in.unit = "pairs";
	in.cache = cache;
	in.n = pairs;
	in.median = median;
	in.lo = lo;
	in.hi = hi;
	in.target_pct = target_pct > 0 ? target_pct : SB_CITUS_TARGET;
	in.cached_pct = cached_pct;
	sb_judge(&in, v);
	return true;
}
