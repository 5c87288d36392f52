/*
 * load.c: the load, step by step.
 *
 *   open_control   connect, look at the table: create, replace or append?
 *   connect_jobs   every job's connection, before any change is made
 *   begin_load     create the table, open the jobs' transactions
 *   run_jobs       (jobs.c) COPY the rows
 *   commit_jobs    all or nothing; fail_load says what is left
 *   make_ready     frozen (by COPY FREEZE or VACUUM) and analyzed
 *   print_summary  one line of rows, times and size
 *
 * COPY FREEZE needs the table created in the COPY's own transaction, which
 * only one connection can see: one job, new table.  Otherwise the table is
 * committed first and VACUUM (FREEZE, ANALYZE) follows.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader.h"

typedef struct
{
	const Options *opt;
	Progress   *pg;
	PGconn	   *ctl;			/* the main thread's connection */
	Job		   *jobs;
	char	   *qname;			/* the table's quoted name */
	bool		exists;			/* before the load */
	bool		freeze_by_copy;
	bool		created;		/* created and committed before the COPY */
	int			committed;		/* jobs whose COMMIT succeeded */
	int64_t		rows;
	int64_t		bytes;
	double		copy_s;
	double		post_s;
	const char *post_what;
	char		copy_sql[1024];
} Load;

/* Column types as the reference gives them; bigint keys fit SF >= 300. */
static const char *table_columns =
"(\n"
"    l_orderkey      bigint NOT NULL,\n"
"    l_partkey       integer NOT NULL,\n"
"    l_suppkey       integer NOT NULL,\n"
"    l_linenumber    integer NOT NULL,\n"
"    l_quantity      numeric(15,2) NOT NULL,\n"
"    l_extendedprice numeric(15,2) NOT NULL,\n"
"    l_discount      numeric(15,2) NOT NULL,\n"
"    l_tax           numeric(15,2) NOT NULL,\n"
"    l_returnflag    char(1) NOT NULL,\n"
"    l_linestatus    char(1) NOT NULL,\n"
"    l_shipdate      date NOT NULL,\n"
"    l_commitdate    date NOT NULL,\n"
"    l_receiptdate   date NOT NULL,\n"
"    l_shipinstruct  char(25) NOT NULL,\n"
"    l_shipmode      char(10) NOT NULL,\n"
"    l_comment       varchar(44) NOT NULL\n"
")";

/*
 * Citus: the empty table becomes distributed before any row is sent, so
 * that the coordinator's COPY routes every row to its shard and nothing
 * stays in the coordinator's own (shell) table.
 */
static bool
distribute_table(Load *ld, PGconn *conn)
{
	const Options *opt = ld->opt;
	char	   *table = PQescapeLiteral(conn, ld->qname, strlen(ld->qname));
	char	   *column = PQescapeLiteral(conn, opt->distribute, strlen(opt->distribute));
	char		shards[64] = "";
	bool		ok;

	if (table == NULL || column == NULL)
	{
		log_error("could not quote the table or column name: %s", chomp(PQerrorMessage(conn)));
		ok = false;
	}
	else
	{
		if (opt->shard_count > 0)
			snprintf(shards, sizeof(shards), ", shard_count => %d", opt->shard_count);
		ok = run_sql(conn, sqlf("SELECT pg_catalog.create_distributed_table(%s, %s%s)",
								table, column, shards), "create_distributed_table");
	}
	PQfreemem(table);
	PQfreemem(column);
	return ok;
}

static bool
create_table(Load *ld, PGconn *conn)
{
	bool		distribute = ld->opt->distribute != NULL;

	/* A distribution that fails (a wrong column) must leave no table. */
	if (distribute && !run_sql(conn, "BEGIN", "BEGIN"))
		return false;
	if ((ld->exists && !run_sql(conn, sqlf("DROP TABLE %s", ld->qname), "DROP TABLE")) ||
		!run_sql(conn, sqlf("CREATE %sTABLE %s %s", ld->opt->unlogged ? "UNLOGGED " : "",
							ld->qname, table_columns), "CREATE TABLE") ||
		(distribute && !distribute_table(ld, conn)))
	{
		if (distribute)
			run_sql(conn, "ROLLBACK", NULL);
		return false;
	}
	return !distribute || run_sql(conn, "COMMIT", "COMMIT");
}

