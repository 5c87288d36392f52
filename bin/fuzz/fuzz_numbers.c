/*
 * fuzz_numbers.c: the command line's numbers (../common/cli.c) on any
 * text: plain_decimal, int_in_range and double_in_range over the ranges
 * the programs give them, parse_int and parse_double where those accept
 * (elsewhere they exit 2, as they should), scanbench-probe's --memory
 * size (memory_size, ../scanbench-probe/options.c), and chomp and
 * one_line, which take libpq's messages, a server's text.
 *
 * The input is the text itself, cut at its first NUL byte as a command
 * line's argument is.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "options.h"

static const struct
{
	int64_t		min,
				max;
}			int_ranges[] = {
	{1, 64000}, {1, 1024}, {1, 100}, {1, 10000}, {0, INT64_MAX},
	{INT64_MIN, INT64_MAX}, {-5, 5},
};

static const struct
{
	double		min,
				max;
	int			min_open;
}			double_ranges[] = {
	{0, 100, 1}, {0, 100, 0}, {0.01, 86400, 0}, {2, 86400, 0}, {0, 2147483, 1},
	{0, 1, 1}, {0, 3600, 1}, {0, 1048576, 1}, {0, 1000, 1}, {0.01, 100000, 0},
	{-1e308, 1e308, 0},
};

#define LENGTH(a) (sizeof(a) / sizeof((a)[0]))

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char	   *arg = malloc(size + 1);
	bool		digits;

	memcpy(arg, data, size);
	arg[size] = '\0';

	digits = plain_decimal(arg, false);
	/* Digits alone are digits with a point allowed too. */
	if (digits && !plain_decimal(arg, true))
		abort();

	for (size_t i = 0; i < LENGTH(int_ranges); i++)
	{
		int64_t		v;

		if (!int_in_range(arg, int_ranges[i].min, int_ranges[i].max, &v))
			continue;
		if (!digits || v < int_ranges[i].min || v > int_ranges[i].max)
			abort();
		if (parse_int(arg, "number", int_ranges[i].min, int_ranges[i].max) != v)
			abort();
	}
	for (size_t i = 0; i < LENGTH(double_ranges); i++)
	{
		double		v;

		if (!double_in_range(arg, double_ranges[i].min, double_ranges[i].max,
							 double_ranges[i].min_open, &v))
			continue;
		if (!plain_decimal(arg, true) || !isfinite(v) || v < double_ranges[i].min ||
			v > double_ranges[i].max || (double_ranges[i].min_open && v == double_ranges[i].min))
			abort();
		if (parse_double(arg, "number", double_ranges[i].min, double_ranges[i].max,
						 double_ranges[i].min_open) != v)
			abort();
	}

	/* --memory: a size above 0, at most 10^18 bytes. */
	{
		double		bytes;

		if (memory_size(arg, &bytes) && !(bytes > 0 && bytes <= 1e18))
			abort();
	}

	/*
	 * A server's message: shorter than chomp's buffer, without its line
	 * break and blanks at the end (unless cut to fit), one line.
	 */
	{
		const char *c = chomp(arg);
		size_t		n = strlen(c);

		if (n >= 1024 || (n > 0 && n < 1023 && (c[n - 1] == '\n' || c[n - 1] == ' ')))
			abort();
		c = one_line(arg);
		if (strchr(c, '\n') || strchr(c, '\t'))
			abort();
	}
	free(arg);
	return 0;
}
