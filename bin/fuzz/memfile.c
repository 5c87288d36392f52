/*
 * memfile.c: a harness's input written to one file in memory (memfd),
 * made on the first call and emptied and written again on each; the
 * parser opens it by its /proc path.  Nothing touches the disk, and a
 * run of millions of inputs makes one file.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "memfile.h"

static int	fd = -1;
static char path[64];

const char *
memfile_path(const uint8_t *data, size_t size)
{
	if (fd < 0)
	{
		fd = memfd_create("fuzz-input", 0);
		if (fd < 0)
			abort();
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) != 0 ||
		(size > 0 && pwrite(fd, data, size, 0) != (ssize_t) size))
		abort();
	return path;
}
