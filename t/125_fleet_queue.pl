# scanbench-fleet --night: runners that share a night.  Six servers (six
# databases of one cluster, a small table each), two of them on one disk
# (disk=a), a central history; three runners started at once on one night
# measure every server exactly once between them, the two servers of disk
# a never at overlapping times, and a runner started once the night is
# over measures nothing.  Then a second night, one runner killed with
# SIGKILL while it holds servers: after the lease the other two measure
# them, still each server once.
use strict;
use warnings;
use File::Temp qw(tempdir);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use Time::HiRes qw(sleep time);
use FindBin;
use lib $FindBin::RealBin;
use SbClient;

my $fleet = client_program('scanbench-fleet');

my @names = map { "s$_" } 1 .. 6;
my %disk = (s1 => 'a', s2 => 'a');

my $data = PostgreSQL::Test::Cluster->new('data');
$data->init;
# Every call of scan_efficiency counted by the servers themselves: a
# server measured twice shows there, whatever the central history keeps.
$data->append_conf('postgresql.conf', "max_connections = 40\ntrack_functions = all");
$data->start;
for my $n (@names)
{
	$data->safe_psql('postgres', "CREATE DATABASE $n");
	$data->safe_psql($n, q{
		CREATE EXTENSION scanbench;
		CREATE TABLE t AS SELECT g AS id, repeat('x', 200) AS pad FROM generate_series(1, 5000) g;
		VACUUM (FREEZE, ANALYZE) t;
	});
}

my $central = PostgreSQL::Test::Cluster->new('central');
$central->init;
$central->start;
$central->safe_psql('postgres', 'CREATE EXTENSION scanbench');
my $history = sprintf('postgresql://%s:%d/postgres', ($central->host =~ s{/}{%2F}gr), $central->port);

my $dir = tempdir('sb-queue-XXXX', TMPDIR => 1, CLEANUP => 1);
my $servers = "$dir/servers";
open my $fh, '>', $servers or die "$servers: $!";
for my $n (@names)
{
	printf $fh "postgresql://%s:%d/%s name=%s class=test%s\n", ($data->host =~ s{/}{%2F}gr), $data->port,
	  $n, $n, $disk{$n} ? " disk=$disk{$n}" : '';
}
close $fh;

sub central
{
	return $central->safe_psql('postgres', shift);
}

# Each measurement spends its whole budget (a target it cannot reach), so
# that runners and servers overlap for seconds, not milliseconds.
sub runner
{
	my ($night, @more) = @_;
	my ($out, $err) = ('', '');
	my $h = IPC::Run::start([ $fleet, '--servers', $servers, '--relation', 't', '--history', $history,
		'--night', $night, '--jobs', '2', '--max-seconds', '2', '--target-pct', '0.1', '--no-restore',
		'--format', 'csv', @more ], '>', \$out, '2>', \$err);
	return { h => $h, out => \$out, err => \$err };
}

# The rows of a night: each server's runs since the night began.
sub night_rows
{
	my ($since) = @_;
	return central(qq{SELECT server, count(*) FROM scan_history WHERE measured_at >= '$since'
		GROUP BY server ORDER BY server});
}

sub expected_rows
{
	return join("\n", map { "$_|1" } @names);
}

# How often each server's scan_efficiency ran, as the server counts it:
# a backend adds its calls when it ends, just after its runner, so wait
# until the servers count at least as many as the runs of the nights and
# then a moment longer for a call too many.
sub server_calls
{
	my ($at_least) = @_;
	my $read = sub {
		join("\n", map {
			my $n = $_;
			"$n|" . $data->safe_psql($n, q{SELECT coalesce(sum(calls), 0) FROM pg_stat_user_functions
				WHERE funcname = 'scan_efficiency'});
		} @names);
	};
	my $sum = sub { my $t = 0; $t += (split /\|/)[1] for split /\n/, shift; $t };
	my $calls = $read->();
	for (1 .. 100)
	{
		last if $sum->($calls) >= $at_least * @names;
		sleep 0.1;
		$calls = $read->();
	}
	sleep 1;
	return $read->();
}

# The two servers of disk a: their measurements' times never overlap.
sub disk_a_apart
{
	my ($since) = @_;
	return central(qq{
		SELECT count(*) FROM scan_history x JOIN scan_history y
		  ON x.server = 's1' AND y.server = 's2'
		 AND x.measured_at >= '$since' AND y.measured_at >= '$since'
		 AND x.measured_at < y.measured_at + make_interval(secs => y.elapsed_s)
		 AND y.measured_at < x.measured_at + make_interval(secs => x.elapsed_s)});
}

