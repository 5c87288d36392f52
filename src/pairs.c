/*-------------------------------------------------------------------------
 *
 * pairs.c
 *	  One pair: two timed passes over the same blocks, back to back, each
 *	  after the same preparation of the caches, the order alternating from
 *	  pair to pair, so that whatever drifts on the machine moves both sides
 *	  alike and the pair's ratio holds still.  scan_efficiency measures a
 *	  raw read against the scan of a stretch (or, with method 'whole', of
 *	  the relation); scan_advice measures the scan under the current
 *	  settings against the scan under a proposed one.  Both take their
 *	  pairs here, so that the two cannot come to measure differently.
 *
 * Every side is prepared as scan_rate() and raw_read() prepare their pass
 * for the call's cache: 'cold' evicts its blocks from both caches, 'warm'
 * runs the side once untimed just before its timed pass (a scan with its
 * own plan, its workers and its setting; a stretch is then also flushed
 * from the CPU caches, every cache emptied before a raw read
 * (prepare_warm_read), and, where the relation is scanned through a ring
 * of buffers, out of shared buffers: cache.c says why), 'asis' touches
 * nothing.  A side's pass after a pass of the other kind is not the same
 * pass as after one of its own:
 * in t/091's lab, scans with a parallel worker took 0.13 to 0.16 s right
 * after a scan without one and 0.11 s after one with a worker (the
 * scheduler gives the group a second CPU as its load there builds up),
 * and scan_advice, which ran its first scan warm and the rest as they
 * were, measured a worker's gain of 1.10 to 1.37 beside pairs of
 * scan_rate(..., 'warm') calls at 1.56 to 1.63.  Prepared alike, each
 * timed pass is the pass scan_rate() times.
 *
 * A whole-relation scan side without a plan of its own is planned for
 * each pass with its workers and under its setting, exactly as
 * scan_rate() plans (sb_scan): parallel scans cannot be held to a stretch
 * (scan.c), so a change of workers is measured over the whole relation.
 *
 * The trace keeps each pair of the session's last scan_efficiency or
 * scan_advice call, in order, with its stretch, both sides' figures and
 * the passes it ran besides the timed ones, for scan_pairs(): the samples
 * behind the median, to see whether the first pairs differ from the last.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "miscadmin.h"
#include "utils/guc.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "cgroup.h"
#include "compat.h"
#include "pairs.h"
#include "stats.h"

/*
 * Pairs a trace keeps: a call of 600 s takes some 10,000 of 8 MB; a pair
 * costs the trace about 200 bytes.
 */
#define SB_TRACE_MAX		100000

/* The session's trace: the last call's pairs, kept until the next call. */
static MemoryContext trace_cxt = NULL;
static SbPairTrace **trace_v = NULL;
static int	trace_n = 0;
static int	trace_size = 0;
static char *trace_fn = NULL;
static Oid	trace_relid = InvalidOid;
static List *trace_labels = NIL;

/*
 * The pairs of a call over target.  Before the first, this backend maps
 * the pages of shared_buffers that hold blocks, for at most map_s seconds
 * (cache.c says why: a stretch's scan would otherwise pay the mapping of
 * its ring's buffers, a whole scan's once).
 */
void
sb_pairs_init(SbPairs *p, SbTarget *target, SbCacheMode cache,
			  int block_size, instr_time start, double map_s)
{
	memset(p, 0, sizeof(SbPairs));
	p->target = target;
	p->cache = cache;
	p->block_size = block_size;
	p->buf = sb_aligned_buffer(block_size);
	p->query = "count(1)";
	p->start = start;
	p->cxt = CurrentMemoryContext;
	if (map_s > 0)
		sb_map_shared_buffers(map_s);
}

/* What was made for the pairs and is worth giving back at once. */
void
sb_pairs_end(SbPairs *p)
{
	if (p->scrub)
		pfree(p->scrub->buf);	/* tens of MB */
	p->scrub = NULL;
}

double
sb_pairs_elapsed_s(SbPairs *p)
{
	instr_time	now;

	INSTR_TIME_SET_CURRENT(now);
	INSTR_TIME_SUBTRACT(now, p->start);
	return INSTR_TIME_GET_DOUBLE(now);
}

