/*
 * check.c: --check, scan_efficiency() of the loaded table.
 *
 * As pg_repack's client does, the extension is checked before anything is
 * loaded: one missing or of another version than this client would make
 * --check's output not mean what it says.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "check.h"
#include "cli.h"
#include "loader.h"

bool
check_extension(PGconn *conn, char **schema)
{
	PGresult   *res = PQexec(conn,
							 "SELECT e.extversion, pg_catalog.quote_ident(n.nspname::pg_catalog.text) "
							 "FROM pg_catalog.pg_extension e "
							 "JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) e.extnamespace "
							 "WHERE e.extname OPERATOR(pg_catalog.=) 'scanbench'");
	bool		ok = false;

	if (PQresultStatus(res) != PGRES_TUPLES_OK)
		log_error("could not look up the scanbench extension: %s",
				  chomp(PQerrorMessage(conn)));
	else if (PQntuples(res) == 0)
		log_error("--check needs the scanbench extension, which is not installed in database \"%s\"\n"
				  "hint: CREATE EXTENSION scanbench; or leave out --check",
				  PQdb(conn));
	else if (strcmp(PQgetvalue(res, 0, 0), LOADER_VERSION) != 0)
		log_error("the scanbench extension in database \"%s\" is version %s, "
				  "but " LOADER_NAME " was built for version " LOADER_VERSION "\n"
				  "hint: use the " LOADER_NAME " of the installed version, or update "
				  "the extension (ALTER EXTENSION scanbench UPDATE TO '" LOADER_VERSION "')",
				  PQdb(conn), PQgetvalue(res, 0, 0));
	else if ((*schema = strdup(PQgetvalue(res, 0, 1))) == NULL)
		log_error("out of memory");
	else
		ok = true;
	PQclear(res);
	return ok;
}

/* A column of the first row by name, "none" where NULL or absent. */
static const char *
value_of(PGresult *res, const char *name)
{
	int			c = PQfnumber(res, name);

	if (c < 0 || PQntuples(res) == 0 || PQgetisnull(res, 0, c))
		return "none";
	return PQgetvalue(res, 0, c);
}

/*
 * The figure, how sure it is and whether to believe it, in one line.  The
 * verdict is a text[] from scanbench 0.3 on ("{unstable,io_limited}"), a
 * text before: printed the same way, its marks joined by commas.
 */
static void
print_verdict(PGresult *res)
{
	const char *v = value_of(res, "verdict");
	size_t		len = strlen(v);

	if (len >= 2 && v[0] == '{' && v[len - 1] == '}')
		printf("scan_pct %s %%, 95 %% interval %s to %s, %s pairs, verdict %.*s\n",
			   value_of(res, "scan_pct"), value_of(res, "scan_pct_lo"),
			   value_of(res, "scan_pct_hi"), value_of(res, "pairs"),
			   (int) len - 2, v + 1);
	else
		printf("scan_pct %s %%, 95 %% interval %s to %s, %s pairs, verdict %s\n",
			   value_of(res, "scan_pct"), value_of(res, "scan_pct_lo"),
			   value_of(res, "scan_pct_hi"), value_of(res, "pairs"), v);
}

/* A column of the first row as a number above zero, or -1. */
static double
positive_of(PGresult *res, const char *name)
{
	const char *v = value_of(res, name);
	char	   *end;
	double		d = strtod(v, &end);

	return (end != v && *end == '\0' && d > 0) ? d : -1;
}

/*
 * What makes the three figures agree.  A reader divides scan_mb_s by
 * read_mb_s and expects scan_pct; but scan_efficiency's scan_pct is the
 * median of each pair's own ratio (one stretch read, then scanned, back to
 * back), while read_mb_s and scan_mb_s are each side's own median, taken
 * from different pairs: a ratio of medians, not a median of ratios.  Both,
 * and the ratio of all the pairs' time together (read_s / scan_s: both
 * sides read the same bytes), are printed, each labelled with how it is
 * computed, so that none looks like a contradiction of another.
 */
static void
print_agreement(PGresult *res)
{
	double		pct = positive_of(res, "scan_pct");
	double		read_rate = positive_of(res, "read_mb_s");
	double		scan_rate = positive_of(res, "scan_mb_s");
	double		read_s = positive_of(res, "read_s");
	double		scan_s = positive_of(res, "scan_s");
	bool		whole = strcmp(value_of(res, "method"), "whole") == 0;
	const char *unit = whole ? "run" : "pair";

	if (pct < 0)
		return;
	printf("  scan_pct            %6.1f %%  the median of each %s's own scan rate / read rate (the figure judged)\n",
		   pct, unit);
	if (read_rate > 0 && scan_rate > 0)
		printf("  scan_mb_s/read_mb_s %6.1f %%  a ratio of two medians, each side's own, from different %ss\n",
			   100.0 * scan_rate / read_rate, unit);
	if (read_s > 0 && scan_s > 0)
		printf("  read_s/scan_s       %6.1f %%  %s\n", 100.0 * read_s / scan_s,
			   whole ? "the median run's reading time against its scanning time"
			   : "all the pairs' reading time against all their scanning time");
}

/*
 * scan_efficiency(table), printed one column a line like psql's \x, then
 * the verdict line and what makes its figures agree.  target is the table
 * with its schema, schema the extension's (check_extension), both quoted.
 */
bool
run_check(PGconn *conn, const char *qname, const char *target, const char *schema)
{
	const char *params[1] = {target};
	char	   *sql = malloc(strlen(schema) + 64);
	PGresult   *res;
	int			width = 0;

	if (sql == NULL)
	{
		log_error("out of memory");
		return false;
	}
	sprintf(sql, "SELECT * FROM %s.scan_efficiency($1::pg_catalog.regclass)", schema);
	res = PQexecParams(conn, sql, 1, NULL, params, NULL, NULL, 0);
	free(sql);

	if (PQresultStatus(res) != PGRES_TUPLES_OK)
	{
		log_error("scan_efficiency(%s) failed (the table is loaded): %s",
				  qname, chomp(PQerrorMessage(conn)));
		PQclear(res);
		return false;
	}
	for (int c = 0; c < PQnfields(res); c++)
		if ((int) strlen(PQfname(res, c)) > width)
			width = (int) strlen(PQfname(res, c));
	printf("scan_efficiency(%s)\n", qname);
	for (int r = 0; r < PQntuples(res); r++)
		for (int c = 0; c < PQnfields(res); c++)
			printf("  %-*s | %s\n", width, PQfname(res, c),
				   PQgetisnull(res, r, c) ? "" : PQgetvalue(res, r, c));
	print_verdict(res);
	print_agreement(res);
	PQclear(res);
	return true;
}
