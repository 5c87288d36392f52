/*
 * scanbench-load: write a DBT-3 lineitem table (derived from TPC-H) into
 * PostgreSQL through COPY FROM STDIN, generating the rows as they are sent.
 *
 * Why a generator of its own: dbgen writes a file as big as the table and
 * takes longer per scale factor than the server needs to ingest it.  Here the
 * rows are made in memory at several times the server's COPY rate and
 * streamed in large buffers, so the load runs at the server's limit, in one
 * command, with flat memory.
 *
 * The data follows the column rules of the TPC-H specification (clause 4.2)
 * as summarised in the project's reference notes; no generator code was
 * copied.  Call it "DBT-3 / derived from TPC-H", not TPC-H.
 *
 * Layout of this file, top to bottom:
 *   options and --help
 *   the random stream (counter based, so any job can start at any order)
 *   calendar and comment text pool, built once at start
 *   row formatting, text and binary COPY, without malloc or printf per row
 *   jobs: one thread and one connection per range of orders
 *   load orchestration: create, COPY (FREEZE), commit or roll back, freeze
 *   --check against the scanbench extension, progress, main
 *
 * Exit status: 0 loaded, 1 failure (nothing partial is left), 2 bad
 * arguments, 130 interrupted by SIGINT (load rolled back).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <libpq-fe.h>

#define LOADER_NAME			"scanbench-load"
/* SCANBENCH_VERSION comes from the Makefile, read from scanbench.control. */
#define LOADER_VERSION		SCANBENCH_VERSION	/* also the extension version --check wants */

#define EXIT_FAILURE_LOAD	1
#define EXIT_USAGE			2
#define EXIT_INTERRUPTED	130

/*
 * The default seed.  Row counts depend on the seed (each order has a random
 * 1..7 lines); this one was picked, by counting, so that SF 0.01, 0.1 and 1
 * come within 0.02 % of dbgen's published counts (60,175, 600,572 and
 * 6,001,215; SF 5 and 10 too), so that figures stay comparable with tables
 * people made with dbgen.  Any other seed is as random, just not calibrated.
 */
#define DEFAULT_SEED		UINT64_C(7587)

/* Spec constants (TPC-H clause 4.2, per scale factor). */
#define ORDERS_PER_SF		1500000.0
#define PARTS_PER_SF		200000.0
#define SUPPLIERS_PER_SF	10000.0
#define MIN_SCALE			0.01
#define MAX_SCALE			1000.0

/*
 * COPY data goes out in CopyData messages of this size.  The server copies
 * each message whole before parsing it: 256 kB messages made a one-job text
 * load 10-15 % slower than 16-64 kB ones on the reference machine (cache
 * misses in the backend, which is the bottleneck).  A chunk is flushed when
 * less than ORDER_MAX_BYTES is left: one order is at most 7 rows of about
 * 165 bytes (text) or 211 bytes (binary).
 */
#define CHUNK_SIZE			(64 * 1024)
#define MAX_JOBS			256
#define ORDER_MAX_BYTES		2048

/* ------------------------------------------------------------------------
 * Options
 * ------------------------------------------------------------------------
 */
typedef enum
{
	FORMAT_TEXT,
	FORMAT_BINARY
} CopyFormat;

typedef struct
{
	double		scale;
	uint64_t	seed;
	const char *table;
	bool		drop;
	bool		append;
	bool		unlogged;
	int			jobs;
	CopyFormat	format;
	bool		format_given;
	bool		to_stdout;
	bool		quiet;
	bool		check;
	double		progress;		/* seconds between reports; 0 = none */
	bool		progress_forced;
	const char *host;
	const char *port;
	const char *user;
	const char *dbname;
} Options;

static Options opt = {
	.scale = 1.0,
	.seed = DEFAULT_SEED,
	.table = "lineitem",
	.jobs = 1,
	.format = FORMAT_BINARY,
};

static void
usage(void)
{
	printf(
		   LOADER_NAME " writes a DBT-3 lineitem table (derived from TPC-H) into PostgreSQL\n"
		   "through COPY FROM STDIN, generating the rows as they are sent.  The table it\n"
		   "leaves is frozen and analyzed, ready for scan measurements.\n"
		   "\n"
		   "Usage:\n"
		   "  " LOADER_NAME " [OPTION]... [DBNAME]\n"
		   "  " LOADER_NAME " --stdout [OPTION]... > lineitem.tbl\n"
		   "\n"
		   "Data options:\n"
		   "  -s, --scale=SF           scale factor, 0.01 to 1000; SF 1 is about 6 million\n"
		   "                           rows and 880 MB on disk (default 1)\n"
		   "      --seed=N             seed of the random stream (default %" PRIu64 "); the same\n"
		   "                           scale and seed give the same rows with any --jobs\n"
		   "                           and --format\n"
		   "  -F, --format=FORMAT      COPY format: binary or text (default binary, which\n"
		   "                           the server ingests about 30 %% faster; with\n"
		   "                           --stdout, text)\n"
		   "      --stdout             write the rows to standard output instead of loading:\n"
		   "                           '|'-separated text like dbgen's (no trailing '|'), or\n"
		   "                           a PGCOPY file with --format=binary; no connection\n"
		   "\n"
		   "Table options:\n"
		   "  -t, --table=NAME         table to create, one identifier taken literally\n"
		   "                           (default lineitem); an existing table is an error\n"
		   "                           unless --drop or --append is given\n"
		   "      --drop               drop the table first if it exists\n"
		   "      --append             add the rows to an existing table\n"
		   "      --unlogged           create the table UNLOGGED\n"
		   "  -j, --jobs=N             load with N connections, each COPYing its own range\n"
		   "                           of orders in its own transaction (default 1)\n"
		   "      --check              after loading, print scan_efficiency() for the table;\n"
		   "                           needs the scanbench extension, version " LOADER_VERSION "\n"
		   "\n"
		   "Output options:\n"
		   "  -P, --progress=SEC       report progress on stderr every SEC seconds (default:\n"
		   "                           every second when stderr is a terminal)\n"
		   "  -q, --quiet              print neither progress nor the summary line\n"
		   "\n"
		   "Connection options:\n"
		   "  -h, --host=HOSTNAME      database server host or socket directory\n"
		   "  -p, --port=PORT          database server port\n"
		   "  -U, --username=USERNAME  database user name\n"
		   "  -d, --dbname=DBNAME      database name or a conninfo string or URI\n"
		   "  PGHOST, PGPORT, PGUSER, PGDATABASE and the other libpq variables apply.\n"
		   "\n"
		   "  -V, --version            print the version and exit\n"
		   "  -?, --help               show this help and exit\n"
		   "\n"
		   "How the table is made ready to measure:\n"
		   "  With one job and a new table, the table is created and filled in one\n"
		   "  transaction with COPY FREEZE, then analyzed: rows are written frozen and\n"
		   "  all-visible, so the first scan does not set hint bits.  With --jobs > 1 or\n"
		   "  --append, each job COPYs in its own transaction, all commit only when all\n"
		   "  succeeded, then VACUUM (FREEZE, ANALYZE) runs.  The summary line says which.\n"
		   "\n"
		   "Failures:\n"
		   "  If any job fails or the load is interrupted, every job rolls back and a table\n"
		   "  made for this load is dropped: no partial table is left.  With --jobs > 1\n"
		   "  and --drop, the old table is dropped before the load starts.\n"
		   "\n"
		   "Exit status:\n"
		   "  0 loaded, 1 connection, server or --check failure, 2 bad arguments,\n"
		   "  130 interrupted (SIGINT).\n"
		   "\n"
		   "Example:\n"
		   "  " LOADER_NAME " -s 10 -j 2 -F binary --drop -d bench\n",
		   DEFAULT_SEED);
}