/*
 * A timed raw read, with the requests it sent counted where the server's
 * group has a read_iops limit: the throttle's counters, read around it,
 * say how many requests a second the reads made, set beside the limit by
 * the verdict.
 */
void
sb_count_reads_begin(SbReadCount *c, int64 *ios, int64 *bytes)
{
	*ios = *bytes = -1;
	if (c->device != NULL && !sb_cgroup_io_reads(c->device, ios, bytes))
		*ios = *bytes = -1;
}

void
sb_count_reads_end(SbReadCount *c, int64 ios0, int64 bytes0, double seconds)
{
	int64		ios,
				bytes;

	if (ios0 < 0 || !sb_cgroup_io_reads(c->device, &ios, &bytes))
		return;
	c->ios += ios - ios0;
	c->bytes += bytes - bytes0;
	c->seconds += seconds;
}

/* The call's scratch buffer for emptying the CPU caches, made once. */
static SbScrub *
pairs_scrub(SbPairs *p)
{
	if (p->scrub == NULL)
	{
		MemoryContext old = MemoryContextSwitchTo(p->cxt);

		p->scrub = sb_scrub_alloc();
		MemoryContextSwitchTo(old);
	}
	return p->scrub;
}

/* A stretch out of the CPU caches before a timed warm pass (cache.c). */
void
sb_pairs_flush_stretch(SbPairs *p, SbSpot *spot)
{
#ifdef SB_HAVE_FLUSH_LINE
	sb_flush_stretch(spot->leaf, &spot->seg, NULL);
#else
	sb_flush_stretch(spot->leaf, &spot->seg, pairs_scrub(p));
#endif
}

/*
 * Before a warm stretch's timed raw read: its data out of the CPU caches,
 * and then every cache emptied.  Flushing the stretch's lines maps its
 * page-cache pages, which brings the kernel's 2,048 page descriptors of an
 * 8 MB stretch into the caches, and a read of the page cache is mostly
 * that bookkeeping and a copy: a warm read of a stretch cost 17 % less a
 * byte than a pass over a whole 1 GB file, whose descriptors no cache
 * holds (bench/stretch.sh), and the pairs' figure sat under whole passes.
 * The raw read's own code is a loop of pread() calls, warm again within
 * its first pages, so emptying every cache takes nothing from it that a
 * whole pass keeps.  Not before a scan: that evicts the executor's code,
 * which a whole scan keeps warm, and made stretches 5 to 10 % slower than
 * a whole pass.  On a 2-vCPU VM (PostgreSQL 15, warm, shared_buffers
 * 128 MB, with and without in one session, alternated), calls of 700 to
 * 1,000 pairs of lineitem SF 1 gave 17.6 to 18.0 without and 19.2 to 19.8
 * with, against whole passes' median of 20.2; on a table of md5 rows 11.7
 * and 11.8 without, 12.1 and 12.2 with, against 12.5.
 */
static void
prepare_warm_read(SbPairs *p, SbSpot *spot)
{
	sb_pairs_flush_stretch(p, spot);
#ifdef SB_HAVE_FLUSH_LINE
	sb_scrub_cpu_caches(pairs_scrub(p));
#endif
}

static void
note(const char **extra, int *n, const char *what)
{
	if (*n < SB_TRACE_EXTRAS)
		extra[(*n)++] = what;
}

/* A scan side over the whole relation, planned for this pass. */
static void
scan_as_scan_rate(SbPairs *p, SbSide *side, SbScanResult *r)
{
	int			nestlevel = NewGUCNestLevel();

	if (side->guc)
		(void) set_config_option(side->guc, side->guc_value,
								 superuser() ? PGC_SUSET : PGC_USERSET,
								 PGC_S_SESSION, GUC_ACTION_SAVE, true, ERROR,
								 false);
	sb_scan(p->target, p->query, side->workers, p->cache, r);
	AtEOXact_GUC(true, nestlevel);
}

