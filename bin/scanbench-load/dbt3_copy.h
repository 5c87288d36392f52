/*
 * dbt3_copy.h: the generator's rows as COPY data, text or binary
 * (dbt3_copy.c).
 */
#ifndef DBT3_COPY_H
#define DBT3_COPY_H

#include <stdint.h>

#include "dbt3.h"

extern const char *dbt3_format_name(Dbt3Format format);
extern char *dbt3_put_header(Dbt3Format format, char *p);
extern char *dbt3_put_trailer(Dbt3Format format, char *p);
extern char *dbt3_put_order(const Dbt3 *g, Dbt3Format format, int64_t order,
							char *p, int *nrows);
extern char *dbt3_put_unit(const Dbt3 *g, Dbt3Format format, int64_t unit,
						   char *p, int *nrows);

#endif							/* DBT3_COPY_H */
