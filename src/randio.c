/*-------------------------------------------------------------------------
 *
 * randio.c
 *	  Random I/O at queue depth 1, as pgiosim and fio --iodepth=1 do it:
 *	  one pread() or pwrite() of block_size bytes at a block-aligned offset,
 *	  then the next, each one timed for the latency percentiles.
 *
 * The offsets are drawn before the clock starts, so the timed loop holds
 * nothing but the I/O, the two clock reads around it and the cancel check.
 * When there are at least as many blocks as operations, no block is drawn
 * twice (fio's random map does the same): a block read a second time would
 * come from the page cache and make a cold run partly warm.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>
#include <unistd.h>

#include "common/pg_prng.h"
#include "miscadmin.h"
#include "portability/instr_time.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

#include "randio.h"
#include "stats.h"

/* O_DIRECT wants buffers aligned to the device's logical block size. */
#define SB_IO_ALIGN		4096

/* Draw ops chunk numbers in [0, total), distinct when total allows. */
static uint64 *
draw_offsets(uint64 total, uint64 ops, bool *repeats)
{
	uint64	   *chosen = palloc_extended(sizeof(uint64) * ops, MCXT_ALLOC_HUGE);
	uint8	   *seen = NULL;
	pg_prng_state rng;
	uint64		i;

	pg_prng_seed(&rng, (uint64) GetCurrentTimestamp() ^ (uint64) MyProcPid);
	*repeats = ops > total;
	if (!*repeats)
		seen = palloc_extended(total / 8 + 1, MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);

	for (i = 0; i < ops; i++)
	{
		uint64		c;

		if ((i & 4095) == 0)
			CHECK_FOR_INTERRUPTS();
		do
		{
			c = pg_prng_uint64_range(&rng, 0, total - 1);
		} while (seen != NULL && (seen[c / 8] & (1 << (c % 8))) != 0);
		if (seen != NULL)
			seen[c / 8] |= (uint8) (1 << (c % 8));
		chosen[i] = c;
	}
	if (seen)
		pfree(seen);
	return chosen;
}

/*
 * ops random reads (or writes) of block_size bytes over files, timed.
 * Writes are followed by an fdatasync of every file inside the timed
 * interval, as iozone -e and lmdd sync=1 count it.  r->timing covers the
 * whole run; the percentiles are of single operations.
 */
void
sb_random_io(SbRandomFile *files, int nfiles, int block_size, uint64 ops,
			 bool write, SbRandomResult *r)
{
	uint64	   *first = palloc(sizeof(uint64) * (nfiles + 1));
	uint64		total = 0;
	uint64	   *chosen;
	double	   *lat_us;
	char	   *raw = palloc(block_size + SB_IO_ALIGN);
	char	   *buf = (char *) TYPEALIGN(SB_IO_ALIGN, raw);
	SbClock		clock;
	uint64		i;
	int			f;

	memset(r, 0, sizeof(SbRandomResult));
	r->p50_us = r->p95_us = r->p99_us = NAN;
	for (f = 0; f < nfiles; f++)
	{
		first[f] = total;
		total += files[f].chunks;
	}
	first[nfiles] = total;
	if (total == 0 || ops == 0)
		return;

	/* Data that no filesystem can compress or skip. */
	for (i = 0; i < (uint64) block_size; i++)
		buf[i] = (char) (i * 131 + 7);

	chosen = draw_offsets(total, ops, &r->repeats);
	lat_us = palloc_extended(sizeof(double) * ops, MCXT_ALLOC_HUGE);
	r->min_offset = PG_UINT64_MAX;

	sb_clock_start(&clock);
	for (i = 0; i < ops; i++)
	{
		uint64		c = chosen[i];
		int			lo = 0,
					hi = nfiles - 1;
		off_t		offset;
		ssize_t		done;
		instr_time	t0,
					t1;

		CHECK_FOR_INTERRUPTS();

		/* The file holding chunk c: the last one starting at or before. */
		while (lo < hi)
		{
			int			mid = (lo + hi + 1) / 2;

			if (first[mid] <= c)
				lo = mid;
			else
				hi = mid - 1;
		}
		offset = (off_t) (c - first[lo]) * block_size;

		INSTR_TIME_SET_CURRENT(t0);
		done = 0;
		for (;;)
		{
			ssize_t		part;

			/*
			 * POSIX lets a read or write of a regular file stop short (a
			 * signal, a file system's own limits): carry on from there.  An
			 * end of file or a write of nothing is reported below.
			 */
			if (write)
				part = pg_pwrite(files[lo].fd, buf + done, block_size - done,
								 offset + done);
			else
				part = pg_pread(files[lo].fd, buf + done, block_size - done,
								offset + done);
			if (part < 0 && errno == EINTR)
				continue;
			if (part <= 0)
			{
				if (part < 0)
					done = -1;
				break;
			}
			done += part;
			if (done == block_size)
				break;
		}
		INSTR_TIME_SET_CURRENT(t1);

		if (done < 0)
			ereport(ERROR,
					(errcode_for_file_access(),
					 errmsg("could not %s %d bytes at offset %lld in file \"%s\": %m",
							write ? "write" : "read", block_size,
							(long long) offset, files[lo].path)));
		if (done != block_size && write)
		{
			errno = ENOSPC;		/* a short write: the file system filled */
			ereport(ERROR,
					(errcode_for_file_access(),
					 errmsg("could not write %d bytes at offset %lld in file \"%s\": %m",
							block_size, (long long) offset, files[lo].path)));
		}
		if (done != block_size)
			ereport(ERROR,
					(errcode(ERRCODE_DATA_CORRUPTED),
					 errmsg("could not read %d bytes at offset %lld in file \"%s\": read only %zd bytes",
							block_size, (long long) offset, files[lo].path,
							done),
					 errdetail("The file is shorter than when the measurement began: something outside PostgreSQL truncated it.")));
		INSTR_TIME_SUBTRACT(t1, t0);
		/*
		 * In fractions of a microsecond: INSTR_TIME_GET_MICROSEC truncates,
		 * and a write to tmpfs or a read from the page cache takes less
		 * than one, which would show as a latency of 0.
		 */
		lat_us[i] = INSTR_TIME_GET_DOUBLE(t1) * 1e6;
		r->bytes += block_size;
		r->min_offset = Min(r->min_offset, files[lo].base + offset);
		r->max_offset = Max(r->max_offset, files[lo].base + offset);
	}
	if (write)
	{
		for (f = 0; f < nfiles; f++)
		{
			if (files[f].chunks > 0 && fdatasync(files[f].fd) != 0)
				ereport(ERROR,
						(errcode_for_file_access(),
						 errmsg("could not fdatasync file \"%s\": %m",
								files[f].path)));
		}
	}
	sb_clock_stop(&clock, &r->timing);
	r->ops = ops;

	sb_sort(lat_us, (int) ops);
	r->p50_us = sb_percentile_sorted(lat_us, (int) ops, 50);
	r->p95_us = sb_percentile_sorted(lat_us, (int) ops, 95);
	r->p99_us = sb_percentile_sorted(lat_us, (int) ops, 99);

	pfree(lat_us);
	pfree(chosen);
	pfree(raw);
	pfree(first);
}
