/*-------------------------------------------------------------------------
 *
 * history.c
 *	  What the run history needs from C: the block device's queue settings
 *	  and the kernel under a relation (scan_history_host), and the call
 *	  that records a scan_efficiency result row (sb_history_record).
 *
 * The history itself (table, checks, trend, metrics, chart) is SQL in the
 * install script; only what SQL cannot reach lives here.  The scheduler
 * and read-ahead are what people change under a database without telling
 * it, and a change of either moves scan efficiency, so every recorded run
 * keeps them to say what changed when a figure drops.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "funcapi.h"
#include "storage/fd.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/ruleutils.h"

#include "measure.h"

PG_FUNCTION_INFO_V1(scan_history_host);

/*
 * The first line of a small sysfs or procfs file, without its newline, or
 * NULL when it cannot be read (no such device, not Linux, a container that
 * hides /sys).
 */
static char *
read_line(const char *path)
{
	FILE	   *f;
	char		buf[1024];
	char	   *result = NULL;

	f = AllocateFile(path, "r");
	if (f == NULL)
		return NULL;
	if (fgets(buf, sizeof(buf), f) != NULL)
	{
		buf[strcspn(buf, "\n")] = '\0';
		result = pstrdup(buf);
	}
	FreeFile(f);
	return result;
}

/*
 * The queue directory of the block device holding path:
 * /sys/dev/block/MAJ:MIN/queue for a whole disk, its parent's for a
 * partition (partitions have no queue of their own).  NULL when the file's
 * device is not a block device (tmpfs, overlay, NFS).
 */
static char *
queue_dir_of(const char *path)
{
	struct stat st;
	char		dev[MAXPGPATH];
	char		probe[MAXPGPATH];
	struct stat pst;

	if (path == NULL || stat(path, &st) != 0)
		return NULL;
	snprintf(dev, sizeof(dev), "/sys/dev/block/%u:%u",
			 major(st.st_dev), minor(st.st_dev));
	snprintf(probe, sizeof(probe), "%s/queue", dev);
	if (stat(probe, &pst) == 0)
		return pstrdup(probe);
	snprintf(probe, sizeof(probe), "%s/partition", dev);
	if (stat(probe, &pst) == 0)
		return psprintf("%s/../queue", dev);
	return NULL;
}

/*
 * "none [mq-deadline] kyber bfq" -> "mq-deadline"; a lone "none" (the
 * only choice of many virtual disks) stays "none".
 */
static char *
active_scheduler(char *line)
{
	char	   *open,
			   *close;

	if (line == NULL)
		return NULL;
	open = strchr(line, '[');
	close = open ? strchr(open, ']') : NULL;
	if (open && close)
		return pnstrdup(open + 1, close - open - 1);
	return line;
}

/*
 * scan_history_host(rel regclass, OUT scheduler text,
 *					 OUT read_ahead_kb integer, OUT kernel text)
 */
Datum
scan_history_host(PG_FUNCTION_ARGS)
{
	Oid			relid = PG_GETARG_OID(0);
	TupleDesc	tupdesc = sb_result_tupdesc(fcinfo);
	SbTarget   *target;
	char	   *queue;
	char	   *ra;
	SbRow		row = {0};

	target = sb_target_open(relid, SB_TARGET_FILES);
	queue = queue_dir_of(sb_target_first_path(target));
	sb_target_close(target);

	sb_row_text(&row, queue ?
				active_scheduler(read_line(psprintf("%s/scheduler", queue))) : NULL);
	ra = queue ? read_line(psprintf("%s/read_ahead_kb", queue)) : NULL;
	if (ra && *ra && strspn(ra, "0123456789") == strlen(ra))
		sb_row_datum(&row, Int32GetDatum(pg_strtoint32(ra)));
	else
		sb_row_null(&row);
	sb_row_text(&row, read_line("/proc/sys/kernel/osrelease"));
	PG_RETURN_DATUM(sb_row_result(tupdesc, &row));
}

/*
 * Record a scan_efficiency result row (record => true): the SQL function
 * scan_history_record, in the schema the calling function lives in, does
 * the work, so that the history's columns are written in one place.  The
 * schema is the caller's own, looked up now, because the extension is
 * relocatable and the caller's search_path is not ours to trust.
 */
void
sb_history_record(FunctionCallInfo fcinfo, Datum result, TupleDesc tupdesc)
{
	Oid			nsp = get_func_namespace(fcinfo->flinfo->fn_oid);
	char	   *schema = get_namespace_name(nsp);
	char	   *sql;
	Oid			argtypes[1];
	Datum		values[1];
	int			ret;

	if (schema == NULL)
		elog(ERROR, "cache lookup failed for namespace %u", nsp);
	sql = psprintf("SELECT %s.scan_history_record($1)", quote_identifier(schema));
	argtypes[0] = tupdesc->tdtypeid;
	values[0] = result;

	SPI_connect();
	ret = SPI_execute_with_args(sql, 1, argtypes, values, NULL, false, 1);
	if (ret != SPI_OK_SELECT || SPI_processed != 1)
		elog(ERROR, "recording the run failed: %s", SPI_result_code_string(ret));
	SPI_finish();
}
