/*-------------------------------------------------------------------------
 *
 * compat_stream.h
 *	  Reading a range of a relation's blocks into shared buffers as a
 *	  sequential heap scan of the major reads them, for pagecost.c
 *	  (compat.h has the rest); it includes what it needs, so the file that
 *	  uses it may include it in any order.
 *
 * Until 16 a heap scan asks the buffer manager for one block at a time
 * (heapgettup's ReadBufferExtended) and leaves depth to the kernel's
 * read-ahead; from 17 it reads through a read stream, which combines
 * neighbouring blocks into reads of up to io_combine_limit and, from 18,
 * keeps some of them in flight with the server's io_method.  The blocks
 * go through the given strategy's ring, as a scan's do (BAS_BULKREAD), so
 * that the range does not take over shared_buffers.
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCANBENCH_COMPAT_STREAM_H
#define SCANBENCH_COMPAT_STREAM_H

#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "utils/rel.h"

#include "compat.h"

#if PG_VERSION_NUM >= 170000
#include "storage/read_stream.h"

typedef struct SbBlockRange
{
	BlockNumber next;
	BlockNumber end;			/* exclusive */
} SbBlockRange;

static inline BlockNumber
sb_block_range_next(ReadStream *stream, void *private, void *per_buffer_data)
{
	SbBlockRange *range = (SbBlockRange *) private;

	if (range->next >= range->end)
		return InvalidBlockNumber;
	return range->next++;
}

static inline void
sb_read_block_range(Relation rel, BlockNumber first, BlockNumber n,
					BufferAccessStrategy strategy)
{
	SbBlockRange range = {first, first + n};
	ReadStream *stream;
	Buffer		buf;

	stream = read_stream_begin_relation(READ_STREAM_SEQUENTIAL, strategy,
										rel, MAIN_FORKNUM,
										sb_block_range_next, &range, 0);
	while ((buf = read_stream_next_buffer(stream, NULL)) != InvalidBuffer)
	{
		CHECK_FOR_INTERRUPTS();
		ReleaseBuffer(buf);
	}
	read_stream_end(stream);
}
#else
static inline void
sb_read_block_range(Relation rel, BlockNumber first, BlockNumber n,
					BufferAccessStrategy strategy)
{
	BlockNumber blk;

	for (blk = first; blk < first + n; blk++)
	{
		CHECK_FOR_INTERRUPTS();
		ReleaseBuffer(ReadBufferExtended(rel, MAIN_FORKNUM, blk,
										 RBM_NORMAL, strategy));
	}
}
#endif

#endif							/* SCANBENCH_COMPAT_STREAM_H */
