/*-------------------------------------------------------------------------
 *
 * breakdown.c
 *	  Where one scan's time goes.
 *
 * A cold scan needs the storage's time for the bytes (t_read: a raw read of
 * the same files, as raw_read does it) and the executor's time for the
 * tuples (t_cpu: a warm scan of the same blocks with the same select
 * list).  Without overlap it takes t_read + t_cpu; with perfect overlap
 * (read-ahead, asynchronous I/O) max(t_read, t_cpu).  All three are
 * measured in the same call, on the same blocks, so that where the real
 * scan falls between the two bounds says how much of the gap to the raw
 * read rate is executor CPU and how much is reads not overlapped.
 *
 * The measured scan is also taken apart from the inside: CPU of this
 * backend (getrusage), of its parallel workers and of the I/O workers
 * (/proc, procstat.c); read wait (track_io_timing); bytes the kernel
 * fetched from storage against bytes read calls returned (/proc/PID/io).
 *
 * Its wall time is split into shares that add up: on CPU (this backend's
 * user + system time), runnable but waiting for a CPU another process
 * held (/proc/self/schedstat), waiting for reads (the part of the read
 * wait the backend spent blocked: read wait includes the system time of
 * copying from the page cache, which is on CPU, and time preempted), and
 * the rest (waiting for parallel workers to start or finish, locks).
 * With parallel workers the time split is the processes' together: wall
 * time once for the leader and once for each worker.  The I/O workers'
 * CPU is not in the shares: for the scan they are storage, and their time
 * shows as the backend's read wait.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "utils/lsyscache.h"


#include "breakdown.h"
#include "settings.h"
#include "stats.h"

/*
 * A share of wall time this large names the bottleneck: on CPU or waiting
 * for one, or waiting for reads.
 */
#define SB_BOTTLENECK_SHARE		(2.0 / 3.0)

/* The CPU and the bytes of the measured scan's processes, summed. */
static void
sum_processes(SbBreakdown *b)
{
	SbScanResult *sr = &b->scan;
	SbProcDelta *p = &sr->procs;
	double		iow_user = 0,
				iow_sys = 0;

	/*
	 * Parallel workers' figures are the postmaster's reaped children: taken
	 * only when workers ran, so that a session ending elsewhere is not
	 * counted for a scan that had none.
	 */
	b->have_parallel = sr->workers_launched > 0 && p->parallel.cpu_ok;
	b->parallel_user_s = b->have_parallel ? p->parallel.user_s : 0;
	b->parallel_sys_s = b->have_parallel ? p->parallel.sys_s : 0;
	b->have_io_workers = p->io_workers.cpu_ok;
	if (b->have_io_workers)
	{
		iow_user = p->io_workers.user_s;
		iow_sys = p->io_workers.sys_s;
	}
	b->user_s = sr->timing.user_s + b->parallel_user_s + iow_user;
	b->sys_s = sr->timing.sys_s + b->parallel_sys_s + iow_sys;
	b->cpu_s = b->user_s + b->sys_s;

	b->bytes_ok = p->self.io_ok &&
		(sr->workers_launched == 0 || p->parallel.io_ok) &&
		(!b->have_io_workers || p->io_workers.io_ok);
	b->storage_bytes = b->rchar = 0;
	if (b->bytes_ok)
	{
		b->storage_bytes = p->self.read_bytes +
			(sr->workers_launched > 0 ? p->parallel.read_bytes : 0) +
			(b->have_io_workers ? p->io_workers.read_bytes : 0);
		b->rchar = p->self.rchar +
			(sr->workers_launched > 0 ? p->parallel.rchar : 0) +
			(b->have_io_workers ? p->io_workers.rchar : 0);
	}
}

/*
 * Shares of the scan processes' time; see the top of the file.  With
 * parallel workers the read wait is theirs and the leader's together
 * (their buffer usage is added to the leader's), so the budget is wall
 * time for each process, though workers start a little late.
 */
static void
split_wall(SbBreakdown *b)
{
	SbScanResult *sr = &b->scan;
	double		blocked;

	b->budget = b->wall * (1 + (b->have_parallel ? sr->workers_launched : 0));
	b->busy = Min(sr->timing.user_s + sr->timing.sys_s +
				  b->parallel_user_s + b->parallel_sys_s, b->budget);
	b->queued = Min(sr->timing.cpu_wait_s, b->budget - b->busy);
	blocked = b->budget - b->busy - b->queued;
	b->io_wait = Min(Max(sr->io_read_s, 0), blocked);
	if (b->budget <= 0)
		b->bottleneck = NULL;
	else if (b->busy + b->queued >= SB_BOTTLENECK_SHARE * b->budget)
		b->bottleneck = "cpu";
	else if (b->io_wait >= SB_BOTTLENECK_SHARE * b->budget)
		b->bottleneck = "io";
	else
		b->bottleneck = "mixed";
}

/*
 * On 19 the scan's read streams count what they read and how often the
 * scan waited for a read, as EXPLAIN (ANALYZE, IO) shows it; the buffer
 * manager counts the same blocks read (shared_read) and the read wait
 * (track_io_timing) by its own account.  The two agree when every block
 * the statement read came through the scan's stream, within
 * SB_STREAM_BLOCKS_PCT of the blocks, and when the read wait and the
 * stream's waits are both there or both not (a read wait below
 * SB_STREAM_WAIT_S, or below SB_STREAM_WAIT_PCT of the wall time, is the
 * clock's cost of the reads that did not wait).  Blocks read outside the
 * stream (TOAST, a function in the select list reading another relation)
 * have read wait that is not the scan's own; the check says which.
 */
