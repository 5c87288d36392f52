/*-------------------------------------------------------------------------
 *
 * cache.c
 *	  Cache control and its verification: evicting a relation's pages from
 *	  shared_buffers and from the OS page cache, and counting how many of
 *	  its blocks each cache holds.
 *
 * Eviction from shared_buffers never discards data and never takes a
 * buffer from under someone: the relation's dirty buffers are first
 * written out through the buffer manager (FlushRelationsAllBuffers for
 * all leaves at once, which takes each buffer's content lock in share mode
 * while writing it), then each buffer that is still clean and unpinned is
 * removed from the buffer mapping table.  Before PostgreSQL 17 this is done here, holding the
 * mapping partition lock (exclusive) and the buffer header spinlock of one
 * buffer at a time, for the handful of instructions the removal takes;
 * from 17 on, the server's EvictUnpinnedBuffer() does the same.  A buffer
 * that is pinned or re-dirtied meanwhile is left where it is and shows in
 * the residency that follows.
 *
 * The page cache is asked to drop the files' pages with
 * posix_fadvise(POSIX_FADV_DONTNEED) after fdatasync(): the kernel cannot
 * drop dirty pages, and PostgreSQL's own writes may not have reached the
 * disk yet.  Files are opened read-only; fdatasync writes nothing of ours.
 * mincore() on a read-only mapping then says what really left.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include "miscadmin.h"
#include "storage/buf_internals.h"
#include "storage/bufmgr.h"
#include "storage/fd.h"
#include "storage/smgr.h"
#include "utils/rel.h"

#include "cache.h"
#include "clock.h"
#include "compat.h"
#include "compat_bufmgr.h"

/* How often the long loops over buffers check for cancel. */
#define SB_INTERRUPT_EVERY	4096

/* ---- OS page cache ---- */

void
sb_evict_page_cache(SbTarget *target)
{
	int			i;

	for (i = 0; i < target->nsegments; i++)
	{
		SbSegment  *seg = target->segments[i];
		int			fd;
		int			rc;

		CHECK_FOR_INTERRUPTS();
		fd = sb_open_segment(seg, false, false);
		if (fdatasync(fd) != 0)
			ereport(ERROR,
					(errcode_for_file_access(),
					 errmsg("could not write out dirty pages of \"%s\": %m",
							seg->path)));
		rc = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
		if (rc != 0)
			ereport(ERROR,
					(errcode_for_file_access(),
					 errmsg("could not evict \"%s\" from the page cache: %s",
							seg->path, strerror(rc))));
		CloseTransientFile(fd);
	}
}

/*
 * Mark in "bits" the blocks of one stretch whose every OS page is resident,
 * and return how many there are.  bits is indexed by the leaf's block
 * number less base; pass NULL to count only.
 */
static uint64
segment_os_resident(SbSegment *seg, uint8 *bits, BlockNumber base)
{
	long		pagesize = sysconf(_SC_PAGESIZE);
	BlockNumber nblocks = seg->bytes / BLCKSZ;
	size_t		npages;
	unsigned char *vec;
	void	   *map;
	uint64		count = 0;
	BlockNumber b;
	int			fd;

	if (seg->bytes == 0)
		return 0;

	fd = sb_open_segment(seg, false, false);
	/*
	 * mincore() faults on nothing, but pages past a shrunk file's end would
	 * read as "not cached" and pass for a cold stretch: say what changed.
	 */
	sb_segment_check_size(fd, seg);
	/* offset is block-aligned, hence page-aligned as mmap wants. */
	map = mmap(NULL, seg->bytes, PROT_READ, MAP_SHARED, fd, seg->offset);
	if (map == MAP_FAILED)
	{
		int			save_errno = errno;

		CloseTransientFile(fd);
		errno = save_errno;
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not map file \"%s\": %m", seg->path)));
	}
	npages = (seg->bytes + pagesize - 1) / pagesize;
	vec = palloc(npages);
	if (mincore(map, seg->bytes, vec) != 0)
	{
		int			save_errno = errno;

		munmap(map, seg->bytes);
		CloseTransientFile(fd);
		errno = save_errno;
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not get page cache residency of \"%s\": %m",
						seg->path)));
	}
	munmap(map, seg->bytes);
	CloseTransientFile(fd);

	for (b = 0; b < nblocks; b++)
	{
		size_t		first = ((size_t) b * BLCKSZ) / pagesize;
		size_t		last = ((size_t) (b + 1) * BLCKSZ - 1) / pagesize;
		size_t		p;
		bool		resident = true;

		for (p = first; p <= last; p++)
		{
			if ((vec[p] & 1) == 0)
			{
				resident = false;
				break;
			}
		}
		if (resident)
		{
			count++;
			if (bits)
			{
				BlockNumber lb = seg->first_block + b - base;

				bits[lb / 8] |= (uint8) (1 << (lb % 8));
			}
		}
	}
	pfree(vec);
	return count;
}

