/*
 * report.c: one row per server x relation, as an aligned table (for a
 * person), csv (a header line, then RFC 4180 rows) or json (an array of
 * objects, numbers as numbers, NULL as null).  csv and json carry the same
 * fields under the same names, which scripts may rely on.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure.h"
#include "options.h"
#include "report.h"
#include "servers.h"
#include "xalloc.h"

typedef enum
{
	F_TEXT,
	F_NUMBER,
	F_BOOL
} FieldKind;

typedef struct Field
{
	const char *name;
	FieldKind	kind;
} Field;

static const Field fields[] = {
	{"server", F_TEXT}, {"role", F_TEXT}, {"tags", F_TEXT}, {"relation", F_TEXT},
	{"read_mb_s", F_NUMBER}, {"scan_mb_s", F_NUMBER}, {"scan_pct", F_NUMBER},
	{"scan_pct_lo", F_NUMBER}, {"scan_pct_hi", F_NUMBER}, {"verdict", F_TEXT},
	{"limits", F_TEXT}, {"device", F_TEXT}, {"history_pct", F_NUMBER},
	{"history_runs", F_NUMBER}, {"cohort_pct", F_NUMBER},
	{"cohort_spread", F_NUMBER}, {"cohort_size", F_NUMBER},
	{"flagged", F_BOOL}, {"reason", F_TEXT}, {"remark", F_TEXT},
	{NULL, F_TEXT}
};

static char *
fmt1(double v)
{
	return isnan(v) ? NULL : xprintf("%.1f", v);
}

/* The limits found: "read_bps_limit=20971520 cpu_quota_us=25000", or NULL. */
static char *
limits_of(const Row *r)
{
	static const char *const limits[] = {"read_bps_limit", "write_bps_limit", "read_iops_limit",
	"write_iops_limit", "cpu_quota_us", NULL};
	char	   *out = NULL;

	for (int i = 0; limits[i]; i++)
	{
		const char *v = row_value(r, limits[i]);
		char	   *more;

		if (v == NULL)
			continue;
		more = xprintf("%s%s%s=%s", out ? out : "", out ? " " : "", limits[i], v);
		free(out);
		out = more;
	}
	return out;
}

/* The value of field f of row r as text (NULL for none); the caller frees. */
static char *
field_value(const Row *r, const char *f)
{
	if (strcmp(f, "server") == 0)
		return xstrdup(r->server->name);
	if (strcmp(f, "role") == 0)
		return xstrdup(r->server->role);
	if (strcmp(f, "tags") == 0)
		return tags_json(r->server);
	if (strcmp(f, "relation") == 0)
	{
		const char *s = row_value(r, "relschema");

		return s && !r->reason ? xprintf("%s.%s", s, row_value(r, "relname")) : xstrdup(r->relation);
	}
	if (strcmp(f, "read_mb_s") == 0)
		return fmt1(r->read_mb_s);
	if (strcmp(f, "scan_mb_s") == 0)
		return fmt1(r->scan_mb_s);
	if (strcmp(f, "scan_pct") == 0)
		return fmt1(r->scan_pct);
	if (strcmp(f, "scan_pct_lo") == 0)
		return fmt1(r->scan_pct_lo);
	if (strcmp(f, "scan_pct_hi") == 0)
		return fmt1(r->scan_pct_hi);
	if (strcmp(f, "verdict") == 0)
	{
		const char *v = row_value(r, "verdict");
		char	   *out;

		if (v == NULL)
			return NULL;
		/* {ok,io_limited} as ok,io_limited */
		out = xstrdup(v[0] == '{' ? v + 1 : v);
		if (out[0] && out[strlen(out) - 1] == '}')
			out[strlen(out) - 1] = '\0';
		return out;
	}
	if (strcmp(f, "limits") == 0)
		return limits_of(r);
	if (strcmp(f, "device") == 0)
		return xstrdup(row_value(r, "device"));
	if (strcmp(f, "history_pct") == 0)
		return fmt1(r->history_pct);
	if (strcmp(f, "history_runs") == 0)
		return r->reason ? NULL : xprintf("%d", r->history_runs);
	if (strcmp(f, "cohort_pct") == 0)
		return fmt1(r->cohort_pct);
	if (strcmp(f, "cohort_spread") == 0)
		return fmt1(r->cohort_spread);
	if (strcmp(f, "cohort_size") == 0)
		return r->reason ? NULL : xprintf("%d", r->cohort_size);
	if (strcmp(f, "flagged") == 0)
		return xstrdup(r->flagged ? "true" : "false");
	if (strcmp(f, "reason") == 0)
		return xstrdup(r->reason);
	if (strcmp(f, "remark") == 0)
		return xstrdup(r->remark);
	return NULL;
}

static void
csv_value(const char *v)
{
	if (v == NULL)
		return;
	if (strpbrk(v, ",\"\n\r") == NULL)
	{
		fputs(v, stdout);
		return;
	}
	putchar('"');
	for (const char *c = v; *c; c++)
	{
		if (*c == '"')
			putchar('"');
		putchar(*c);
	}
	putchar('"');
}

