/*
 * options.c: the command line and --help.
 *
 * parse_options() fills an Options from argv, or says what the program
 * exits with: 0 after --help or --version, 2 after a bad argument (usage
 * errors exit at once, with a pointer to --help).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "dbt3.h"
#include "loader.h"
#include "options.h"

/* Long options without a short form. */
enum
{
	OPT_SEED = 1,
	OPT_STDOUT,
	OPT_DROP,
	OPT_FORCE_DROP,
	OPT_APPEND,
	OPT_UNLOGGED,
	OPT_CHECK,
	OPT_DISTRIBUTE,
	OPT_SHARD_COUNT,
	OPT_LOCK_TIMEOUT,
	OPT_JSON,
	OPT_INDEX,
	OPT_TOAST,
	OPT_HELP
};

static const struct option long_options[] = {
	{"scale", required_argument, NULL, 's'},
	{"seed", required_argument, NULL, OPT_SEED},
	{"format", required_argument, NULL, 'F'},
	{"stdout", no_argument, NULL, OPT_STDOUT},
	{"table", required_argument, NULL, 't'},
	{"drop", no_argument, NULL, OPT_DROP},
	{"force-drop", no_argument, NULL, OPT_FORCE_DROP},
	{"append", no_argument, NULL, OPT_APPEND},
	{"unlogged", no_argument, NULL, OPT_UNLOGGED},
	{"index", required_argument, NULL, OPT_INDEX},
	{"toast", no_argument, NULL, OPT_TOAST},
	{"distribute", required_argument, NULL, OPT_DISTRIBUTE},
	{"shard-count", required_argument, NULL, OPT_SHARD_COUNT},
	{"jobs", required_argument, NULL, 'j'},
	{"lock-timeout", required_argument, NULL, OPT_LOCK_TIMEOUT},
	{"check", no_argument, NULL, OPT_CHECK},
	{"progress", required_argument, NULL, 'P'},
	{"quiet", no_argument, NULL, 'q'},
	{"json", no_argument, NULL, OPT_JSON},
	CLI_CONNECTION_LONG_OPTIONS,
	CLI_LAST_LONG_OPTIONS(OPT_HELP)
};

