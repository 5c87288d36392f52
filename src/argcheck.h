/*-------------------------------------------------------------------------
 *
 * argcheck.h
 *	  Argument checks, run at the top of each SQL function before anything
 *	  is opened or evicted, and the names of the modes they parse (argcheck.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCANBENCH_ARGCHECK_H
#define SCANBENCH_ARGCHECK_H

#include "cache.h"

/* Largest block_size accepted by the raw readers: 64 MB. */
#define SB_MAX_BLOCK_SIZE	(64 * 1024 * 1024)
#define SB_MAX_SECONDS		(7 * 24 * 3600.0)	/* a call's budget: a week */

/* Largest random_ops / reads accepted: 10 million. */
#define SB_MAX_RANDOM_OPS	10000000

/* How scan_efficiency samples the relation. */
typedef enum SbMethod
{
	SB_METHOD_PAIRS,			/* stretches, each read and scanned in a pair */
	SB_METHOD_WHOLE				/* whole-relation passes */
} SbMethod;

/* How much of a caller's text a message quotes before "...". */
#define SB_ARG_ECHO_BYTES	64
#define SB_QUERY_ECHO_BYTES	1024

extern const char *sb_text_for_message(const char *s, int max_bytes);
extern const char *sb_arg_for_message(const char *s);
extern SbCacheMode sb_parse_cache(text *arg, bool allow_direct);
extern const char *sb_cache_name(SbCacheMode cache);
extern const char *sb_parse_history_cache(text *arg);
extern void sb_check_block_size(int32 block_size);
extern void sb_check_random_ops(const char *argname, int32 ops);
extern void sb_check_runs(int32 runs);
extern void sb_check_workers(int32 workers);
extern void sb_check_query(const char *query);
extern void sb_check_sample(double sample);
extern void sb_check_max_seconds(double max_seconds);
extern void sb_check_target_pct(double target_pct);
extern SbMethod sb_parse_method(text *arg);
extern const char *sb_method_name(SbMethod method);

#endif							/* SCANBENCH_ARGCHECK_H */
