/*-------------------------------------------------------------------------
 *
 * scan_pairs.c
 *	  scan_pairs(): the pairs behind the session's last scan_efficiency or
 *	  scan_advice call, in the order they were measured, a row each: where
 *	  the pair read, which side went first, both sides' times, rates and
 *	  cache residency, the workers they got, and the passes it ran besides
 *	  the two it timed (the trace: src/pairs.c).  What a median hides,
 *	  whether the first pairs differ from the last, is there to see.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "fmgr.h"
#include "funcapi.h"
#include "utils/array.h"
#include "utils/builtins.h"

#include "fnargs.h"
#include "pairs.h"
#include "rows.h"

PG_FUNCTION_INFO_V1(scan_pairs);

static Datum
extra_passes(SbPairTrace *t)
{
	Datum		d[SB_TRACE_EXTRAS];
	int			i;

	for (i = 0; i < t->nextra; i++)
		d[i] = CStringGetTextDatum(t->extra[i]);
	return PointerGetDatum(construct_array(d, t->nextra, TEXTOID, -1, false,
										   TYPALIGN_INT));
}

/* A side's workers: NULL for a raw read. */
static void
workers_column(SbRow *row, const char *name, int workers)
{
	if (workers < 0)
		sb_row_null(row, name);
	else
		sb_row_datum(row, name, Int32GetDatum(workers));
}

Datum
scan_pairs(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	Oid			relid;
	const char *function;
	int			n;
	int			i;

	sb_init_srf(fcinfo);
	function = sb_trace_function(&relid);
	n = function ? sb_trace_count() : 0;
	for (i = 0; i < n; i++)
	{
		SbPairTrace *t = sb_trace_get(i);
		SbRow		row;

		sb_row_init(&row, rsinfo->setDesc, NULL, 0);
		sb_row_text(&row, "function", function);
		sb_row_datum(&row, "relation", ObjectIdGetDatum(relid));
		sb_row_datum(&row, "pair", Int32GetDatum(t->pair));
		sb_row_text(&row, "first_side", t->a_first ? "a" : "b");
		sb_row_text(&row, "side_a", t->label[0]);
		sb_row_text(&row, "side_b", t->label[1]);
		sb_row_datum(&row, "leaf", ObjectIdGetDatum(t->leaf));
		sb_row_datum(&row, "first_block", Int64GetDatum(t->first_block));
		sb_row_datum(&row, "blocks", Int64GetDatum(t->blocks));
		sb_row_float(&row, "a_s", t->seconds[0], 6);
		sb_row_float(&row, "b_s", t->seconds[1], 6);
		sb_row_float(&row, "a_mb_s", t->mb_s[0], 1);
		sb_row_float(&row, "b_mb_s", t->mb_s[1], 1);
		sb_row_float(&row, "ratio", t->mb_s[1] / t->mb_s[0], 4);
		sb_row_float(&row, "a_cached_pct", t->cached_pct[0], 1);
		sb_row_float(&row, "b_cached_pct", t->cached_pct[1], 1);
		sb_row_float(&row, "a_buffers_pct", t->buffers_pct[0], 1);
		sb_row_float(&row, "b_buffers_pct", t->buffers_pct[1], 1);
		workers_column(&row, "a_workers", t->workers[0]);
		workers_column(&row, "b_workers", t->workers[1]);
		sb_row_datum(&row, "a_faults", Int64GetDatum(t->faults[0]));
		sb_row_datum(&row, "b_faults", Int64GetDatum(t->faults[1]));
		sb_row_datum(&row, "extra_passes", extra_passes(t));
		sb_row_float(&row, "at_s", t->at_s, 4);
		sb_row_float(&row, "pair_s", t->pair_s, 4);
		tuplestore_puttuple(rsinfo->setResult, sb_row_tuple(&row));
	}
	return (Datum) 0;
}
