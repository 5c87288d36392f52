/*-------------------------------------------------------------------------
 *
 * accesspath_rounds.c
 *	  A planned access path (accesspath.c) run cold and warm, and its cold
 *	  rounds against random reads of the table's blocks at the depth it
 *	  keeps.
 *
 * Cold is both relations out of shared_buffers and the page cache, what
 * stayed resident measured; warm is a second run after one that brought
 * the path's pages in.  The rounds alternate a cold run of the path with
 * as many random reads of the table as the path read, each side cold,
 * until the interval of the ratio of their times is narrow enough
 * (SB_PATH_TARGET_PCT) or the deadline comes; under a control group's
 * read throttle, each side is preceded by the throttle's first allowance,
 * read untimed and evicted again, so that neither is timed through a
 * burst.  Every step is one sb_path_until stops at its deadline.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "miscadmin.h"
#include "portability/instr_time.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"

#include "accesspath.h"
#include "accesspath_rounds.h"
#include "cache.h"
#include "cgroup.h"
#include "clock.h"
#include "judgerules.h"
#include "randio.h"
#include "stats.h"

void
sb_path_evict(SbTarget *heap, SbTarget *index)
{
	sb_evict_buffers(heap);
	sb_evict_buffers(index);
	sb_evict_page_cache(heap);
	sb_evict_page_cache(index);
}

double
sb_path_cached_pct(SbTarget *heap, SbTarget *index)
{
	SbResidency h;
	SbResidency i;

	sb_residency(heap, &h);
	sb_residency(index, &i);
	return sb_pct(h.any_blocks + i.any_blocks, h.blocks + i.blocks);
}

/*
 * The table's files, for random reads of whole blocks: each run of reads
 * opens them as it reaches them, a bounded number at once, and closes
 * them at its end (randio.c), so that a table of more segments than a
 * backend may hold open is read all the same.
 */
SbRandomFile *
sb_path_open_random(SbTarget *heap)
{
	SbRandomFile *files = palloc0(sizeof(SbRandomFile) * Max(heap->nsegments, 1));
	int			i;

	for (i = 0; i < heap->nsegments; i++)
	{
		SbSegment  *seg = heap->segments[i];

		files[i].fd = -1;
		files[i].path = seg->path;
		/* no read-ahead for the descriptor, as fio does for random jobs */
		files[i].advise_random = true;
		files[i].chunks = seg->bytes / BLCKSZ;
		files[i].base = (uint64) seg->first_block * BLCKSZ;
	}
	return files;
}

void
sb_path_close_random(SbTarget *heap, SbRandomFile *files)
{
	pfree(files);
}

/*
 * Read the throttle's first allowance untimed, at the path's depth, and
 * put the page cache back as it was: cold.
 */
void
sb_path_drain(SbTarget *heap, SbRandomFile *files, uint64 reads, int depth)
{
	SbRandomResult w;

	if (reads == 0)
		return;
	sb_random_read_depth(files, heap->nsegments, BLCKSZ, reads, depth, &w);
	sb_evict_page_cache(heap);
}

/* A cold or a warm run, a step stopped at a deadline. */
typedef struct OneRun
{
	SbPathPlan *p;
	SbTarget   *heap;
	SbTarget   *index;
	double		cached;
	SbPathRun  *r;
} OneRun;

static void
cold_run(void *arg)
{
	OneRun	   *one = (OneRun *) arg;

	sb_path_evict(one->heap, one->index);
	one->cached = sb_path_cached_pct(one->heap, one->index);
	sb_path_run(one->p, one->r);
}

static void
warm_run(void *arg)
{
	OneRun	   *one = (OneRun *) arg;
	SbPathRun	first;

	sb_path_run(one->p, &first);
	sb_path_run(one->p, one->r);
}

/*
 * One cold run: both relations evicted, what stayed resident measured;
 * false where stop_at came first.
 */
