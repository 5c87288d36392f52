/*
 * log.c: error messages, "scanbench-load: error: ..." on stderr.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader.h"

static void vlog_error(const char *fmt, va_list ap) PRINTF_LIKE(1, 0);

static void
vlog_error(const char *fmt, va_list ap)
{
	fprintf(stderr, LOADER_NAME ": error: ");
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
	fprintf(stderr, "Try \"" LOADER_NAME " --help\" for more information.\n");
	exit(EXIT_USAGE);
}

/*
 * libpq messages end with a newline; the log lines add their own.  The
 * result lives in a buffer of the calling thread until its next call.
 */
const char *
chomp(const char *msg)
{
	static __thread char buf[1024];
	size_t		len = strlen(msg);

	while (len > 0 && (msg[len - 1] == '\n' || msg[len - 1] == ' '))
		len--;
	if (len >= sizeof(buf))
		len = sizeof(buf) - 1;
	memcpy(buf, msg, len);
	buf[len] = '\0';
	return buf;
}
