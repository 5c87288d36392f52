/*-------------------------------------------------------------------------
 *
 * sampler.c
 *	  The samples scan_efficiency() judges: pairs of a raw read and an
 *	  executor scan of the same stretch, drawn in random order until the
 *	  interval, the budget or the sample says stop; or, with method
 *	  'whole', alternated passes over the whole relation.  Why pairs and
 *	  why 8 MB stretches: entry/scan_efficiency.c and sampler.h.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "fmgr.h"
#include "funcapi.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "portability/instr_time.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

#include "cache.h"
#include "devices.h"
#include "seqread.h"
#include "sampler.h"
#include "scan.h"
#include "stats.h"

double
sb_efficiency_elapsed_s(SbEfficiency *e)
{
	instr_time	now;

	INSTR_TIME_SET_CURRENT(now);
	INSTR_TIME_SUBTRACT(now, e->start);
	return INSTR_TIME_GET_DOUBLE(now);
}

/*
 * What a timed pass adds to the call's accounts: its wall time, the time
 * the backend waited for a CPU and the group was held back by its quota
 * (clock.c), and the CPU it used; a scan's, also on their own (whether
 * the quota held the scans back is judged on them: the raw reads beside
 * them, under a throttle, use little CPU).  The rates are bytes over the
 * wall time, waits included: what the server really got.
 */
static void
account(SbEfficiency *e, SbTiming *t, bool scan)
{
	e->timed_s += t->seconds;
	e->cpu_wait_s += t->cpu_wait_s;
	e->cpu_busy_s += t->user_s + t->sys_s;
	if (scan)
	{
		e->scan_timed_s += t->seconds;
		e->scan_busy_s += t->user_s + t->sys_s;
		e->scan_periods += t->periods;
		e->scan_spent_periods += t->spent_periods;
	}
	if (isnan(t->throttled_s))
		e->throttled_known = false;
	else
		e->throttled_s += t->throttled_s;
}

static double
rate_mb_s(uint64 bytes, double seconds)
{
	return sb_rate(bytes / SB_MB, seconds);
}

/* The stretch as a piece of one segment file, for the readers. */
static SbSegment
stretch_segment(SbEfficiency *e, SbStretchRef *ref)
{
	SbLeaf	   *leaf = &e->target->leaves[ref->leaf];
	SbSegment  *seg = &leaf->segments[ref->first / RELSEG_SIZE];
	SbSegment	s = *seg;

	s.first_block = ref->first;
	s.offset = (off_t) (ref->first - seg->first_block) * BLCKSZ;
	s.bytes = (off_t) ref->nblocks * BLCKSZ;
	return s;
}

/*
 * Every stretch of every leaf, in random order: a Fisher-Yates shuffle,
 * seeded afresh each call so that successive calls sample differently.
 */
static SbStretchRef *
draw_stretches(SbTarget *target, BlockNumber stretch, int *count)
{
	SbStretchRef *refs;
	SbPrng		prng;
	int			n = 0;
	int			i;

	for (i = 0; i < target->nleaves; i++)
	{
		SbLeaf	   *leaf = &target->leaves[i];
		int			j;

		for (j = 0; j < leaf->nsegments; j++)
			n += (leaf->segments[j].bytes / BLCKSZ + stretch - 1) / stretch;
	}
	refs = palloc(sizeof(SbStretchRef) * Max(n, 1));
	n = 0;
	for (i = 0; i < target->nleaves; i++)
	{
		SbLeaf	   *leaf = &target->leaves[i];
		int			j;

		for (j = 0; j < leaf->nsegments; j++)
		{
			SbSegment  *seg = &leaf->segments[j];
			BlockNumber end = seg->first_block + seg->bytes / BLCKSZ;
			BlockNumber b;

			for (b = seg->first_block; b < end; b += stretch)
			{
				refs[n].leaf = i;
				refs[n].first = b;
				refs[n].nblocks = Min(stretch, end - b);
				n++;
			}
		}
	}

	sb_prng_seed(&prng, (uint64) MyProcPid ^ (uint64) GetCurrentTimestamp());
	for (i = n - 1; i > 0; i--)
	{
		int			j = (int) sb_prng_range(&prng, 0, i);
		SbStretchRef tmp = refs[i];

		refs[i] = refs[j];
		refs[j] = tmp;
	}
	*count = n;
	return refs;
}

