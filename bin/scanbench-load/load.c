/*
 * load.c: the load, step by step.
 *
 *   open_control   connect, look at the table: create, replace or append?
 *   connect_jobs   every job's connection, before any change is made
 *   begin_load     the table the rows go into, every job's transaction
 *   run_jobs       (jobs.c) COPY the rows
 *   finish_load    commit, freeze and analyze, swap in: all or nothing
 *   fail_load      roll back, remove what this load made, say what is left
 *   load_print_summary (summary.c) one line of rows, times and size
 *
 * What the database holds is, at every moment and whatever stops the
 * load (an error, a lost connection, a server restart, a signal), either
 * what it held before the command or the complete table.  The rows go into
 * a staging table, never into the named one, and the named table changes
 * only in the last transaction, which drops the old one (--drop) and
 * renames the staging table in its place:
 *
 *   one job      BEGIN; CREATE staging; COPY FREEZE; CREATE INDEX (--index);
 *                ANALYZE; DROP old; RENAME (the indexes too); COMMENT; COMMIT
 *                -- COPY FREEZE needs the table created in its own
 *                transaction, and ANALYZE can run inside one.
 *   jobs > 1, or --distribute (Citus)
 *                the staging table is committed so that every job's
 *                connection sees it; the jobs COPY and commit (in steps,
 *                frozen as they go, where a checkpoint is likely: see
 *                freeze_in_steps); VACUUM (FREEZE, ANALYZE); CREATE INDEX
 *                (--index); then BEGIN; DROP old; RENAME (the indexes too);
 *                COMMENT (the mark --drop looks for); COMMIT.
 *                Until then a failure drops the staging table.  While it
 *                exists the control session holds an advisory lock keyed
 *                on it, and its comment says what it is: a run that finds
 *                one whose lock is free (its load was killed, or the
 *                server restarted before it could be dropped) drops it.
 *   --append     one job COPYs into the table in one transaction; with
 *                more, the jobs fill a staging table and one transaction
 *                moves the rows (INSERT ... SELECT) and drops it.  VACUUM
 *                (FREEZE, ANALYZE) follows the commit: the rows are all
 *                there or none are, frozen or not.
 *
 * An old table is locked (ACCESS EXCLUSIVE, by the DROP) only for the last
 * transaction, not for the whole load: readers keep reading it until then.
 * That lock, and the rename's, waits at most --lock-timeout, saying who it
 * waits for (locks.c); what would make the DROP fail (a view on the table)
 * is looked for before anything is written.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "check.h"
#include "cli.h"
#include "db.h"
#include "dbt3.h"
#include "dbt3_copy.h"
#include "indexes.h"
#include "jobs.h"
#include "load.h"
#include "load_state.h"
#include "loader.h"
#include "locks.h"
#include "options.h"
#include "plan.h"
#include "progress.h"
#include "server.h"
#include "signals.h"
#include "staging.h"
#include "step.h"
#include "summary.h"
#include "tables.h"

/* CREATE TABLE, in the staging table's name, and the columns' storage. */
static bool
create_staging(Load *ld, PGconn *conn)
{
	const LoadTable *t = load_table(ld->opt->kind);

	if (!load_step(ld, conn, sqlf("CREATE %sTABLE %s %s", ld->opt->unlogged ? "UNLOGGED " : "",
								  ld->staging, t->columns)))
		return false;
	return t->storage == NULL ||
		load_step(ld, conn, sqlf("ALTER TABLE %s %s", ld->staging, t->storage));
}

/*
 * Citus: the empty staging table becomes distributed before any row is
 * sent, in the transaction that creates it, so that the coordinator's COPY
 * routes every row to its shard and nothing stays in the coordinator's own
 * (shell) table; the rename at the end carries the shards along.
 */
static bool
distribute_table(Load *ld, PGconn *conn)
{
	const Options *opt = ld->opt;
	char	   *table = PQescapeLiteral(conn, ld->staging, strlen(ld->staging));
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
		ok = load_step(ld, conn, sqlf("SELECT pg_catalog.create_distributed_table(%s::pg_catalog.regclass, "
									  "%s::pg_catalog.text%s)", table, column, shards));
	}
	PQfreemem(table);
	PQfreemem(column);
	return ok;
}