# ---- three runners, one night ----
my $since = central('SELECT now()');
my $t0 = time;
my @r = map { runner('n1') } 1 .. 3;
for my $r (@r)
{
	$r->{h}->finish;
	$r->{rc} = $? >> 8;
}
note(sprintf('night n1 took %.1f s', time - $t0));
for my $i (0 .. 2)
{
	my $r = $r[$i];
	ok($r->{rc} == 0 || $r->{rc} == 1, "runner $i exits 0 or 1 (got $r->{rc})") or diag(${ $r->{err} });
	is(${ $r->{err} }, '', "runner $i: nothing on stderr");
}
is(night_rows($since), expected_rows(), 'every server measured exactly once in the night');
is(server_calls(1), expected_rows(), '... as the servers count their scan_efficiency calls');
is(central(qq{SELECT count(*) FROM scan_history WHERE measured_at >= '$since' AND reason IS NOT NULL}), '0',
	'... every one of them measured, none failed');
is(central(q{SELECT count(*) FILTER (WHERE finished_at IS NOT NULL), count(*) FROM fleet_queue WHERE night = 'n1'}),
	'6|6', 'the queue has every server finished');
is(central(q{SELECT count(DISTINCT runner) > 1 FROM fleet_queue WHERE night = 'n1'}), 't',
	'... measured by more than one runner');
my $listed = 0;
$listed += () = ${ $_->{out} } =~ /^s\d,/mg for @r;
is($listed, 6, "the runners' outputs together list each server once");
is(disk_a_apart($since), '0', 'the two servers of disk a were never measured at the same time');
is(central(q{SELECT disk FROM fleet_queue WHERE night = 'n1' AND server IN ('s1', 's3') ORDER BY server}),
	"a\ns3", 'a disk= tag is the disk; a server without one is a disk of its own');

# ---- a runner started after the night is over ----
my $late = runner('n1');
$late->{h}->finish;
my $rc = $? >> 8;
is($rc, 0, 'a runner started once the night is over exits 0');
is(${ $late->{err} }, '', '... says nothing on stderr');
is(night_rows($since), expected_rows(), '... and measures nothing again');
is(server_calls(1), expected_rows(), '... as the servers count');

# ---- a runner killed mid-night ----
$since = central('SELECT now()');
$t0 = time;
@r = map { runner('n2', '--lease', '3') } 1 .. 3;
my $victim = $r[0];
my $vpid = $victim->{h}{KIDS}[0]{PID};
my $held = '';
for (1 .. 200)
{
	$held = central(qq{SELECT string_agg(server, ',' ORDER BY server) FROM fleet_queue
		WHERE night = 'n2' AND runner LIKE '%:$vpid' AND finished_at IS NULL});
	last if $held ne '';
	sleep 0.05;
}
isnt($held, '', "runner 0 holds servers ($held)");
kill 'KILL', $vpid;
$victim->{h}->finish;
note("killed runner 0 (pid $vpid) holding $held");
for my $r (@r[1, 2])
{
	$r->{h}->finish;
	$r->{rc} = $? >> 8;
	ok($r->{rc} == 0 || $r->{rc} == 1, "a surviving runner exits 0 or 1 (got $r->{rc})") or diag(${ $r->{err} });
	is(${ $r->{err} }, '', '... with nothing on stderr');
}
note(sprintf('night n2 took %.1f s', time - $t0));
is(night_rows($since), expected_rows(), 'every server measured exactly once, the killed runner\'s too');
is(central(qq{SELECT count(*) FROM fleet_queue WHERE night = 'n2' AND server = ANY (string_to_array('$held', ','))
	AND finished_at IS NOT NULL AND runner NOT LIKE '%:$vpid'}), scalar(split /,/, $held),
	"the killed runner's servers were finished by the others");
cmp_ok(time - $t0, '>=', 3, '... after its lease');
# The killed runner's own calls may have ended on the servers it held; on
# the others, one call a night.
my %held = map { $_ => 1 } split /,/, $held;
is(join("\n", grep { !$held{(split /\|/)[0]} } split /\n/, server_calls(2)),
	join("\n", map { "$_|2" } grep { !$held{$_} } @names),
	'the servers the killed runner did not hold were measured once in the second night, as they count');
is(disk_a_apart($since), '0', 'the two servers of disk a were never measured at the same time');

# ---- the options ----
my ($out, $err) = ('', '');
IPC::Run::run([ $fleet, '--servers', $servers, '--relation', 't', '--history', $history, '--lease', '10' ],
	'>', \$out, '2>', \$err);
is($? >> 8, 2, '--lease without --night: exit 2');
like($err, qr/--lease is for runners that share a night/, '... saying why');

done_testing();
