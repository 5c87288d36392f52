# bench/fleet-scale.sh at a test's size (20 servers, 3 relations, 30 days)
# against a cluster of the test: it writes the year, times the night and
# prints its table; the night's judgements, the cohorts and one server's
# trend are each of their own server, and the night judged as a set
# gives each run its own judgement.  Where Citus is built (17, 18), the
# same with --citus: the night on a Citus cluster of two workers, then on
# three after the rebalance, with the same judgements.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use SbCitus;

# At a test's size the figures are no record of the machine: no result file.
$ENV{SB_BENCH_RESULTS} = 'none';

my ($out, $err);
local $ENV{PGUSER} = $ENV{USER} // scalar getpwuid($<);
my $bindir = `pg_config --bindir`;
chomp $bindir;
local $ENV{SB_PGBIN} = $bindir;

# The bench on one server is the same on every major: where a major runs
# this file only for its Citus part, the full tier has run it.
SKIP:
{
	skip "one server: $ENV{SCANBENCH_VERSION_TIER}", 23 if $ENV{SCANBENCH_VERSION_TIER};
	my $node = PostgreSQL::Test::Cluster->new('central');
	$node->init;
	$node->start;

	my @cmd = ('bench/fleet-scale.sh', '--small', '--host', $node->host, '--port', $node->port,
		'--dbname', 'fleet_scale');
	IPC::Run::run(\@cmd, '>', \$out, '2>', \$err);
	is($?, 0, 'bench/fleet-scale.sh --small succeeds') or diag("$out\n$err");

	like($out, qr/^A night of a fleet's central history: 20 servers, 3 relations each,$/m, 'it names the fleet');
	like($out, qr/\(1800 runs, /, '... and a year of 20 x 3 x 30 runs');
	for my $step ('the year written (COPY)', 'each run against its own history', 'each run against its cohort',
		'the night recorded (COPY)', 'the night judged (scan_history_judge_runs)',
		'each run judged alone (scan_history_judge)',
		'the metrics scrape (scanbench_metrics)',
		# the series kept, made after the year's load; what they cost the
		# night's COPY, and the scrape without them, side by side
		'the series made (scan_history_series_rebuild)', 'the night recorded, no series kept',
		'the metrics scrape, from the history')
	{
		like($out, qr/^\Q$step\E\s+\d+\s+[0-9.]+\s+(\d+|-)\s/m, "a line for $step");
	}
	like($out, qr/^the night judged \(scan_history_judge_runs\)\s+60\s/m, 'the night is 60 runs');
	like($out, qr/^Judgements of the set that differ from the run's own: 0 of 60 /m,
		'the set judgement is each run\'s own judgement');
	like($out, qr/^one server's trend, median of five\s+3\s+[0-9.]+/m, 'the trend of one server: 3 rows');
	like($out, qr/^Judgements naming their own server: 60 of 60; compared with more than 30 earlier runs: 0 /m,
		'each judgement is of its own server, against at most its 30 days');
	like($out, qr/^The trend of db00010: 3 rows, 3 of db00010, 3 with its 31 runs\.$/m,
		'the trend is that server\'s alone');
	unlike($out, qr/\b(issue|floor|seed)\b/i, 'no word of the jargon in the output');

	# The database is left: the judgements are each against their own server.
	is($node->safe_psql('fleet_scale', q{
		SELECT count(*) FROM fleet_scale_judged j
		WHERE j.status NOT IN ('first', 'not_judged')
		  AND EXISTS (SELECT 1 FROM scan_history h, scan_history w
					  WHERE h.id = j.id AND w.id IN (SELECT scanbench_internal.scan_history_window(j.id, 30))
						AND w.server IS DISTINCT FROM h.server)}), '0',
		'no run is compared with another server\'s runs');
	is($node->safe_psql('fleet_scale', q{SELECT count(DISTINCT earlier_runs) > 1 FROM fleet_scale_judged WHERE earlier_runs > 0}),
		't', 'servers differ in how many earlier runs they have (the unstable and cached left out)');

	# The same options give the same rows.
	my $sum = q{SELECT md5(string_agg(concat_ws(',', server, relname, scan_pct, read_mb_s, verdict), ';' ORDER BY server, relname, measured_at)) FROM scan_history};
	my $first = $node->safe_psql('fleet_scale', $sum);
	IPC::Run::run([ @cmd[0 .. 5], '--dbname', 'fleet_scale2' ], '>', \$out, '2>', \$err);
	is($?, 0, 'a second run succeeds') or diag("$out\n$err");
	is($node->safe_psql('fleet_scale2', $sum), $first, '... with the same runs, the random state being the same');

	$node->stop;
}

SKIP:
{
	my $why = SbCitus::unavailable();
	skip "--citus: $why", 15 if defined $why;
	IPC::Run::run([ 'bench/fleet-scale.sh', '--small', '--citus' ], '>', \$out, '2>', \$err);
	is($?, 0, 'bench/fleet-scale.sh --small --citus succeeds') or diag("$out\n$err");
	like($out, qr/^a year of 30 days \(1800 runs, .*, on Citus: 2 workers, 32 shards\.$/m,
		'the night on two workers');
	like($out, qr/^A worker added: [1-9]\d* shards of the history moved onto it in [0-9.]+ s/m,
		'a worker added, shards moved onto it');
	like($out, qr/^The history analyzed after the move \(ANALYZE scan_history\): [0-9.]+ s\.$/m,
		'... and the history analyzed, so that the moved shards have statistics');
	like($out, qr/^a year of 30 days \(1800 runs, .*, on Citus: 3 workers, after the rebalance\.$/m,
		'the night again on three');
	my @own = $out =~ /^Judgements naming their own server: 60 of 60; compared with more than 30 earlier runs: 0 /mg;
	is(scalar @own, 2, 'each night\'s judgements are each of their own server');
	my @trend = $out =~ /^The trend of db00010: 3 rows, 3 of db00010, 3 with its 31 runs\.$/mg;
	is(scalar @trend, 2, '... and the trend that server\'s alone');
	my @judged = $out =~ /^The night's runs judged: (.*)\.$/mg;
	is($judged[1], $judged[0], 'the same judgements before and after the rebalance');
	my @metrics = $out =~ /^The metrics: ([0-9]+ samples \(md5 [0-9a-f]{32}\))\.$/mg;
	is(scalar @metrics, 2, 'the metrics scraped on each night');
	is($metrics[1], $metrics[0], 'the same metrics, to the byte, before and after the rebalance');
	like($out, qr/^the night judged \(scan_history_judge_runs\)\s+[0-9.]+\s+[0-9.]+\s+([0-9.]+|-)$/m,
		'the judgement\'s ratio of three workers to two');
	my @differ = $out =~ /^Judgements of the set that differ from the run's own: 0 of 60 /mg;
	is(scalar @differ, 2, 'on two workers and on three, the set judgement is each run\'s own');
	# Each node's CPU seconds a step, the coordinator's share, the
	# workers' spread, and the model from them, on two workers and three.
	my @cpu = $out =~ /^a night's central work \(the four above\)\s+([0-9.]+)((?:\s+[0-9.]+){2,3})\s+([0-9.]+) %\s+([0-9.]+) %$/mg;
	is(scalar @cpu, 8, 'the night\'s CPU seconds on each node, the coordinator\'s share and the workers\' spread, twice')
	  or diag($out);
	my $workers_s = 0;
	$workers_s += $_ for split ' ', $cpu[1] // '';
	ok(@cpu == 8 && $cpu[0] + $workers_s > 0, "... some CPU spent (coordinator $cpu[0] s, workers$cpu[1] s)");
	ok(@cpu == 8 && $cpu[2] > 0 && $cpu[2] < 100 && $cpu[6] > 0 && $cpu[6] < 100,
		"... the coordinator's share a part of it ($cpu[2] %, then $cpu[6] %)");
	my @model = $out =~ /^  N = 8: ([0-9.]+) s$/mg;
	is(scalar @model, 2, "the night modelled on 8 workers (@model s)");
	unlike($out, qr/\b(issue|floor|seed)\b/i, 'no word of the jargon in the output');
}

done_testing();
