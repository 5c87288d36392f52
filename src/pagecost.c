/*-------------------------------------------------------------------------
 *
 * pagecost.c
 *	  The time of a sequential page and of a random page of one table, cold,
 *	  as the executor's heap access gets them: what seq_page_cost and
 *	  random_page_cost stand for.
 *
 * The relation's caches are emptied first.  Its first half is then read
 * as a sequential scan reads it (compat_stream.h: block by block through
 * the buffer manager before 17, through a read stream from 17), and its
 * second half supplies random pages, read one at a time as an index scan
 * fetches heap pages on every major (no prefetch: index prefetching is in
 * no release), with pread() of one block.  The two sides alternate, a
 * stretch of sequential pages and a batch of random ones a round, so that
 * a change in the storage's speed during the call moves both sides
 * alike; the ratio is of the rounds' mean times (a cost is a mean), its
 * interval the jackknife's over the rounds.
 *
 * What is timed is the reads alone, wall clock: the buffer manager's work
 * for a sequential page is in it (a scan pays it per page), no tuple is
 * looked at (the planner charges tuples with cpu_tuple_cost apart).  The
 * random pages are read with a descriptor of their own, so that they do
 * not disturb the kernel's read-ahead state of the sequential stretch
 * (it is kept per open file); the buffer manager's lookup for a random
 * page, a microsecond or less, is left out.  Their descriptor is marked
 * POSIX_FADV_RANDOM, as fio marks a random job's: the kernel takes a read
 * after a cached page for part of a sequential run and reads ahead (its
 * "context read-ahead"), which in a half read at random cascades until
 * the half is in memory.  For the same reason the random pages are every
 * other block, beginning three read-ahead windows after the sequential
 * half, past what that half's read-ahead may have read beyond its end.
 *
 * Untimed reads, counted apart: the first stretch of a pass while the
 * kernel's read-ahead window grows (16 windows, as the sampler waits
 * for); and at the start of each side of a round, what the pause left:
 * the sequential side's read-ahead went on while the random pages were
 * read (two windows are read untimed), the random side would queue behind
 * the last window still in flight (random pages are read untimed for the
 * time two windows take), and a control group's read limit lets its first
 * allowance through at once after a pause (blk-throttle: about one slice;
 * SB_THROTTLE_ALLOWANCE_S of the rate).
 *
 * At the end of each pass, some of its random pages are read again from
 * the page cache: the time of a page the caches hold, for weighing the two
 * by what the caches keep.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <fcntl.h>
#include <math.h>
#include <unistd.h>

#include "common/pg_prng.h"
#include "miscadmin.h"
#include "portability/instr_time.h"
#include "storage/bufmgr.h"
#include "storage/fd.h"
#include "utils/timestamp.h"

#include "cache.h"
#include "cgroup.h"
#include "clock.h"
#include "compat_stream.h"
#include "devices.h"
#include "pagecost.h"
#include "stats.h"

/*
 * A round's sequential stretch: 8 MB at most, and as many rounds as fit
 * with stretches of at least 1 MB (a few milliseconds even from memory).
 */
#define SEQ_STRETCH_MAX		1024
#define SEQ_STRETCH_MIN		128
/*
 * A round's random pages: 32, or under a read limit, a second's worth at
 * its rate (and the sequential stretch too): blk-throttle lets a slice's
 * worth (100 ms) through at once at the start of each slice, so a batch
 * shorter than a few slices would be timed mostly at memory speed or
 * mostly waiting, as its start falls.
 */
#define RANDOM_BATCH		32
#define LIMITED_BATCH_S		1.0
/* The kernel's read-ahead windows read before the first timed stretch. */
#define RAMP_WINDOWS		16
/* Read-ahead windows' time the random side waits out (see one_pass). */
#define DRAIN_WINDOWS		4.0
/*
 * Read-ahead windows between the two sides: the kernel may read a window
 * and the next beyond the last sequential page asked for.
 */
#define GAP_WINDOWS			3
/* Random pages read again from the page cache, a pass. */
#define CACHED_PAGES_A_PASS	((uint64) 64)
/* Rounds a pass, at most: more passes make more rounds. */
#define ROUNDS_A_PASS		30