/* One side, prepared and timed. */
static void
run_side(SbPairs *p, int s, SbSpot *spot, SbSideResult *r,
		 const char **extra, int *nextra)
{
	SbSide	   *side = &p->side[s];
	SbCacheMode cache = p->cache;
	const char *untimed = s == 0 ? "untimed a" : "untimed b";
	uint64		bytes;
	int64		ios,
				io_bytes;

	memset(r, 0, sizeof(SbSideResult));
	r->workers = -1;
	r->buffers_pct = NAN;
	if (spot->leaf != NULL)
	{
		SbSegment  *seg = &spot->seg;

		if (cache == SB_CACHE_COLD)
			sb_evict_stretch(spot->leaf, seg);
		if (side->kind == SB_SIDE_READ)
		{
			if (cache == SB_CACHE_WARM)
			{
				SbReadResult scratch;

				memset(&scratch, 0, sizeof(scratch));
				(void) sb_raw_read_stretch(seg, p->buf, p->block_size, false, &scratch);
				note(extra, nextra, untimed);
				prepare_warm_read(p, spot);
			}
			sb_count_reads_begin(&p->count, &ios, &io_bytes);
			(void) sb_raw_read_stretch(seg, p->buf, p->block_size, false, &r->read);
			sb_count_reads_end(&p->count, ios, io_bytes, r->read.timing.seconds);
			r->cached_pct = r->read.cached_pct_before;
			r->timing = r->read.timing;
			bytes = r->read.bytes;
		}
		else
		{
			SbResidency res;

			if (side->plan == NULL)
				elog(ERROR, "a stretch is scanned only through a plan of its leaf");
			if (cache == SB_CACHE_WARM)
			{
				SbScanResult scratch;

				memset(&scratch, 0, sizeof(scratch));
				sb_scan_run(side->plan, seg, &scratch);
				note(extra, nextra, untimed);
				if (sb_leaf_scanned_through_ring(spot->leaf))
					sb_evict_stretch_buffers_warm(spot->leaf, seg);
			}
			sb_stretch_residency(spot->leaf, seg, &res);
			r->cached_pct = sb_pct(res.any_blocks, res.blocks);
			r->buffers_pct = sb_pct(res.shared_blocks, res.blocks);
			if (cache == SB_CACHE_WARM)
				sb_pairs_flush_stretch(p, spot);
			sb_scan_run(side->plan, seg, &r->scan);
			r->workers = r->scan.workers_launched;
			r->timing = r->scan.timing;
			bytes = seg->bytes;
		}
	}
	else
	{
		if (side->kind == SB_SIDE_READ)
		{
			sb_count_reads_begin(&p->count, &ios, &io_bytes);
			sb_raw_read(p->target, p->block_size, cache, &r->read, NULL);
			sb_count_reads_end(&p->count, ios, io_bytes, r->read.timing.seconds);
			r->cached_pct = r->read.cached_pct_before;
			r->timing = r->read.timing;
			bytes = r->read.bytes;
		}
		else
		{
			if (side->plan != NULL)
				sb_scan_prepared(side->plan, cache, &r->scan);
			else
				scan_as_scan_rate(p, side, &r->scan);
			r->cached_pct = r->scan.cached_pct_before;
			r->buffers_pct = r->scan.buffers_cached_pct_before;
			r->workers = r->scan.workers_launched;
			r->timing = r->scan.timing;
			bytes = p->target->bytes;
		}
		if (cache == SB_CACHE_WARM)
			note(extra, nextra, untimed);
	}
	r->seconds = r->timing.seconds;
	r->mb_s = sb_rate(bytes / SB_MB, r->seconds);
}

/* A label kept in the trace's memory, once per call. */
static const char *
trace_label(const char *label)
{
	ListCell   *lc;
	MemoryContext old;
	char	   *copy;

	if (label == NULL)
		return NULL;
	foreach(lc, trace_labels)
	{
		if (strcmp(lfirst(lc), label) == 0)
			return lfirst(lc);
	}
	old = MemoryContextSwitchTo(trace_cxt);
	copy = pstrdup(label);
	trace_labels = lappend(trace_labels, copy);
	MemoryContextSwitchTo(old);
	return copy;
}

