/*
 * cli.c: messages, the common options and numbers of the command line and
 * the password prompt of scanbench's client programs (scanbench-load,
 * scanbench-fleet, scanbench-probe); see cli.h.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "cli.h"

const char *cli_progname = "scanbench";

static void vlog_error(const char *fmt, va_list ap) PRINTF_LIKE(1, 0);

static void
vlog_error(const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: error: ", cli_progname);
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
	fprintf(stderr, "Try \"%s --help\" for more information.\n", cli_progname);
	exit(CLI_EXIT_USAGE);
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

/* chomp, and the message's own line breaks and tabs made blanks: one line. */
const char *
one_line(const char *msg)
{
	char	   *buf = (char *) chomp(msg);

	for (char *c = buf; *c; c++)
		if (*c == '\n' || *c == '\t')
			*c = ' ';
	return buf;
}

/*
 * --help or -? as the first argument: usage() prints the help, whatever
 * follows, as PostgreSQL's own programs do, and the program exits 0.
 */
bool
cli_help_first(int argc, char **argv, void (*usage) (void))
{
	if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-?") == 0))
	{
		usage();
		return true;
	}
	return false;
}

/*
 * -w and -W, as psql takes them: *prompt is -1 (never prompt for a
 * password) or 1 (prompt before connecting); left as it is, and false
 * returned, for any other option c.
 */
bool
cli_password_option(int c, int *prompt)
{
	if (c == 'w')
		*prompt = -1;
	else if (c == 'W')
		*prompt = 1;
	else
		return false;
	return true;
}

/*
 * An option c of getopt_long's that the program has not taken itself:
 * --help (help, the program's own code for it), -?, which getopt reports
 * as an unknown option, -V, or an option getopt refused after saying why.
 * Returns the status the program exits with now: 0 after the help or the
 * version, CLI_EXIT_USAGE after a pointer to --help.
 */
int
cli_other_option(int c, int help, char **argv, void (*usage) (void))
{
	if (c == help || (c == '?' && optopt == 0 && strcmp(argv[optind - 1], "-?") == 0))
	{
		usage();
		return 0;
	}
	if (c == 'V')
	{
		printf("%s (scanbench) %s\n", cli_progname, SCANBENCH_VERSION);
		return 0;
	}
	fprintf(stderr, "Try \"%s --help\" for more information.\n", cli_progname);
	return CLI_EXIT_USAGE;
}

/*
 * Decimal digits, at most one point, no sign: what strtod and strtoll
 * would also take as hexadecimal, with leading blanks or a sign, is refused.
 */
bool
plain_decimal(const char *arg, bool point_ok)
{
	bool		digit = false,
				point = false;

	for (const char *c = arg; *c; c++)
	{
		if (*c >= '0' && *c <= '9')
			digit = true;
		else if (*c == '.' && point_ok && !point)
			point = true;
		else
			return false;
	}
	return digit;
}

/*
 * v with the fewest digits that read back as v: 2147483, not the
 * 2.14748e+06 of %g.
 */
static const char *
shortest(double v, char *buf, size_t size)
{
	for (int digits = 1; digits <= 17; digits++)
	{
		snprintf(buf, size, "%.*g", digits, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	return buf;
}

/*
 * arg as a number from min (above it, with min_open) to max: true with
 * the number in *v, or false.  What parse_double stands on, without its
 * exit: the fuzz tests of bin/fuzz call it with any text.
 */
bool
double_in_range(const char *arg, double min, double max, bool min_open, double *v)
{
	char	   *end;

	errno = 0;
	*v = strtod(arg, &end);
	return plain_decimal(arg, true) && !errno && end != arg && !*end && isfinite(*v) &&
		*v >= min && !(min_open && *v == min) && *v <= max;
}

/* A number from min (above it, with min_open) to max, or a usage error. */
double
parse_double(const char *arg, const char *what, double min, double max, bool min_open)
{
	double		v;
	char		minbuf[32],
				maxbuf[32];

	if (!double_in_range(arg, min, max, min_open, &v))
		usage_error("invalid %s \"%s\": must be a number %s %s %s %s",
					what, arg, min_open ? "above" : "from",
					shortest(min, minbuf, sizeof(minbuf)),
					min_open ? "and at most" : "to",
					shortest(max, maxbuf, sizeof(maxbuf)));
	return v;
}

/* arg as an integer from min to max: true with it in *v, or false. */
bool
int_in_range(const char *arg, int64_t min, int64_t max, int64_t *v)
{
	char	   *end;
	long long	n;

	errno = 0;
	n = strtoll(arg, &end, 10);
	*v = n;
	return plain_decimal(arg, false) && !errno && end != arg && !*end && n >= min && n <= max;
}

/* An integer from min to max, or a usage error. */
int64_t
parse_int(const char *arg, const char *what, int64_t min, int64_t max)
{
	int64_t		v;

	if (!int_in_range(arg, min, max, &v))
		usage_error("invalid %s \"%s\": must be an integer from %" PRId64 " to %" PRId64,
					what, arg, min, max);
	return v;
}

/*
 * Ask as psql does: on the terminal, without echo; from standard input and
 * standard error when there is no terminal.  Returns malloc'd memory, or
 * NULL when there is none to be had.
 */
char *
prompt_password(const char *prompt)
{
	FILE	   *in = fopen("/dev/tty", "r");
	FILE	   *out = in ? fopen("/dev/tty", "w") : NULL;
	struct termios t_orig,
				t;
	bool		echo_off = false;
	char		buf[1024];
	size_t		len;

	if (in == NULL || out == NULL)
	{
		if (in)
			fclose(in);
		in = stdin;
		out = stderr;
	}
	if (isatty(fileno(in)) && tcgetattr(fileno(in), &t_orig) == 0)
	{
		t = t_orig;
		t.c_lflag &= ~ECHO;
		echo_off = tcsetattr(fileno(in), TCSAFLUSH, &t) == 0;
	}
	fputs(prompt, out);
	fflush(out);
	if (fgets(buf, sizeof(buf), in) == NULL)
		buf[0] = '\0';
	if (echo_off)
	{
		tcsetattr(fileno(in), TCSAFLUSH, &t_orig);
		fputc('\n', out);
		fflush(out);
	}
	if (in != stdin)
	{
		fclose(in);
		fclose(out);
	}
	len = strlen(buf);
	if (len > 0 && buf[len - 1] == '\n')
		buf[--len] = '\0';
	return strdup(buf);
}
