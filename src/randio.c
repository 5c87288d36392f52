/*-------------------------------------------------------------------------
 *
 * randio.c
 *	  Random I/O at queue depth 1, as pgiosim and fio --iodepth=1 do it:
 *	  one pread() or pwrite() of block_size bytes at a block-aligned offset,
 *	  then the next, each one timed for the latency percentiles; and random
 *	  reads at a greater depth, as fio --iodepth=N does them.
 *
 * The offsets are drawn before the clock starts, so the timed loop holds
 * nothing but the I/O, the two clock reads around it and the cancel check.
 * When there are at least as many blocks as operations, no block is drawn
 * twice (fio's random map does the same): a block read a second time would
 * come from the page cache and make a cold run partly warm.
 *
 * A relation of thousands of partitions, or one of thousands of segments,
 * has more files than a backend may hold open (fd.c keeps it below
 * max_safe_fds, a third of them for descriptors it does not manage
 * itself).  So a run opens the files the caller left closed as its reads
 * reach them, and no more than SB_OPEN_FILES at once (SbFilePool below).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include "common/pg_prng.h"
#include "miscadmin.h"
#include "port/atomics.h"
#include "portability/instr_time.h"
#include "storage/fd.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

#include "randio.h"
#include "stats.h"

/* O_DIRECT wants buffers aligned to the device's logical block size. */
#define SB_IO_ALIGN		4096

/*
 * The depth and block_size of reads in flight, checked against the
 * memory their buffers take (a buffer a read), before anything is opened.
 */
void
sb_check_depth_memory(int depth, int block_size)
{
	int64		bytes = (int64) depth * block_size;

	if (bytes > SB_MAX_DEPTH_BYTES)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("depth %d with block_size %d would take %lld MB of read buffers, more than the %d MB allowed",
						depth, block_size, (long long) (bytes / (1024 * 1024)),
						SB_MAX_DEPTH_BYTES / (1024 * 1024)),
				 errdetail("Each read in flight reads into a buffer of block_size bytes of its own; depth times block_size may be at most %d bytes.",
						   SB_MAX_DEPTH_BYTES),
				 errhint("Lower depth to %d, or block_size to %d.",
						 Max(SB_MAX_DEPTH_BYTES / block_size, 1),
						 Max(SB_MAX_DEPTH_BYTES / depth / 512 * 512, 512))));
}

/* ---- The files, opened as the reads reach them ---- */

/*
 * The files of one run.  Those the caller left closed (fd -1) are opened
 * when a read first needs one and, once as many are open as fd.c
 * granted, the one taken longest ago that no read is using is closed to
 * make room.  The descriptors are counted as external ones
 * (AcquireExternalFD), so that the server closes files of its own cache
 * to make room for them; they are opened with open(), since the reading
 * threads open them, and every one is closed by the backend's own thread
 * (pool_close, in a PG_FINALLY) before an error or a cancel goes on.
 * The first SB_OPEN_FILES files (depth + 1 where that is more) are opened
 * before the clock starts: a relation of a few files is read as it always
 * was, each file opened once, outside the timed interval, with no lock
 * taken around a read.
 */
typedef struct SbFilePool
{
	SbRandomFile *files;
	int			nfiles;
	int			closed;			/* files the caller left closed */
	int		   *fd;				/* the pool's descriptor of a file, or -1 */
	int		   *users;			/* reads using it now */
	uint64	   *taken;			/* when a read last took it */
	uint64		tick;
	int		   *slots;			/* the files open now, granted of them */
	int			open;
	int			granted;		/* descriptors fd.c counts for the pool */
	bool		all_open;		/* every file opened before the reads */
	pthread_mutex_t lock;
	pthread_cond_t freed;		/* a file's last read ended */
} SbFilePool;

static int
open_one(const SbRandomFile *file)
{
	int			fd;

	do
		fd = open(file->path,
				  O_RDONLY | PG_BINARY | O_CLOEXEC | (file->direct ? PG_O_DIRECT : 0),
				  0);
	while (fd < 0 && errno == EINTR);
	/* no read-ahead for this descriptor, as fio does for random jobs */
	if (fd >= 0 && file->advise_random && !file->direct)
		(void) posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM);
	return fd;
}

