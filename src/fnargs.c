/*-------------------------------------------------------------------------
 *
 * fnargs.c
 *	  The SQL functions' arguments read by name, from the definition the
 *	  caller's database has.
 *
 * After a package upgrade the new library runs under the CREATE FUNCTION
 * of whatever version each database is at until ALTER EXTENSION UPDATE:
 * an older definition passes fewer arguments, or the same ones in another
 * order.  Reading PG_GETARG_*(n) by position would then read past the
 * arguments passed (a crash) or read one argument as another.  So the
 * names of the called function's arguments are looked up in pg_proc once
 * per call, and each argument is found by name; one the definition lacks
 * takes the value the caller of that older version got, which the entry
 * function passes as the default.
 *
 * Each argument's type is checked against the type it is read as: an
 * argument that kept its name in some definition and changed its type
 * would otherwise be misread (an integer's Datum taken as a pointer to
 * text), and is refused with an error that names it instead.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/tuplestore.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"

#include "compat.h"
#include "fnargs.h"

void
sb_args_init(SbArgs *args, FunctionCallInfo fcinfo)
{
	HeapTuple	tup;
	Oid		   *types;
	char	  **names;
	char	   *modes;
	int			n;

	tup = SearchSysCache1(PROCOID, ObjectIdGetDatum(fcinfo->flinfo->fn_oid));
	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for function %u", fcinfo->flinfo->fn_oid);
	n = get_func_arg_info(tup, &types, &names, &modes);
	ReleaseSysCache(tup);

	args->fcinfo = fcinfo;
	args->nargs = Min(n, PG_NARGS());
	args->names = names;
	args->types = types;
	args->function = get_func_name(fcinfo->flinfo->fn_oid);
}

/*
 * Refuse a NULL passed for any argument, naming the argument, before
 * anything is read: the measuring functions are CALLED ON NULL INPUT from
 * 0.3 on, so that a NULL is an error that says which argument, rather than
 * the row of NULLs a STRICT function returns without a word.  Under an
 * older, STRICT definition the executor never calls with a NULL, and this
 * costs a loop over the flags.
 */
void
sb_args_refuse_nulls(FunctionCallInfo fcinfo)
{
	sb_args_refuse_nulls_but(fcinfo, NULL);
}

/* The same, but for the one argument for which NULL has a meaning. */
void
sb_args_refuse_nulls_but(FunctionCallInfo fcinfo, const char *nullable)
{
	int			i;

	for (i = 0; i < PG_NARGS(); i++)
	{
		SbArgs		args;
		HeapTuple	tup;
		bool		has_default;

		if (!PG_ARGISNULL(i))
			continue;
		sb_args_init(&args, fcinfo);
		if (nullable && args.names && i < args.nargs && args.names[i] &&
			strcmp(args.names[i], nullable) == 0)
			continue;
		tup = SearchSysCache1(PROCOID, ObjectIdGetDatum(fcinfo->flinfo->fn_oid));
		if (!HeapTupleIsValid(tup))
			elog(ERROR, "cache lookup failed for function %u", fcinfo->flinfo->fn_oid);
		/* the defaults are those of the last pronargdefaults arguments */
		has_default = i >= ((Form_pg_proc) GETSTRUCT(tup))->pronargs -
			((Form_pg_proc) GETSTRUCT(tup))->pronargdefaults;
		ReleaseSysCache(tup);
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("%s must not be NULL",
						args.names && i < args.nargs && args.names[i] && args.names[i][0]
						? args.names[i] : psprintf("argument %d", i + 1)),
				 has_default ? errhint("Leave the argument out for its default.") : 0));
	}
}

/* The position of the named argument in the caller's definition, or -1. */
static int
arg_position(SbArgs *args, const char *name)
{
	int			i;

	if (args->names == NULL)
		return -1;
	for (i = 0; i < args->nargs; i++)
		if (args->names[i] && strcmp(args->names[i], name) == 0)
			return i;
	return -1;
}

/*
 * The argument's position, or -1; a NULL passed for it is refused, and
 * one of another type than the library reads it as.
 */
