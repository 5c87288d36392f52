/*-------------------------------------------------------------------------
 *
 * history_record.c
 *	  Recording a scan_efficiency result row in the run history
 *	  (record => true), and whether the caller can, said before measuring.  The history itself (table, checks, trend,
 *	  metrics, chart) is SQL in the install script; what else it needs
 *	  from C is in entry/scan_history.c.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "access/xlog.h"
#include "catalog/namespace.h"
#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "catalog/indexing.h"
#include "catalog/pg_extension.h"
#include "commands/extension.h"
#include "utils/fmgroids.h"
#include "catalog/pg_proc.h"
#include "executor/spi.h"
#include "nodes/value.h"
#include "parser/parse_func.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/ruleutils.h"

#include "compat.h"
#include "history_record.h"

/*
 * The schema the history lives in: the extension's.  A C function that is
 * a helper (in scanbench_internal from 0.3) cannot take its own schema
 * for it.
 */
Oid
sb_history_schema(void)
{
	Oid			ext = get_extension_oid("scanbench", false);
	Relation	rel;
	ScanKeyData key;
	SysScanDesc scan;
	HeapTuple	tup;
	Oid			nsp = InvalidOid;

	/* get_extension_schema() is static before 16: look it up as it does */
	rel = table_open(ExtensionRelationId, AccessShareLock);
	ScanKeyInit(&key, Anum_pg_extension_oid, BTEqualStrategyNumber,
				F_OIDEQ, ObjectIdGetDatum(ext));
	scan = systable_beginscan(rel, ExtensionOidIndexId, true, NULL, 1, &key);
	tup = systable_getnext(scan);
	if (HeapTupleIsValid(tup))
		nsp = ((Form_pg_extension) GETSTRUCT(tup))->extnamespace;
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
	if (!OidIsValid(nsp))
		elog(ERROR, "cache lookup failed for extension %u", ext);
	return nsp;
}

/*
 * Whether the caller can record a run in the history of schema nsp: said
 * before anything is measured, so that a check on a standby or by a role
 * without the grants fails at once rather than after a minute of reading.
 */
void
sb_history_check_record(Oid nsp, const char *what)
{
	char	   *schema = get_namespace_name(nsp);
	Oid			history;
	Oid			seq;
	Oid			record_fn;
	Oid			kernel_fn;
	AclResult	aclresult;

	if (RecoveryInProgress())
		ereport(ERROR,
				(errcode(ERRCODE_READ_ONLY_SQL_TRANSACTION),
				 errmsg("%s cannot record a run during recovery", what),
				 errdetail("The run history is a table, and a standby accepts no writes."),
				 errhint("Keep this server's runs in another server's history: scanbench-fleet --history=CONNINFO measures it and records the run there; or measure here with scan_efficiency() and record => false.")));
	if (XactReadOnly)
		ereport(ERROR,
				(errcode(ERRCODE_READ_ONLY_SQL_TRANSACTION),
				 errmsg("%s cannot record a run in a read-only transaction", what),
				 errhint("Check default_transaction_read_only, or measure with record => false.")));
	if (schema == NULL)
		elog(ERROR, "cache lookup failed for namespace %u", nsp);

	history = get_relname_relid("scan_history", nsp);
	seq = get_relname_relid("scan_history_id_seq", nsp);
	record_fn = LookupFuncName(list_make2(makeString(schema),
										  makeString("scan_history_record")),
							   -1, NULL, true);
	/* in the extension's schema before 0.3 */
	kernel_fn = LookupFuncName(list_make2(makeString("scanbench_internal"),
										  makeString("scan_history_kernel")),
							   -1, NULL, true);
	if (!OidIsValid(kernel_fn))
		kernel_fn = LookupFuncName(list_make2(makeString(schema),
											  makeString("scan_history_kernel")),
								   -1, NULL, true);
	if (!OidIsValid(history) || !OidIsValid(seq) || !OidIsValid(record_fn))
		elog(ERROR, "the run history of scanbench in schema \"%s\" is incomplete", schema);

	aclresult = sb_function_aclcheck(record_fn, GetUserId(), ACL_EXECUTE);
	if (aclresult != ACLCHECK_OK)
		aclcheck_error(aclresult, OBJECT_FUNCTION, "scan_history_record");
	aclresult = pg_class_aclcheck(history, GetUserId(), ACL_INSERT);
	if (aclresult != ACLCHECK_OK)
		aclcheck_error(aclresult, OBJECT_TABLE, "scan_history");
	aclresult = pg_class_aclcheck(seq, GetUserId(), ACL_USAGE);
	if (aclresult != ACLCHECK_OK)
		aclcheck_error(aclresult, OBJECT_SEQUENCE, "scan_history_id_seq");
	/* scan_history_record writes the kernel's release with the run */
	if (OidIsValid(kernel_fn))
	{
		aclresult = sb_function_aclcheck(kernel_fn, GetUserId(), ACL_EXECUTE);
		if (aclresult != ACLCHECK_OK)
			aclcheck_error(aclresult, OBJECT_FUNCTION, "scan_history_kernel");
	}
}

/*
 * Record a scan_efficiency result row (record => true): the SQL function
 * scan_history_record, in nsp, the schema the called function lives in,
 * does the work, so that the history's columns are written in one place.
 * The schema is named because the caller's search_path is not ours to
 * trust.
 */
void
sb_history_record(Oid nsp, Datum result, TupleDesc tupdesc)
{
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
