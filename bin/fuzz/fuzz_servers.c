/*
 * fuzz_servers.c: scanbench-fleet's servers file (../scanbench-fleet/
 * servers.c) on any bytes: read_servers must give servers or an error,
 * never read past a line or lose memory, and what it gives must hold
 * together: each line a server or a reason, the tags sorted and unique,
 * their JSON built, every name set.
 *
 * The input is the file: written to a file in memory (memfd) that
 * read_servers opens by its /proc path, as it opens the file named by
 * --servers.  Each bad line is said on stderr, which the runs close
 * (-close_fd_mask=2).
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "memfile.h"
#include "servers.h"

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	Server	   *servers;
	int			n = 0;
	char	   *error = NULL;

	cli_progname = "fuzz_servers";
	servers = read_servers(memfile_path(data, size), &n, &error);
	if ((servers == NULL) == (error == NULL))
		abort();
	if (servers == NULL)
	{
		free(error);
		return 0;
	}
	for (int i = 0; i < n; i++)
	{
		Server	   *s = &servers[i];
		char	   *json;

		if (s->name == NULL || s->line < 1 || (i > 0 && s->line <= servers[i - 1].line))
			abort();
		if (s->invalid)
		{
			if (s->conninfo || s->ntags)
				abort();
			continue;
		}
		if (s->conninfo == NULL || s->ntags > MAX_TAGS)
			abort();
		for (int t = 1; t < s->ntags; t++)
			if (strcmp(s->tags[t - 1].key, s->tags[t].key) >= 0)
				abort();
		json = tags_json(s);
		if (json[0] != '{' || json[strlen(json) - 1] != '}')
			abort();
		free(json);
		if (server_disk(s) == NULL || !same_tags(s, s))
			abort();
		for (int j = 0; j < i; j++)
			if (!servers[j].invalid && strcmp(servers[j].name, s->name) == 0)
				abort();
		(void) same_tags(s, &servers[0]);
	}
	free_servers(servers, n);
	return 0;
}
