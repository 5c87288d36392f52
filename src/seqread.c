/*-------------------------------------------------------------------------
 *
 * seqread.c
 *	  Sequential reads of a relation's segment files straight from the
 *	  filesystem, as lmdd or dd bs=N would do them: one read() of
 *	  block_size bytes after another into one buffer, nothing else in the
 *	  loop but the cancel check.
 *
 * Files are opened read-only with OpenTransientFile, so an error or a
 * cancel closes them at transaction abort.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <fcntl.h>
#include <unistd.h>

#include "miscadmin.h"
#include "storage/fd.h"

#include "randio.h"
#include "seqread.h"
#include "stats.h"

/* O_DIRECT wants buffers aligned to the device's logical block size. */
#define SB_IO_ALIGN		4096

/*
 * Read one stretch.  With direct and refuse_ok, a filesystem that refuses
 * O_DIRECT makes it return false instead of failing.
 */
static bool
read_segment(SbSegment *seg, char *buf, int block_size, bool direct,
			 bool refuse_ok, SbReadResult *result)
{
	off_t		remaining = seg->bytes;
	int			fd;

	fd = sb_open_segment(seg, direct, refuse_ok);
	if (fd < 0)
		return false;
	if (seg->offset > 0 && lseek(fd, seg->offset, SEEK_SET) != seg->offset)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not seek in file \"%s\": %m", seg->path)));

	while (remaining > 0)
	{
		size_t		want = (size_t) Min((off_t) block_size, remaining);
		ssize_t		got;

		CHECK_FOR_INTERRUPTS();

		got = read(fd, buf, want);
		if (got < 0)
		{
			if (errno == EINTR)
				continue;
			if (direct && errno == EINVAL && refuse_ok)
			{
				CloseTransientFile(fd);
				return false;
			}
			if (direct && errno == EINVAL)
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("O_DIRECT read of %zu bytes from \"%s\" was refused",
								want, seg->path),
						 errhint("With cache => 'direct', block_size must be a multiple of the device's logical block size, often 4096.")));
			ereport(ERROR,
					(errcode_for_file_access(),
					 errmsg("could not read file \"%s\": %m", seg->path)));
		}
		if (got == 0)
			sb_segment_short_read(seg, seg->bytes - remaining);
		remaining -= got;
		result->bytes += got;
		result->reads++;
	}

	CloseTransientFile(fd);
	return true;
}

/*
 * Read every segment of the target once, timed, after putting the caches
 * in the state asked for.  Fills *total and, if per_segment is not NULL,
 * one result per segment in target order.
 */
void
sb_raw_read(SbTarget *target, int block_size, SbCacheMode cache,
			SbReadResult *total, SbReadResult *per_segment)
{
	bool		direct = (cache == SB_CACHE_DIRECT);
	char	   *raw = palloc(block_size + SB_IO_ALIGN);
	char	   *buf = (char *) TYPEALIGN(SB_IO_ALIGN, raw);
	SbReadResult *seg_result;
	SbClock		clock;
	uint64		cached_blocks = 0;
	int			i;

	memset(total, 0, sizeof(SbReadResult));
	seg_result = per_segment ? per_segment :
		palloc(sizeof(SbReadResult) * Max(target->nsegments, 1));
	memset(seg_result, 0, sizeof(SbReadResult) * target->nsegments);

	if (cache == SB_CACHE_COLD)
		sb_evict_page_cache(target);
	else if (cache == SB_CACHE_WARM)
	{
		/* Untimed; the results are overwritten below. */
		for (i = 0; i < target->nsegments; i++)
			(void) read_segment(target->segments[i], buf, block_size, false,
								false, &seg_result[i]);
		memset(seg_result, 0, sizeof(SbReadResult) * target->nsegments);
	}

	/* What the page cache holds now, just before the timed pass. */
	for (i = 0; i < target->nsegments; i++)
	{
		SbSegment  *seg = target->segments[i];
		uint64		resident = sb_segment_os_blocks(seg);

		cached_blocks += resident;
		seg_result[i].cached_pct_before = sb_pct(resident, seg->bytes / BLCKSZ);
	}
	total->cached_pct_before = sb_pct(cached_blocks, target->nblocks);

	sb_clock_start(&clock);
	for (i = 0; i < target->nsegments; i++)
	{
		SbClock		seg_clock;

		sb_clock_start(&seg_clock);
		(void) read_segment(target->segments[i], buf, block_size, direct,
							false, &seg_result[i]);
		sb_clock_stop(&seg_clock, &seg_result[i].timing);
		total->bytes += seg_result[i].bytes;
		total->reads += seg_result[i].reads;
	}
	sb_clock_stop(&clock, &total->timing);

	if (seg_result != per_segment)
		pfree(seg_result);
	pfree(raw);
}

