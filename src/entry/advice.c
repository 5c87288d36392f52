/*-------------------------------------------------------------------------
 *
 * advice.c
 *	  scan_advice(): what would make this scan faster here, a row per
 *	  candidate change, measured where a session can try it and predicted
 *	  where it cannot (the engine: src/advice.c, which says how).
 *
 * Everything is checked before anything is measured; the budget covers
 * the whole call, the breakdown's passes first and the trials in the time
 * left; the settings tried are undone after each scan and by abort.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "catalog/pg_type.h"
#include "fmgr.h"
#include "funcapi.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"

#include "advice.h"
#include "argcheck.h"
#include "citus.h"
#include "fnargs.h"
#include "pairs.h"
#include "relfiles.h"
#include "rows.h"

PG_FUNCTION_INFO_V1(scan_advice);

/* One row: a setting, what it gives the scan and how to apply it. */
static void
put_row(ReturnSetInfo *rsinfo, Oid relid, const SbAdvice *adv)
{
	SbRow		row;

	sb_row_init(&row, rsinfo->setDesc, NULL, 0);
	sb_row_datum(&row, "relation", ObjectIdGetDatum(relid));
	sb_row_text(&row, "setting", adv->setting);
	sb_row_text(&row, "value", adv->value);
	sb_row_text(&row, "current", adv->current);
	sb_row_float(&row, "gain", adv->gain, 2);
	sb_row_float(&row, "gain_lo", adv->gain_lo, 2);
	sb_row_float(&row, "gain_hi", adv->gain_hi, 2);
	sb_row_datum(&row, "measured", BoolGetDatum(adv->measured));
	sb_row_datum(&row, "pairs", Int32GetDatum(adv->pairs));
	sb_row_text(&row, "basis", adv->basis);
	sb_row_text(&row, "cost", adv->cost);
	sb_row_text(&row, "command", adv->command);
	tuplestore_puttuple(rsinfo->setResult, sb_row_tuple(&row));
}

Datum
scan_advice(PG_FUNCTION_ARGS)
{
	Oid			relid;
	SbCacheMode cache;
	double		max_seconds;
	char	   *query;
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	SbAdviceArgs args;
	SbArgs		a;
	List	   *advice;
	ListCell   *lc;

	/* A NULL is refused by its argument's name before anything is read. */
	sb_args_refuse_nulls(fcinfo);
	sb_args_init(&a, fcinfo);
	relid = sb_arg_oid(&a, "rel", REGCLASSOID);
	cache = sb_parse_cache(cstring_to_text(sb_arg_cstring(&a, "cache", "cold")), false);
	max_seconds = sb_arg_float8(&a, "max_seconds", 60);
	query = sb_arg_cstring(&a, "query", "count(1)");

	INSTR_TIME_SET_CURRENT(args.start);
	sb_check_max_seconds(max_seconds);
	sb_check_query(query);
	sb_citus_refuse(relid, "scan_advice");
	sb_init_srf(fcinfo);
	/* From here, scan_pairs() shows this call's pairs. */
	sb_trace_begin("scan_advice", relid);

	args.target = sb_target_open(relid, SB_TARGET_SCAN);
	args.cache = cache;
	args.query = query;
	args.max_seconds = max_seconds;
	if (args.target->nblocks == 0)
		ereport(NOTICE,
				(errmsg("\"%s\" is empty: there is no scan to make faster",
						get_rel_name(relid))));
	advice = args.target->nblocks > 0 ? sb_advise(&args) : NIL;

	foreach(lc, advice)
		put_row(rsinfo, relid, lfirst(lc));
	sb_target_close(args.target);

	return (Datum) 0;
}