static void
usage(void)
{
	printf(
		   LOADER_NAME " writes a DBT-3 lineitem table (derived from TPC-H) into PostgreSQL\n"
		   "through COPY FROM STDIN, generating the rows as they are sent.  The table it\n"
		   "leaves is frozen and analyzed, ready for scan measurements; with --index it\n"
		   "has indexes for index and bitmap heap scans, and --toast makes a table whose\n"
		   "values are read from its TOAST relation instead.\n"
		   "\n"
		   "Usage:\n"
		   "  " LOADER_NAME " [OPTION]... [DBNAME]\n"
		   "  " LOADER_NAME " --stdout [OPTION]... > lineitem.tbl\n"
		   "\n"
		   "Data options:\n"
		   "  -s, --scale=SF           scale factor, 0.01 to 1000; SF 1 is about 6 million\n"
		   "                           rows and 946 MB on disk (default 1)\n"
		   "      --seed=N             seed of the random stream (default %" PRIu64 "); the same\n"
		   "                           scale and seed give the same rows with any --jobs\n"
		   "                           and --format\n"
		   "  -F, --format=FORMAT      COPY format: binary or text (default binary, which\n"
		   "                           the server ingests about 30 %% faster; with\n"
		   "                           --stdout, text)\n"
		   "      --toast              make part_doc instead of lineitem: a row a part\n"
		   "                           (SF x 200,000), pd_partkey as lineitem's l_partkey,\n"
		   "                           and a text pd_doc of 2 to 6 kB stored out of line\n"
		   "                           and uncompressed (STORAGE EXTERNAL), so that nearly\n"
		   "                           all its bytes are in its TOAST relation; --table\n"
		   "                           defaults to part_doc\n"
		   "      --stdout             write the rows to standard output instead of loading:\n"
		   "                           '|'-separated text like dbgen's (no trailing '|'), or\n"
		   "                           a PGCOPY file with --format=binary; no connection\n"
		   "\n"
		   "Table options:\n"
		   "  -t, --table=NAME         table to create, one identifier taken literally\n"
		   "                           (default lineitem); an existing table is an error\n"
		   "                           unless --drop or --append is given\n"
		   "      --drop               replace the table if it exists; only a table that\n"
		   "                           scanbench loaded, which its comment marks (\"made by\n"
		   "                           scanbench...\")\n"
		   "      --force-drop         replace the table even if scanbench did not make it\n"
		   "      --append             add the rows to an existing table\n"
		   "      --unlogged           create the table UNLOGGED\n"
		   "      --index=COLUMN[,COLUMN]...\n"
		   "                           once the rows are in, build a B-tree index on each\n"
		   "                           COLUMN, named TABLE_COLUMN_idx; lineitem's are\n"
		   "                           l_orderkey, whose order follows the heap's, and\n"
		   "                           l_partkey, l_suppkey, l_shipdate, l_commitdate and\n"
		   "                           l_receiptdate, whose orders do not (below);\n"
		   "                           part_doc's is pd_partkey\n"
		   "      --distribute=COLUMN  on a Citus coordinator: create the table distributed\n"
		   "                           by COLUMN (e.g. l_orderkey); the rows go to the\n"
		   "                           shards through the coordinator's COPY\n"
		   "      --shard-count=N      shards of the distributed table (default: Citus'\n"
		   "                           citus.shard_count)\n"
		   "  -j, --jobs=N|auto        load with N connections, each COPYing its own range\n"
		   "                           of orders in its own transactions (default 1); auto\n"
		   "                           chooses from the server's settings (below); an N\n"
		   "                           expected to be slower than one job is obeyed with a\n"
		   "                           note saying why\n"
		   "      --lock-timeout=SEC   give up after waiting SEC seconds for the lock that\n"
		   "                           replacing the table or renaming the new one in\n"
		   "                           takes (default %g; 0 waits without limit)\n"
		   "      --check              after loading, print scan_efficiency() for the table;\n"
		   "                           needs the scanbench extension, version " LOADER_VERSION "\n"
		   "\n"
		   "Output options:\n"
		   "  -P, --progress=SEC       report progress on stderr every SEC seconds (default:\n"
		   "                           every second when stderr is a terminal)\n"
		   "  -q, --quiet              print neither progress, notes nor the summary line\n"
		   "      --json               print the summary's figures as one JSON object on\n"
		   "                           standard output (also with --quiet)\n"
		   "\n"
		   "Connection options:\n"
		   "  -h, --host=HOSTNAME      database server host or socket directory\n"
		   "  -p, --port=PORT          database server port\n"
		   "  -U, --username=USERNAME  database user name\n"
		   "  -d, --dbname=DBNAME      database name or a conninfo string or URI\n"
		   "  -w, --no-password        never prompt for a password\n"
		   "  -W, --password           prompt for a password before connecting (otherwise\n"
		   "                           only when the server asks for one)\n"
		   "  PGHOST, PGPORT, PGUSER, PGDATABASE and the other libpq variables apply.\n"
		   "\n"
		   "  -V, --version            print the version and exit\n"
		   "  -?, --help               show this help and exit\n"
		   "\n"
		   "How the table is made ready to measure:\n"
		   "  With one job and a new table (or --drop), the table is created and filled\n"
		   "  in one transaction with COPY FREEZE, then analyzed: rows are written frozen\n"
		   "  and all-visible, so the first scan does not set hint bits.  With --jobs > 1,\n"
		   "  --append or --distribute, the jobs COPY in transactions of their own, then\n"
		   "  VACUUM (FREEZE, ANALYZE) runs (on a Citus table, on every shard).  Where a\n"
		   "  checkpoint is likely during the load (full_page_writes on, a table of a\n"
		   "  quarter of max_wal_size or more), the jobs commit in steps and another\n"
		   "  connection freezes what they committed while its pages are newer than the\n"
		   "  last checkpoint: frozen later, every page would go to the WAL a second\n"
		   "  time as a full-page image.  The summary line says which, the WAL the load\n"
		   "  wrote, the checkpoints during it and what limited it (generation, COPY,\n"
		   "  freezing or WAL), and gives the pages of all the shards for a Citus table.\n"
		   "\n"
		   "Choosing --jobs (auto):\n"
		   "  Before loading, the loader reads wal_level, fsync, full_page_writes,\n"
		   "  wal_log_hints, data checksums, max_wal_size, the standbys, and the server's\n"
		   "  CPUs when it runs on this machine (a socket or loopback connection); it\n"
		   "  refuses a standby.  auto uses one job per server CPU (2 when not known, at\n"
		   "  most 4) for an UNLOGGED or Citus table, and where fsync is off on a server\n"
		   "  with 2 CPUs or more; otherwise one job: with wal_level = minimal one job's\n"
		   "  COPY FREEZE writes no WAL for the rows, and with fsync and full_page_writes\n"
		   "  on, two jobs were no faster than one on 2 CPUs.  --append uses one.\n"
		   "\n"
		   "Indexes:\n"
		   "  --index builds each index after the COPY (with --jobs > 1, after VACUUM),\n"
		   "  before the new table is renamed in; the summary gives each one's size and\n"
		   "  time.  With one job the heap is in l_orderkey's order (pg_stats.correlation\n"
		   "  1): an index scan on it reads the heap forward.  With N jobs each job's\n"
		   "  pages hold its own range of orders, interleaved with the others', and the\n"
		   "  correlation is about 1/N.  The other columns are drawn at random for each\n"
		   "  line or order: correlation near 0, an index scan reads the heap at random.\n"
		   "\n"
		   "Failures and signals:\n"
		   "  The rows go into a staging table; the named table changes only in the last\n"
		   "  transaction, which drops the old one (--drop) and renames the new one in its\n"
		   "  place.  Whatever stops the load (a failed job, a lost connection, a server\n"
		   "  restart, SIGINT, SIGTERM or SIGHUP at any step), the database is left as it\n"
		   "  was before the command, or holds the complete table.  A signal cancels the\n"
		   "  statement the server is busy with at once.  With --append the rows are all\n"
		   "  added or none; VACUUM (FREEZE, ANALYZE) follows the commit.\n"
		   "\n"
		   "Locks:\n"
		   "  Until its last transaction the load takes no lock that keeps anyone from\n"
		   "  reading or writing the named table.  That transaction's DROP (--drop) and\n"
		   "  RENAME need ACCESS EXCLUSIVE, which waits for every transaction using the\n"
		   "  table, and every later query on it, a SELECT too, queues behind the wait.\n"
		   "  So they wait at most --lock-timeout; after a second of waiting the loader\n"
		   "  says on stderr which lock it waits for and which sessions (pid, program,\n"
		   "  state) hold it.  On the timeout the load is rolled back and the table is\n"
		   "  as it was (exit 3).  Objects that DROP TABLE would refuse to drop with the\n"
		   "  table (views, foreign keys from other tables, child tables) are looked for\n"
		   "  before any row is written: --drop refuses such a table (exit 1).\n"
		   "\n"
		   "Exit status:\n"
		   "  0 loaded; 1 connection, server or --check failure (the database is as it\n"
		   "  was, unless the message says the load had committed); 2 bad arguments;\n"
		   "  3 gave up waiting for a lock (--lock-timeout; the database is as it was);\n"
		   "  128 + N stopped by signal N: 129 SIGHUP, 130 SIGINT, 143 SIGTERM.\n"
		   "\n"
		   "Example:\n"
		   "  " LOADER_NAME " -s 10 -j auto --drop -d bench\n",
		   DBT3_DEFAULT_SEED, DEFAULT_LOCK_TIMEOUT_S);
}