/*
 * The statement that scans one leaf's stretches, "SELECT count(1) FROM
 * ONLY leaf".  Planned afresh for each pair in the pair's memory, which is
 * freed after it: a plan costs a fraction of a millisecond, outside the
 * timed runs, while keeping one per leaf would grow with the partitions.
 */
static SbScanPlan *
plan_leaf(SbEfficiency *e, SbStretchRef *ref)
{
	return sb_scan_plan(e->target, &e->target->leaves[ref->leaf], "count(1)",
						NULL, 0);
}

/* One timed executor scan of a stretch; returns its rate. */
static double
scan_stretch(SbScanPlan *plan, SbSegment *seg, SbScanResult *sr)
{
	memset(sr, 0, sizeof(SbScanResult));
	sb_scan_run(plan, seg, sr);
	return rate_mb_s(seg->bytes, sr->timing.seconds);
}

/*
 * The warm CPU ceiling of a stretch: scanned once untimed, then timed, as
 * a warm scan would be.
 */
static double
ceiling_of(SbEfficiency *e, SbLeaf *leaf, SbScanPlan *plan, SbSegment *seg)
{
	SbScanResult sr;
	SbSpot		spot = {leaf, *seg};

	(void) scan_stretch(plan, seg, &sr);
	sb_pairs_flush_stretch(&e->pairs, &spot);
	return scan_stretch(plan, seg, &sr);
}

/* The O_DIRECT rate of a stretch, or NaN where O_DIRECT is refused. */
static double
direct_of(SbEfficiency *e, SbSegment *seg)
{
	SbReadResult dr;

	if (!e->direct_ok)
		return NAN;
	if (!sb_raw_read_stretch(seg, e->dbuf, SB_DIRECT_BLOCK, true, &dr))
	{
		e->direct_ok = false;
		return NAN;
	}
	return rate_mb_s(dr.bytes, dr.timing.seconds);
}

/* The reads in flight for a device read of bytes: a MB each, at most 32. */
static int
device_depth_of(off_t bytes)
{
	return (int) Max(1, Min(SB_DEVICE_DEPTH, bytes / SB_DEVICE_BLOCK));
}

/*
 * The device's rate over segments (a stretch, or the whole relation):
 * O_DIRECT at depth, or NaN where O_DIRECT is refused.  Not read under a
 * read limit of the server's control group: the limit, not the device,
 * would set it, and a third read of each stretch at the limit's rate
 * would take a third of the budget.
 */
static double
device_of(SbEfficiency *e, SbSegment **segs, int nsegs, off_t bytes)
{
	SbReadResult dr;

	if (!e->direct_ok || e->limits.read_bps > 0 || e->limits.read_iops > 0)
		return NAN;
	if (!sb_read_in_flight(segs, nsegs, SB_DEVICE_BLOCK, device_depth_of(bytes),
						   true, true, &dr))
	{
		e->direct_ok = false;
		return NAN;
	}
	return rate_mb_s(dr.bytes, dr.timing.seconds);
}

/*
 * One pair on one stretch: a raw read (side a) against the scan (side b),
 * prepared alike for the call's cache and timed by the pair routine
 * (pairs.c), which alternates their order.  With 'cold', the stretch is
 * evicted from both caches before each side and its residency checked;
 * with 'warm', each side runs once untimed first and the stretch is then
 * flushed from the CPU caches, so that it does not find the 8 MB the pass
 * before it just read still there (cold reads bring fresh data from the
 * device; 'asis' touches nothing).
 *
 * A pair that the budget runs out in is abandoned, unrecorded, before its
 * next step: the call overruns max_seconds by one step at most.  Returns
 * whether the pair was recorded.
 */