static SbFilePool *
pool_init(SbRandomFile *files, int nfiles, int depth)
{
	SbFilePool *pool = palloc0(sizeof(SbFilePool));
	int			want;
	int			f;

	pool->files = files;
	pool->nfiles = nfiles;
	pool->fd = palloc(sizeof(int) * Max(nfiles, 1));
	pool->users = palloc0(sizeof(int) * Max(nfiles, 1));
	pool->taken = palloc0(sizeof(uint64) * Max(nfiles, 1));
	for (f = 0; f < nfiles; f++)
	{
		pool->fd[f] = -1;
		if (files[f].fd < 0)
			pool->closed++;
	}
	want = Min(pool->closed, Max(SB_OPEN_FILES, depth + 1));
	pool->slots = palloc(sizeof(int) * Max(want, 1));
	while (pool->granted < want && AcquireExternalFD())
		pool->granted++;
	if (want > 0 && pool->granted == 0)
	{
		/* the server's own cached files make room for one */
		ReserveExternalFD();
		pool->granted = 1;
	}
	pthread_mutex_init(&pool->lock, NULL);
	pthread_cond_init(&pool->freed, NULL);
	return pool;
}

/*
 * Open the first files, as many as granted, before the clock starts: 0,
 * or an errno and *failed the file that could not be opened.
 */
static int
pool_open_first(SbFilePool *pool, int *failed)
{
	int			f;

	for (f = 0; f < pool->nfiles && pool->open < pool->granted; f++)
	{
		if (pool->files[f].fd >= 0)
			continue;
		pool->fd[f] = open_one(&pool->files[f]);
		if (pool->fd[f] < 0)
		{
			*failed = f;
			return errno;
		}
		pool->slots[pool->open++] = f;
	}
	pool->all_open = (pool->open == pool->closed);
	return 0;
}

/*
 * The descriptor of file f for one read, until pool_give: 0, or the errno
 * of an open that failed.  Thread-safe.
 */
static int
pool_take(SbFilePool *pool, int f, int *fd)
{
	if (pool->files[f].fd >= 0)
	{
		*fd = pool->files[f].fd;
		return 0;
	}
	if (pool->all_open)
	{
		*fd = pool->fd[f];
		return 0;
	}
	pthread_mutex_lock(&pool->lock);
	while (pool->fd[f] < 0)
	{
		int			victim = -1;
		int			s;

		if (pool->open < pool->granted)
		{
			int			got = open_one(&pool->files[f]);

			if (got < 0)
			{
				int			err = errno;

				pthread_mutex_unlock(&pool->lock);
				return err;
			}
			pool->fd[f] = got;
			pool->slots[pool->open++] = f;
			break;
		}
		for (s = 0; s < pool->open; s++)
		{
			int			i = pool->slots[s];

			if (pool->users[i] == 0 &&
				(victim < 0 || pool->taken[i] < pool->taken[pool->slots[victim]]))
				victim = s;
		}
		if (victim >= 0)
		{
			close(pool->fd[pool->slots[victim]]);
			pool->fd[pool->slots[victim]] = -1;
			pool->slots[victim] = pool->slots[--pool->open];
			continue;
		}
		/* every open file has a read in flight: wait for one to end */
		pthread_cond_wait(&pool->freed, &pool->lock);
	}
	pool->users[f]++;
	pool->taken[f] = ++pool->tick;
	*fd = pool->fd[f];
	pthread_mutex_unlock(&pool->lock);
	return 0;
}

static void
pool_give(SbFilePool *pool, int f)
{
	if (pool->files[f].fd >= 0 || pool->all_open)
		return;
	pthread_mutex_lock(&pool->lock);
	if (--pool->users[f] == 0)
		pthread_cond_broadcast(&pool->freed);
	pthread_mutex_unlock(&pool->lock);
}

/* Close what the pool opened; no read may be using it. */
static void
pool_close(SbFilePool *pool)
{
	int			s;

	for (s = 0; s < pool->open; s++)
		close(pool->fd[pool->slots[s]]);
	for (s = 0; s < pool->granted; s++)
		ReleaseExternalFD();
	pthread_mutex_destroy(&pool->lock);
	pthread_cond_destroy(&pool->freed);
	pfree(pool->slots);
	pfree(pool->taken);
	pfree(pool->users);
	pfree(pool->fd);
	pfree(pool);
}

