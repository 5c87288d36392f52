/*-------------------------------------------------------------------------
 *
 * relcheck.c
 *	  Checks of the relations a measuring function is given: a table with
 *	  heap pages of its own, and a btree index of it whose first key a
 *	  range can be read by.  Run at the function's top, before anything is
 *	  opened or evicted.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/index.h"
#include "catalog/pg_am.h"
#include "catalog/pg_class.h"
#include "catalog/pg_index.h"
#include "catalog/pg_opclass.h"
#include "commands/defrem.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"

#include "relcheck.h"

/*
 * A table with heap pages of its own, in shared buffers: not partitioned
 * (partitioned_detail and partitioned_hint say why and what to do, either
 * may be NULL), a table or materialized view (not_table_detail says what
 * the function reads), not temporary.
 */
void
sb_check_heap_table(Oid relid, const char *partitioned_detail,
					const char *partitioned_hint, const char *not_table_detail)
{
	char		relkind = get_rel_relkind(relid);
	char	   *name = get_rel_name(relid);

	if (name == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("relation with OID %u does not exist", relid)));
	if (relkind == RELKIND_PARTITIONED_TABLE)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("\"%s\" is a partitioned table", name),
				 partitioned_detail ? errdetail("%s", partitioned_detail) : 0,
				 partitioned_hint ? errhint("%s", partitioned_hint) : 0));
	if (relkind != RELKIND_RELATION && relkind != RELKIND_MATVIEW)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("\"%s\" is not a table or materialized view", name),
				 not_table_detail ? errdetail("%s", not_table_detail) : 0));
	if (get_rel_persistence(relid) == RELPERSISTENCE_TEMP)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("\"%s\" is a temporary table", name),
				 errdetail("Its pages live in the session's local buffers, not in shared buffers as other tables' do.")));
}

/* pg_class.relam, read from the catalog's cache (15 has no lookup of it) */
static Oid
rel_am(Oid relid)
{
	HeapTuple	tup = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
	Oid			am;

	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for relation %u", relid);
	am = ((Form_pg_class) GETSTRUCT(tup))->relam;
	ReleaseSysCache(tup);
	return am;
}

static char *
opclass_name(Oid opclass)
{
	HeapTuple	tup = SearchSysCache1(CLAOID, ObjectIdGetDatum(opclass));
	char	   *name;

	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for operator class %u", opclass);
	name = pstrdup(NameStr(((Form_pg_opclass) GETSTRUCT(tup))->opcname));
	ReleaseSysCache(tup);
	return name;
}

/*
 * The index: a valid btree on this table whose first key is a plain
 * column ordered by its type's default operator class, with no predicate,
 * so that "key <= bound" is a range every path can answer.  fname names
 * the calling function in the details.
 */
void
sb_check_range_index(Oid relid, Oid indexid, const char *fname)
{
	char	   *name = get_rel_name(indexid);
	char		relkind = get_rel_relkind(indexid);
	HeapTuple	tup;
	Form_pg_index ind;
	bool		isnull;
	Oid			am;
	Oid			opclass;
	Oid			keytype;
	oidvector  *classes;

	if (name == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("index with OID %u does not exist", indexid)));
	if (relkind == RELKIND_PARTITIONED_INDEX)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("\"%s\" is a partitioned index", name),
				 errhint("Measure one partition and its index.")));
	if (relkind != RELKIND_INDEX)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("\"%s\" is not an index", name),
				 errhint("Pass an index of \"%s\" as idx; \\d %s lists them.",
						 get_rel_name(relid), get_rel_name(relid))));

	tup = SearchSysCache1(INDEXRELID, ObjectIdGetDatum(indexid));
	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for index %u", indexid);
	ind = (Form_pg_index) GETSTRUCT(tup);
	if (ind->indrelid != relid)
	{
		Oid			owner = ind->indrelid;

		ReleaseSysCache(tup);
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("index \"%s\" is on \"%s\", not on \"%s\"",
						name, get_rel_name(owner), get_rel_name(relid))));
	}
	if (!ind->indisvalid)
	{
		ReleaseSysCache(tup);
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("index \"%s\" is not valid", name),
				 errhint("REINDEX it, or wait for CREATE INDEX CONCURRENTLY to finish.")));
	}
	if (ind->indkey.values[0] == 0)
	{
		ReleaseSysCache(tup);
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("the first key of index \"%s\" is an expression", name),
				 errdetail("%s counts the rows with a key at most a bound, and needs a column as the first key.", fname)));
	}
	if (!heap_attisnull(tup, Anum_pg_index_indpred, NULL))
	{
		ReleaseSysCache(tup);
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("index \"%s\" is partial", name),
				 errdetail("A partial index answers only the rows its predicate covers; the sequential scan would count others.")));
	}
	classes = (oidvector *) DatumGetPointer(SysCacheGetAttr(INDEXRELID, tup,
															Anum_pg_index_indclass,
															&isnull));
	opclass = classes->values[0];
	keytype = get_atttype(relid, ind->indkey.values[0]);
	ReleaseSysCache(tup);

	am = rel_am(indexid);
	if (am != BTREE_AM_OID)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("index \"%s\" is not a btree index", name),
				 errdetail("%s times a key range, which only a btree index orders.", fname)));
	if (opclass != GetDefaultOpClass(keytype, BTREE_AM_OID))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("index \"%s\" orders its first key by operator class \"%s\", not its type's default",
						name, opclass_name(opclass))));
}