static bool
measure_pair(SbEfficiency *e, SbStretchRef *ref)
{
	SbLeaf	   *leaf = &e->target->leaves[ref->leaf];
	SbSpot		spot;
	SbPairResult pr;
	SbReadResult *rr = &pr.side[0].read;
	SbScanResult *sr = &pr.side[1].scan;
	double		direct = NAN;
	double		device = NAN;
	double		read_rate;
	double		scan_rate;
	double		ceiling;
	bool		ceiling_measured = false;

	spot.leaf = leaf;
	spot.seg = stretch_segment(e, ref);
	e->pairs.side[1].plan = plan_leaf(e, ref);

	/*
	 * First, so that the two sides find the blocks equally placed in any
	 * cache below this system: the direct reads have been there before
	 * both.
	 */
	if (e->cache == SB_CACHE_COLD)
	{
		SbSegment  *segs[1] = {&spot.seg};

		direct = direct_of(e, &spot.seg);
		device = device_of(e, segs, 1, spot.seg.bytes);
	}

	if (!sb_pair_run(&e->pairs, e->ratio.n, &spot, &pr))
		return false;
	read_rate = pr.side[0].mb_s;
	scan_rate = pr.side[1].mb_s;

	/* A warm scan is its own ceiling; else some pairs measure it. */
	if (e->cache == SB_CACHE_WARM)
		ceiling = scan_rate;
	else if (sb_efficiency_elapsed_s(e) > e->max_seconds)
		return false;
	else if (e->ratio.n < SB_CEILING_ALL ||
			 (e->ratio.n - SB_CEILING_ALL) % SB_CEILING_EVERY == 0)
	{
		ceiling = ceiling_of(e, leaf, e->pairs.side[1].plan, &spot.seg);
		ceiling_measured = true;
	}
	else
		ceiling = NAN;			/* left out of the ceiling's samples */

	if (!isnan(direct))
		sb_pair_note(pr.trace, "O_DIRECT read");
	if (!isnan(device))
		sb_pair_note(pr.trace, "device read");
	if (ceiling_measured)
		sb_pair_note(pr.trace, "warm ceiling");

	e->read_s += rr->timing.seconds;
	account(e, &rr->timing, false);
	account(e, &sr->timing, true);
	e->read_cached_max = Max(e->read_cached_max, rr->cached_pct_before);
	e->scan_s += sr->timing.seconds;
	e->scan_cached_max = Max(e->scan_cached_max, pr.side[1].cached_pct);
	e->pair_rows = sr->rows;
	sb_samples_push(&e->read_mb_s, read_rate);
	sb_samples_push(&e->scan_mb_s, scan_rate);
	sb_samples_push(&e->direct_mb_s, direct);
	sb_samples_push(&e->device_mb_s, device);
	sb_samples_push(&e->device_pct, 100.0 * scan_rate / device);
	sb_samples_push(&e->host_ratio, read_rate / fmax(direct, device));
	sb_samples_push(&e->ceiling_mb_s, ceiling);
	sb_samples_push(&e->ceiling_ratio, scan_rate / ceiling);
	if (!isnan(read_rate) && !isnan(scan_rate))
	{
		double		r = 100.0 * scan_rate / read_rate;

		sb_samples_push(&e->ratio, r);
		sb_samples_push(&e->ratio_sorted, r);	/* makes room; then put it in order */
		sb_sorted_insert(e->ratio_sorted.v, e->ratio_sorted.n - 1, r);
	}
	return true;
}

/*
 * How long a stretch must be for its passes to measure the rate a long
 * scan gets under the group's limits.  A rate limiter lets a short pass
 * after an idle gap (the eviction, the other side of the pair) run faster
 * than its rate: blk-throttle dispatches what its current time slice
 * allows at once, and a CPU quota not yet spent in the current period
 * runs at full speed.  Seen in bench/truth.sh: 8 MB raw reads at 661 MB/s
 * on a disk throttled to 210 MB/s, and whole passes of 0.56 s 10-15 %
 * above a throttle of 419 MB/s (an allowance of about 0.1 s of the rate).
 * A pass lasting SB_SUSTAIN_S, or SB_SUSTAIN_PERIODS periods of the quota,
 * holds that allowance under 10 %; where the relation is too small for
 * such a pass, the verdict's burst mark says so.
 *
 * Under a read throttle the length follows from its bytes/s.  Under a
 * CPU quota it follows from the CPU a warm scan of a first stretch costs
 * per byte (a warm scan costs less CPU than a cold one, so the length is
 * on the long side).  Cold and without a read limit, at least
 * SB_RAMP_WINDOWS of the file's read-ahead windows (sampler.h).  Else
 * SB_STRETCH_BYTES.  The length is a power of two times
 * SB_STRETCH_BLOCKS and at most a segment, so that stretches still divide
 * segments.
 */