uint64
sb_segment_os_blocks(SbSegment *seg)
{
	return segment_os_resident(seg, NULL, 0);
}

/* ---- shared_buffers and local buffers ---- */

/*
 * The target's shared (not temp) leaves sorted by file identity, so that
 * each buffer is looked up with one bsearch: a pass over shared_buffers
 * costs NBuffers × log(leaves), not NBuffers × leaves, for a table of
 * thousands of partitions.  Any total order will do; memcmp of the three
 * Oids is one.
 */
typedef struct SbLeafKey
{
	SbFileId	fileid;
	int			leaf;			/* index in target->leaves */
} SbLeafKey;

typedef struct SbLeafIndex
{
	int			n;
	SbLeafKey  *keys;
} SbLeafIndex;

static int
leaf_key_cmp(const void *a, const void *b)
{
	return memcmp(&((const SbLeafKey *) a)->fileid,
				  &((const SbLeafKey *) b)->fileid, sizeof(SbFileId));
}

static void
leaf_index_build(SbTarget *target, SbLeafIndex *idx)
{
	int			i;

	idx->n = 0;
	idx->keys = palloc(sizeof(SbLeafKey) * Max(target->nleaves, 1));
	for (i = 0; i < target->nleaves; i++)
	{
		if (target->leaves[i].local)
			continue;
		/* Zero first: memcmp must not see padding, should there be any. */
		memset(&idx->keys[idx->n], 0, sizeof(SbLeafKey));
		idx->keys[idx->n].fileid = target->leaves[i].fileid;
		idx->keys[idx->n].leaf = i;
		idx->n++;
	}
	qsort(idx->keys, idx->n, sizeof(SbLeafKey), leaf_key_cmp);
}

/* The index of the leaf a tag's main-fork page belongs to, or -1. */
static int
leaf_of_tag(SbLeafIndex *idx, BufferTag *tag)
{
	SbLeafKey	key;
	SbLeafKey  *found;

	if (idx->n == 0 || sb_buftag_forknum(*tag) != MAIN_FORKNUM)
		return -1;
	memset(&key, 0, sizeof(key));
	key.fileid = sb_buftag_fileid(*tag);
	found = bsearch(&key, idx->keys, idx->n, sizeof(SbLeafKey), leaf_key_cmp);
	return found ? found->leaf : -1;
}

/*
 * The leaf whose valid page a shared buffer holds, with the buffer's tag,
 * or -1.  An unlocked look at the tag comes first, since nearly all
 * buffers belong to other relations; the header lock is taken only to
 * read a tag that looked like ours.
 */
static int
buffer_leaf(SbLeafIndex *idx, BufferDesc *desc, BufferTag *tag)
{
	SbBufState	state;

	*tag = desc->tag;
	if (leaf_of_tag(idx, tag) < 0)
		return -1;

	state = LockBufHdr(desc);
	*tag = desc->tag;
	sb_unlock_buf_hdr(desc, state);
	if (!(state & BM_VALID))
		return -1;
	return leaf_of_tag(idx, tag);
}

