/*-------------------------------------------------------------------------
 *
 * scratch.c
 *	  What lmdd, bonnie++, iozone and pgiosim measure, on a scratch file in
 *	  a tablespace: sequential write then fsync, rewrite, cold sequential
 *	  read, cold random reads and random writes (storage_profile), or the
 *	  sequential write alone (scan_efficiency's with_write).
 *
 * The scratch file is one of PostgreSQL's own temporary files, in a
 * directory of this backend's own inside the tablespace's pgsql_tmp
 * (scratchdir.c):
 *  - the resource owner closes it if the call errors or is cancelled;
 *  - the directory, the file in it and a pgsql_tmp the call had to create
 *    are removed at the end, on an error or cancel, and at backend exit
 *    after a FATAL (pg_terminate_backend); after a crash, the server's
 *    start-up clean-up removes them, or else the next call does;
 *  - temp_file_limit and log_temp_files apply to it as to a sort's.
 * So the tablespace looks the same afterwards whatever happened.
 *
 * Free space is checked with statvfs() before anything is written, and a
 * reserve is left: filling the filesystem that holds WAL or data files
 * would stop the server.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <fcntl.h>
#include <math.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "catalog/pg_tablespace.h"
#include "commands/tablespace.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "storage/fd.h"
#include "storage/ipc.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/memutils.h"
#include "utils/tuplestore.h"
#include "utils/wait_event.h"

#include "cache.h"
#include "clock.h"
#include "randio.h"
#include "scratch.h"
#include "scratchdir.h"
#include "stats.h"
#include "tablespace.h"

/* Room left free after the scratch file: 5 % of the filesystem, <= 1 GB. */
#define SB_RESERVE_SHARE	20
#define SB_RESERVE_MAX		((uint64) 1024 * 1024 * 1024)

#define SB_IO_ALIGN		4096

/* The scratch file and its directory. */
typedef struct SbScratch
{
	File		file;
	SbScratchDir dir;
	uint64		bytes;
	int			block_size;
	char	   *buf;			/* block_size bytes, aligned */
} SbScratch;

/*
 * The tablespace named, checked: it exists, can hold temporary files, and
 * the caller may create files in it (CREATE, as for temp_tablespaces;
 * like the server, not asked for the database's default tablespace).
 */
Oid
sb_check_write_tablespace(Oid spc)
{
	AclResult	aclresult;

	if (spc == GLOBALTABLESPACE_OID)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("tablespace \"pg_global\" cannot hold temporary files"),
				 errhint("Name pg_default or a tablespace created with CREATE TABLESPACE.")));
	if (spc != MyDatabaseTableSpace)
	{
		aclresult = sb_tablespace_aclcheck(spc, GetUserId(), ACL_CREATE);
		if (aclresult != ACLCHECK_OK)
			aclcheck_error(aclresult, OBJECT_TABLESPACE, get_tablespace_name(spc));
	}
	return spc;
}

/*
 * Bytes the filesystem under the tablespace can take while keeping its
 * reserve, or -1 if statvfs() fails; *fs_avail gets what is free in all.
 */
static int64
usable_bytes(Oid spc, uint64 *fs_avail, uint64 *reserve)
{
	struct statvfs vfs;
	char	   *dir = sb_tablespace_dir(spc);
	uint64		avail,
				total;

	if (statvfs(dir, &vfs) != 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not get free space of \"%s\": %m", dir)));
	avail = (uint64) vfs.f_bavail * vfs.f_frsize;
	total = (uint64) vfs.f_blocks * vfs.f_frsize;
	*fs_avail = avail;
	*reserve = Min(total / SB_RESERVE_SHARE, SB_RESERVE_MAX);
	return avail > *reserve ? (int64) (avail - *reserve) : 0;
}

