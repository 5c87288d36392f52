/*
 * dbt3_copy.c: line items as COPY data, text or binary (PGCOPY), written
 * straight into the caller's buffer: no malloc and no printf per row, as
 * the rows must be made several times faster than the server ingests them.
 */
#include <string.h>

#include "dbt3.h"
#include "dbt3_copy.h"

const char *
dbt3_format_name(Dbt3Format format)
{
	return format == DBT3_BINARY ? "binary" : "text";
}

/* --- text format: '|'-separated, as COPY ... (DELIMITER '|') reads it --- */

static const char digit_pairs[201] =
"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
"8081828384858687888990919293949596979899";

static inline char *
put_uint(char *p, uint64_t v)
{
	char		tmp[20];
	char	   *t = tmp + sizeof(tmp);
	size_t		n;

	while (v >= 100)
	{
		unsigned	r = (unsigned) (v % 100);

		v /= 100;
		t -= 2;
		memcpy(t, digit_pairs + 2 * r, 2);
	}
	if (v >= 10)
	{
		t -= 2;
		memcpy(t, digit_pairs + 2 * v, 2);
	}
	else
		*--t = (char) ('0' + v);
	n = tmp + sizeof(tmp) - t;
	memcpy(p, t, n);
	return p + n;
}

/* A decimal with two places from an integer number of cents. */
static inline char *
put_cents(char *p, int64_t cents)
{
	p = put_uint(p, (uint64_t) (cents / 100));
	*p++ = '.';
	memcpy(p, digit_pairs + 2 * (cents % 100), 2);
	return p + 2;
}

static inline char *
put_text(char *p, const char *s, uint32_t len, char after)
{
	memcpy(p, s, len);
	p[len] = after;
	return p + len + 1;
}

static inline char *
format_text(const Dbt3 *g, char *p, const Dbt3LineItem *it)
{
	const Dbt3Word *instruct = &dbt3_ship_instructs[it->shipinstruct];
	const Dbt3Word *mode = &dbt3_ship_modes[it->shipmode];

	p = put_uint(p, (uint64_t) it->orderkey);
	*p++ = '|';
	p = put_uint(p, (uint64_t) it->partkey);
	*p++ = '|';
	p = put_uint(p, (uint64_t) it->suppkey);
	*p++ = '|';
	p = put_uint(p, (uint64_t) it->linenumber);
	*p++ = '|';
	p = put_uint(p, (uint64_t) it->quantity);
	memcpy(p, ".00|", 4);
	p += 4;
	p = put_cents(p, it->extendedprice);
	*p++ = '|';
	p = put_cents(p, it->discount);
	*p++ = '|';
	p = put_cents(p, it->tax);
	*p++ = '|';
	*p++ = it->returnflag;
	*p++ = '|';
	*p++ = it->linestatus;
	*p++ = '|';
	p = put_text(p, g->cal_text[it->shipdate], 10, '|');
	p = put_text(p, g->cal_text[it->commitdate], 10, '|');
	p = put_text(p, g->cal_text[it->receiptdate], 10, '|');
	p = put_text(p, instruct->str, instruct->len, '|');
	p = put_text(p, mode->str, mode->len, '|');
	return put_text(p, g->pool + it->comment_off, it->comment_len, '\n');
}

/* --- binary format: PGCOPY, network byte order --- */

static const char pgcopy_header[19] = "PGCOPY\n\377\r\n\0\0\0\0\0\0\0\0\0";

static inline char *
put16(char *p, uint16_t v)
{
	p[0] = (char) (v >> 8);
	p[1] = (char) v;
	return p + 2;
}

static inline char *
put32(char *p, uint32_t v)
{
	p[0] = (char) (v >> 24);
	p[1] = (char) (v >> 16);
	p[2] = (char) (v >> 8);
	p[3] = (char) v;
	return p + 4;
}

/* A field of 4 or 8 bytes: its length, then the value. */
static inline char *
put_int32_field(char *p, uint32_t v)
{
	return put32(put32(p, 4), v);
}

static inline char *
put_int64_field(char *p, uint64_t v)
{
	p = put32(p, 8);
	p = put32(p, (uint32_t) (v >> 32));
	return put32(p, (uint32_t) v);
}

/*
 * numeric_recv's format: ndigits, weight, sign, dscale, then base-10000
 * digits, most significant first, without leading or trailing zero digits.
 * Two decimal places are the top half of the first fractional digit.
 */
