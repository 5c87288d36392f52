/*-------------------------------------------------------------------------
 *
 * settings.c
 *	  The server settings that shape how a scan reads, as one jsonb value
 *	  that result rows and the history carry: a figure taken under
 *	  io_method=worker is not comparable with one under io_method=sync.
 *
 * Settings a major does not have (io_method before 18, io_combine_limit
 * before 17; io_workers in 18 only, where 19 has a pool that grows and
 * shrinks between io_min_workers and io_max_workers) are left out rather
 * than shown as NULL, so the value says what the server is, not what it
 * lacks.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "lib/stringinfo.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"
#include "utils/guc.h"
#include "utils/json.h"

#include "procstat.h"
#include "settings.h"

static const char *const io_settings[] = {
	"block_size",
	"segment_size",
	"io_method",
	"io_workers",
	"io_min_workers",
	"io_max_workers",
	"io_combine_limit",
	"effective_io_concurrency",
	"track_io_timing",
	"shared_buffers",
};

/*
 * {"name": "value", ...} for the settings above that this server has, with
 * values as SHOW prints them (units included).
 */
Datum
sb_io_settings(void)
{
	StringInfoData buf;
	bool		first = true;
	int			i;

	initStringInfo(&buf);
	appendStringInfoChar(&buf, '{');
	for (i = 0; i < lengthof(io_settings); i++)
	{
		const char *value = GetConfigOption(io_settings[i], true, false);

		if (value == NULL)
			continue;
		if (!first)
			appendStringInfoString(&buf, ", ");
		first = false;
		escape_json(&buf, io_settings[i]);
		appendStringInfoString(&buf, ": ");
		escape_json(&buf, GetConfigOptionByName(io_settings[i], NULL, false));
	}
	appendStringInfoChar(&buf, '}');
	return DirectFunctionCall1(jsonb_in, CStringGetDatum(buf.data));
}

/*
 * A setting's value in its base unit (blocks, kB, ms) as an integer, as
 * GetConfigOption() gives it without units; -1 where this server has no
 * such setting.
 */
int
sb_setting_int(const char *name)
{
	const char *value = GetConfigOption(name, true, false);

	return value ? atoi(value) : -1;
}

/* Whether a boolean setting is on; false where the server lacks it. */
bool
sb_setting_on(const char *name)
{
	const char *value = GetConfigOption(name, true, false);
	bool		on = false;

	return value != NULL && parse_bool(value, &on) && on;
}

/*
 * The pool of I/O workers is counted from /proc (procstat.c finds them as
 * it does to charge their CPU): on 19 the pool grows and shrinks by
 * itself, so its setting says only the bounds.  Where they cannot be
 * found, 18's fixed io_workers setting.
 */
void
sb_server_facts(SbServerFacts *f)
{
	const char *method = GetConfigOption("io_method", true, false);

	f->server_major = sb_setting_int("server_version_num") / 10000;
	f->data_checksums = sb_setting_on("data_checksums");
	f->jit = sb_setting_on("jit");
	f->io_max_combine_limit = sb_setting_int("io_max_combine_limit");
	f->io_workers = -1;
	if (method != NULL && strcmp(method, "worker") == 0)
	{
		SbProcSnap *snap = palloc0(sizeof(SbProcSnap));

		sb_procstat_start(snap);
		f->io_workers = snap->io_ok ? snap->nio : sb_setting_int("io_workers");
		pfree(snap);
	}
}
