/*-------------------------------------------------------------------------
 *
 * efficiency.c
 *	  scan_efficiency(): the executor's count(1) scan rate as a percentage
 *	  of the raw read rate of the same blocks, with how sure that figure is
 *	  and whether it measures the storage at all.
 *
 * The unit of measurement is a pair: the raw read of a stretch of the
 * relation and the executor scan of the same blocks, back to back, each
 * after the same cache preparation, the order alternating from pair to
 * pair.  Whatever drifts on the machine (a neighbour's load, the host's
 * cache, frequency scaling) moves both sides of a pair together, so the
 * pair's ratio is far steadier than either rate.  The figures are medians
 * over pairs; their spread is the 10th and 90th percentile of the pair
 * ratios, and their precision a 95 % confidence interval of the median by
 * order statistics (binomial ranks, no assumption about the distribution;
 * stats.c).
 *
 * Stretches are drawn in random order without replacement, so any prefix
 * of the draw is a fair sample of the relation, and drawing stops as soon
 * as the interval is narrow enough (target_pct), the time budget would be
 * overrun (max_seconds), or the fraction asked for is covered (sample).
 * A nightly check on a terabyte table thus reads what it needs for the
 * precision asked for, not the terabyte twice.  A relation of fewer than
 * ten stretches is read in rounds until it has ten pairs.
 *
 * Every timed pass leaves out the time this backend waited for a CPU
 * (clock.c): on a busy machine that wait lands on the CPU-bound scan and
 * would be counted as the executor's cost.
 *
 * method => 'whole' keeps the original measurement: runs alternated
 * passes over the whole relation, now with the same statistics over runs.
 *
 * Both methods also measure, in the same call, what the verdict needs:
 * O_DIRECT reads of the same blocks (what the storage delivers without any
 * cache of this system) and warm scans of them (the executor's CPU
 * ceiling).
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

#include "measure.h"
#include "storage.h"

PG_FUNCTION_INFO_V1(scan_efficiency);

/*
 * Stretch size: 8 MB (1024 blocks of 8 kB).
 *
 * - Large enough that what a pass costs besides reading, ExecutorStart and
 *   ExecutorEnd (tens of microseconds), opening the file, the kernel's
 *   read-ahead ramp (it reaches its full window within the first few
 *   hundred kB), is about 1 % of a warm 8 MB scan (about 3 ms at 2.5 GB/s)
 *   and far less of a cold one: a stretch costs the same per byte as the
 *   whole relation (bench/stretch.sh measures it).
 * - Small enough that a 1 GB table gives 128 pairs, enough for a 95 %
 *   interval of +-5 % when pair ratios spread by +-20 %, and that one pair
 *   takes tens of milliseconds, so the budget is kept to within one pair.
 * - A power of two that divides a 1 GB segment, so that a stretch never
 *   spans two files (and stretches are cut at segment ends anyway).
 */
#ifndef SB_STRETCH_BYTES		/* make COPT=-DSB_STRETCH_BYTES=... to try others */
#define SB_STRETCH_BYTES	(8 * 1024 * 1024)
#endif
#define SB_STRETCH_BLOCKS	Max(SB_STRETCH_BYTES / BLCKSZ, 1)

/*
 * O_DIRECT reads of 1 MB, one at a time: what fio --direct=1 --bs=1M
 * measures.  The kernel splits each into requests the device serves in
 * parallel, while buffered 8 kB reads rely on read-ahead of 128 kB to a
 * few hundred kB in flight, so on real storage the direct read is the
 * faster of the two.  Buffered "cold" reads that beat it came from a cache
 * below this system.
 */
#define SB_DIRECT_BLOCK		(1024 * 1024)

/* The interval may stop the call only once it rests on this many pairs. */
#define SB_MIN_PAIRS		10

#define SB_CONFIDENCE		0.95
#define SB_DEFAULT_TARGET	5.0		/* judged against when target_pct is 0 */
#define SB_CACHED_PCT		5.0		/* resident after eviction: not cold */
#define SB_HOST_CACHE_RATIO 1.1		/* buffered over direct, with a margin */
#define SB_CEILING_RATIO	0.9		/* scan at 90 % of its warm rate or more */
#define SB_WHOLE_PROBES		8		/* stretches probed by method 'whole' */
#define SB_BUDGET_LOOKBACK	8		/* pairs whose duration predicts the next */