static BlockNumber
sustained_blocks(SbEfficiency *e)
{
	SbCgroupLimits *l = &e->limits;
	double		bytes = 0;
	BlockNumber blocks = SB_STRETCH_BLOCKS;
	int64		ra_kb = -1;

	if (l->read_bps > 0)
		bytes = SB_SUSTAIN_S * l->read_bps;
	/*
	 * Only a read from storage ramps up; warm and asis reads do not.  Under
	 * a read limit the limiter sets the rate from the first request on,
	 * and a stretch of many large windows would outlast the budget.
	 */
	if (e->cache == SB_CACHE_COLD && l->read_bps <= 0 && l->read_iops <= 0 &&
		e->target->nsegments > 0)
		ra_kb = sb_file_read_ahead_kb(e->target->segments[0]->path);
	if (ra_kb > 0)
		bytes = Max(bytes, (double) SB_RAMP_WINDOWS * ra_kb * 1024);

	/*
	 * Under a limit of requests a second, the rate follows from the size
	 * of the requests the reads make, which read-ahead and the device's
	 * largest request decide: a first stretch read cold, its requests
	 * counted by the group's throttle, tells it.
	 */
	if (l->read_iops > 0 && e->target->nsegments > 0 &&
		e->target->leaves[0].nblocks > 0)
	{
		SbStretchRef ref = {0, 0, Min(SB_STRETCH_BLOCKS, e->target->leaves[0].nblocks)};
		SbSegment	seg = stretch_segment(e, &ref);
		SbReadResult rr;
		int64		ios0,
					bytes0,
					ios,
					io_bytes;

		sb_evict_stretch(&e->target->leaves[0], &seg);
		sb_count_reads_begin(&e->pairs.count, &ios0, &bytes0);
		(void) sb_raw_read_stretch(&seg, e->pairs.buf, e->block_size, false, &rr);
		if (ios0 >= 0 && sb_cgroup_io_reads(l->device, &ios, &io_bytes) &&
			ios > ios0)
			bytes = Max(bytes, SB_SUSTAIN_S * l->read_iops *
						(double) (io_bytes - bytes0) / (ios - ios0));
	}
	if (l->cpu_quota_us > 0 && e->target->nsegments > 0)
	{
		SbStretchRef ref = {0, 0, Min(SB_STRETCH_BLOCKS, e->target->leaves[0].nblocks)};
		SbSegment	seg;
		SbScanPlan *plan;
		SbScanResult sr;
		double		cpu;
		MemoryContext old;

		if (ref.nblocks > 0)
		{
			old = MemoryContextSwitchTo(e->passcxt);
			seg = stretch_segment(e, &ref);
			plan = plan_leaf(e, &ref);
			(void) scan_stretch(plan, &seg, &sr);
			(void) scan_stretch(plan, &seg, &sr);
			MemoryContextSwitchTo(old);
			MemoryContextReset(e->passcxt);
			cpu = sr.timing.user_s + sr.timing.sys_s;
			if (cpu > 0)
				bytes = Max(bytes, SB_SUSTAIN_PERIODS * l->cpu_period_us / 1e6 *
							sb_cgroup_cpus(l) * seg.bytes / cpu);
		}
	}
	while ((double) blocks * BLCKSZ < bytes && blocks < RELSEG_SIZE)
		blocks *= 2;
	return Min(blocks, RELSEG_SIZE);
}

/* Whether the interval of the median pair ratio is as narrow as asked. */
static bool
precise_enough(SbEfficiency *e)
{
	double		lo,
				hi,
				med;

	if (e->target_pct <= 0 || e->ratio_sorted.n < SB_MIN_PAIRS)
		return false;
	if (!sb_median_ci(e->ratio_sorted.v, e->ratio_sorted.n, SB_CONFIDENCE,
					  &lo, &hi))
		return false;
	med = sb_quantile(e->ratio_sorted.v, e->ratio_sorted.n, 0.5);
	return sb_halfwidth_pct(med, lo, hi) <= e->target_pct;
}

