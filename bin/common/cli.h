/*
 * cli.h: what scanbench's client programs share: messages on stderr named
 * after the program, the parsing of numeric options, the -W password
 * prompt.  Each program sets cli_progname before anything else.
 */
#ifndef SCANBENCH_CLI_H
#define SCANBENCH_CLI_H

#include <stdbool.h>
#include <stdint.h>

#ifndef PRINTF_LIKE
#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#endif

/* A bad command line's exit status, in every program. */
#define CLI_EXIT_USAGE		2

extern const char *cli_progname;

extern void log_error(const char *fmt,...) PRINTF_LIKE(1, 2);
extern void usage_error(const char *fmt,...) PRINTF_LIKE(1, 2) __attribute__((noreturn));
extern const char *chomp(const char *msg);
extern const char *one_line(const char *msg);

extern bool plain_decimal(const char *arg, bool point_ok);
extern double parse_double(const char *arg, const char *what, double min, double max,
						   bool min_open);
extern int64_t parse_int(const char *arg, const char *what, int64_t min, int64_t max);

extern char *prompt_password(const char *prompt);

#endif
