/*
 * check.c: --check, scan_efficiency() of the loaded table.
 *
 * As pg_repack's client does, the extension is checked before anything is
 * loaded: one missing or of another version than this client would make
 * --check's output not mean what it says.
 */
#include <stdio.h>
#include <string.h>

#include "loader.h"

bool
check_extension(PGconn *conn)
{
	PGresult   *res = PQexec(conn,
							 "SELECT extversion FROM pg_catalog.pg_extension "
							 "WHERE extname = 'scanbench'");
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

/*
 * scan_efficiency(table), printed one column a line like psql's \x, then
 * the verdict line.
 */
bool
run_check(PGconn *conn, const char *qname)
{
	const char *params[1] = {qname};
	PGresult   *res = PQexecParams(conn,
								   "SELECT * FROM scan_efficiency($1::regclass)",
								   1, NULL, params, NULL, NULL, 0);
	int			width = 0;

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
	PQclear(res);
	return true;
}