/*
 * Drop a table this load created and committed, so that a failed load leaves
 * nothing behind.  The server may be gone (restart, crash): then say so.
 */
static void
drop_created_table(Load *ld)
{
	if (PQstatus(ld->ctl) != CONNECTION_OK)
		PQreset(ld->ctl);
	if (PQstatus(ld->ctl) == CONNECTION_OK &&
		run_sql(ld->ctl, sqlf("DROP TABLE IF EXISTS %s", ld->qname), NULL))
		fprintf(stderr, LOADER_NAME ": dropped table %s, which this load had created\n", ld->qname);
	else
		log_error("could not drop table %s, created by this load and left empty: %s",
				  ld->qname, chomp(PQerrorMessage(ld->ctl)));
}

/* Connect, check the extension for --check, and see whether the table exists. */
static bool
open_control(Load *ld)
{
	const Options *opt = ld->opt;
	char	   *val;

	if ((ld->ctl = connect_db(opt)) == NULL)
		return false;
	if (opt->check && !check_extension(ld->ctl))
		return false;
	ld->qname = PQescapeIdentifier(ld->ctl, opt->table, strlen(opt->table));
	if (ld->qname == NULL)
	{
		log_error("invalid table name: %s", chomp(PQerrorMessage(ld->ctl)));
		return false;
	}
	val = query_value(ld->ctl, "SELECT pg_catalog.to_regclass($1) IS NOT NULL", ld->qname);
	if (val == NULL)
		return false;
	ld->exists = val[0] == 't';
	free(val);
	if (ld->exists && !opt->drop && !opt->append)
	{
		log_error("table %s already exists\n"
				  "hint: use --drop to replace it or --append to add rows to it", ld->qname);
		return false;
	}
	if (!ld->exists && opt->append)
	{
		log_error("table %s does not exist\nhint: leave out --append to create it", ld->qname);
		return false;
	}
	if (opt->distribute)
	{
		val = query_value(ld->ctl, "SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_extension "
						  "WHERE extname = 'citus')", NULL);
		if (val == NULL)
			return false;
		if (val[0] != 't')
		{
			log_error("--distribute needs the citus extension, which is not installed in database \"%s\"\n"
					  "hint: connect to a Citus coordinator, or leave out --distribute", PQdb(ld->ctl));
			free(val);
			return false;
		}
		free(val);
	}
	return true;
}

/* All connections first: a refused one must fail before any change. */
static bool
connect_jobs(Load *ld, const Dbt3 *gen)
{
	int			njobs = ld->opt->jobs;

	ld->jobs = calloc(njobs, sizeof(Job));
	if (ld->jobs == NULL)
	{
		log_error("out of memory");
		return false;
	}
	split_orders(ld->jobs, njobs, gen, ld->opt->format);
	for (int j = 0; j < njobs; j++)
	{
		if ((ld->jobs[j].conn = connect_db(ld->opt)) == NULL)
			return false;
		ld->jobs[j].cancel = PQgetCancel(ld->jobs[j].conn);
		ld->jobs[j].backend_pid = PQbackendPID(ld->jobs[j].conn);
	}
	return true;
}

/* Create the table where the COPY can see it and open every job's transaction. */
static bool
begin_load(Load *ld)
{
	const Options *opt = ld->opt;

	/* Citus routes COPY to the shards, where FREEZE cannot follow. */
	ld->freeze_by_copy = opt->jobs == 1 && !opt->append && !opt->distribute;
	ld->pg->start = now_s();
	if (ld->freeze_by_copy)
	{
		if (!run_sql(ld->jobs[0].conn, "BEGIN", "BEGIN") ||
			!create_table(ld, ld->jobs[0].conn))
			return false;
	}
	else
	{
		if (!opt->append)
		{
			if (!create_table(ld, ld->ctl))
				return false;
			ld->created = true;
		}
		for (int j = 0; j < opt->jobs; j++)
			if (!run_sql(ld->jobs[j].conn, "BEGIN", "BEGIN"))
			{
				if (ld->created)
					drop_created_table(ld);
				return false;
			}
	}
	snprintf(ld->copy_sql, sizeof(ld->copy_sql), "COPY %s FROM STDIN (FORMAT %s%s%s)",
			 ld->qname, dbt3_format_name(opt->format),
			 opt->format == DBT3_TEXT ? ", DELIMITER '|'" : "",
			 ld->freeze_by_copy ? ", FREEZE" : "");
	for (int j = 0; j < opt->jobs; j++)
		ld->jobs[j].copy_sql = ld->copy_sql;
	return true;
}

