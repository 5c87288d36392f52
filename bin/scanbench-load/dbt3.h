/*
 * dbt3.h: the DBT-3 lineitem generator (derived from TPC-H), a pure unit.
 *
 * It knows nothing of connections, options or how the program reports
 * errors: given a scale factor and a seed it makes the rows of any order,
 * and writes them as COPY text or binary (PGCOPY) data into a caller's
 * buffer.  Every value is a function of (seed, order, draw), so any range of
 * orders can be made by anyone, in any order, with the same result.
 *
 * The data follows the column rules of the TPC-H specification (clause 4.2)
 * as summarised in the project's reference notes; no generator code was
 * copied.  Call it "DBT-3 / derived from TPC-H", not TPC-H.
 */
#ifndef DBT3_H
#define DBT3_H

#include <stdbool.h>
#include <stdint.h>

/*
 * The default seed.  Row counts depend on the seed (each order has a random
 * 1..7 lines); this one was picked, by counting, so that SF 0.01, 0.1 and 1
 * come within 0.02 % of dbgen's published counts (60,175, 600,572 and
 * 6,001,215; SF 5 and 10 too), so that figures stay comparable with tables
 * people made with dbgen.  Any other seed is as random, just not calibrated.
 */
#define DBT3_DEFAULT_SEED	UINT64_C(7587)

#define DBT3_MIN_SCALE		0.01
#define DBT3_MAX_SCALE		1000.0

#define DBT3_MAX_LINES		7	/* lines of one order */

/*
 * The most bytes one order takes in either format: 7 rows of about 165
 * bytes (text) or 211 bytes (binary), with room to spare.
 */
#define DBT3_ORDER_MAX_BYTES 2048

/*
 * part_doc (--toast): a row a part, whose pd_doc is DBT3_DOC_MIN to
 * DBT3_DOC_MAX bytes of the comment pool, 4 kB on average.  Even the
 * shortest makes a row longer than the server's TOAST threshold (about
 * 2 kB), so that every value goes out of line.
 */
#define DBT3_DOC_MIN		2048
#define DBT3_DOC_MAX		6143

/* The most bytes one unit of work (an order, or a part's row) takes. */
#define DBT3_UNIT_MAX_BYTES 8192

/* Dates are day indexes from 1992-01-01 to 1998-12-31. */
#define DBT3_CAL_DAYS		2557

/* l_comment is a substring of a pool of this size, made from the seed. */
#define DBT3_POOL_SIZE		(4 * 1024 * 1024)
#define DBT3_COMMENT_MIN	10
#define DBT3_COMMENT_MAX	43

/* The tables the generator makes. */
typedef enum
{
	DBT3_LINEITEM,				/* a unit of work is an order, 1 to 7 rows */
	DBT3_PART_DOC				/* a unit is a part, one row */
} Dbt3Table;

typedef enum
{
	DBT3_TEXT,					/* '|'-separated, as COPY (DELIMITER '|') reads */
	DBT3_BINARY					/* PGCOPY */
} Dbt3Format;

/* One line item, with decimals in cents and dates as calendar indexes. */
typedef struct
{
	int64_t		orderkey;
	int32_t		partkey;
	int32_t		suppkey;
	int32_t		linenumber;
	int32_t		quantity;		/* whole units; stored as quantity.00 */
	int64_t		extendedprice;	/* cents */
	int32_t		discount;		/* cents: 0..10 */
	int32_t		tax;			/* cents: 0..8 */
	char		returnflag;
	char		linestatus;
	int32_t		shipdate;
	int32_t		commitdate;
	int32_t		receiptdate;
	uint8_t		shipinstruct;	/* index into dbt3_ship_instructs */
	uint8_t		shipmode;		/* index into dbt3_ship_modes */
	uint32_t	comment_off;	/* in the pool */
	uint32_t	comment_len;
} Dbt3LineItem;

/* One row of part_doc: the key, and the document as a piece of the pool. */
typedef struct
{
	int32_t		partkey;
	uint32_t	doc_off;		/* in the pool */
	uint32_t	doc_len;
} Dbt3PartDoc;

/* A string of a fixed list, with its length. */
typedef struct
{
	const char *str;
	uint8_t		len;
} Dbt3Word;

extern const Dbt3Word dbt3_ship_instructs[4];
extern const Dbt3Word dbt3_ship_modes[7];

/* Everything the rows of one (scale, seed) need, built once by dbt3_init. */
typedef struct
{
	Dbt3Table	table;
	double		scale;
	uint64_t	seed;
	uint64_t	key;			/* the random stream's key, from the seed */
	int64_t		units;			/* of work: orders, or parts for part_doc */
	int64_t		orders;			/* SF x 1,500,000 */
	int64_t		parts;			/* SF x 200,000 */
	int64_t		suppliers;		/* SF x 10,000 */
	int			current_day;	/* 1995-06-17 */
	char		cal_text[DBT3_CAL_DAYS][10];	/* "YYYY-MM-DD" */
	int32_t		cal_pgdate[DBT3_CAL_DAYS];	/* days since 2000-01-01 */
	char	   *pool;			/* DBT3_POOL_SIZE bytes of comment text */
} Dbt3;

/* dbt3.c: scale, keys and rows (dbt3_text.h, dbt3_copy.h: the rest) */
extern int64_t dbt3_orders(double scale);
extern int64_t dbt3_units(Dbt3Table table, double scale);
extern bool dbt3_init(Dbt3 *g, Dbt3Table table, double scale, uint64_t seed);
extern void dbt3_free(Dbt3 *g);
extern int	dbt3_order(const Dbt3 *g, int64_t order, Dbt3LineItem *items);
extern int64_t dbt3_order_key(int64_t order);
extern void dbt3_part_doc(const Dbt3 *g, int64_t part, Dbt3PartDoc *doc);

#endif							/* DBT3_H */
