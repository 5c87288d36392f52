/*
 * posix_io_preload.c
 *	  The failure points of libfiu's POSIX preload that t/024_io_faults.pl
 *	  needs, for a PostgreSQL server.
 *
 * Debian's fiu_posix_preload.so exports its own hash_create(), which the
 * postgres executable's hash_create() (dynahash) overrides: the server
 * crashes as it starts under "fiu-run -x".  This library wraps the calls
 * scanbench's reads go through, under the same failure point names, with
 * libfiu's own engine (fiu_fail, fiu_failinfo), so that fiu-run -l and
 * fiu-ctrl drive it as they drive the original.  An enabled point fails
 * the call with the errno given as failinfo (EIO when none); a "reduce"
 * point halves the length asked for, a short read.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

extern int	fiu_fail(const char *name);
extern void *fiu_failinfo(void);

static int
fail_errno(void)
{
	long		e = (long) fiu_failinfo();

	return e != 0 ? (int) e : EIO;
}

#define REAL(type, name, args) \
	static type (*real_##name) args; \
	if (real_##name == NULL) \
		real_##name = (type (*) args) dlsym(RTLD_NEXT, #name)

ssize_t
read(int fd, void *buf, size_t count)
{
	REAL(ssize_t, read, (int, void *, size_t));
	if (fiu_fail("posix/io/rw/read"))
	{
		errno = fail_errno();
		return -1;
	}
	if (count > 1 && fiu_fail("posix/io/rw/read/reduce"))
		count /= 2;
	return real_read(fd, buf, count);
}

static ssize_t
do_pread(ssize_t (*real) (int, void *, size_t, off_t),
		 int fd, void *buf, size_t count, off_t offset)
{
	if (fiu_fail("posix/io/rw/pread"))
	{
		errno = fail_errno();
		return -1;
	}
	if (count > 1 && fiu_fail("posix/io/rw/pread/reduce"))
		count /= 2;
	return real(fd, buf, count, offset);
}

ssize_t
pread(int fd, void *buf, size_t count, off_t offset)
{
	REAL(ssize_t, pread, (int, void *, size_t, off_t));
	return do_pread(real_pread, fd, buf, count, offset);
}

ssize_t
pread64(int fd, void *buf, size_t count, off_t offset)
{
	REAL(ssize_t, pread64, (int, void *, size_t, off_t));
	return do_pread(real_pread64, fd, buf, count, offset);
}

static ssize_t
do_preadv(ssize_t (*real) (int, const struct iovec *, int, off_t),
		  int fd, const struct iovec *iov, int iovcnt, off_t offset)
{
	if (fiu_fail("posix/io/rw/preadv"))
	{
		errno = fail_errno();
		return -1;
	}
	/* A short read: the first buffer only. */
	if (iovcnt > 1 && fiu_fail("posix/io/rw/preadv/reduce"))
		iovcnt = 1;
	return real(fd, iov, iovcnt, offset);
}

ssize_t
preadv(int fd, const struct iovec *iov, int iovcnt, off_t offset)
{
	REAL(ssize_t, preadv, (int, const struct iovec *, int, off_t));
	return do_preadv(real_preadv, fd, iov, iovcnt, offset);
}

ssize_t
preadv64(int fd, const struct iovec *iov, int iovcnt, off_t offset)
{
	REAL(ssize_t, preadv64, (int, const struct iovec *, int, off_t));
	return do_preadv(real_preadv64, fd, iov, iovcnt, offset);
}

static void *
do_mmap(void *(*real) (void *, size_t, int, int, int, off_t),
		void *addr, size_t length, int prot, int flags, int fd, off_t offset)
{
	if (fiu_fail("posix/mm/mmap"))
	{
		errno = fail_errno();
		return MAP_FAILED;
	}
	return real(addr, length, prot, flags, fd, offset);
}

void *
mmap(void *addr, size_t length, int prot, int flags, int fd, off_t offset)
{
	REAL(void *, mmap, (void *, size_t, int, int, int, off_t));
	return do_mmap(real_mmap, addr, length, prot, flags, fd, offset);
}

void *
mmap64(void *addr, size_t length, int prot, int flags, int fd, off_t offset)
{
	REAL(void *, mmap64, (void *, size_t, int, int, int, off_t));
	return do_mmap(real_mmap64, addr, length, prot, flags, fd, offset);
}
