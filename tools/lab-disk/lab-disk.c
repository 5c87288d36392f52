/*
 * lab-disk: a disk of known latency, depth, IOPS and bytes for the lab.
 *
 * A FUSE file system that passes every file of a backing directory through
 * unchanged, reads and writes alike (PostgreSQL opens relation files
 * read-write), and serves each read request as a device of four numbers
 * would:
 *
 *   latency_us  every read request takes this long from the moment it is
 *               served (the data is copied meanwhile, so it adds nothing);
 *   depth       at most this many read requests are served at once; the
 *               others wait their turn, in order of arrival;
 *   iops        at most this many requests start a second;
 *   mb_s        at most this many MB (10^6 bytes) start a second.
 *
 * A request also spends time outside this program (the kernel hands it
 * over and copies the reply: about 0.1 ms, and 0.3 ms more for a MB, on a
 * 2-vCPU VM).  overhead_us and overhead_us_mb, measured at mount by
 * tools/lab.sh disk-mount, are taken off the latency so that the reader
 * sees the latency set.
 *
 * So a reader keeping k requests of s bytes in flight gets
 * min(k, depth) * s / latency, and no more than iops * s or mb_s.  The caps
 * keep no allowance: a request after an idle gap starts no earlier than
 * one every 1/iops seconds would (there is no burst to drain).  Writes and
 * everything else are passed through without delay.
 *
 * FUSE's own passthrough mode would hand reads to the backing file in the
 * kernel and skip the delay, so every read comes here.  The page cache
 * stays on (kernel_cache): buffered reads get the kernel's read-ahead, and
 * posix_fadvise(DONTNEED) on a file here drops its pages as on a disk.
 * O_DIRECT reads bypass it, as on a disk.  What decides how many requests
 * reach us at once is set at mount (tools/lab.sh disk-mount): max_read and
 * max_pages (1 MB requests), max_background (read-ahead and asynchronous
 * O_DIRECT requests in flight), the multithreaded loop's max_threads (one
 * thread serves one request, and a request waiting for its latency holds
 * its thread).
 *
 * The numbers are set and the counters read through a file at the top of
 * the mount, /.lab-disk:
 *
 *   echo "latency_us=1000 depth=4 iops=0 mb_s=0" > MNT/.lab-disk
 *   echo reset > MNT/.lab-disk        counters back to zero
 *   cat MNT/.lab-disk                 the numbers and the counters
 *
 * 0 means no limit.  Usage:
 *
 *   lab-disk BACKING MOUNTPOINT [FUSE options] [-o latency_us=N,depth=N,...]
 */
#define FUSE_USE_VERSION 312
#define _GNU_SOURCE

#include <fuse.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define CONTROL "/.lab-disk"
#define NS 1000000000LL
#define MAX_DEPTH 1024

struct params
{
	long		latency_us;
	long		depth;
	long		iops;
	long		mb_s;
	/* the layer's own time per request, taken off the latency */
	long		overhead_us;
	long		overhead_us_mb;
};

static struct
{
	char	   *backing;
	int			dirfd;
	struct params p;
	pthread_mutex_t lock;
	/* when each of the depth places is free again */
	int64_t		free_at[MAX_DEPTH];
	/* the earliest start of the next request under each cap */
	int64_t		next_io_ns;
	int64_t		next_byte_ns;
	/* counters since mount or reset */
	uint64_t	reads;
	uint64_t	read_bytes;
	uint64_t	writes;
	uint64_t	write_bytes;
	long		arrived;		/* read requests here now */
	long		arrived_max;
	size_t		read_max;		/* the largest request */
}			ld = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.dirfd = -1,
};

static int64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t) ts.tv_sec * NS + ts.tv_nsec;
}

