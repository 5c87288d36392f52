/*-------------------------------------------------------------------------
 *
 * tablespace.c
 *	  Where a tablespace's files are, and which tablespace holds the files
 *	  of a measured relation.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_tablespace.h"
#include "commands/tablespace.h"
#include "miscadmin.h"
#include "utils/rel.h"

#include "tablespace.h"

/*
 * A tablespace's directory, relative to the data directory: base and
 * global for the built-in ones, pg_tblspc/OID/PG_<version> (the link
 * followed to the location, with the server version's subdirectory)
 * for the others.
 */
char *
sb_tablespace_dir(Oid spc)
{
	if (spc == DEFAULTTABLESPACE_OID || spc == InvalidOid)
		return pstrdup("base");
	if (spc == GLOBALTABLESPACE_OID)
		return pstrdup("global");
	return psprintf("pg_tblspc/%u/%s", spc, TABLESPACE_VERSION_DIRECTORY);
}

/*
 * The tablespace of the member whose file stands for the target
 * (sb_target_first_path), as an Oid that is never 0.
 */
Oid
sb_target_tablespace(SbTarget *target)
{
	Relation	rel = target->nleaves > 0 ? target->leaves[0].rel : NULL;
	int			i;

	for (i = 0; i < target->nleaves && target->nsegments > 0; i++)
		if (RelationGetRelid(target->leaves[i].rel) == target->segments[0]->relid)
			rel = target->leaves[i].rel;
	if (rel == NULL)
		return MyDatabaseTableSpace;
	if (OidIsValid(rel->rd_rel->reltablespace))
		return rel->rd_rel->reltablespace;
	return rel->rd_rel->relisshared ? GLOBALTABLESPACE_OID : MyDatabaseTableSpace;
}