/* How a pass reads the relation, in blocks. */
typedef struct PassPlan
{
	BlockNumber half;			/* the sequential half: [0, half) */
	BlockNumber ramp;			/* read untimed first */
	int			rounds;			/* at most, a pass */
	BlockNumber seq_drain;		/* untimed before each stretch */
	BlockNumber stretch;		/* timed */
	BlockNumber window;			/* the kernel's read-ahead window */
	double		random_drain_s; /* untimed before each batch, at least */
	uint64		batch;			/* timed */
} PassPlan;

typedef struct RandomSide
{
	int			nsegments;
	SbSegment  *segments;
	int		   *fds;
	BlockNumber *blocks;		/* the candidates, in random order */
	uint64		nblocks;
	uint64		next;			/* the next candidate to read */
	pg_prng_state rng;
	char	   *buf;
} RandomSide;

static void
read_random_block(RandomSide *side, BlockNumber blk)
{
	int			segno = blk / RELSEG_SIZE;
	SbSegment  *seg;
	ssize_t		n;

	Assert(segno < side->nsegments);
	seg = &side->segments[segno];
	n = pread(side->fds[segno], side->buf, BLCKSZ,
			  (off_t) (blk - seg->first_block) * BLCKSZ);
	if (n < 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not read file \"%s\": %m", seg->path)));
	if (n < BLCKSZ)
		sb_segment_short_read(seg, n);
}

/* Reads the next n candidates; returns how many there were. */
static uint64
read_random(RandomSide *side, uint64 n)
{
	uint64		done = 0;

	while (done < n && side->next < side->nblocks)
	{
		CHECK_FOR_INTERRUPTS();
		read_random_block(side, side->blocks[side->next++]);
		done++;
	}
	return done;
}

/*
 * The random half's candidates: every other block of [first, end), or
 * fewer, evenly spread, where there are more than a pass reads.
 */
static void
random_candidates(RandomSide *side, BlockNumber first, BlockNumber end,
				  uint64 wanted)
{
	uint64		stride = 2;
	uint64		n;
	uint64		i;

	while ((end - first) / stride > Max(wanted * 4, 4096))
		stride *= 2;
	n = (end - first) / stride;
	side->blocks = palloc(sizeof(BlockNumber) * Max(n, 1));
	for (i = 0; i < n; i++)
		side->blocks[i] = first + (BlockNumber) (i * stride);
	side->nblocks = n;
	pg_prng_seed(&side->rng, (uint64) GetCurrentTimestamp() ^ (uint64) MyProcPid);
}

/* A new random order for a pass. */
static void
shuffle(RandomSide *side)
{
	uint64		i;

	for (i = side->nblocks; i > 1; i--)
	{
		uint64		j = pg_prng_uint64_range(&side->rng, 0, i - 1);
		BlockNumber t = side->blocks[i - 1];

		side->blocks[i - 1] = side->blocks[j];
		side->blocks[j] = t;
	}
	side->next = 0;
}

/*
 * The kernel's read-ahead window for the leaf's files, in blocks; where it
 * cannot be read, 32 (twice the kernel's default of 128 kB: a wider gap
 * errs on the safe side).
 */
static BlockNumber
read_ahead_window(SbLeaf *leaf)
{
	int64		ra_kb = sb_file_read_ahead_kb(leaf->segments[0].path);

	return (BlockNumber) Max(ra_kb > 0 ? ra_kb * 1024 / BLCKSZ : 32, 1);
}

/*
 * The fewest blocks sb_page_costs() measures the target's one leaf with:
 * SB_PAGECOST_MIN_BLOCKS for the two sides, and the gap between them.
 */
BlockNumber
sb_page_costs_min_blocks(SbTarget *target)
{
	return SB_PAGECOST_MIN_BLOCKS +
		GAP_WINDOWS * read_ahead_window(&target->leaves[0]);
}

/* The ratio and its interval from the rounds so far. */
static void
ratio_now(SbPageCosts *pc)
{
	if (!sb_ratio_ci(pc->random_page_s, pc->seq_page_s, pc->rounds,
					 SB_PAGECOST_CONFIDENCE, &pc->ratio, &pc->ratio_lo,
					 &pc->ratio_hi) ||
		pc->rounds < SB_PAGECOST_MIN_ROUNDS)
		pc->ratio_lo = pc->ratio_hi = NAN;
}