/*
 * Connect, check the extension for --check, and look at the table: where it
 * is (or will be: the schema its name means under the user's own path,
 * asked before the session's path is pinned, db.c), whether it exists, and
 * whether it may be replaced.
 */
static bool
open_control(Load *ld)
{
	const Options *opt = ld->opt;
	PGresult   *res;
	char	   *schema = NULL;
	bool		have_schema;

	if ((ld->ctl = connect_db_for_table(opt, opt->table, &schema)) == NULL)
		return false;
	signals_watch_conn(0, ld->ctl);
	ld->qname = PQescapeIdentifier(ld->ctl, opt->table, strlen(opt->table));
	if (ld->qname == NULL)
	{
		log_error("invalid table name: %s", chomp(PQerrorMessage(ld->ctl)));
		free(schema);
		return false;
	}
	/* No schema: the name means no table, and none is selected to make one in. */
	have_schema = schema != NULL;
	snprintf(ld->target, sizeof(ld->target), "%s.%s", have_schema ? schema : "", ld->qname);
	free(schema);
	if (!server_inspect(ld->ctl, &ld->server))
		return false;
	if (ld->server.in_recovery)
	{
		log_error("the server is a standby (in recovery), which takes no writes\n"
				  "hint: connect to the primary");
		return false;
	}
	if (opt->check && !check_extension(ld->ctl, &ld->extschema))
		return false;
	res = !have_schema ? NULL : query_rows(ld->ctl,
					 "SELECT c.relkind, pg_catalog.pg_has_role(c.relowner, 'USAGE'::pg_catalog.text), "
					 "pg_catalog.quote_ident(n.nspname::pg_catalog.text), c.relpersistence, "
					 "pg_catalog.starts_with(coalesce(pg_catalog.obj_description(c.oid, "
					 "'pg_class'::pg_catalog.name), ''), '" MADE_BY "'::pg_catalog.text) "
					 "FROM pg_catalog.pg_class c "
					 "JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) c.relnamespace "
					 "WHERE c.oid OPERATOR(pg_catalog.=) pg_catalog.to_regclass($1::pg_catalog.text)",
					 ld->target);
	if (have_schema && res == NULL)
		return false;
	ld->exists = res && PQntuples(res) == 1;
	if (ld->exists)
	{
		char		relkind = PQgetvalue(res, 0, 0)[0];
		bool		owner = PQgetvalue(res, 0, 1)[0] == 't';
		bool		made_by_us = PQgetvalue(res, 0, 4)[0] == 't';

		snprintf(ld->target, sizeof(ld->target), "%s.%s", PQgetvalue(res, 0, 2), ld->qname);
		/* --append adds to the table as it is; --drop makes a new one */
		ld->target_unlogged = opt->append ? PQgetvalue(res, 0, 3)[0] == 'u' : opt->unlogged;
		PQclear(res);
		if (relkind != 'r' && !(relkind == 'p' && opt->append))
		{
			log_error("%s is not a table", ld->qname);
			return false;
		}
		if (!opt->drop && !opt->append)
		{
			log_error("table %s already exists\n"
					  "hint: use --drop to replace it or --append to add rows to it", ld->qname);
			return false;
		}
		if (opt->drop && !owner)
		{
			log_error("must be the owner of table %s to replace it", ld->qname);
			return false;
		}
		if (opt->drop && !opt->force_drop && !made_by_us)
		{
			log_error("table %s was not loaded by " LOADER_NAME ": --drop replaces only "
					  "tables it loaded (their comment says so)\n"
					  "hint: name another table with --table, or add --force-drop to "
					  "replace this one", ld->qname);
			return false;
		}
		if (opt->drop && !load_check_dependents(ld))
			return false;
		if (opt->append)
		{
			int64_t		shards;

			ld->pages_before = load_table_pages(ld, &shards);
			ld->target_citus = shards > 0;
		}
	}
	else
	{
		PQclear(res);
		ld->target_unlogged = opt->unlogged;
		if (opt->append)
		{
			log_error("table %s does not exist\nhint: leave out --append to create it", ld->qname);
			return false;
		}
		if (!have_schema)
		{
			log_error("no schema has been selected to create table %s in", ld->qname);
			return false;
		}
	}
	if (opt->distribute)
	{
		char	   *val = query_value(ld->ctl, "SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_extension "
									  "WHERE extname OPERATOR(pg_catalog.=) 'citus')", NULL);
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
		ld->target_citus = true;
	}
	/* In the table's schema, so that the rename keeps it there. */
	snprintf(ld->staging_name, sizeof(ld->staging_name), "scanbench_load_%d",
			 PQbackendPID(ld->ctl));
	snprintf(ld->staging, sizeof(ld->staging), "%.*s.%s",
			 (int) (strlen(ld->target) - strlen(ld->qname) - 1), ld->target, ld->staging_name);
	load_drop_stale_staging(ld);
	return load_check_index_names(ld);
}

