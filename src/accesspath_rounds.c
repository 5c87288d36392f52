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

#include "accesspath.h"
#include "accesspath_rounds.h"
#include "cache.h"
#include "cgroup.h"
#include "clock.h"
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

		if (out->rounds >= SB_PATH_MIN_ROUNDS &&
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
