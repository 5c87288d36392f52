/*-------------------------------------------------------------------------
 *
 * scratch.h
 *	  Timed tests on a scratch file in a tablespace, removed whatever
 *	  happens (scratch.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCANBENCH_SCRATCH_H
#define SCANBENCH_SCRATCH_H

#include "clock.h"

typedef enum SbTest
{
	SB_SEQ_WRITE,
	SB_REWRITE,
	SB_SEQ_READ,
	SB_RANDOM_READ,
	SB_RANDOM_WRITE,
	SB_NTESTS
} SbTest;

typedef struct SbTestResult
{
	bool		done;
	bool		random;
	bool		repeats;		/* random: some blocks read twice */
	uint64		bytes;
	uint64		ops;
	double		cached_pct_before;
	SbTiming	timing;
	double		p50_us;
	double		p95_us;
	double		p99_us;
} SbTestResult;

extern Oid	sb_check_write_tablespace(Oid spc);
extern void sb_scratch_check_space(Oid spc, uint64 bytes);
extern void sb_scratch_run(Oid spc, uint64 bytes, int block_size,
						   uint64 random_ops, bool write_only,
						   SbTestResult *results);
extern double sb_write_mb_s(Oid spc, uint64 bytes, int block_size);
extern const char *sb_scratch_test_name(SbTest test);
extern void sb_scratch_profile(Oid spc, uint64 bytes, int block_size,
							   uint64 random_ops, SbTestResult *results);

#endif							/* SCANBENCH_SCRATCH_H */