/* Refuse a scratch file that does not fit, before anything is written. */
void
sb_scratch_check_space(Oid spc, uint64 bytes)
{
	uint64		avail,
				reserve;
	int64		usable = usable_bytes(spc, &avail, &reserve);

	if ((uint64) usable < bytes)
	{
		/* The largest size_mb the checks here then accept, if any. */
		int64		fits = usable;

		if (temp_file_limit >= 0)
			fits = Min(fits, (int64) temp_file_limit * 1024);
		ereport(ERROR,
				(errcode(ERRCODE_DISK_FULL),
				 errmsg("a %.0f MB scratch file does not fit in tablespace \"%s\"",
						bytes / SB_MB, get_tablespace_name(spc)),
				 errdetail("The filesystem has %.0f MB free, and %.0f MB of it are kept free.",
						   avail / SB_MB, reserve / SB_MB),
				 floor(fits / SB_MB) >= 1 ?
				 errhint("Pass a smaller size_mb, at most %.0f.",
						 floor(fits / SB_MB)) :
				 errhint("Not even 1 MB can be spared: free space in that filesystem, or measure another tablespace.")));
	}

	/* temp_file_limit is in kB and would stop the write half-way. */
	if (temp_file_limit >= 0 && bytes / 1024 > (uint64) temp_file_limit)
		ereport(ERROR,
				(errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
				 errmsg("a %.0f MB scratch file exceeds temp_file_limit (%d kB)",
						bytes / SB_MB, temp_file_limit),
				 errhint("Pass a smaller size_mb, or raise temp_file_limit.")));
}

/*
 * The scratch file, in the directory sb_scratch_dir_create made: named
 * here, so it is on the tablespace asked for (OpenTemporaryFile would pick
 * one from temp_tablespaces, and fall back quietly to the database's).
 */
static File
open_scratch(SbScratch *s)
{
	char		path[MAXPGPATH];

	sb_scratch_file_path(&s->dir, "profile", path, sizeof(path));
	return PathNameCreateTemporaryFile(path, true);
}

static void
sync_scratch(SbScratch *s)
{
	if (fdatasync(FileGetRawDesc(s->file)) != 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not fdatasync file \"%s\": %m",
						FilePathName(s->file))));
}

/*
 * Write the file out and drop it from the page cache, as raw_read's cold
 * mode does, and say how much of it is still resident (mincore).
 */
static double
evict_scratch(SbScratch *s)
{
	SbSegment	seg = {0};
	int			rc;

	sync_scratch(s);
	rc = posix_fadvise(FileGetRawDesc(s->file), 0, 0, POSIX_FADV_DONTNEED);
	if (rc != 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not evict \"%s\" from the page cache: %s",
						FilePathName(s->file), strerror(rc))));
	seg.path = FilePathName(s->file);
	seg.bytes = s->bytes;
	return sb_pct(sb_segment_os_blocks(&seg), s->bytes / BLCKSZ);
}

/*
 * A failed or short read or write of the scratch file.  A short write means
 * the filesystem filled up meanwhile; a short read cannot happen to a file
 * only this backend knows, but is never taken for success.
 */
static void
io_error(SbScratch *s, bool write, ssize_t done)
{
	if (done >= 0)
		errno = write ? ENOSPC : EIO;
	if (write)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not write file \"%s\": %m", FilePathName(s->file))));
	ereport(ERROR,
			(errcode_for_file_access(),
			 errmsg("could not read file \"%s\": %m", FilePathName(s->file))));
}

/* seq_write: lmdd of=file bs=block_size sync=1. */
static void
test_seq_write(SbScratch *s, SbTestResult *r)
{
	SbClock		clock;
	uint64		off;

	sb_clock_start(&clock);
	for (off = 0; off < s->bytes; off += s->block_size)
	{
		ssize_t		done;

		CHECK_FOR_INTERRUPTS();
		done = FileWrite(s->file, s->buf, s->block_size, off,
						 WAIT_EVENT_BUFFILE_WRITE);
		if (done != s->block_size)
			io_error(s, true, done);
		r->ops++;
	}
	sync_scratch(s);
	sb_clock_stop(&clock, &r->timing);
	r->bytes = s->bytes;
	r->cached_pct_before = NAN;
	r->done = true;
}

/*
 * seq_read, cold, as lmdd if=file bs=block_size; or, with rewrite, as
 * bonnie++ rewrites: read a block, change it, write it back in place, and
 * write the file out at the end.  The file is cold first either way.
 */
