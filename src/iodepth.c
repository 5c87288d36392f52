/*-------------------------------------------------------------------------
 *
 * iodepth.c
 *	  The storage's random-read rate of a table's pages at depths 1, 2, 4,
 *	  ... and the least depth that gets nearly all of it: the
 *	  effective_io_concurrency a bitmap heap scan of the table needs.
 *
 * A bitmap heap scan keeps effective_io_concurrency reads of heap pages in
 * flight (through a read stream from 18, with posix_fadvise() hints
 * before), and a device with latency L and p requests served at once gives
 * k reads in flight at most min(k, p) / L pages a second, and no more than
 * its IOPS cap.  Past the depth where the rate stops rising a deeper queue
 * buys nothing; short of it, the scan waits.  So the pages are read as
 * random_read() reads them at depth k: 8 kB reads of blocks drawn without
 * repeats from the whole table, k threads each with one read outstanding,
 * the page cache emptied of the table before each depth, and under a
 * control group's read limit its first allowance read untimed (other
 * blocks) first, as access_paths does beside a path.
 *
 * The first sweep goes up from depth 1 and stops where two doublings in a
 * row gain less than SB_DEPTH_FLAT each (or at SB_MAX_DEPTH); the later
 * sweeps read the same depths, in turn downwards and upwards so that a
 * drift in the storage's speed does not favour either end.  Each depth's
 * rate is the median over the sweeps; each sweep's knee is the least
 * depth within SB_DEPTH_KNEE_PCT of that sweep's best rate, and the
 * recommendation is the median of those knees, its range their least and
 * most.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "miscadmin.h"
#include "portability/instr_time.h"

#include "accesspath.h"
#include "accesspath_rounds.h"
#include "cache.h"
#include "cgroup.h"
#include "clock.h"
#include "iodepth.h"
#include "randio.h"
#include "stats.h"

/* A doubling that gains less than this factor is flat. */
#define SB_DEPTH_FLAT			1.05
/*
 * A depth's reads: at least 16 for each in flight and a fifth of a second
 * at the rate the shallower depth got; at most half a second at twice that
 * rate (a deeper queue may double it), but never under 4 reads each.
 * Under a control group's read limit, at least a second at its rate: it
 * lets a slice's worth through at once at the start of each slice, so a
 * shorter step is timed mostly at memory speed or mostly waiting, as its
 * start falls (pagecost.c's batches are as long for the same reason).
 */
#define STEP_READS_A_THREAD		16
#define STEP_LEAST_S			0.2
#define STEP_MOST_S				0.5
#define STEP_FIRST_READS		64
#define STEP_LIMITED_S			1.0

/*
 * How many reads to time at depth, after a shallower depth's rate; least
 * is the reads a read limit asks for (0 without one).
 */
static uint64
step_reads(int depth, double shallower_rate, double least, uint64 most)
{
	double		want;
	double		cap;

	if (shallower_rate <= 0 || isnan(shallower_rate))
		want = cap = Max(STEP_FIRST_READS, (double) STEP_READS_A_THREAD * depth);
	else
	{
		want = Max((double) STEP_READS_A_THREAD * depth,
				   STEP_LEAST_S * shallower_rate);
		cap = Max(4.0 * depth, STEP_MOST_S * 2.0 * shallower_rate);
	}
	return (uint64) Max(Min(Max(Min(want, cap), least), (double) most), 1.0);
}

/* The pages a second of one depth's reads, cold. */
static double
one_step(SbTarget *target, SbRandomFile *files, uint64 allowance,
		 uint64 reads, int depth, uint64 *timed)
{
	SbRandomResult r;

	CHECK_FOR_INTERRUPTS();
	sb_evict_page_cache(target);
	sb_random_read_drained(files, target->nsegments, BLCKSZ, allowance,
						   reads, depth, &r);
	*timed += r.ops;
	return sb_rate((double) r.ops, r.timing.seconds);
}

/* The least depth within SB_DEPTH_KNEE_PCT of the best of rates. */
static int
knee_of(const int *depths, const double *rates, int n)
{
	double		best = sb_max(rates, n);
	int			i;

	for (i = 0; i < n; i++)
		if (rates[i] >= best * SB_DEPTH_KNEE_PCT / 100.0)
			return depths[i];
	return depths[n - 1];
}

/*
 * Sweep the depths for at most max_seconds (a sweep cut short by it is
 * left out); ds->sweeps may be 0, and then nothing is recommended.
 */