/* A file the pool could not open, as relfiles.c reports one. */
static void
report_open_failure(const SbRandomFile *file, int err)
{
	if (file->direct && err == EINVAL)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("the filesystem under \"%s\" refuses O_DIRECT",
						file->path),
				 errhint("Use cache => 'cold' to read through the page cache after evicting it.")));
	errno = err;
	ereport(ERROR,
			(errcode_for_file_access(),
			 errmsg("could not open file \"%s\": %m", file->path)));
}

/* Draw ops chunk numbers in [0, total), distinct when total allows. */
static uint64 *
draw_offsets(uint64 total, uint64 ops, bool *repeats)
{
	uint64	   *chosen = palloc_extended(sizeof(uint64) * ops, MCXT_ALLOC_HUGE);
	uint8	   *seen = NULL;
	pg_prng_state rng;
	uint64		i;

	pg_prng_seed(&rng, (uint64) GetCurrentTimestamp() ^ (uint64) MyProcPid);
	*repeats = ops > total;
	if (!*repeats)
		seen = palloc_extended(total / 8 + 1, MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);

	for (i = 0; i < ops; i++)
	{
		uint64		c;

		if ((i & 4095) == 0)
			CHECK_FOR_INTERRUPTS();
		do
		{
			c = pg_prng_uint64_range(&rng, 0, total - 1);
		} while (seen != NULL && (seen[c / 8] & (1 << (c % 8))) != 0);
		if (seen != NULL)
			seen[c / 8] |= (uint8) (1 << (c % 8));
		chosen[i] = c;
	}
	if (seen)
		pfree(seen);
	return chosen;
}

