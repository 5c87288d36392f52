/*-------------------------------------------------------------------------
 *
 * history.c
 *	  What the run history needs from C: the kernel release
 *	  (scan_history_kernel) and the call that records a scan_efficiency
 *	  result row (sb_history_record).
 *
 * The history itself (table, checks, trend, metrics, chart) is SQL in the
 * install script; the device facts of a run come from storage_info().
 * Only what SQL cannot reach lives here: a kernel upgrade moves scan
 * efficiency like a scheduler change does, and a role that runs the check
 * cannot read /proc through pg_read_file.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <sys/utsname.h>

#include "access/xact.h"
#include "executor/spi.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/ruleutils.h"

#include "measure.h"

PG_FUNCTION_INFO_V1(scan_history_kernel);
PG_FUNCTION_INFO_V1(scan_history_outside_block);

/* scan_history_kernel() -> text: uname -r, or NULL where it fails. */
Datum
scan_history_kernel(PG_FUNCTION_ARGS)
{
	struct utsname u;

	if (uname(&u) != 0)
		PG_RETURN_NULL();
	PG_RETURN_TEXT_P(cstring_to_text(u.release));
}

/*
 * scan_history_outside_block() -> void: efficiency_check commits the run it
 * recorded before it judges it, so that an alarm does not roll the run
 * back; inside a transaction block that COMMIT would fail after the whole
 * measurement with "invalid transaction termination".  Say it first, and
 * plainly.
 */
Datum
scan_history_outside_block(PG_FUNCTION_ARGS)
{
	if (IsTransactionBlock())
		ereport(ERROR,
				(errcode(ERRCODE_ACTIVE_SQL_TRANSACTION),
				 errmsg("efficiency_check cannot run inside a transaction block"),
				 errdetail("It commits the run it recorded before judging it, so that an alarm does not undo the record."),
				 errhint("CALL it on its own, as psql -c and pg_cron do.")));
	PG_RETURN_VOID();
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
