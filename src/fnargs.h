/*-------------------------------------------------------------------------
 *
 * fnargs.h
 *	  The SQL functions' arguments read by name (fnargs.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCANBENCH_FNARGS_H
#define SCANBENCH_FNARGS_H

#include "fmgr.h"
#include "utils/array.h"

/* fcinfo's argument values, by the names of the caller's definition. */
typedef struct SbArgs
{
	FunctionCallInfo fcinfo;
	int			nargs;
	char	  **names;			/* NULL where the definition names none */
} SbArgs;

extern void sb_args_init(SbArgs *args, FunctionCallInfo fcinfo);
extern void sb_args_refuse_nulls(FunctionCallInfo fcinfo);
extern bool sb_arg_given(SbArgs *args, const char *name);
extern int32 sb_arg_int32(SbArgs *args, const char *name, int32 dflt);
extern double sb_arg_float8(SbArgs *args, const char *name, double dflt);
extern bool sb_arg_bool(SbArgs *args, const char *name, bool dflt);
extern char *sb_arg_cstring(SbArgs *args, const char *name, const char *dflt);
extern ArrayType *sb_arg_array(SbArgs *args, const char *name);

#endif							/* SCANBENCH_FNARGS_H */