/* Temp tables: the backend's own local buffers, which only it can pin. */
static void
evict_local_buffers(SbLeaf *leaf)
{
	int			i;

	for (i = 0; i < NLocBuffer; i++)
	{
		BufferDesc *desc = GetLocalBufferDescriptor(i);

		if (LocalRefCount[i] != 0 &&
			sb_buftag_matches(desc->tag, leaf->fileid))
			return;				/* a cursor of ours is on it: leave it */
	}
	sb_drop_local_buffers(leaf->fileid);
}

/*
 * Write out the target's dirty buffers and evict the rest: one pass over
 * shared_buffers to flush every shared leaf at once (the buffer manager's
 * own sorted lookup), one more to evict, whatever the number of leaves.
 */
void
sb_evict_buffers(SbTarget *target)
{
	sb_evict_buffers_except(target, NULL);
}

/*
 * The same, keeping the blocks whose bit is set in keep (one bitmap per
 * leaf, as sb_residency_map gives them); a temp leaf's local buffers are
 * then left alone, since the server drops those only all at once.
 */
void
sb_evict_buffers_except(SbTarget *target, uint8 **keep)
{
	SMgrRelation *smgrs = palloc(sizeof(SMgrRelation) * Max(target->nleaves, 1));
	int			nshared = 0;
	SbLeafIndex idx;
	int			i;

	for (i = 0; i < target->nleaves; i++)
	{
		SbLeaf	   *leaf = &target->leaves[i];

		CHECK_FOR_INTERRUPTS();
		if (leaf->local)
		{
			if (keep)
				continue;
			/* Write dirty pages through the buffer manager, never drop them. */
			FlushRelationBuffers(leaf->rel);
			evict_local_buffers(leaf);
		}
		else
			smgrs[nshared++] = RelationGetSmgr(leaf->rel);
	}
	if (nshared == 0)
	{
		pfree(smgrs);
		return;
	}
	FlushRelationsAllBuffers(smgrs, nshared);
	pfree(smgrs);

	leaf_index_build(target, &idx);
	for (i = 0; i < NBuffers; i++)
	{
		BufferDesc *desc = GetBufferDescriptor(i);
		BufferTag	tag;
		int			l;

		if (i % SB_INTERRUPT_EVERY == 0)
			CHECK_FOR_INTERRUPTS();
		l = buffer_leaf(&idx, desc, &tag);
		if (l < 0)
			continue;
		if (keep && tag.blockNum < target->leaves[l].nblocks &&
			(keep[l][tag.blockNum / 8] & (1 << (tag.blockNum % 8))) != 0)
			continue;

		/* A buffer reused meanwhile is left alone (before 17) or written first. */
		(void) sb_evict_shared_buffer(desc, &tag);
	}
	pfree(idx.keys);
}

/*
 * Before a warm pass's timed run: the blocks of each leaf scanned through
 * a ring of buffers out of shared buffers, those of the others kept.  A
 * warm pass of a relation larger than a quarter of shared_buffers then
 * reads it from the page cache whatever earlier passes and calls left in
 * the pool, as each warm stretch does (sb_evict_stretch_buffers_warm), so
 * that a warm figure from stretches and one from whole passes measure the
 * same reads, and a call does not measure what the call before it left.
 * A leaf that fits keeps its blocks where the untimed pass put them.
 */
void
sb_evict_ring_buffers(SbTarget *target)
{
	uint8	  **keep = palloc0(sizeof(uint8 *) * Max(target->nleaves, 1));
	bool		any = false;
	int			i;

	for (i = 0; i < target->nleaves; i++)
	{
		SbLeaf	   *leaf = &target->leaves[i];
		Size		len = leaf->nblocks / 8 + 1;

		keep[i] = palloc0(len);
		if (sb_leaf_scanned_through_ring(leaf))
			any = true;
		else
			memset(keep[i], 0xFF, len);
	}
	if (any)
		sb_evict_buffers_except(target, keep);
	for (i = 0; i < target->nleaves; i++)
		pfree(keep[i]);
	pfree(keep);
}

