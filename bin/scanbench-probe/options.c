/*
 * options.c: the command line and --help.
 *
 * parse_options() fills an Options from argv, or says what the program
 * exits with: 0 after --help or --version, 2 after a bad argument (usage
 * errors exit at once, with a pointer to --help).  Nothing connects here.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "options.h"
#include "program.h"
#include "xalloc.h"

enum
{
	OPT_PASSES = 1,
	OPT_PREWARM,
	OPT_STORAGE,
	OPT_PROFILES,
	OPT_LIST_PROFILES,
	OPT_MEMORY,
	OPT_REQUEST_KIB,
	OPT_LATENCY_MS,
	OPT_MIN_PCT,
	OPT_NAME,
	OPT_TAG,
	OPT_TIMEOUT,
	OPT_LOCK_TIMEOUT,
	OPT_CONNECT_TIMEOUT,
	OPT_HELP
};

static const struct option long_options[] = {
	{"table", required_argument, NULL, 't'},
	{"passes", required_argument, NULL, OPT_PASSES},
	{"prewarm", no_argument, NULL, OPT_PREWARM},
	{"storage", required_argument, NULL, OPT_STORAGE},
	{"profiles", required_argument, NULL, OPT_PROFILES},
	{"list-profiles", no_argument, NULL, OPT_LIST_PROFILES},
	{"memory", required_argument, NULL, OPT_MEMORY},
	{"request-kib", required_argument, NULL, OPT_REQUEST_KIB},
	{"latency-ms", required_argument, NULL, OPT_LATENCY_MS},
	{"min-pct", required_argument, NULL, OPT_MIN_PCT},
	{"history", required_argument, NULL, 'H'},
	{"name", required_argument, NULL, OPT_NAME},
	{"tag", required_argument, NULL, OPT_TAG},
	{"format", required_argument, NULL, 'F'},
	CLI_CONNECTION_LONG_OPTIONS,
	{"timeout", required_argument, NULL, OPT_TIMEOUT},
	{"lock-timeout", required_argument, NULL, OPT_LOCK_TIMEOUT},
	{"connect-timeout", required_argument, NULL, OPT_CONNECT_TIMEOUT},
	CLI_LAST_LONG_OPTIONS(OPT_HELP)
};

static void
usage(void)
{
	printf(
		   "NAME\n"
		   "    " PROBE_NAME " - the scan rate of a server where scanbench cannot be\n"
		   "    installed, measured from a client, against its volume's published limits\n"
		   "\n"
		   "SYNOPSIS\n"
		   "    " PROBE_NAME " --table=TABLE [OPTION]... [DBNAME | CONNINFO]\n"
		   "    " PROBE_NAME " --list-profiles [--profiles=FILE]...\n"
		   "\n"
		   "DESCRIPTION\n"
		   "    Times sequential scans of TABLE (SELECT count(*) FROM ONLY TABLE, the\n"
		   "    planner held to a sequential scan) over libpq alone, with EXPLAIN\n"
		   "    (ANALYZE, BUFFERS), track_io_timing where the role may set it, and the\n"
		   "    deltas of pg_stat_io (PostgreSQL 16 and later; this session's own, in\n"
		   "    bytes, from 18).  For each pass it gives the scan rate (bytes over\n"
		   "    wall-clock time), the read rate per second of read wait, the share of\n"
		   "    blocks found in shared buffers, and how cold the pass really was: a\n"
		   "    client cannot evict a cache, so a pass is called cold only when the\n"
		   "    figures show it was (few blocks in shared buffers, and a table too\n"
		   "    large for the memory the OS could have cached it in: --memory), warm\n"
		   "    when they show it was not (blocks from shared buffers, blocks faster\n"
		   "    than the volume delivers, a pass faster than the first), and neither\n"
		   "    otherwise.  With pg_buffercache readable, it also counts the table's\n"
		   "    blocks in shared buffers before the first pass and after the last.\n"
		   "\n"
		   "    Against a storage profile (--storage), the scan rate is given as a\n"
		   "    percentage of the volume's limit, in bytes a second or in requests a\n"
		   "    second at the request size the server sends, whichever binds, and a\n"
		   "    pass faster than the baseline allows is said to have used a burst.\n"
		   "\n"
		   "    It is read-only: every pass runs in a READ ONLY transaction with\n"
		   "    statement and lock timeouts, creates nothing, and needs no superuser\n"
		   "    (SELECT on the table; pg_monitor for pg_buffercache).  Every query is\n"
		   "    schema-qualified and the session's search_path is pg_catalog, pg_temp\n"
		   "    once TABLE has been found on the role's own.\n"
		   "\n"
		   "OPTIONS\n"
		   "  What to measure\n"
		   "    -t, --table=TABLE\n"
		   "        the table (or materialized view) to scan; a name without a schema\n"
		   "        is looked up on the role's search_path, as psql would\n"
		   "    --passes=N\n"
		   "        passes, one after another (default 2, at most 100): the first\n"
		   "        is the coldest the table is; the others show what a cache gives\n"
		   "    --prewarm\n"
		   "        read the table into shared buffers with pg_prewarm first (needs\n"
		   "        pg_prewarm and the right to run it): every pass is then warm, the\n"
		   "        scan's rate with no storage under it\n"
		   "\n"
		   "  The server's volume and memory\n"
		   "    --storage=PROFILE[:KEY=VALUE,...]\n"
		   "        the volume the table is on, as a profile of the profiles files,\n"
		   "        its figures changed by KEY=VALUE (gp3:iops=6000,mib_s=250), or a\n"
		   "        name of your own with all its figures (mine:mb_s=300,iops=9000).\n"
		   "        Keys: iops, mib_s, mb_s, burst_iops, burst_mib_s, burst_mb_s,\n"
		   "        iops_per_gib, min_iops, size_gib, max_iops, max_mib_s, max_mb_s,\n"
		   "        max_mib_s_per_iops, request_kib, latency_ms, burst=none.  Figures\n"
		   "        above what the volume can be given are refused\n"
		   "    --profiles=FILE\n"
		   "        more profiles, read after " PROFILES_FILE "\n"
		   "        (repeat for more; a profile named again replaces the earlier one)\n"
		   "    --list-profiles\n"
		   "        print every profile, its figures and its source, and exit\n"
		   "    --memory=SIZE\n"
		   "        the server's memory (16GB, 512MB; kB, MB, GB, TB count in 1024s,\n"
		   "        as PostgreSQL's settings do; KiB, MiB, GiB, TiB too): the most\n"
		   "        the OS can cache is this less shared_buffers\n"
		   "    --request-kib=N\n"
		   "        the size of the read requests the volume sees, KiB (by default the\n"
		   "        Linux default read-ahead, 128, or the server's own requests where\n"
		   "        larger: pg_stat_io's from 18, io_combine_limit on 17)\n"
		   "    --latency-ms=MS\n"
		   "        the volume's stated latency of one request (or the profile's\n"
		   "        latency_ms), shown beside the read wait per request\n"
		   "    --min-pct=PCT\n"
		   "        exit 1 when a cold pass scanned at less than PCT %% of the\n"
		   "        volume's baseline limit\n"
		   "\n"
		   "  The central history\n"
		   "    -H, --history=CONNINFO\n"
		   "        record each pass in the scan_history of this database (scanbench\n"
		   "        " PROBE_VERSION " installed, on a primary), as scanbench-fleet records its\n"
		   "        runs, with method 'client': see doc/managed.md\n"
		   "    --name=NAME\n"
		   "        the server's name there (default HOST:PORT/DBNAME)\n"
		   "    --tag=KEY=VALUE\n"
		   "        a tag of the server there (repeat for more), as in\n"
		   "        scanbench-fleet's servers file\n"
		   "\n"
		   "  Output\n"
		   "    -F, --format=FORMAT\n"
		   "        text (default) or json\n"
		   "\n"
		   "  Connection\n"
		   "    -d, --dbname=DBNAME | CONNINFO\n"
		   "    -h, --host=HOST\n"
		   "    -p, --port=PORT\n"
		   "    -U, --username=USER\n"
		   "    -w, --no-password      never prompt for a password\n"
		   "    -W, --password         prompt for one before connecting (used for the\n"
		   "                           central history too)\n"
		   "    --timeout=SEC          statement_timeout of each pass (default 600)\n"
		   "    --lock-timeout=SEC     lock_timeout (default 10)\n"
		   "    --connect-timeout=SEC  (default 10)\n"
		   "    The libpq variables (PGHOST, PGUSER, PGSERVICE, ...) apply.  No\n"
		   "    password or connection string is printed or recorded.\n"
		   "\n"
		   "    -V, --version          print the version and exit\n"
		   "    -?, --help             show this help and exit\n"
		   "\n"
		   "EXIT STATUS\n"
		   "    0  measured (and recorded, with --history)\n"
		   "    1  measured, and a cold pass ran below --min-pct of the volume's limit\n"
		   "    2  nothing measured: bad options or profiles, no connection, no such\n"
		   "       table, no right to read it, a central history that cannot be used\n"
		   "    3  a pass failed or the server went away mid-run (recorded with its\n"
		   "       reason, with --history)\n"
		   "    4  measured, but the central history did not take the runs\n"
		   "    128 + N  stopped by signal N (the running pass cancelled first)\n"
		   "\n"
		   "EXAMPLES\n"
		   "    " PROBE_NAME " -h db1.example -d tpch -t lineitem --storage gp3 --memory 16GB\n"
		   "    " PROBE_NAME " 'postgresql://monitor@db1.example/tpch' -t lineitem \\\n"
		   "        --storage 'gp3:iops=6000,mib_s=250' --memory 64GB \\\n"
		   "        --history 'postgresql://monitor.example/scanbench' --name db1\n");
}

/*
 * arg as a size with its unit: true with the bytes in *bytes, or false.
 * What parse_size stands on, without its exit: the fuzz tests of bin/fuzz
 * call it with any text.
 */