static void
sequential_pass(SbScratch *s, SbTestResult *r, bool rewrite)
{
	SbClock		clock;
	int			fd;
	uint64		off;

	r->cached_pct_before = evict_scratch(s);
	fd = FileGetRawDesc(s->file);
	sb_clock_start(&clock);
	for (off = 0; off < s->bytes; off += s->block_size)
	{
		ssize_t		done;

		CHECK_FOR_INTERRUPTS();
		done = pg_pread(fd, s->buf, s->block_size, off);
		if (done != s->block_size)
			io_error(s, false, done);
		if (rewrite)
		{
			s->buf[0]++;
			done = pg_pwrite(fd, s->buf, s->block_size, off);
			if (done != s->block_size)
				io_error(s, true, done);
		}
		r->ops++;
	}
	if (rewrite)
		sync_scratch(s);
	sb_clock_stop(&clock, &r->timing);
	r->bytes = s->bytes;
	r->done = true;
}

/*
 * random_read / random_write: cold, queue depth 1.  POSIX_FADV_RANDOM
 * turns read-ahead off for the descriptor, as fio does for random jobs:
 * otherwise each 8 kB read would drag in the kernel's read-ahead window.
 */
static void
test_random(SbScratch *s, uint64 ops, bool write, SbTestResult *r)
{
	SbRandomFile f;
	SbRandomResult rr;

	memset(&f, 0, sizeof(f));
	r->cached_pct_before = evict_scratch(s);
	f.fd = FileGetRawDesc(s->file);
	f.path = FilePathName(s->file);
	f.chunks = s->bytes / s->block_size;
	f.base = 0;
	(void) posix_fadvise(f.fd, 0, 0, POSIX_FADV_RANDOM);
	sb_random_io(&f, 1, s->block_size, ops, write, &rr);
	(void) posix_fadvise(f.fd, 0, 0, POSIX_FADV_NORMAL);

	r->random = true;
	r->repeats = rr.repeats;
	r->bytes = rr.bytes;
	r->ops = rr.ops;
	r->timing = rr.timing;
	r->p50_us = rr.p50_us;
	r->p95_us = rr.p95_us;
	r->p99_us = rr.p99_us;
	r->done = true;
}

/*
 * Create the scratch file, run the tests (all, or seq_write alone), and
 * remove it whatever happens.
 */
void
sb_scratch_run(Oid spc, uint64 bytes, int block_size, uint64 random_ops,
			   bool write_only, SbTestResult *results)
{
	SbScratch	s = {0};
	char	   *raw = palloc(block_size + SB_IO_ALIGN);
	int			i;

	s.bytes = bytes;
	s.block_size = block_size;
	s.buf = (char *) TYPEALIGN(SB_IO_ALIGN, raw);
	/* Data that no filesystem can compress or skip. */
	for (i = 0; i < block_size; i++)
		s.buf[i] = (char) (i * 131 + 7);
	memset(results, 0, sizeof(SbTestResult) * SB_NTESTS);

	/*
	 * On an error the callback removes the directory while the file is still
	 * open (the resource owner closes it next); after a FATAL it runs at
	 * exit, before fd.c closes the file.
	 */
	sb_scratch_dir_create(spc, &s.dir);
	PG_ENSURE_ERROR_CLEANUP(sb_scratch_dir_cleanup, PointerGetDatum(&s.dir));
	{
		s.file = open_scratch(&s);
		test_seq_write(&s, &results[SB_SEQ_WRITE]);
		if (!write_only)
		{
			sequential_pass(&s, &results[SB_REWRITE], true);
			sequential_pass(&s, &results[SB_SEQ_READ], false);
			test_random(&s, random_ops, false, &results[SB_RANDOM_READ]);
			test_random(&s, random_ops, true, &results[SB_RANDOM_WRITE]);
		}
	}
	PG_END_ENSURE_ERROR_CLEANUP(sb_scratch_dir_cleanup, PointerGetDatum(&s.dir));
	FileClose(s.file);
	sb_scratch_dir_remove(&s.dir);
	pfree(raw);
}

/*
 * MB/s of a sequential write then fdatasync of bytes (the relation's
 * size) in the tablespace, for scan_efficiency(with_write): of a smaller
 * file where free space is short, or NaN where not even
 * SB_MIN_WRITE_BYTES fit, each with a NOTICE.
 */
