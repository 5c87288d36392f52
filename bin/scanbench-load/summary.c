/*
 * summary.c: the one line a load prints when it is done.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load.h"

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
		val = query_value(ld->ctl, "SELECT count(*) FROM pg_catalog.pg_dist_shard "
						  "WHERE logicalrelid = $1::regclass", ld->target);
		if (val)
			*shards = strtoll(val, NULL, 10);
		citus = *shards > 0;
	}
	free(val);
	val = query_value(ld->ctl, citus ?
					  "SELECT pg_catalog.citus_relation_size($1::regclass) / "
					  "pg_catalog.current_setting('block_size')::integer" :
					  "SELECT pg_catalog.pg_relation_size($1::regclass) / "
					  "pg_catalog.current_setting('block_size')::integer", ld->target);
	if (val)
		pages = strtoll(val, NULL, 10);
	free(val);
	return pages;
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
	char		where[64] = "";

	if (opt->quiet)
		return;
	if (shards > 0)
		snprintf(where, sizeof(where), " in %" PRId64 " shard%s", shards, shards > 1 ? "s" : "");
	if (opt->append)
	{
		pages = total > ld->pages_before ? total - ld->pages_before : 0;
		snprintf(where + strlen(where), sizeof(where) - strlen(where),
				 " added (%" PRId64 " in all)", total);
	}
	fprintf(stderr, LOADER_NAME ": loaded %" PRId64 " rows into %s (SF %g, seed %" PRIu64
			", %d job%s, %s) in %.2f s: %s %.2f s at %.0f MB/s and %.0f rows/s, "
			"then %s %.2f s; %" PRId64 " pages%s, %.1f bytes/row; peak RSS %ld MB\n",
			ld->rows, ld->qname, opt->scale, opt->seed, opt->jobs, opt->jobs > 1 ? "s" : "",
			dbt3_format_name(opt->format), ld->copy_s + ld->post_s,
			ld->one_transaction && !opt->append ? "COPY FREEZE" : "COPY", ld->copy_s,
			ld->bytes / ld->copy_s / 1e6, ld->rows / ld->copy_s, ld->post_what, ld->post_s,
			pages, where, ld->rows > 0 ? pages * 8192.0 / ld->rows : 0.0, peak_rss_mb());
}
