# storage_profile's scratch directory (pgsql_tmpPID.scanbench inside the
# tablespace's pgsql_tmp) is removed on every way out: the end, a cancel,
# pg_terminate_backend mid-run (a FATAL, which unwinds nothing), and a
# pgsql_tmp the call created goes with it.  A backend killed with SIGKILL
# while the server keeps temporary files across the crash restart leaves
# its directory: the next call removes it, and never a live call's.
use strict;
use warnings;
use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time usleep);

my $node = PostgreSQL::Test::Cluster->new('profile_scratch');
$node->init;
$node->append_conf('postgresql.conf',
	"restart_after_crash = on\nremove_temp_files_after_crash = off\n");
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION scanbench');
my $tmp = $node->data_dir . '/base/pgsql_tmp';

sub sql { return $node->safe_psql('postgres', shift) }
sub scratch_dir { return "$tmp/pgsql_tmp$_[0].scanbench" }
sub left { return join(' ', map { s{.*/}{}r } glob("$tmp/*")) }

# A profile long enough to be caught mid-run, in a psql of its own; returns
# once its scratch file is there, with the handle and the backend's pid.
sub start_profile
{
	my %run = (out => '', err => '');
	$run{h} = IPC::Run::start(
		[ 'psql', '-X', '-d', $node->connstr('postgres'), '-c',
		  "SET application_name = 'long-profile'; "
		  . 'SELECT * FROM storage_profile(size_mb => 200, random_ops => 5000000)' ],
		'>', \$run{out}, '2>', \$run{err});
	my $deadline = time + 60;
	while (time < $deadline)
	{
		$run{pid} = sql("SELECT pid FROM pg_stat_activity WHERE application_name = 'long-profile'");
		last if $run{pid} && -e scratch_dir($run{pid}) . '/profile';
		usleep(20_000);
	}
	die "the profile never started: $run{err}" unless $run{pid} && -e scratch_dir($run{pid});
	usleep(300_000);
	return \%run;
}

sub backend_gone
{
	my $pid = shift;
	return $node->poll_query_until('postgres', "SELECT count(*) = 0 FROM pg_stat_activity WHERE pid = $pid");
}

ok(!-e $tmp, 'no pgsql_tmp to begin with');

# The end: nothing left.
sql('SELECT count(*) FROM storage_profile(size_mb => 2, random_ops => 10)');
ok(!-e $tmp, 'after a profile: the pgsql_tmp it created is gone');

# pg_terminate_backend mid-run, with pgsql_tmp created by the call and
# with pgsql_tmp there before.
for my $had_tmp (0, 1)
{
	my $what = $had_tmp ? 'pgsql_tmp there before' : 'pgsql_tmp created by the call';
	mkdir $tmp or die "mkdir $tmp: $!" if $had_tmp;
	my $run = start_profile();
	ok(-d $tmp, "terminated, $what: the scratch directory was in pgsql_tmp");
	is(sql("SELECT pg_terminate_backend($run->{pid})"), 't', "terminated, $what: backend $run->{pid} terminated");
	$run->{h}->finish;
	like($run->{err}, qr/terminating connection due to administrator command/, "terminated, $what: psql says so");
	ok(backend_gone($run->{pid}), "terminated, $what: the backend is gone");
	ok(!-e scratch_dir($run->{pid}), "terminated, $what: no scratch directory left");
	if ($had_tmp)
	{
		is(left(), '', "terminated, $what: pgsql_tmp is empty again");
		ok(-d $tmp, "terminated, $what: ... and still there");
		rmdir $tmp;
	}
	else
	{
		ok(!-e $tmp, "terminated, $what: pgsql_tmp is gone too");
	}
}

# A cancel mid-run (statement_timeout): the error path.
{
	my ($ret, $out, $err) = $node->psql('postgres',
		"SET statement_timeout = '700ms'; SELECT * FROM storage_profile(size_mb => 200, random_ops => 5000000)");
	like($err, qr/statement timeout/, 'cancelled by statement_timeout');
	ok(!-e $tmp, 'cancelled: no scratch directory, no pgsql_tmp left');
}

# A live call's directory is not stale: a second call leaves it alone.
{
	my $run = start_profile();
	sql('SELECT count(*) FROM storage_profile(size_mb => 1, random_ops => 10)');
	ok(-e scratch_dir($run->{pid}) . '/profile', "a second call leaves the running call's scratch file alone");
	sql("SELECT pg_cancel_backend($run->{pid})");
	$run->{h}->finish;
	like($run->{err}, qr/canceling statement due to user request/, 'the running call was then cancelled');
	ok(!-e $tmp, '... and nothing is left');
}

# SIGKILL: the server restarts and, with remove_temp_files_after_crash off,
# keeps the directory; the next call removes it and the pgsql_tmp it had
# created.
{
	my $run = start_profile();
	my $dir = scratch_dir($run->{pid});
	kill 'KILL', $run->{pid};
	$run->{h}->finish;
	$node->poll_query_until('postgres', 'SELECT 1', '1') or die 'the server did not come back';
	ok(-e "$dir/profile", "SIGKILL: the scratch file of backend $run->{pid} is left across the restart");
	my $offset = -s $node->logfile;
	my $out = sql('SELECT count(*) FROM storage_profile(size_mb => 1, random_ops => 10)');
	is($out, 5, 'the next call measures');
	ok(!-e $dir, 'the next call removed the directory left by the killed backend');
	ok(!-e $tmp, '... and the pgsql_tmp the killed call had created');
	ok($node->log_contains(qr/removed "[^"]*pgsql_tmp$run->{pid}\.scanbench", a scratch directory left by backend $run->{pid}/, $offset),
		'... and logged that it did');
}

done_testing();
