# page_costs_check run as doc/page-costs.md's crontab line runs it: exit 1
# and a message naming the table when it is missing; every run recorded;
# with a random_page_cost in force far from any recommendation, a run that
# can be judged is an alarm (exit 1, SQLSTATE SB002, the command in the
# HINT) and stays recorded; a run that cannot be judged is a WARNING and
# exits 0.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;

# The crontab line, from the page: "m h dom mon dow user command".
open(my $fh, '<', 'doc/page-costs.md') or die "doc/page-costs.md: $!";
my ($cron_user, $cron_cmd);
while (<$fh>)
{
	if (/page_costs_check/ && /^\d+ \d+ \* \* \*\s+(\S+)\s+(.*\S)\s*$/)
	{
		($cron_user, $cron_cmd) = ($1, $2);
		last;
	}
}
close $fh;
ok(defined $cron_cmd, 'doc/page-costs.md has a crontab line that calls page_costs_check');
is($cron_user, 'postgres', 'it names the user it runs as');
like($cron_cmd, qr/-d tpch\b/, 'it names the database');
# Ten seconds a run here, not the default 30.
ok($cron_cmd =~ s/page_costs_check\('lineitem'\)/page_costs_check('lineitem', max_seconds => 10)/,
	'and the table');

my $node = PostgreSQL::Test::Cluster->new('page_costs_check');
$node->init;
$node->append_conf('postgresql.conf', "shared_buffers = 32MB\n");
$node->start;
$node->safe_psql('postgres', 'CREATE DATABASE tpch');
$node->safe_psql('tpch', 'CREATE EXTENSION scanbench');

sub sql { return $node->safe_psql('tpch', shift) }

# The line through the shell, against this node, connecting as the node's
# superuser (the OS user running the test), as the crontab's user does.
sub cron_run
{
	local $ENV{PGHOST} = $node->host;
	local $ENV{PGPORT} = $node->port;
	local $ENV{PGUSER};
	delete $ENV{PGUSER};
	my ($o, $e) = ('', '');
	IPC::Run::run([ 'sh', '-c', $cron_cmd ], '>', \$o, '2>', \$e);
	return ($? >> 8, $o, $e);
}

my ($rc, $out, $err) = cron_run();
is($rc, 1, 'no such table: psql exits 1');
like($err, qr/relation "lineitem" does not exist/, 'and says so');
is(sql('SELECT count(*) FROM page_costs_history'), '0', 'nothing recorded');

# A table large enough for page_costs, and a setting no storage fits.
sql(q{CREATE TABLE lineitem (id bigint, pad text) WITH (autovacuum_enabled = off);
	  INSERT INTO lineitem SELECT g, repeat('x', 400) FROM generate_series(1, 140000) g;
	  ALTER TABLESPACE pg_default SET (random_page_cost = 1000)});

# Up to four runs, until one can be judged: the first is likely to find
# the table in the caches (cached), and a shared machine has noisy moments
# (unstable).  Each is recorded, whatever it says.
my ($runs, $judged, $last) = (0, 0, '');
while ($runs < 4 && !$judged)
{
	($rc, $out, $err) = cron_run();
	$runs++;
	$last = sql('SELECT array_to_string(verdict, \',\') FROM page_costs_history ORDER BY id DESC LIMIT 1');
	is(sql('SELECT count(*) FROM page_costs_history'), $runs, "run $runs recorded (verdict $last)");
	if ($last eq 'ok')
	{
		$judged = 1;
	}
	else
	{
		is($rc, 0, "run $runs, not judged: psql exits 0") or diag($err);
		like($err, qr/^WARNING:  public\.lineitem was not judged \(verdict \{\Q$last\E\}\)/m,
			"run $runs says why it was not judged");
	}
}

SKIP:
{
	skip "no run of four could be judged here (last verdict $last)", 7 unless $judged;

	is($rc, 1, 'an alarm: psql exits 1');
	like($err,
		qr/^ERROR:  public\.lineitem: random_page_cost 1000 in force for tablespace pg_default is [0-9.]+ % off the recommendation [0-9.]+ \([0-9.-]+ to [0-9.]+\), more than max_off_pct 50 %(; .*)?$/m,
		'it names the table, the setting and the recommendation');
	like($err, qr/^HINT:  Set the recommendation: ALTER TABLESPACE pg_default SET \(random_page_cost = [0-9.]+(, effective_io_concurrency = \d+)?\);$/m,
		'its hint is the command');
	is(sql('SELECT count(*) FROM page_costs_history'), $runs, 'the run stays recorded after the alarm');
	my $id = sql('SELECT max(id) FROM page_costs_history');
	is(sql("SELECT status || ' ' || limit_max_off_pct || ' ' || limit_window_days
			FROM page_costs_history h, page_costs_judge(h.id) j WHERE h.id = $id"),
		'alarm 50 30', 'judged again, with the limits kept in its row: an alarm');
	my ($r, $o, $e) = $node->psql('tpch',
		"\\set VERBOSITY sqlstate\nSELECT scanbench_internal.page_costs_report($id, NULL, NULL)");
	like($e, qr/ERROR:  SB002$/m, 'its SQLSTATE is SB002');

	# The command it gives sets the recommendation for the tablespace.
	my ($cmd, $rec) = split /\|/,
	  sql("SELECT command || '|' || recommended_random_page_cost FROM page_costs_history WHERE id = $id");
	sql($cmd);
	like(sql(q{SELECT array_to_string(spcoptions, ',') FROM pg_tablespace WHERE spcname = 'pg_default'}),
		qr/^random_page_cost=\Q$rec\E(,effective_io_concurrency=\d+)?$/,
		"the command sets random_page_cost = $rec (and the depth, where one is recommended)");
}

$node->stop;
done_testing();
