# The nightly check run exactly as the README's crontab line runs it: quiet
# on a healthy table (exit 0, no output), an alarm that names the relation,
# the figure, the median and what changed when a regression is staged
# (exit 1, and the run is still recorded), a run that cannot be judged
# never raises, and exit 2 when the server cannot be reached.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use FindBin;
use lib $FindBin::RealBin;
use ScanbenchLoad;

# The crontab line, from the README: "m h dom mon dow user command".
open(my $fh, '<', 'README.md') or die "README.md: $!";
my ($cron_user, $cron_cmd);
while (<$fh>)
{
	if (/efficiency_check/ && /^15 3 \* \* \*\s+(\S+)\s+(.*\S)\s*$/)
	{
		($cron_user, $cron_cmd) = ($1, $2);
		last;
	}
}
close $fh;
ok(defined $cron_cmd, 'the README has a crontab line that calls efficiency_check');
is($cron_user, 'postgres', 'it names the user it runs as');
like($cron_cmd, qr/-d tpch\b/, 'it names the database');
like($cron_cmd, qr/efficiency_check\('lineitem'\)/, 'and the table');

my $node = PostgreSQL::Test::Cluster->new('check_cron');
$node->init;
$node->start;
$node->safe_psql('postgres', 'CREATE DATABASE tpch');
$node->safe_psql('tpch', 'CREATE EXTENSION scanbench');
my ($rc, $out, $err) = run_loader($node, '-d', 'tpch', '-s', '0.02', '-q');
is($rc, 0, 'lineitem loaded') or diag($err);

sub sql { return $node->safe_psql('tpch', shift) }

# Run the README's command through the shell, against this node.
sub cron_run
{
	my (%env) = @_;
	local $ENV{PGHOST} = $node->host;
	local $ENV{PGPORT} = $env{port} // $node->port;
	local $ENV{PGUSER};
	delete $ENV{PGUSER};
	# The node's superuser is the OS user running the test, as the
	# crontab's user is the role the line connects as.
	my ($o, $e) = ('', '');
	IPC::Run::run([ 'sh', '-c', $cron_cmd ], '>', \$o, '2>', \$e);
	return ($? >> 8, $o, $e);
}

my $runs = sub { sql('SELECT count(*) FROM scan_history') };

# First run: recorded, and silent from cron, unless the measurement itself
# could not be judged (unstable or cached on a busy machine), which the
# check says in a WARNING, still exiting 0.
($rc, $out, $err) = cron_run();
is($rc, 0, 'first run exits 0') or diag($err);
is($runs->(), 1, 'first run recorded');
my ($verdict, $pct, $sched, $kernel) = split /\|/,
  sql('SELECT coalesce(verdict, \'ok\'), scan_pct, scheduler, kernel FROM scan_history');
if ($verdict =~ /(^|,)(unstable|cached)(,|$)/)
{
	like($out . $err, qr/^WARNING:  lineitem scan efficiency .* was not judged/,
		"first run, not judged ($verdict): a WARNING says so");
}
else
{
	is($out . $err, '', 'first run prints nothing');
}
cmp_ok($pct, '>', 0, "the run has a figure ($pct %, verdict $verdict)");

# Earlier runs at fixed figures, same facts and marks as the real run.
sub seed
{
	my ($days_ago, $pct, %set) = @_;
	my $assign = join '', map { ", $_ = " . $set{$_} } sort keys %set;
	sql("INSERT INTO scan_history (measured_at, relid, relschema, relname, cache, bytes, rows,
			block_size, runs, read_mb_s, scan_mb_s, scan_pct, verdict, filesystem, device,
			scheduler, read_ahead_kb, kernel, server_version, settings)
		 SELECT measured_at - interval '$days_ago days', relid, relschema, relname, cache, bytes,
			rows, block_size, runs, read_mb_s, read_mb_s * $pct / 100, $pct, verdict, filesystem,
			device, scheduler, read_ahead_kb, kernel, server_version, settings
		 FROM scan_history WHERE id = (SELECT min(id) FROM scan_history)");
	sql("UPDATE scan_history SET id = id $assign WHERE id = (SELECT max(id) FROM scan_history)")
	  if %set;
}

