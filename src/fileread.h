/*-------------------------------------------------------------------------
 *
 * fileread.h
 *	  The raw_read family's reads of a relation's files, in order at a
 *	  depth or at random, the caches prepared first (fileread.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCANBENCH_FILEREAD_H
#define SCANBENCH_FILEREAD_H

#include "cache.h"
#include "randio.h"
#include "relfiles.h"
#include "seqread.h"

extern void sb_file_read_in_flight(SbTarget *target, int32 block_size,
								   SbCacheMode cache, int32 depth,
								   SbReadResult *total);
extern double sb_file_random_read(SbTarget *target, SbCacheMode cache,
								  int reads, int block_size, int depth,
								  SbRandomResult *r);

#endif							/* SCANBENCH_FILEREAD_H */
