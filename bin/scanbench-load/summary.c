/*
 * summary.c: the one line a load prints when it is done.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "dbt3_copy.h"
#include "load_state.h"
#include "loader.h"
#include "options.h"
#include "progress.h"
#include "server.h"
#include "summary.h"

/*
 * The table's pages and, for a Citus table, its shards.  A Citus table's
 * rows live in its shard placements, and its own file on the coordinator
 * is an empty shell: citus_relation_size() sums the shards.  Citus is
 * looked up first, so the statement names its catalogs only where they
 * exist.
 */
int64_t
load_table_pages(Load *ld, int64_t *shards)
{
	int64_t		pages = 0;
	char	   *val;
	bool		citus = false;

	*shards = 0;
	val = query_value(ld->ctl, "SELECT pg_catalog.to_regclass('pg_catalog.pg_dist_partition') IS NOT NULL",
					  NULL);
	if (val && val[0] == 't')
	{
		free(val);
		val = query_value(ld->ctl, "SELECT pg_catalog.count(*) FROM pg_catalog.pg_dist_shard s "
						  "WHERE s.logicalrelid OPERATOR(pg_catalog.=) $1::pg_catalog.regclass",
						  ld->target);
		if (val)
			*shards = strtoll(val, NULL, 10);
		citus = *shards > 0;
	}
	free(val);
	val = query_value(ld->ctl, citus ?
					  "SELECT pg_catalog.citus_relation_size($1::pg_catalog.regclass) "
					  "OPERATOR(pg_catalog./) pg_catalog.current_setting('block_size')::pg_catalog.int8" :
					  "SELECT pg_catalog.pg_relation_size($1::pg_catalog.regclass) "
					  "OPERATOR(pg_catalog./) pg_catalog.current_setting('block_size')::pg_catalog.int8",
					  ld->target);
	if (val)
		pages = strtoll(val, NULL, 10);
	free(val);
	return pages;
}

/*
 * The bytes of the table's TOAST relation (its main fork), 0 if it has none;
 * not looked for in a Citus table, whose own relation is an empty shell.
 */
static int64_t
toast_bytes(Load *ld, int64_t shards)
{
	char	   *val;
	int64_t		bytes = 0;

	if (shards > 0)
		return 0;
	val = query_value(ld->ctl, "SELECT pg_catalog.pg_relation_size(c.reltoastrelid) "
					  "FROM pg_catalog.pg_class c "
					  "WHERE c.oid OPERATOR(pg_catalog.=) $1::pg_catalog.regclass "
					  "AND c.reltoastrelid OPERATOR(pg_catalog.<>) 0", ld->target);
	if (val)
		bytes = strtoll(val, NULL, 10);
	free(val);
	return bytes;
}

/*
 * What limited the load, from what was measured, in this order:
 *   generation  the loader's own CPU over the COPYs was 80 % or more of a
 *               CPU a job: the server waited for rows
 *   WAL         the load wrote 1.5 times the table's size to the WAL or
 *               more: its pages went to the WAL twice (full-page images of
 *               pages frozen after a checkpoint)
 *   freezing    the step after the COPYs (VACUUM (FREEZE, ANALYZE), or
 *               ANALYZE) took longer than the COPYs
 *   COPY        otherwise: the server's COPY
 */
static const char *
load_limit(const Load *ld, double table_bytes, double wal_bytes)
{
	if (ld->copy_s > 0 && ld->generation_cpu_s / ld->opt->jobs >= 0.8 * ld->copy_s)
		return "generation";
	if (table_bytes > 0 && wal_bytes >= 1.5 * table_bytes)
		return "WAL";
	if (ld->post_s > ld->copy_s)
		return "freezing";
	return "COPY";
}

