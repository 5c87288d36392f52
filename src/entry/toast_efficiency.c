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
#include "utils/array.h"
#include "utils/builtins.h"

#include "argcheck.h"
#include "fnargs.h"
#include "relcheck.h"
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
columns_array(const SbToastCall *x)
{
	Datum	   *d = palloc(sizeof(Datum) * x->ncolumns);
	int			i;

	for (i = 0; i < x->ncolumns; i++)
		d[i] = CStringGetTextDatum(x->columns[i]);
	return PointerGetDatum(construct_array(d, x->ncolumns, TEXTOID, -1,
										   false, TYPALIGN_INT));
}

Datum
toast_efficiency(PG_FUNCTION_ARGS)
{
	SbArgs		args;
	Oid			relid;
	SbCacheMode cache;
	double		max_seconds;
	SbToastCall x;
	SbToastRounds *rounds = &x.rounds;
	SbRow		row;
	int64		bytes;

	sb_args_refuse_nulls(fcinfo);
	sb_args_init(&args, fcinfo);
	relid = sb_arg_oid(&args, "rel", REGCLASSOID);
	cache = arg_cache(&args);
	max_seconds = sb_arg_float8(&args, "max_seconds", 60.0);
	sb_check_max_seconds(max_seconds);
	sb_check_heap_table(relid, NULL, "Measure one of its partitions.", NULL);
	sb_toast_check(relid);
	sb_row_init(&row, sb_result_tupdesc(fcinfo), NULL, 0);

	sb_toast_call(relid, cache == SB_CACHE_COLD, max_seconds, &x);

	bytes = x.main_bytes + x.toast_bytes + x.index_bytes;
	sb_row_datum(&row, "relation", ObjectIdGetDatum(relid));
	sb_row_datum(&row, "toast_relation", ObjectIdGetDatum(x.toast_relid));
	sb_row_datum(&row, "columns", columns_array(&x));
	sb_row_text(&row, "cache", sb_cache_name(cache));
	sb_row_datum(&row, "rows", Int64GetDatum(rounds->last.rows));
	sb_row_datum(&row, "values_detoasted", Int64GetDatum(rounds->last.values));
	sb_row_datum(&row, "main_bytes", Int64GetDatum(x.main_bytes));
	sb_row_datum(&row, "toast_bytes", Int64GetDatum(x.toast_bytes));
	sb_row_datum(&row, "toast_index_bytes", Int64GetDatum(x.index_bytes));
	sb_row_float(&row, "toast_pct",
				 sb_share_pct((double) (x.toast_bytes + x.index_bytes), (double) bytes), 1);
	sb_row_datum(&row, "rounds", Int32GetDatum(rounds->rounds));
	sb_row_float(&row, "read_s", rounds->read_s / Max(rounds->rounds, 1), 6);
	sb_row_float(&row, "read_mb_s", sb_rate(rounds->read_bytes / SB_MB, rounds->read_s), 1);
	sb_row_float(&row, "scan_s", rounds->scan_s / Max(rounds->rounds, 1), 6);
	sb_row_float(&row, "scan_mb_s",
				 sb_rate((double) bytes * rounds->rounds / SB_MB, rounds->scan_s), 1);
	sb_row_float(&row, "scan_pct", rounds->pct, 1);
	sb_row_float(&row, "pct_low", rounds->pct_lo, 1);
	sb_row_float(&row, "pct_high", rounds->pct_hi, 1);
	sb_row_float(&row, "cached_pct_before", rounds->cached_pct_before, 1);
	sb_row_float(&row, "elapsed_s", x.elapsed_s, 3);
	sb_row_verdict(&row, "verdict", &x.verdict);
	PG_RETURN_DATUM(sb_row_result(&row));
}
