/*-------------------------------------------------------------------------
 *
 * argcheck.c
 *	  Checks of the SQL functions' arguments.  Each function calls these at
 *	  its top, before anything is opened, read or evicted, so that bad input
 *	  changes nothing.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "mb/pg_wchar.h"
#include "parser/scansup.h"
#include "utils/builtins.h"
#include "utils/float.h"

#include "argcheck.h"

#define SB_MAX_RUNS		1000
#define SB_MAX_WORKERS	1024

/*
 * A caller's text for an error message: whole up to max_bytes, else its
 * start, cut at a character boundary, and "...", so that a mistaken 100 kB
 * argument does not fill the log.
 */
const char *
sb_text_for_message(const char *s, int max_bytes)
{
	size_t		len = strlen(s);
	int			keep;

	if (len <= (size_t) max_bytes)
		return s;
	keep = pg_mbcliplen(s, (int) Min(len, (size_t) PG_INT32_MAX), max_bytes);
	return psprintf("%.*s...", keep, s);
}

/* A word-sized argument (a mode, a setting's name or value) for a message. */
const char *
sb_arg_for_message(const char *s)
{
	return sb_text_for_message(s, SB_ARG_ECHO_BYTES);
}

SbCacheMode
sb_parse_cache(text *arg, bool allow_direct)
{
	char	   *s = text_to_cstring(arg);

	if (strcmp(s, "cold") == 0)
		return SB_CACHE_COLD;
	if (strcmp(s, "warm") == 0)
		return SB_CACHE_WARM;
	if (strcmp(s, "asis") == 0)
		return SB_CACHE_ASIS;
	if (allow_direct && strcmp(s, "direct") == 0)
		return SB_CACHE_DIRECT;

	if (allow_direct)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid cache mode: \"%s\"", sb_arg_for_message(s)),
				 errhint("Valid cache modes are \"cold\", \"warm\", \"direct\" and \"asis\".")));
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("invalid cache mode for an executor scan: \"%s\"", sb_arg_for_message(s)),
			 errhint("Valid cache modes are \"cold\", \"warm\" and \"asis\"; \"direct\" applies to raw_read() only.")));
	pg_unreachable();
}

/*
 * A cache mode of the history (what its runs were measured under): the
 * three a scan runs in, as its name.
 */
const char *
sb_parse_history_cache(text *arg)
{
	char	   *s = text_to_cstring(arg);

	if (strcmp(s, "cold") == 0 || strcmp(s, "warm") == 0 || strcmp(s, "asis") == 0)
		return s;
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("invalid cache mode: \"%s\"", sb_arg_for_message(s)),
			 errhint("Valid cache modes are \"cold\", \"warm\" and \"asis\", or NULL for all.")));
	pg_unreachable();
}

const char *
sb_cache_name(SbCacheMode cache)
{
	switch (cache)
	{
		case SB_CACHE_COLD:
			return "cold";
		case SB_CACHE_WARM:
			return "warm";
		case SB_CACHE_DIRECT:
			return "direct";
		case SB_CACHE_ASIS:
			return "asis";
	}
	return "?";
}

void
sb_check_block_size(int32 block_size)
{
	if (block_size < 512 || block_size > SB_MAX_BLOCK_SIZE || block_size % 512 != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid block_size: %d", block_size),
				 errhint("block_size must be a multiple of 512 between 512 and %d (64 MB).",
						 SB_MAX_BLOCK_SIZE)));
}

/*
 * The random reads of storage_profile (random_ops) and random_read
 * (reads), under the argument's own name.
 */
void
sb_check_random_ops(const char *argname, int32 ops)
{
	if (ops < 1 || ops > SB_MAX_RANDOM_OPS)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid %s: %d", argname, ops),
				 errhint("%s must be between 1 and %d.", argname, SB_MAX_RANDOM_OPS)));
}

void
sb_check_runs(int32 runs)
{
	if (runs < 1 || runs > SB_MAX_RUNS)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid runs: %d", runs),
				 errhint("runs must be between 1 and %d.", SB_MAX_RUNS)));
}

void
sb_check_workers(int32 workers)
{
	if (workers < 0 || workers > SB_MAX_WORKERS)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid parallel_workers: %d", workers),
				 errhint("parallel_workers must be between 0 (no parallel workers) and %d.",
						 SB_MAX_WORKERS)));
}

void
sb_check_query(const char *query)
{
	const char *c = query;

	/* Blank would run "SELECT FROM rel": a scan of nothing per row. */
	while (*c != '\0' && scanner_isspace(*c))
		c++;
	if (*c == '\0')
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("query must not be empty"),
				 errhint("Pass the select list alone, such as 'count(1)'.")));
}

/* The longest budget accepted: a week, far beyond any nightly window. */
void
sb_check_sample(double sample)
{
	if (isnan(sample) || sample <= 0 || sample > 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid sample: %s", float8out_internal(sample)),
				 errhint("sample is the largest fraction of the relation to read, above 0 and at most 1 (all of it).")));
}

void
sb_check_max_seconds(double max_seconds)
{
	if (isnan(max_seconds) || max_seconds <= 0 || max_seconds > SB_MAX_SECONDS)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid max_seconds: %s", float8out_internal(max_seconds)),
				 errhint("max_seconds is the call's time budget, above 0 and at most %.0f (a week).",
						 SB_MAX_SECONDS)));
}

void
sb_check_target_pct(double target_pct)
{
	if (isnan(target_pct) || target_pct < 0 || target_pct > 100)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid target_pct: %s", float8out_internal(target_pct)),
				 errhint("target_pct is the confidence interval's half-width to stop at, in %% of the median, from 0 (never stop early) to 100.")));
}

SbMethod
sb_parse_method(text *arg)
{
	char	   *s = text_to_cstring(arg);

	if (strcmp(s, "pairs") == 0)
		return SB_METHOD_PAIRS;
	if (strcmp(s, "whole") == 0)
		return SB_METHOD_WHOLE;
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("invalid method: \"%s\"", sb_arg_for_message(s)),
			 errhint("Valid methods are \"pairs\" (sampled stretches, the default) and \"whole\" (whole-relation passes).")));
	pg_unreachable();
}

const char *
sb_method_name(SbMethod method)
{
	return method == SB_METHOD_WHOLE ? "whole" : "pairs";
}