/* s as a JSON string, quotes included. */
static void
put_json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++)
	{
		unsigned char c = (unsigned char) *s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/*
 * --json: the summary's figures, one object on one line of standard output,
 * for scripts.  The keys are stable; sizes are bytes, times seconds.
 */
static void
print_json(const Load *ld, int64_t pages, int64_t shards, int64_t toast, double wal_bytes,
		   const char *limit)
{
	const Options *opt = ld->opt;
	const ServerInfo *si = &ld->server;

	printf("{\"table\":");
	put_json_string(stdout, opt->table);
	printf(",\"rows\":%" PRId64 ",\"scale\":%g,\"seed\":%" PRIu64 ",\"format\":\"%s\","
		   "\"jobs\":%d,\"jobs_auto\":%s,\"jobs_why\":",
		   ld->rows, opt->scale, opt->seed, dbt3_format_name(opt->format), opt->jobs,
		   ld->plan.automatic ? "true" : "false");
	put_json_string(stdout, ld->plan.why);
	printf(",\"wall_s\":%.3f,\"copy\":\"%s\",\"copy_s\":%.3f,\"post\":\"%s\",\"post_s\":%.3f,"
		   "\"generation_cpu_s\":%.3f,\"pages\":%" PRId64 ",\"shards\":%" PRId64 ","
		   "\"wal_bytes\":%.0f,\"checkpoints_timed\":%" PRId64 ",\"checkpoints_requested\":%" PRId64 ","
		   "\"freeze_steps\":%d,\"freeze_steps_s\":%.3f,\"limit\":\"%s\",\"peak_rss_mb\":%ld,",
		   ld->copy_s + ld->post_s + ld->index_s, ld->one_transaction && !opt->append ? "COPY FREEZE" : "COPY",
		   ld->copy_s, ld->post_what, ld->post_s, ld->generation_cpu_s, pages, shards, wal_bytes,
		   ld->timed_after - ld->timed_before, ld->requested_after - ld->requested_before,
		   ld->freezer.passes, ld->freezer.busy_s, limit, peak_rss_mb());
	printf("\"toast_bytes\":%" PRId64 ",\"index_s\":%.3f,\"indexes\":[", toast, ld->index_s);
	for (int i = 0; i < opt->nindexes; i++)
	{
		const LoadIndex *ix = &ld->indexes[i];

		printf("%s{\"name\":", i ? "," : "");
		put_json_string(stdout, ix->name);
		printf(",\"column\":\"%s\",\"bytes\":%" PRId64 ",\"s\":%.3f}", ix->column, ix->bytes,
			   ix->seconds);
	}
	printf("],");
	printf("\"server\":{\"version_num\":%d,\"wal_level\":\"%s\",\"fsync\":%s,"
		   "\"full_page_writes\":%s,\"wal_log_hints\":%s,\"data_checksums\":%s,"
		   "\"max_wal_size_mb\":%" PRId64 ",\"standbys\":%d,\"cpus\":",
		   si->version_num, si->wal_level, si->fsync ? "true" : "false",
		   si->full_page_writes ? "true" : "false", si->wal_log_hints ? "true" : "false",
		   si->data_checksums ? "true" : "false", si->max_wal_size_mb, si->standbys);
	if (si->cpus > 0)
		printf("%d", si->cpus);
	else
		printf("null");
	printf(",\"target_unlogged\":%s}}\n", ld->target_unlogged ? "true" : "false");
	fflush(stdout);
}

/*
 * With --append the pages are those the table grew by, over the rows added:
 * the whole table's over the new rows would count the old rows' pages too.
 * Rows that went into free space of old pages make the growth smaller than
 * what they take; the line then gives what the table grew by, which is what
 * the disk saw.
 */
void
load_print_summary(Load *ld)
{
	const Options *opt = ld->opt;
	int64_t		shards;
	int64_t		total = load_table_pages(ld, &shards);
	int64_t		pages = total;
	int64_t		toast = toast_bytes(ld, shards);
	int64_t		checkpoints;
	double		wal_bytes = ld->wal_after > ld->wal_before ? ld->wal_after - ld->wal_before : 0;
	double		table_bytes;
	const char *limit;
	char		where[64] = "";
	char		jobs[320];
	char		steps[64] = "";
	char		chose[320] = "";
	char		toasted[128] = "";
	char		indexes[100 + MAX_INDEXES * 120] = "";

	if (opt->append)
		pages = total > ld->pages_before ? total - ld->pages_before : 0;
	table_bytes = pages * 8192.0 + (opt->append ? 0 : toast);
	limit = load_limit(ld, table_bytes, wal_bytes);
	if (opt->json)
		print_json(ld, pages, shards, toast, wal_bytes, limit);
	if (opt->quiet)
		return;
	if (shards > 0)
		snprintf(where, sizeof(where), " in %" PRId64 " shard%s", shards, shards > 1 ? "s" : "");
	if (opt->append)
		snprintf(where + strlen(where), sizeof(where) - strlen(where),
				 " added (%" PRId64 " in all)", total);
	snprintf(jobs, sizeof(jobs), "%d job%s", opt->jobs, opt->jobs > 1 ? "s" : "");
	if (ld->plan.automatic)
		snprintf(chose, sizeof(chose), "--jobs=auto chose %d (%s); ", opt->jobs, ld->plan.why);
	if (ld->freezer.passes > 0)
		snprintf(steps, sizeof(steps), " (frozen in %d steps during it, %.2f s)",
				 ld->freezer.passes, ld->freezer.busy_s);
	if (toast > 0 && !opt->append)
		snprintf(toasted, sizeof(toasted), ", TOAST %.0f MB (%.0f %% of the two)",
				 toast / 1e6, 100.0 * toast / (toast + pages * 8192.0));
	if (opt->nindexes > 0)
	{
		size_t		len = snprintf(indexes, sizeof(indexes), " and %d index%s %.2f s (",
								   opt->nindexes, opt->nindexes > 1 ? "es" : "", ld->index_s);

		for (int i = 0; i < opt->nindexes && len < sizeof(indexes); i++)
			len += snprintf(indexes + len, sizeof(indexes) - len, "%s%s %.1f MB in %.2f s",
							i ? ", " : "", ld->indexes[i].qname, ld->indexes[i].bytes / 1e6,
							ld->indexes[i].seconds);
		if (len < sizeof(indexes))
			snprintf(indexes + len, sizeof(indexes) - len, ")");
	}
	checkpoints = ld->timed_after - ld->timed_before + ld->requested_after - ld->requested_before;
	fprintf(stderr, LOADER_NAME ": loaded %" PRId64 " rows into %s (SF %g, seed %" PRIu64
			", %s, %s) in %.2f s: %s %.2f s%s at %.0f MB/s and %.0f rows/s, "
			"then %s %.2f s%s; %" PRId64 " pages%s%s, %.1f bytes/row; "
			"WAL %.0f MB (%.2f x the table), %" PRId64 " checkpoint%s "
			"(%" PRId64 " timed, %" PRId64 " requested); "
			"%sloader CPU %.2f s; limit: %s; peak RSS %ld MB\n",
			ld->rows, ld->qname, opt->scale, opt->seed, jobs,
			dbt3_format_name(opt->format), ld->copy_s + ld->post_s + ld->index_s,
			ld->one_transaction && !opt->append ? "COPY FREEZE" : "COPY", ld->copy_s, steps,
			ld->bytes / ld->copy_s / 1e6, ld->rows / ld->copy_s, ld->post_what, ld->post_s,
			indexes, pages, where, toasted, ld->rows > 0 ? table_bytes / ld->rows : 0.0,
			wal_bytes / 1e6, table_bytes > 0 ? wal_bytes / table_bytes : 0.0,
			checkpoints, checkpoints == 1 ? "" : "s",
			ld->timed_after - ld->timed_before, ld->requested_after - ld->requested_before,
			chose, ld->generation_cpu_s, limit, peak_rss_mb());
}
