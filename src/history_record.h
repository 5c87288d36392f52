/*-------------------------------------------------------------------------
 *
 * history_record.h
 *	  Recording a scan_efficiency result row in the run history
 *	  (history_record.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCANBENCH_HISTORY_RECORD_H
#define SCANBENCH_HISTORY_RECORD_H

#include "access/tupdesc.h"

extern Oid	sb_history_schema(void);
extern void sb_history_check_record(Oid nsp, const char *what);
extern void sb_history_record(Oid nsp, Datum result, TupleDesc tupdesc);

#endif							/* SCANBENCH_HISTORY_RECORD_H */
