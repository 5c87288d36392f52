/*-------------------------------------------------------------------------
 *
 * storage.c
 *	  What sits under the data and how it behaves:
 *	  - storage_info(), storage_info_tablespace(): the layers under a
 *	    relation or a tablespace, from the filesystem down to the disks
 *	    (devices.c), one row each, with
 *	    the server settings that shape its I/O and the limits the server's
 *	    control group puts on its CPU and on the device's reads and writes;
 *	  - storage_profile(): timed tests on a scratch file in a tablespace
 *	    (scratch.c).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "catalog/catalog.h"
#include "catalog/namespace.h"
#include "catalog/pg_tablespace.h"
#include "catalog/pg_type.h"
#include "commands/tablespace.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/tuplestore.h"

#include "argcheck.h"
#include "cgroup.h"
#include "devices.h"
#include "fnargs.h"
#include "relfiles.h"
#include "rows.h"
#include "scratch.h"
#include "settings.h"
#include "stats.h"
#include "tablespace.h"

PG_FUNCTION_INFO_V1(storage_info_rel);
PG_FUNCTION_INFO_V1(storage_info_tablespace);
PG_FUNCTION_INFO_V1(storage_profile);

static void
put_int(SbRow *row, const char *name, int64 v)
{
	if (v < 0)
		sb_row_null(row, name);
	else
		sb_row_datum(row, name, Int32GetDatum((int32) Min(v, PG_INT32_MAX)));
}

/* storage_info_result's columns renamed in 0.3 */
static const SbRenamed storage_info_renamed[] =
{
	{"filesystem", "fstype"},
};

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

		sb_row_init(&row, rsinfo->setDesc, storage_info_renamed,
				lengthof(storage_info_renamed));
		sb_row_text(&row, "tablespace", spcname);
		sb_row_text(&row, "data_path", path);
		sb_row_datum(&row, "level", Int32GetDatum(l->level));
		sb_row_text(&row, "kind", l->kind);
		sb_row_text(&row, "name", l->name);
		sb_row_text(&row, "parent", l->parent);
		sb_row_text(&row, "major_minor", l->major_minor);
		sb_row_text(&row, "mount_point", l->mount_point);
		sb_row_text(&row, "filesystem", l->fstype);
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

/* storage_info(rel regclass): under the relation's first file. */
Datum
storage_info_rel(PG_FUNCTION_ARGS)
{
	Oid			relid;
	SbTarget   *target;
	SbArgs		args;

	sb_args_refuse_nulls(fcinfo);
	sb_args_init(&args, fcinfo);
	relid = sb_arg_oid(&args, "rel", REGCLASSOID);

	sb_init_srf(fcinfo);
	target = sb_target_open(relid, SB_TARGET_FILES);
	emit_layers(fcinfo, get_tablespace_name(sb_target_tablespace(target)),
				sb_target_first_path(target));
	sb_target_close(target);
	return (Datum) 0;
}

/*
 * storage_info_tablespace(tablespace name): under the tablespace's
 * directory.  Up to 0.2 this was the overload storage_info(tablespace
 * name), which the library still serves.
 */
Datum
storage_info_tablespace(PG_FUNCTION_ARGS)
{
	char	   *spcname;
	Oid			spc;
	SbArgs		args;

	sb_args_refuse_nulls(fcinfo);
	sb_args_init(&args, fcinfo);
	spcname = sb_arg_name(&args, "tablespace");
	spc = get_tablespace_oid(spcname, true);

	/*
	 * Under 0.2's overload, storage_info('x') with a bare literal lands
	 * here, since a literal resolves to name before regclass; from 0.3 the
	 * name says what it looks under.  Either way, say how to name a
	 * relation.
	 */
	if (!OidIsValid(spc))
	{
		bool		overload = strcmp(get_func_name(fcinfo->flinfo->fn_oid), "storage_info") == 0;

		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("tablespace \"%s\" does not exist", spcname),
				 !OidIsValid(RelnameGetRelid(spcname)) ? 0 : overload ?
				 errhint("To look under the relation \"%s\", write storage_info('%s'::regclass) or storage_info(rel => '%s').",
						 spcname, spcname, spcname) :
				 errhint("To look under the relation \"%s\", call storage_info('%s').",
						 spcname, spcname)));
	}

	sb_init_srf(fcinfo);
	emit_layers(fcinfo, spcname, sb_tablespace_dir(spc));
	return (Datum) 0;
}