/*
 * One pass: the caches emptied, the ramp, then rounds until either half
 * is used up, the rounds are all there may be, or max_seconds have passed
 * since start.
 */
static void
one_pass(SbTarget *target, const PassPlan *plan, RandomSide *side,
		 BufferAccessStrategy strategy, instr_time start,
		 double max_seconds, SbPageCosts *pc)
{
	SbLeaf	   *leaf = &target->leaves[0];
	BlockNumber pos;
	instr_time	t0;
	int			i;
	uint64		again;

	shuffle(side);
	sb_evict_buffers(target);
	sb_evict_page_cache(target);

	INSTR_TIME_SET_CURRENT(t0);
	sb_read_block_range(leaf->rel, 0, plan->ramp, strategy);
	pos = plan->ramp;
	pc->untimed_s += sb_seconds_since(t0);

	for (i = 0; i < plan->rounds && pc->rounds < SB_PAGECOST_MAX_ROUNDS; i++)
	{
		double		seq_s;
		double		random_s;
		uint64		got;

		if (sb_seconds_since(start) >= max_seconds)
		{
			pc->budget_hit = true;
			break;
		}
		if (pos + plan->seq_drain + plan->stretch > plan->half ||
			side->next + plan->batch > side->nblocks)
			break;

		INSTR_TIME_SET_CURRENT(t0);
		sb_read_block_range(leaf->rel, pos, plan->seq_drain, strategy);
		pos += plan->seq_drain;
		pc->untimed_s += sb_seconds_since(t0);
		INSTR_TIME_SET_CURRENT(t0);
		sb_read_block_range(leaf->rel, pos, plan->stretch, strategy);
		seq_s = sb_seconds_since(t0);
		pos += plan->stretch;

		/*
		 * The stretch left read-ahead in flight (the window being read and
		 * the next, and under a read limit a queue of them), which the
		 * first random reads would wait behind: random pages are read
		 * untimed for as long as DRAIN_WINDOWS take at the stretch's rate.
		 */
		INSTR_TIME_SET_CURRENT(t0);
		while (side->next + plan->batch < side->nblocks &&
			   sb_seconds_since(t0) < Max(plan->random_drain_s,
							   DRAIN_WINDOWS * plan->window * seq_s / plan->stretch))
			(void) read_random(side, 1);
		pc->untimed_s += sb_seconds_since(t0);
		INSTR_TIME_SET_CURRENT(t0);
		got = read_random(side, plan->batch);
		random_s = sb_seconds_since(t0);

		pc->seq_pages += plan->stretch;
		pc->seq_s += seq_s;
		pc->random_pages += got;
		pc->random_s += random_s;
		pc->seq_page_s[pc->rounds] = seq_s / plan->stretch;
		pc->random_page_s[pc->rounds] = random_s / got;
		pc->rounds++;
	}

	/*
	 * A page the caches hold: some of the pass's random pages read again,
	 * now from the page cache (pread() left them there and not in shared
	 * buffers), before the next pass empties it.
	 */
	INSTR_TIME_SET_CURRENT(t0);
	for (again = 0; again < Min(CACHED_PAGES_A_PASS, side->next); again++)
	{
		CHECK_FOR_INTERRUPTS();
		read_random_block(side, side->blocks[again]);
	}
	pc->cached_s += sb_seconds_since(t0);
	pc->cached_pages += again;
	pc->passes++;
}

/*
 * Measure the relation's one leaf (the caller refuses anything else), in
 * passes over it, until the ratio's interval is within
 * SB_PAGECOST_TARGET_PCT of it, SB_PAGECOST_MAX_ROUNDS rounds have run or
 * max_seconds have passed; pc->rounds may then be fewer than
 * SB_PAGECOST_MIN_ROUNDS, which the caller reports.
 */
