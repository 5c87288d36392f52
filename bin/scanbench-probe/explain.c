/*
 * explain.c: the figures of EXPLAIN (ANALYZE, BUFFERS, TIMING OFF, FORMAT
 * JSON) SELECT count(*) FROM ONLY t.
 *
 * Not a JSON parser: EXPLAIN writes a node's own properties, buffers
 * among them, before its child plans, and the "Planning" section after
 * "Plan", so the first occurrence of a key is the top node's, which
 * counts the whole scan's blocks.  A key is matched with its opening
 * quote, so that "I/O Read Time" never matches "Temp I/O Read Time".
 * The shared read wait is "Shared I/O Read Time" from 17 on, "I/O Read
 * Time" before; neither is written without track_io_timing.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain.h"
#include "xalloc.h"

/* The number after "key": from start on, or NAN when the key is not there. */
static double
number_after(const char *json, const char *start, const char *key)
{
	char		pattern[96];
	const char *p;
	char	   *end;
	double		v;

	snprintf(pattern, sizeof(pattern), "\"%s\":", key);
	p = strstr(start ? start : json, pattern);
	if (p == NULL)
		return NAN;
	p += strlen(pattern);
	while (*p == ' ')
		p++;
	v = strtod(p, &end);
	return end == p ? NAN : v;
}

bool
explain_parse(const char *json, ExplainFigures *f, char **error)
{
	const char *p,
			   *seq;

	memset(f, 0, sizeof(*f));
	*error = NULL;
	p = strstr(json, "\"Node Type\":");
	if (p)
	{
		const char *q = strchr(p + 12, '"');
		const char *e = q ? strchr(q + 1, '"') : NULL;

		if (q && e && (size_t) (e - q - 1) < sizeof(f->top_node))
			memcpy(f->top_node, q + 1, (size_t) (e - q - 1));
	}
	seq = strstr(json, "\"Node Type\": \"Seq Scan\"");
	f->seq_scan = seq != NULL;
	f->execution_ms = number_after(json, NULL, "Execution Time");
	f->hit_blocks = number_after(json, NULL, "Shared Hit Blocks");
	f->read_blocks = number_after(json, NULL, "Shared Read Blocks");
	f->dirtied_blocks = number_after(json, NULL, "Shared Dirtied Blocks");
	f->written_blocks = number_after(json, NULL, "Shared Written Blocks");
	f->read_ms = number_after(json, NULL, "Shared I/O Read Time");
	if (isnan(f->read_ms))
		f->read_ms = number_after(json, NULL, "I/O Read Time");
	f->rows = seq ? number_after(json, seq, "Actual Rows") : NAN;
	if (isnan(f->execution_ms) || isnan(f->hit_blocks) || isnan(f->read_blocks))
		*error = xstrdup("EXPLAIN's output lacks Execution Time or the shared blocks (BUFFERS)");
	else if (!f->seq_scan)
		*error = xprintf("the planner did not scan the table sequentially (its plan's top is %s)",
						 f->top_node[0] ? f->top_node : "unknown");
	return *error == NULL;
}