static inline void
set_bit(uint8 *bits, BlockNumber blk)
{
	bits[blk / 8] |= (uint8) (1 << (blk % 8));
}

static inline bool
get_bit(const uint8 *bits, BlockNumber blk)
{
	return (bits[blk / 8] & (1 << (blk % 8))) != 0;
}

/*
 * Count the target's blocks resident in the page cache, in shared_buffers
 * (or local buffers), and in either.
 */
void
sb_residency(SbTarget *target, SbResidency *res)
{
	sb_residency_map(target, res, NULL, NULL);
}

/*
 * The same, and where os_bits and buf_bits are given (arrays of one
 * pointer per leaf), which blocks: a bit per block of each leaf, set for a
 * block wholly in the page cache (os_bits) or valid in a buffer
 * (buf_bits), allocated here in the current memory context.
 */
void
sb_residency_map(SbTarget *target, SbResidency *res,
				 uint8 **os_bits, uint8 **buf_bits)
{
	uint8	  **bits = os_bits ? os_bits :
		palloc0(sizeof(uint8 *) * Max(target->nleaves, 1));
	SbLeafIndex idx;
	int			i,
				j;

	memset(res, 0, sizeof(SbResidency));
	res->blocks = target->nblocks;

	for (i = 0; i < target->nleaves; i++)
	{
		SbLeaf	   *leaf = &target->leaves[i];

		bits[i] = palloc0(leaf->nblocks / 8 + 1);
		if (buf_bits)
			buf_bits[i] = palloc0(leaf->nblocks / 8 + 1);
		for (j = 0; j < leaf->nsegments; j++)
		{
			CHECK_FOR_INTERRUPTS();
			res->os_blocks += segment_os_resident(&leaf->segments[j], bits[i], 0);
		}
	}
	res->any_blocks = res->os_blocks;

	leaf_index_build(target, &idx);
	for (i = 0; i < NBuffers; i++)
	{
		BufferDesc *desc = GetBufferDescriptor(i);
		BufferTag	tag;
		int			l;
		BlockNumber blk;

		if (i % SB_INTERRUPT_EVERY == 0)
			CHECK_FOR_INTERRUPTS();
		l = buffer_leaf(&idx, desc, &tag);
		if (l < 0)
			continue;
		blk = tag.blockNum;
		if (blk >= target->leaves[l].nblocks)
			continue;
		res->shared_blocks++;
		if (buf_bits)
			set_bit(buf_bits[l], blk);
		if (!get_bit(bits[l], blk))
			res->any_blocks++;
	}
	pfree(idx.keys);

	for (j = 0; j < target->nleaves; j++)
	{
		SbLeaf	   *leaf = &target->leaves[j];

		if (!leaf->local)
			continue;
		for (i = 0; i < NLocBuffer; i++)
		{
			BufferDesc *desc = GetLocalBufferDescriptor(i);
			SbBufState	state = sb_buf_state(desc);
			BlockNumber blk = desc->tag.blockNum;

			if (!(state & BM_VALID) ||
				!sb_buftag_matches(desc->tag, leaf->fileid) ||
				blk >= leaf->nblocks)
				continue;
			res->shared_blocks++;
			if (buf_bits)
				set_bit(buf_bits[j], blk);
			if (!get_bit(bits[j], blk))
				res->any_blocks++;
		}
	}

	if (os_bits == NULL)
	{
		for (i = 0; i < target->nleaves; i++)
			pfree(bits[i]);
		pfree(bits);
	}
}

/* ---- One stretch of one leaf, for sampled measurement ---- */

/*
 * One pass over shared buffers (or the local ones) evicting a stretch's
 * blocks; the number left because they were dirty, which before 17 only
 * a write through the buffer manager makes evictable.
 */