static uint64_t
parse_seed(const char *arg)
{
	char	   *end;
	uint64_t	v;

	errno = 0;
	v = strtoull(arg, &end, 10);
	if (!plain_decimal(arg, false) || errno || end == arg || *end)
		usage_error("invalid seed \"%s\": must be an unsigned integer", arg);
	return v;
}

static Dbt3Format
parse_format(const char *arg)
{
	if (strcmp(arg, "text") == 0)
		return DBT3_TEXT;
	if (strcmp(arg, "binary") != 0)
		usage_error("invalid format \"%s\": must be text or binary", arg);
	return DBT3_BINARY;
}

/*
 * --index=COLUMN[,COLUMN]...: the columns, in order, checked against the
 * table once every option is read (--toast may come later).
 */
static void
add_index_columns(Options *opt, const char *arg)
{
	char	   *list = strdup(arg);
	char	   *save = NULL;

	if (list == NULL)
		usage_error("out of memory");
	if (arg[0] == '\0')
		usage_error("--index needs a column name");
	for (char *c = strtok_r(list, ",", &save); c; c = strtok_r(NULL, ",", &save))
	{
		for (int i = 0; i < opt->nindexes; i++)
			if (strcmp(opt->index_columns[i], c) == 0)
				usage_error("--index names column \"%s\" twice", c);
		if (opt->nindexes == MAX_INDEXES)
			usage_error("--index names more than %d columns", MAX_INDEXES);
		opt->index_columns[opt->nindexes++] = c;
	}
	if (opt->nindexes == 0)
		usage_error("invalid --index \"%s\": must be column names separated by commas", arg);
}

