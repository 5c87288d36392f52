/*-------------------------------------------------------------------------
 *
 * restore.c
 *	  After a cold measurement, put back what the caches held before it:
 *	  a cold figure evicts the relation on purpose, and a nightly check
 *	  must not leave the morning's first queries reading from disk.
 *
 * The snapshot is taken once the relation is locked and before anything
 * is evicted: a bit per block for the page cache (mincore) and one for
 * shared_buffers (or the backend's local buffers), cache.c's residency.
 * The restore then, as pg_prewarm's 'buffer' mode does, reads each block
 * that was in a buffer back through the buffer manager (ReadBuffer, then
 * release: the page stays, unpinned, for the next query), reads the blocks
 * that were in the page cache only with plain pread()s of contiguous runs
 * (pg_prewarm's 'read' mode; posix_fadvise(WILLNEED) would only start the
 * reads, and the result could not say what was restored), and drops from
 * the page cache the blocks the measurement left there that were not there
 * before (POSIX_FADV_DONTNEED, which never drops a dirty page: the drops are
 * made again, a few times, until none is left).
 *
 * Blocks the measurement left in shared_buffers that were not there before
 * are evicted first, as a cold measurement evicts (cache.c: dirty ones are
 * written out, pinned ones stay), except in a temp table's local buffers,
 * which the server drops only all at once.  The result says how close the
 * end is to the start, in cached_pct_start and cached_pct_end.
 *
 * Files are opened read-only and read; nothing is written.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <fcntl.h>
#include <math.h>
#include <unistd.h>

#include "miscadmin.h"
#include "portability/instr_time.h"
#include "storage/bufmgr.h"
#include "storage/fd.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"

#include "compat.h"
#include "seqread.h"
#include "restore.h"
#include "stats.h"

/* The largest pread of a run of blocks put back into the page cache. */
#define SB_RESTORE_CHUNK	(1024 * 1024)

/*
 * Drops made again while blocks not cached at the start stay cached, after
 * pauses that double from the first: at most 10 + 20 + 40 + 80 ms.
 */
#define SB_RESTORE_DROP_ROUNDS		4
#define SB_RESTORE_DROP_PAUSE_US	10000L

static inline bool
block_bit(uint8 *const *bits, int leaf, BlockNumber blk)
{
	return (bits[leaf][blk / 8] & (1 << (blk % 8))) != 0;
}

void
sb_cache_snapshot(SbTarget *target, SbCacheSnapshot *snap)
{
	snap->nleaves = target->nleaves;
	snap->os_bits = palloc0(sizeof(uint8 *) * Max(target->nleaves, 1));
	snap->buf_bits = palloc0(sizeof(uint8 *) * Max(target->nleaves, 1));
	sb_residency_map(target, &snap->before, snap->os_bits, snap->buf_bits);
}

/* Blocks that were in a buffer: read back through the buffer manager. */
static uint64
restore_buffers(SbLeaf *leaf, uint8 *const *buf_bits, int l)
{
	uint64		n = 0;
	BlockNumber blk;

	for (blk = 0; blk < leaf->nblocks; blk++)
	{
		Buffer		buf;

		if (!block_bit(buf_bits, l, blk))
			continue;
		CHECK_FOR_INTERRUPTS();
		buf = ReadBufferExtended(leaf->rel, MAIN_FORKNUM, blk, RBM_NORMAL, NULL);
		ReleaseBuffer(buf);
		n++;
	}
	return n;
}

/* Whether a block was in either cache at the start. */
static inline bool
wanted(SbCacheSnapshot *snap, int l, BlockNumber blk)
{
	return block_bit(snap->os_bits, l, blk) || block_bit(snap->buf_bits, l, blk);
}

/*
 * One segment file's page cache: with drop false, read back the runs of
 * blocks that were there and are not in a buffer now (those were just read
 * through it); with drop true, drop the runs that were not there.  Returns
 * the blocks read or the blocks dropped.
 */