#define SB_MIN_WRITE_BYTES	((uint64) 64 * 1000 * 1000)

double
sb_write_mb_s(Oid spc, uint64 bytes, int block_size)
{
	SbTestResult results[SB_NTESTS];
	uint64		avail,
				reserve;
	int64		usable = usable_bytes(spc, &avail, &reserve);
	SbTestResult *w = &results[SB_SEQ_WRITE];
	uint64		asked;

	if (temp_file_limit >= 0)
		usable = Min(usable, (int64) temp_file_limit * 1024);
	asked = bytes - bytes % block_size;
	bytes = Min(asked, (uint64) Max(usable, 0));
	bytes -= bytes % block_size;

	/*
	 * Less room than the relation's size: a smaller file, said so; but a
	 * few blocks are written at the page cache's speed, which is no write
	 * rate of the storage: none under SB_MIN_WRITE_BYTES, said so too.
	 */
	if (bytes < asked && bytes < SB_MIN_WRITE_BYTES)
	{
		ereport(NOTICE,
				(errmsg("write_mb_s is NULL: tablespace \"%s\" has room for %.0f MB, less than the %.0f MB a write rate needs",
						get_tablespace_name(spc), bytes / SB_MB,
						Min(asked, SB_MIN_WRITE_BYTES) / SB_MB),
				 errdetail("The filesystem has %.0f MB free, %.0f MB of it kept free%s.",
						   avail / SB_MB, reserve / SB_MB,
						   temp_file_limit >= 0 ?
						   psprintf(", and temp_file_limit is %d kB", temp_file_limit) : ""),
				 errhint("Free space in that filesystem, or measure the write rate elsewhere with storage_profile().")));
		return NAN;
	}
	if (bytes == 0)
		return NAN;				/* an empty relation: nothing to write */
	if (bytes < asked)
		ereport(NOTICE,
				(errmsg("write_mb_s is from a %.0f MB file, not %.0f MB: that is all tablespace \"%s\" has room for",
						bytes / SB_MB, asked / SB_MB, get_tablespace_name(spc)),
				 errdetail("The filesystem has %.0f MB free, %.0f MB of it kept free%s.",
						   avail / SB_MB, reserve / SB_MB,
						   temp_file_limit >= 0 ?
						   psprintf(", and temp_file_limit is %d kB", temp_file_limit) : "")));
	sb_scratch_run(spc, bytes, block_size, 0, true, results);
	return sb_rate(w->bytes / SB_MB, w->timing.seconds);
}

static const char *const test_names[SB_NTESTS] = {
	"seq_write", "rewrite", "seq_read", "random_read", "random_write"
};

/* A test's name, as storage_profile's rows and NOTICEs give it. */
const char *
sb_scratch_test_name(SbTest test)
{
	return test_names[test];
}

/*
 * storage_profile's tests (sb_scratch_run, all of them), and a NOTICE
 * where a random test's figures are partly the page cache's.
 */
void
sb_scratch_profile(Oid spc, uint64 bytes, int block_size, uint64 random_ops,
				   SbTestResult *results)
{
	int			i;

	sb_scratch_run(spc, bytes, block_size, random_ops, false, results);

	/*
	 * Random rates that the page cache served are not the storage's: say
	 * so where a block was read twice or the file was still cached.
	 */
	for (i = 0; i < SB_NTESTS; i++)
	{
		SbTestResult *r = &results[i];

		if (!r->random)
			continue;
		if (r->repeats)
			ereport(NOTICE,
					(errmsg("%s: %llu operations on %llu blocks of %d bytes touched some blocks twice, which the page cache may have served",
							test_names[i], (unsigned long long) r->ops,
							(unsigned long long) (bytes / block_size), block_size),
					 errhint("Pass a larger size_mb or fewer random_ops.")));
		if (r->cached_pct_before >= 10)
			ereport(NOTICE,
					(errmsg("%s: %.0f %% of the scratch file was still in the page cache before it: its figures are partly the page cache's",
							test_names[i], r->cached_pct_before),
					 errdetail("The filesystem under the tablespace did not drop the file's pages when asked (tmpfs keeps them).")));
	}
}
