/*
 * xalloc.h: memory that is there or ends the program (xalloc.c); the
 * messages, log_error and the rest, are ../common/cli.h's.
 */
#ifndef SCANBENCH_PROBE_XALLOC_H
#define SCANBENCH_PROBE_XALLOC_H

#include <stddef.h>

#include "cli.h"

extern char *xstrdup(const char *s);
extern char *xprintf(const char *fmt,...) PRINTF_LIKE(1, 2);
extern void *xmalloc(size_t n);
extern void *xreserve(void *buf, size_t len, size_t need, size_t *cap, size_t size);

#endif							/* SCANBENCH_PROBE_XALLOC_H */