/*
 * What the next pair may take: the median of the last few, so that one
 * pair slowed by a neighbour does not end the call early.  A pair that
 * does overrun is cut short (measure_pair).
 */
static double
next_pair_s(SbEfficiency *e)
{
	int			from = Max(0, e->pair_s.n - SB_BUDGET_LOOKBACK);
	double		recent[SB_BUDGET_LOOKBACK];

	memcpy(recent, &e->pair_s.v[from], sizeof(double) * (e->pair_s.n - from));
	return sb_median(recent, e->pair_s.n - from);
}

/*
 * Pairs on stretches in random order until a stopping rule holds: the
 * interval is narrow enough, the budget would be overrun, or the fraction
 * asked for (sample < 1) is covered.  A relation covered whole before
 * either of the first two is read again in new random orders (each round
 * without replacement): repeated pairs on the same blocks measure the
 * noise, as whole runs do, so that the budget, not the relation's size,
 * ends the sampling, and a small table gets a judged figure on a noisy
 * machine too; with no target (target_pct 0), until it has SB_MIN_PAIRS
 * pairs.  The figures of rows and coverage are the first round's.
 */
static void
measure_pairs(SbEfficiency *e)
{
	int			nrefs;
	SbStretchRef *refs;
	double		most = ceil(e->sample * e->target->nblocks);
	int			round;
	int			i;

	e->stretch_blocks = sustained_blocks(e);
	if (e->cache == SB_CACHE_COLD)
		e->device_depth = device_depth_of((off_t) e->stretch_blocks * BLCKSZ);
	refs = draw_stretches(e->target, e->stretch_blocks, &nrefs);
	for (round = 0; nrefs > 0; round++)
	{
		if (round > 0)
		{
			/*
			 * Covered: a sample asked for is taken; with no target
			 * (target_pct 0) rounds go on only to the fewest pairs that
			 * give an interval; else until the interval or the budget.
			 */
			if (e->sample < 1 ||
				(e->target_pct <= 0 && e->ratio.n >= SB_MIN_PAIRS))
				return;
			pfree(refs);
			refs = draw_stretches(e->target, e->stretch_blocks, &nrefs);
		}
		for (i = 0; i < nrefs; i++)
		{
			MemoryContext old;
			double		t0;
			bool		recorded;

			CHECK_FOR_INTERRUPTS();
			if (precise_enough(e))
				return;
			if (e->pair_s.n > 0)
			{
				if (round == 0 && e->blocks_covered + refs[i].nblocks > most)
					return;
				if (sb_efficiency_elapsed_s(e) + next_pair_s(e) > e->max_seconds)
					return;
			}

			t0 = sb_efficiency_elapsed_s(e);
			old = MemoryContextSwitchTo(e->passcxt);
			recorded = measure_pair(e, &refs[i]);
			MemoryContextSwitchTo(old);
			MemoryContextReset(e->passcxt);
			if (!recorded)
				return;			/* the budget ran out in it */
			sb_samples_push(&e->pair_s, sb_efficiency_elapsed_s(e) - t0);
			if (round == 0)
			{
				e->blocks_covered += refs[i].nblocks;
				e->rows += e->pair_rows;
			}
		}
	}
}

/*
 * runs passes over the whole relation, the order of the two sides
 * alternating; then a few stretches probed for the verdict.
 */
