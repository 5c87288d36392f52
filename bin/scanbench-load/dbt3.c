/*
 * dbt3.c: scale, keys, the line items of one order and part_doc's row of
 * one part.
 *
 * All the randomness of an order comes from its own DBT3_DRAWS_PER_ORDER
 * draws (dbt3_random.h), so dbt3_order() is a pure function of the
 * generator's (scale, seed) and the order index; dbt3_part_doc() likewise
 * of the part index.
 */
#include <stdlib.h>

#include "dbt3.h"
#include "dbt3_random.h"
#include "dbt3_text.h"

/* Spec constants (TPC-H clause 4.2, per scale factor). */
#define ORDERS_PER_SF		1500000.0
#define PARTS_PER_SF		200000.0
#define SUPPLIERS_PER_SF	10000.0

/*
 * Order dates run to 1998-12-31 minus 151 days, so that ship (+121 at most)
 * and receipt (+30) dates end on 1998-12-31: every date is in the calendar.
 */
#define ORDER_DATE_SPAN		(DBT3_CAL_DAYS - 151)

#define WORD(s) {s, sizeof(s) - 1}

const Dbt3Word dbt3_ship_instructs[4] = {
	WORD("DELIVER IN PERSON"), WORD("COLLECT COD"), WORD("NONE"), WORD("TAKE BACK RETURN")
};
const Dbt3Word dbt3_ship_modes[7] = {
	WORD("REG AIR"), WORD("AIR"), WORD("RAIL"), WORD("SHIP"), WORD("TRUCK"),
	WORD("MAIL"), WORD("FOB")
};

/* A count from a scale factor; rounded, without libm, at least 1. */
static int64_t
round_count(double sf, double per_sf)
{
	int64_t		n = (int64_t) (sf * per_sf + 0.5);

	return n > 0 ? n : 1;
}

/* The number of orders at a scale factor: the unit of work of a job. */
int64_t
dbt3_orders(double scale)
{
	return round_count(scale, ORDERS_PER_SF);
}

/* The units of work of a table at a scale factor: orders, or parts. */
int64_t
dbt3_units(Dbt3Table table, double scale)
{
	return table == DBT3_PART_DOC ? round_count(scale, PARTS_PER_SF) : dbt3_orders(scale);
}

/*
 * Build the calendar and the comment pool of (table, scale, seed).  Returns
 * false, with nothing to free, when the pool cannot be allocated.
 */
bool
dbt3_init(Dbt3 *g, Dbt3Table table, double scale, uint64_t seed)
{
	g->table = table;
	g->units = dbt3_units(table, scale);
	g->scale = scale;
	g->seed = seed;
	g->key = seed_key(seed);
	g->orders = round_count(scale, ORDERS_PER_SF);
	g->parts = round_count(scale, PARTS_PER_SF);
	g->suppliers = round_count(scale, SUPPLIERS_PER_SF);
	g->pool = malloc(DBT3_POOL_SIZE);
	if (g->pool == NULL)
		return false;
	dbt3_build_calendar(g);
	dbt3_build_pool(g->pool, g->key);
	return true;
}

void
dbt3_free(Dbt3 *g)
{
	free(g->pool);
	g->pool = NULL;
}

/* Of every 32 consecutive order keys only the first 8 are used. */
int64_t
dbt3_order_key(int64_t order)
{
	return (order / 8) * 32 + (order % 8) + 1;
}

/*
 * Fill items[] (DBT3_MAX_LINES of them) with the lines of one order and
 * return how many: uniform 1..7.
 */
int
dbt3_order(const Dbt3 *g, int64_t order, Dbt3LineItem *items)
{
	uint64_t	r0 = draw(g->key, order, 0);
	int			nlines = (int) take(&r0, DBT3_MAX_LINES) + 1;
	int			orderdate = (int) take(&r0, ORDER_DATE_SPAN);
	int64_t		okey = dbt3_order_key(order);
	int64_t		S = g->suppliers;

	for (int l = 0; l < nlines; l++)
	{
		Dbt3LineItem *it = &items[l];
		uint64_t	a = draw(g->key, order, 1 + 3 * l);
		uint64_t	b = draw(g->key, order, 2 + 3 * l);
		uint64_t	c = draw(g->key, order, 3 + 3 * l);
		int64_t		pk = (int64_t) take(&a, (uint32_t) g->parts) + 1;
		int64_t		i = take(&c, 4);
		int64_t		retail_cents = 90000 + ((pk / 10) % 20001) + 100 * (pk % 1000);

		it->orderkey = okey;
		it->partkey = (int32_t) pk;
		it->suppkey = (int32_t) ((pk + i * (S / 4 + (pk - 1) / S)) % S + 1);
		it->linenumber = l + 1;
		it->comment_len = DBT3_COMMENT_MIN + take(&c, DBT3_COMMENT_MAX - DBT3_COMMENT_MIN + 1);
		it->comment_off = take(&a, DBT3_POOL_SIZE - DBT3_COMMENT_MAX);

		it->quantity = (int32_t) take(&b, 50) + 1;
		it->extendedprice = it->quantity * retail_cents;
		it->discount = (int32_t) take(&b, 11);
		it->tax = (int32_t) take(&b, 9);
		it->shipdate = orderdate + 1 + (int32_t) take(&b, 121);
		it->commitdate = orderdate + 30 + (int32_t) take(&b, 61);
		it->receiptdate = it->shipdate + 1 + (int32_t) take(&b, 30);

		if (it->receiptdate <= g->current_day)
			it->returnflag = take(&c, 2) ? 'R' : 'A';
		else
			it->returnflag = 'N';
		it->linestatus = it->shipdate > g->current_day ? 'O' : 'F';
		it->shipinstruct = (uint8_t) take(&c, 4);
		it->shipmode = (uint8_t) take(&c, 7);
	}
	return nlines;
}

/*
 * part_doc's row of part index part (key part + 1): a piece of the pool of
 * DBT3_DOC_MIN..DBT3_DOC_MAX bytes at a random offset.  Its draws come from
 * a stream keyed apart from lineitem's, so that the two tables do not share
 * values by construction.
 */
void
dbt3_part_doc(const Dbt3 *g, int64_t part, Dbt3PartDoc *doc)
{
	uint64_t	r = draw(mix64(g->key ^ UINT64_C(0x70617274646f63)), (uint64_t) part, 0);

	doc->partkey = (int32_t) (part + 1);
	doc->doc_len = DBT3_DOC_MIN + take(&r, DBT3_DOC_MAX - DBT3_DOC_MIN + 1);
	doc->doc_off = take(&r, DBT3_POOL_SIZE - DBT3_DOC_MAX);
}
