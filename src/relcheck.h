/*-------------------------------------------------------------------------
 *
 * relcheck.h
 *	  Checks of a measured table and of an index of it (relcheck.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCANBENCH_RELCHECK_H
#define SCANBENCH_RELCHECK_H

extern void sb_check_heap_table(Oid relid, const char *partitioned_detail,
								const char *partitioned_hint,
								const char *not_table_detail);
extern void sb_check_range_index(Oid relid, Oid indexid, const char *fname);

#endif							/* SCANBENCH_RELCHECK_H */
