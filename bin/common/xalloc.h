/*
 * xalloc.h: memory that is there or ends the program (xalloc.c); the
 * messages, log_error and the rest, are cli.h's.
 */
#ifndef SCANBENCH_XALLOC_H
#define SCANBENCH_XALLOC_H

#include <stddef.h>

#include "cli.h"

/*
 * The exit status when memory runs out: the programs that use these call
 * it "cannot run" (EXIT_CANNOT_RUN in fleet.h and program.h), and a
 * script tells it from a judgement by that number alone.
 */
#define XALLOC_EXIT			2

extern char *xstrdup(const char *s);
extern char *xprintf(const char *fmt,...) PRINTF_LIKE(1, 2);
extern void *xmalloc(size_t n);
extern void *xreserve(void *buf, size_t len, size_t need, size_t *cap, size_t size);

#endif							/* SCANBENCH_XALLOC_H */
