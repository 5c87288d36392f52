/*-------------------------------------------------------------------------
 *
 * compat_bufmgr.h
 *	  The buffer manager's internals across the majors, for cache.c
 *	  (compat.h has the rest); it includes what it needs, so the file
 *	  that uses it may include it in any order.
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCANBENCH_COMPAT_BUFMGR_H
#define SCANBENCH_COMPAT_BUFMGR_H

#include "storage/buf_internals.h"
#include "storage/bufmgr.h"
#include "storage/lwlock.h"

#include "compat.h"

/* Buffer tags: one RelFileNode member until 15, flattened Oids from 16. */
#if PG_VERSION_NUM >= 160000
#define sb_buftag_matches(tag, fileid) \
	(BufTagMatchesRelFileLocator(&(tag), &(fileid)) && \
	 BufTagGetForkNum(&(tag)) == MAIN_FORKNUM)
#define sb_buftags_equal(a, b)		BufferTagsEqual(&(a), &(b))
#define sb_buftag_clear(tag)		ClearBufferTag(&(tag))
#define sb_buftag_fileid(tag)		BufTagGetRelFileLocator(&(tag))
#define sb_buftag_forknum(tag)		BufTagGetForkNum(&(tag))
#else
#define sb_buftag_matches(tag, fileid) \
	(RelFileNodeEquals((tag).rnode, fileid) && (tag).forkNum == MAIN_FORKNUM)
#define sb_buftags_equal(a, b)		BUFFERTAGS_EQUAL(a, b)
#define sb_buftag_clear(tag)		CLEAR_BUFFERTAG(tag)
#define sb_buftag_fileid(tag)		((tag).rnode)
#define sb_buftag_forknum(tag)		((tag).forkNum)
#endif

/*
 * Evicting one shared buffer, without ever discarding data or taking a
 * buffer from under someone (cache.c explains the protocol and makes one
 * pass over the pool for all leaves; 18's EvictRelUnpinnedBuffers() would
 * be a pass per leaf).  sb_evict_shared_buffer(desc, tag): from 17 the
 * server's EvictUnpinnedBuffer() (one argument in 17, a "was it flushed"
 * output from 18), which writes a dirty buffer out first; before 17, the
 * removal of a clean, unpinned buffer from the mapping table that the
 * buffer manager does when it drops a relation, done here under the
 * mapping partition lock and the buffer header spinlock.
 */
#if PG_VERSION_NUM >= 180000
static inline bool
sb_evict_shared_buffer(BufferDesc *desc, BufferTag *tag)
{
	bool		flushed;

	return EvictUnpinnedBuffer(BufferDescriptorGetBuffer(desc), &flushed);
}
#elif PG_VERSION_NUM >= 170000
#define sb_evict_shared_buffer(desc, tag) \
	EvictUnpinnedBuffer(BufferDescriptorGetBuffer(desc))
#else
static inline bool
sb_evict_shared_buffer(BufferDesc *desc, BufferTag *tag)
{
	uint32		hash = BufTableHashCode(tag);
	LWLock	   *partition_lock = BufMappingPartitionLock(hash);
	uint32		state;

	LWLockAcquire(partition_lock, LW_EXCLUSIVE);
	state = LockBufHdr(desc);
	if (!sb_buftags_equal(desc->tag, *tag) ||
		!(state & BM_TAG_VALID) ||
		BUF_STATE_GET_REFCOUNT(state) != 0 ||
		(state & BM_DIRTY) != 0)
	{
		UnlockBufHdr(desc, state);
		LWLockRelease(partition_lock);
		return false;
	}
	sb_buftag_clear(desc->tag);
	state &= ~(BUF_FLAG_MASK | BUF_USAGECOUNT_MASK);
	UnlockBufHdr(desc, state);
	BufTableDelete(tag, hash);
	LWLockRelease(partition_lock);

	StrategyFreeBuffer(desc);
	return true;
}
#endif

/*
 * A buffer header's state word: 32 bits until 18, 64 bits from 19
 * (pg_atomic_uint64, the flags and counts at the same places), where
 * UnlockBufHdr() takes the descriptor alone and writes back the state
 * LockBufHdr() returned, unchanged.  Callers read the flags (BM_VALID,
 * BM_DIRTY) and the counts only.
 */
#if PG_VERSION_NUM >= 190000
typedef uint64 SbBufState;
#define sb_buf_state(desc)				pg_atomic_read_u64(&(desc)->state)
#define sb_unlock_buf_hdr(desc, state)	UnlockBufHdr(desc)
#else
typedef uint32 SbBufState;
#define sb_buf_state(desc)				pg_atomic_read_u32(&(desc)->state)
#define sb_unlock_buf_hdr(desc, state)	UnlockBufHdr(desc, state)
#endif

/* Local (temp-table) buffers are dropped by RelFileLocator from 16 on. */
#if PG_VERSION_NUM >= 160000
#define sb_drop_local_buffers(fileid) \
	DropRelationAllLocalBuffers(fileid)
#else
#define sb_drop_local_buffers(fileid) \
	DropRelFileNodeAllLocalBuffers(fileid)
#endif

#endif							/* SCANBENCH_COMPAT_BUFMGR_H */