static SbPairTrace *
trace_add(SbPairs *p, int index, SbSpot *spot, SbPairResult *out,
		  double at_s, const char **extra, int nextra)
{
	SbPairTrace *t;
	int			s;

	if (trace_cxt == NULL || trace_n >= SB_TRACE_MAX)
		return NULL;
	if (trace_n == trace_size)
	{
		trace_size = Max(64, 2 * trace_size);
		trace_v = trace_v == NULL ?
			MemoryContextAlloc(trace_cxt, sizeof(SbPairTrace *) * trace_size) :
			repalloc(trace_v, sizeof(SbPairTrace *) * trace_size);
	}
	t = MemoryContextAllocZero(trace_cxt, sizeof(SbPairTrace));
	trace_v[trace_n++] = t;
	t->pair = index + 1;
	t->a_first = out->a_first;
	if (spot->leaf != NULL)
	{
		t->leaf = RelationGetRelid(spot->leaf->rel);
		t->first_block = spot->seg.first_block;
		t->blocks = spot->seg.bytes / BLCKSZ;
	}
	else
	{
		t->leaf = p->target->relid;
		t->first_block = 0;
		t->blocks = p->target->nblocks;
	}
	for (s = 0; s < 2; s++)
	{
		t->label[s] = trace_label(p->side[s].label);
		t->seconds[s] = out->side[s].seconds;
		t->mb_s[s] = out->side[s].mb_s;
		t->cached_pct[s] = out->side[s].cached_pct;
		t->buffers_pct[s] = out->side[s].buffers_pct;
		t->workers[s] = out->side[s].workers;
		t->faults[s] = out->side[s].timing.faults;
	}
	t->at_s = at_s;
	t->pair_s = sb_pairs_elapsed_s(p) - at_s;
	t->nextra = nextra;
	memcpy(t->extra, extra, sizeof(const char *) * nextra);
	return t;
}

/*
 * The pair of this index (from 0; a goes first at even ones) at spot:
 * both sides prepared and timed, b's rate over a's, and the pair added
 * to the trace.  A pair the deadline comes in is abandoned before its
 * next side and not recorded: returns false.
 */
bool
sb_pair_run(SbPairs *p, int index, SbSpot *spot, SbPairResult *out)
{
	const char *extra[SB_TRACE_EXTRAS];
	int			nextra = 0;
	double		at_s = sb_pairs_elapsed_s(p);
	int			k;

	memset(out, 0, sizeof(SbPairResult));
	out->a_first = (index % 2 == 0);
	for (k = 0; k < 2; k++)
	{
		int			s = out->a_first ? k : 1 - k;

		CHECK_FOR_INTERRUPTS();
		if (p->deadline_s > 0 && sb_pairs_elapsed_s(p) > p->deadline_s)
			return false;
		run_side(p, s, spot, &out->side[s], extra, &nextra);
	}
	out->ratio = out->side[1].mb_s / out->side[0].mb_s;
	out->trace = trace_add(p, index, spot, out, at_s, extra, nextra);
	return true;
}

/* A pass the caller ran for the pair besides its two timed sides. */
void
sb_pair_note(SbPairTrace *t, const char *extra)
{
	if (t != NULL)
		note(t->extra, &t->nextra, extra);
}

/* ---- The trace ---- */

/*
 * A new call: the last one's pairs are dropped.  Called before anything
 * is measured, so that a call that fails leaves the pairs it took.
 */
void
sb_trace_begin(const char *function, Oid relid)
{
	if (trace_cxt == NULL)
		trace_cxt = AllocSetContextCreate(TopMemoryContext,
										  "scanbench pairs trace",
										  ALLOCSET_SMALL_SIZES);
	else
		MemoryContextReset(trace_cxt);
	trace_v = NULL;
	trace_n = trace_size = 0;
	trace_labels = NIL;
	trace_fn = MemoryContextStrdup(trace_cxt, function);
	trace_relid = relid;
}

/* The function whose pairs the trace holds, and its relation; or NULL. */
const char *
sb_trace_function(Oid *relid)
{
	*relid = trace_relid;
	return trace_fn;
}

int
sb_trace_count(void)
{
	return trace_n;
}

SbPairTrace *
sb_trace_get(int i)
{
	Assert(i >= 0 && i < trace_n);
	return trace_v[i];
}
