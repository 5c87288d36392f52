/*-------------------------------------------------------------------------
 *
 * judge_changes.c
 *	  scanbench_internal.scan_history_changes(): what changed between a
 *	  recorded run and the runs it is compared with (history_changes.c),
 *	  the words scan_history_verdict puts in a verdict.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "utils/array.h"
#include "utils/builtins.h"

#include "history_changes.h"

PG_FUNCTION_INFO_V1(scan_history_changes);

/*
 * scan_history_changes(cur scan_history, compared scan_history[]) -> text
 *
 * NULL when nothing changed, or no run is given; compared runs not given
 * are none.
 */
Datum
scan_history_changes(PG_FUNCTION_ARGS)
{
	char	   *changes;

	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	changes = sb_history_changes(PG_GETARG_HEAPTUPLEHEADER(0),
								 PG_ARGISNULL(1) ? NULL : PG_GETARG_ARRAYTYPE_P(1));
	if (changes == NULL)
		PG_RETURN_NULL();
	PG_RETURN_TEXT_P(cstring_to_text(changes));
}
