/*
 * options.c: the command line and --help.
 *
 * parse_options() fills an Options from argv, or says what the program
 * exits with: 0 after --help or --version, 2 after a bad argument (usage
 * errors exit at once, with a pointer to --help).
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/judgerules.h"
#include "cli.h"
#include "fleet.h"
#include "options.h"
#include "xalloc.h"

enum
{
	OPT_CACHE = 1,
	OPT_MAX_SECONDS,
	OPT_TARGET_PCT,
	OPT_SAMPLE,
	OPT_NO_RESTORE,
	OPT_TIMEOUT,
	OPT_CONNECT_TIMEOUT,
	OPT_SPREAD_K,
	OPT_MIN_SPREAD,
	OPT_MAX_DROP,
	OPT_HISTORY_RUNS,
	OPT_NIGHT,
	OPT_LEASE,
	OPT_HELP
};

static const struct option long_options[] = {
	{"servers", required_argument, NULL, 'f'},
	{"relation", required_argument, NULL, 'r'},
	{"history", required_argument, NULL, 'H'},
	{"format", required_argument, NULL, 'F'},
	{"jobs", required_argument, NULL, 'j'},
	{"cache", required_argument, NULL, OPT_CACHE},
	{"max-seconds", required_argument, NULL, OPT_MAX_SECONDS},
	{"target-pct", required_argument, NULL, OPT_TARGET_PCT},
	{"sample", required_argument, NULL, OPT_SAMPLE},
	{"no-restore", no_argument, NULL, OPT_NO_RESTORE},
	{"timeout", required_argument, NULL, OPT_TIMEOUT},
	{"connect-timeout", required_argument, NULL, OPT_CONNECT_TIMEOUT},
	{"spread-k", required_argument, NULL, OPT_SPREAD_K},
	{"min-spread", required_argument, NULL, OPT_MIN_SPREAD},
	{"max-drop-pct", required_argument, NULL, OPT_MAX_DROP},
	{"history-runs", required_argument, NULL, OPT_HISTORY_RUNS},
	{"night", required_argument, NULL, OPT_NIGHT},
	{"lease", required_argument, NULL, OPT_LEASE},
	CLI_LAST_LONG_OPTIONS(OPT_HELP)
};

static void
usage(void)
{
	printf(
		   FLEET_NAME " measures scan efficiency (scanbench's scan_efficiency) on many\n"
		   "servers in parallel, keeps every run in one central history, and names the\n"
		   "server whose scans get less of its storage than its peers'.\n"
		   "\n"
		   "Usage:\n"
		   "  " FLEET_NAME " --servers=FILE --relation=REL... --history=CONNINFO [OPTION]...\n"
		   "\n"
		   "What to measure:\n"
		   "  -f, --servers=FILE       the servers, one a line: a connection URI\n"
		   "                           (postgresql://host:port/db?...) or service=NAME, then\n"
		   "                           optional tag=value words (class=, zone=, ...;\n"
		   "                           name=LABEL names the server, disk=ID the disk it\n"
		   "                           shares with others); '#' starts a comment\n"
		   "  -r, --relation=REL       a relation to measure on every server (repeat for\n"
		   "                           more; measured one after another on each server)\n"
		   "  -H, --history=CONNINFO   the database keeping the central history: scanbench\n"
		   "                           " FLEET_VERSION " installed, on a primary; every row goes into its\n"
		   "                           scan_history, with the server's identity\n"
		   "\n"
		   "How (scan_efficiency's arguments):\n"
		   "      --cache=MODE         cold, warm or asis (default cold)\n"
		   "      --max-seconds=S      time budget of each measurement (default 60)\n"
		   "      --target-pct=P       stop when the interval is within +-P %% (default 5)\n"
		   "      --sample=F           largest fraction of the relation read (default 1)\n"
		   "      --no-restore         do not put the caches back afterwards (by default\n"
		   "                           the blocks cached before a measurement are read in\n"
		   "                           again, as efficiency_check does)\n"
		   "  -j, --jobs=N             servers measured at once (default 4)\n"
		   "      --timeout=SEC        longest a measurement may take on a server, ended by\n"
		   "                           the server (statement_timeout) and by this program a\n"
		   "                           few seconds later (default 2 x --max-seconds + 120)\n"
		   "      --connect-timeout=SEC  longest connecting may take (default 10)\n"
		   "\n"
		   "Runners that share a night:\n"
		   "      --night=NAME         take the servers from the night NAME's queue in the\n"
		   "                           central history, shared with every runner given\n"
		   "                           the same NAME and --history: each server is\n"
		   "                           measured once in the night, by one runner, and\n"
		   "                           one already finished is not measured again; each\n"
		   "                           server's rows are recorded as it ends, and the\n"
		   "                           output is of this runner's servers\n"
		   "      --lease=SEC          a claim on a server lasts SEC seconds, renewed\n"
		   "                           every third of it while measuring; a runner that\n"
		   "                           dies leaves its servers to the others after it\n"
		   "                           (default 60)\n"
		   "  Servers with the same disk=ID tag are never measured at once, across\n"
		   "  runners too; a server without one is a disk of its own.  disk=, like\n"
		   "  name=, has no part in the cohorts.\n"
		   "\n"
		   "How servers are judged:\n"
		   "  A cohort is the servers with the same tags (name= aside), for one relation.\n"
		   "  Of its judged rows (a scan_pct, and a verdict none of unstable, cached,\n"
		   "  burst, empty, over_budget), when there are three or more, m is the median\n"
		   "  scan_pct and MAD the median absolute deviation times %g.  A row is\n"
		   "  flagged when its whole 95 %% interval lies outside m +- max(K x MAD,\n"
		   "  --min-spread).  The same rule on the logarithm of read_mb_s (rows whose\n"
		   "  verdict is not cached, burst, empty or over_budget; unstable ones count,\n"
		   "  their read rates being the storage's) flags a read rate outside the\n"
		   "  median times or divided by max(e^(K x MAD), %g).  A flagged row names what\n"
		   "  differs from most of its peers: device, filesystem, scheduler,\n"
		   "  read-ahead, kernel, server version, I/O settings, cgroup limits.  A\n"
		   "  judged row whose interval lies wholly more than --max-drop-pct below the\n"
		   "  median of the server's last --history-runs judged runs in the central\n"
		   "  history (with at least three) is flagged too.\n"
		   "      --spread-k=K         K (default %g)\n"
		   "      --min-spread=PCT     the least half-width, in points of scan_pct\n"
		   "                           (default %g)\n"
		   "      --max-drop-pct=PCT   drop against its own history that flags, above 0\n"
		   "                           and below 100 (default 20)\n"
		   "      --history-runs=N     runs of its own history compared with (default 10)\n"
		   "\n"
		   "Output:\n"
		   "  -F, --format=FORMAT      table (default), csv or json: a row per server x\n"
		   "                           relation with server, role, tags, relation,\n"
		   "                           read_mb_s, scan_mb_s, scan_pct, scan_pct_lo,\n"
		   "                           scan_pct_hi, verdict, limits, device, history_pct,\n"
		   "                           history_runs, cohort_pct, cohort_spread,\n"
		   "                           cohort_size, flagged (true/false), reason (why it\n"
		   "                           was not measured) and remark (why flagged)\n"
		   "\n"
		   "Connection options:\n"
		   "  -w, --no-password        never prompt for a password\n"
		   "  -W, --password           prompt for a password before connecting, used for\n"
		   "                           every server and the history; without it, each\n"
		   "                           connection uses its conninfo, PGPASSWORD or\n"
		   "                           ~/.pgpass (a server asking for a password that\n"
		   "                           was not given is a row with that reason)\n"
		   "  The libpq variables (PGUSER, PGSERVICEFILE, ...) apply to every connection.\n"
		   "\n"
		   "  -V, --version            print the version and exit\n"
		   "  -?, --help               show this help and exit\n"
		   "\n"
		   "Servers that cannot be measured:\n"
		   "  A server that is down, refuses the connection, lacks scanbench " FLEET_VERSION ", fails\n"
		   "  the measurement, takes longer than --timeout or is lost mid-run gives a row\n"
		   "  with its reason, in the output and in the central history, never a gap.\n"
		   "  Standbys are measured as primaries are (the runs are kept centrally).\n"
		   "\n"
		   "Signals:\n"
		   "  SIGINT or SIGTERM cancels every running measurement at once (a cancel\n"
		   "  request to each server) and closes every connection within a second, so\n"
		   "  that no server is left measuring; the rows so far, the others with reason\n"
		   "  \"interrupted\", are recorded.  A second signal exits at once.  With\n"
		   "  --night, a server not wholly measured is given back to the queue instead.\n"
		   "\n"
		   "Exit status:\n"
		   "  0 every row measured, none flagged (rows not judged, such as unstable\n"
		   "    ones, are not alarms);\n"
		   "  1 an alarm: a row flagged, or a server, relation or line of the servers\n"
		   "    file that could not be measured (its row has the reason);\n"
		   "  2 could not run: bad options, an unreadable servers file or one with no\n"
		   "    usable line, or a central history that cannot be reached or cannot\n"
		   "    take the rows;\n"
		   "  128 + N stopped by signal N: 130 SIGINT, 143 SIGTERM.\n"
		   "\n"
		   "Example (cron, nightly):\n"
		   "  " FLEET_NAME " -f /etc/scanbench/servers -r lineitem -j 8 \\\n"
		   "      -H 'postgresql://monitor.example/scanbench' --format csv\n",
		   sb_threshold(SB_RULE_COHORT_MAD_SCALE),
		   sb_threshold(SB_RULE_COHORT_READ_FACTOR),
		   sb_threshold(SB_RULE_COHORT_K),
		   sb_threshold(SB_RULE_COHORT_LEAST_PCT));
}

bool
parse_options(int argc, char **argv, Options *opt, int *status)
{
	int			c;
	bool		timeout_given = false;
	bool		lease_given = false;

	*opt = (Options)
	{
		.format = FORMAT_TABLE,
			.jobs = 4,
			.cache = "cold",
			.max_seconds = 60,
			.target_pct = 5,
			.sample = 1.0,
			.restore = true,
			.connect_timeout = 10,
			.k = sb_threshold(SB_RULE_COHORT_K),
			.min_spread_pct = sb_threshold(SB_RULE_COHORT_LEAST_PCT),
			.max_drop_pct = 20,
			.history_runs = 10,
			.lease = 60,
	};
	opt->relations = xmalloc(sizeof(char *) * (size_t) argc);
	*status = 0;
	if (cli_help_first(argc, argv, usage))
		return false;
	while ((c = getopt_long(argc, argv, "f:r:H:F:j:wWV?", long_options, NULL)) != -1)
	{
		if (cli_password_option(c, &opt->password_prompt))
			continue;
		switch (c)
		{
			case 'f':
				opt->servers_file = optarg;
				break;
			case 'r':
				if (optarg[0] == '\0')
					usage_error("the relation name must not be empty");
				opt->relations[opt->nrelations++] = optarg;
				break;
			case 'H':
				opt->history = optarg;
				break;
			case 'F':
				if (strcmp(optarg, "table") == 0)
					opt->format = FORMAT_TABLE;
				else if (strcmp(optarg, "csv") == 0)
					opt->format = FORMAT_CSV;
				else if (strcmp(optarg, "json") == 0)
					opt->format = FORMAT_JSON;
				else
					usage_error("invalid format \"%s\": must be table, csv or json", optarg);
				break;
			case 'j':
				opt->jobs = parse_int(optarg, "number of jobs", 1, MAX_JOBS);
				break;
			case OPT_CACHE:
				if (strcmp(optarg, "cold") != 0 && strcmp(optarg, "warm") != 0 &&
					strcmp(optarg, "asis") != 0)
					usage_error("invalid cache mode \"%s\": must be cold, warm or asis", optarg);
				opt->cache = optarg;
				break;
			case OPT_MAX_SECONDS:
				opt->max_seconds = parse_double(optarg, "time budget", 0, 86400, true);
				break;
			case OPT_TARGET_PCT:
				opt->target_pct = parse_double(optarg, "target", 0, 100, true);
				break;
			case OPT_SAMPLE:
				opt->sample = parse_double(optarg, "sample fraction", 0, 1, true);
				break;
			case OPT_NO_RESTORE:
				opt->restore = false;
				break;
			case OPT_TIMEOUT:
				opt->timeout = parse_double(optarg, "timeout", 0, 2147483, true);
				timeout_given = true;
				break;
			case OPT_CONNECT_TIMEOUT:
				opt->connect_timeout = parse_double(optarg, "connect timeout", 0, 3600, true);
				break;
			case OPT_SPREAD_K:
				opt->k = parse_double(optarg, "spread factor", 0, 100, true);
				break;
			case OPT_MIN_SPREAD:
				opt->min_spread_pct = parse_double(optarg, "least spread", 0, 100, false);
				break;
			case OPT_MAX_DROP:
				opt->max_drop_pct = parse_double(optarg, "drop", 0, 100, true);
				/* As efficiency_check and scan_history_record take it. */
				if (opt->max_drop_pct >= 100)
					usage_error("invalid drop \"%s\": must be a number above 0 and below 100",
								optarg);
				break;
			case OPT_HISTORY_RUNS:
				opt->history_runs = parse_int(optarg, "number of runs", 1, 10000);
				break;
			case OPT_NIGHT:
				if (optarg[0] == '\0')
					usage_error("the night's name must not be empty");
				opt->night = optarg;
				break;
			case OPT_LEASE:
				opt->lease = parse_double(optarg, "lease", 2, 86400, false);
				lease_given = true;
				break;
			default:
				*status = cli_other_option(c, OPT_HELP, argv, usage);
				return false;
		}
	}
	if (optind < argc)
		usage_error("too many command-line arguments (first is \"%s\")", argv[optind]);
	if (opt->servers_file == NULL)
		usage_error("no servers file given (--servers)");
	if (opt->nrelations == 0)
		usage_error("no relation given (--relation)");
	if (opt->history == NULL)
		usage_error("no central history given (--history)");
	if (lease_given && opt->night == NULL)
		usage_error("--lease is for runners that share a night (--night)");
	if (!timeout_given)
		opt->timeout = 2 * opt->max_seconds + 120;
	else if (opt->timeout < opt->max_seconds)
		usage_error("--timeout %g is shorter than --max-seconds %g: every measurement would be cut short",
					opt->timeout, opt->max_seconds);
	return true;
}