/*
 * Freezing in steps.  Several jobs cannot COPY FREEZE (load.c's head), so
 * their rows are frozen by VACUUM; once a checkpoint has passed a page,
 * freezing it writes the whole page to the WAL again (with full_page_writes
 * on).  So the jobs commit every step of rows (plan.c) into the staging
 * table, and a connection of its own runs VACUUM (FREEZE) on what is
 * committed whenever a step more has been: most pages are frozen while
 * newer than the last checkpoint, with a small freeze record instead of a
 * full-page image.  A page's rows can be frozen once every transaction
 * that was running when they committed has ended, so the freezing trails
 * the COPYs by a step or two of every job; a step small against the WAL
 * between checkpoints keeps that trail short.  The staging table is not
 * the named table: rows committed in steps are still dropped with it if
 * the load fails.
 */
static bool
freeze_in_steps(const Load *ld)
{
	return ld->plan.freeze_steps && ld->opt->jobs > 1;
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
	split_units(ld->jobs, njobs, gen, ld->opt->format);
	for (int j = 0; j < njobs; j++)
	{
		if ((ld->jobs[j].conn = connect_db(ld->opt)) == NULL)
			return false;
		signals_watch_conn(j + 1, ld->jobs[j].conn);
		ld->jobs[j].backend_pid = PQbackendPID(ld->jobs[j].conn);
		if (freeze_in_steps(ld))
			ld->jobs[j].step_bytes = ld->plan.step_bytes;
	}
	if (freeze_in_steps(ld))
	{
		if ((ld->freezer.conn = connect_db(ld->opt)) == NULL)
			return false;
		signals_watch_conn(FREEZER_SLOT, ld->freezer.conn);
		ld->freezer.step_bytes = ld->plan.step_bytes;
		/* TRUNCATE false: the jobs' locks would make it wait for nothing */
		snprintf(ld->freezer.sql, sizeof(ld->freezer.sql),
				 "VACUUM (FREEZE, TRUNCATE false) %s", ld->staging);
	}
	return true;
}

/*
 * The table the rows go into, where the COPYs can see it, and every job's
 * transaction.
 */
