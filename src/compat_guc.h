/*-------------------------------------------------------------------------
 *
 * compat_guc.h
 *	  A setting's definition by name across the majors
 *	  (compat.h has the rest); it includes what it needs, so the file
 *	  that uses it may include it in any order.
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCANBENCH_COMPAT_GUC_H
#define SCANBENCH_COMPAT_GUC_H

#include "utils/guc.h"
#include "utils/guc_tables.h"

/*
 * A setting's definition (context, flags) by name, or NULL: find_option()
 * is exported from 16 on; before, the sorted array of settings is
 * searched by hand (names are case-insensitive).
 */
#if PG_VERSION_NUM >= 160000
#define sb_find_guc(name)	find_option(name, false, true, ERROR)
#else
static inline struct config_generic *
sb_find_guc(const char *name)
{
	struct config_generic **vars = get_guc_variables();
	int			n = GetNumConfigOptions();
	int			i;

	for (i = 0; i < n; i++)
		if (pg_strcasecmp(vars[i]->name, name) == 0)
			return vars[i];
	return NULL;
}
#endif

#endif							/* SCANBENCH_COMPAT_GUC_H */