/* One option of the data, table and output groups; false if c is not one. */
static bool
set_load_option(Options *opt, int c, const char *arg, bool *format_given)
{
	switch (c)
	{
		case 's':
			opt->scale = parse_double(arg, "scale factor", DBT3_MIN_SCALE, DBT3_MAX_SCALE, false);
			return true;
		case OPT_SEED:
			opt->seed = parse_seed(arg);
			return true;
		case 'F':
			opt->format = parse_format(arg);
			*format_given = true;
			return true;
		case OPT_STDOUT:
			opt->to_stdout = true;
			return true;
		case 't':
			if (arg[0] == '\0')
				usage_error("the table name must not be empty");
			if (strlen(arg) > MAX_IDENTIFIER_BYTES)
				usage_error("the table name \"%s\" is longer than %d bytes, which the "
							"server would cut short", arg, MAX_IDENTIFIER_BYTES);
			opt->table = arg;
			return true;
		case OPT_DROP:
			opt->drop = true;
			return true;
		case OPT_FORCE_DROP:
			opt->drop = opt->force_drop = true;
			return true;
		case OPT_APPEND:
			opt->append = true;
			return true;
		case OPT_UNLOGGED:
			opt->unlogged = true;
			return true;
		case OPT_INDEX:
			add_index_columns(opt, arg);
			return true;
		case OPT_TOAST:
			opt->kind = DBT3_PART_DOC;
			return true;
		case OPT_DISTRIBUTE:
			if (arg[0] == '\0')
				usage_error("the distribution column must not be empty");
			opt->distribute = arg;
			return true;
		case OPT_SHARD_COUNT:
			opt->shard_count = (int) parse_int(arg, "shard count", 1, 64000);
			return true;
		case 'j':
			opt->jobs = strcmp(arg, "auto") == 0 ? 0 :
				(int) parse_int(arg, "number of jobs (or auto)", 1, MAX_JOBS);
			return true;
		case OPT_LOCK_TIMEOUT:
			opt->lock_timeout = parse_double(arg, "lock timeout", 0, MAX_LOCK_TIMEOUT_S, false);
			return true;
		case OPT_CHECK:
			opt->check = true;
			return true;
		case 'P':
			opt->progress = parse_double(arg, "progress interval", 0.01, 86400, false);
			return true;
		case 'q':
			opt->quiet = true;
			return true;
		case OPT_JSON:
			opt->json = true;
			return true;
	}
	return false;
}