/* The file holding chunk c: the last one starting at or before it. */
static int
file_of(const uint64 *first, int nfiles, uint64 c)
{
	int			lo = 0,
				hi = nfiles - 1;

	while (lo < hi)
	{
		int			mid = (lo + hi + 1) / 2;

		if (first[mid] <= c)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

/*
 * The timed loop of sb_random_io, over the pool's files: each operation
 * timed on its own, from its first byte to its last.
 */
static void
random_io_loop(SbFilePool *pool, const uint64 *first, int block_size,
			   const uint64 *chosen, uint64 ops, bool write, char *buf,
			   double *lat_us, SbRandomResult *r)
{
	SbRandomFile *files = pool->files;
	SbClock		clock;
	uint64		i;
	int			failed;
	int			err;
	int			f;

	err = pool_open_first(pool, &failed);
	if (err != 0)
		report_open_failure(&files[failed], err);

	sb_clock_start(&clock);
	for (i = 0; i < ops; i++)
	{
		uint64		c = chosen[i];
		int			lo = file_of(first, pool->nfiles, c);
		off_t		offset;
		ssize_t		done;
		int			fd;
		instr_time	t0,
					t1;

		CHECK_FOR_INTERRUPTS();

		offset = (off_t) (c - first[lo]) * block_size;
		err = pool_take(pool, lo, &fd);
		if (err != 0)
			report_open_failure(&files[lo], err);

		INSTR_TIME_SET_CURRENT(t0);
		done = 0;
		for (;;)
		{
			ssize_t		part;

			/*
			 * POSIX lets a read or write of a regular file stop short (a
			 * signal, a file system's own limits): carry on from there.  An
			 * end of file or a write of nothing is reported below.
			 */
			if (write)
				part = pg_pwrite(fd, buf + done, block_size - done,
								 offset + done);
			else
				part = pg_pread(fd, buf + done, block_size - done,
								offset + done);
			if (part < 0 && errno == EINTR)
				continue;
			if (part <= 0)
			{
				if (part < 0)
					done = -1;
				break;
			}
			done += part;
			if (done == block_size)
				break;
		}
		INSTR_TIME_SET_CURRENT(t1);
		pool_give(pool, lo);

		if (done < 0)
			ereport(ERROR,
					(errcode_for_file_access(),
					 errmsg("could not %s %d bytes at offset %lld in file \"%s\": %m",
							write ? "write" : "read", block_size,
							(long long) offset, files[lo].path)));
		if (done != block_size && write)
		{
			errno = ENOSPC;		/* a short write: the file system filled */
			ereport(ERROR,
					(errcode_for_file_access(),
					 errmsg("could not write %d bytes at offset %lld in file \"%s\": %m",
							block_size, (long long) offset, files[lo].path)));
		}
		if (done != block_size)
			ereport(ERROR,
					(errcode(ERRCODE_DATA_CORRUPTED),
					 errmsg("could not read %d bytes at offset %lld in file \"%s\": read only %zd bytes",
							block_size, (long long) offset, files[lo].path,
							done),
					 errdetail("The file is shorter than when the measurement began: something outside PostgreSQL truncated it.")));
		INSTR_TIME_SUBTRACT(t1, t0);
		/*
		 * In fractions of a microsecond: INSTR_TIME_GET_MICROSEC truncates,
		 * and a write to tmpfs or a read from the page cache takes less
		 * than one, which would show as a latency of 0.
		 */
		lat_us[i] = INSTR_TIME_GET_DOUBLE(t1) * 1e6;
		r->bytes += block_size;
		r->min_offset = Min(r->min_offset, files[lo].base + offset);
		r->max_offset = Max(r->max_offset, files[lo].base + offset);
	}
	if (write)
	{
		/* writes go only to files the caller opened */
		for (f = 0; f < pool->nfiles; f++)
		{
			if (files[f].chunks > 0 && files[f].fd >= 0 &&
				fdatasync(files[f].fd) != 0)
				ereport(ERROR,
						(errcode_for_file_access(),
						 errmsg("could not fdatasync file \"%s\": %m",
								files[f].path)));
		}
	}
	sb_clock_stop(&clock, &r->timing);
}

/*
 * ops random reads (or writes) of block_size bytes over files, timed.
 * Writes are followed by an fdatasync of every file inside the timed
 * interval, as iozone -e and lmdd sync=1 count it.  r->timing covers the
 * whole run; the percentiles are of single operations.  Writes go to
 * files the caller opened for writing; files it left closed are opened
 * read-only as the reads reach them.
 */
void
sb_random_io(SbRandomFile *files, int nfiles, int block_size, uint64 ops,
			 bool write, SbRandomResult *r)
{
	uint64	   *first = palloc(sizeof(uint64) * (nfiles + 1));
	uint64		total = 0;
	uint64	   *chosen;
	double	   *lat_us;
	char	   *raw = palloc(block_size + SB_IO_ALIGN);
	char	   *buf = (char *) TYPEALIGN(SB_IO_ALIGN, raw);
	SbFilePool *pool;
	uint64		i;
	int			f;

	memset(r, 0, sizeof(SbRandomResult));
	r->p50_us = r->p95_us = r->p99_us = NAN;
	for (f = 0; f < nfiles; f++)
	{
		first[f] = total;
		total += files[f].chunks;
	}
	first[nfiles] = total;
	if (total == 0 || ops == 0)
		return;

	/* Data that no filesystem can compress or skip. */
	for (i = 0; i < (uint64) block_size; i++)
		buf[i] = (char) (i * 131 + 7);

	chosen = draw_offsets(total, ops, &r->repeats);
	lat_us = palloc_extended(sizeof(double) * ops, MCXT_ALLOC_HUGE);
	r->min_offset = PG_UINT64_MAX;

	pool = pool_init(files, nfiles, 1);
	PG_TRY();
	{
		random_io_loop(pool, first, block_size, chosen, ops, write, buf,
					   lat_us, r);
	}
	PG_FINALLY();
	{
		pool_close(pool);
	}
	PG_END_TRY();
	r->ops = ops;

	sb_sort(lat_us, (int) ops);
	r->p50_us = sb_percentile_sorted(lat_us, (int) ops, 50);
	r->p95_us = sb_percentile_sorted(lat_us, (int) ops, 95);
	r->p99_us = sb_percentile_sorted(lat_us, (int) ops, 99);

	pfree(lat_us);
	pfree(chosen);
	pfree(raw);
	pfree(first);
}

/*
 * Random reads at depth: depth threads, each reading one block at a time,
 * so that depth reads are in flight at once, as fio's psync engine with
 * numjobs=depth keeps them (and as a device sees io_uring's or libaio's
 * at that depth).  The threads touch nothing of the server's: they take
 * the next offset from an atomic counter, take the file's descriptor from
 * the pool (which opens it with open() where it is not open yet), pread()
 * into a buffer of their own and write a latency into the array allocated
 * for them; every signal is blocked in them, so that the server's
 * handlers run in this backend's own thread.  That thread waits, checking
 * for a cancel every 10 ms: on one, the threads stop after their read in
 * flight and are joined before the error is raised.  A failed read or
 * open stops them too, and is reported once they have all ended.
 */
typedef struct SbDepthRun
{
	SbFilePool *pool;
	const uint64 *first;
	int			nfiles;
	int			block_size;
	const uint64 *chosen;		/* NULL: chunk i is the i-th, in order */
	uint64		ops;
	double	   *lat_us;
	pg_atomic_uint64 next;
	pg_atomic_uint64 bytes;
	pg_atomic_uint32 stop;
	/* threads still reading, and the signal the last one gives */
	int			running;
	pthread_mutex_t lock;
	pthread_cond_t ended;
	/* the first failure, written by the thread that set stop first */
	int			err;
	bool		err_open;		/* the file could not be opened */
	int			err_file;
	off_t		err_offset;
	ssize_t		err_done;
} SbDepthRun;

static void
worker_ends(SbDepthRun *run, int n)
{
	pthread_mutex_lock(&run->lock);
	run->running -= n;
	if (run->running == 0)
		pthread_cond_signal(&run->ended);
	pthread_mutex_unlock(&run->lock);
}

static void *
depth_worker(void *arg)
{
	SbDepthRun *run = arg;
	const SbRandomFile *files = run->pool->files;
	char	   *raw = malloc(run->block_size + SB_IO_ALIGN);
	char	   *buf;

	if (raw == NULL)
	{
		if (pg_atomic_exchange_u32(&run->stop, 1) == 0)
			run->err = ENOMEM;
		worker_ends(run, 1);
		return NULL;
	}
	buf = (char *) TYPEALIGN(SB_IO_ALIGN, raw);
	while (pg_atomic_read_u32(&run->stop) == 0)
	{
		uint64		i = pg_atomic_fetch_add_u64(&run->next, 1);
		uint64		c;
		int			f;
		int			fd;
		int			err;
		off_t		offset;
		int			want;
		ssize_t		done;
		instr_time	t0,
					t1;

		if (i >= run->ops)
			break;
		c = run->chosen ? run->chosen[i] : i;
		f = file_of(run->first, run->nfiles, c);
		offset = (off_t) (files[f].start +
						  (c - run->first[f]) * run->block_size);
		/* a file's last chunk may be shorter */
		want = run->block_size;
		if (files[f].bytes > 0 &&
			files[f].start + files[f].bytes - offset < (uint64) want)
			want = (int) (files[f].start + files[f].bytes - offset);
		err = pool_take(run->pool, f, &fd);
		if (err != 0)
		{
			if (pg_atomic_exchange_u32(&run->stop, 1) == 0)
			{
				run->err = err;
				run->err_open = true;
				run->err_file = f;
			}
			break;
		}
		INSTR_TIME_SET_CURRENT(t0);
		done = pg_pread(fd, buf, want, offset);
		INSTR_TIME_SET_CURRENT(t1);
		pool_give(run->pool, f);
		if (done != want)
		{
			int			e = done < 0 ? errno : EIO;

			if (pg_atomic_exchange_u32(&run->stop, 1) == 0)
			{
				run->err = e;
				run->err_file = f;
				run->err_offset = offset;
				run->err_done = done;
			}
			break;
		}
		INSTR_TIME_SUBTRACT(t1, t0);
		run->lat_us[i] = INSTR_TIME_GET_DOUBLE(t1) * 1e6;
		pg_atomic_fetch_add_u64(&run->bytes, done);
	}
	free(raw);
	worker_ends(run, 1);
	return NULL;
}

/*
 * Read the chunks chosen (NULL: every chunk, in order) of the pool's
 * files with depth threads, timed.  first[] gives each file's first
 * chunk; ops chunks are read.  With refuse_ok, a file whose filesystem
 * refuses O_DIRECT makes it return false rather than fail.  Whatever
 * happens, every thread has ended before it returns or raises an error.
 */
static bool
read_at_depth(SbFilePool *pool, const uint64 *first, int block_size,
			  const uint64 *chosen, uint64 ops, int depth, bool refuse_ok,
			  SbRandomResult *r)
{
	SbRandomFile *files = pool->files;
	int			nfiles = pool->nfiles;
	SbDepthRun	run;
	pthread_t  *threads;
	int			started = 0;
	int			create_err = 0;
	bool		cancelled = false;
	sigset_t	all,
				old;
	SbClock		clock;
	uint64		i;
	int			f;

	/* the entry's check, kept where the buffers are taken */
	sb_check_depth_memory(depth, block_size);
	memset(&run, 0, sizeof(run));
	run.pool = pool;
	run.first = first;
	run.nfiles = nfiles;
	run.block_size = block_size;
	run.chosen = chosen;
	run.ops = ops;
	run.lat_us = palloc_extended(sizeof(double) * ops, MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	pg_atomic_init_u64(&run.next, 0);
	pg_atomic_init_u64(&run.bytes, 0);
	pg_atomic_init_u32(&run.stop, 0);
	run.running = depth;
	pthread_mutex_init(&run.lock, NULL);
	pthread_cond_init(&run.ended, NULL);
	threads = palloc(sizeof(pthread_t) * depth);

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	sb_clock_start(&clock);
	for (f = 0; f < depth; f++)
	{
		create_err = pthread_create(&threads[f], NULL, depth_worker, &run);
		if (create_err != 0)
		{
			/* those not started count as ended */
			pg_atomic_write_u32(&run.stop, 1);
			worker_ends(&run, depth - f);
			break;
		}
		started++;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);

	/*
	 * The last thread to end wakes this one at once, so that the clock
	 * stops when the reads have ended; the 10 ms timeout is for a cancel.
	 */
	pthread_mutex_lock(&run.lock);
	while (run.running > 0)
	{
		struct timespec until;

		if (InterruptPending && !cancelled)
		{
			pg_atomic_write_u32(&run.stop, 1);
			cancelled = true;
		}
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += 10 * 1000 * 1000;
		if (until.tv_nsec >= 1000 * 1000 * 1000)
		{
			until.tv_sec++;
			until.tv_nsec -= 1000 * 1000 * 1000;
		}
		(void) pthread_cond_timedwait(&run.ended, &run.lock, &until);
	}
	pthread_mutex_unlock(&run.lock);
	sb_clock_stop(&clock, &r->timing);
	for (f = 0; f < started; f++)
		pthread_join(threads[f], NULL);
	pthread_mutex_destroy(&run.lock);
	pthread_cond_destroy(&run.ended);
	CHECK_FOR_INTERRUPTS();

	if (create_err != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_RESOURCES),
				 errmsg("could not start a thread for reads at depth %d: %s",
						depth, strerror(create_err)),
				 errhint("Ask for a smaller depth.")));
	if (run.err == ENOMEM && !run.err_open)
		ereport(ERROR,
				(errcode(ERRCODE_OUT_OF_MEMORY),
				 errmsg("out of memory for a buffer of %d bytes for reads at depth %d",
						block_size, depth)));
	if (run.err_open && refuse_ok && run.err == EINVAL &&
		files[run.err_file].direct)
	{
		pfree(run.lat_us);
		pfree(threads);
		return false;
	}
	if (run.err_open)
		report_open_failure(&files[run.err_file], run.err);
	if (run.err != 0 && run.err_done >= 0)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("could not read file \"%s\" at offset %lld: read only %zd of %d bytes",
						files[run.err_file].path, (long long) run.err_offset,
						run.err_done, block_size),
				 errdetail("The file is shorter than when the measurement began: something outside PostgreSQL truncated it.")));
	if (run.err != 0)
	{
		errno = run.err;
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not read %d bytes at offset %lld in file \"%s\": %m",
						block_size, (long long) run.err_offset,
						files[run.err_file].path)));
	}

	r->ops = ops;
	r->bytes = pg_atomic_read_u64(&run.bytes);
	r->min_offset = PG_UINT64_MAX;
	for (i = 0; i < ops; i++)
	{
		uint64		c = chosen ? chosen[i] : i;
		int			lo = file_of(first, nfiles, c);
		uint64		off = files[lo].base + (c - first[lo]) * block_size;

		r->min_offset = Min(r->min_offset, off);
		r->max_offset = Max(r->max_offset, off);
	}
	sb_sort(run.lat_us, (int) ops);
	r->p50_us = sb_percentile_sorted(run.lat_us, (int) ops, 50);
	r->p95_us = sb_percentile_sorted(run.lat_us, (int) ops, 95);
	r->p99_us = sb_percentile_sorted(run.lat_us, (int) ops, 99);

	pfree(run.lat_us);
	pfree(threads);
	return true;
}

