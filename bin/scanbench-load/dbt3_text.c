/*
 * dbt3_text.c: the generator's text tables, built once by dbt3_init.
 *
 * The calendar holds every date a row can have, formatted for text COPY and
 * converted for binary COPY, so that rows are made without any date
 * arithmetic.  The comment pool is pseudo-English made from the seed;
 * l_comment is a 10..43 character substring of it at a random offset.
 */
#include <stdbool.h>

#include "dbt3.h"
#include "dbt3_random.h"
#include "dbt3_text.h"

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
put_date(char *t, int y, int m, int d)
{
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
}

/* Day i of the calendar is 1992-01-01 + i. */
void
dbt3_build_calendar(Dbt3 *g)
{
	static const int mdays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	int64_t		first = days_from_civil(1992, 1, 1);
	int64_t		pg_epoch = days_from_civil(2000, 1, 1);
	int			y = 1992,
				m = 1,
				d = 1;

	for (int i = 0; i < DBT3_CAL_DAYS; i++)
	{
		bool		leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;

		put_date(g->cal_text[i], y, m, d);
		g->cal_pgdate[i] = (int32_t) (first + i - pg_epoch);
		if (++d > mdays[m - 1] + (m == 2 && leap))
		{
			d = 1;
			if (++m > 12)
			{
				m = 1;
				y++;
			}
		}
	}
	g->current_day = (int) (days_from_civil(1995, 6, 17) - first);
}

/*
 * The word lists are this tool's own.  The pool holds no character that COPY
 * text format or the '|' delimiter would need to escape.
 */
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
 * Fill DBT3_POOL_SIZE bytes with sentences of the shape
 *   [adverb] determiner [adjective] noun [adverb] verb [preposition
 *   determiner [adjective] noun] terminator
 * with each optional part present half the time.
 */
void
dbt3_build_pool(char *pool, uint64_t key)
{
	char	   *p = pool;
	const char *end = pool + DBT3_POOL_SIZE;
	uint64_t	n = 0;

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
