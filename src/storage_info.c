/*-------------------------------------------------------------------------
 *
 * storage_info.c
 *	  storage_info(): the layers under a relation or a tablespace, from the
 *	  filesystem down to the disks (devices.c), one row each, with the
 *	  server settings that shape its I/O and the limits the server's control
 *	  group puts on its CPU and on the device's reads and writes.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/catalog.h"
#include "catalog/namespace.h"
#include "catalog/pg_tablespace.h"
#include "commands/tablespace.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/tuplestore.h"

#include "cgroup.h"
#include "storage.h"

PG_FUNCTION_INFO_V1(storage_info_rel);
PG_FUNCTION_INFO_V1(storage_info_tablespace);

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

static void
put_int(SbRow *row, const char *name, int64 v)
{
	if (v < 0)
		sb_row_null(row, name);
	else
		sb_row_datum(row, name, Int32GetDatum((int32) Min(v, PG_INT32_MAX)));
}

/* One row per layer under path. */
static void
emit_layers(FunctionCallInfo fcinfo, const char *spcname, const char *path)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	Datum		settings = sb_io_settings();
	List	   *layers = sb_storage_layers(path);
	SbCgroupLimits limits;
	ListCell   *lc;

	/* The server's limits, the same on every layer's row. */
	sb_cgroup_limits(path, &limits);

	foreach(lc, layers)
	{
		SbLayer    *l = lfirst(lc);
		SbRow		row;

		sb_row_init(&row, rsinfo->setDesc);
		sb_row_text(&row, "tablespace", spcname);
		sb_row_text(&row, "data_path", path);
		sb_row_datum(&row, "level", Int32GetDatum(l->level));
		sb_row_text(&row, "kind", l->kind);
		sb_row_text(&row, "name", l->name);
		sb_row_text(&row, "parent", l->parent);
		sb_row_text(&row, "major_minor", l->major_minor);
		sb_row_text(&row, "mount_point", l->mount_point);
		sb_row_text(&row, "fstype", l->fstype);
		sb_row_text(&row, "mount_options", l->mount_options);
		sb_row_text(&row, "dm_name", l->dm_name);
		sb_row_text(&row, "raid_level", l->raid_level);
		sb_row_text(&row, "backing_file", l->backing_file);
		if (l->rotational < 0)
			sb_row_null(&row, "rotational");
		else
			sb_row_datum(&row, "rotational", BoolGetDatum(l->rotational != 0));
		sb_row_text(&row, "scheduler", l->scheduler);
		put_int(&row, "read_ahead_kb", l->read_ahead_kb);
		put_int(&row, "nr_requests", l->nr_requests);
		put_int(&row, "logical_block_size", l->logical_block_size);
		put_int(&row, "physical_block_size", l->physical_block_size);
		put_int(&row, "max_sectors_kb", l->max_sectors_kb);
		if (l->size_bytes < 0)
			sb_row_null(&row, "size_bytes");
		else
			sb_row_datum(&row, "size_bytes", Int64GetDatum(l->size_bytes));
		sb_row_text(&row, "note", l->note);
		sb_row_datum(&row, "settings", settings);
		sb_row_limits(&row, &limits);
		tuplestore_puttuple(rsinfo->setResult, sb_row_tuple(&row));
	}
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

/* storage_info(rel regclass): under the relation's first file. */
Datum
storage_info_rel(PG_FUNCTION_ARGS)
{
	Oid			relid = PG_GETARG_OID(0);
	SbTarget   *target;

	sb_init_srf(fcinfo);
	target = sb_target_open(relid, SB_TARGET_FILES);
	emit_layers(fcinfo, get_tablespace_name(sb_target_tablespace(target)),
				sb_target_first_path(target));
	sb_target_close(target);
	return (Datum) 0;
}

/* storage_info(tablespace name): under the tablespace's directory. */
Datum
storage_info_tablespace(PG_FUNCTION_ARGS)
{
	char	   *spcname = NameStr(*PG_GETARG_NAME(0));
	Oid			spc = get_tablespace_oid(spcname, true);

	/*
	 * storage_info('x') with a bare literal lands here, since a literal
	 * resolves to name before regclass: say how to name a relation.
	 */
	if (!OidIsValid(spc))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("tablespace \"%s\" does not exist", spcname),
				 OidIsValid(RelnameGetRelid(spcname)) ?
				 errhint("To look under the relation \"%s\", write storage_info('%s'::regclass) or storage_info(rel => '%s').",
						 spcname, spcname, spcname) : 0));

	sb_init_srf(fcinfo);
	emit_layers(fcinfo, spcname, sb_tablespace_dir(spc));
	return (Datum) 0;
}