void
sb_page_costs(SbTarget *target, double max_seconds, SbPageCosts *pc)
{
	SbLeaf	   *leaf = &target->leaves[0];
	BufferAccessStrategy strategy = GetAccessStrategy(BAS_BULKREAD);
	SbCgroupLimits limits;
	RandomSide	side;
	PassPlan	plan;
	BlockNumber per_round;
	BlockNumber gap;
	double		rate;
	instr_time	start;
	int			i;

	Assert(target->nleaves == 1 &&
		   leaf->nblocks >= sb_page_costs_min_blocks(target));
	memset(pc, 0, sizeof(*pc));
	pc->seq_page_s = palloc0(sizeof(double) * SB_PAGECOST_MAX_ROUNDS);
	pc->random_page_s = palloc0(sizeof(double) * SB_PAGECOST_MAX_ROUNDS);
	memset(&plan, 0, sizeof(plan));

	/*
	 * Untimed at the start of each side of a round: on the sequential
	 * side, two read-ahead windows (the kernel read the next one ahead
	 * while the random pages were read, so the first pages after the
	 * pause come from memory), or a read limit's allowance if more; on the
	 * random side, at least the allowance's time.
	 */
	sb_cgroup_limits(leaf->segments[0].path, &limits);
	plan.window = read_ahead_window(leaf);
	gap = GAP_WINDOWS * plan.window;
	plan.half = (leaf->nblocks - gap) / 2;
	plan.seq_drain = 2 * plan.window;
	if (limits.read_bps > 0)
		plan.seq_drain = Max(plan.seq_drain,
							 (BlockNumber) ceil(SB_THROTTLE_ALLOWANCE_S * limits.read_bps / BLCKSZ));
	plan.batch = RANDOM_BATCH;
	rate = sb_cgroup_read_rate(&limits, BLCKSZ);
	if (rate < HUGE_VAL)
	{
		plan.random_drain_s = SB_THROTTLE_ALLOWANCE_S;
		plan.batch = Max(plan.batch, (uint64) ceil(LIMITED_BATCH_S * rate));
	}

	/*
	 * The sequential half: the ramp, then as many rounds as fit of the
	 * drain and a stretch of two windows (within 1 and 8 MB; under a read
	 * limit, a second's worth, for the reason the random batch is), at
	 * least one.
	 */
	plan.stretch = Max(Min(2 * plan.window, SEQ_STRETCH_MAX), SEQ_STRETCH_MIN);
	if (limits.read_bps > 0)
		plan.stretch = Max(plan.stretch,
						   (BlockNumber) ceil(LIMITED_BATCH_S * limits.read_bps / BLCKSZ));
	else if (limits.read_iops > 0)
		plan.stretch = Max(plan.stretch,
						   (BlockNumber) Min(ceil(LIMITED_BATCH_S * limits.read_iops * plan.window),
											 (double) plan.half / 4));
	plan.ramp = (BlockNumber) Min((uint64) RAMP_WINDOWS * plan.window,
								  (uint64) plan.half / 4);
	plan.rounds = (plan.half - plan.ramp) / (plan.seq_drain + plan.stretch);
	plan.rounds = Max(Min(plan.rounds, ROUNDS_A_PASS), 1);
	per_round = (plan.half - plan.ramp) / plan.rounds;
	if (plan.seq_drain + plan.stretch > per_round)
	{
		/* a small table: what fits, half of it timed */
		plan.stretch = per_round / 2;
		plan.seq_drain = per_round - plan.stretch;
	}

	/* The random half. */
	memset(&side, 0, sizeof(side));
	side.nsegments = leaf->nsegments;
	side.segments = leaf->segments;
	side.buf = palloc(BLCKSZ);
	random_candidates(&side, plan.half + gap, leaf->nblocks,
					  (uint64) plan.rounds * 4 * plan.batch);
	plan.batch = Min(side.nblocks / plan.rounds / 2, plan.batch);
	side.fds = palloc(sizeof(int) * leaf->nsegments);
	for (i = 0; i < leaf->nsegments; i++)
	{
		Assert(leaf->segments[i].segno == i);
		side.fds[i] = sb_open_segment(&leaf->segments[i], false, false);
		(void) posix_fadvise(side.fds[i], 0, 0, POSIX_FADV_RANDOM);
	}

	INSTR_TIME_SET_CURRENT(start);
	do
	{
		if (pc->passes > 0 && sb_seconds_since(start) >= max_seconds)
		{
			pc->budget_hit = true;
			break;
		}
		one_pass(target, &plan, &side, strategy, start, max_seconds, pc);
		ratio_now(pc);
		if (sb_halfwidth_pct(pc->ratio, pc->ratio_lo, pc->ratio_hi) <=
			SB_PAGECOST_TARGET_PCT)
			break;
	} while (!pc->budget_hit && pc->rounds < SB_PAGECOST_MAX_ROUNDS);

	pc->elapsed_s = sb_seconds_since(start);

	for (i = 0; i < leaf->nsegments; i++)
		CloseTransientFile(side.fds[i]);
	FreeAccessStrategy(strategy);
}