static inline char *
put_numeric_cents(char *p, int64_t cents)
{
	uint16_t	digits[6];
	int			nd = 0;
	int			weight;
	int64_t		ip = cents / 100;
	int			frac = (int) (cents % 100) * 100;
	uint16_t	groups[5];
	int			ng = 0;

	while (ip > 0)
	{
		groups[ng++] = (uint16_t) (ip % 10000);
		ip /= 10000;
	}
	weight = ng > 0 ? ng - 1 : -1;
	for (int g = ng - 1; g >= 0; g--)
		digits[nd++] = groups[g];
	digits[nd++] = (uint16_t) frac;
	while (nd > 0 && digits[nd - 1] == 0)
		nd--;
	if (nd == 0)
		weight = 0;

	p = put32(p, (uint32_t) (8 + 2 * nd));
	p = put16(p, (uint16_t) nd);
	p = put16(p, (uint16_t) (int16_t) weight);
	p = put16(p, 0);			/* NUMERIC_POS */
	p = put16(p, 2);			/* dscale */
	for (int d = 0; d < nd; d++)
		p = put16(p, digits[d]);
	return p;
}

static inline char *
put_bytes(char *p, const char *s, uint32_t len)
{
	p = put32(p, len);
	memcpy(p, s, len);
	return p + len;
}

/*
 * char(25) and char(10) go unpadded: bpcharrecv applies the column's typmod
 * and pads, as bpcharin does for text COPY (the tests compare both).
 */
static inline char *
format_binary(const Dbt3 *g, char *p, const Dbt3LineItem *it)
{
	const Dbt3Word *instruct = &dbt3_ship_instructs[it->shipinstruct];
	const Dbt3Word *mode = &dbt3_ship_modes[it->shipmode];

	p = put16(p, 16);
	p = put_int64_field(p, (uint64_t) it->orderkey);
	p = put_int32_field(p, (uint32_t) it->partkey);
	p = put_int32_field(p, (uint32_t) it->suppkey);
	p = put_int32_field(p, (uint32_t) it->linenumber);
	p = put_numeric_cents(p, (int64_t) it->quantity * 100);
	p = put_numeric_cents(p, it->extendedprice);
	p = put_numeric_cents(p, it->discount);
	p = put_numeric_cents(p, it->tax);
	p = put_bytes(p, &it->returnflag, 1);
	p = put_bytes(p, &it->linestatus, 1);
	p = put_int32_field(p, (uint32_t) g->cal_pgdate[it->shipdate]);
	p = put_int32_field(p, (uint32_t) g->cal_pgdate[it->commitdate]);
	p = put_int32_field(p, (uint32_t) g->cal_pgdate[it->receiptdate]);
	p = put_bytes(p, instruct->str, instruct->len);
	p = put_bytes(p, mode->str, mode->len);
	return put_bytes(p, g->pool + it->comment_off, it->comment_len);
}

/* part_doc's row: pd_partkey, pd_bytes, pd_doc, in either format. */
static inline char *
format_doc(const Dbt3 *g, Dbt3Format format, char *p, const Dbt3PartDoc *d)
{
	if (format == DBT3_BINARY)
	{
		p = put16(p, 3);
		p = put_int32_field(p, (uint32_t) d->partkey);
		p = put_int32_field(p, d->doc_len);
		return put_bytes(p, g->pool + d->doc_off, d->doc_len);
	}
	p = put_uint(p, (uint64_t) d->partkey);
	*p++ = '|';
	p = put_uint(p, d->doc_len);
	*p++ = '|';
	return put_text(p, g->pool + d->doc_off, d->doc_len, '\n');
}

/* What a COPY's data starts with: the PGCOPY header, or nothing. */
char *
dbt3_put_header(Dbt3Format format, char *p)
{
	if (format != DBT3_BINARY)
		return p;
	memcpy(p, pgcopy_header, sizeof(pgcopy_header));
	return p + sizeof(pgcopy_header);
}

/* What a COPY's data ends with: the PGCOPY trailer, or nothing. */
char *
dbt3_put_trailer(Dbt3Format format, char *p)
{
	return format == DBT3_BINARY ? put16(p, 0xffff) : p;
}

/*
 * Write the rows of one order at p, which has room for DBT3_ORDER_MAX_BYTES;
 * return the end of what was written and set *nrows.
 */
char *
dbt3_put_order(const Dbt3 *g, Dbt3Format format, int64_t order, char *p, int *nrows)
{
	Dbt3LineItem items[DBT3_MAX_LINES];
	int			n = dbt3_order(g, order, items);

	for (int l = 0; l < n; l++)
		p = format == DBT3_BINARY ? format_binary(g, p, &items[l]) : format_text(g, p, &items[l]);
	*nrows = n;
	return p;
}

/*
 * Write the rows of one unit of work of the generator's table (an order's
 * lines, or a part's document) at p, which has room for
 * DBT3_UNIT_MAX_BYTES; return the end of what was written and set *nrows.
 */
char *
dbt3_put_unit(const Dbt3 *g, Dbt3Format format, int64_t unit, char *p, int *nrows)
{
	Dbt3PartDoc doc;

	if (g->table == DBT3_LINEITEM)
		return dbt3_put_order(g, format, unit, p, nrows);
	dbt3_part_doc(g, unit, &doc);
	*nrows = 1;
	return format_doc(g, format, p, &doc);
}
