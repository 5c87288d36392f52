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
/*
 * The most bytes of read buffers at depth, depth times block_size: each
 * read in flight has a buffer of its own (256 x 64 MB would be 16 GiB).
 */
#define SB_MAX_DEPTH_BYTES	(256 * 1024 * 1024)
/*
 * Files a run opens before its clock starts and keeps open at most at
 * once (depth + 1 where that is more), as far as the server's descriptors
 * allow: a relation of more files is read with files opened as the reads
 * reach them.
 */
#define SB_OPEN_FILES	64

/*
 * One file of a random I/O run: chunks of block_size, from offset 0.  A
 * file with fd -1 is opened read-only by the run itself when a read first
 * needs it and closed at the run's end or to make room for another
 * (direct: with O_DIRECT; advise_random: no read-ahead, as fio does for
 * random jobs); an fd the caller opened is used as it is.
 */
typedef struct SbRandomFile
{
	int			fd;
	const char *path;			/* for errors */
	bool		direct;
	bool		advise_random;
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

extern void sb_check_depth_memory(int depth, int block_size);
extern void sb_random_io(SbRandomFile *files, int nfiles, int block_size,
						 uint64 ops, bool write, SbRandomResult *r);
extern void sb_random_read_depth(SbRandomFile *files, int nfiles,
								 int block_size, uint64 ops, int depth,
								 SbRandomResult *r);
extern void sb_random_read_drained(SbRandomFile *files, int nfiles,
								   int block_size, uint64 warmup, uint64 ops,
								   int depth, SbRandomResult *r);
extern bool sb_sequential_read_depth(SbRandomFile *files, int nfiles,
									 int block_size, int depth, bool refuse_ok,
									 SbRandomResult *r);

#endif							/* SCANBENCH_RANDIO_H */
