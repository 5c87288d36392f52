/*-------------------------------------------------------------------------
 *
 * history.c
 *	  Recording a scan_efficiency result row in the run history
 *	  (record => true).  The history itself (table, checks, trend,
 *	  metrics, chart) is SQL in the install script; what else it needs
 *	  from C is in entry/history.c.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "executor/spi.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/ruleutils.h"

#include "history.h"

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