bool
sb_path_cold(SbPathPlan *p, SbTarget *heap, SbTarget *index,
			 TimestampTz stop_at, SbPathRun *r, double *cached)
{
	OneRun		one = {p, heap, index, NAN, r};
	bool		done = sb_path_until(stop_at, cold_run, &one);

	*cached = one.cached;
	return done;
}

/*
 * One warm run, after one that brought the path's pages in; false where
 * stop_at came first.
 */
bool
sb_path_warm(SbPathPlan *p, TimestampTz stop_at, SbPathRun *r)
{
	OneRun		one = {p, NULL, NULL, NAN, r};

	return sb_path_until(stop_at, warm_run, &one);
}

static void
add_run(SbPathRun *sum, const SbPathRun *r)
{
	sum->rows = r->rows;
	sum->heap_read += r->heap_read;
	sum->heap_hit += r->heap_hit;
	sum->index_read += r->index_read;
	sum->index_hit += r->index_hit;
	sum->pages_read += r->pages_read;
	sum->pages_hit += r->pages_hit;
	sum->seconds += r->seconds;
	if (r->io_ok)
	{
		sum->io_ok = true;
		sum->distance_mean += r->distance_mean;
		sum->distance_max = Max(sum->distance_max, r->distance_max);
	}
}

/* One round of sb_path_rounds, a step stopped at the path's deadline. */
typedef struct PathRound
{
	SbPathPlan *p;
	SbTarget   *heap;
	SbTarget   *index;
	SbRandomFile *files;
	uint64		allowance;
	double		cached;			/* after the eviction */
	SbPathRun	run;
	SbRandomResult reads;
} PathRound;

static void
path_round(void *arg)
{
	PathRound  *pr = (PathRound *) arg;

	sb_path_evict(pr->heap, pr->index);
	sb_path_drain(pr->heap, pr->files, pr->allowance, sb_path_depth(pr->p));
	pr->cached = sb_path_cached_pct(pr->heap, pr->index);
	sb_path_run(pr->p, &pr->run);
	memset(&pr->reads, 0, sizeof(pr->reads));
	/* nothing read: there is no page rate to hold against the reads */
	if (pr->run.pages_read <= 0)
		return;
	CHECK_FOR_INTERRUPTS();
	sb_evict_page_cache(pr->heap);
	sb_random_read_drained(pr->files, pr->heap->nsegments, BLCKSZ,
						   pr->allowance, (uint64) pr->run.pages_read,
						   sb_path_depth(pr->p), &pr->reads);
}

/*
 * Cold rounds of the path and of random reads of the table, as many as
 * the path read, at its depth, until the interval is within the target
 * or the time to stop_at is spent, less runs_after runs of the path as
 * long as a cold one (the warm runs that follow it).  Each side starts
 * cold; the random reads' pages are evicted by the next round's path run.
 * A round is begun only where one as long as the mean one fits, and one
 * the deadline cuts is left out.
 */