/*
 * Read segments (whole files, or stretches), one after another, block_size
 * bytes a read through the page cache, under one clock: the files of
 * several relations read in order as one pass.  The caches are as the
 * caller left them.
 */
void
sb_raw_read_segments(SbSegment **segs, int nsegs, int block_size,
					 SbReadResult *total)
{
	char	   *raw = palloc(block_size + SB_IO_ALIGN);
	char	   *buf = (char *) TYPEALIGN(SB_IO_ALIGN, raw);
	SbClock		clock;
	int			i;

	memset(total, 0, sizeof(SbReadResult));
	sb_clock_start(&clock);
	for (i = 0; i < nsegs; i++)
		(void) read_segment(segs[i], buf, block_size, false, false, total);
	sb_clock_stop(&clock, &total->timing);
	pfree(raw);
}

/* A read buffer of block_size bytes, aligned as O_DIRECT wants. */
char *
sb_aligned_buffer(int block_size)
{
	char	   *raw = palloc(block_size + SB_IO_ALIGN);

	return (char *) TYPEALIGN(SB_IO_ALIGN, raw);
}

/*
 * Time one read of one stretch into buf (from sb_aligned_buffer), with
 * the caches as the caller left them; the page-cache residency just before
 * goes in result->cached_pct_before.  With direct, a filesystem that
 * refuses O_DIRECT makes it return false.
 */
bool
sb_raw_read_stretch(SbSegment *stretch, char *buf, int block_size,
					bool direct, SbReadResult *result)
{
	SbClock		clock;
	bool		done;

	memset(result, 0, sizeof(SbReadResult));
	if (!direct)
		result->cached_pct_before = sb_pct(sb_segment_os_blocks(stretch),
										   stretch->bytes / BLCKSZ);
	sb_clock_start(&clock);
	done = read_segment(stretch, buf, block_size, direct, direct, result);
	sb_clock_stop(&clock, &result->timing);
	return done;
}

/*
 * Read segments (whole files, or stretches of them: offset and bytes) in
 * order with depth reads of block_size in flight, as fio --rw=read
 * --iodepth=depth reads a device: what the storage delivers to a reader
 * that keeps it busy, where one read at a time gets what its latency
 * allows.  The caches are as the caller left them; the time is the
 * reads' alone.  The files are opened as the reads reach them, a bounded
 * number at once (randio.c), so that a table of thousands of partitions
 * is read as one of a few.  With direct and refuse_ok, a filesystem that
 * refuses O_DIRECT makes it return false.
 */
bool
sb_read_in_flight(SbSegment **segs, int nsegs, int block_size, int depth,
				  bool direct, bool refuse_ok, SbReadResult *result)
{
	SbRandomFile *files = palloc0(sizeof(SbRandomFile) * Max(nsegs, 1));
	SbRandomResult r;
	bool		done;
	int			i;

	memset(result, 0, sizeof(SbReadResult));
	for (i = 0; i < nsegs; i++)
	{
		SbSegment  *seg = segs[i];

		files[i].fd = -1;
		files[i].path = seg->path;
		files[i].direct = direct;
		files[i].start = seg->offset;
		files[i].bytes = seg->bytes;
		files[i].chunks = (seg->bytes + block_size - 1) / block_size;
		files[i].base = (uint64) seg->first_block * BLCKSZ;
	}
	done = sb_sequential_read_depth(files, nsegs, block_size, depth,
									refuse_ok, &r);
	pfree(files);
	if (!done)
		return false;

	result->bytes = r.bytes;
	result->reads = r.ops;
	result->timing = r.timing;
	return true;
}
