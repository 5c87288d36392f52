/*-------------------------------------------------------------------------
 *
 * randio.h
 *	  Timed random reads or writes over open files, at queue depth 1,
 *	  and reads, random or in order, with several in flight (randio.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCANBENCH_RANDIO_H
#define SCANBENCH_RANDIO_H

#include "clock.h"

/* the most reads random_read keeps in flight: a thread each */
#define SB_MAX_DEPTH	256

/* One file of a random I/O run: chunks of block_size, from offset 0. */
typedef struct SbRandomFile
{
	int			fd;
	const char *path;			/* for errors */
	uint64		chunks;
	uint64		base;			/* reported offsets are base + offset */
	uint64		bytes;			/* at depth: the bytes from start, its last
								 * chunk shorter (0: chunks full ones) */
	uint64		start;			/* at depth: where chunk 0 begins in the file */
} SbRandomFile;

typedef struct SbRandomResult
{
	uint64		ops;
	uint64		bytes;
	bool		repeats;		/* more ops than chunks: some read twice */
	SbTiming	timing;
	double		p50_us;
	double		p95_us;
	double		p99_us;
	uint64		min_offset;
	uint64		max_offset;
} SbRandomResult;

extern void sb_random_io(SbRandomFile *files, int nfiles, int block_size,
						 uint64 ops, bool write, SbRandomResult *r);
extern void sb_random_read_depth(SbRandomFile *files, int nfiles,
								 int block_size, uint64 ops, int depth,
								 SbRandomResult *r);
extern void sb_random_read_drained(SbRandomFile *files, int nfiles,
								   int block_size, uint64 warmup, uint64 ops,
								   int depth, SbRandomResult *r);
extern void sb_sequential_read_depth(SbRandomFile *files, int nfiles,
									 int block_size, int depth,
									 SbRandomResult *r);

#endif							/* SCANBENCH_RANDIO_H */