# Healthy: earlier runs below the first figure.  Cold figures of a small
# table on a shared machine move by a factor of two from run to run, so
# the history sits well below to keep this test about the quiet path.
seed($_, sprintf('%.1f', $pct * 0.4)) for 2 .. 6;
($rc, $out, $err) = cron_run();
my $last = sql('SELECT coalesce(verdict, \'ok\') || \' \' || scan_pct FROM scan_history ORDER BY id DESC LIMIT 1');
SKIP:
{
	skip "tonight's run could not be judged ($last); the quiet path needs a judged run", 2
	  if $last =~ /unstable|cached/;
	is($rc, 0, 'healthy table: exit 0') or diag($err);
	is($out . $err, '', 'healthy table: nothing printed, so cron sends no mail');
}
is($runs->(), 7, 'the healthy run is recorded');

# A regression: the earlier runs were far better, on another scheduler (or
# kernel, when the device has no scheduler to read).
sql('DELETE FROM scan_history WHERE id > (SELECT min(id) FROM scan_history)');
my ($fact, $other) = defined $sched && $sched ne ''
  ? ('scheduler', $sched eq 'bfq' ? 'kyber' : 'bfq')
  : ('kernel', '0.0.1-old');
my $high = sprintf('%.1f', $pct * 5 + 50);
seed($_, $high, $fact => "'$other'") for 2 .. 6;
my $judged;
for my $try (1 .. 3)
{
	($rc, $out, $err) = cron_run();
	$last = sql('SELECT coalesce(verdict, \'ok\') || \'|\' || scan_pct || \'|\' || coalesce(scheduler, kernel) FROM scan_history ORDER BY id DESC LIMIT 1');
	$judged = $last !~ /unstable|cached/;
	last if $judged;
}
SKIP:
{
	skip "three runs in a row could not be judged ($last)", 7 unless $judged;
	my ($v, $now_pct, $now_fact) = split /\|/, $last;
	is($rc, 1, 'regression: psql exits 1');
	is($out, '', 'nothing on stdout');
	like($err, qr/ERROR:\s+lineitem scan efficiency \Q${\ sprintf('%.1f', $now_pct)}\E %/,
		'the message names the relation and tonight\'s figure');
	like($err, qr/% below its 30-day median \Q$high\E %/, 'and the median it fell from');
	like($err, qr/\Q$fact\E changed \Q$other\E → \Q$now_fact\E/, "and what changed ($fact)");
	like($err, qr/DETAIL:.*read [0-9.]+ MB\/s, scan [0-9.]+ MB\/s/, 'the detail has the rates');
	unlike($err, qr/CONTEXT:/, 'no PL/pgSQL context in the mail');
}
cmp_ok($runs->(), '>=', 7, 'the alarmed run is recorded all the same');
{
	my ($o, $e) = ('', '');
	IPC::Run::run([ 'psql', '-X', '-q', '-h', $node->host, '-p', $node->port, '-d', 'tpch',
		'-v', 'VERBOSITY=verbose', '-c', "CALL efficiency_check('lineitem')" ], '>', \$o, '2>', \$e);
	like($e, qr/^(ERROR:  SB001:|WARNING:  01000:)/m,
		'an alarm has its own SQLSTATE, SB001 (or the run could not be judged)');
}

# A run that cannot be judged does not raise, even against a history it
# would fall far below: a cold run with the table held in memory by
# another process is "cached".
SKIP:
{
	my $has_verdict = sql("SELECT count(*) FROM pg_attribute
		WHERE attrelid = 'scan_efficiency_result'::regtype::oid::regclass AND attname = 'verdict'");
	skip 'scan_efficiency has no verdict on this build', 3 unless $has_verdict;
	# unstable: a target no measurement meets, and a budget too short to try.
	my ($r, $o, $e) = ('', '', '');
	IPC::Run::run([ 'psql', '-X', '-q', '-h', $node->host, '-p', $node->port, '-d', 'tpch',
		'-v', 'ON_ERROR_STOP=1', '-c',
		"CALL efficiency_check('lineitem', target_pct => 0.001, max_seconds => 0.5)" ],
		'>', \$o, '2>', \$e);
	$r = $? >> 8;
	my $v = sql('SELECT verdict FROM scan_history ORDER BY id DESC LIMIT 1');
	like($v, qr/unstable/, "a run with an unreachable target is unstable ($v)");
	is($r, 0, 'it does not raise');
	like($e, qr/WARNING:.*was not judged: the measurement was unstable/, 'it says why it could not judge');
}

# The documented exit status when the server cannot be reached.
($rc, $out, $err) = cron_run(port => $node->port + 1);
is($rc, 2, 'no server: psql exits 2');

$node->stop;
done_testing();