static uint64
restore_segment(SbSegment *seg, SbCacheSnapshot *snap, int l, char *chunk,
				bool drop)
{
	BlockNumber nblocks = seg->bytes / BLCKSZ;
	BlockNumber b;
	uint64		n = 0;
	int			fd;

	if (nblocks == 0)
		return 0;
	fd = sb_open_segment(seg, false, false);

	/*
	 * No read-ahead on this descriptor: it would bring in pages past a run
	 * that were not cached, some after the run beyond was dropped.
	 */
	(void) posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM);
	for (b = 0; b < nblocks;)
	{
		BlockNumber lb = seg->first_block + b;
		bool		want = wanted(snap, l, lb);
		BlockNumber run = 1;
		off_t		off = seg->offset + (off_t) b * BLCKSZ;

		/*
		 * The run of blocks that want the same, at most one chunk long for a
		 * read.  A drop takes the whole run at once: the page cache holds
		 * large folios (2 MB ones after a long read-ahead), and a drop of
		 * part of one drops nothing.
		 */
		while (b + run < nblocks &&
			   (drop || run < SB_RESTORE_CHUNK / BLCKSZ) &&
			   wanted(snap, l, lb + run) == want)
			run++;

		CHECK_FOR_INTERRUPTS();
		if (want && !drop)
		{
			ssize_t		got = pread(fd, chunk, (size_t) run * BLCKSZ, off);

			if (got < 0)
				ereport(ERROR,
						(errcode_for_file_access(),
						 errmsg("could not read file \"%s\": %m", seg->path)));
			if (got < (ssize_t) run * BLCKSZ)
				sb_segment_short_read(seg, off - seg->offset + got);
			n += got / BLCKSZ;
		}
		else if (!want && drop)
		{
			int			rc = posix_fadvise(fd, off, (off_t) run * BLCKSZ,
										   POSIX_FADV_DONTNEED);

			if (rc != 0)
				ereport(ERROR,
						(errcode_for_file_access(),
						 errmsg("could not evict \"%s\" from the page cache: %s",
								seg->path, strerror(rc))));
			n += run;
		}
		b += run;
	}
	CloseTransientFile(fd);
	return n;
}

/*
 * Blocks wholly in the page cache now (os_after) that were in no cache at
 * the start.
 */
static uint64
count_extra(SbTarget *target, SbCacheSnapshot *snap, uint8 *const *os_after)
{
	uint64		n = 0;
	int			l;

	for (l = 0; l < target->nleaves; l++)
	{
		BlockNumber blk;

		for (blk = 0; blk < target->leaves[l].nblocks; blk++)
			if (block_bit(os_after, l, blk) && !wanted(snap, l, blk))
				n++;
	}
	return n;
}

static void
free_bits(SbTarget *target, uint8 **bits)
{
	int			l;

	for (l = 0; l < target->nleaves; l++)
		if (bits[l])
			pfree(bits[l]);
	memset(bits, 0, sizeof(uint8 *) * Max(target->nleaves, 1));
}

void
sb_cache_restore(SbTarget *target, SbCacheSnapshot *snap,
				 SbRestoreResult *result)
{
	char	   *chunk = palloc(SB_RESTORE_CHUNK);
	uint8	  **os_after = palloc0(sizeof(uint8 *) * Max(target->nleaves, 1));
	uint8	  **buf_after = palloc0(sizeof(uint8 *) * Max(target->nleaves, 1));
	SbResidency after;
	instr_time	start,
				end;
	uint64		kept = 0,
				before_any = 0;
	int			l,
				i,
				round;

	Assert(snap->nleaves == target->nleaves);
	memset(result, 0, sizeof(SbRestoreResult));
	INSTR_TIME_SET_CURRENT(start);

	sb_evict_buffers_except(target, snap->buf_bits);
	for (l = 0; l < target->nleaves; l++)
	{
		SbLeaf	   *leaf = &target->leaves[l];

		result->blocks_read += restore_buffers(leaf, snap->buf_bits, l);
		for (i = 0; i < leaf->nsegments; i++)
			result->blocks_read += restore_segment(&leaf->segments[i], snap, l,
												   chunk, false);
	}
	/* The reads first, then the drops, so that no read undoes a drop. */
	for (l = 0; l < target->nleaves; l++)
		for (i = 0; i < target->leaves[l].nsegments; i++)
			result->blocks_dropped += restore_segment(&target->leaves[l].segments[i],
													  snap, l, chunk, true);

	/*
	 * A drop skips dirty pages (the eviction above just wrote them; the
	 * drop starts their writeback) and pages under writeback.  Look again,
	 * and drop again after a pause, until no block is cached that was not,
	 * a few times at most.  The first look is the one the result needs
	 * anyway: with nothing left over, this costs nothing more.
	 */
	for (round = 0;; round++)
	{
		sb_residency_map(target, &after, os_after, buf_after);
		if (round == SB_RESTORE_DROP_ROUNDS ||
			count_extra(target, snap, os_after) == 0)
			break;
		free_bits(target, os_after);
		free_bits(target, buf_after);
		pg_usleep(SB_RESTORE_DROP_PAUSE_US << round);
		for (l = 0; l < target->nleaves; l++)
			for (i = 0; i < target->leaves[l].nsegments; i++)
				(void) restore_segment(&target->leaves[l].segments[i], snap, l,
									   chunk, true);
	}
	INSTR_TIME_SET_CURRENT(end);
	INSTR_TIME_SUBTRACT(end, start);
	result->seconds = INSTR_TIME_GET_DOUBLE(end);

	/* How close the end is to the start, block by block. */
	for (l = 0; l < target->nleaves; l++)
	{
		BlockNumber blk;

		for (blk = 0; blk < target->leaves[l].nblocks; blk++)
		{
			if (!wanted(snap, l, blk))
				continue;
			before_any++;
			if (block_bit(os_after, l, blk) || block_bit(buf_after, l, blk))
				kept++;
		}
		pfree(os_after[l]);
		pfree(buf_after[l]);
	}
	result->cached_pct_start = sb_pct(snap->before.any_blocks, target->nblocks);
	result->cached_pct_end = sb_pct(after.any_blocks, target->nblocks);
	result->restored_pct = before_any > 0 ? 100.0 * kept / before_any : NAN;
	pfree(os_after);
	pfree(buf_after);
	pfree(chunk);
}