static void
sleep_until(int64_t t)
{
	struct timespec ts = {.tv_sec = t / NS,.tv_nsec = t % NS};

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/* "" for the mount's top, else the path without its leading slash */
static const char *
rel(const char *path)
{
	while (*path == '/')
		path++;
	return *path ? path : ".";
}

static int
is_control(const char *path)
{
	return path && strcmp(path, CONTROL) == 0;
}

/* the open control file's handle: no backing file */
#define CONTROL_FH ((uint64_t) -2)
#define NO_FH(fi) (!(fi) || (fi)->fh == CONTROL_FH)

/*
 * Files made by a root daemon mounted with allow_other belong to whoever
 * asked for them, as on a disk.
 */
static void
own(const char *path)
{
	struct fuse_context *c = fuse_get_context();

	if (geteuid() == 0 && c && c->uid != 0)
		(void) fchownat(ld.dirfd, rel(path), c->uid, c->gid, AT_SYMLINK_NOFOLLOW);
}

static size_t
control_text(char *buf, size_t len)
{
	int			n;

	pthread_mutex_lock(&ld.lock);
	n = snprintf(buf, len,
				 "latency_us=%ld depth=%ld iops=%ld mb_s=%ld"
				 " overhead_us=%ld overhead_us_mb=%ld\n"
				 "reads=%" PRIu64 " read_bytes=%" PRIu64
				 " writes=%" PRIu64 " write_bytes=%" PRIu64
				 " in_flight_max=%ld read_max=%zu\n",
				 ld.p.latency_us, ld.p.depth, ld.p.iops, ld.p.mb_s,
				 ld.p.overhead_us, ld.p.overhead_us_mb,
				 ld.reads, ld.read_bytes, ld.writes, ld.write_bytes,
				 ld.arrived_max, ld.read_max);
	pthread_mutex_unlock(&ld.lock);
	return n < 0 ? 0 : ((size_t) n < len ? (size_t) n : len - 1);
}

/* "latency_us=N depth=N iops=N mb_s=N" (any of them) or "reset" */
static int
control_write(const char *buf, size_t size)
{
	char		text[512];
	char	   *tok,
			   *save;
	struct params p;
	int			reset = 0;

	if (size >= sizeof(text))
		return -EINVAL;
	memcpy(text, buf, size);
	text[size] = '\0';
	pthread_mutex_lock(&ld.lock);
	p = ld.p;
	pthread_mutex_unlock(&ld.lock);
	for (tok = strtok_r(text, " \t\n,", &save); tok; tok = strtok_r(NULL, " \t\n,", &save))
	{
		char	   *eq = strchr(tok, '='),
				   *end;
		long		v;

		if (strcmp(tok, "reset") == 0)
		{
			reset = 1;
			continue;
		}
		if (!eq)
			return -EINVAL;
		*eq = '\0';
		errno = 0;
		v = strtol(eq + 1, &end, 10);
		if (errno || *end || end == eq + 1 || v < 0 || v > 100000000)
			return -EINVAL;
		if (strcmp(tok, "latency_us") == 0)
			p.latency_us = v;
		else if (strcmp(tok, "depth") == 0 && v <= MAX_DEPTH)
			p.depth = v;
		else if (strcmp(tok, "iops") == 0)
			p.iops = v;
		else if (strcmp(tok, "mb_s") == 0)
			p.mb_s = v;
		else if (strcmp(tok, "overhead_us") == 0)
			p.overhead_us = v;
		else if (strcmp(tok, "overhead_us_mb") == 0)
			p.overhead_us_mb = v;
		else
			return -EINVAL;
	}
	pthread_mutex_lock(&ld.lock);
	ld.p = p;
	if (reset)
	{
		ld.reads = ld.read_bytes = ld.writes = ld.write_bytes = 0;
		ld.arrived_max = ld.arrived;
		ld.read_max = 0;
	}
	/* a changed device starts from now, with no allowance saved up */
	ld.next_io_ns = ld.next_byte_ns = 0;
	memset(ld.free_at, 0, sizeof(ld.free_at));
	pthread_mutex_unlock(&ld.lock);
	return (int) size;
}

/*
 * One read request served as the device would.  Its times are worked out
 * when it arrives, as a queue of depth servers in order of arrival: it
 * starts when it has arrived and the earliest of the depth places is free,
 * it holds that place for the latency, and it cannot end before the caps
 * let it start.  The thread then sleeps until that end.  Working the
 * times out at arrival, rather than waking each waiting request when a
 * place frees, keeps the scheduler's wake-up delays (a few tenths of a ms
 * on a busy machine) from adding up along the queue: each request is late
 * by one such delay at most, never by those of the requests before it.
 */
static int
device_read(int fd, char *buf, size_t size, off_t off)
{
	int64_t		t0,
				start,
				end,
				own_ns;
	int			slot = -1;
	ssize_t		n;

	pthread_mutex_lock(&ld.lock);
	if (++ld.arrived > ld.arrived_max)
		ld.arrived_max = ld.arrived;
	t0 = now_ns();
	start = t0;
	if (ld.p.depth > 0)
	{
		int			i;

		slot = 0;
		for (i = 1; i < ld.p.depth && i < MAX_DEPTH; i++)
			if (ld.free_at[i] < ld.free_at[slot])
				slot = i;
		if (ld.free_at[slot] > start)
			start = ld.free_at[slot];
	}
	end = start + (int64_t) ld.p.latency_us * 1000;
	if (ld.p.iops > 0)
	{
		int64_t		t = ld.next_io_ns > start ? ld.next_io_ns : start;

		ld.next_io_ns = t + NS / ld.p.iops;
		if (t > end)
			end = t;
	}
	if (ld.p.mb_s > 0)
	{
		int64_t		t = ld.next_byte_ns > start ? ld.next_byte_ns : start;

		ld.next_byte_ns = t + (int64_t) size * 1000 / ld.p.mb_s;
		if (t > end)
			end = t;
	}
	if (slot >= 0)
		ld.free_at[slot] = end;
	pthread_mutex_unlock(&ld.lock);

	n = pread(fd, buf, size, off);
	/* what the kernel spends outside this program is part of the latency */
	own_ns = (int64_t) ld.p.overhead_us * 1000 +
		(int64_t) size * ld.p.overhead_us_mb / 1000;
	if (end - own_ns > t0)
		sleep_until(end - own_ns);

	pthread_mutex_lock(&ld.lock);
	ld.arrived--;
	ld.reads++;
	if (n > 0)
		ld.read_bytes += n;
	if (size > ld.read_max)
		ld.read_max = size;
	pthread_mutex_unlock(&ld.lock);
	return n < 0 ? -errno : (int) n;
}

static void *
ld_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
	/*
	 * Requests of up to 1 MB (max_pages follows max_write), and enough
	 * asynchronous ones in flight (read-ahead, O_DIRECT through libaio or
	 * io_uring) for any depth the lab sets.
	 */
	conn->max_write = 1024 * 1024;
	conn->max_background = 128;
	conn->congestion_threshold = 96;
	if (conn->capable & FUSE_CAP_ASYNC_READ)
		conn->want |= FUSE_CAP_ASYNC_READ;
	if (conn->capable & FUSE_CAP_ASYNC_DIO)
		conn->want |= FUSE_CAP_ASYNC_DIO;
	conn->want &= ~FUSE_CAP_SPLICE_READ;
	/* this daemon alone changes the files: keep their pages and attributes */
	cfg->kernel_cache = 1;
	cfg->entry_timeout = 60;
	cfg->attr_timeout = 60;
	cfg->negative_timeout = 0;
	cfg->use_ino = 1;
	return NULL;
}

