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

#include "commands/tablespace.h"
#include "common/pg_prng.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "portability/instr_time.h"
#include "storage/bufmgr.h"
#include "storage/fd.h"
#include "utils/builtins.h"
#include "utils/float.h"
#include "utils/lsyscache.h"
#include "utils/spccache.h"
#include "utils/timestamp.h"

#include "cache.h"
#include "cgroup.h"
#include "clock.h"
#include "compat_stream.h"
#include "devices.h"
#include "judgerules.h"
#include "pagecost.h"
#include "stats.h"
#include "tablespace.h"

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
		pc->rounds < sb_threshold(SB_RULE_PAGECOST_ROUNDS))
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
 * SB_RULE_PAGECOST_ROUNDS' threshold, which the caller reports.
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

/* ---- page_costs' call ---- */

/* The tablespace's recommended settings, as ALTER TABLESPACE's options. */
static char *
options(const SbCostAdvice *ca)
{
	StringInfoData buf;

	initStringInfo(&buf);
	if (ca->recommend)
		appendStringInfo(&buf, "random_page_cost = %s",
						 float8out_internal(sb_round(ca->rec, 2)));
	if (ca->recommend_eic)
		appendStringInfo(&buf, "%seffective_io_concurrency = %d",
						 ca->recommend ? ", " : "", ca->ds.knee);
	return buf.data;
}

/*
 * page_costs(rel, max_seconds)'s measurement: the table opened and
 * checked for size, its tablespace's settings read, its page costs and
 * depths measured, the recommendation made and said in NOTICEs.
 */
void
sb_page_costs_call(Oid relid, double max_seconds, SbPageCostsCall *out)
{
	SbTarget   *target;
	SbCostAdvice *ca = &out->ca;
	SbPageCosts *pc = &ca->pc;
	SbDepthSweep *ds = &ca->ds;
	Oid			spc;
	BlockNumber min_blocks;

	memset(out, 0, sizeof(*out));
	target = sb_target_open(relid, SB_TARGET_SCAN);
	if (target->nleaves != 1)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("\"%s\" has inheritance children", get_rel_name(relid)),
				 errhint("Measure one table of the hierarchy at a time.")));
	min_blocks = sb_page_costs_min_blocks(target);
	if (target->nblocks < min_blocks)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("\"%s\" is too small to measure its page costs",
						get_rel_name(relid)),
				 errdetail("It has %u pages; page_costs needs at least %u (%u MB): a part read in order, a part at random, and three of the storage's read-ahead windows (%u kB each) between them.",
						   target->nblocks, min_blocks,
						   (unsigned) (((uint64) min_blocks * BLCKSZ + (1 << 20) - 1) >> 20),
						   (unsigned) ((uint64) (min_blocks - SB_PAGECOST_MIN_BLOCKS) / 3 * BLCKSZ / 1024)),
				 errhint("Measure a larger table in the same tablespace: the costs are the storage's.")));

	spc = sb_target_tablespace(target);
	out->tablespace = get_tablespace_name(spc);
	get_tablespace_page_costs(spc, &out->cur_random, &out->cur_seq);
	out->cur_eic = get_tablespace_io_concurrency(spc);

	sb_page_costs_advise(target, max_seconds, out->cur_seq,
						 sb_page_costs_cached_pct(target), ca);

	out->pages = target->nblocks;
	if (ca->recommend || ca->recommend_eic)
		out->command = psprintf("ALTER TABLESPACE %s SET (%s)",
								quote_identifier(out->tablespace), options(ca));

	if (pc->rounds < sb_threshold(SB_RULE_PAGECOST_ROUNDS))
		ereport(NOTICE,
				(errmsg("\"%s\": %d rounds of page reads in %.1f s, too few to judge",
						get_rel_name(relid), pc->rounds, pc->elapsed_s),
				 errhint("Give it more time: max_seconds => %.0f.",
						 Max(2 * max_seconds, 60.0))));
	else if (sb_verdict_has(&ca->v, "cached"))
		ereport(NOTICE,
				(errmsg("\"%s\": the caches held %.0f%% of it, so its pages cost what the caches give",
						get_rel_name(relid), ca->cached_pct),
				 errdetail("Cold, a random page took %.1f us and a sequential page %.1f us, a ratio of %.1f.",
						   ca->t_random * 1e6, ca->t_seq * 1e6, pc->ratio),
				 errhint("No setting is recommended: with the table in memory, a random_page_cost near seq_page_cost is usual.")));
	else if (ca->recommend)
		ereport(NOTICE,
				(errmsg("\"%s\": a random page took %.1f us, a sequential page %.1f us: %.1f times as long (%.1f to %.1f)",
						get_rel_name(relid), ca->t_random * 1e6, ca->t_seq * 1e6,
						pc->ratio, pc->ratio_lo, pc->ratio_hi),
				 errdetail("With %.0f%% of the table in the caches before the call, random_page_cost = %.2f fits tablespace %s (it is %.2f now).",
						   ca->cached_pct, ca->rec, out->tablespace, out->cur_random)));
	if (ca->recommend_eic)
		ereport(NOTICE,
				(errmsg("\"%s\": random reads got %.0f pages/s one at a time and %.0f at depth %d, where they came within %.0f%% of the best depth's rate (the median of %d sweeps)",
						get_rel_name(relid), ds->pages_s[0],
						sb_depth_rate(ds, ds->knee), ds->knee,
						SB_DEPTH_KNEE_PCT, ds->sweeps),
				 errdetail("effective_io_concurrency = %d fits tablespace %s for bitmap heap scans (it is %d now).",
						   ds->knee, out->tablespace, out->cur_eic)));
	else if (ds->sweeps == 0 && !sb_verdict_has(&ca->v, "cached"))
		ereport(NOTICE,
				(errmsg("\"%s\": no time was left to read it at depth, so no effective_io_concurrency is recommended",
						get_rel_name(relid)),
				 errhint("Give it more time: max_seconds => %.0f.",
						 Max(2 * max_seconds, 60.0))));


	sb_target_close(target);
}