static bool
begin_load(Load *ld)
{
	const Options *opt = ld->opt;
	const char *dest = ld->staging;
	const char *unlogged = opt->unlogged ? "UNLOGGED " : "";
	char	   *locked;

	/* Citus routes COPY to the shards, where FREEZE cannot follow. */
	ld->one_transaction = opt->jobs == 1 && !opt->distribute;
	ld->pg->start = now_s();
	if (ld->one_transaction)
	{
		PGconn	   *conn = ld->jobs[0].conn;

		if (!load_step(ld, conn, "BEGIN"))
			return false;
		if (opt->append)
			dest = ld->target;
		else if (!create_staging(ld, conn))
			return false;
	}
	else
	{
		/*
		 * Committed, for the jobs' connections to see it; the comment and the
		 * lock come in the same transaction, so no other run ever sees it
		 * unlocked.
		 */
		if (!load_step(ld, ld->ctl, "BEGIN"))
			return false;
		if (opt->append)
		{
			if (!load_step(ld, ld->ctl, sqlf("CREATE %sTABLE %s (LIKE %s)", unlogged, ld->staging,
										ld->target)))
				return false;
		}
		else if (!create_staging(ld, ld->ctl) ||
				 (opt->distribute && !distribute_table(ld, ld->ctl)))
			return false;
		if (!load_step(ld, ld->ctl, sqlf("COMMENT ON TABLE %s IS '" STAGING_COMMENT ": a later run "
									"drops it if its load ended without doing so'", ld->staging)))
			return false;
		locked = query_value(ld->ctl, "SELECT pg_catalog.pg_advisory_lock("
							 STAGING_KEY("$1::pg_catalog.regclass::pg_catalog.oid") ")", ld->staging);
		if (locked == NULL || !load_step(ld, ld->ctl, "COMMIT"))
		{
			free(locked);
			return false;
		}
		free(locked);
		ld->staging_committed = true;
		for (int j = 0; j < opt->jobs; j++)
			if (!load_step(ld, ld->jobs[j].conn, "BEGIN"))
				return false;
	}
	snprintf(ld->copy_sql, sizeof(ld->copy_sql), "COPY %s FROM STDIN (FORMAT %s%s%s)",
			 dest, dbt3_format_name(opt->format),
			 opt->format == DBT3_TEXT ? ", DELIMITER '|'" : "",
			 ld->one_transaction && !opt->append ? ", FREEZE" : "");
	for (int j = 0; j < opt->jobs; j++)
		ld->jobs[j].copy_sql = ld->copy_sql;
	return true;
}

/* With progress on, say when the step after the COPYs starts. */
static void
say_post_step(Load *ld)
{
	if (ld->pg->interval > 0)
		fprintf(stderr, "%s %s ...\n", ld->post_what, ld->qname);
}

/* Every job's COPY ended well, and the rows they sent. */
static bool
jobs_copied(Load *ld)
{
	bool		ok = !interrupted;

	for (int j = 0; j < ld->opt->jobs; j++)
	{
		if (ld->jobs[j].state != JOB_COPIED)
			ok = false;
		ld->rows += ld->jobs[j].rows_copied;
		ld->bytes += ld->jobs[j].bytes_done;
	}
	ld->copy_s = now_s() - ld->pg->start;
	return ok;
}

static void
close_jobs(Load *ld)
{
	if (ld->freezer.conn)
	{
		signals_watch_conn(FREEZER_SLOT, NULL);
		PQfinish(ld->freezer.conn);
		ld->freezer.conn = NULL;
	}
	for (int j = 0; ld->jobs && j < ld->opt->jobs; j++)
	{
		signals_watch_conn(j + 1, NULL);
		PQfinish(ld->jobs[j].conn);
		ld->jobs[j].conn = NULL;
	}
}

/* The last transaction's statements: the old table out, the new one in. */
static bool
swap_in(Load *ld, PGconn *conn)
{
	if (!load_set_lock_timeout(ld, conn))
		return false;
	if (ld->exists &&
		!load_locked_step(ld, conn, sqlf("DROP TABLE %s", ld->target), ld->target))
		return false;
	if (!load_locked_step(ld, conn, sqlf("ALTER TABLE %s RENAME TO %s", ld->staging, ld->qname),
						  ld->staging) ||
		!load_rename_indexes(ld, conn))
		return false;
	/* the staging table's comment goes; the mark --drop looks for comes */
	return load_step(ld, conn, sqlf("COMMENT ON TABLE %s IS '" LOADED_COMMENT "'", ld->target));
}

/*
 * After the COPYs: commit, freeze and analyze, and put the table in place,
 * all or nothing.  True once the final commit went through.
 */
