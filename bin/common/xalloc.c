/*
 * xalloc.c: memory that is there or ends the program, for the client
 * programs that have nothing better to do when it is not (scanbench-fleet,
 * scanbench-probe); the message itself is cli.c's.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "xalloc.h"

void *
xmalloc(size_t n)
{
	void	   *p = calloc(1, n ? n : 1);

	if (p == NULL)
	{
		log_error("out of memory");
		exit(XALLOC_EXIT);
	}
	return p;
}

/*
 * Room for need more items of size bytes after the first len of a buffer
 * that holds *cap of them, and one more besides (a string's terminator):
 * the buffer itself, or a copy at least twice as large with the old one
 * freed.  What the copy holds beyond len is zero, as xmalloc's memory is.
 */
void *
xreserve(void *buf, size_t len, size_t need, size_t *cap, size_t size)
{
	size_t		ncap = *cap;
	void	   *more;

	if (len + need < ncap)
		return buf;
	while (len + need >= ncap)
		ncap *= 2;
	more = xmalloc(ncap * size);
	memcpy(more, buf, len * size);
	free(buf);
	*cap = ncap;
	return more;
}

char *
xstrdup(const char *s)
{
	char	   *p;

	if (s == NULL)
		return NULL;
	p = xmalloc(strlen(s) + 1);
	strcpy(p, s);
	return p;
}

char *
xprintf(const char *fmt,...)
{
	va_list		ap;
	int			n;
	char	   *p;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	p = xmalloc((size_t) n + 1);
	va_start(ap, fmt);
	vsnprintf(p, (size_t) n + 1, fmt, ap);
	va_end(ap);
	return p;
}
