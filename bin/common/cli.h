/*
 * cli.h: what scanbench's client programs share: messages on stderr named
 * after the program, the command line's common options and numbers, the
 * -W password prompt.  Each program sets cli_progname before anything else.
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

/*
 * The last entries of every program's getopt_long table: -w, -W, -V and
 * --help (help: the program's own code for it), and the table's end.
 * CLI_CONNECTION_LONG_OPTIONS: -h, -p, -U and -d, for a program that
 * takes one server on its command line.  Used where <getopt.h> is.
 */
#define CLI_CONNECTION_LONG_OPTIONS \
	{"host", required_argument, NULL, 'h'}, \
	{"port", required_argument, NULL, 'p'}, \
	{"username", required_argument, NULL, 'U'}, \
	{"dbname", required_argument, NULL, 'd'}
#define CLI_LAST_LONG_OPTIONS(help) \
	{"no-password", no_argument, NULL, 'w'}, \
	{"password", no_argument, NULL, 'W'}, \
	{"version", no_argument, NULL, 'V'}, \
	{"help", no_argument, NULL, (help)}, \
	{NULL, 0, NULL, 0}

extern bool cli_help_first(int argc, char **argv, void (*usage) (void));
extern bool cli_password_option(int c, int *prompt);
extern int	cli_other_option(int c, int help, char **argv, void (*usage) (void));

extern bool plain_decimal(const char *arg, bool point_ok);
extern bool double_in_range(const char *arg, double min, double max, bool min_open, double *v);
extern bool int_in_range(const char *arg, int64_t min, int64_t max, int64_t *v);
extern double parse_double(const char *arg, const char *what, double min, double max,
						   bool min_open);
extern int64_t parse_int(const char *arg, const char *what, int64_t min, int64_t max);

extern char *prompt_password(const char *prompt);

#endif
