/*-------------------------------------------------------------------------
 *
 * cache.h
 *	  What the caller wants of the caches, and the means to it: eviction
 *	  from shared_buffers and the page cache, residency, and emptying the
 *	  CPU caches (cache.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCANBENCH_CACHE_H
#define SCANBENCH_CACHE_H

#include "relfiles.h"

/* What the caller wants of the caches before the timed pass. */
typedef enum SbCacheMode
{
	SB_CACHE_COLD,				/* evict from shared_buffers and page cache */
	SB_CACHE_WARM,				/* one untimed pass first */
	SB_CACHE_DIRECT,			/* O_DIRECT: bypass the page cache */
	SB_CACHE_ASIS				/* touch nothing */
} SbCacheMode;

/* Memory to read through to empty the CPU caches */
typedef struct SbScrub
{
	char	   *buf;
	size_t		size;
} SbScrub;

/* Share of a target's blocks resident in each cache. */
typedef struct SbResidency
{
	uint64		blocks;
	uint64		os_blocks;		/* all of the block in the page cache */
	uint64		shared_blocks;	/* in shared_buffers or local buffers */
	uint64		any_blocks;		/* in either */
} SbResidency;

extern void sb_evict_page_cache(SbTarget *target);
extern void sb_evict_buffers(SbTarget *target);
extern void sb_evict_buffers_except(SbTarget *target, uint8 **keep);
extern void sb_evict_ring_buffers(SbTarget *target);
extern void sb_residency(SbTarget *target, SbResidency *res);
extern void sb_residency_map(SbTarget *target, SbResidency *res,
							 uint8 **os_bits, uint8 **buf_bits);
extern uint64 sb_segment_os_blocks(SbSegment *seg);
extern void sb_evict_stretch(SbLeaf *leaf, SbSegment *stretch);
extern void sb_evict_stretch_buffers_warm(SbLeaf *leaf, SbSegment *stretch);
extern bool sb_leaf_scanned_through_ring(SbLeaf *leaf);
extern void sb_stretch_residency(SbLeaf *leaf, SbSegment *stretch,
								 SbResidency *res);
extern void sb_map_shared_buffers(double max_s);
extern SbScrub *sb_scrub_alloc(void);
extern void sb_scrub_cpu_caches(SbScrub *scrub);
extern void sb_flush_stretch(SbLeaf *leaf, SbSegment *stretch, SbScrub *scrub);

#endif							/* SCANBENCH_CACHE_H */