/* Each file's first chunk, and the total after the last, in first[nfiles]. */
static uint64 *
chunk_starts(SbRandomFile *files, int nfiles)
{
	uint64	   *first = palloc(sizeof(uint64) * (nfiles + 1));
	uint64		total = 0;
	int			f;

	for (f = 0; f < nfiles; f++)
	{
		first[f] = total;
		total += files[f].chunks;
	}
	first[nfiles] = total;
	return first;
}

/* ops random reads of block_size bytes, depth of them in flight. */
void
sb_random_read_depth(SbRandomFile *files, int nfiles, int block_size,
					 uint64 ops, int depth, SbRandomResult *r)
{
	sb_random_read_drained(files, nfiles, block_size, 0, ops, depth, r);
}

/*
 * The same, after warmup reads of other blocks, untimed, at the same
 * depth and at once before them: under a rate limiter (a control group's
 * read throttle) the first reads after an idle gap fit in its allowance
 * and run faster than its rate, which the warmup drains, so that the
 * timed reads get the rate a long run gets.
 */
void
sb_random_read_drained(SbRandomFile *files, int nfiles, int block_size,
					   uint64 warmup, uint64 ops, int depth, SbRandomResult *r)
{
	uint64	   *first;
	uint64	   *chosen;
	bool		repeats;
	SbFilePool *pool;

	if (depth <= 1 && warmup == 0)
	{
		sb_random_io(files, nfiles, block_size, ops, false, r);
		return;
	}
	memset(r, 0, sizeof(SbRandomResult));
	r->p50_us = r->p95_us = r->p99_us = NAN;
	first = chunk_starts(files, nfiles);
	if (first[nfiles] == 0 || ops == 0)
		return;
	chosen = draw_offsets(first[nfiles], warmup + ops, &repeats);
	depth = Max(depth, 1);
	pool = pool_init(files, nfiles, depth);
	PG_TRY();
	{
		int			failed;
		int			err = pool_open_first(pool, &failed);

		if (err != 0)
			report_open_failure(&files[failed], err);
		if (warmup > 0)
		{
			SbRandomResult w;

			memset(&w, 0, sizeof(w));
			(void) read_at_depth(pool, first, block_size, chosen, warmup,
								 depth, false, &w);
		}
		(void) read_at_depth(pool, first, block_size, chosen + warmup, ops,
							 depth, false, r);
	}
	PG_FINALLY();
	{
		pool_close(pool);
	}
	PG_END_TRY();
	r->repeats = repeats;
	pfree(chosen);
	pfree(first);
}

