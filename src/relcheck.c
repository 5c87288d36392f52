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
#include "access/nbtree.h"
#include "catalog/pg_opclass.h"
#include "catalog/pg_operator.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_range.h"
#include "catalog/pg_type.h"
#include "commands/defrem.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/regproc.h"
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

/* ---- The key's type: no code but a superuser's ---- */

/* What the refusal names: the index, the function that refuses, the type. */
typedef struct KeyCheck
{
	const char *index;
	const char *fname;
	Oid			keytype;
} KeyCheck;

/* A function whose owner is not a superuser: refused, naming both. */
static void
check_proc(const KeyCheck *k, Oid proc, const char *what)
{
	HeapTuple	tup;
	Oid			owner;

	if (!OidIsValid(proc))
		return;
	tup = SearchSysCache1(PROCOID, ObjectIdGetDatum(proc));
	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for function %u", proc);
	owner = ((Form_pg_proc) GETSTRUCT(tup))->proowner;
	ReleaseSysCache(tup);
	if (!superuser_arg(owner))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("the first key of index \"%s\" is of type %s, whose %s %s is owned by role \"%s\", not a superuser",
						k->index, format_type_be(k->keytype), what,
						format_procedure(proc), GetUserNameFromId(owner, false)),
				 errdetail("%s compares the key with a bound of its type as the caller, and runs only code a superuser owns.",
						   k->fname),
				 errhint("Measure an index whose first key is of a built-in type, or of a type whose functions a superuser owns.")));
}

/* An operator's function and its estimators (the planner runs them). */
static void
check_operator(const KeyCheck *k, Oid opno)
{
	HeapTuple	tup;
	Form_pg_operator op;
	Oid			code;
	Oid			rest;

	if (!OidIsValid(opno))
		return;
	tup = SearchSysCache1(OPEROID, ObjectIdGetDatum(opno));
	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for operator %u", opno);
	op = (Form_pg_operator) GETSTRUCT(tup);
	code = op->oprcode;
	rest = op->oprrest;
	ReleaseSysCache(tup);
	check_proc(k, code, "comparison function");
	check_proc(k, rest, "selectivity estimator");
}

/*
 * The btree operator class's comparisons of its input type: the order
 * and sort support functions and the five operators, which the bound's
 * query, the count's predicate and the planner's estimates run.
 */
static void
check_opfamily(const KeyCheck *k, Oid opfamily, Oid opcintype)
{
	int			strategy;

	check_proc(k, get_opfamily_proc(opfamily, opcintype, opcintype, BTORDER_PROC),
			   "btree comparison function");
	check_proc(k, get_opfamily_proc(opfamily, opcintype, opcintype, BTSORTSUPPORT_PROC),
			   "btree sort support function");
	for (strategy = 1; strategy <= BTMaxStrategyNumber; strategy++)
		check_operator(k, get_opfamily_member(opfamily, opcintype, opcintype,
											  strategy));
}

/*
 * A type whose values a bound is read and written with: refused if it is
 * an array or a composite type, or if its input or output function (or a
 * range's canonical function, its subtype's and their comparisons) is not
 * a superuser's.  Below the key (a range's subtype), a domain is refused
 * too: the range's input would run its checks.
 */
static void
check_type(const KeyCheck *k, Oid typid, bool below)
{
	HeapTuple	tup;
	Form_pg_type typ;
	Oid			input;
	Oid			output;
	char		typtype;

	if (below && get_typtype(typid) == TYPTYPE_DOMAIN)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("the first key of index \"%s\" is of type %s, a range over domain %s",
						k->index, format_type_be(k->keytype), format_type_be(typid)),
				 errdetail("A bound of the range would be checked by the domain's constraints, code the caller would run."),
				 errhint("Measure an index whose first key is of a built-in type, or of a type whose functions a superuser owns.")));
	if (type_is_array(typid))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("the first key of index \"%s\" is of an array type, %s",
						k->index, format_type_be(k->keytype)),
				 errdetail("A bound of an array type is read with its elements' input functions and their domains' checks, which can be the table owner's code and would run as the caller."),
				 errhint("Measure an index whose first key is a scalar column.")));
	tup = SearchSysCache1(TYPEOID, ObjectIdGetDatum(typid));
	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for type %u", typid);
	typ = (Form_pg_type) GETSTRUCT(tup);
	typtype = typ->typtype;
	input = typ->typinput;
	output = typ->typoutput;
	ReleaseSysCache(tup);
	if (typtype == TYPTYPE_COMPOSITE)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("the first key of index \"%s\" is of a composite type, %s",
						k->index, format_type_be(k->keytype)),
				 errdetail("A bound of a composite type is read with its columns' input functions and their domains' checks, which can be the table owner's code and would run as the caller."),
				 errhint("Measure an index whose first key is a scalar column.")));
	check_proc(k, input, "input function");
	check_proc(k, output, "output function");

	if (typtype == TYPTYPE_MULTIRANGE)
		check_type(k, get_multirange_range(typid), true);
	else if (typtype == TYPTYPE_RANGE)
	{
		HeapTuple	rtup = SearchSysCache1(RANGETYPE, ObjectIdGetDatum(typid));
		Form_pg_range rng;
		Oid			subtype;
		Oid			subopc;
		Oid			canonical;

		if (!HeapTupleIsValid(rtup))
			elog(ERROR, "cache lookup failed for range type %u", typid);
		rng = (Form_pg_range) GETSTRUCT(rtup);
		subtype = rng->rngsubtype;
		subopc = rng->rngsubopc;
		canonical = rng->rngcanonical;
		ReleaseSysCache(rtup);
		check_proc(k, canonical, "canonical function");
		check_type(k, subtype, true);
		check_opfamily(k, get_opclass_family(subopc), get_opclass_input_type(subopc));
	}
}

/*
 * The index's first key, of type keytype, ordered by operator class
 * opclass: compared through the class's operators with a bound of the
 * key's base type, it must run no code but a superuser's.
 */
static void
check_key_type(const char *index, const char *fname, Oid keytype, Oid opclass)
{
	KeyCheck	k;

	k.index = index;
	k.fname = fname;
	k.keytype = keytype;
	check_type(&k, getBaseType(keytype), false);
	check_opfamily(&k, get_opclass_family(opclass), get_opclass_input_type(opclass));
}

/*
 * The index: a valid btree on this table whose first key is a plain
 * column ordered by its type's default operator class, with no predicate,
 * so that "key <= bound" is a range every path can answer, of a type
 * whose comparisons run no code but a superuser's.  fname names the
 * calling function in the details.
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
	check_key_type(name, fname, keytype, opclass);
}
