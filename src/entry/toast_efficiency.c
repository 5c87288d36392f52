/*-------------------------------------------------------------------------
 *
 * toast_efficiency.c
 *	  toast_efficiency(rel, cache, max_seconds): a scan that detoasts every
 *	  value of the table's TOASTed columns, as a client fetching its rows
 *	  makes the server do, against raw reads of the bytes it stands on, the
 *	  main fork, the TOAST table and its index, in rounds (toastscan.c).
 *
 * scan_pct is the scan's rate over the three relations' bytes as a
 * percentage of the raw reads' over the same bytes: how much of what the
 * storage gives a reader in order the detoasting scan gets, the TOAST
 * index's lookups and the chunks' assembly and decompression included.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "catalog/pg_type.h"
#include "fmgr.h"
#include "portability/instr_time.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/guc.h"

#include "accesspath.h"
#include "argcheck.h"
#include "cgroup.h"
#include "fnargs.h"
#include "relcheck.h"
#include "relfiles.h"
#include "rows.h"
#include "stats.h"
#include "toastscan.h"
#include "verdict.h"

PG_FUNCTION_INFO_V1(toast_efficiency);

/* cold or warm: a scan as the caches happen to be has no pair to hold */
static SbCacheMode
arg_cache(SbArgs *args)
{
	char	   *s = sb_arg_cstring(args, "cache", "cold");
	SbCacheMode cache = sb_parse_cache(cstring_to_text(s), false);

	if (cache != SB_CACHE_COLD && cache != SB_CACHE_WARM)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid cache mode for toast_efficiency: \"%s\"",
						sb_arg_for_message(s)),
				 errhint("Valid cache modes are \"cold\" and \"warm\": each side of a round starts from the same state.")));
	return cache;
}

static Datum
columns_array(SbToast *t)
{
	Datum	   *d = palloc(sizeof(Datum) * t->ncolumns);
	int			i;

	for (i = 0; i < t->ncolumns; i++)
		d[i] = CStringGetTextDatum(t->columns[i]);
	return PointerGetDatum(construct_array(d, t->ncolumns, TEXTOID, -1,
										   false, TYPALIGN_INT));
}

Datum
toast_efficiency(PG_FUNCTION_ARGS)
{
	SbArgs		args;
	Oid			relid;
	SbCacheMode cache;
	double		max_seconds;
	SbToast    *t;
	SbToastRounds rounds;
	SbVerdict	v;
	SbRow		row;
	uint64		bytes;
	double		limit_rate;
	double		read_rate;
	int			nestlevel;
	instr_time	t0;
	instr_time	now;

	sb_args_refuse_nulls(fcinfo);
	sb_args_init(&args, fcinfo);
	relid = sb_arg_oid(&args, "rel", REGCLASSOID);
	cache = arg_cache(&args);
	max_seconds = sb_arg_float8(&args, "max_seconds", 60.0);
	sb_check_max_seconds(max_seconds);
	sb_check_heap_table(relid, NULL, "Measure one of its partitions.", NULL);
	sb_toast_check(relid);
	sb_row_init(&row, sb_result_tupdesc(fcinfo), NULL, 0);

	INSTR_TIME_SET_CURRENT(t0);
	t = sb_toast_open(relid);

	/* one backend's reads, no JIT, every scan from the first block */
	nestlevel = sb_path_settings_begin();
	sb_toast_plan(t);
	limit_rate = sb_cgroup_path_read_rate(t->main->segments[0]->path, BLCKSZ);

	sb_toast_rounds(t, cache == SB_CACHE_COLD, max_seconds, &rounds);
	AtEOXact_GUC(true, nestlevel);

	bytes = t->main->bytes + t->toast->bytes + t->index->bytes;
	read_rate = sb_rate(rounds.read_bytes / (double) BLCKSZ, rounds.read_s);
	sb_judge_toast(rounds.rounds, rounds.pct, rounds.pct_lo, rounds.pct_hi,
				   cache == SB_CACHE_COLD, rounds.cached_pct_before,
				   read_rate, limit_rate, &v);

	sb_row_datum(&row, "relation", ObjectIdGetDatum(relid));
	sb_row_datum(&row, "toast_relation", ObjectIdGetDatum(t->toast->relid));
	sb_row_datum(&row, "columns", columns_array(t));
	sb_row_text(&row, "cache", sb_cache_name(cache));
	sb_row_datum(&row, "rows", Int64GetDatum(rounds.last.rows));
	sb_row_datum(&row, "values_detoasted", Int64GetDatum(rounds.last.values));
	sb_row_datum(&row, "main_bytes", Int64GetDatum((int64) t->main->bytes));
	sb_row_datum(&row, "toast_bytes", Int64GetDatum((int64) t->toast->bytes));
	sb_row_datum(&row, "toast_index_bytes", Int64GetDatum((int64) t->index->bytes));
	sb_row_float(&row, "toast_pct",
				 sb_share_pct((double) (t->toast->bytes + t->index->bytes), (double) bytes), 1);
	sb_row_datum(&row, "rounds", Int32GetDatum(rounds.rounds));
	sb_row_float(&row, "read_s", rounds.read_s / Max(rounds.rounds, 1), 6);
	sb_row_float(&row, "read_mb_s", sb_rate(rounds.read_bytes / SB_MB, rounds.read_s), 1);
	sb_row_float(&row, "scan_s", rounds.scan_s / Max(rounds.rounds, 1), 6);
	sb_row_float(&row, "scan_mb_s",
				 sb_rate((double) bytes * rounds.rounds / SB_MB, rounds.scan_s), 1);
	sb_row_float(&row, "scan_pct", rounds.pct, 1);
	sb_row_float(&row, "pct_low", rounds.pct_lo, 1);
	sb_row_float(&row, "pct_high", rounds.pct_hi, 1);
	sb_row_float(&row, "cached_pct_before", rounds.cached_pct_before, 1);
	INSTR_TIME_SET_CURRENT(now);
	INSTR_TIME_SUBTRACT(now, t0);
	sb_row_float(&row, "elapsed_s", INSTR_TIME_GET_DOUBLE(now), 3);
	sb_row_verdict(&row, "verdict", &v);
	sb_toast_close(t);

	PG_RETURN_DATUM(sb_row_result(&row));
}
