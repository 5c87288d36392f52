/*-------------------------------------------------------------------------
 *
 * seqread.h
 *	  Raw reads of a relation's segment files, whole or by stretch, buffered
 *	  or O_DIRECT (seqread.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCANBENCH_SEQREAD_H
#define SCANBENCH_SEQREAD_H

#include "cache.h"
#include "clock.h"
#include "relfiles.h"

/* One raw read of one segment file, or of all of them. */
typedef struct SbReadResult
{
	uint64		bytes;
	uint64		reads;
	double		cached_pct_before;
	SbTiming	timing;
} SbReadResult;

extern void sb_raw_read(SbTarget *target, int block_size, SbCacheMode cache,
						SbReadResult *total, SbReadResult *per_segment);
extern bool sb_raw_read_stretch(SbSegment *stretch, char *buf, int block_size,
								bool direct, SbReadResult *result);
extern void sb_raw_read_segments(SbSegment **segs, int nsegs, int block_size,
								 SbReadResult *total);
extern char *sb_aligned_buffer(int block_size);
extern bool sb_read_in_flight(SbSegment **segs, int nsegs, int block_size,
							  int depth, bool direct, bool refuse_ok,
							  SbReadResult *result);

#endif							/* SCANBENCH_SEQREAD_H */