typedef struct SbStretchRef
{
	int			leaf;
	BlockNumber first;
	BlockNumber nblocks;
} SbStretchRef;

/* A growing array of samples. */
typedef struct SbSamples
{
	int			n;
	int			cap;
	double	   *v;
} SbSamples;

typedef struct SbEfficiency
{
	/* arguments */
	SbTarget   *target;
	SbCacheMode cache;
	int			block_size;
	int			runs;
	double		sample;
	double		max_seconds;
	double		target_pct;
	SbMethod	method;

	/* call state */
	instr_time	start;
	MemoryContext passcxt;		/* reset after every pair or run */
	char	   *buf;			/* block_size, for buffered reads */
	char	   *dbuf;			/* SB_DIRECT_BLOCK, for O_DIRECT reads */
	SbScrub    *scrub;			/* where no cache-line flush is known */
	bool		direct_ok;		/* the filesystem takes O_DIRECT */
	SbScanPlan *whole_plan;

	/* one value per pair (or run) */
	SbSamples	ratio;			/* 100 * scan rate / read rate */
	SbSamples	ratio_sorted;
	SbSamples	read_mb_s;
	SbSamples	scan_mb_s;
	SbSamples	direct_mb_s;	/* O_DIRECT rate of the same blocks */
	SbSamples	host_ratio;		/* buffered read rate / direct rate */
	SbSamples	ceiling_mb_s;	/* warm scan rate of the same blocks */
	SbSamples	ceiling_ratio;	/* scan rate / warm scan rate */
	SbSamples	pair_s;			/* wall time of each pair */
	SbSamples	run_read_s;		/* 'whole': seconds of each side per run */
	SbSamples	run_scan_s;
	double		read_s;
	double		scan_s;
	double		cpu_wait_s;		/* of the timed sides, left out of them */
	double		timed_s;		/* the timed sides, wall clock */
	double		read_cached_max;
	double		scan_cached_max;
	uint64		rows;
	uint64		blocks_covered;	/* by the first round */
	uint64		pair_rows;		/* rows of the last pair's scan */
} SbEfficiency;

/* Allocated in the call's context; repalloc keeps them there. */
static void
samples_init(SbSamples *s)
{
	s->n = 0;
	s->cap = 64;
	s->v = palloc(sizeof(double) * s->cap);
}

/* Add a value; NaN (nothing measured) is left out. */
static void
push(SbSamples *s, double x)
{
	if (isnan(x))
		return;
	if (s->n == s->cap)
	{
		s->cap *= 2;
		s->v = repalloc(s->v, sizeof(double) * s->cap);
	}
	s->v[s->n++] = x;
}

/* Median of a sample, leaving it in its order. */
static double
median_of(SbSamples *s)
{
	double	   *copy;
	double		m;

	if (s->n == 0)
		return NAN;
	copy = palloc(sizeof(double) * s->n);
	memcpy(copy, s->v, sizeof(double) * s->n);
	m = sb_median(copy, s->n);
	pfree(copy);
	return m;
}

static double
elapsed_s(SbEfficiency *e)
{
	instr_time	now;

	INSTR_TIME_SET_CURRENT(now);
	INSTR_TIME_SUBTRACT(now, e->start);
	return INSTR_TIME_GET_DOUBLE(now);
}

/*
 * A timed pass's seconds without the time the backend waited for a CPU:
 * other processes' load falls mostly on the CPU-bound side (the scan), and
 * would make the executor look slower than it is by whatever else the
 * machine runs.  What remains is the pass's own work and its I/O waits.
 */
