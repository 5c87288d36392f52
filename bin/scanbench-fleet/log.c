/*
 * log.c: error messages ("scanbench-fleet: error: ..." on stderr), memory
 * that is there or ends the program, and a row's values by column name.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fleet.h"

static void vlog_error(const char *fmt, va_list ap) PRINTF_LIKE(1, 0);

static void
vlog_error(const char *fmt, va_list ap)
{
	fprintf(stderr, FLEET_NAME ": error: ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void
log_error(const char *fmt,...)
{
	va_list		ap;

	va_start(ap, fmt);
	vlog_error(fmt, ap);
	va_end(ap);
}

/* A bad command line: say what, point to --help, exit 2. */
void
usage_error(const char *fmt,...)
{
	va_list		ap;

	va_start(ap, fmt);
	vlog_error(fmt, ap);
	va_end(ap);
	fprintf(stderr, "Try \"" FLEET_NAME " --help\" for more information.\n");
	exit(EXIT_CANNOT_RUN);
}

/* libpq messages end with a newline (and may hold several lines): one line. */
const char *
chomp(const char *msg)
{
	static char buf[1024];
	size_t		len = strlen(msg);

	while (len > 0 && (msg[len - 1] == '\n' || msg[len - 1] == ' '))
		len--;
	if (len >= sizeof(buf))
		len = sizeof(buf) - 1;
	memcpy(buf, msg, len);
	buf[len] = '\0';
	for (char *c = buf; *c; c++)
		if (*c == '\n' || *c == '\t')
			*c = ' ';
	return buf;
}

void *
xmalloc(size_t n)
{
	void	   *p = calloc(1, n ? n : 1);

	if (p == NULL)
	{
		log_error("out of memory");
		exit(EXIT_CANNOT_RUN);
	}
	return p;
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

const char *
row_value(const Row *row, const char *column)
{
	int			i = history_column(column);

	return i < 0 ? NULL : row->values[i];
}

void
row_set(Row *row, const char *column, const char *value)
{
	int			i = history_column(column);

	if (i < 0)
		return;
	free(row->values[i]);
	row->values[i] = xstrdup(value);
}