void
sb_depth_sweep(SbTarget *target, double max_seconds, SbDepthSweep *ds)
{
	SbRandomFile *files = sb_path_open_random(target);
	uint64		allowance = sb_cgroup_allowance_reads(target->segments[0]->path,
													  BLCKSZ, SB_THROTTLE_ALLOWANCE_S);
	double		limit_rate = sb_cgroup_path_read_rate(target->segments[0]->path, BLCKSZ);
	double		least = limit_rate < HUGE_VAL ? ceil(STEP_LIMITED_S * limit_rate) : 0;
	double		rates[SB_DEPTH_MAX_SWEEPS][SB_DEPTH_STEPS];
	uint64		reads[SB_DEPTH_STEPS];
	uint64		most;
	instr_time	start;
	int			s;
	int			i;

	memset(ds, 0, sizeof(SbDepthSweep));
	/* distinct blocks for the timed reads and the allowance before them */
	most = target->nblocks > allowance ? (target->nblocks - allowance) / 2 : 1;
	INSTR_TIME_SET_CURRENT(start);

	/* The first sweep finds the depths: upwards until the rate is flat. */
	for (i = 0; i < SB_DEPTH_STEPS && (1 << i) <= SB_MAX_DEPTH; i++)
	{
		int			depth = 1 << i;

		if (sb_seconds_since(start) >= max_seconds)
		{
			ds->budget_hit = true;
			break;
		}
		reads[i] = step_reads(depth, i > 0 ? rates[0][i - 1] : 0, least, most);
		rates[0][i] = one_step(target, files, allowance, reads[i], depth,
							   &ds->reads);
		ds->depths[i] = depth;
		ds->ndepths = i + 1;
		if (i >= 2 && rates[0][i] < SB_DEPTH_FLAT * rates[0][i - 1] &&
			rates[0][i - 1] < SB_DEPTH_FLAT * rates[0][i - 2])
			break;
	}
	if (!ds->budget_hit)
		ds->sweeps = 1;

	/* The same depths again, downwards and upwards in turn. */
	for (s = 1; s < SB_DEPTH_MAX_SWEEPS && !ds->budget_hit; s++)
	{
		int			k;

		for (k = 0; k < ds->ndepths; k++)
		{
			i = (s % 2 == 1) ? ds->ndepths - 1 - k : k;
			if (sb_seconds_since(start) >= max_seconds)
			{
				ds->budget_hit = true;
				break;
			}
			rates[s][i] = one_step(target, files, allowance, reads[i],
								   ds->depths[i], &ds->reads);
		}
		if (!ds->budget_hit)
			ds->sweeps = s + 1;
	}

	for (i = 0; ds->sweeps > 0 && i < ds->ndepths; i++)
	{
		double		v[SB_DEPTH_MAX_SWEEPS];

		for (s = 0; s < ds->sweeps; s++)
			v[s] = rates[s][i];
		ds->pages_s[i] = sb_median(v, ds->sweeps);
	}
	/*
	 * Each sweep's own knee; the recommendation is their median (the
	 * upper one of an even count: a depth too low costs a bitmap heap
	 * scan more than one too high), the range their least and most.
	 */
	if (ds->sweeps > 0)
	{
		int			knees[SB_DEPTH_MAX_SWEEPS] = {0};

		for (s = 0; s < ds->sweeps; s++)
		{
			int			k = knee_of(ds->depths, rates[s], ds->ndepths);
			int			j;

			/* insertion, ascending */
			for (j = s; j > 0 && knees[j - 1] > k; j--)
				knees[j] = knees[j - 1];
			knees[j] = k;
		}
		ds->knee = knees[ds->sweeps / 2];
		if (ds->sweeps >= SB_DEPTH_MIN_SWEEPS)
		{
			ds->knee_low = knees[0];
			ds->knee_high = knees[ds->sweeps - 1];
		}
	}
	ds->elapsed_s = sb_seconds_since(start);
	sb_path_close_random(target, files);
}

/*
 * The pages a second a reader keeping depth reads in flight gets, by the
 * sweep: the rate of the deepest depth measured not above it (depth 1's
 * for 0, no prefetch: one read at a time).
 */
double
sb_depth_rate(const SbDepthSweep *ds, int depth)
{
	double		r = ds->pages_s[0];
	int			i;

	for (i = 0; i < ds->ndepths && ds->depths[i] <= Max(depth, 1); i++)
		r = ds->pages_s[i];
	return r;
}
