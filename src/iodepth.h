/*-------------------------------------------------------------------------
 *
 * iodepth.h
 *	  The storage's random-read rate of a table's pages at each depth, and
 *	  the depth where it stops rising: what effective_io_concurrency needs
 *	  to be (iodepth.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCANBENCH_IODEPTH_H
#define SCANBENCH_IODEPTH_H

#include "relfiles.h"

/* Depths 1, 2, 4, ... 256 (randio.h's SB_MAX_DEPTH): nine at most. */
#define SB_DEPTH_STEPS			9
/*
 * A sweep's knee is the least depth whose rate is within this share of
 * the sweep's best rate: past it a deeper queue gains under a tenth.
 */
#define SB_DEPTH_KNEE_PCT		90.0
/* Sweeps over the depths; the knee's range is given from the third. */
#define SB_DEPTH_MIN_SWEEPS		3
#define SB_DEPTH_MAX_SWEEPS		7

typedef struct SbDepthSweep
{
	int			ndepths;		/* depths measured: 1, 2, 4, ... */
	int			depths[SB_DEPTH_STEPS];
	double		pages_s[SB_DEPTH_STEPS];	/* median over the sweeps */
	int			sweeps;			/* complete sweeps */
	int			knee;			/* the sweeps' own knees' median; 0: no
								 * complete sweep */
	int			knee_low;		/* the least and the most of those knees; */
	int			knee_high;		/* 0 below SB_DEPTH_MIN_SWEEPS */
	uint64		reads;			/* timed, over every sweep */
	double		elapsed_s;
	bool		budget_hit;		/* stopped by max_seconds */
} SbDepthSweep;

extern void sb_depth_sweep(SbTarget *target, double max_seconds,
						   SbDepthSweep *ds);
extern double sb_depth_rate(const SbDepthSweep *ds, int depth);

#endif							/* SCANBENCH_IODEPTH_H */
