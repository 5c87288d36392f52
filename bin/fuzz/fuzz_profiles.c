/*
 * fuzz_profiles.c: scanbench-probe's storage profiles
 * (../scanbench-probe/profiles.c) on any bytes: the profiles file, then a
 * --storage spec against what it read, then the profile's check, its
 * limits and its description.  Each must end with a result or a message,
 * reading nothing past the text's end and losing no memory.
 *
 * The input: its first line (up to the first newline) is the --storage
 * spec, cut at a NUL byte as a command line's argument is; the rest is
 * the file, written to a file in memory (memfd) that profiles_read opens
 * by its /proc path.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "memfile.h"
#include "profiles.h"

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nl = memchr(data, '\n', size);
	size_t		speclen = nl ? (size_t) (nl - data) : size;
	const uint8_t *file = nl ? nl + 1 : data + size;
	size_t		filelen = size - (size_t) (file - data);
	char	   *spec = malloc(speclen + 1);
	ProfileSet	set = {0};
	char	   *error = NULL;
	Profile    *p;
	const char *path;

	cli_progname = "fuzz_profiles";
	memcpy(spec, data, speclen);
	spec[speclen] = '\0';
	path = memfile_path(file, filelen);

	/* Read twice: a profile named again replaces the first file's. */
	for (int pass = 0; pass < 2; pass++)
	{
		if (!profiles_read(&set, path, false, &error))
		{
			if (error == NULL || (pass == 0 && set.n != 0))
				abort();
			free(error);
			profiles_free(&set);
			free(spec);
			return 0;
		}
		if (error != NULL)
			abort();
	}
	{
		char	   *names = profiles_names(&set);

		free(names);
	}

	p = profile_from_spec(&set, spec, &error);
	if ((p == NULL) == (error == NULL))
		abort();
	if (p)
	{
		bool		own = profiles_find(&set, p->name) != p;
		char	   *text;
		bool		by_requests;
		VolumeLimit b = profile_baseline(p),
					burst = profile_burst(p);

		if (profile_check(p, &error) != (error == NULL))
			abort();
		free(error);
		text = profile_describe(p);
		free(text);
		text = profile_spec(p);
		free(text);
		(void) profile_limit(b, 8192, &by_requests);
		(void) profile_limit(burst, 131072, &by_requests);
		(void) profile_limit(b, 0, &by_requests);
		if (own)
			profile_free(p);
	}
	else
		free(error);
	profiles_free(&set);
	free(spec);
	return 0;
}