/*
 * All or nothing: commit every job if every one copied its rows.  Between
 * the first and the last COMMIT a failure can still split the load (there is
 * no two-phase commit here); fail_load then says what stayed.
 */
static bool
commit_jobs(Load *ld)
{
	int			njobs = ld->opt->jobs;
	bool		commit = true;

	for (int j = 0; j < njobs; j++)
	{
		if (ld->jobs[j].state != JOB_COPIED)
			commit = false;
		ld->rows += ld->jobs[j].rows_copied;
		ld->bytes += ld->jobs[j].bytes_done;
	}
	if (interrupted)
		commit = false;
	for (int j = 0; commit && j < njobs; j++)
	{
		Job		   *job = &ld->jobs[j];
		PGresult   *res = PQexec(job->conn, "COMMIT");
		bool		ok = PQresultStatus(res) == PGRES_COMMAND_OK &&
			strcmp(PQcmdStatus(res), "COMMIT") == 0;

		PQclear(res);
		if (!ok)
		{
			job_error(job, "COMMIT failed: %s", chomp(PQerrorMessage(job->conn)));
			job->state = JOB_FAILED;
			break;
		}
		ld->committed++;
	}
	ld->copy_s = now_s() - ld->pg->start;
	return ld->committed == njobs;
}

/* Roll back what did not commit and say what is left; returns the exit status. */
static int
fail_load(Load *ld)
{
	const Options *opt = ld->opt;

	for (int j = ld->committed; j < opt->jobs; j++)
		if (PQstatus(ld->jobs[j].conn) == CONNECTION_OK)
			run_sql(ld->jobs[j].conn, "ROLLBACK", NULL);
	if (interrupted)
		log_error("interrupted: the load was cancelled and rolled back");
	else
		log_error("load into %s failed: %s", ld->qname, load_error(ld->jobs, opt->jobs));
	if (ld->created)
		drop_created_table(ld);
	else if (ld->committed > 0)
		log_error("%d of %d jobs had committed before the failure: their rows "
				  "(order indexes 0 to %" PRId64 ") stay in %s", ld->committed, opt->jobs,
				  ld->jobs[ld->committed - 1].end_order - 1, ld->qname);
	else if (opt->append)
		fprintf(stderr, LOADER_NAME ": nothing was added to %s\n", ld->qname);
	else if (ld->exists)
		fprintf(stderr, LOADER_NAME ": table %s is as it was before\n", ld->qname);
	else
		fprintf(stderr, LOADER_NAME ": table %s was not created\n", ld->qname);
	return interrupted ? EXIT_INTERRUPTED : EXIT_FAILURE_LOAD;
}

static void
close_jobs(Load *ld)
{
	for (int j = 0; j < ld->opt->jobs; j++)
	{
		PQfreeCancel(ld->jobs[j].cancel);
		ld->jobs[j].cancel = NULL;
		PQfinish(ld->jobs[j].conn);
	}
}

/*
 * Ready to measure: frozen (by COPY FREEZE or VACUUM) and analyzed.  Returns
 * 0, or the exit status of a failure (a table made by this load is dropped).
 */