/*
 * Every chunk of the files once, in order, depth of them in flight: the
 * sequential read fio --rw=read --iodepth=depth makes.  A file's chunks
 * are ceil(bytes / block_size), the last one shorter.  The files the
 * caller left closed are opened as the reads reach them, a bounded number
 * at once.  With refuse_ok, a filesystem that refuses O_DIRECT makes it
 * return false rather than fail.
 */
bool
sb_sequential_read_depth(SbRandomFile *files, int nfiles, int block_size,
						 int depth, bool refuse_ok, SbRandomResult *r)
{
	uint64	   *first;
	SbFilePool *pool;
	volatile bool done = true;

	memset(r, 0, sizeof(SbRandomResult));
	r->p50_us = r->p95_us = r->p99_us = NAN;
	first = chunk_starts(files, nfiles);
	if (first[nfiles] == 0)
	{
		pfree(first);
		return true;
	}
	depth = Max(depth, 1);
	pool = pool_init(files, nfiles, depth);
	PG_TRY();
	{
		int			failed;
		int			err = pool_open_first(pool, &failed);

		if (err == EINVAL && refuse_ok && files[failed].direct)
			done = false;
		else if (err != 0)
			report_open_failure(&files[failed], err);
		else
			done = read_at_depth(pool, first, block_size, NULL, first[nfiles],
								 depth, refuse_ok, r);
	}
	PG_FINALLY();
	{
		pool_close(pool);
	}
	PG_END_TRY();
	pfree(first);
	return done;
}