static void
measure_whole(SbEfficiency *e)
{
	int			nrefs;
	SbStretchRef *refs;
	int			i;

	e->whole_plan = sb_scan_plan(e->target, NULL, "count(1)", NULL, 0);
	if (e->cache == SB_CACHE_COLD)
		e->device_depth = device_depth_of(e->target->bytes);
	e->pairs.side[1].plan = e->whole_plan;
	for (i = 0; i < e->runs; i++)
	{
		MemoryContext old;
		SbSpot		whole = {NULL};
		SbPairResult pr;
		SbReadResult rr;
		SbScanResult sr;
		double		read_rate,
					scan_rate,
					device = NAN;

		CHECK_FOR_INTERRUPTS();
		old = MemoryContextSwitchTo(e->passcxt);
		/* the device first, as in a pair: it bypasses the page cache */
		if (e->cache == SB_CACHE_COLD)
			device = device_of(e, e->target->segments, e->target->nsegments,
							   e->target->bytes);
		(void) sb_pair_run(&e->pairs, i, &whole, &pr);
		if (!isnan(device))
			sb_pair_note(pr.trace, "device read");
		rr = pr.side[0].read;
		sr = pr.side[1].scan;
		MemoryContextSwitchTo(old);
		MemoryContextReset(e->passcxt);

		read_rate = pr.side[0].mb_s;
		scan_rate = pr.side[1].mb_s;
		sb_samples_push(&e->device_mb_s, device);
		sb_samples_push(&e->device_pct, 100.0 * scan_rate / device);
		account(e, &rr.timing, false);
		account(e, &sr.timing, true);
		sb_samples_push(&e->read_mb_s, read_rate);
		sb_samples_push(&e->scan_mb_s, scan_rate);
		sb_samples_push(&e->run_read_s, rr.timing.seconds);
		sb_samples_push(&e->run_scan_s, sr.timing.seconds);
		e->read_cached_max = Max(e->read_cached_max, rr.cached_pct_before);
		e->scan_cached_max = Max(e->scan_cached_max, sr.cached_pct_before);
		e->rows = sr.rows;
		e->blocks_covered = e->target->nblocks;
		if (!isnan(read_rate) && !isnan(scan_rate))
		{
			sb_samples_push(&e->ratio, 100.0 * scan_rate / read_rate);
			sb_samples_push(&e->ratio_sorted, 100.0 * scan_rate / read_rate);
		}
	}
	sb_sort(e->ratio_sorted.v, e->ratio_sorted.n);

	/*
	 * A warm pass is its own ceiling, as in a pair: probing stretches for
	 * it would compare whole passes with short ones, which a busy machine
	 * or a CPU quota's allowance moves apart by more than the verdict's
	 * margin.
	 */
	if (e->cache == SB_CACHE_WARM)
	{
		sb_samples_push(&e->ceiling_mb_s, sb_samples_median(&e->scan_mb_s));
		sb_samples_push(&e->ceiling_ratio, 1.0);
		e->read_s = sb_samples_median(&e->run_read_s);
		e->scan_s = sb_samples_median(&e->run_scan_s);
		return;
	}

	/* The verdict's probes, on a few random stretches. */
	e->stretch_blocks = sustained_blocks(e);
	refs = draw_stretches(e->target, e->stretch_blocks, &nrefs);
	for (i = 0; i < Min(nrefs, SB_WHOLE_PROBES); i++)
	{
		MemoryContext old;
		SbSegment	seg = stretch_segment(e, &refs[i]);

		CHECK_FOR_INTERRUPTS();
		old = MemoryContextSwitchTo(e->passcxt);
		if (e->cache == SB_CACHE_COLD)
			sb_samples_push(&e->direct_mb_s, direct_of(e, &seg));
		sb_samples_push(&e->ceiling_mb_s, ceiling_of(e, &e->target->leaves[refs[i].leaf], plan_leaf(e, &refs[i]), &seg));
		MemoryContextSwitchTo(old);
		MemoryContextReset(e->passcxt);
	}
	e->read_s = sb_samples_median(&e->run_read_s);
	e->scan_s = sb_samples_median(&e->run_scan_s);
	if (e->direct_mb_s.n > 0 || e->device_mb_s.n > 0)
		sb_samples_push(&e->host_ratio, sb_samples_median(&e->read_mb_s) /
						fmax(sb_samples_median(&e->direct_mb_s),
							 sb_samples_median(&e->device_mb_s)));
	if (e->ceiling_mb_s.n > 0)
		sb_samples_push(&e->ceiling_ratio, sb_samples_median(&e->scan_mb_s) / sb_samples_median(&e->ceiling_mb_s));
}