static void
json_value(const char *v, FieldKind kind, const char *name)
{
	if (v == NULL)
	{
		fputs("null", stdout);
		return;
	}
	if (kind == F_NUMBER || kind == F_BOOL || strcmp(name, "tags") == 0)
	{
		fputs(v, stdout);		/* numbers, true/false, the tags' object */
		return;
	}
	putchar('"');
	for (const char *c = v; *c; c++)
	{
		if (*c == '"' || *c == '\\')
			printf("\\%c", *c);
		else if ((unsigned char) *c < 0x20)
			printf("\\u%04x", (unsigned char) *c);
		else
			putchar(*c);
	}
	putchar('"');
}

static void
print_csv(Row *rows, int nrows)
{
	for (int f = 0; fields[f].name; f++)
		printf("%s%s", f ? "," : "", fields[f].name);
	putchar('\n');
	for (int i = 0; i < nrows; i++)
	{
		for (int f = 0; fields[f].name; f++)
		{
			char	   *v = field_value(&rows[i], fields[f].name);

			if (f)
				putchar(',');
			csv_value(v);
			free(v);
		}
		putchar('\n');
	}
}

static void
print_json(Row *rows, int nrows)
{
	printf("[");
	for (int i = 0; i < nrows; i++)
	{
		printf("%s\n  {", i ? "," : "");
		for (int f = 0; fields[f].name; f++)
		{
			char	   *v = field_value(&rows[i], fields[f].name);

			printf("%s\"%s\": ", f ? ", " : "", fields[f].name);
			json_value(v, fields[f].kind, fields[f].name);
			free(v);
		}
		printf("}");
	}
	printf("\n]\n");
}

/* The table's columns, for people: a few fields joined. */
#define TCOLS 10
static const char *const table_heads[TCOLS] = {
	"server", "role", "relation", "read_mb_s", "scan_mb_s", "scan_pct (95 %)",
	"verdict", "history", "cohort", "flag"
};

static char *
table_cell(const Row *r, int col)
{
	switch (col)
	{
		case 0:
			return field_value(r, "server");
		case 1:
			return field_value(r, "role");
		case 2:
			return field_value(r, "relation");
		case 3:
			return fmt1(r->read_mb_s);
		case 4:
			return fmt1(r->scan_mb_s);
		case 5:
			if (isnan(r->scan_pct))
				return NULL;
			if (isnan(r->scan_pct_lo) || isnan(r->scan_pct_hi))
				return xprintf("%.1f", r->scan_pct);
			return xprintf("%.1f (%.1f-%.1f)", r->scan_pct, r->scan_pct_lo, r->scan_pct_hi);
		case 6:
			return field_value(r, "verdict");
		case 7:
			if (r->reason)
				return NULL;
			if (isnan(r->history_pct))
				return xstrdup("no runs");
			return xprintf("%.1f (%d runs)", r->history_pct, r->history_runs);
		case 8:
			if (isnan(r->cohort_pct))
				return r->reason ? NULL : xprintf("%d judged", r->cohort_size);
			return xprintf("%.1f +- %.1f (%d)", r->cohort_pct, r->cohort_spread, r->cohort_size);
		case 9:
			return xstrdup(r->flagged ? (r->reason ? "FAILED" : "FLAGGED") : "");
	}
	return NULL;
}

static void
print_table(Row *rows, int nrows)
{
	int			width[TCOLS];
	char	  **cells = xmalloc(sizeof(char *) * (size_t) nrows * TCOLS);
	bool		notes = false;

	for (int c = 0; c < TCOLS; c++)
		width[c] = (int) strlen(table_heads[c]);
	for (int i = 0; i < nrows; i++)
		for (int c = 0; c < TCOLS; c++)
		{
			char	   *v = table_cell(&rows[i], c);

			cells[i * TCOLS + c] = v;
			if (v && (int) strlen(v) > width[c])
				width[c] = (int) strlen(v);
		}
	for (int c = 0; c < TCOLS; c++)
		printf("%s%-*s", c ? " | " : " ", width[c], table_heads[c]);
	putchar('\n');
	for (int c = 0; c < TCOLS; c++)
	{
		printf("%s", c ? "-+-" : "-");
		for (int w = 0; w < width[c]; w++)
			putchar('-');
	}
	putchar('\n');
	for (int i = 0; i < nrows; i++)
	{
		for (int c = 0; c < TCOLS; c++)
		{
			const char *v = cells[i * TCOLS + c];
			bool		right = c >= 3 && c <= 5;

			printf("%s%*s", c ? " | " : " ", right ? width[c] : -width[c], v ? v : "");
		}
		putchar('\n');
		notes |= rows[i].reason || rows[i].remark;
	}
	printf("(%d row%s)\n", nrows, nrows == 1 ? "" : "s");
	if (notes)
		putchar('\n');
	for (int i = 0; i < nrows; i++)
	{
		char	   *rel = field_value(&rows[i], "relation");
		char	   *limits = limits_of(&rows[i]);

		if (rows[i].reason)
			printf("%s %s: %s\n", rows[i].server->name, rel, rows[i].reason);
		else if (rows[i].remark)
			printf("%s %s: %s%s%s\n", rows[i].server->name, rel, rows[i].remark,
				   limits ? "; limits: " : "", limits ? limits : "");
		free(rel);
		free(limits);
	}
	for (int i = 0; i < nrows * TCOLS; i++)
		free(cells[i]);
	free(cells);
}

void
print_report(const Options *opt, Row *rows, int nrows)
{
	if (opt->format == FORMAT_CSV)
		print_csv(rows, nrows);
	else if (opt->format == FORMAT_JSON)
		print_json(rows, nrows);
	else
		print_table(rows, nrows);
	fflush(stdout);
}