static bool
finish_load(Load *ld)
{
	const Options *opt = ld->opt;

	if (!jobs_copied(ld))
		return false;
	if (ld->one_transaction)
	{
		PGconn	   *conn = ld->jobs[0].conn;

		if (opt->append)
		{
			ld->post_what = "VACUUM (FREEZE, ANALYZE)";
			return load_step(ld, conn, "COMMIT");
		}
		if (!load_build_indexes(ld, conn))
			return false;
		ld->post_what = "ANALYZE";
		say_post_step(ld);
		return load_step(ld, conn, sqlf("ANALYZE %s", ld->staging)) &&
			swap_in(ld, conn) && load_step(ld, conn, "COMMIT");
	}

	for (int j = 0; j < opt->jobs; j++)
		if (!load_step(ld, ld->jobs[j].conn, "COMMIT"))
			return false;

	/*
	 * The jobs' sessions report their inserts to the statistics when they
	 * end: before ANALYZE, or they would be counted twice.
	 */
	close_jobs(ld);
	if (opt->append)
	{
		ld->post_what = "VACUUM (FREEZE, ANALYZE)";
		return load_step(ld, ld->ctl, "BEGIN") &&
			load_step(ld, ld->ctl, sqlf("INSERT INTO %s SELECT * FROM %s", ld->target, ld->staging)) &&
			load_step(ld, ld->ctl, sqlf("DROP TABLE %s", ld->staging)) &&
			load_step(ld, ld->ctl, "COMMIT");
	}
	ld->post_what = "VACUUM (FREEZE, ANALYZE)";
	say_post_step(ld);
	if (!load_step(ld, ld->ctl, sqlf("VACUUM (FREEZE, ANALYZE) %s", ld->staging)))
		return false;
	/* after VACUUM, which would otherwise read every index once more */
	if (!load_build_indexes(ld, ld->ctl))
		return false;
	return load_step(ld, ld->ctl, "BEGIN") && swap_in(ld, ld->ctl) && load_step(ld, ld->ctl, "COMMIT");
}

/* Roll back what did not commit and say what is left; returns the exit status. */
static int
fail_load(Load *ld)
{
	const Options *opt = ld->opt;

	for (int j = 0; ld->jobs && j < opt->jobs; j++)
	{
		PGconn	   *conn = ld->jobs[j].conn;

		if (conn && PQstatus(conn) == CONNECTION_OK &&
			PQtransactionStatus(conn) != PQTRANS_IDLE)
			run_cleanup_sql(conn, "ROLLBACK");
	}
	if (ld->ctl && PQstatus(ld->ctl) == CONNECTION_OK &&
		PQtransactionStatus(ld->ctl) != PQTRANS_IDLE)
		run_cleanup_sql(ld->ctl, "ROLLBACK");
	if (interrupted)
		log_error("interrupted: the load was cancelled and rolled back");
	else if (ld->lock_timed_out)
		log_error("load into %s %s", ld->qname, ld->error);
	else
		log_error("load into %s failed: %s", ld->qname,
				  ld->error[0] ? ld->error : load_error(ld->jobs, opt->jobs));
	if (ld->staging_committed)
		load_drop_staging(ld);
	if (opt->append)
		fprintf(stderr, LOADER_NAME ": nothing was added to %s\n", ld->qname);
	else if (ld->exists)
		fprintf(stderr, LOADER_NAME ": table %s is as it was before\n", ld->qname);
	else
		fprintf(stderr, LOADER_NAME ": table %s was not created\n", ld->qname);
	if (interrupted)
		return interrupted_status();
	return ld->lock_timed_out ? EXIT_LOCK_TIMEOUT : EXIT_FAILURE_LOAD;
}

/*
 * After --append committed: freeze and analyze.  The rows are in either way;
 * a failure here says they are not frozen.
 */
static int
freeze_appended(Load *ld)
{
	double		t0 = now_s();

	say_post_step(ld);
	if (!load_step(ld, ld->ctl, sqlf("%s %s", ld->post_what, ld->target)))
	{
		log_error("the rows were added to %s, but %s failed: %s", ld->qname,
				  ld->post_what, ld->error);
		return EXIT_FAILURE_LOAD;
	}
	ld->post_s += now_s() - t0;
	return 0;
}