bool
memory_size(const char *arg, double *bytes)
{
	static const struct
	{
		const char *unit;
		double		bytes;
	}			units[] = {
		{"kB", 1024.0}, {"MB", 1048576.0}, {"GB", 1073741824.0}, {"TB", 1099511627776.0},
		{"KiB", 1024.0}, {"MiB", 1048576.0}, {"GiB", 1073741824.0}, {"TiB", 1099511627776.0},
	};
	char	   *copy = xstrdup(arg);
	char	   *u = copy;
	double		v;

	while ((*u >= '0' && *u <= '9') || *u == '.')
		u++;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
	{
		if (strcmp(u, units[i].unit) != 0)
			continue;
		*u = '\0';
		v = strtod(copy, NULL);
		if (!plain_decimal(copy, true) || !(v > 0) || v * units[i].bytes > 1e18)
			break;
		free(copy);
		*bytes = v * units[i].bytes;
		return true;
	}
	free(copy);
	return false;
}

/* A size with its unit, in bytes; a usage error otherwise. */
static double
parse_size(const char *arg)
{
	double		bytes;

	if (!memory_size(arg, &bytes))
		usage_error("invalid memory size \"%s\": a number above 0 and a unit (kB, MB, GB, TB, KiB, MiB, GiB, TiB), such as 16GB",
					arg);
	return bytes;
}