static int
make_ready(Load *ld)
{
	PGcancel   *cancel = PQgetCancel(ld->ctl);
	char		errbuf[256];
	bool		ok = false;

	ld->post_what = ld->freeze_by_copy ? "ANALYZE" : "VACUUM (FREEZE, ANALYZE)";
	if (!interrupted)
	{
		if (ld->pg->interval > 0)
			fprintf(stderr, "%s %s ...\n", ld->post_what, ld->qname);
		ok = run_sql(ld->ctl, sqlf("%s %s", ld->post_what, ld->qname), ld->post_what);
		if (interrupted)
			PQcancel(cancel, errbuf, sizeof(errbuf));
	}
	PQfreeCancel(cancel);
	ld->post_s = now_s() - ld->pg->start - ld->copy_s;
	if (ok)
		return 0;
	if (interrupted)
		log_error("interrupted before %s", ld->post_what);
	if (!ld->opt->append)
		drop_created_table(ld);
	else
		log_error("the rows stay in %s, not frozen", ld->qname);
	return interrupted ? EXIT_INTERRUPTED : EXIT_FAILURE_LOAD;
}

/*
 * The table's pages and, for a Citus table, its shards.  A Citus table's
 * rows live in its shard placements, and its own file on the coordinator
 * is an empty shell: citus_relation_size() sums the shards.  Citus is
 * looked up first, so the statement names its catalogs only where they
 * exist.
 */
static int64_t
table_pages(Load *ld, int64_t *shards)
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
						  "WHERE logicalrelid = $1::regclass", ld->qname);
		if (val)
			*shards = strtoll(val, NULL, 10);
		citus = *shards > 0;
	}
	free(val);
	val = query_value(ld->ctl, citus ?
					  "SELECT pg_catalog.citus_relation_size($1::regclass) / "
					  "pg_catalog.current_setting('block_size')::integer" :
					  "SELECT pg_catalog.pg_relation_size($1::regclass) / "
					  "pg_catalog.current_setting('block_size')::integer", ld->qname);
	if (val)
		pages = strtoll(val, NULL, 10);
	free(val);
	return pages;
}

static void
print_summary(Load *ld)
{
	const Options *opt = ld->opt;
	int64_t		shards;
	int64_t		pages = table_pages(ld, &shards);
	char		where[64] = "";

	if (opt->quiet)
		return;
	if (shards > 0)
		snprintf(where, sizeof(where), " in %" PRId64 " shard%s", shards, shards > 1 ? "s" : "");
	fprintf(stderr, LOADER_NAME ": loaded %" PRId64 " rows into %s (SF %g, seed %" PRIu64
			", %d job%s, %s) in %.2f s: %s %.2f s at %.0f MB/s and %.0f rows/s, "
			"then %s %.2f s; %" PRId64 " pages%s, %.1f bytes/row; peak RSS %ld MB\n",
			ld->rows, ld->qname, opt->scale, opt->seed, opt->jobs, opt->jobs > 1 ? "s" : "",
			dbt3_format_name(opt->format), ld->copy_s + ld->post_s,
			ld->freeze_by_copy ? "COPY FREEZE" : "COPY", ld->copy_s,
			ld->bytes / ld->copy_s / 1e6, ld->rows / ld->copy_s, ld->post_what, ld->post_s,
			pages, where, ld->rows > 0 ? pages * 8192.0 / ld->rows : 0.0, peak_rss_mb());
}

int
load(const Options *opt, const Dbt3 *gen, Progress *pg)
{
	Load		ld = {.opt = opt,.pg = pg};
	int			status;

	/*
	 * From here on SIGINT only sets a flag: a table created before the jobs
	 * start must be dropped, not left behind by a dying process.
	 */
	catch_sigint();
	if (!open_control(&ld) || !connect_jobs(&ld, gen) || !begin_load(&ld))
		return EXIT_FAILURE_LOAD;
	run_jobs(ld.jobs, opt->jobs, ld.ctl, pg);
	if (!commit_jobs(&ld))
		return fail_load(&ld);
	close_jobs(&ld);
	if ((status = make_ready(&ld)) != 0)
		return status;
	print_summary(&ld);
	if (opt->check && !run_check(ld.ctl, ld.qname))
		return EXIT_FAILURE_LOAD;
	PQfreemem(ld.qname);
	PQfinish(ld.ctl);
	free(ld.jobs);
	return 0;
}
