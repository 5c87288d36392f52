/*-------------------------------------------------------------------------
 *
 * fnargs.h
 *	  The SQL functions' calls decoded: arguments read by name and type,
 *	  the result type, a set-returning call's tuplestore (fnargs.c).  The
 *	  one module besides src/entry/ that sees fcinfo.
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCANBENCH_FNARGS_H
#define SCANBENCH_FNARGS_H

#include "fmgr.h"
#include "access/tupdesc.h"
#include "utils/array.h"

/* fcinfo's argument values, by the names of the caller's definition. */
typedef struct SbArgs
{
	FunctionCallInfo fcinfo;
	int			nargs;
	char	  **names;			/* NULL where the definition names none */
	Oid		   *types;			/* each argument's type in that definition */
	const char *function;		/* its name, for the messages */
} SbArgs;

extern void sb_args_init(SbArgs *args, FunctionCallInfo fcinfo);
extern TupleDesc sb_result_tupdesc(FunctionCallInfo fcinfo);
extern void sb_init_srf(FunctionCallInfo fcinfo);
extern void sb_args_refuse_nulls(FunctionCallInfo fcinfo);
extern void sb_args_refuse_nulls_but(FunctionCallInfo fcinfo,
									 const char *nullable);
extern bool sb_arg_given(SbArgs *args, const char *name);
extern int32 sb_arg_int32(SbArgs *args, const char *name, int32 dflt);
extern double sb_arg_float8(SbArgs *args, const char *name, double dflt);
extern int32 sb_arg_int32_or_null(SbArgs *args, const char *name,
								  int32 if_null);
extern double sb_arg_float8_or_null(SbArgs *args, const char *name,
									double if_null);
extern bool sb_arg_bool(SbArgs *args, const char *name, bool dflt);
extern char *sb_arg_cstring(SbArgs *args, const char *name, const char *dflt);
extern ArrayType *sb_arg_array(SbArgs *args, const char *name, Oid elemtype);
extern Oid	sb_arg_oid(SbArgs *args, const char *name, Oid type);
extern char *sb_arg_name(SbArgs *args, const char *name);

#endif							/* SCANBENCH_FNARGS_H */