/* ---- storage_profile(tablespace, size_mb, block_size, random_ops) ---- */

/* Largest size_mb accepted: 16 TB. */
#define SB_MAX_SIZE_MB		16000000

/* storage_profile_result's columns renamed in 0.3 */
static const SbRenamed storage_profile_renamed[] =
{
	{"elapsed_s", "seconds"},
};

/* One test's row; the random tests alone have IOPS and latencies. */
static void
put_profile_row(ReturnSetInfo *rsinfo, const char *spcname,
				int32 block_size, SbTest test, const SbTestResult *r)
{
	SbRow		row;
	double		cpu_s = r->timing.user_s + r->timing.sys_s;

	sb_row_init(&row, rsinfo->setDesc, storage_profile_renamed,
				lengthof(storage_profile_renamed));
	sb_row_text(&row, "tablespace", spcname);
	sb_row_text(&row, "test", sb_scratch_test_name(test));
	sb_row_datum(&row, "block_size", Int32GetDatum(block_size));
	sb_row_datum(&row, "bytes", Int64GetDatum(r->bytes));
	sb_row_datum(&row, "ops", Int64GetDatum(r->ops));
	sb_row_float(&row, "cached_pct_before", r->cached_pct_before, 1);
	sb_row_float(&row, "elapsed_s", r->timing.seconds, 3);
	sb_row_float(&row, "mb_s", sb_rate(r->bytes / SB_MB, r->timing.seconds), 1);
	sb_row_float(&row, "iops",
				 r->random ? sb_rate(r->ops, r->timing.seconds) : NAN, 0);
	sb_row_float(&row, "latency_p50_us", r->random ? r->p50_us : NAN, 1);
	sb_row_float(&row, "latency_p95_us", r->random ? r->p95_us : NAN, 1);
	sb_row_float(&row, "latency_p99_us", r->random ? r->p99_us : NAN, 1);
	sb_row_float(&row, "user_s", r->timing.user_s, 3);
	sb_row_float(&row, "sys_s", r->timing.sys_s, 3);
	sb_row_float(&row, "cpu_pct", r->timing.seconds > 0 ?
				 100.0 * cpu_s / r->timing.seconds : NAN, 1);
	tuplestore_puttuple(rsinfo->setResult, sb_row_tuple(&row));
}

Datum
storage_profile(PG_FUNCTION_ARGS)
{
	char	   *spcname;
	int32		size_mb;
	int32		block_size;
	int32		random_ops;
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	SbTestResult results[SB_NTESTS];
	Oid			spc;
	uint64		bytes;
	SbArgs		args;
	int			i;

	sb_args_refuse_nulls(fcinfo);
	sb_args_init(&args, fcinfo);
	spcname = sb_arg_name(&args, "tablespace");
	size_mb = sb_arg_int32(&args, "size_mb", 1024);
	block_size = sb_arg_int32(&args, "block_size", 8192);
	random_ops = sb_arg_int32(&args, "random_ops", 10000);

	if (size_mb < 1 || size_mb > SB_MAX_SIZE_MB)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid size_mb: %d", size_mb),
				 errhint("size_mb must be between 1 and %d (MB of 10^6 bytes).",
						 SB_MAX_SIZE_MB)));
	sb_check_block_size(block_size);
	sb_check_random_ops("random_ops", random_ops);
	bytes = (uint64) size_mb * 1000000;
	bytes -= bytes % block_size;
	if (bytes == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("size_mb %d is smaller than one block of %d bytes",
						size_mb, block_size)));
	spc = sb_check_write_tablespace(get_tablespace_oid(spcname, false));
	sb_scratch_check_space(spc, bytes);
	sb_init_srf(fcinfo);

	sb_scratch_profile(spc, bytes, block_size, (uint64) random_ops, results);

	for (i = 0; i < SB_NTESTS; i++)
		put_profile_row(rsinfo, spcname, block_size, (SbTest) i, &results[i]);
	return (Datum) 0;
}