static int
evict_stretch_buffers(SbLeaf *leaf, SbSegment *stretch)
{
	BlockNumber lo = stretch->first_block;
	BlockNumber hi = lo + stretch->bytes / BLCKSZ;
	int			dirty = 0;
	int			i;

	if (leaf->local)
		evict_local_buffers(leaf);
	else
	{
		for (i = 0; i < NBuffers; i++)
		{
			BufferDesc *desc = GetBufferDescriptor(i);
			BufferTag	tag;
			SbBufState	state;

			if (i % SB_INTERRUPT_EVERY == 0)
				CHECK_FOR_INTERRUPTS();
			tag = desc->tag;
			if (!sb_buftag_matches(tag, leaf->fileid))
				continue;		/* unlocked look: nearly all are others' */
			state = LockBufHdr(desc);
			tag = desc->tag;
			sb_unlock_buf_hdr(desc, state);
			if (!(state & BM_VALID) || !sb_buftag_matches(tag, leaf->fileid) ||
				tag.blockNum < lo || tag.blockNum >= hi)
				continue;
			if (!sb_evict_shared_buffer(desc, &tag) && (state & BM_DIRTY))
				dirty++;
		}
	}
	return dirty;
}

/*
 * Evict one stretch from both caches, as sb_evict_buffers() and
 * sb_evict_page_cache() evict a whole target, with the same guarantees.
 * The leaf's dirty buffers are written out whole (the buffer manager has
 * no narrower call), its buffers in the stretch are dropped, and the page
 * cache drops the stretch's byte range only, so that each pair costs in
 * proportion to the stretch rather than to the relation.
 */
void
sb_evict_stretch(SbLeaf *leaf, SbSegment *stretch)
{
	int			fd;
	int			rc;

	CHECK_FOR_INTERRUPTS();
	FlushRelationBuffers(leaf->rel);
	(void) evict_stretch_buffers(leaf, stretch);
	if (stretch->bytes == 0)
		return;
	fd = sb_open_segment(stretch, false, false);
	if (fdatasync(fd) != 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not write out dirty pages of \"%s\": %m",
						stretch->path)));
	rc = posix_fadvise(fd, stretch->offset, stretch->bytes, POSIX_FADV_DONTNEED);
	if (rc != 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not evict \"%s\" from the page cache: %s",
						stretch->path, strerror(rc))));
	CloseTransientFile(fd);
}

/*
 * Whether a sequential scan of the leaf reads through a ring of buffers
 * (BAS_BULKREAD): heapam gives one to a scan of a relation of more than a
 * quarter of shared_buffers, and none to a temporary one.  Its blocks then
 * pass through 32 buffers and are not kept.
 */
bool
sb_leaf_scanned_through_ring(SbLeaf *leaf)
{
	return !leaf->local && leaf->nblocks > (BlockNumber) (NBuffers / 4);
}

/*
 * Before a warm stretch's timed scan, where the leaf is scanned through a
 * ring: the stretch's blocks out of shared buffers, so that the scan reads
 * them from the page cache as a scan of the whole relation does.  A ring
 * is the scan's own: each stretch's scan takes 32 buffers of the pool for
 * its ring and leaves them holding its last blocks, where one whole scan
 * leaves 32 in all; over a long call the stretches' rings filled the pool
 * with the relation (67 % of the blocks of a 183 MB table were in 128 MB
 * of shared_buffers when their stretch was scanned, from 36 % in the
 * call's first fifth), hits that a scan of the whole relation does not
 * make for itself, and
 * the warm figure rose 12 % from the call's first fifth to its last: a
 * long call measured the pool, a short one the page cache.  Dirty blocks
 * (a scan that set hint bits) are written through the buffer manager
 * first, as 'cold' does, and only when there are any: the pass over the
 * pool that FlushRelationBuffers makes is the cost of a whole eviction.
 */
void
sb_evict_stretch_buffers_warm(SbLeaf *leaf, SbSegment *stretch)
{
	CHECK_FOR_INTERRUPTS();
	if (evict_stretch_buffers(leaf, stretch) > 0)
	{
		FlushRelationBuffers(leaf->rel);
		(void) evict_stretch_buffers(leaf, stretch);
	}
}