static int
ld_getattr(const char *path, struct stat *st, struct fuse_file_info *fi)
{
	if (is_control(path))
	{
		memset(st, 0, sizeof(*st));
		st->st_mode = S_IFREG | 0666;
		st->st_nlink = 1;
		st->st_size = 4096;
		st->st_ino = 1;
		return 0;
	}
	if (!NO_FH(fi))
		return fstat((int) fi->fh, st) < 0 ? -errno : 0;
	return fstatat(ld.dirfd, rel(path), st, AT_SYMLINK_NOFOLLOW) < 0 ? -errno : 0;
}

static int
ld_access(const char *path, int mask)
{
	if (is_control(path))
		return 0;
	return faccessat(ld.dirfd, rel(path), mask, 0) < 0 ? -errno : 0;
}

static int
ld_readlink(const char *path, char *buf, size_t size)
{
	ssize_t		n = readlinkat(ld.dirfd, rel(path), buf, size - 1);

	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return 0;
}

static int
ld_readdir(const char *path, void *buf, fuse_fill_dir_t fill, off_t off,
		   struct fuse_file_info *fi, enum fuse_readdir_flags flags)
{
	int			fd;
	DIR		   *d;
	struct dirent *e;

	(void) off;
	(void) fi;
	(void) flags;
	fd = openat(ld.dirfd, rel(path), O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		return -errno;
	d = fdopendir(fd);
	if (!d)
	{
		close(fd);
		return -errno;
	}
	while ((e = readdir(d)) != NULL)
	{
		struct stat st = {.st_ino = e->d_ino,.st_mode = DTTOIF(e->d_type)};

		if (fill(buf, e->d_name, &st, 0, 0))
			break;
	}
	closedir(d);
	return 0;
}

static int
ld_mknod(const char *path, mode_t mode, dev_t rdev)
{
	if (mknodat(ld.dirfd, rel(path), mode, rdev) < 0)
		return -errno;
	own(path);
	return 0;
}

static int
ld_mkdir(const char *path, mode_t mode)
{
	if (mkdirat(ld.dirfd, rel(path), mode) < 0)
		return -errno;
	own(path);
	return 0;
}

static int
ld_unlink(const char *path)
{
	return unlinkat(ld.dirfd, rel(path), 0) < 0 ? -errno : 0;
}

static int
ld_rmdir(const char *path)
{
	return unlinkat(ld.dirfd, rel(path), AT_REMOVEDIR) < 0 ? -errno : 0;
}

static int
ld_symlink(const char *to, const char *path)
{
	if (symlinkat(to, ld.dirfd, rel(path)) < 0)
		return -errno;
	own(path);
	return 0;
}

static int
ld_rename(const char *from, const char *to, unsigned int flags)
{
	return renameat2(ld.dirfd, rel(from), ld.dirfd, rel(to), flags) < 0 ? -errno : 0;
}

static int
ld_link(const char *from, const char *to)
{
	return linkat(ld.dirfd, rel(from), ld.dirfd, rel(to), 0) < 0 ? -errno : 0;
}

static int
ld_chmod(const char *path, mode_t mode, struct fuse_file_info *fi)
{
	if (is_control(path))
		return 0;
	if (!NO_FH(fi))
		return fchmod((int) fi->fh, mode) < 0 ? -errno : 0;
	return fchmodat(ld.dirfd, rel(path), mode, 0) < 0 ? -errno : 0;
}

static int
ld_chown(const char *path, uid_t uid, gid_t gid, struct fuse_file_info *fi)
{
	if (is_control(path))
		return 0;
	if (!NO_FH(fi))
		return fchown((int) fi->fh, uid, gid) < 0 ? -errno : 0;
	return fchownat(ld.dirfd, rel(path), uid, gid, AT_SYMLINK_NOFOLLOW) < 0 ? -errno : 0;
}

static int
ld_truncate(const char *path, off_t size, struct fuse_file_info *fi)
{
	int			fd,
				rc;

	if (is_control(path))
		return 0;
	if (!NO_FH(fi))
		return ftruncate((int) fi->fh, size) < 0 ? -errno : 0;
	fd = openat(ld.dirfd, rel(path), O_WRONLY);
	if (fd < 0)
		return -errno;
	rc = ftruncate(fd, size) < 0 ? -errno : 0;
	close(fd);
	return rc;
}

static int
ld_utimens(const char *path, const struct timespec tv[2], struct fuse_file_info *fi)
{
	if (is_control(path))
		return 0;
	if (!NO_FH(fi))
		return futimens((int) fi->fh, tv) < 0 ? -errno : 0;
	return utimensat(ld.dirfd, rel(path), tv, AT_SYMLINK_NOFOLLOW) < 0 ? -errno : 0;
}

/*
 * O_DIRECT is left to the kernel, which sends such reads here without the
 * page cache; the backing file is opened without it (its own page cache
 * keeps the data at hand, so that the delay is the latency set).
 */
static int
ld_open(const char *path, struct fuse_file_info *fi)
{
	int			fd;

	if (is_control(path))
	{
		fi->fh = CONTROL_FH;
		fi->direct_io = 1;
		return 0;
	}
	fd = openat(ld.dirfd, rel(path), fi->flags & ~(O_DIRECT | O_CREAT | O_EXCL | O_TRUNC | O_NOCTTY));
	if (fd < 0)
		return -errno;
	if (fi->flags & O_TRUNC && ftruncate(fd, 0) < 0)
	{
		int			e = errno;

		close(fd);
		return -e;
	}
	fi->fh = fd;
	return 0;
}

static int
ld_create(const char *path, mode_t mode, struct fuse_file_info *fi)
{
	int			fd = openat(ld.dirfd, rel(path), (fi->flags & ~O_DIRECT) | O_CREAT, mode);

	if (fd < 0)
		return -errno;
	fi->fh = fd;
	own(path);
	return 0;
}

static int
ld_read(const char *path, char *buf, size_t size, off_t off, struct fuse_file_info *fi)
{
	(void) path;
	if (fi->fh == CONTROL_FH)
	{
		char		text[1024];
		size_t		n = control_text(text, sizeof(text));

		if ((size_t) off >= n)
			return 0;
		n -= off;
		if (n > size)
			n = size;
		memcpy(buf, text + off, n);
		return (int) n;
	}
	return device_read((int) fi->fh, buf, size, off);
}

static int
ld_write(const char *path, const char *buf, size_t size, off_t off, struct fuse_file_info *fi)
{
	ssize_t		n;

	(void) path;
	if (fi->fh == CONTROL_FH)
		return control_write(buf, size);
	n = pwrite((int) fi->fh, buf, size, off);
	if (n < 0)
		return -errno;
	pthread_mutex_lock(&ld.lock);
	ld.writes++;
	ld.write_bytes += n;
	pthread_mutex_unlock(&ld.lock);
	return (int) n;
}

static int
ld_statfs(const char *path, struct statvfs *st)
{
	(void) path;
	return fstatvfs(ld.dirfd, st) < 0 ? -errno : 0;
}

static int
ld_release(const char *path, struct fuse_file_info *fi)
{
	(void) path;
	if (fi->fh != CONTROL_FH)
		close((int) fi->fh);
	return 0;
}

static int
ld_fsync(const char *path, int datasync, struct fuse_file_info *fi)
{
	(void) path;
	if (fi->fh == CONTROL_FH)
		return 0;
	return (datasync ? fdatasync((int) fi->fh) : fsync((int) fi->fh)) < 0 ? -errno : 0;
}

static int
ld_fallocate(const char *path, int mode, off_t off, off_t len, struct fuse_file_info *fi)
{
	(void) path;
	if (fi->fh == CONTROL_FH)
		return -EOPNOTSUPP;
	return fallocate((int) fi->fh, mode, off, len) < 0 ? -errno : 0;
}

static off_t
ld_lseek(const char *path, off_t off, int whence, struct fuse_file_info *fi)
{
	off_t		r;

	(void) path;
	if (fi->fh == CONTROL_FH)
		return -ESPIPE;
	r = lseek((int) fi->fh, off, whence);
	return r < 0 ? -errno : r;
}

static const struct fuse_operations ops = {
	.init = ld_init,
	.getattr = ld_getattr,
	.access = ld_access,
	.readlink = ld_readlink,
	.readdir = ld_readdir,
	.mknod = ld_mknod,
	.mkdir = ld_mkdir,
	.unlink = ld_unlink,
	.rmdir = ld_rmdir,
	.symlink = ld_symlink,
	.rename = ld_rename,
	.link = ld_link,
	.chmod = ld_chmod,
	.chown = ld_chown,
	.truncate = ld_truncate,
	.utimens = ld_utimens,
	.open = ld_open,
	.create = ld_create,
	.read = ld_read,
	.write = ld_write,
	.statfs = ld_statfs,
	.release = ld_release,
	.fsync = ld_fsync,
	.fallocate = ld_fallocate,
	.lseek = ld_lseek,
};

#define LD_OPT(t, p) { t, offsetof(struct params, p), 0 }
static const struct fuse_opt ld_opts[] = {
	LD_OPT("latency_us=%ld", latency_us),
	LD_OPT("depth=%ld", depth),
	LD_OPT("iops=%ld", iops),
	LD_OPT("mb_s=%ld", mb_s),
	LD_OPT("overhead_us=%ld", overhead_us),
	LD_OPT("overhead_us_mb=%ld", overhead_us_mb),
	FUSE_OPT_END
};

int
main(int argc, char *argv[])
{
	struct fuse_args args = FUSE_ARGS_INIT(0, NULL);
	int			i;

	if (argc < 3 || argv[1][0] == '-')
	{
		fprintf(stderr,
				"usage: %s BACKING MOUNTPOINT [FUSE options] [-o latency_us=N,depth=N,iops=N,mb_s=N]\n",
				argv[0]);
		return 2;
	}
	ld.backing = realpath(argv[1], NULL);
	if (!ld.backing || (ld.dirfd = open(ld.backing, O_RDONLY | O_DIRECTORY)) < 0)
	{
		fprintf(stderr, "%s: could not open directory \"%s\": %s\n", argv[0], argv[1], strerror(errno));
		return 1;
	}
	/* argv without BACKING, for FUSE */
	fuse_opt_add_arg(&args, argv[0]);
	for (i = 2; i < argc; i++)
		fuse_opt_add_arg(&args, argv[i]);
	if (fuse_opt_parse(&args, &ld.p, ld_opts, NULL) < 0)
		return 2;
	if (ld.p.depth < 0 || ld.p.depth > MAX_DEPTH)
	{
		fprintf(stderr, "%s: depth must be between 0 and %d\n", argv[0], MAX_DEPTH);
		return 2;
	}
	/*
	 * A sleep of a millisecond may otherwise end 50 us late (the default
	 * timer slack), and the serving threads inherit this one's.
	 */
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	umask(0);
	return fuse_main(args.argc, args.argv, &ops, NULL);
}
