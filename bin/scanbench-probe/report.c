/*
 * report.c: what a run found, for a person (text) or a script (json).
 *
 * The text is one block of what the server and the volume are, then one
 * block a pass with the figures under the names the json gives them, then
 * the figure: the first pass shown cold against the volume's limit.  No
 * connection string and no password is printed: the server is named by
 * its host, port and database, or by --name.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "judge.h"
#include "options.h"
#include "probe.h"
#include "profiles.h"
#include "program.h"
#include "report.h"
#include "server.h"
#include "xalloc.h"

static void
json_str(const char *s)
{
	if (s == NULL)
	{
		fputs("null", stdout);
		return;
	}
	putchar('"');
	for (const unsigned char *c = (const unsigned char *) s; *c; c++)
	{
		if (*c == '"' || *c == '\\')
			printf("\\%c", *c);
		else if (*c == '\n')
			fputs("\\n", stdout);
		else if (*c == '\t')
			fputs("\\t", stdout);
		else if (*c < 0x20)
			printf("\\u%04x", *c);
		else
			putchar(*c);
	}
	putchar('"');
}

/* A number rounded to digits decimals; null when not known. */
static void
json_num(double v, int digits)
{
	if (isnan(v) || isinf(v))
		fputs("null", stdout);
	else
		printf("%.*f", digits, v);
}

static void
json_key(const char *key, bool *first)
{
	printf("%s\n    \"%s\": ", *first ? "" : ",", key);
	*first = false;
}

static const char *
limit_kind(const Judged *j)
{
	return j->limit_by_requests ? "requests a second" : "bytes a second";
}

static void
print_json(const Outcome *o)
{
	const ServerInfo *s = o->server;
	const Run  *run = o->run;
	bool		first = true;

	printf("{\n  \"program\": \"" PROBE_NAME "\", \"version\": \"" PROBE_VERSION "\",\n");
	printf("  \"server\": ");
	json_str(o->server_name);
	printf(", \"server_version\": ");
	json_str(s->version);
	printf(", \"server_major\": %d,\n  \"relation\": ", s->major);
	json_str(o->table->qualified);
	printf(", \"bytes\": ");
	json_num(o->table->bytes, 0);
	printf(", \"blocks\": ");
	json_num(o->table->blocks, 0);
	printf(", \"block_size\": %d,\n", s->block_size);
	printf("  \"shared_buffers_bytes\": %.0f, \"track_io_timing\": %s, \"pg_stat_io\": ",
		   s->shared_buffers_bytes, run->io_timing ? "true" : "false");
	json_str(run->stat_io_scope);
	printf(",\n  \"pg_buffercache\": %s, \"buffered_before\": ", s->buffercache ? "true" : "false");
	json_num(run->buffered_before, 0);
	printf(", \"buffered_after\": ");
	json_num(run->buffered_after, 0);
	printf(", \"prewarmed\": %s,\n  \"storage\": ", run->prewarmed ? "true" : "false");
	if (o->profile)
	{
		char	   *spec = profile_spec(o->profile);
		char	   *desc = profile_describe(o->profile);

		printf("{\"spec\": ");
		json_str(spec);
		printf(", \"figures\": ");
		json_str(desc);
		printf(", \"source\": ");
		json_str(o->profile->source);
		printf(", \"check_source\": %s}", o->profile->check ? "true" : "false");
		free(spec);
		free(desc);
	}
	else
		fputs("null", stdout);
	printf(",\n  \"passes\": [");
	for (int i = 0; i < run->npasses; i++)
	{
		const Pass *p = &run->passes[i];
		const Judged *j = &o->judged[i];

		first = true;
		printf("%s\n   {", i ? "," : "");
		json_key("pass", &first);
		printf("%d", p->number);
		json_key("measured_at", &first);
		json_str(p->measured_at);
		json_key("cache", &first);
		json_str(coldness_name(j->cold));
		json_key("why", &first);
		json_str(j->why);
		json_key("note", &first);
		json_str(j->note);
		json_key("scan_mb_s", &first);
		json_num(j->scan_mb_s, 1);
		json_key("scan_s", &first);
		json_num(p->explain.execution_ms / 1000.0, 6);
		json_key("elapsed_s", &first);
		json_num(p->wall_s, 6);
		json_key("scanned_bytes", &first);
		json_num(j->scanned_bytes, 0);
		json_key("rows", &first);
		json_num(p->explain.rows, 0);
		json_key("hit_blocks", &first);
		json_num(p->explain.hit_blocks, 0);
		json_key("read_blocks", &first);
		json_num(p->explain.read_blocks, 0);
		json_key("dirtied_blocks", &first);
		json_num(p->explain.dirtied_blocks, 0);
		json_key("shared_hit_pct", &first);
		json_num(j->hit_pct, 1);
		json_key("read_wait_s", &first);
		json_num(j->read_wait_s, 6);
		json_key("read_wait_mb_s", &first);
		json_num(j->read_wait_mb_s, 1);
		json_key("wait_us_block", &first);
		json_num(j->wait_us_block, 1);
		json_key("io_reads", &first);
		json_num(p->io_reads, 0);
		json_key("io_read_bytes", &first);
		json_num(p->io_read_bytes, 0);
		json_key("io_read_s", &first);
		json_num(p->io_read_ms / 1000.0, 3);
		json_key("wait_ms_request", &first);
		json_num(j->wait_ms_request, 3);
		json_key("latency_ms", &first);
		json_num(j->latency_ms, 3);
		json_key("request_kib", &first);
		json_num(j->request_bytes / 1024, 1);
		json_key("request_from", &first);
		json_str(j->request_from);
		json_key("from_volume_min_pct", &first);
		json_num(j->from_volume_min_pct, 1);
		json_key("from_volume_max_pct", &first);
		json_num(j->from_volume_max_pct, 1);
		json_key("limit_mb_s", &first);
		json_num(j->limit_mb_s, 1);
		json_key("limit_kind", &first);
		json_str(o->profile ? limit_kind(j) : NULL);
		json_key("burst_limit_mb_s", &first);
		json_num(j->burst_limit_mb_s, 1);
		json_key("volume_pct", &first);
		json_num(j->volume_pct, 1);
		json_key("burst", &first);
		fputs(j->burst ? "true" : "false", stdout);
		json_key("verdict", &first);
		json_str(j->verdict);
		printf("\n   }");
	}
	printf("],\n  \"figure_pass\": ");
	if (o->figure >= 0)
		printf("%d", o->figure + 1);
	else
		fputs("null", stdout);
	printf(", \"below_min_pct\": %s,\n  \"failed\": ", o->below ? "true" : "false");
	json_str(run->failed);
	printf("\n}\n");
}