/*
 * The jobs (plan.c), and on stderr what an explicit count is expected to
 * cost; then the WAL position and checkpoint counters the summary starts
 * from.  options is the load's own copy, whose jobs this sets.
 */
static bool
plan_load(Load *ld, Options *options, const Dbt3 *gen)
{
	plan_jobs(&ld->plan, &ld->server, options->jobs, ld->target_unlogged, ld->target_citus,
			  options->append, gen->units,
			  gen->units * load_table(options->kind)->bytes_per_unit / 1e6);
	options->jobs = ld->plan.jobs;
	if (ld->plan.cost[0] && !options->quiet)
		fprintf(stderr, LOADER_NAME ": note: %s\n", ld->plan.cost);
	for (int i = 0; i < options->nindexes && options->jobs > 1 && !options->quiet; i++)
		if (strcmp(options->index_columns[i], load_table(options->kind)->heap_order) == 0)
			fprintf(stderr, LOADER_NAME ": note: with %d jobs the heap is not in %s's order: "
					"each job writes its own range of it into pages that interleave with the "
					"others', and its correlation will be about 1/%d; one job writes the heap "
					"in its order\n", options->jobs, options->index_columns[i], options->jobs);
	ld->wal_before = server_wal_lsn(ld->ctl);
	return ld->wal_before >= 0 &&
		server_checkpoints(ld->ctl, &ld->server, &ld->timed_before, &ld->requested_before);
}

/* After the load: the WAL position and the checkpoint counters again. */
static void
measure_after(Load *ld)
{
	ld->wal_after = server_wal_lsn(ld->ctl);
	if (!server_checkpoints(ld->ctl, &ld->server, &ld->timed_after, &ld->requested_after))
	{
		ld->timed_after = ld->timed_before;
		ld->requested_after = ld->requested_before;
	}
}

int
load(const Options *given, const Dbt3 *gen, Progress *pg)
{
	Options		options = *given;
	const Options *opt = &options;
	Load		ld = {.opt = opt,.pg = pg};
	int			status = 0;
	bool		jobs_ok;

	if (!open_control(&ld) || !plan_load(&ld, &options, gen) || !connect_jobs(&ld, gen))
		return EXIT_FAILURE_LOAD;

	/* From the first change on, a signal means: roll back, remove, report. */
	signals_set_phase(true, NULL);
	ld.cpu_start = cpu_s();
	if (!begin_load(&ld))
		return fail_load(&ld);
	jobs_ok = run_jobs(ld.jobs, opt->jobs, ld.ctl, ld.freezer.conn ? &ld.freezer : NULL, pg);
	ld.generation_cpu_s = cpu_s() - ld.cpu_start;
	if (!jobs_ok || !finish_load(&ld))
		return fail_load(&ld);
	ld.post_s = now_s() - pg->start - ld.copy_s - ld.index_s;

	/* Committed: the table is complete, whatever comes now. */
	signals_set_phase(false, opt->append
					  ? LOADER_NAME ": error: interrupted after the rows were added and "
					  "committed: they are not frozen\n"
					  : LOADER_NAME ": error: interrupted after the load committed: "
					  "the table is complete\n");
	if (interrupted)
	{
		log_error("interrupted after the load committed: the table is complete");
		return interrupted_status();
	}
	close_jobs(&ld);
	if (opt->append && (status = freeze_appended(&ld)) != 0)
		return status;
	measure_after(&ld);
	load_print_summary(&ld);
	if (opt->check && !run_check(ld.ctl, ld.qname, ld.target, ld.extschema))
		return EXIT_FAILURE_LOAD;
	signals_watch_conn(0, NULL);
	PQfreemem(ld.qname);
	free(ld.extschema);
	PQfinish(ld.ctl);
	free(ld.jobs);
	return 0;
}
