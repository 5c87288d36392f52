/*
 * tables.c: the tables scanbench-load makes, in one place.
 *
 * lineitem is DBT-3's.  part_doc (--toast) is the loader's own: a row a
 * part (SF x 200,000 rows, keyed as lineitem's l_partkey) whose pd_doc is
 * 2 to 6 kB of the generator's text, a table whose bytes are nearly all in
 * its TOAST relation.  Why a table of its own rather than a wider
 * l_comment: a value goes out of line only in a row over about 2 kB, and
 * lineitem has 30 times as many rows as part_doc; every row of it made that
 * wide would be a table of 13 GB a scale factor, and lineitem's figures
 * (its 157.7 bytes a row, every measurement made of it) would change.
 * part_doc at 4 kB a row is about lineitem's size a scale factor, 98 % of
 * it in the TOAST relation.
 *
 * pd_doc is STORAGE EXTERNAL: out of line and never compressed.  The
 * generator's text is pseudo-English, which pglz would shrink to about
 * half, near the 2 kB threshold where the server keeps a value inline;
 * stored as it is, every value goes out of line whatever
 * default_toast_compression is, its bytes on disk are the bytes the
 * generator made, and a detoasting read costs reads and a copy, no
 * decompression: what a measurement of TOAST reads wants.
 *
 * --index builds single-column B-tree indexes on the columns DBT-3's own
 * index set covers with one column (lineitem), or on the key (part_doc).
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "dbt3.h"
#include "tables.h"

/*
 * Column types as the reference gives them (bigint, integer, numeric(15,2),
 * char(n), date, varchar(44)); bigint keys fit SF >= 300.  Named in
 * pg_catalog, as everything the loader's SQL names (db.c): a domain named
 * date that another role made in a schema on the path would otherwise be
 * the column's type, its CHECK run on every row.
 */
static const char lineitem_columns[] =
"(\n"
"    l_orderkey      pg_catalog.int8 NOT NULL,\n"
"    l_partkey       pg_catalog.int4 NOT NULL,\n"
"    l_suppkey       pg_catalog.int4 NOT NULL,\n"
"    l_linenumber    pg_catalog.int4 NOT NULL,\n"
"    l_quantity      pg_catalog.numeric(15,2) NOT NULL,\n"
"    l_extendedprice pg_catalog.numeric(15,2) NOT NULL,\n"
"    l_discount      pg_catalog.numeric(15,2) NOT NULL,\n"
"    l_tax           pg_catalog.numeric(15,2) NOT NULL,\n"
"    l_returnflag    pg_catalog.bpchar(1) NOT NULL,\n"
"    l_linestatus    pg_catalog.bpchar(1) NOT NULL,\n"
"    l_shipdate      pg_catalog.date NOT NULL,\n"
"    l_commitdate    pg_catalog.date NOT NULL,\n"
"    l_receiptdate   pg_catalog.date NOT NULL,\n"
"    l_shipinstruct  pg_catalog.bpchar(25) NOT NULL,\n"
"    l_shipmode      pg_catalog.bpchar(10) NOT NULL,\n"
"    l_comment       pg_catalog.varchar(44) NOT NULL\n"
")";

static const char *const lineitem_index_columns[] = {
	"l_orderkey", "l_partkey", "l_suppkey", "l_shipdate", "l_commitdate", "l_receiptdate",
	NULL
};

static const char part_doc_columns[] =
"(\n"
"    pd_partkey      pg_catalog.int4 NOT NULL,\n"
"    pd_bytes        pg_catalog.int4 NOT NULL,\n"
"    pd_doc          pg_catalog.text NOT NULL\n"
")";

static const char *const part_doc_index_columns[] = {"pd_partkey", NULL};

static const LoadTable tables[] = {
	{DBT3_LINEITEM, "lineitem", lineitem_columns, NULL, lineitem_index_columns, "l_orderkey",
	4.0 * 157.7},
	/* 4,100 bytes of text in chunks of 2 kB, 4 a page, and a row of 61 bytes */
	{DBT3_PART_DOC, "part_doc", part_doc_columns, "ALTER COLUMN pd_doc SET STORAGE EXTERNAL",
	part_doc_index_columns, "pd_partkey", 4850.0},
};

const LoadTable *
load_table(Dbt3Table gen)
{
	return &tables[gen == DBT3_PART_DOC ? 1 : 0];
}

bool
is_index_column(const LoadTable *t, const char *column)
{
	for (const char *const *c = t->index_columns; *c; c++)
		if (strcmp(*c, column) == 0)
			return true;
	return false;
}

/* "l_orderkey, l_partkey, ..." for a message. */
const char *
index_column_list(const LoadTable *t, char *buf, int len)
{
	int			used = 0;

	buf[0] = '\0';
	for (const char *const *c = t->index_columns; *c && used < len; c++)
		used += snprintf(buf + used, len - used, "%s%s", used ? ", " : "", *c);
	return buf;
}
