/*-------------------------------------------------------------------------
 *
 * history.c
 *	  What the run history needs from C: the kernel release
 *	  (scan_history_kernel) and the refusal to run efficiency_check inside
 *	  a transaction block (scan_history_outside_block).  Recording a row
 *	  is the engine's (history.c).
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
#include "fmgr.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"

#include "history.h"

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
	/* Nor can it record on a standby or without the grants: say so now. */
	sb_history_check_record(get_func_namespace(fcinfo->flinfo->fn_oid),
							"efficiency_check");
	PG_RETURN_VOID();
}