void
sb_path_rounds(SbPathPlan *p, SbTarget *heap, SbTarget *index,
			   TimestampTz stop_at, int runs_after, SbPathRounds *out)
{
	PathRound	pr;
	double	   *path_s = palloc(sizeof(double) * SB_PATH_MAX_ROUNDS);
	double	   *random_s = palloc(sizeof(double) * SB_PATH_MAX_ROUNDS);
	instr_time	t0;

	memset(out, 0, sizeof(SbPathRounds));
	out->pct = out->pct_lo = out->pct_hi = NAN;
	memset(&pr, 0, sizeof(pr));
	pr.p = p;
	pr.heap = heap;
	pr.index = index;
	pr.files = sb_path_open_random(heap);
	pr.allowance = sb_cgroup_allowance_reads(heap->segments[0]->path,
											 BLCKSZ, SB_THROTTLE_ALLOWANCE_S);
	INSTR_TIME_SET_CURRENT(t0);
	while (out->rounds < SB_PATH_MAX_ROUNDS)
	{
		if (!sb_path_until(stop_at, path_round, &pr))
		{
			out->budget_hit = true;
			break;
		}
		out->cached_pct_before = Max(out->cached_pct_before, pr.cached);
		if (pr.run.pages_read <= 0)
		{
			if (out->rounds == 0)
				add_run(&out->sum, &pr.run);
			break;
		}
		add_run(&out->sum, &pr.run);
		path_s[out->rounds] = pr.run.seconds;
		random_s[out->rounds] = pr.reads.timing.seconds;
		out->random_s += pr.reads.timing.seconds;
		out->random_reads += pr.reads.ops;
		out->rounds++;

		if (out->rounds >= sb_threshold(SB_RULE_PATH_ROUNDS) &&
			sb_ratio_ci(random_s, path_s, out->rounds, 0.95, &out->pct,
						&out->pct_lo, &out->pct_hi) &&
			sb_halfwidth_pct(out->pct, out->pct_lo, out->pct_hi) <= SB_PATH_TARGET_PCT)
			break;
		/* another round as long as the mean one, and the runs after, must fit */
		if (sb_seconds_since(t0) / out->rounds +
			runs_after * out->sum.seconds / out->rounds > sb_path_seconds_left(stop_at))
		{
			out->budget_hit = true;
			break;
		}
	}
	if (out->rounds > 0)
	{
		/* the path's rate over the reads', so the reads' share of the time */
		(void) sb_ratio_ci(random_s, path_s, out->rounds, 0.95, &out->pct,
						   &out->pct_lo, &out->pct_hi);
		out->pct *= 100.0;
		out->pct_lo *= 100.0;
		out->pct_hi *= 100.0;
		if (out->sum.io_ok)
			out->sum.distance_mean /= out->rounds;
	}
	sb_path_close_random(heap, pr.files);
	pfree(path_s);
	pfree(random_s);
}

/* A figure row's start: nothing measured yet. */
static SbPathFigures *
figures_start(SbPathFigures *f, SbPath path, bool cold, int depth)
{
	memset(f, 0, sizeof(*f));
	f->path = path;
	f->cold = cold;
	f->depth = depth;
	f->cached_pct_before = f->random_pages_s = NAN;
	f->path_pct = f->pct_lo = f->pct_hi = NAN;
	return f;
}

/* A row whose runs the time ran out in: no figures, over_budget. */
static void
figures_stopped(SbPathFigures *f)
{
	f->stopped = true;
	f->rounds = 0;
	sb_judge_access_path(0, NAN, NAN, NAN, NAN, NAN, HUGE_VAL, &f->verdict);
}

/* A path cold: the sequential scan once, an index path in rounds. */
static bool
measure_cold(SbPathPlan *p, SbPath path, SbTarget *heap, SbTarget *index,
			 TimestampTz share_end, double limit_rate, SbPathFigures *f)
{
	SbPathRounds rounds;
	double		cached;

	if (path == SB_PATH_SEQ)
	{
		if (!sb_path_cold(p, heap, index, share_end, &f->run, &cached))
		{
			figures_stopped(f);
			return false;
		}
		f->nruns = f->rounds = 1;
		f->cached_pct_before = cached;
		sb_judge_access_path(-1, NAN, NAN, NAN, cached,
							 sb_rate(f->run.pages_read, f->run.seconds),
							 limit_rate, &f->verdict);
		return true;
	}

	/* the two warm runs after the rounds are left time */
	sb_path_rounds(p, heap, index, share_end, 2, &rounds);
	if (rounds.rounds == 0 && rounds.budget_hit)
	{
		figures_stopped(f);
		return false;
	}
	f->run = rounds.sum;
	f->nruns = f->rounds = rounds.rounds;
	f->cached_pct_before = rounds.cached_pct_before;
	if (rounds.random_reads > 0)
	{
		f->random_pages_s = sb_rate(rounds.random_reads, rounds.random_s);
		f->path_pct = rounds.pct;
		f->pct_lo = rounds.pct_lo;
		f->pct_hi = rounds.pct_hi;
	}
	sb_judge_access_path(rounds.rounds, rounds.pct, rounds.pct_lo,
						 rounds.pct_hi, rounds.cached_pct_before,
						 sb_rate(rounds.sum.pages_read, rounds.sum.seconds),
						 limit_rate, &f->verdict);
	return true;
}

