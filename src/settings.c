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
