/*-------------------------------------------------------------------------
 *
 * fileread.c
 *	  The raw_read family's reads of a relation's files, after the caches
 *	  are put in the state asked for: in order with reads in flight
 *	  (seqread.c), and at random (randio.c).
 *
 * A random read is of whole blocks inside one file, its offsets within the
 * member relation across its segments; each file is opened by the reads
 * as they reach it (randio.c), with no read-ahead for a buffered one, as
 * fio does for random jobs.  Under the server's read throttle a first
 * allowance is drained untimed, as the sequential figures keep it out.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"
#include "utils/lsyscache.h"

#include "cache.h"
#include "cgroup.h"
#include "fileread.h"
#include "randio.h"
#include "seqread.h"
#include "stats.h"

/*
 * Seconds of a read throttle's rate read untimed first: blk-throttle let
 * 600 random reads run at 456 a second under a limit of 400 (an allowance
 * of about 0.14 s of the rate), 3000 at 405.
 */
#define SB_ALLOWANCE_S	0.3

static off_t
largest_segment(SbTarget *target)
{
	off_t		largest = 0;
	int			i;

	for (i = 0; i < target->nsegments; i++)
		largest = Max(largest, target->segments[i]->bytes);
	return largest;
}

/*
 * Put the relation's files in the page-cache state asked for (cold:
 * evicted; warm: one untimed pass) before timed reads that bypass
 * sb_raw_read(), and return how many of its blocks the page cache holds.
 */
static uint64
prepare_cache(SbTarget *target, SbCacheMode cache, int32 block_size)
{
	uint64		cached = 0;
	int			i;

	if (cache == SB_CACHE_COLD)
		sb_evict_page_cache(target);
	else if (cache == SB_CACHE_WARM)
	{
		SbReadResult warm;

		sb_raw_read(target, Max(block_size, 1024 * 1024), SB_CACHE_ASIS,
					&warm, NULL);
	}
	for (i = 0; i < target->nsegments; i++)
		cached += sb_segment_os_blocks(target->segments[i]);
	return cached;
}

/*
 * The whole relation in order, depth reads of block_size in flight
 * (seqread.c), after putting the caches in the state asked for.
 */
void
sb_file_read_in_flight(SbTarget *target, int32 block_size, SbCacheMode cache,
					   int32 depth, SbReadResult *total)
{
	uint64		cached = prepare_cache(target, cache, block_size);

	(void) sb_read_in_flight(target->segments, target->nsegments, block_size,
							 depth, cache == SB_CACHE_DIRECT, false, total);
	total->cached_pct_before = sb_pct(cached, target->nblocks);
}

/*
 * reads random reads of block_size over target's files, depth in flight,
 * after putting the caches in the state asked for; returns the share of
 * the relation the page cache held before them, %.
 */
double
sb_file_random_read(SbTarget *target, SbCacheMode cache, int reads,
					int block_size, int depth, SbRandomResult *r)
{
	bool		direct = (cache == SB_CACHE_DIRECT);
	SbRandomFile *files;
	uint64		cached = 0;
	uint64		chunks = 0;
	uint64		warmup;
	int			i;

	/*
	 * Reads are of whole blocks inside one file: a relation without one
	 * would give a row of no reads, which reads as a measurement.
	 */
	for (i = 0; i < target->nsegments; i++)
		chunks += target->segments[i]->bytes / block_size;
	if (chunks == 0 && target->nblocks == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("\"%s\" is empty: there is nothing to read",
						get_rel_name(target->relid))));
	if (chunks == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("\"%s\" is smaller than one block of %d bytes",
						get_rel_name(target->relid), block_size),
				 errdetail("Its largest file holds %lld bytes.",
						   (long long) largest_segment(target)),
				 errhint("Pass a smaller block_size.")));

	cached = prepare_cache(target, cache, block_size);

	/* opened by the reads, as they reach them (randio.c) */
	files = palloc0(sizeof(SbRandomFile) * Max(target->nsegments, 1));
	for (i = 0; i < target->nsegments; i++)
	{
		SbSegment  *seg = target->segments[i];

		files[i].fd = -1;
		files[i].path = seg->path;
		files[i].direct = direct;
		/* No read-ahead for the descriptor, as fio does for random jobs. */
		files[i].advise_random = !direct;
		files[i].chunks = seg->bytes / block_size;
		/* Offsets within the member relation, across its segments. */
		files[i].base = (uint64) seg->first_block * BLCKSZ;
	}

	/*
	 * Under the server's read throttle, a first allowance is drained
	 * untimed, as the sequential figures keep it out (burst): reads for
	 * SB_ALLOWANCE_S at the throttle's rate, of other blocks.
	 */
	warmup = sb_cgroup_allowance_reads(target->segments[0]->path, block_size,
									   SB_ALLOWANCE_S);
	sb_random_read_drained(files, target->nsegments, block_size, warmup,
						   reads, depth, r);
	pfree(files);

	return sb_pct(cached, target->nblocks);
}
