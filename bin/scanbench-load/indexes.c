/*
 * indexes.c: the indexes --index builds.
 *
 * They are built on the staging table once its rows are in (after the
 * COPY, or after the jobs' COPYs and VACUUM (FREEZE, ANALYZE)), one after
 * the other on one connection, each a plain CREATE INDEX: a sort of the
 * finished table is faster than keeping an index through the COPY, and
 * the server may give each build parallel workers
 * (max_parallel_maintenance_workers).  They take the names the server
 * would choose for an index on the named table, TABLE_COLUMN_idx, in the
 * last transaction, after the rename of the table: on the staging table
 * they are named after it, so that the old table's indexes, which --drop
 * drops only then, keep their names until then.  A name that another
 * relation holds would fail that transaction after the whole load, so it
 * is looked for before anything is written.
 *
 * The statistics do not wait for them: ANALYZE of plain columns does not
 * depend on the indexes, and pg_stats.correlation, which tells an index
 * that follows the heap from one that does not, is there either way.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "cli.h"
#include "db.h"
#include "indexes.h"
#include "load_state.h"
#include "loader.h"
#include "progress.h"
#include "signals.h"
#include "step.h"

/* The schema part of ld->target, which is "schema.table", both quoted. */
static int
schema_len(const Load *ld)
{
	return (int) (strlen(ld->target) - strlen(ld->qname) - 1);
}

/*
 * The names, and each free or an index of the old table that --drop
 * drops.  Before any change; false (logged) if a name is taken.
 */
bool
load_check_index_names(Load *ld)
{
	const Options *opt = ld->opt;
	char	   *old = NULL;

	if (ld->exists && opt->drop &&
		(old = PQescapeLiteral(ld->ctl, ld->target, strlen(ld->target))) == NULL)
	{
		log_error("could not quote the table name: %s", chomp(PQerrorMessage(ld->ctl)));
		return false;
	}
	for (int i = 0; i < opt->nindexes; i++)
	{
		LoadIndex  *ix = &ld->indexes[i];
		char		where[400];
		PGresult   *res;
		bool		taken;

		ix->column = opt->index_columns[i];
		snprintf(ix->name, sizeof(ix->name), "%s_%s_idx", opt->table, ix->column);
		ix->qname = PQescapeIdentifier(ld->ctl, ix->name, strlen(ix->name));
		if (ix->qname == NULL)
		{
			log_error("invalid index name: %s", chomp(PQerrorMessage(ld->ctl)));
			PQfreemem(old);
			return false;
		}
		snprintf(ix->staging, sizeof(ix->staging), "%.*s.%s_%s", schema_len(ld), ld->target,
				 ld->staging_name, ix->column);
		snprintf(where, sizeof(where), "%.*s.%s", schema_len(ld), ld->target, ix->qname);
		res = query_rows(ld->ctl,
							sqlf("SELECT NOT (c.relkind OPERATOR(pg_catalog.=) 'i' AND EXISTS (SELECT 1 "
								 "FROM pg_catalog.pg_index i WHERE i.indexrelid OPERATOR(pg_catalog.=) c.oid "
								 "AND i.indrelid OPERATOR(pg_catalog.=) "
								 "pg_catalog.to_regclass(%s::pg_catalog.text))) "
								 "FROM pg_catalog.pg_class c "
								 "WHERE c.oid OPERATOR(pg_catalog.=) pg_catalog.to_regclass($1::pg_catalog.text)",
								 old ? old : "NULL"), where);
		if (res == NULL)
		{
			PQfreemem(old);
			return false;
		}
		taken = PQntuples(res) == 1 && PQgetvalue(res, 0, 0)[0] == 't';
		PQclear(res);
		if (taken)
		{
			log_error("cannot name an index %s: relation %s already exists%s\n"
					  "hint: drop or rename it, or name another table with --table; "
					  "nothing was written", ix->qname, where,
					  ld->exists && opt->drop ? ", and it is not an index of the table "
					  "--drop replaces" : "");
			PQfreemem(old);
			return false;
		}
	}
	PQfreemem(old);
	return true;
}

/* Build each index on the staging table, timed, and its size. */
bool
load_build_indexes(Load *ld, PGconn *conn)
{
	const Options *opt = ld->opt;
	double		start = now_s();

	for (int i = 0; i < opt->nindexes; i++)
	{
		LoadIndex  *ix = &ld->indexes[i];
		double		t0 = now_s();
		char	   *bytes;

		/* a signal between two builds, whose cancel found nothing to stop */
		if (interrupted)
			return false;
		if (ld->pg->interval > 0)
			fprintf(stderr, "CREATE INDEX %s ...\n", ix->qname);
		if (!load_step(ld, conn, sqlf("CREATE INDEX %s_%s ON %s (%s)", ld->staging_name,
									  ix->column, ld->staging, ix->column)))
			return false;
		ix->seconds = now_s() - t0;
		bytes = query_value(conn, "SELECT pg_catalog.pg_relation_size($1::pg_catalog.regclass)",
							ix->staging);
		if (bytes == NULL)
			return false;
		ix->bytes = strtoll(bytes, NULL, 10);
		free(bytes);
	}
	ld->index_s = now_s() - start;
	return true;
}

/* In the last transaction, after the table's rename: the indexes' names. */
bool
load_rename_indexes(Load *ld, PGconn *conn)
{
	for (int i = 0; i < ld->opt->nindexes; i++)
		if (!load_step(ld, conn, sqlf("ALTER INDEX %s RENAME TO %s", ld->indexes[i].staging,
									  ld->indexes[i].qname)))
			return false;
	return true;
}