/* sb_residency() for one stretch of one leaf. */
void
sb_stretch_residency(SbLeaf *leaf, SbSegment *stretch, SbResidency *res)
{
	BlockNumber lo = stretch->first_block;
	BlockNumber n = stretch->bytes / BLCKSZ;
	uint8	   *bits = palloc0(n / 8 + 1);
	int			i;

	memset(res, 0, sizeof(SbResidency));
	res->blocks = n;
	res->os_blocks = segment_os_resident(stretch, bits, lo);
	res->any_blocks = res->os_blocks;

	for (i = 0; i < (leaf->local ? NLocBuffer : NBuffers); i++)
	{
		BufferDesc *desc = leaf->local ? GetLocalBufferDescriptor(i) :
			GetBufferDescriptor(i);
		BufferTag	tag;
		SbBufState	state;
		BlockNumber blk;

		if (i % SB_INTERRUPT_EVERY == 0)
			CHECK_FOR_INTERRUPTS();
		tag = desc->tag;
		if (!sb_buftag_matches(tag, leaf->fileid))
			continue;
		if (leaf->local)
			state = sb_buf_state(desc);
		else
		{
			state = LockBufHdr(desc);
			tag = desc->tag;
			sb_unlock_buf_hdr(desc, state);
		}
		blk = tag.blockNum;
		if (!(state & BM_VALID) || !sb_buftag_matches(tag, leaf->fileid) ||
			blk < lo || blk >= lo + n)
			continue;
		res->shared_blocks++;
		if ((bits[(blk - lo) / 8] & (1 << ((blk - lo) % 8))) == 0)
			res->any_blocks++;
	}
	pfree(bits);
}

/* ---- This backend's mapping of shared memory ---- */

/*
 * A process maps a page of shared memory into its own page tables the
 * first time it touches it, with a page fault; and the first process ever
 * to touch a page makes the system allocate it.  A scan takes its buffers
 * from the free list while the server has never used them all, then from
 * wherever the clock sweep finds them, so a backend that has not touched
 * much of shared_buffers faults on nearly every buffer its scan's ring
 * takes, two a buffer: a whole pass pays that for its ring of 32 buffers
 * once, a pass over an 8 MB stretch again for each stretch.  On the 2-vCPU
 * VM this was written on, a fault that maps a shared page costs 23 to
 * 25 us and one that allocates it 40 to 58 us; on a server just started,
 * the warm stretch scans of lineitem ran at scan_pct 29 to 31 with 64
 * faults each while shared_buffers (128 MB) was being used for the first
 * time, and at 37 to 39 with none once it was (pairs 1 to 250 of 533 in
 * one call, scan_pairs() showing the faults): a short call measured the
 * faults, a long one mostly not, and the two disagreed by far more than
 * their intervals.  So before the pairs, the whole shared memory segment
 * is mapped into this backend, buffers and the rest (the buffers'
 * descriptors and the table that finds a block's buffer, which every read
 * consults), by reading a byte a page.  Not madvise(MADV_POPULATE_READ):
 * it maps a page in 1 us there, but the process's first write to the page
 * afterwards still cost 16 us, uncounted as a fault, where a page mapped
 * by reading it (18 us) was written at once; and a scan writes every
 * buffer its ring takes.  The pages of buffers the server has not used
 * yet are allocated then: memory it was configured to use, which its
 * scans would allocate on first use anyway.  At most max_s seconds, the
 * buffers in the order the free list hands them out; every call does it
 * again, quickly where it is done (0.05 us a page).
 */
#define SB_MAP_CHUNK	((Size) 1024 * 1024)	/* bytes between time checks */

/* The mapping of this process that holds addr, from /proc/self/maps. */
static bool
mapping_of(void *addr, char **lo, char **hi)
{
	FILE	   *f = AllocateFile("/proc/self/maps", "r");
	char		line[1024];
	bool		found = false;

	if (f == NULL)
		return false;
	while (!found && fgets(line, sizeof(line), f) != NULL)
	{
		unsigned long a,
					b;

		if (sscanf(line, "%lx-%lx", &a, &b) == 2 &&
			(uintptr_t) addr >= a && (uintptr_t) addr < b)
		{
			*lo = (char *) a;
			*hi = (char *) b;
			found = true;
		}
	}
	FreeFile(f);
	return found;
}