/*
 * Whether the figure moved during the call: the medians of the first half
 * of the pairs (or runs), in the order they were taken, and of the last
 * half, where each half has SB_MIN_PAIRS or more and their intervals do
 * not overlap (two 95 % intervals of one quantity miss each other about
 * once in two hundred calls); else NaN for both.  An interval of the
 * median over all the pairs holds the noise of a pair, not what moves
 * the figure during a call: on a server just started, the first 250 pairs
 * of one call ran at scan_pct 29 to 31 while shared_buffers was being used
 * for the first time, and the next 280 at 37 to 39, inside an interval of
 * 35.6 to 36.7 over all 533.  The caller widens the interval to hold
 * both halves, and the verdict says so.
 */
void
sb_sample_drift(SbEfficiency *e, double *first, double *second)
{
	int			half = e->ratio.n / 2;
	double		med[2],
				lo[2],
				hi[2];
	int			k;

	*first = *second = NAN;
	if (half < SB_MIN_PAIRS)
		return;
	for (k = 0; k < 2; k++)
	{
		double	   *v = palloc(sizeof(double) * half);

		memcpy(v, e->ratio.v + (k == 0 ? 0 : e->ratio.n - half),
			   sizeof(double) * half);
		sb_sort(v, half);
		med[k] = sb_quantile(v, half, 0.5);
		if (!sb_median_ci(v, half, SB_CONFIDENCE, &lo[k], &hi[k]))
			return;
		pfree(v);
	}
	if (hi[0] < lo[1] || hi[1] < lo[0])
	{
		*first = med[0];
		*second = med[1];
	}
}

/*
 * Take the samples of e's target, as e's arguments ask: set up what the
 * passes need, run them under the scan settings every measured scan runs
 * under, and give back what was set up.
 */
void
sb_sample(SbEfficiency *e)
{
	int			nestlevel;

	e->passcxt = AllocSetContextCreate(CurrentMemoryContext, "scanbench pass",
									   ALLOCSET_DEFAULT_SIZES);
	sb_samples_init(&e->ratio);
	sb_samples_init(&e->ratio_sorted);
	sb_samples_init(&e->read_mb_s);
	sb_samples_init(&e->scan_mb_s);
	sb_samples_init(&e->direct_mb_s);
	sb_samples_init(&e->device_mb_s);
	sb_samples_init(&e->device_pct);
	sb_samples_init(&e->host_ratio);
	sb_samples_init(&e->ceiling_mb_s);
	sb_samples_init(&e->ceiling_ratio);
	sb_samples_init(&e->pair_s);
	sb_samples_init(&e->run_read_s);
	sb_samples_init(&e->run_scan_s);
	sb_pairs_init(&e->pairs, e->target, e->cache, e->block_size, e->start,
				  Min(SB_MAP_MAX_S, SB_MAP_SHARE * e->max_seconds));
	e->pairs.side[0].kind = SB_SIDE_READ;
	e->pairs.side[0].label = "raw read";
	e->pairs.side[1].kind = SB_SIDE_SCAN;
	e->pairs.side[1].label = "scan";
	/* a pair the budget runs out in is dropped; whole runs all run */
	if (e->method == SB_METHOD_PAIRS)
		e->pairs.deadline_s = e->max_seconds;
	if (e->limits.read_iops > 0)
		e->pairs.count.device = e->limits.device;
	e->dbuf = sb_aligned_buffer(SB_DIRECT_BLOCK);
	e->direct_ok = true;
	e->throttled_known = true;

	nestlevel = sb_scan_settings_begin(0);

	/*
	 * No JIT compilation: it costs milliseconds per statement, which a
	 * sample of many short stretches would pay once each where a whole scan
	 * pays it once, and count(1) has nothing for compiled code to speed up
	 * (no column is deformed).
	 */
	(void) set_config_option("jit", "off", PGC_USERSET, PGC_S_SESSION,
							 GUC_ACTION_SAVE, true, 0, false);
	if (e->method == SB_METHOD_PAIRS)
		measure_pairs(e);
	else
		measure_whole(e);
	sb_scan_settings_end(nestlevel);

	MemoryContextDelete(e->passcxt);
	e->passcxt = NULL;
	e->read_ios = e->pairs.count.ios;
	e->read_io_bytes = e->pairs.count.bytes;
	e->read_io_s = e->pairs.count.seconds;
	sb_pairs_end(&e->pairs);
}