/* One connection option; false if c is not one. */
static bool
set_connection_option(Options *opt, int c, const char *arg)
{
	switch (c)
	{
		case 'h':
			opt->host = arg;
			return true;
		case 'p':
			opt->port = arg;
			return true;
		case 'U':
			opt->user = arg;
			return true;
		case 'd':
			opt->dbname = arg;
			return true;
	}
	return cli_password_option(c, &opt->password_prompt);
}

/*
 * --index's columns are the table's, and the names of the indexes,
 * TABLE_COLUMN_idx as the server would choose them, are whole.
 */
static void
check_indexes(const Options *opt)
{
	const LoadTable *t = load_table(opt->kind);
	char		list[200];

	for (int i = 0; i < opt->nindexes; i++)
	{
		const char *c = opt->index_columns[i];

		if (!is_index_column(t, c))
			usage_error("invalid --index column \"%s\": %s's indexes are on %s", c,
						t->name, index_column_list(t, list, sizeof(list)));
		if (strlen(opt->table) + strlen(c) + 5 > MAX_IDENTIFIER_BYTES)
			usage_error("the index name \"%s_%s_idx\" would be longer than %d bytes, which "
						"the server would cut short: name a shorter table with --table",
						opt->table, c, MAX_IDENTIFIER_BYTES);
	}
	if (opt->nindexes > 0 && (opt->append || opt->to_stdout || opt->distribute))
		usage_error("--index builds indexes on the table a load creates: --append, "
					"--stdout and --distribute do not apply");
}

/* The database as an argument, and options that do not go together. */
static void
check_options(Options *opt, int argc, char **argv)
{
	if (optind < argc)
	{
		if (opt->dbname)
			usage_error("database given twice: \"%s\" and \"%s\"", opt->dbname, argv[optind]);
		opt->dbname = argv[optind++];
	}
	if (optind < argc)
		usage_error("too many command-line arguments (first is \"%s\")", argv[optind]);
	if (opt->drop && opt->append)
		usage_error("--drop and --append cannot be used together");
	if (opt->to_stdout && (opt->jobs > 1 || opt->check || opt->drop || opt->append ||
						   opt->unlogged || opt->json))
		usage_error("--stdout writes rows with one thread and no connection: "
					"--jobs, --check, --drop, --append, --unlogged and --json do not apply");
	if (opt->to_stdout)
		opt->jobs = 1;
	if (opt->shard_count > 0 && opt->distribute == NULL)
		usage_error("--shard-count applies to a table created with --distribute");
	if (opt->distribute && (opt->append || opt->to_stdout))
		usage_error("--distribute creates the table: --append and --stdout do not apply");
	if (opt->table == NULL)
		opt->table = load_table(opt->kind)->name;
	check_indexes(opt);
	if ((int64_t) opt->jobs > dbt3_units(opt->kind, opt->scale))
		usage_error("more jobs than %s", opt->kind == DBT3_PART_DOC ? "parts" : "orders");
}

/*
 * Fill *opt from the command line.  Returns true to go on; false when the
 * program is to exit now with *status (after --help, --version or an
 * unknown option).
 */
bool
parse_options(int argc, char **argv, Options *opt, int *status)
{
	bool		format_given = false;
	int			c;

	*opt = (Options)
	{
		.scale = 1.0,
			.seed = DBT3_DEFAULT_SEED,
			.kind = DBT3_LINEITEM,
			.jobs = 1,
			.format = DBT3_BINARY,
			.lock_timeout = DEFAULT_LOCK_TIMEOUT_S,
	};
	*status = 0;
	if (cli_help_first(argc, argv, usage))
		return false;
	while ((c = getopt_long(argc, argv, "s:F:t:j:P:qh:p:U:d:wWV?", long_options, NULL)) != -1)
	{
		if (set_load_option(opt, c, optarg, &format_given) ||
			set_connection_option(opt, c, optarg))
			continue;
		*status = cli_other_option(c, OPT_HELP, argv, usage);
		return false;
	}
	check_options(opt, argc, argv);
	if (opt->to_stdout && !format_given)
		opt->format = DBT3_TEXT;	/* dbgen's kind of file */
	return true;
}
