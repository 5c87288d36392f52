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

/*
 * From 18 on the block carries the name and version that pg_get_loaded_modules()
 * shows; the Makefile passes the version from scanbench.control.
 */
#ifdef PG_MODULE_MAGIC_EXT
PG_MODULE_MAGIC_EXT(.name = "scanbench", .version = SB_VERSION);
#else
PG_MODULE_MAGIC;
#endif