/*
 * random_page_cost for a ratio of a cold random page's time to a cold
 * sequential page's time t_seq, when cached_pct of the pages come from the
 * caches at t_cached each, in units of the tablespace's seq_page_cost.
 *
 * The ratio is what random_page_cost means when seq_page_cost is 1: how
 * much longer a page fetched alone takes than one read in order.  What the
 * server's queries pay also depends on what the caches keep: a page they
 * hold costs the same either way.  With a fraction f of the table in
 * either cache before the call (the best guess of what queries find
 * there) and c the time of a page read from the page cache, the expected
 * times are (1 - f) t + f c for each kind, and their ratio is the
 * recommendation.  Where the caches hold nearly all of the table, that
 * ratio is the caches', not the storage's, and no setting is recommended
 * (the mark cached says so).
 */
static double
recommended(double seq_page_cost, double ratio, double t_seq,
			double cached_pct, double t_cached)
{
	double		f = cached_pct / 100.0;

	if (f <= 0)
		return seq_page_cost * ratio;
	return seq_page_cost * ((1.0 - f) * ratio * t_seq + f * t_cached) /
		((1.0 - f) * t_seq + f * t_cached);
}

/*
 * Measure the table's page times for at most 1 - SB_PAGECOST_DEPTH_SHARE
 * of max_seconds, then its random reads at depth in what is left, judge
 * them and recommend: a random_page_cost (in units of seq_page_cost, the
 * tablespace's) unless too few rounds ran or the caches held the table,
 * and an effective_io_concurrency unless no sweep was complete or the
 * caches held the table.  cached_pct is the share of the table the caches
 * held before the caller read anything of it (sb_page_costs_cached_pct).
 */
void
sb_page_costs_advise(SbTarget *target, double max_seconds,
					 double seq_page_cost, double cached_pct,
					 SbCostAdvice *ca)
{
	SbPageCosts *pc = &ca->pc;

	memset(ca, 0, sizeof(SbCostAdvice));
	ca->t_seq = ca->t_random = ca->t_cached = NAN;
	ca->rec = ca->rec_lo = ca->rec_hi = NAN;
	ca->cached_pct = cached_pct;
	sb_page_costs(target, max_seconds * (1.0 - SB_PAGECOST_DEPTH_SHARE), pc);
	sb_depth_sweep(target, max_seconds - pc->elapsed_s, &ca->ds);

	if (pc->seq_pages > 0)
		ca->t_seq = pc->seq_s / pc->seq_pages;
	if (pc->random_pages > 0)
		ca->t_random = pc->random_s / pc->random_pages;
	if (pc->cached_pages > 0)
		ca->t_cached = pc->cached_s / pc->cached_pages;
	sb_judge_page_costs(pc->rounds, pc->ratio, pc->ratio_lo, pc->ratio_hi,
						ca->cached_pct, &ca->v);
	ca->recommend = !sb_verdict_has(&ca->v, "over_budget") &&
		!sb_verdict_has(&ca->v, "cached") && !isnan(pc->ratio) &&
		(ca->cached_pct <= 0 || !isnan(ca->t_cached));
	if (ca->recommend)
	{
		ca->rec = recommended(seq_page_cost, pc->ratio, ca->t_seq,
							  ca->cached_pct, ca->t_cached);
		if (!isnan(pc->ratio_lo))
		{
			ca->rec_lo = recommended(seq_page_cost, pc->ratio_lo, ca->t_seq,
									 ca->cached_pct, ca->t_cached);
			ca->rec_hi = recommended(seq_page_cost, pc->ratio_hi, ca->t_seq,
									 ca->cached_pct, ca->t_cached);
		}
	}
	ca->recommend_eic = ca->ds.sweeps > 0 && !sb_verdict_has(&ca->v, "cached");
}

/*
 * The share of the table in shared_buffers or the page cache, %: what the
 * recommendation takes queries to find there, read before the call reads
 * the table itself.
 */
double
sb_page_costs_cached_pct(SbTarget *target)
{
	SbResidency res;

	sb_residency(target, &res);
	return sb_pct(res.any_blocks, res.blocks);
}