/* Map [from, to) into this process, a chunk at a time; false at max_s. */
static bool
map_range(char *from, char *to, instr_time start, double max_s)
{
	Size		page = (Size) sysconf(_SC_PAGESIZE);
	char	   *at = (char *) TYPEALIGN_DOWN(page, from);

	for (; at < to; at += SB_MAP_CHUNK)
	{
		Size		len = Min((Size) (to - at), SB_MAP_CHUNK);

		volatile char sink = 0;
		Size		off;

		CHECK_FOR_INTERRUPTS();
		if (sb_seconds_since(start) > max_s)
			return false;
		for (off = 0; off < len; off += page)
			sink += at[off];
		(void) sink;
	}
	return true;
}

void
sb_map_shared_buffers(double max_s)
{
	instr_time	start;
	char	   *blocks = BufferBlocks;
	char	   *blocks_end = BufferBlocks + (Size) NBuffers * BLCKSZ;
	char	   *lo = blocks;
	char	   *hi = blocks_end;

	INSTR_TIME_SET_CURRENT(start);
	if (!mapping_of(blocks, &lo, &hi) || hi < blocks_end)
	{
		lo = blocks;
		hi = blocks_end;
	}
	/* the rest of the segment first: every read of a buffer consults it */
	if (map_range(lo, blocks, start, max_s) &&
		map_range(blocks_end, hi, start, max_s))
		(void) map_range(blocks, blocks_end, start, max_s);
}

/* ---- CPU caches ---- */

/*
 * A scratch buffer for sb_scrub_cpu_caches(), freed with the caller's
 * memory context: 64 MB, twice the last-level cache a core sees on most
 * servers (32 MB per CCX on AMD EPYC, up to about that on one Intel die).
 * The size the system reports is not used: virtual machines report the
 * sum over sockets or more (320 MB on the 32 MB EPYC this was written on).
 */
#define SB_SCRUB_BYTES	(64 * 1024 * 1024)

SbScrub *
sb_scrub_alloc(void)
{
	SbScrub    *scrub = palloc(sizeof(SbScrub));

	scrub->size = SB_SCRUB_BYTES;
	scrub->buf = palloc(scrub->size);
	memset(scrub->buf, 1, scrub->size);
	return scrub;
}

/*
 * Push a just-read stretch out of the CPU caches by reading the scratch
 * buffer, a byte a cache line.  A warm whole-relation pass reads memory
 * that left the CPU caches long ago; a stretch read right after another
 * pass over the same 8 MB would find it in a 32 MB L3 and run faster per
 * byte than any whole pass can.  Costs a few milliseconds.
 */
void
sb_scrub_cpu_caches(SbScrub *scrub)
{
	volatile char sink = 0;
	size_t		i;

	for (i = 0; i < scrub->size; i += 64)
		sink += scrub->buf[i];
	(void) sink;
}

#ifdef SB_HAVE_FLUSH_LINE
/*
 * Where sb_flush_stretch() goes back to if touching its mapping faults.
 * A file that something outside PostgreSQL truncates after it is mapped
 * makes the next touch of a page past the new end raise SIGBUS, whose
 * default action kills the backend and makes the postmaster restart every
 * session.  The handler is in place only around the flush loop, which
 * calls nothing else, and jumps back out of it; the caller then reports
 * the file.
 */
static sigjmp_buf *flush_fault_jump = NULL;

static void
flush_fault_handler(int signo)
{
	if (flush_fault_jump != NULL)
		siglongjmp(*flush_fault_jump, 1);
	/* Not ours: restore the default action and let it fire. */
	signal(SIGBUS, SIG_DFL);
	raise(SIGBUS);
}

/*
 * Flush the cache lines of bytes of map; false if a page faulted (the file
 * shrank meanwhile).
 */