/*
 * A snapshot as bytes, and back.  On a Citus cluster each node takes the
 * snapshot of its placements in one step and restores it in another, each
 * a transaction of its own on a connection the coordinator may not keep:
 * the node hands the snapshot to the coordinator, which hands it back.
 * The layout is this library's own: the residency at the start, the
 * number of leaves, then each leaf's block count and its two bitmaps.
 */
typedef struct SbSnapshotHeader
{
	SbResidency before;
	int32		nleaves;
} SbSnapshotHeader;

static Size
bitmap_bytes(BlockNumber nblocks)
{
	return nblocks / 8 + 1;
}

bytea *
sb_cache_snapshot_bytes(SbTarget *target, SbCacheSnapshot *snap)
{
	SbSnapshotHeader hdr;
	Size		len = VARHDRSZ + sizeof(hdr);
	bytea	   *out;
	char	   *p;
	int			l;

	for (l = 0; l < target->nleaves; l++)
		len += sizeof(uint32) + 2 * bitmap_bytes(target->leaves[l].nblocks);
	out = palloc(len);
	SET_VARSIZE(out, len);
	p = VARDATA(out);
	memset(&hdr, 0, sizeof(hdr));
	hdr.before = snap->before;
	hdr.nleaves = target->nleaves;
	memcpy(p, &hdr, sizeof(hdr));
	p += sizeof(hdr);
	for (l = 0; l < target->nleaves; l++)
	{
		uint32		nblocks = target->leaves[l].nblocks;
		Size		n = bitmap_bytes(nblocks);

		memcpy(p, &nblocks, sizeof(nblocks));
		p += sizeof(nblocks);
		memcpy(p, snap->os_bits[l], n);
		p += n;
		memcpy(p, snap->buf_bits[l], n);
		p += n;
	}
	return out;
}

static void
snapshot_mismatch(SbTarget *target)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("the cache snapshot does not fit \"%s\"",
					get_rel_name(target->relid)),
			 errdetail("It was not taken of this relation by this version of scanbench.")));
}

/*
 * A relation that grew since the snapshot gets its new blocks as not
 * cached; one that shrank loses the bits past its end.
 */
void
sb_cache_snapshot_from_bytes(SbTarget *target, bytea *bytes,
							 SbCacheSnapshot *snap)
{
	SbSnapshotHeader hdr;
	const char *p = VARDATA_ANY(bytes);
	const char *end = p + VARSIZE_ANY_EXHDR(bytes);
	int			l;

	if (end - p < (ptrdiff_t) sizeof(hdr))
		snapshot_mismatch(target);
	memcpy(&hdr, p, sizeof(hdr));
	p += sizeof(hdr);
	if (hdr.nleaves != target->nleaves)
		snapshot_mismatch(target);
	snap->before = hdr.before;
	snap->nleaves = target->nleaves;
	snap->os_bits = palloc0(sizeof(uint8 *) * Max(target->nleaves, 1));
	snap->buf_bits = palloc0(sizeof(uint8 *) * Max(target->nleaves, 1));
	for (l = 0; l < target->nleaves; l++)
	{
		uint32		nblocks;
		Size		have = bitmap_bytes(target->leaves[l].nblocks);
		Size		n;

		if (end - p < (ptrdiff_t) sizeof(nblocks))
			snapshot_mismatch(target);
		memcpy(&nblocks, p, sizeof(nblocks));
		p += sizeof(nblocks);
		n = bitmap_bytes(nblocks);
		if ((Size) (end - p) < 2 * n)
			snapshot_mismatch(target);
		snap->os_bits[l] = palloc0(have);
		snap->buf_bits[l] = palloc0(have);
		memcpy(snap->os_bits[l], p, Min(n, have));
		memcpy(snap->buf_bits[l], p + n, Min(n, have));
		/* the bits past the last block of a shrunk relation are dropped */
		if (n > have)
		{
			uint8		mask = (1 << (target->leaves[l].nblocks % 8)) - 1;

			snap->os_bits[l][have - 1] &= mask;
			snap->buf_bits[l][have - 1] &= mask;
		}
		p += 2 * n;
	}
}