static bool
valid_tag_key(const char *s, size_t n)
{
	if (n == 0)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
			  (s[i] >= '0' && s[i] <= '9') || s[i] == '_' || s[i] == '-' || s[i] == '.'))
			return false;
	return true;
}

bool
parse_options(int argc, char **argv, Options *opt, int *status)
{
	int			c;

	*opt = (Options)
	{
		.passes = 2,
			.memory_bytes = NAN,
			.request_kib = NAN,
			.latency_ms = NAN,
			.min_pct = NAN,
			.format = FORMAT_TEXT,
			.timeout = 600,
			.lock_timeout = 10,
			.connect_timeout = 10,
	};
	opt->profiles_files = xmalloc(sizeof(char *) * (size_t) argc);
	opt->tags = xmalloc(sizeof(char *) * (size_t) argc);
	*status = EXIT_MEASURED;
	if (cli_help_first(argc, argv, usage))
		return false;
	while ((c = getopt_long(argc, argv, "t:H:F:d:h:p:U:wWV?", long_options, NULL)) != -1)
	{
		if (cli_password_option(c, &opt->password_prompt))
			continue;
		switch (c)
		{
			case 't':
				if (optarg[0] == '\0')
					usage_error("the table name must not be empty");
				opt->table = optarg;
				break;
			case OPT_PASSES:
				opt->passes = (int) parse_int(optarg, "number of passes", 1, 100);
				break;
			case OPT_PREWARM:
				opt->prewarm = true;
				break;
			case OPT_STORAGE:
				opt->storage = optarg;
				break;
			case OPT_PROFILES:
				opt->profiles_files[opt->nprofiles_files++] = optarg;
				break;
			case OPT_LIST_PROFILES:
				opt->list_profiles = true;
				break;
			case OPT_MEMORY:
				opt->memory_bytes = parse_size(optarg);
				break;
			case OPT_REQUEST_KIB:
				opt->request_kib = parse_double(optarg, "request size", 0, 1048576, true);
				break;
			case OPT_LATENCY_MS:
				opt->latency_ms = parse_double(optarg, "latency", 0, 100000, true);
				break;
			case OPT_MIN_PCT:
				opt->min_pct = parse_double(optarg, "least share of the volume", 0, 1000, true);
				break;
			case 'H':
				if (optarg[0] == '\0')
					usage_error("the central history's connection string must not be empty");
				opt->history = optarg;
				break;
			case OPT_NAME:
				if (optarg[0] == '\0')
					usage_error("the server's name must not be empty");
				opt->name = optarg;
				break;
			case OPT_TAG:
				{
					const char *eq = strchr(optarg, '=');

					if (eq == NULL || !valid_tag_key(optarg, (size_t) (eq - optarg)) || eq[1] == '\0')
						usage_error("invalid tag \"%s\": KEY=VALUE, the key of letters, digits, '_', '-' and '.'",
									optarg);
					for (int i = 0; i < opt->ntags; i++)
						if (strncmp(opt->tags[i], optarg, (size_t) (eq - optarg) + 1) == 0)
							usage_error("tag \"%.*s\" given twice", (int) (eq - optarg), optarg);
					opt->tags[opt->ntags++] = optarg;
				}
				break;
			case 'F':
				if (strcmp(optarg, "text") == 0)
					opt->format = FORMAT_TEXT;
				else if (strcmp(optarg, "json") == 0)
					opt->format = FORMAT_JSON;
				else
					usage_error("invalid format \"%s\": must be text or json", optarg);
				break;
			case 'd':
				opt->dbname = optarg;
				break;
			case 'h':
				opt->host = optarg;
				break;
			case 'p':
				opt->port = optarg;
				break;
			case 'U':
				opt->username = optarg;
				break;
			case OPT_TIMEOUT:
				opt->timeout = parse_double(optarg, "timeout", 0, 2147483, true);
				break;
			case OPT_LOCK_TIMEOUT:
				opt->lock_timeout = parse_double(optarg, "lock timeout", 0, 2147483, true);
				break;
			case OPT_CONNECT_TIMEOUT:
				opt->connect_timeout = parse_double(optarg, "connect timeout", 0, 3600, true);
				break;
			default:
				*status = cli_other_option(c, OPT_HELP, argv, usage);
				return false;
		}
	}
	if (optind < argc && opt->dbname == NULL)
		opt->dbname = argv[optind++];
	if (optind < argc)
		usage_error("too many command-line arguments (first is \"%s\")", argv[optind]);
	if (opt->list_profiles)
		return true;
	if (opt->table == NULL)
		usage_error("no table given (--table)");
	if ((opt->name || opt->ntags) && opt->history == NULL)
		usage_error("--name and --tag name the server in the central history: give --history");
	if (!isnan(opt->min_pct) && opt->storage == NULL)
		usage_error("--min-pct is a share of the volume's limit: give --storage");
	return true;
}
