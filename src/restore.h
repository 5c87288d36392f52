/*-------------------------------------------------------------------------
 *
 * restore.h
 *	  Putting a relation's cached blocks back after a cold measurement
 *	  (restore.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCANBENCH_RESTORE_H
#define SCANBENCH_RESTORE_H

#include "cache.h"
#include "relfiles.h"

/* Which of a target's blocks each cache held, before anything was done. */
typedef struct SbCacheSnapshot
{
	int			nleaves;
	uint8	  **os_bits;		/* a bit per block of each leaf: page cache */
	uint8	  **buf_bits;		/* shared_buffers (or local buffers) */
	SbResidency before;
} SbCacheSnapshot;

typedef struct SbRestoreResult
{
	double		cached_pct_start;	/* blocks in either cache at the start, % */
	double		cached_pct_end;		/* after the restore, % */
	double		restored_pct;	/* of the blocks cached at the start, % cached again */
	double		seconds;		/* wall time of the restore */
	uint64		blocks_read;	/* read back into a cache */
	uint64		blocks_dropped; /* dropped from the page cache, not there at the start */
} SbRestoreResult;

extern void sb_cache_snapshot(SbTarget *target, SbCacheSnapshot *snap);
extern void sb_cache_restore(SbTarget *target, SbCacheSnapshot *snap,
							 SbRestoreResult *result);
extern bytea *sb_cache_snapshot_bytes(SbTarget *target, SbCacheSnapshot *snap);
extern void sb_cache_snapshot_from_bytes(SbTarget *target, bytea *bytes,
										 SbCacheSnapshot *snap);

#endif							/* SCANBENCH_RESTORE_H */