static bool
flush_mapping(char *map, off_t bytes)
{
	sigjmp_buf	jump;
	struct sigaction act;
	struct sigaction old;
	volatile bool done = false;

	memset(&act, 0, sizeof(act));
	act.sa_handler = flush_fault_handler;
	sigemptyset(&act.sa_mask);
	if (sigaction(SIGBUS, &act, &old) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR),
				 errmsg("could not set a SIGBUS handler: %m")));
	/* savemask: the jump out of the handler unblocks SIGBUS again. */
	if (sigsetjmp(jump, 1) == 0)
	{
		off_t		i;

		flush_fault_jump = &jump;
		for (i = 0; i < bytes; i += 64)
			sb_flush_line(map + i);
		done = true;
	}
	flush_fault_jump = NULL;
	sigaction(SIGBUS, &old, NULL);
	return done;
}
#endif

/*
 * Evict one stretch's data from the CPU caches before a timed warm pass,
 * and nothing else: its page-cache pages (mapped read-only, never written)
 * and the shared buffers that hold its blocks, a cache line at a time.  A
 * warm whole-relation pass reads memory that left the CPU caches long ago;
 * a stretch read right after another pass over the same 8 MB would find it
 * in a 32 MB L3 and run faster per byte than any whole pass can.  Emptying
 * every cache instead (sb_scrub_cpu_caches, the fallback where no flush
 * instruction is known) also evicts the executor's own code and the TLB,
 * which a whole pass keeps warm, and made stretches 5 to 10 % slower.
 */
void
sb_flush_stretch(SbLeaf *leaf, SbSegment *stretch, SbScrub *scrub)
{
#ifdef SB_HAVE_FLUSH_LINE
	BlockNumber lo = stretch->first_block;
	BlockNumber hi = lo + stretch->bytes / BLCKSZ;
	char	   *map;
	int			b;
	int			fd;

	if (stretch->bytes == 0)
		return;
	fd = sb_open_segment(stretch, false, false);
	/* A page past the end of the file would fault: never map one. */
	sb_segment_check_size(fd, stretch);
	/* Populated at once: a fault per page would cost more than the flush. */
	map = mmap(NULL, stretch->bytes, PROT_READ, MAP_SHARED | MAP_POPULATE,
			   fd, stretch->offset);
	if (map == MAP_FAILED)
	{
		/* A warm stretch left in the CPU caches would be timed too fast. */
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not map file \"%s\": %m", stretch->path)));
	}
	if (!flush_mapping(map, stretch->bytes))
	{
		munmap(map, stretch->bytes);
		/* Say how long the file is now, as the check above would. */
		sb_segment_check_size(fd, stretch);
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("file \"%s\" shrank during the measurement",
						stretch->path),
				 errdetail("Something outside PostgreSQL truncated the file; PostgreSQL's locks keep PostgreSQL itself from doing it.")));
	}
	munmap(map, stretch->bytes);
	CloseTransientFile(fd);

	for (b = 0; b < (leaf->local ? NLocBuffer : NBuffers); b++)
	{
		BufferDesc *desc = leaf->local ? GetLocalBufferDescriptor(b) :
			GetBufferDescriptor(b);
		BufferTag	tag = desc->tag;	/* unlocked: a stale look flushes
										 * another page, which is harmless */
		char	   *page;
		int			off;

		if (b % SB_INTERRUPT_EVERY == 0)
			CHECK_FOR_INTERRUPTS();
		if (!sb_buftag_matches(tag, leaf->fileid) ||
			tag.blockNum < lo || tag.blockNum >= hi)
			continue;
		page = leaf->local ? (char *) LocalBufferBlockPointers[b] :
			BufferBlocks + (Size) b * BLCKSZ;
		if (page == NULL)
			continue;
		for (off = 0; off < BLCKSZ; off += 64)
			sb_flush_line(page + off);
	}
	sb_flush_fence();
#else
	sb_scrub_cpu_caches(scrub);
#endif
}
