/*
 * tables.h: the tables scanbench-load makes, lineitem and part_doc: their
 * columns, what --index may build on them, their size on disk (tables.c).
 */
#ifndef SCANBENCH_LOAD_TABLES_H
#define SCANBENCH_LOAD_TABLES_H

#include <stdbool.h>

#include "dbt3.h"

/* The most indexes --index builds on one table. */
#define MAX_INDEXES			8

typedef struct
{
	Dbt3Table	gen;			/* what the generator makes for it */
	const char *name;			/* the default --table */
	const char *columns;		/* CREATE TABLE's column list */
	const char *storage;		/* ALTER TABLE ... ALTER COLUMN clause, or NULL */
	const char *const *index_columns;	/* what --index takes, NULL-terminated */
	const char *heap_order;		/* the column one job writes the heap in order of */
	double		bytes_per_unit; /* on disk, all forks, for the cost line */
} LoadTable;

extern const LoadTable *load_table(Dbt3Table gen);
extern const char *index_column_list(const LoadTable *t, char *buf, int len);
extern bool is_index_column(const LoadTable *t, const char *column);

#endif							/* SCANBENCH_LOAD_TABLES_H */