#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))

static void log_error(const char *fmt,...) PRINTF_LIKE(1, 2);
static void usage_error(const char *fmt,...) PRINTF_LIKE(1, 2);
static void vlog_error(const char *fmt, va_list ap) PRINTF_LIKE(1, 0);

static void
vlog_error(const char *fmt, va_list ap)
{
	fprintf(stderr, LOADER_NAME ": error: ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

static void
log_error(const char *fmt,...)
{
	va_list		ap;

	va_start(ap, fmt);
	vlog_error(fmt, ap);
	va_end(ap);
}

static void
usage_error(const char *fmt,...)
{
	va_list		ap;

	va_start(ap, fmt);
	vlog_error(fmt, ap);
	va_end(ap);
	fprintf(stderr, "Try \"" LOADER_NAME " --help\" for more information.\n");
	exit(EXIT_USAGE);
}

/* libpq messages end with a newline; the log lines add their own. */
static const char *
chomp(const char *msg)
{
	static __thread char buf[1024];
	size_t		len = strlen(msg);

	while (len > 0 && (msg[len - 1] == '\n' || msg[len - 1] == ' '))
		len--;
	if (len >= sizeof(buf))
		len = sizeof(buf) - 1;
	memcpy(buf, msg, len);
	buf[len] = '\0';
	return buf;
}

/* ------------------------------------------------------------------------
 * The random stream
 *
 * Every value is a function of (seed, order index, draw number): draw k of
 * order o is output number o * DRAWS_PER_ORDER + k of a splitmix64 stream
 * keyed by the seed.  Nothing depends on what was generated before, so a job
 * can start at any order and the rows do not depend on how the work is split.
 * ------------------------------------------------------------------------
 */
#define DRAWS_PER_ORDER		32	/* 1 for the order + 3 for each of 7 lines */
#define SPLITMIX_GAMMA		UINT64_C(0x9e3779b97f4a7c15)

static inline uint64_t
mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* The stream key of a seed: mixed, so that nearby seeds share no outputs. */
static inline uint64_t
seed_key(uint64_t seed)
{
	return mix64(seed ^ UINT64_C(0x6c696e656974656d));
}

static inline uint64_t
draw(uint64_t key, uint64_t order, unsigned k)
{
	return mix64(key + (order * DRAWS_PER_ORDER + k + 1) * SPLITMIX_GAMMA);
}

/*
 * Take a uniform integer in [0, n) from the top of *r and leave the rest of
 * the fraction in *r: one 64-bit draw yields several small values, each
 * consuming about log2(n) bits (fixed-point "fraction extraction").
 */
static inline uint32_t
take(uint64_t *r, uint32_t n)
{
	unsigned __int128 p = (unsigned __int128) *r * n;

	*r = (uint64_t) p;
	return (uint32_t) (p >> 64);
}

/* ------------------------------------------------------------------------
 * Scale, keys and calendar
 * ------------------------------------------------------------------------
 */
typedef struct
{
	int64_t		orders;			/* SF x 1,500,000 */
	int64_t		parts;			/* SF x 200,000 */
	int64_t		suppliers;		/* SF x 10,000 */
} Scale;

static Scale scale;

/* Of every 32 consecutive order keys only the first 8 are used. */
static inline int64_t
order_key(int64_t order)
{
	return (order / 8) * 32 + (order % 8) + 1;
}

/*
 * Dates are day indexes from 1992-01-01.  Order dates run to 1998-12-31 minus
 * 151 days, so that ship (+121 at most) and receipt (+30) dates end on
 * 1998-12-31: every date fits a table of 2557 entries, formatted once.
 */
#define CAL_DAYS			2557
#define ORDER_DATE_SPAN		(CAL_DAYS - 151)

static char cal_text[CAL_DAYS][10];		/* "YYYY-MM-DD" */
static int32_t cal_pgdate[CAL_DAYS];	/* days since 2000-01-01 */
static int	current_day;				/* 1995-06-17 */

/* Days since 1970-01-01 of a proleptic Gregorian date. */
static int64_t
days_from_civil(int y, int m, int d)
{
	int64_t		era;
	int			yoe,
				doy,
				doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = (int) (y - era * 400);
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

static void
build_calendar(void)
{
	static const int mdays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	int64_t		first = days_from_civil(1992, 1, 1);
	int64_t		pg_epoch = days_from_civil(2000, 1, 1);
	int			y = 1992,
				m = 1,
				d = 1;

	for (int i = 0; i < CAL_DAYS; i++)
	{
		int			len;
		bool		leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;

		char	   *t = cal_text[i];

		t[0] = '0' + y / 1000;
		t[1] = '0' + y / 100 % 10;
		t[2] = '0' + y / 10 % 10;
		t[3] = '0' + y % 10;
		t[4] = '-';
		t[5] = '0' + m / 10;
		t[6] = '0' + m % 10;
		t[7] = '-';
		t[8] = '0' + d / 10;
		t[9] = '0' + d % 10;
		cal_pgdate[i] = (int32_t) (first + i - pg_epoch);
		len = mdays[m - 1] + (m == 2 && leap);
		if (++d > len)
		{
			d = 1;
			if (++m > 12)
			{
				m = 1;
				y++;
			}
		}
	}
	current_day = (int) (days_from_civil(1995, 6, 17) - first);
}

/* ------------------------------------------------------------------------
 * Comment text pool
 *
 * l_comment is a 10..43 character substring, at a random offset, of a pool
 * of pseudo-English sentences made once from the seed.  The word lists are
 * this tool's own.  The pool holds no character that COPY text format or the
 * '|' delimiter would need to escape.
 * ------------------------------------------------------------------------
 */
#define POOL_SIZE			(4 * 1024 * 1024)
#define COMMENT_MIN			10
#define COMMENT_MAX			43

static char *pool;

static const char *const nouns[] = {
	"accounts", "anchors", "answers", "barrels", "baskets", "bridges",
	"bundles", "cargoes", "carriers", "channels", "clerks", "convoys",
	"couriers", "crates", "customers", "deposits", "depots", "docks",
	"drivers", "engines", "fleets", "forecasts", "freighters", "gates",
	"harbors", "invoices", "ledgers", "lorries", "manifests", "markets",
	"merchants", "orders", "packages", "pallets", "parcels", "platforms",
	"ports", "promises", "quarries", "receipts", "requests", "routes",
	"samples", "schedules", "shipments", "signals", "stores", "suppliers",
	"tariffs", "tickets", "towers", "traders", "vessels", "vouchers",
	"wagons", "warehouses",
};
static const char *const verbs[] = {
	"arrive", "boost", "carry", "check", "clear", "count", "cross", "deliver",
	"depart", "detect", "drift", "follow", "gather", "grow", "haul", "hold",
	"land", "lift", "load", "lose", "move", "nod", "pack", "pass", "print",
	"push", "reach", "record", "return", "route", "sail", "seal", "settle",
	"ship", "sleep", "sort", "stack", "stall", "swing", "trade", "track",
	"travel", "turn", "wait", "wander", "weigh", "wrap",
};
static const char *const adjectives[] = {
	"ancient", "bold", "brisk", "calm", "careful", "cheap", "clever", "close",
	"damp", "dear", "early", "even", "exact", "faint", "fair", "final", "firm",
	"free", "fresh", "full", "gentle", "grand", "heavy", "idle", "keen",
	"late", "light", "loose", "lucky", "modest", "narrow", "noisy", "plain",
	"proud", "quick", "quiet", "rapid", "rare", "rough", "silent", "sly",
	"smooth", "solid", "spare", "steady", "strict", "swift", "tidy", "vast",
};
static const char *const adverbs[] = {
	"always", "barely", "boldly", "briskly", "calmly", "carefully", "closely",
	"daily", "early", "evenly", "finally", "firmly", "gently", "gladly",
	"hardly", "lately", "loudly", "mostly", "nearly", "never", "often",
	"openly", "quickly", "quietly", "rarely", "readily", "slowly", "soon",
	"steadily", "swiftly", "today", "truly", "warmly", "weekly", "wisely",
};
static const char *const prepositions[] = {
	"about", "above", "across", "after", "against", "along", "among",
	"around", "at", "before", "behind", "beneath", "beside", "between",
	"beyond", "by", "despite", "during", "for", "from", "inside", "into",
	"near", "of", "over", "past", "since", "through", "toward", "under",
	"until", "upon", "within", "without",
};
static const char *const determiners[] = {"the", "the", "some", "all", "many", "few", "no"};
static const char *const terminators[] = {". ", ". ", ". ", "; ", ", ", "! ", "? "};

#define PICK(list, r) (list[take(&(r), sizeof(list) / sizeof((list)[0]))])

static char *
pool_put(char *p, const char *end, const char *word)
{
	while (*word && p < end)
		*p++ = *word++;
	return p;
}

/* A word and the space after it. */
static char *
pool_word(char *p, const char *end, const char *word)
{
	return pool_put(pool_put(p, end, word), end, " ");
}

/*
 * Sentences of the shape
 *   [adverb] determiner [adjective] noun [adverb] verb [preposition
 *   determiner [adjective] noun] terminator
 * with each optional part present half the time.
 */
static void
build_pool(uint64_t key)
{
	char	   *p,
			   *end;
	uint64_t	n = 0;

	pool = malloc(POOL_SIZE);
	if (pool == NULL)
	{
		log_error("out of memory");
		exit(EXIT_FAILURE_LOAD);
	}
	p = pool;
	end = pool + POOL_SIZE;
	while (p < end)
	{
		uint64_t	r = mix64(key ^ UINT64_C(0x636f6d6d656e7473) ^ (n++ * SPLITMIX_GAMMA));

		if (take(&r, 2))
			p = pool_word(p, end, PICK(adverbs, r));
		p = pool_word(p, end, PICK(determiners, r));
		if (take(&r, 2))
			p = pool_word(p, end, PICK(adjectives, r));
		p = pool_word(p, end, PICK(nouns, r));
		if (take(&r, 2))
			p = pool_word(p, end, PICK(adverbs, r));
		p = pool_put(p, end, PICK(verbs, r));
		if (take(&r, 2))
		{
			p = pool_put(p, end, " ");
			p = pool_word(p, end, PICK(prepositions, r));
			p = pool_word(p, end, PICK(determiners, r));
			if (take(&r, 2))
				p = pool_word(p, end, PICK(adjectives, r));
			p = pool_put(p, end, PICK(nouns, r));
		}
		p = pool_put(p, end, PICK(terminators, r));
	}
}

/* ------------------------------------------------------------------------
 * Rows
 * ------------------------------------------------------------------------
 */
static const char *const ship_instructs[] = {
	"DELIVER IN PERSON", "COLLECT COD", "NONE", "TAKE BACK RETURN"
};
static const char *const ship_modes[] = {
	"REG AIR", "AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB"
};
static uint8_t ship_instruct_len[4];
static uint8_t ship_mode_len[7];

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
	uint8_t		shipinstruct;
	uint8_t		shipmode;
	uint32_t	comment_off;
	uint32_t	comment_len;
} LineItem;

/* Number of lines of an order: uniform 1..7. */
static inline int
order_lines(uint64_t key, int64_t order, uint64_t *r0)
{
	*r0 = draw(key, order, 0);
	return (int) take(r0, 7) + 1;
}

/*
 * Fill items[] with the lines of one order and return how many.  All the
 * randomness of an order comes from its own DRAWS_PER_ORDER draws.
 */
static inline int
make_order(uint64_t key, int64_t order, LineItem *items)
{
	uint64_t	r0;
	int			nlines = order_lines(key, order, &r0);
	int			orderdate = (int) take(&r0, ORDER_DATE_SPAN);
	int64_t		okey = order_key(order);
	int64_t		S = scale.suppliers;

	for (int l = 0; l < nlines; l++)
	{
		LineItem   *it = &items[l];
		uint64_t	a = draw(key, order, 1 + 3 * l);
		uint64_t	b = draw(key, order, 2 + 3 * l);
		uint64_t	c = draw(key, order, 3 + 3 * l);
		int64_t		pk = (int64_t) take(&a, (uint32_t) scale.parts) + 1;
		int64_t		i = take(&c, 4);
		int64_t		retail_cents = 90000 + ((pk / 10) % 20001) + 100 * (pk % 1000);

		it->orderkey = okey;
		it->partkey = (int32_t) pk;
		it->suppkey = (int32_t) ((pk + i * (S / 4 + (pk - 1) / S)) % S + 1);
		it->linenumber = l + 1;
		it->comment_len = COMMENT_MIN + take(&c, COMMENT_MAX - COMMENT_MIN + 1);
		it->comment_off = take(&a, POOL_SIZE - COMMENT_MAX);

		it->quantity = (int32_t) take(&b, 50) + 1;
		it->extendedprice = it->quantity * retail_cents;
		it->discount = (int32_t) take(&b, 11);
		it->tax = (int32_t) take(&b, 9);
		it->shipdate = orderdate + 1 + (int32_t) take(&b, 121);
		it->commitdate = orderdate + 30 + (int32_t) take(&b, 61);
		it->receiptdate = it->shipdate + 1 + (int32_t) take(&b, 30);

		if (it->receiptdate <= current_day)
			it->returnflag = take(&c, 2) ? 'R' : 'A';
		else
			it->returnflag = 'N';
		it->linestatus = it->shipdate > current_day ? 'O' : 'F';
		it->shipinstruct = (uint8_t) take(&c, 4);
		it->shipmode = (uint8_t) take(&c, 7);
	}
	return nlines;
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
format_text(char *p, const LineItem *it)
{
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
	memcpy(p, cal_text[it->shipdate], 10);
	p[10] = '|';
	memcpy(p + 11, cal_text[it->commitdate], 10);
	p[21] = '|';
	memcpy(p + 22, cal_text[it->receiptdate], 10);
	p[32] = '|';
	p += 33;
	memcpy(p, ship_instructs[it->shipinstruct], ship_instruct_len[it->shipinstruct]);
	p += ship_instruct_len[it->shipinstruct];
	*p++ = '|';
	memcpy(p, ship_modes[it->shipmode], ship_mode_len[it->shipmode]);
	p += ship_mode_len[it->shipmode];
	*p++ = '|';
	memcpy(p, pool + it->comment_off, it->comment_len);
	p += it->comment_len;
	*p++ = '\n';
	return p;
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

static inline char *
put64(char *p, uint64_t v)
{
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
format_binary(char *p, const LineItem *it)
{
	p = put16(p, 16);
	p = put32(p, 8);
	p = put64(p, (uint64_t) it->orderkey);
	p = put32(p, 4);
	p = put32(p, (uint32_t) it->partkey);
	p = put32(p, 4);
	p = put32(p, (uint32_t) it->suppkey);
	p = put32(p, 4);
	p = put32(p, (uint32_t) it->linenumber);
	p = put_numeric_cents(p, (int64_t) it->quantity * 100);
	p = put_numeric_cents(p, it->extendedprice);
	p = put_numeric_cents(p, it->discount);
	p = put_numeric_cents(p, it->tax);
	p = put_bytes(p, &it->returnflag, 1);
	p = put_bytes(p, &it->linestatus, 1);
	p = put32(p, 4);
	p = put32(p, (uint32_t) cal_pgdate[it->shipdate]);
	p = put32(p, 4);
	p = put32(p, (uint32_t) cal_pgdate[it->commitdate]);
	p = put32(p, 4);
	p = put32(p, (uint32_t) cal_pgdate[it->receiptdate]);
	p = put_bytes(p, ship_instructs[it->shipinstruct], ship_instruct_len[it->shipinstruct]);
	p = put_bytes(p, ship_modes[it->shipmode], ship_mode_len[it->shipmode]);
	p = put_bytes(p, pool + it->comment_off, it->comment_len);
	return p;
}

/* Counts from a scale factor; rounded, without libm. */
static int64_t
round_count(double x)
{
	return (int64_t) (x + 0.5);
}

static void
init_generator(uint64_t seed)
{
	int64_t		orders = round_count(opt.scale * ORDERS_PER_SF);

	scale.orders = orders > 0 ? orders : 1;
	scale.parts = round_count(opt.scale * PARTS_PER_SF);
	scale.suppliers = round_count(opt.scale * SUPPLIERS_PER_SF);
	if (scale.parts < 1)
		scale.parts = 1;
	if (scale.suppliers < 1)
		scale.suppliers = 1;
	for (int i = 0; i < 4; i++)
		ship_instruct_len[i] = (uint8_t) strlen(ship_instructs[i]);
	for (int i = 0; i < 7; i++)
		ship_mode_len[i] = (uint8_t) strlen(ship_modes[i]);
	build_calendar();
	build_pool(seed_key(seed));
}

/* ------------------------------------------------------------------------
 * Jobs
 *
 * A job is one thread generating a range of orders into a chunk buffer and
 * handing full chunks to its connection's COPY (or to standard output).
 * Jobs never commit: the main thread commits them all, or none.
 * ------------------------------------------------------------------------
 */
typedef enum
{
	JOB_RUNNING,
	JOB_COPIED,					/* COPY ended well; transaction still open */
	JOB_FAILED,					/* failed on its own: job->error says why */
	JOB_ABORTED					/* stopped because another job failed or SIGINT */
} JobState;

typedef struct
{
	int			id;
	int64_t		first_order;	/* order indexes [first_order, end_order) */
	int64_t		end_order;
	PGconn	   *conn;			/* NULL: write to standard output */
	PGcancel   *cancel;
	pthread_t	thread;
	const char *copy_sql;

	/* written by the job, read by the main thread (relaxed atomics) */
	int64_t		orders_done;
	int64_t		rows_done;
	int64_t		bytes_done;
	int			state;

	/* set by the main thread when the server has failed this job's COPY */
	int			server_failed;
	int			backend_pid;

	int64_t		rows_copied;	/* COPY's command tag */
	char		error[1024];
} Job;

static volatile sig_atomic_t interrupted;
static int	abort_load;			/* atomic: tells running jobs to stop */

#define LOAD_RELAXED(x)		__atomic_load_n(&(x), __ATOMIC_RELAXED)
#define STORE_RELAXED(x, v)	__atomic_store_n(&(x), (v), __ATOMIC_RELAXED)
#define LOAD_ACQUIRE(x)		__atomic_load_n(&(x), __ATOMIC_ACQUIRE)
#define STORE_RELEASE(x, v)	__atomic_store_n(&(x), (v), __ATOMIC_RELEASE)

static void job_error(Job *job, const char *fmt,...) PRINTF_LIKE(2, 3);

static void
job_error(Job *job, const char *fmt,...)
{
	va_list		ap;

	if (job->error[0])
		return;					/* keep the first, it is the cause */
	va_start(ap, fmt);
	vsnprintf(job->error, sizeof(job->error), fmt, ap);
	va_end(ap);
}

static bool
write_all(int fd, const char *buf, size_t len)
{
	while (len > 0)
	{
		ssize_t		n = write(fd, buf, len);

		if (n < 0)
		{
			if (errno == EINTR)
				continue;
			return false;
		}
		buf += n;
		len -= (size_t) n;
	}
	return true;
}

static bool
job_flush(Job *job, const char *buf, size_t len)
{
	if (job->conn == NULL)
	{
		if (!write_all(STDOUT_FILENO, buf, len))
		{
			job_error(job, "could not write to standard output: %s", strerror(errno));
			return false;
		}
		return true;
	}
	if (PQputCopyData(job->conn, buf, (int) len) != 1)
	{
		job_error(job, "%s", chomp(PQerrorMessage(job->conn)));
		return false;
	}
	return true;
}

/*
 * End the COPY, with abort_msg to make the server fail it, and collect its
 * result.  The server's own message, when there is one, beats libpq's report
 * that the connection went away.
 */
static bool
job_end_copy(Job *job, const char *abort_msg)
{
	PGresult   *res;
	bool		ok = true;
	char		server_error[1024] = "";

	if (PQputCopyEnd(job->conn, abort_msg) != 1)
		ok = false;
	while ((res = PQgetResult(job->conn)) != NULL)
	{
		ExecStatusType st = PQresultStatus(res);

		if (st == PGRES_COMMAND_OK)
			job->rows_copied = strtoll(PQcmdTuples(res), NULL, 10);
		else
		{
			ok = false;
			if (!server_error[0] && PQresultErrorMessage(res)[0])
				snprintf(server_error, sizeof(server_error), "%s",
						 chomp(PQresultErrorMessage(res)));
		}
		PQclear(res);
		if (st == PGRES_COPY_IN)
			break;				/* the end did not get through; don't spin */
	}
	if (!ok && abort_msg == NULL)
	{
		if (server_error[0])
		{
			job->error[0] = '\0';	/* a lost connection's message is the effect */
			job_error(job, "%s", server_error);
		}
		else
			job_error(job, "%s", chomp(PQerrorMessage(job->conn)));
	}
	return ok && abort_msg == NULL;
}

static void *
run_job(void *arg)
{
	Job		   *job = arg;
	uint64_t	key = seed_key(opt.seed);
	bool		binary = opt.format == FORMAT_BINARY;
	char	   *buf = malloc(CHUNK_SIZE);
	char	   *p = buf;
	char	   *limit = buf + CHUNK_SIZE - ORDER_MAX_BYTES;
	LineItem	items[7];
	int64_t		rows = 0,
				bytes = 0;
	bool		in_copy = false;

	if (buf == NULL)
	{
		job_error(job, "out of memory");
		goto failed;
	}
	if (job->conn)
	{
		PGresult   *res = PQexec(job->conn, job->copy_sql);

		if (PQresultStatus(res) != PGRES_COPY_IN)
		{
			job_error(job, "%s", chomp(PQerrorMessage(job->conn)));
			PQclear(res);
			goto failed;
		}
		PQclear(res);
		in_copy = true;
	}
	if (binary)
	{
		memcpy(p, pgcopy_header, sizeof(pgcopy_header));
		p += sizeof(pgcopy_header);
	}

	for (int64_t o = job->first_order; o < job->end_order; o++)
	{
		int			n = make_order(key, o, items);

		for (int l = 0; l < n; l++)
			p = binary ? format_binary(p, &items[l]) : format_text(p, &items[l]);
		rows += n;
		if (p >= limit)
		{
			if (!job_flush(job, buf, p - buf))
				goto failed;
			bytes += p - buf;
			p = buf;
			STORE_RELAXED(job->orders_done, o + 1 - job->first_order);
			STORE_RELAXED(job->rows_done, rows);
			STORE_RELAXED(job->bytes_done, bytes);
			if (LOAD_RELAXED(job->server_failed))
				goto failed;	/* ending the COPY fetches the server's error */
			if (LOAD_RELAXED(abort_load))
				goto aborted;
		}
	}
	if (binary)
		p = put16(p, 0xffff);	/* file trailer */
	if (!job_flush(job, buf, p - buf))
		goto failed;
	bytes += p - buf;
	STORE_RELAXED(job->orders_done, job->end_order - job->first_order);
	STORE_RELAXED(job->rows_done, rows);
	STORE_RELAXED(job->bytes_done, bytes);
	if (job->conn)
	{
		in_copy = false;
		if (!job_end_copy(job, NULL))
			goto failed;
		if (job->rows_copied != rows)
		{
			job_error(job, "COPY reported %" PRId64 " rows, %" PRId64 " were sent",
					  job->rows_copied, rows);
			goto failed;
		}
	}
	else
		job->rows_copied = rows;
	free(buf);
	STORE_RELEASE(job->state, JOB_COPIED);
	return NULL;

aborted:
	job_end_copy(job, interrupted ? "interrupted by SIGINT" : "another job of this load failed");
	free(buf);
	STORE_RELEASE(job->state, JOB_ABORTED);
	return NULL;

failed:
	if (in_copy)
		job_end_copy(job, NULL);
	free(buf);
	STORE_RELAXED(abort_load, 1);
	STORE_RELEASE(job->state, JOB_FAILED);
	return NULL;
}

/* ------------------------------------------------------------------------
 * Progress and timing
 * ------------------------------------------------------------------------
 */
static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static bool progress_tty;
static int	progress_width;

static void
report_progress(Job *jobs, int njobs, double start, bool last)
{
	int64_t		orders = 0,
				rows = 0,
				bytes = 0;
	double		elapsed = now_s() - start;
	double		frac;
	char		line[200];
	int			len;

	for (int j = 0; j < njobs; j++)
	{
		orders += LOAD_RELAXED(jobs[j].orders_done);
		rows += LOAD_RELAXED(jobs[j].rows_done);
		bytes += LOAD_RELAXED(jobs[j].bytes_done);
	}
	frac = (double) orders / scale.orders;
	len = snprintf(line, sizeof(line),
				   "%" PRId64 " rows (%.1f%%), %.1f MB/s, %.0f rows/s, %.1f s elapsed",
				   rows, 100.0 * frac,
				   elapsed > 0 ? bytes / elapsed / 1e6 : 0.0,
				   elapsed > 0 ? rows / elapsed : 0.0, elapsed);
	if (frac > 0 && !last)
		len += snprintf(line + len, sizeof(line) - len, ", %.1f s left",
						elapsed / frac - elapsed);
	if (progress_tty)
	{
		fprintf(stderr, "\r%-*s", progress_width, line);
		progress_width = len;
		if (last)
			fputc('\n', stderr);
	}
	else
		fprintf(stderr, "%s\n", line);
}

static void
handle_sigint(int signo)
{
	(void) signo;
	if (interrupted)
		_exit(EXIT_INTERRUPTED);	/* second ^C: the server rolls back on disconnect */
	interrupted = 1;
}

/*
 * During COPY FROM STDIN libpq does not look at what the server sends, so a
 * COPY the server has failed (statement timeout, disk full, a cancel) would
 * go on being generated and sent, to be discarded, until its end.  The
 * backend of a failed COPY is "idle in transaction (aborted)" (every COPY
 * here runs in a transaction block): look for that about once a second, on
 * the control connection, and tell the job.
 */
static void
watch_backends(PGconn *ctl, Job *jobs, int njobs)
{
	char		pids[MAX_JOBS * 12 + 16];
	const char *params[1] = {pids};
	PGresult   *res;
	int			len = 0;

	len += snprintf(pids + len, sizeof(pids) - len, "{");
	for (int j = 0; j < njobs; j++)
		len += snprintf(pids + len, sizeof(pids) - len, "%s%d", j ? "," : "", jobs[j].backend_pid);
	snprintf(pids + len, sizeof(pids) - len, "}");
	res = PQexecParams(ctl,
					   "SELECT pid FROM pg_catalog.pg_stat_activity "
					   "WHERE pid = ANY ($1::integer[]) "
					   "AND state = 'idle in transaction (aborted)'",
					   1, NULL, params, NULL, NULL, 0);
	if (PQresultStatus(res) == PGRES_TUPLES_OK)
	{
		for (int r = 0; r < PQntuples(res); r++)
		{
			int			pid = atoi(PQgetvalue(res, r, 0));

			for (int j = 0; j < njobs; j++)
				if (jobs[j].backend_pid == pid)
					STORE_RELAXED(jobs[j].server_failed, 1);
		}
	}
	PQclear(res);
}

/*
 * Start the jobs and watch them: progress, SIGINT, a COPY failed by the
 * server, and a failed job, which makes the others stop.  Returns when every
 * job has ended.  ctl is NULL with --stdout.
 */
static void
run_jobs(Job *jobs, int njobs, double start, PGconn *ctl)
{
	double		next_report = start + opt.progress;
	double		next_watch = start + 1.0;
	bool		cancelled = false;

	for (int j = 0; j < njobs; j++)
	{
		if (pthread_create(&jobs[j].thread, NULL, run_job, &jobs[j]) != 0)
		{
			log_error("could not start a thread: %s", strerror(errno));
			exit(EXIT_FAILURE_LOAD);
		}
	}

	for (;;)
	{
		struct timespec nap = {0, 20 * 1000 * 1000};
		bool		running = false;

		for (int j = 0; j < njobs; j++)
			if (LOAD_ACQUIRE(jobs[j].state) == JOB_RUNNING)
				running = true;
		if (!running)
			break;
		if (interrupted && !cancelled)
		{
			char		errbuf[256];

			/*
			 * Jobs stop at their next chunk and fail their COPY; the cancel
			 * also stops a server that is busy with a statement.
			 */
			STORE_RELAXED(abort_load, 1);
			for (int j = 0; j < njobs; j++)
				if (jobs[j].cancel)
					PQcancel(jobs[j].cancel, errbuf, sizeof(errbuf));
			cancelled = true;
		}
		if (ctl && now_s() >= next_watch)
		{
			watch_backends(ctl, jobs, njobs);
			next_watch = now_s() + 1.0;
		}
		if (opt.progress > 0 && now_s() >= next_report)
		{
			report_progress(jobs, njobs, start, false);
			next_report += opt.progress;
		}
		nanosleep(&nap, NULL);
	}
	for (int j = 0; j < njobs; j++)
		pthread_join(jobs[j].thread, NULL);
	if (opt.progress > 0)
		report_progress(jobs, njobs, start, true);
}

static long
peak_rss_mb(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss / 1024;
}

static const char *
format_name(void)
{
	return opt.format == FORMAT_BINARY ? "binary" : "text";
}

static void
split_orders(Job *jobs, int njobs)
{
	for (int j = 0; j < njobs; j++)
	{
		jobs[j].id = j + 1;
		jobs[j].first_order = scale.orders * j / njobs;
		jobs[j].end_order = scale.orders * (j + 1) / njobs;
		jobs[j].state = JOB_RUNNING;
	}
}

/* ------------------------------------------------------------------------
 * --stdout
 * ------------------------------------------------------------------------
 */
static int
write_stdout(void)
{
	Job			job = {0};
	double		start = now_s(),
				elapsed;

	split_orders(&job, 1);
	run_jobs(&job, 1, start, NULL);
	elapsed = now_s() - start;
	if (interrupted)
	{
		log_error("interrupted: the output is incomplete");
		return EXIT_INTERRUPTED;
	}
	if (job.state != JOB_COPIED)
	{
		log_error("%s", job.error);
		return EXIT_FAILURE_LOAD;
	}
	if (!opt.quiet)
		fprintf(stderr, LOADER_NAME ": wrote %" PRId64 " rows (SF %g, seed %" PRIu64
				", %s) in %.2f s: %.0f MB/s, %.0f rows/s; peak RSS %ld MB\n",
				job.rows_copied, opt.scale, opt.seed, format_name(), elapsed,
				job.bytes_done / elapsed / 1e6, job.rows_copied / elapsed,
				peak_rss_mb());
	return 0;
}

/* ------------------------------------------------------------------------
 * Loading
 * ------------------------------------------------------------------------
 */
static PGconn *
connect_db(void)
{
	const char *keywords[] = {"host", "port", "user", "dbname",
	"fallback_application_name", NULL};
	const char *values[] = {opt.host, opt.port, opt.user, opt.dbname,
	LOADER_NAME, NULL};
	PGconn	   *conn = PQconnectdbParams(keywords, values, 1);
	PGresult   *res;

	if (conn == NULL)
	{
		log_error("out of memory");
		return NULL;
	}
	if (PQstatus(conn) != CONNECTION_OK)
	{
		log_error("%s", chomp(PQerrorMessage(conn)));
		PQfinish(conn);
		return NULL;
	}
	/* "table does not exist, skipping" and the like are not news here */
	res = PQexec(conn, "SET client_min_messages = warning");
	PQclear(res);
	return conn;
}

static bool
run_sql(PGconn *conn, const char *sql, const char *what)
{
	PGresult   *res = PQexec(conn, sql);
	ExecStatusType st = PQresultStatus(res);
	bool		ok = st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK;

	if (!ok && what)
		log_error("%s failed: %s", what, chomp(PQerrorMessage(conn)));
	PQclear(res);
	return ok;
}

/* One-value query with the quoted table name as $1; NULL on error. */
static char *
query_value(PGconn *conn, const char *sql, const char *qname)
{
	const char *params[1] = {qname};
	PGresult   *res = PQexecParams(conn, sql, qname ? 1 : 0, NULL,
								   qname ? params : NULL, NULL, NULL, 0);
	char	   *val = NULL;

	if (PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1 &&
		!PQgetisnull(res, 0, 0))
		val = strdup(PQgetvalue(res, 0, 0));
	else if (PQresultStatus(res) != PGRES_TUPLES_OK)
		log_error("%s", chomp(PQerrorMessage(conn)));
	PQclear(res);
	return val;
}

/*
 * Refuse, before loading, an extension that is missing or of another
 * version than this client: --check's output would not mean what it says.
 */
static bool
check_extension(PGconn *conn)
{
	PGresult   *res = PQexec(conn,
							 "SELECT extversion FROM pg_catalog.pg_extension "
							 "WHERE extname = 'scanbench'");
	bool		ok = false;

	if (PQresultStatus(res) != PGRES_TUPLES_OK)
		log_error("could not look up the scanbench extension: %s",
					 chomp(PQerrorMessage(conn)));
	else if (PQntuples(res) == 0)
		log_error("--check needs the scanbench extension, which is not installed in database \"%s\"\n"
					 "hint: CREATE EXTENSION scanbench; or leave out --check",
					 PQdb(conn));
	else if (strcmp(PQgetvalue(res, 0, 0), LOADER_VERSION) != 0)
		log_error("the scanbench extension in database \"%s\" is version %s, "
					 "but " LOADER_NAME " was built for version " LOADER_VERSION "\n"
					 "hint: use the " LOADER_NAME " of the installed version, or update "
					 "the extension (ALTER EXTENSION scanbench UPDATE TO '" LOADER_VERSION "')",
					 PQdb(conn), PQgetvalue(res, 0, 0));
	else
		ok = true;
	PQclear(res);
	return ok;
}

/* scan_efficiency(table), printed one column a line like psql's \x. */
static bool
run_check(PGconn *conn, const char *qname)
{
	const char *params[1] = {qname};
	PGresult   *res = PQexecParams(conn,
								   "SELECT * FROM scan_efficiency($1::regclass)",
								   1, NULL, params, NULL, NULL, 0);
	int			width = 0;

	if (PQresultStatus(res) != PGRES_TUPLES_OK)
	{
		log_error("scan_efficiency(%s) failed (the table is loaded): %s",
					 qname, chomp(PQerrorMessage(conn)));
		PQclear(res);
		return false;
	}
	for (int c = 0; c < PQnfields(res); c++)
		if ((int) strlen(PQfname(res, c)) > width)
			width = (int) strlen(PQfname(res, c));
	printf("scan_efficiency(%s)\n", qname);
	for (int r = 0; r < PQntuples(res); r++)
		for (int c = 0; c < PQnfields(res); c++)
			printf("  %-*s | %s\n", width, PQfname(res, c),
				   PQgetisnull(res, r, c) ? "" : PQgetvalue(res, r, c));
	PQclear(res);
	return true;
}

static char *sqlf(const char *fmt,...) PRINTF_LIKE(1, 2);

static char *
sqlf(const char *fmt,...)
{
	static char buf[4096];
	va_list		ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return buf;
}

/* Column types as the reference gives them; bigint keys fit SF >= 300. */
static const char *table_columns =
"(\n"
"    l_orderkey      bigint NOT NULL,\n"
"    l_partkey       integer NOT NULL,\n"
"    l_suppkey       integer NOT NULL,\n"
"    l_linenumber    integer NOT NULL,\n"
"    l_quantity      numeric(15,2) NOT NULL,\n"
"    l_extendedprice numeric(15,2) NOT NULL,\n"
"    l_discount      numeric(15,2) NOT NULL,\n"
"    l_tax           numeric(15,2) NOT NULL,\n"
"    l_returnflag    char(1) NOT NULL,\n"
"    l_linestatus    char(1) NOT NULL,\n"
"    l_shipdate      date NOT NULL,\n"
"    l_commitdate    date NOT NULL,\n"
"    l_receiptdate   date NOT NULL,\n"
"    l_shipinstruct  char(25) NOT NULL,\n"
"    l_shipmode      char(10) NOT NULL,\n"
"    l_comment       varchar(44) NOT NULL\n"
")";

static bool
create_table(PGconn *conn, const char *qname, bool exists)
{
	if (exists && !run_sql(conn, sqlf("DROP TABLE %s", qname), "DROP TABLE"))
		return false;
	return run_sql(conn, sqlf("CREATE %sTABLE %s %s", opt.unlogged ? "UNLOGGED " : "",
							  qname, table_columns), "CREATE TABLE");
}

/*
 * Drop a table this load created and committed, so that a failed load leaves
 * nothing behind.  The server may be gone (restart, crash): then say so.
 */
static void
drop_created_table(PGconn *ctl, const char *qname)
{
	if (PQstatus(ctl) != CONNECTION_OK)
		PQreset(ctl);
	if (PQstatus(ctl) == CONNECTION_OK &&
		run_sql(ctl, sqlf("DROP TABLE IF EXISTS %s", qname), NULL))
		fprintf(stderr, LOADER_NAME ": dropped table %s, which this load had created\n", qname);
	else
		log_error("could not drop table %s, created by this load and left empty: %s",
					 qname, chomp(PQerrorMessage(ctl)));
}

/* The first job that failed on its own names the cause. */
static const char *
load_error(Job *jobs, int njobs)
{
	for (int j = 0; j < njobs; j++)
		if (jobs[j].state == JOB_FAILED && jobs[j].error[0])
			return jobs[j].error;
	return "unknown error";
}

static int
load(void)
{
	PGconn	   *ctl;
	Job		   *jobs;
	char	   *qname,
			   *val;
	bool		exists,
				freeze_by_copy,
				created = false;	/* created and committed before the COPY */
	bool		copied = true;
	int			committed = 0;
	int64_t		rows = 0,
				bytes = 0,
				pages = 0;
	double		start,
				copy_s,
				post_s;
	const char *post_what;
	char		copy_sql[1024];

	/*
	 * From here on SIGINT only sets a flag: a table created before the jobs
	 * start must be dropped, not left behind by a dying process.
	 */
	signal(SIGINT, handle_sigint);
	if ((ctl = connect_db()) == NULL)
		return EXIT_FAILURE_LOAD;
	if (opt.check && !check_extension(ctl))
		return EXIT_FAILURE_LOAD;

	qname = PQescapeIdentifier(ctl, opt.table, strlen(opt.table));
	if (qname == NULL)
	{
		log_error("invalid table name: %s", chomp(PQerrorMessage(ctl)));
		return EXIT_FAILURE_LOAD;
	}
	val = query_value(ctl, "SELECT pg_catalog.to_regclass($1) IS NOT NULL", qname);
	if (val == NULL)
		return EXIT_FAILURE_LOAD;
	exists = val[0] == 't';
	free(val);
	if (exists && !opt.drop && !opt.append)
	{
		log_error("table %s already exists\n"
					 "hint: use --drop to replace it or --append to add rows to it", qname);
		return EXIT_FAILURE_LOAD;
	}
	if (!exists && opt.append)
	{
		log_error("table %s does not exist\nhint: leave out --append to create it", qname);
		return EXIT_FAILURE_LOAD;
	}

	/* All connections first: a refused one must fail before any change. */
	jobs = calloc(opt.jobs, sizeof(Job));
	split_orders(jobs, opt.jobs);
	for (int j = 0; j < opt.jobs; j++)
	{
		if ((jobs[j].conn = connect_db()) == NULL)
			return EXIT_FAILURE_LOAD;
		jobs[j].cancel = PQgetCancel(jobs[j].conn);
		jobs[j].backend_pid = PQbackendPID(jobs[j].conn);
	}

	/*
	 * COPY FREEZE needs the table created in the COPY's own transaction,
	 * which only one connection can see: one job, new table.  Otherwise the
	 * table is committed first and VACUUM (FREEZE, ANALYZE) follows.
	 */
	freeze_by_copy = opt.jobs == 1 && !opt.append;
	start = now_s();
	if (freeze_by_copy)
	{
		if (!run_sql(jobs[0].conn, "BEGIN", "BEGIN") ||
			!create_table(jobs[0].conn, qname, exists))
			return EXIT_FAILURE_LOAD;
	}
	else
	{
		if (!opt.append)
		{
			if (!create_table(ctl, qname, exists))
				return EXIT_FAILURE_LOAD;
			created = true;
		}
		for (int j = 0; j < opt.jobs; j++)
			if (!run_sql(jobs[j].conn, "BEGIN", "BEGIN"))
			{
				if (created)
					drop_created_table(ctl, qname);
				return EXIT_FAILURE_LOAD;
			}
	}
	snprintf(copy_sql, sizeof(copy_sql), "COPY %s FROM STDIN (FORMAT %s%s%s)",
			 qname, format_name(),
			 opt.format == FORMAT_TEXT ? ", DELIMITER '|'" : "",
			 freeze_by_copy ? ", FREEZE" : "");
	for (int j = 0; j < opt.jobs; j++)
		jobs[j].copy_sql = copy_sql;

	run_jobs(jobs, opt.jobs, start, ctl);

	for (int j = 0; j < opt.jobs; j++)
	{
		if (jobs[j].state != JOB_COPIED)
			copied = false;
		rows += jobs[j].rows_copied;
		bytes += jobs[j].bytes_done;
	}

	/*
	 * All or nothing.  Between the first and the last COMMIT a failure can
	 * still split the load (there is no two-phase commit here); then a table
	 * this load made is dropped, and with --append the message says which
	 * jobs' rows stayed.
	 */
	if (copied && !interrupted)
	{
		for (int j = 0; j < opt.jobs; j++)
		{
			PGresult   *res = PQexec(jobs[j].conn, "COMMIT");

			if (PQresultStatus(res) != PGRES_COMMAND_OK ||
				strcmp(PQcmdStatus(res), "COMMIT") != 0)
			{
				job_error(&jobs[j], "COMMIT failed: %s", chomp(PQerrorMessage(jobs[j].conn)));
				jobs[j].state = JOB_FAILED;
				PQclear(res);
				break;
			}
			PQclear(res);
			committed++;
		}
	}
	copy_s = now_s() - start;
	if (committed < opt.jobs)
	{
		for (int j = committed; j < opt.jobs; j++)
			if (PQstatus(jobs[j].conn) == CONNECTION_OK)
				run_sql(jobs[j].conn, "ROLLBACK", NULL);
		if (interrupted)
			log_error("interrupted: the load was cancelled and rolled back");
		else
			log_error("load into %s failed: %s", qname, load_error(jobs, opt.jobs));
		if (created)
			drop_created_table(ctl, qname);
		else if (committed > 0)
			log_error("%d of %d jobs had committed before the failure: their rows "
					  "(order indexes 0 to %" PRId64 ") stay in %s", committed, opt.jobs,
					  jobs[committed - 1].end_order - 1, qname);
		else if (opt.append)
			fprintf(stderr, LOADER_NAME ": nothing was added to %s\n", qname);
		else if (exists)
			fprintf(stderr, LOADER_NAME ": table %s is as it was before\n", qname);
		else
			fprintf(stderr, LOADER_NAME ": table %s was not created\n", qname);
		return interrupted ? EXIT_INTERRUPTED : EXIT_FAILURE_LOAD;
	}
	for (int j = 0; j < opt.jobs; j++)
	{
		PQfreeCancel(jobs[j].cancel);
		jobs[j].cancel = NULL;
		PQfinish(jobs[j].conn);
	}

	/* Ready to measure: frozen (by COPY FREEZE or VACUUM) and analyzed. */
	post_what = freeze_by_copy ? "ANALYZE" : "VACUUM (FREEZE, ANALYZE)";
	{
		PGcancel   *cancel = PQgetCancel(ctl);
		char		errbuf[256];
		bool		ok;

		if (interrupted)
			ok = false;
		else
		{
			if (opt.progress > 0)
				fprintf(stderr, "%s %s ...\n", post_what, qname);
			ok = run_sql(ctl, sqlf("%s %s", post_what, qname), post_what);
			if (interrupted)
				PQcancel(cancel, errbuf, sizeof(errbuf));
		}
		PQfreeCancel(cancel);
		if (!ok)
		{
			if (interrupted)
				log_error("interrupted before %s", post_what);
			if (!opt.append)
				drop_created_table(ctl, qname);
			else
				log_error("the rows stay in %s, not frozen", qname);
			return interrupted ? EXIT_INTERRUPTED : EXIT_FAILURE_LOAD;
		}
	}
	post_s = now_s() - start - copy_s;

	val = query_value(ctl, "SELECT pg_catalog.pg_relation_size($1::regclass) / "
					  "pg_catalog.current_setting('block_size')::integer", qname);
	if (val)
	{
		pages = strtoll(val, NULL, 10);
		free(val);
	}
	if (!opt.quiet)
		fprintf(stderr, LOADER_NAME ": loaded %" PRId64 " rows into %s (SF %g, seed %" PRIu64
				", %d job%s, %s) in %.2f s: %s %.2f s at %.0f MB/s and %.0f rows/s, "
				"then %s %.2f s; %" PRId64 " pages, %.1f bytes/row; peak RSS %ld MB\n",
				rows, qname, opt.scale, opt.seed, opt.jobs, opt.jobs > 1 ? "s" : "",
				format_name(), copy_s + post_s,
				freeze_by_copy ? "COPY FREEZE" : "COPY", copy_s,
				bytes / copy_s / 1e6, rows / copy_s, post_what, post_s,
				pages, rows > 0 ? pages * 8192.0 / rows : 0.0, peak_rss_mb());

	if (opt.check && !run_check(ctl, qname))
		return EXIT_FAILURE_LOAD;
	PQfreemem(qname);
	PQfinish(ctl);
	return 0;
}

/* ------------------------------------------------------------------------
 * main
 * ------------------------------------------------------------------------
 */
static double
parse_double(const char *arg, const char *what, double min, double max)
{
	char	   *end;
	double		v;

	errno = 0;
	v = strtod(arg, &end);
	if (errno || end == arg || *end || !isfinite(v) || v < min || v > max)
		usage_error("invalid %s \"%s\": must be a number from %g to %g", what, arg, min, max);
	return v;
}

static int64_t
parse_int(const char *arg, const char *what, int64_t min, int64_t max)
{
	char	   *end;
	long long	v;

	errno = 0;
	v = strtoll(arg, &end, 10);
	if (errno || end == arg || *end || v < min || v > max)
		usage_error("invalid %s \"%s\": must be an integer from %" PRId64 " to %" PRId64,
					what, arg, min, max);
	return v;
}

int
main(int argc, char **argv)
{
	static const struct option long_options[] = {
		{"scale", required_argument, NULL, 's'},
		{"seed", required_argument, NULL, 1},
		{"format", required_argument, NULL, 'F'},
		{"stdout", no_argument, NULL, 2},
		{"table", required_argument, NULL, 't'},
		{"drop", no_argument, NULL, 3},
		{"append", no_argument, NULL, 4},
		{"unlogged", no_argument, NULL, 5},
		{"jobs", required_argument, NULL, 'j'},
		{"check", no_argument, NULL, 6},
		{"progress", required_argument, NULL, 'P'},
		{"quiet", no_argument, NULL, 'q'},
		{"host", required_argument, NULL, 'h'},
		{"port", required_argument, NULL, 'p'},
		{"username", required_argument, NULL, 'U'},
		{"dbname", required_argument, NULL, 'd'},
		{"version", no_argument, NULL, 'V'},
		{"help", no_argument, NULL, '?'},
		{NULL, 0, NULL, 0}
	};
	int			c;
	char	   *end;

	if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-?") == 0))
	{
		usage();
		return 0;
	}
	while ((c = getopt_long(argc, argv, "s:F:t:j:P:qh:p:U:d:V?", long_options, NULL)) != -1)
	{
		switch (c)
		{
			case 's':
				opt.scale = parse_double(optarg, "scale factor", MIN_SCALE, MAX_SCALE);
				break;
			case 1:
				errno = 0;
				opt.seed = strtoull(optarg, &end, 10);
				if (errno || end == optarg || *end || optarg[0] == '-')
					usage_error("invalid seed \"%s\": must be an unsigned integer", optarg);
				break;
			case 'F':
				if (strcmp(optarg, "text") == 0)
					opt.format = FORMAT_TEXT;
				else if (strcmp(optarg, "binary") == 0)
					opt.format = FORMAT_BINARY;
				else
					usage_error("invalid format \"%s\": must be text or binary", optarg);
				opt.format_given = true;
				break;
			case 2:
				opt.to_stdout = true;
				break;
			case 't':
				if (optarg[0] == '\0')
					usage_error("the table name must not be empty");
				opt.table = optarg;
				break;
			case 3:
				opt.drop = true;
				break;
			case 4:
				opt.append = true;
				break;
			case 5:
				opt.unlogged = true;
				break;
			case 'j':
				opt.jobs = (int) parse_int(optarg, "number of jobs", 1, MAX_JOBS);
				break;
			case 6:
				opt.check = true;
				break;
			case 'P':
				opt.progress = parse_double(optarg, "progress interval", 0.01, 86400);
				opt.progress_forced = true;
				break;
			case 'q':
				opt.quiet = true;
				break;
			case 'h':
				opt.host = optarg;
				break;
			case 'p':
				opt.port = optarg;
				break;
			case 'U':
				opt.user = optarg;
				break;
			case 'd':
				opt.dbname = optarg;
				break;
			case 'V':
				printf(LOADER_NAME " (scanbench) " LOADER_VERSION "\n");
				return 0;
			case '?':
				if (optopt == 0 && strcmp(argv[optind - 1], "-?") == 0)
				{
					usage();
					return 0;
				}
				fprintf(stderr, "Try \"" LOADER_NAME " --help\" for more information.\n");
				return EXIT_USAGE;
			default:
				fprintf(stderr, "Try \"" LOADER_NAME " --help\" for more information.\n");
				return EXIT_USAGE;
		}
	}
	if (optind < argc)
	{
		if (opt.dbname)
			usage_error("database given twice: \"%s\" and \"%s\"", opt.dbname, argv[optind]);
		opt.dbname = argv[optind++];
	}
	if (optind < argc)
		usage_error("too many command-line arguments (first is \"%s\")", argv[optind]);
	if (opt.drop && opt.append)
		usage_error("--drop and --append cannot be used together");
	if (opt.to_stdout && (opt.jobs > 1 || opt.check || opt.drop || opt.append || opt.unlogged))
		usage_error("--stdout writes rows with one thread and no connection: "
					"--jobs, --check, --drop, --append and --unlogged do not apply");
	if ((int64_t) opt.jobs > round_count(opt.scale * ORDERS_PER_SF))
		usage_error("more jobs than orders");

	if (opt.to_stdout && !opt.format_given)
		opt.format = FORMAT_TEXT;	/* dbgen's kind of file */

	progress_tty = isatty(STDERR_FILENO);
	if (opt.quiet)
		opt.progress = 0;
	else if (!opt.progress_forced && progress_tty)
		opt.progress = 1;

	init_generator(opt.seed);
	if (opt.to_stdout)
		return write_stdout();
	return load();
}
