/*-------------------------------------------------------------------------
 *
 * breakdown.c
 *	  scan_breakdown(): where one scan's time goes.
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

#include "fmgr.h"
#include "utils/builtins.h"
#include "utils/guc.h"

#include "measure.h"

PG_FUNCTION_INFO_V1(scan_breakdown);

/*
 * A share of wall time this large names the bottleneck: on CPU or waiting
 * for one, or waiting for reads.
 */
#define SB_BOTTLENECK_SHARE		(2.0 / 3.0)

/*
 * Under io_uring the kernel does the reads without going through read(2),
 * so rchar does not count them and the page cache's share is unknown.
 */
static bool
rchar_counts_reads(void)
{
	const char *method = GetConfigOption("io_method", true, false);

	return method == NULL || strcmp(method, "io_uring") != 0;
}

Datum
scan_breakdown(PG_FUNCTION_ARGS)
{
	Oid			relid = PG_GETARG_OID(0);
	SbCacheMode cache = sb_parse_cache(PG_GETARG_TEXT_PP(1), false);
	char	   *query = text_to_cstring(PG_GETARG_TEXT_PP(2));
	int32		workers = PG_GETARG_INT32(3);
	TupleDesc	tupdesc;
	SbTarget   *target;
	SbReadResult rr;
	SbScanResult sr;
	SbScanResult warm;
	SbProcDelta *p = &sr.procs;
	bool		have_parallel;
	bool		have_io_workers;
	double		user_s,
				sys_s,
				cpu_s,
				par_user = 0,
				par_sys = 0,
				iow_user = 0,
				iow_sys = 0;
	double		wall,
				t_read,
				t_cpu,
				budget,
				busy,
				queued,
				blocked,
				io_wait;
	bool		bytes_ok;
	uint64		storage_bytes = 0,
				rchar = 0;
	const char *bottleneck;
	SbRow		row;

	sb_check_query(query);
	sb_check_workers(workers);
	tupdesc = sb_result_tupdesc(fcinfo);
	sb_row_init(&row, tupdesc);

	target = sb_target_open(relid, SB_TARGET_SCAN);

	/* t_read, the scan itself, then t_cpu: all on the same blocks. */
	sb_raw_read(target, BLCKSZ, cache, &rr, NULL);
	sb_scan(target, query, workers, cache, &sr);
	sb_scan(target, query, workers, SB_CACHE_WARM, &warm);

	wall = sr.timing.seconds;
	t_read = rr.timing.seconds;
	t_cpu = warm.timing.seconds;

	/*
	 * Parallel workers' figures are the postmaster's reaped children: taken
	 * only when workers ran, so that a session ending elsewhere is not
	 * counted for a scan that had none.
	 */
	have_parallel = sr.workers_launched > 0 && p->parallel.cpu_ok;
	if (have_parallel)
	{
		par_user = p->parallel.user_s;
		par_sys = p->parallel.sys_s;
	}
	have_io_workers = p->io_workers.cpu_ok;
	if (have_io_workers)
	{
		iow_user = p->io_workers.user_s;
		iow_sys = p->io_workers.sys_s;
	}
	user_s = sr.timing.user_s + par_user + iow_user;
	sys_s = sr.timing.sys_s + par_sys + iow_sys;
	cpu_s = user_s + sys_s;

	bytes_ok = p->self.io_ok &&
		(sr.workers_launched == 0 || p->parallel.io_ok) &&
		(!have_io_workers || p->io_workers.io_ok);
	if (bytes_ok)
	{
		storage_bytes = p->self.read_bytes +
			(sr.workers_launched > 0 ? p->parallel.read_bytes : 0) +
			(have_io_workers ? p->io_workers.read_bytes : 0);
		rchar = p->self.rchar +
			(sr.workers_launched > 0 ? p->parallel.rchar : 0) +
			(have_io_workers ? p->io_workers.rchar : 0);
	}

	/*
	 * Shares of the scan processes' time; see the top of the file.  With
	 * parallel workers the read wait is theirs and the leader's together
	 * (their buffer usage is added to the leader's), so the budget is wall
	 * time for each process, though workers start a little late.
	 */
	budget = wall * (1 + (have_parallel ? sr.workers_launched : 0));
	busy = Min(sr.timing.user_s + sr.timing.sys_s + par_user + par_sys, budget);
	queued = Min(sr.timing.cpu_wait_s, budget - busy);
	blocked = budget - busy - queued;
	io_wait = Min(Max(sr.io_read_s, 0), blocked);
	if (budget <= 0)
		bottleneck = NULL;
	else if (busy + queued >= SB_BOTTLENECK_SHARE * budget)
		bottleneck = "cpu";
	else if (io_wait >= SB_BOTTLENECK_SHARE * budget)
		bottleneck = "io";
	else
		bottleneck = "mixed";

	sb_row_datum(&row, "relation", ObjectIdGetDatum(relid));
	sb_row_text(&row, "query", query);
	sb_row_text(&row, "cache", sb_cache_name(cache));
	sb_row_datum(&row, "workers_launched", Int32GetDatum(sr.workers_launched));
	sb_row_datum(&row, "rows", Int64GetDatum(sr.rows));
	sb_row_datum(&row, "pages", Int64GetDatum(target->nblocks));
	sb_row_datum(&row, "bytes", Int64GetDatum(target->bytes));
	sb_row_float(&row, "cached_pct_before", sr.cached_pct_before, 1);
	/* The three times and what they predict. */
	sb_row_float(&row, "seconds", wall, 3);
	sb_row_float(&row, "scan_mb_s", sb_rate(target->bytes / SB_MB, wall), 1);
	sb_row_float(&row, "t_read_s", t_read, 3);
	sb_row_float(&row, "read_mb_s", sb_rate(target->bytes / SB_MB, t_read), 1);
	sb_row_float(&row, "t_cpu_s", t_cpu, 3);
	sb_row_float(&row, "warm_mb_s", sb_rate(target->bytes / SB_MB, t_cpu), 1);
	sb_row_float(&row, "scan_pct", sb_rate(100.0 * t_read, wall), 1);
	sb_row_float(&row, "no_overlap_pct", sb_no_overlap_pct(t_read, t_cpu), 1);
	sb_row_float(&row, "perfect_overlap_pct",
				 sb_perfect_overlap_pct(t_read, t_cpu), 1);
	sb_row_float(&row, "overlap_pct", sb_overlap_pct(t_read, t_cpu, wall), 1);
	/* CPU: all, then each kind of process. */
	sb_row_float(&row, "user_s", user_s, 3);
	sb_row_float(&row, "sys_s", sys_s, 3);
	sb_row_float(&row, "backend_user_s", sr.timing.user_s, 3);
	sb_row_float(&row, "backend_sys_s", sr.timing.sys_s, 3);
	if (sr.workers_launched == 0 || have_parallel)
	{
		sb_row_float(&row, "parallel_user_s", par_user, 3);
		sb_row_float(&row, "parallel_sys_s", par_sys, 3);
	}
	else
	{
		sb_row_null(&row, "parallel_user_s");
		sb_row_null(&row, "parallel_sys_s");
	}
	sb_row_io_workers(&row, p);
	/* Reads. */
	sb_row_float(&row, "io_read_s", sr.io_read_s, 3);
	sb_row_null(&row, "storage_read_bytes");
	sb_row_null(&row, "page_cache_bytes");
	if (bytes_ok)
	{
		sb_row_datum(&row, "storage_read_bytes", Int64GetDatum(storage_bytes));
		if (rchar_counts_reads())
			sb_row_datum(&row, "page_cache_bytes",
						 Int64GetDatum(rchar > storage_bytes ?
									   rchar - storage_bytes : 0));
	}
	sb_row_datum(&row, "shared_hit", Int64GetDatum(sr.shared_hit));
	sb_row_datum(&row, "shared_read", Int64GetDatum(sr.shared_read));
	sb_row_float(&row, "cpu_ns_per_row", sb_rate(1e9 * cpu_s, (double) sr.rows), 1);
	sb_row_float(&row, "cpu_ns_per_page",
				 sb_rate(1e9 * cpu_s, (double) target->nblocks), 0);
	/* Where the wall time went. */
	sb_row_text(&row, "bottleneck", bottleneck);
	sb_row_float(&row, "cpu_pct", sb_share_pct(busy, budget), 1);
	sb_row_float(&row, "cpu_wait_pct", sb_share_pct(queued, budget), 1);
	/* Of that wait, the group held back by its own CPU quota (clock.c). */
	sb_row_float(&row, "cpu_throttled_pct",
				 isnan(sr.timing.throttled_s) ? NAN :
				 sb_share_pct(Min(sr.timing.throttled_s, queued), budget), 1);
	sb_row_float(&row, "io_wait_pct", sb_share_pct(io_wait, budget), 1);
	sb_row_float(&row, "other_pct",
				 sb_share_pct(budget - busy - queued - io_wait, budget), 1);
	sb_row_datum(&row, "settings", sb_io_settings());
	sb_target_close(target);

	PG_RETURN_DATUM(sb_row_result(&row));
}