static void
line(const char *key, const char *fmt,...) PRINTF_LIKE(2, 3);

static void
line(const char *key, const char *fmt,...)
{
	va_list		ap;

	printf("%-18s ", key);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static void
print_text(const Options *opt, const Outcome *o)
{
	const ServerInfo *s = o->server;
	const TableInfo *t = o->table;
	const Run  *run = o->run;
	char	   *a,
			   *b;

	printf(PROBE_NAME " " PROBE_VERSION ": %s on %s, PostgreSQL %s\n",
		   t->qualified, o->server_name, s->version);
	if (isnan(t->bytes))
		line("table", "not measured: no pass ended");
	else
	{
		line("table", "%.1f MB: %.0f blocks of %d bytes", t->bytes / 1e6, t->blocks, s->block_size);
	}
	if (o->profile)
	{
		char	   *desc = profile_describe(o->profile);
		char	   *spec = profile_spec(o->profile);

		line("storage", "%s: %s", spec, desc);
		line("", "source: %s%s", o->profile->source,
			 o->profile->check ? " (stated by the vendor, check the source)" : "");
		free(desc);
		free(spec);
	}
	else
		line("storage", "no profile (--storage): the rate is not set against a volume's limit");
	a = size_text(s->shared_buffers_bytes);
	if (!isnan(opt->memory_bytes))
	{
		b = size_text(opt->memory_bytes);
		line("memory", "%s (--memory), shared_buffers %s", b, a);
		free(b);
	}
	else
		line("memory", "not given (--memory), shared_buffers %s", a);
	free(a);
	line("track_io_timing", "%s", run->io_timing_how);
	line("pg_stat_io", "%s", run->stat_io_scope ? run->stat_io_scope : "none before PostgreSQL 16");
	if (s->buffercache && !isnan(t->blocks))
	{
		if (isnan(run->buffered_after))
			line("pg_buffercache", "%.0f of the table's %.0f blocks in shared buffers before pass 1",
				 run->buffered_before, t->blocks);
		else
			line("pg_buffercache", "%.0f of the table's %.0f blocks in shared buffers before pass 1, %.0f after pass %d",
				 run->buffered_before, t->blocks, run->buffered_after, run->npasses);
	}
	else if (s->buffercache_why)
		line("pg_buffercache", "%s", s->buffercache_why);
	if (run->prewarmed)
		line("pg_prewarm", "read the table into shared buffers before pass 1 (--prewarm)");

	for (int i = 0; i < run->npasses; i++)
	{
		const Pass *p = &run->passes[i];
		const Judged *j = &o->judged[i];

		printf("\npass %d: %s\n", p->number, coldness_name(j->cold));
		line("  scan_mb_s", "%.1f (%.1f MB in %.3f s; %.3f s on this client's clock)",
			 j->scan_mb_s, j->scanned_bytes / 1e6, p->explain.execution_ms / 1000.0, p->wall_s);
		line("  shared_hit_pct", "%.1f (%.0f blocks found in shared buffers, %.0f read)",
			 j->hit_pct, p->explain.hit_blocks, p->explain.read_blocks);
		if (!isnan(j->read_wait_s))
		{
			if (!isnan(j->read_wait_mb_s))
				line("  read_wait_s", "%.3f (%.1f MB/s per second of read wait; %.1f us a block)",
					 j->read_wait_s, j->read_wait_mb_s, j->wait_us_block);
			else
				line("  read_wait_s", "%.3f", j->read_wait_s);
		}
		if (!isnan(p->io_reads) && run->stat_io_scope)
		{
			char	   *more = NULL;

			if (!isnan(p->io_read_bytes) && p->io_reads > 0)
				more = xprintf("%.0f reads of %.1f kB on average", p->io_reads,
							   p->io_read_bytes / p->io_reads / 1024);
			else
				more = xprintf("%.0f reads", p->io_reads);
			if (!isnan(j->wait_ms_request))
			{
				char	   *m = isnan(j->latency_ms)
					? xprintf("%s, %.3f ms of wait each", more, j->wait_ms_request)
					: xprintf("%s, %.3f ms of wait each (stated latency %.3f ms)", more,
							  j->wait_ms_request, j->latency_ms);

				free(more);
				more = m;
			}
			line("  pg_stat_io", "%s", more);
			free(more);
		}
		line("  from_volume_pct", "%.0f to %.0f (of the blocks scanned, the share that can have come from the volume)",
			 j->from_volume_min_pct, j->from_volume_max_pct);
		if (o->profile)
			line("  volume_pct", "%.1f (of %.1f MB/s, %s at %.0f kB requests: %s%s)",
				 j->volume_pct, j->limit_mb_s, limit_kind(j), j->request_bytes / 1024,
				 j->request_from, j->burst ? "; faster than the baseline: a burst" : "");
		line("  why", "%s", j->why);
		if (j->note)
			line("  note", "%s", j->note);
	}
	putchar('\n');
	if (run->failed)
		line("failed", "%s", run->failed);
	if (o->figure >= 0)
	{
		const Judged *j = &o->judged[o->figure];

		if (o->profile)
			line("figure", "pass %d, cold: %.1f MB/s, %.1f %% of %s's baseline of %.1f MB/s (%s)%s",
				 o->figure + 1, j->scan_mb_s, j->volume_pct, o->profile->name, j->limit_mb_s,
				 limit_kind(j), j->burst ? ", in a burst" : "");
		else
			line("figure", "pass %d, cold: %.1f MB/s (no storage profile to set it against)",
				 o->figure + 1, j->scan_mb_s);
		if (o->below)
			line("", "below --min-pct %.1f", opt->min_pct);
	}
	else if (run->npasses > 0)
		line("figure", "none: no pass was shown cold (see why above)");
}

void
report_print(const Options *opt, const Outcome *o)
{
	if (opt->format == FORMAT_JSON)
		print_json(o);
	else
		print_text(opt, o);
	fflush(stdout);
}

/* --list-profiles: every profile, its figures and its source. */
void
report_profiles(const ProfileSet *set)
{
	for (int i = 0; i < set->n; i++)
	{
		const Profile *p = set->p[i];
		char	   *desc = profile_describe(p);

		printf("%s%s\n", i ? "\n" : "", p->name);
		if (p->description)
			printf("  %s\n", p->description);
		printf("  %s\n  source: %s%s\n  from %s\n", desc, p->source,
			   p->check ? " (stated by the vendor, check the source)" : "", p->origin);
		free(desc);
	}
}
