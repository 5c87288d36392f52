/*-------------------------------------------------------------------------
 *
 * history_changes.h
 *	  What changed between a recorded run and the runs it is compared
 *	  with, in the words of a verdict (history_changes.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCANBENCH_HISTORY_CHANGES_H
#define SCANBENCH_HISTORY_CHANGES_H

#include "access/htup.h"
#include "utils/array.h"

extern char *sb_history_changes(HeapTupleHeader cur, ArrayType *compared);

#endif							/* SCANBENCH_HISTORY_CHANGES_H */