static double
net_s(SbTiming *t)
{
	return t->seconds - t->cpu_wait_s;
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
draw_stretches(SbTarget *target, int *count)
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
			n += (leaf->segments[j].bytes / BLCKSZ + SB_STRETCH_BLOCKS - 1) /
				SB_STRETCH_BLOCKS;
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

			for (b = seg->first_block; b < end; b += SB_STRETCH_BLOCKS)
			{
				refs[n].leaf = i;
				refs[n].first = b;
				refs[n].nblocks = Min(SB_STRETCH_BLOCKS, end - b);
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
	return rate_mb_s(seg->bytes, net_s(&sr->timing));
}

/*
 * The warm CPU ceiling of a stretch: scanned once untimed, then timed, as
 * a warm scan would be.
 */
static double
ceiling_of(SbEfficiency *e, SbLeaf *leaf, SbScanPlan *plan, SbSegment *seg)
{
	SbScanResult sr;

	(void) scan_stretch(plan, seg, &sr);
	sb_flush_stretch(leaf, seg, e->scrub);
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
	return rate_mb_s(dr.bytes, net_s(&dr.timing));
}

/*
 * One pair on one stretch.  With 'cold', the stretch is evicted from both
 * caches before each side and its residency checked; with 'warm', each
 * side runs once untimed first; with 'asis', nothing is done to the
 * relation's caches.  With 'warm', the stretch is flushed from the CPU
 * caches before each timed side, so that it does not find the 8 MB the
 * pass before it just read still there (cold reads bring fresh data from
 * the device; 'asis' touches nothing).
 *
 * A pair that the budget runs out in is abandoned, unrecorded, before its
 * next step: the call overruns max_seconds by one step at most.  Returns
 * whether the pair was recorded.
 */
static bool
measure_pair(SbEfficiency *e, SbStretchRef *ref)
{
	SbLeaf	   *leaf = &e->target->leaves[ref->leaf];
	SbSegment	seg = stretch_segment(e, ref);
	SbScanPlan *plan = plan_leaf(e, ref);
	SbReadResult rr;
	SbScanResult sr;
	SbResidency res;
	double		direct = NAN;
	double		read_rate = NAN;
	double		scan_rate = NAN;
	double		ceiling;
	int			side;

	memset(&rr, 0, sizeof(rr));
	memset(&sr, 0, sizeof(sr));
	memset(&res, 0, sizeof(res));

	/*
	 * First, so that the two sides find the blocks equally placed in any
	 * cache below this system: the direct read has been there before both.
	 */
	if (e->cache == SB_CACHE_COLD)
		direct = direct_of(e, &seg);

	for (side = 0; side < 2; side++)
	{
		bool		raw_side = ((side + e->ratio.n) % 2 == 0);

		if (elapsed_s(e) > e->max_seconds)
			return false;
		if (e->cache == SB_CACHE_COLD)
			sb_evict_stretch(leaf, &seg);

		if (raw_side)
		{
			if (e->cache == SB_CACHE_WARM)
			{
				(void) sb_raw_read_stretch(&seg, e->buf, e->block_size, false, &rr);
				sb_flush_stretch(leaf, &seg, e->scrub);
			}
			(void) sb_raw_read_stretch(&seg, e->buf, e->block_size, false, &rr);
			read_rate = rate_mb_s(rr.bytes, net_s(&rr.timing));
		}
		else
		{
			if (e->cache == SB_CACHE_WARM)
				(void) scan_stretch(plan, &seg, &sr);
			sb_stretch_residency(leaf, &seg, &res);
			if (e->cache == SB_CACHE_WARM)
				sb_flush_stretch(leaf, &seg, e->scrub);
			scan_rate = scan_stretch(plan, &seg, &sr);
		}
	}

	/* A warm scan is its own ceiling. */
	if (e->cache == SB_CACHE_WARM)
		ceiling = scan_rate;
	else if (elapsed_s(e) > e->max_seconds)
		return false;
	else
		ceiling = ceiling_of(e, leaf, plan, &seg);

	e->read_s += net_s(&rr.timing);
	e->cpu_wait_s += rr.timing.cpu_wait_s + sr.timing.cpu_wait_s;
	e->timed_s += rr.timing.seconds + sr.timing.seconds;
	e->read_cached_max = Max(e->read_cached_max, rr.cached_pct_before);
	e->scan_s += net_s(&sr.timing);
	e->scan_cached_max = Max(e->scan_cached_max,
							 sb_pct(res.any_blocks, res.blocks));
	e->pair_rows = sr.rows;
	push(&e->read_mb_s, read_rate);
	push(&e->scan_mb_s, scan_rate);
	push(&e->direct_mb_s, direct);
	push(&e->host_ratio, read_rate / direct);
	push(&e->ceiling_mb_s, ceiling);
	push(&e->ceiling_ratio, scan_rate / ceiling);
	if (!isnan(read_rate) && !isnan(scan_rate))
	{
		double		r = 100.0 * scan_rate / read_rate;

		push(&e->ratio, r);
		push(&e->ratio_sorted, r);	/* makes room; then put it in order */
		sb_sorted_insert(e->ratio_sorted.v, e->ratio_sorted.n - 1, r);
	}
	return true;
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
 * Pairs on stretches in random order until a stopping rule holds.  A
 * relation of fewer than SB_MIN_PAIRS stretches, once covered, is read
 * again in new random orders (each round without replacement) until it has
 * that many pairs, so that a small table too gets an interval: repeated
 * pairs on the same blocks measure the noise, as whole runs do.
 */
static void
measure_pairs(SbEfficiency *e)
{
	int			nrefs;
	SbStretchRef *refs = draw_stretches(e->target, &nrefs);
	double		most = ceil(e->sample * e->target->nblocks);
	int			round;
	int			i;

	for (round = 0; nrefs > 0; round++)
	{
		if (round > 0)
		{
			/* Covered: go round again only for a small relation. */
			if (e->sample < 1 || e->ratio.n >= SB_MIN_PAIRS)
				return;
			pfree(refs);
			refs = draw_stretches(e->target, &nrefs);
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
				if (elapsed_s(e) + next_pair_s(e) > e->max_seconds)
					return;
			}

			t0 = elapsed_s(e);
			old = MemoryContextSwitchTo(e->passcxt);
			recorded = measure_pair(e, &refs[i]);
			MemoryContextSwitchTo(old);
			MemoryContextReset(e->passcxt);
			if (!recorded)
				return;			/* the budget ran out in it */
			push(&e->pair_s, elapsed_s(e) - t0);
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
	for (i = 0; i < e->runs; i++)
	{
		MemoryContext old;
		SbReadResult rr;
		SbScanResult sr;
		double		read_rate,
					scan_rate;

		CHECK_FOR_INTERRUPTS();
		old = MemoryContextSwitchTo(e->passcxt);
		if (i % 2 == 0)
		{
			sb_raw_read(e->target, e->block_size, e->cache, &rr, NULL);
			sb_scan_prepared(e->whole_plan, e->cache, &sr);
		}
		else
		{
			sb_scan_prepared(e->whole_plan, e->cache, &sr);
			sb_raw_read(e->target, e->block_size, e->cache, &rr, NULL);
		}
		MemoryContextSwitchTo(old);
		MemoryContextReset(e->passcxt);

		read_rate = rate_mb_s(rr.bytes, net_s(&rr.timing));
		scan_rate = rate_mb_s(e->target->bytes, net_s(&sr.timing));
		e->cpu_wait_s += rr.timing.cpu_wait_s + sr.timing.cpu_wait_s;
		e->timed_s += rr.timing.seconds + sr.timing.seconds;
		push(&e->read_mb_s, read_rate);
		push(&e->scan_mb_s, scan_rate);
		push(&e->run_read_s, net_s(&rr.timing));
		push(&e->run_scan_s, net_s(&sr.timing));
		e->read_cached_max = Max(e->read_cached_max, rr.cached_pct_before);
		e->scan_cached_max = Max(e->scan_cached_max, sr.cached_pct_before);
		e->rows = sr.rows;
		e->blocks_covered = e->target->nblocks;
		if (!isnan(read_rate) && !isnan(scan_rate))
		{
			push(&e->ratio, 100.0 * scan_rate / read_rate);
			push(&e->ratio_sorted, 100.0 * scan_rate / read_rate);
		}
	}
	sb_sort(e->ratio_sorted.v, e->ratio_sorted.n);

	/* The verdict's probes, on a few random stretches. */
	refs = draw_stretches(e->target, &nrefs);
	for (i = 0; i < Min(nrefs, SB_WHOLE_PROBES); i++)
	{
		MemoryContext old;
		SbSegment	seg = stretch_segment(e, &refs[i]);

		CHECK_FOR_INTERRUPTS();
		old = MemoryContextSwitchTo(e->passcxt);
		if (e->cache == SB_CACHE_COLD)
			push(&e->direct_mb_s, direct_of(e, &seg));
		push(&e->ceiling_mb_s, ceiling_of(e, &e->target->leaves[refs[i].leaf], plan_leaf(e, &refs[i]), &seg));
		MemoryContextSwitchTo(old);
		MemoryContextReset(e->passcxt);
	}
	e->read_s = median_of(&e->run_read_s);
	e->scan_s = median_of(&e->run_scan_s);
	if (e->direct_mb_s.n > 0)
		push(&e->host_ratio, median_of(&e->read_mb_s) / median_of(&e->direct_mb_s));
	if (e->ceiling_mb_s.n > 0)
		push(&e->ceiling_ratio, median_of(&e->scan_mb_s) / median_of(&e->ceiling_mb_s));
}

/* ---- The verdict ---- */

typedef struct SbVerdict
{
	bool		unstable;
	bool		cached;
	bool		host_cache;
	bool		storage_not_limiting;
} SbVerdict;

/*
 * Judge the figure and say so once per problem: a WARNING where a cold
 * figure did not measure the storage it claims to, a NOTICE where it is
 * imprecise or measures the CPU (expected when warm).
 */
static void
judge(SbEfficiency *e, double median, double lo, double hi, SbVerdict *v)
{
	double		limit = e->target_pct > 0 ? e->target_pct : SB_DEFAULT_TARGET;
	double		halfwidth = sb_halfwidth_pct(median, lo, hi);
	double		host = median_of(&e->host_ratio);
	double		ceiling = median_of(&e->ceiling_ratio);
	const char *unit = e->method == SB_METHOD_PAIRS ? "pairs" : "runs";
	const char *unit1 = e->method == SB_METHOD_PAIRS ? "pair" : "run";

	memset(v, 0, sizeof(SbVerdict));

	/* Not a verdict: the figures are net of it.  But say how much. */
	if (e->timed_s > 0 && e->cpu_wait_s > 0.1 * e->timed_s)
		ereport(NOTICE,
				(errmsg("this backend waited for a CPU during %.0f %% of the timed passes",
						100 * e->cpu_wait_s / e->timed_s),
				 errdetail("Other processes kept the CPUs busy.  That time (%.3f s, from /proc/self/schedstat) is left out of the rates and of scan_pct.",
						   e->cpu_wait_s)));

	v->unstable = isnan(halfwidth) || halfwidth > limit;
	if (v->unstable && isnan(halfwidth))
		ereport(NOTICE,
				(errmsg("scan_pct is unstable: %d %s %s too few for a %.0f %% confidence interval",
						e->ratio.n, e->ratio.n == 1 ? unit1 : unit,
						e->ratio.n == 1 ? "is" : "are", 100 * SB_CONFIDENCE),
				 errhint(e->method == SB_METHOD_PAIRS ?
						 "The relation holds too few stretches of 8 MB; use method => 'whole' with runs => 6 or more." :
						 "Use runs => 6 or more.")));
	else if (v->unstable)
		ereport(NOTICE,
				(errmsg("scan_pct is unstable: its %.0f %% confidence interval is %.1f to %.1f, +-%.1f %% of the median after %d %s, wider than +-%.1f %%",
						100 * SB_CONFIDENCE, lo, hi, halfwidth, e->ratio.n, unit, limit),
				 errhint("Allow more time (max_seconds) or a larger sample, or measure when the machine is quieter.")));

	v->cached = (e->cache == SB_CACHE_COLD &&
				 Max(e->read_cached_max, e->scan_cached_max) > SB_CACHED_PCT);
	if (v->cached)
		ereport(WARNING,
				(errmsg("cold measurement found %.1f %% of the blocks still cached after eviction",
						Max(e->read_cached_max, e->scan_cached_max)),
				 errdetail("Part of the figure comes from memory, not from the storage."),
				 errhint("Another process may hold the relation's files mapped or locked in memory (a backup or cache-warming tool, for instance).")));

	v->host_cache = (e->cache == SB_CACHE_COLD && !isnan(host) &&
					 host > SB_HOST_CACHE_RATIO);
	if (v->host_cache)
		ereport(WARNING,
				(errmsg("cold reads ran %.1f times as fast as O_DIRECT reads of the same blocks",
						host),
				 errdetail("%s Blocks evicted from this system's caches were served from a cache below it, such as a hypervisor's memory: \"cold\" is not the storage here.",
						   e->method == SB_METHOD_PAIRS ?
						   "Each pair read its stretch with 1 MB O_DIRECT reads too; that is the median pair's ratio." :
						   psprintf("Median raw read %.1f MB/s, O_DIRECT 1 MB reads of 8 stretches %.1f MB/s.",
									median_of(&e->read_mb_s), median_of(&e->direct_mb_s))),
				 errhint("Compare with raw_read(rel, 1048576, 'direct'), or measure on the host or on bare metal.")));

	v->storage_not_limiting = (!isnan(ceiling) && ceiling >= SB_CEILING_RATIO) ||
		(!isnan(median) && median > 100);
	if (v->storage_not_limiting)
		ereport(NOTICE,
				(errmsg("storage is not what limits this scan: it ran at %.0f %% of its warm rate (%.1f MB/s), at %.1f %% of the raw read rate",
						100 * ceiling, median_of(&e->ceiling_mb_s), median),
				 errdetail("scan_pct then measures the executor's CPU cost, not how much of the storage's speed the scan gets."),
				 errhint(e->cache == SB_CACHE_WARM ?
						 "This is expected with cache => 'warm'." :
						 "Expected when reads come from memory or fast storage.")));
}

static char *
verdict_text(SbVerdict *v)
{
	StringInfoData buf;

	initStringInfo(&buf);
	if (v->unstable)
		appendStringInfoString(&buf, ",unstable");
	if (v->cached)
		appendStringInfoString(&buf, ",cached");
	if (v->host_cache)
		appendStringInfoString(&buf, ",host_cache");
	if (v->storage_not_limiting)
		appendStringInfoString(&buf, ",storage_not_limiting");
	return buf.len == 0 ? "ok" : buf.data + 1;
}

/* ---- scan_efficiency(rel, cache, block_size, runs, sample, max_seconds,
 *                      target_pct, method) ---- */

Datum
scan_efficiency(PG_FUNCTION_ARGS)
{
	Oid			relid = PG_GETARG_OID(0);
	SbEfficiency e;
	TupleDesc	tupdesc;
	int			nestlevel;
	double		median,
				lo,
				hi;
	char	   *fstype;
	char	   *device;
	bool		with_write;
	Oid			write_spc = InvalidOid;
	double		write_mb_s = NAN;
	SbRow		row = {0};
	bool		record;
	Datum		result;

	/* A Citus table is measured on its nodes (citus.c). */
	if (sb_citus_table(relid))
		return sb_citus_scan_efficiency(fcinfo);

	memset(&e, 0, sizeof(e));
	INSTR_TIME_SET_CURRENT(e.start);
	e.cache = sb_parse_cache(PG_GETARG_TEXT_PP(1), false);
	e.block_size = PG_GETARG_INT32(2);
	e.runs = PG_GETARG_INT32(3);
	e.sample = PG_GETARG_FLOAT8(4);
	e.max_seconds = PG_GETARG_FLOAT8(5);
	e.target_pct = PG_GETARG_FLOAT8(6);
	e.method = sb_parse_method(PG_GETARG_TEXT_PP(7));
	with_write = PG_GETARG_BOOL(8);
	/* record is the last argument, whatever others come before it */
	record = PG_GETARG_BOOL(PG_NARGS() - 1);

	sb_check_block_size(e.block_size);
	sb_check_runs(e.runs);
	sb_check_sample(e.sample);
	sb_check_max_seconds(e.max_seconds);
	sb_check_target_pct(e.target_pct);
	if (e.method == SB_METHOD_WHOLE && e.sample < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("sample applies to method \"pairs\" only"),
				 errhint("method => 'whole' reads the whole relation; leave sample at 1, or use method => 'pairs'.")));
	tupdesc = sb_result_tupdesc(fcinfo);

	e.passcxt = AllocSetContextCreate(CurrentMemoryContext, "scanbench pass",
									  ALLOCSET_DEFAULT_SIZES);
	samples_init(&e.ratio);
	samples_init(&e.ratio_sorted);
	samples_init(&e.read_mb_s);
	samples_init(&e.scan_mb_s);
	samples_init(&e.direct_mb_s);
	samples_init(&e.host_ratio);
	samples_init(&e.ceiling_mb_s);
	samples_init(&e.ceiling_ratio);
	samples_init(&e.pair_s);
	samples_init(&e.run_read_s);
	samples_init(&e.run_scan_s);

	e.target = sb_target_open(relid, SB_TARGET_SCAN);
	/* with_write writes a scratch file there: refuse before measuring. */
	if (with_write)
		write_spc = sb_check_write_tablespace(sb_target_tablespace(e.target));
	e.buf = sb_aligned_buffer(e.block_size);
	e.dbuf = sb_aligned_buffer(SB_DIRECT_BLOCK);
#ifndef SB_HAVE_FLUSH_LINE
	e.scrub = sb_scrub_alloc();
#endif
	e.direct_ok = true;

	nestlevel = sb_scan_settings_begin(0);

	/*
	 * No JIT compilation: it costs milliseconds per statement, which a
	 * sample of many short stretches would pay once each where a whole scan
	 * pays it once, and count(1) has nothing for compiled code to speed up
	 * (no column is deformed).
	 */
	(void) set_config_option("jit", "off", PGC_USERSET, PGC_S_SESSION,
							 GUC_ACTION_SAVE, true, 0, false);
	if (e.method == SB_METHOD_PAIRS)
		measure_pairs(&e);
	else
		measure_whole(&e);
	sb_scan_settings_end(nestlevel);

	/*
	 * The Write column of lmdd's Write / Read / Scan tables: lmdd sync=1 in
	 * the relation's tablespace, as large as the relation and no larger
	 * than free space allows.  Last, so that its dirty pages cannot slow
	 * the reads measured above.
	 */
	if (with_write)
		write_mb_s = sb_write_mb_s(write_spc, e.target->bytes, e.block_size);

	median = sb_quantile(e.ratio_sorted.v, e.ratio_sorted.n, 0.5);
	(void) sb_median_ci(e.ratio_sorted.v, e.ratio_sorted.n, SB_CONFIDENCE,
						&lo, &hi);
	sb_mount_of(sb_target_first_path(e.target), &fstype, &device);

	sb_row_datum(&row, ObjectIdGetDatum(relid));
	sb_row_datum(&row, Int64GetDatum(e.target->bytes));
	sb_row_datum(&row, Int64GetDatum(e.rows));
	sb_row_text(&row, sb_cache_name(e.cache));
	sb_row_datum(&row, Int32GetDatum(e.block_size));
	sb_row_datum(&row, Int32GetDatum(e.runs));
	sb_row_float(&row, median_of(&e.read_mb_s), 1);
	sb_row_float(&row, median_of(&e.scan_mb_s), 1);
	sb_row_float(&row, median, 1);
	sb_row_float(&row, e.ratio.n > 0 ? e.read_s : NAN, 3);
	sb_row_float(&row, e.ratio.n > 0 ? e.scan_s : NAN, 3);
	sb_row_float(&row, e.ratio.n > 0 ? e.read_cached_max : NAN, 1);
	sb_row_float(&row, e.ratio.n > 0 ? e.scan_cached_max : NAN, 1);
	sb_row_text(&row, fstype);
	sb_row_text(&row, device);
	sb_row_datum(&row, TimestampTzGetDatum(GetCurrentTimestamp()));

	sb_row_text(&row, sb_method_name(e.method));
	sb_row_datum(&row, Int32GetDatum(e.ratio.n));
	sb_row_float(&row, sb_pct(e.blocks_covered, e.target->nblocks), 1);
	sb_row_float(&row, lo, 1);
	sb_row_float(&row, hi, 1);
	sb_row_float(&row, sb_quantile(e.ratio_sorted.v, e.ratio_sorted.n, 0.1), 1);
	sb_row_float(&row, sb_quantile(e.ratio_sorted.v, e.ratio_sorted.n, 0.9), 1);
	sb_row_float(&row, elapsed_s(&e), 3);
	if (e.ratio.n == 0)
		sb_row_null(&row);		/* nothing measured, nothing to judge */
	else
	{
		SbVerdict	v;

		judge(&e, median, lo, hi, &v);
		sb_row_text(&row, verdict_text(&v));
	}
	sb_row_datum(&row, sb_io_settings());
	sb_row_float(&row, write_mb_s, 1);

	sb_target_close(e.target);
	MemoryContextDelete(e.passcxt);
	if (e.scrub)
		pfree(e.scrub->buf);	/* tens of MB: give them back now */

	result = sb_row_result(tupdesc, &row);
	if (record)
		sb_history_record(fcinfo, result, tupdesc);
	PG_RETURN_DATUM(result);
}
