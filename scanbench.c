/*-------------------------------------------------------------------------
 *
 * scanbench.c
 *	  The module's magic block.  The SQL-callable functions are in
 *	  src/entry/, one file per family (raw reads, scan rate, scan
 *	  efficiency, storage, history, Citus); each checks its arguments at the
 *	  top, before anything is opened or evicted, and stands on the
 *	  measuring engine in src/ (one header per module).  No entry file
 *	  calls another: tools/check-layout.sh checks it.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"

PG_MODULE_MAGIC;