/*
 * access_paths' measurement: each path asked for (want) cold, then warm,
 * in its share of max_seconds, a row each in out (2 * SB_NPATHS at most);
 * returns the rows' count.  A warm row's pages came from shared_buffers:
 * it is the path's CPU, and is not judged.
 */
int
sb_path_measure(Oid relid, Oid indexid, double selectivity,
				double max_seconds, const bool *want, SbPathFigures *out)
{
	Relation	heap;
	Relation	index;
	SbTarget   *heap_target;
	SbTarget   *index_target;
	SbPathPlan *plans[SB_NPATHS];
	char	   *bound;
	double		reltuples;
	double		limit_rate;
	TimestampTz deadline;
	int			nestlevel;
	int			nleft = 0;
	int			stopped = 0;
	int			nout = 0;
	int			i;

	heap_target = sb_path_open_table(relid,
									 "The share of rows the count covers is taken from its row count, and the planner's choices from its statistics.");
	heap = heap_target->leaves[0].rel;
	index_target = sb_target_open(indexid, SB_TARGET_INDEX);
	index = index_target->leaves[0].rel;
	/* the budget runs from here, the locks held: every step stops by it */
	deadline = sb_path_deadline(max_seconds);

	/* one backend's reads, no JIT, every scan from the first block */
	nestlevel = sb_path_settings_begin();

	bound = sb_path_bound(heap, index, selectivity, deadline, &reltuples);
	for (i = 0; i < SB_NPATHS; i++)
	{
		plans[i] = want[i] ? sb_path_plan(heap, index, (SbPath) i, bound) : NULL;
		if (plans[i] != NULL)
			nleft++;
	}
	limit_rate = sb_cgroup_path_read_rate(heap_target->segments[0]->path, BLCKSZ);

	for (i = 0; i < SB_NPATHS; i++)
	{
		SbPathPlan *p = plans[i];
		SbPathFigures *cold;
		SbPathFigures *warm;
		TimestampTz share_end;
		TimestampTz warm_end;

		if (p == NULL)
			continue;
		/* each path, cold and warm, has its share of the time left */
		share_end = sb_path_deadline(Max(sb_path_seconds_left(deadline), 0.0) / nleft);
		nleft--;

		cold = figures_start(&out[nout++], (SbPath) i, true, sb_path_depth(p));
		if (!measure_cold(p, (SbPath) i, heap_target, index_target, share_end,
						  limit_rate, cold))
			stopped++;

		/*
		 * warm: the path's pages in shared_buffers, its CPU alone.  The cold
		 * rounds left time for two warm runs as they ran; a machine that
		 * got busier since makes one take longer, so the warm run may also
		 * take its even part, with the paths still to come, of what the
		 * call has left: the call's max_seconds is kept either way.
		 */
		warm_end = sb_path_deadline(Max(sb_path_seconds_left(deadline), 0.0) / (nleft + 1));
		warm_end = Max(warm_end, share_end);
		warm = figures_start(&out[nout++], (SbPath) i, false, sb_path_depth(p));
		if (sb_path_warm(p, warm_end, &warm->run))
		{
			warm->nruns = warm->rounds = 1;
			/* the cold row's verdict, judging nothing */
			warm->verdict = cold->verdict;
			warm->verdict.n = 0;
		}
		else
		{
			figures_stopped(warm);
			stopped++;
		}
	}

	if (stopped > 0)
		ereport(NOTICE,
				(errmsg("\"%s\": max_seconds (%g s) ran out before %d of the runs asked for ended",
						get_rel_name(relid), max_seconds, stopped),
				 errdetail("Each path had its share of the time, cold and warm; a run that outlasted it was stopped and its row has no figures."),
				 errhint("Give it more time (max_seconds), ask for fewer paths, or a smaller selectivity.")));

	AtEOXact_GUC(true, nestlevel);
	sb_target_close(index_target);
	sb_target_close(heap_target);
	return nout;
}