#define SB_STREAM_BLOCKS_PCT	1.0
#define SB_STREAM_WAIT_S		0.001
#define SB_STREAM_WAIT_PCT		1.0

static char *
stream_check(SbBreakdown *b)
{
	SbScanIO   *io = &b->scan.io;
	int64		read = b->scan.shared_read;
	int64		off = read - (int64) io->io_blocks;
	double		wait = Max(b->scan.io_read_s, 0);
	bool		waited = wait > Max(SB_STREAM_WAIT_S, b->wall * SB_STREAM_WAIT_PCT / 100);

	if (!io->ok || isnan(b->wall))
		return NULL;
	if ((off < 0 ? -off : off) > Max(1, read * SB_STREAM_BLOCKS_PCT / 100))
		return psprintf("disagree: the buffers read " INT64_FORMAT " blocks, the scan's read streams " UINT64_FORMAT ": %s",
						read, io->io_blocks,
						off > 0 ? "the rest were read outside the scan (TOAST, or a function in the select list), and their read wait is in io_read_s" :
						"the streams counted blocks the buffers did not");
	if (waited && io->waits == 0)
		return psprintf("disagree: read wait %.3f s, but the scan's read streams never waited for a read", wait);
	if (io->waits > 0 && wait <= 0)
		return psprintf("disagree: the scan's read streams waited " UINT64_FORMAT " times, but no read wait was timed", io->waits);
	return pstrdup("agree");
}

/*
 * t_read, the scan itself, then t_cpu, all on target's blocks as the call
 * found them, with workers parallel workers asked for.  count_io: the
 * scan itself counts its reads as EXPLAIN (ANALYZE, IO) does (19 on;
 * b->scan.io), at the cost of instrumenting its plan, and the warm scan
 * is instrumented alike.
 */
void
sb_breakdown(SbTarget *target, const char *query, int workers,
			 SbCacheMode cache, bool count_io, SbBreakdown *b)
{
	double		mb = target->bytes / SB_MB;

	memset(b, 0, sizeof(*b));
	sb_raw_read(target, BLCKSZ, cache, &b->read, NULL);
	if (count_io)
	{
		/* Both: the counting costs CPU a row, which t_cpu must carry too. */
		sb_scan_counting_io(target, query, workers, cache, &b->scan);
		sb_scan_counting_io(target, query, workers, SB_CACHE_WARM, &b->warm);
	}
	else
	{
		sb_scan(target, query, workers, cache, &b->scan);
		sb_scan(target, query, workers, SB_CACHE_WARM, &b->warm);
	}

	b->wall = b->scan.timing.seconds;
	b->t_read = b->read.timing.seconds;
	b->t_cpu = b->warm.timing.seconds;
	sum_processes(b);
	split_wall(b);

	/*
	 * An empty relation has no figures: its three "times" are the cost of
	 * starting a statement, and their ratios mean nothing.
	 */
	if (target->nblocks == 0)
	{
		b->wall = b->t_read = b->t_cpu = NAN;
		b->budget = 0;
		b->bottleneck = NULL;
	}
	b->scan_mb_s = sb_rate(mb, b->wall);
	b->read_mb_s = sb_rate(mb, b->t_read);
	b->warm_mb_s = sb_rate(mb, b->t_cpu);

	/*
	 * The overlap is where the scan falls between the two predictions; a
	 * scan faster than perfect overlap or slower than none ran under other
	 * conditions than its two references (a neighbour's load, the host's
	 * cache), and a share outside 0..100 would be no share at all.
	 */
	b->overlap_pct = sb_overlap_pct(b->t_read, b->t_cpu, b->wall);
	if (!isnan(b->overlap_pct) && (b->overlap_pct < 0 || b->overlap_pct > 100))
		b->overlap_pct = NAN;
	b->stream_check = stream_check(b);
}

/*
 * scan_breakdown(relid, query, workers, cache): the relation's scan taken
 * apart, instrumented, and a NOTICE where its figures need one: an empty
 * relation, or a scan that beat or lost to both of its references.
 */
void
sb_breakdown_call(Oid relid, const char *query, int workers,
				  SbCacheMode cache, SbBreakdownCall *out)
{
	SbBreakdown *b = &out->b;
	SbTarget   *target = sb_target_open(relid, SB_TARGET_SCAN);

	sb_breakdown(target, query, workers, cache, true, b);
	if (target->nblocks == 0)
		ereport(NOTICE,
				(errmsg("\"%s\" is empty: there is nothing to take apart",
						get_rel_name(relid))));
	else if (isnan(b->overlap_pct) && b->wall > 0 && b->t_read > 0 && b->t_cpu > 0)
	{
		/* Out of 0..100: the scan beat, or lost to, both of its references. */
		bool		faster = b->wall < Max(b->t_read, b->t_cpu);

		ereport(NOTICE,
				(errmsg("overlap_pct is NULL: the scan took %.3f s, %s than %s (%.3f s)",
						b->wall, faster ? "less" : "more",
						faster ? "its raw read and warm scan overlapping perfectly" :
						"its raw read and warm scan one after the other",
						faster ? Max(b->t_read, b->t_cpu) : b->t_read + b->t_cpu),
				 errdetail("The raw read took %.3f s and the warm scan %.3f s; the scan ran under other conditions than they did (the page cache, another session's load).",
						   b->t_read, b->t_cpu),
				 errhint("Measure again, or with cache => 'cold' on a relation larger than the page cache.")));
	}
	out->pages = target->nblocks;
	out->bytes = target->bytes;
	sb_cgroup_limits(sb_target_first_path(target), &out->limits);
	out->settings = sb_io_settings();
	sb_target_close(target);
}