static int
arg_present(SbArgs *args, const char *name, Oid type)
{
	int			i = arg_position(args, name);

	if (i < 0)
		return -1;
	if (args->fcinfo->args[i].isnull)
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("%s must not be NULL", name),
				 errhint("Leave the argument out for its default.")));
	if (args->types[i] != type)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("argument %s of %s() is of type %s, which this version of scanbench does not read",
						name, args->function, format_type_be(args->types[i])),
				 errdetail("The library reads %s as %s.", name, format_type_be(type)),
				 errhint("Run ALTER EXTENSION scanbench UPDATE to get the definitions of the installed library.")));
	return i;
}

bool
sb_arg_given(SbArgs *args, const char *name)
{
	return arg_position(args, name) >= 0;
}

int32
sb_arg_int32(SbArgs *args, const char *name, int32 dflt)
{
	int			i = arg_present(args, name, INT4OID);

	return i < 0 ? dflt : DatumGetInt32(args->fcinfo->args[i].value);
}

double
sb_arg_float8(SbArgs *args, const char *name, double dflt)
{
	int			i = arg_present(args, name, FLOAT8OID);

	return i < 0 ? dflt : DatumGetFloat8(args->fcinfo->args[i].value);
}

/* An integer argument where NULL is a figure not had: if_null then. */
int32
sb_arg_int32_or_null(SbArgs *args, const char *name, int32 if_null)
{
	int			i = arg_position(args, name);

	if (i < 0 || args->fcinfo->args[i].isnull)
		return if_null;
	return sb_arg_int32(args, name, if_null);
}

/*
 * A float8 argument for which NULL has a meaning: if_null when it is NULL
 * or the caller's definition lacks it.
 */
double
sb_arg_float8_or_null(SbArgs *args, const char *name, double if_null)
{
	int			i = arg_position(args, name);

	if (i < 0 || args->fcinfo->args[i].isnull)
		return if_null;
	return sb_arg_float8(args, name, if_null);
}

bool
sb_arg_bool(SbArgs *args, const char *name, bool dflt)
{
	int			i = arg_present(args, name, BOOLOID);

	return i < 0 ? dflt : DatumGetBool(args->fcinfo->args[i].value);
}

/* A text argument as a C string, or dflt (which may be NULL). */
char *
sb_arg_cstring(SbArgs *args, const char *name, const char *dflt)
{
	int			i = arg_present(args, name, TEXTOID);

	if (i < 0)
		return dflt ? pstrdup(dflt) : NULL;
	return TextDatumGetCString(args->fcinfo->args[i].value);
}

/* A name argument (a tablespace's) as a C string, or NULL. */
char *
sb_arg_name(SbArgs *args, const char *name)
{
	int			i = arg_present(args, name, NAMEOID);

	return i < 0 ? NULL : pstrdup(NameStr(*DatumGetName(args->fcinfo->args[i].value)));
}

/*
 * An argument of an OID type (regclass): a definition lacking it is a
 * definition this library does not serve.
 */
Oid
sb_arg_oid(SbArgs *args, const char *name, Oid type)
{
	int			i = arg_present(args, name, type);

	if (i < 0)
		elog(ERROR, "%s() has no argument %s", args->function, name);
	return DatumGetObjectId(args->fcinfo->args[i].value);
}

/*
 * An array argument of elemtype, detoasted; NULL when the definition has
 * none of that name.
 */
ArrayType *
sb_arg_array(SbArgs *args, const char *name, Oid elemtype)
{
	int			i = arg_present(args, name, get_array_type(elemtype));

	return i < 0 ? NULL : DatumGetArrayTypeP(args->fcinfo->args[i].value);
}

/* The caller's result type, blessed for a composite Datum. */
TupleDesc
sb_result_tupdesc(FunctionCallInfo fcinfo)
{
	TupleDesc	tupdesc;

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	return BlessTupleDesc(tupdesc);
}

/*
 * A set-returning call in materialize mode (compat.h names the call each
 * major has).
 */
void
sb_init_srf(FunctionCallInfo fcinfo)
{
	sb_materialized_srf(fcinfo);
}
