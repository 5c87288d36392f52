# scanbench-fleet over four servers on this machine: a primary and its
# streaming standby (pg_basebackup), a server whose postmaster is in a
# control group that throttles its reads (where groups can be made, as in
# t/090_truth.pl), and a plain one; a fifth keeps the central history.
# Every server has a row there, the standby's run is kept centrally with
# its role, the throttled server is flagged with its limit named, a server
# stopped mid-run is a row with its reason and exit status 1, so is one
# that stops answering (given up on at --timeout and a grace), and SIGINT
# cancels every server's call within a second, leaving none measuring.
use strict;
use warnings;
use File::Temp qw(tempdir);
use FindBin;
use lib $FindBin::RealBin;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use Time::HiRes qw(sleep time);
use SbLab;
use SbClient;

# The servers' sessions are found by what they run (the measurement starts
# with a comment naming it): the TAP framework sets PGAPPNAME, which a libpq
# client's fallback application name gives way to.

my $fleet = client_program('scanbench-fleet');

# About 5 MB: a few 8 MB stretches' worth at most, a second at the throttle.
my $table = q{
	CREATE TABLE t AS SELECT g AS id, repeat('x', 200) AS pad FROM generate_series(1, 20000) g;
	VACUUM (FREEZE, ANALYZE) t;
};

my $primary = PostgreSQL::Test::Cluster->new('primary');
$primary->init(allows_streaming => 1);
$primary->start;
$primary->safe_psql('postgres', "CREATE EXTENSION scanbench; $table CHECKPOINT;");
$primary->backup('b');
my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($primary, 'b', has_streaming => 1);
$standby->start;
$primary->wait_for_catchup($standby);

my $plain = PostgreSQL::Test::Cluster->new('plain');
$plain->init;
$plain->start;
$plain->safe_psql('postgres', "CREATE EXTENSION scanbench; $table");

my $why = lab_why();
my $throttled;
my $lab;
my $mib = 8;
if (!defined $why)
{
	$throttled = PostgreSQL::Test::Cluster->new('throttled');
	$throttled->init;
	$throttled->start;
	$throttled->safe_psql('postgres', "CREATE EXTENSION scanbench; $table");
	$lab = lab_new($throttled);
	$lab->limit($mib, 0);
}
else
{
	diag("no throttled server: $why");
}

my $central = PostgreSQL::Test::Cluster->new('central');
$central->init;
$central->start;
$central->safe_psql('postgres', 'CREATE EXTENSION scanbench');
my $history = sprintf('postgresql://%s:%d/postgres',
	($central->host =~ s{/}{%2F}gr), $central->port);

my $dir = tempdir('sb-fleet-XXXX', TMPDIR => 1, CLEANUP => 1);

sub uri
{
	my ($node) = @_;
	return sprintf('postgresql://%s:%d/postgres', ($node->host =~ s{/}{%2F}gr), $node->port);
}

sub servers_file
{
	my ($name, @nodes) = @_;
	my $file = "$dir/$name";
	open my $fh, '>', $file or die "$file: $!";
	print $fh "# the test's fleet\n";
	for my $n (@nodes)
	{
		printf $fh "%s name=%s class=test   # %s\n", uri($n), $n->name, $n->name;
	}
	close $fh;
	return $file;
}

sub central
{
	my ($sql) = @_;
	return $central->safe_psql('postgres', $sql);
}

my @all = grep { defined } ($primary, $standby, $throttled, $plain);
my $servers = servers_file('servers', @all);

# ---- a night's run ----
my ($out, $err) = ('', '');
my $t0 = time;
IPC::Run::run([ $fleet, '--servers', $servers, '--relation', 't', '--history', $history,
	'--format', 'csv', '--jobs', '4', '--max-seconds', '2', '--target-pct', '10', '--no-restore' ],
	'>', \$out, '2>', \$err);
my $rc = $? >> 8;
note(sprintf('the run took %.1f s, exit %d', time - $t0, $rc));
note($out);
is($err, '', 'nothing on stderr');

my @lines = split /\n/, $out;
my @cols = split /,/, shift @lines;
for my $c (qw(server relation read_mb_s scan_mb_s scan_pct scan_pct_lo scan_pct_hi verdict flagged reason))
{
	ok((grep { $_ eq $c } @cols), "csv has the column $c");
}
my %row;
for my $l (@lines)
{
	my @v = map { my $x = $_; $x =~ s/^"|"$//g; $x =~ s/""/"/g; $x } ($l =~ /("(?:[^"]|"")*"|[^,]*)(?:,|$)/g);
	my %r;
	@r{@cols} = @v;
	$row{ $r{server} } = \%r;
}
for my $n (@all)
{
	my $r = $row{ $n->name };
	ok($r, $n->name . ': a row in the output');
	is($r->{reason} // '', '', $n->name . ': measured');
	cmp_ok($r->{read_mb_s} || 0, '>', 0, $n->name . ': a read rate');
}
is(central(q{SELECT string_agg(server, ',' ORDER BY server) FROM scan_history WHERE reason IS NULL AND read_mb_s > 0}),
	join(',', sort map { $_->name } @all), 'every server has a measured row in the central history');
is(central(q{SELECT server_role FROM scan_history WHERE server = 'standby'}), 'standby',
	"the standby's run is kept centrally, with role standby");
is(central(q{SELECT server_role FROM scan_history WHERE server = 'primary'}), 'primary', "... the primary's with primary");
is(central(q{SELECT count(DISTINCT system_identifier) FROM scan_history WHERE server IN ('primary', 'standby')}), '1',
	'... both with the one system identifier');
is(central(q{SELECT count(*) FROM scan_history WHERE server = 'plain' AND server_port = } . $plain->port
	  . q{ AND tags = '{"class": "test"}' AND kernel IS NOT NULL AND device IS NOT NULL}), '1',
	"the plain server's row has its port, tags, kernel and device");

SKIP:
{
	skip "no throttled server: $why", 4 unless $throttled;
	my $r = $row{throttled};
	cmp_ok($r->{read_mb_s}, '<=', 1.5 * $mib * 1.048576, "throttled: read $r->{read_mb_s} MB/s near the limit");
	is($r->{flagged}, 'true', 'throttled: flagged') or diag($out);
	like($r->{remark}, qr/read_bps_limit \d+ \(peers: none\)/, 'throttled: the limit named as what differs')
	  or diag($r->{remark});
	is($rc, 1, 'exit status 1: an alarm');
	for my $n (grep { $_ != $throttled } @all)
	{
		diag($n->name . ' flagged: ' . $row{ $n->name }{remark}) if $row{ $n->name }{flagged} eq 'true';
	}
}

# ---- a server stopped mid-run ----
my $solo = servers_file('solo', $plain);
($out, $err) = ('', '');
my $h = IPC::Run::start([ $fleet, '--servers', $solo, '--relation', 't', '--history', $history,
	'--max-seconds', '20', '--target-pct', '0.1', '--no-restore' ], '>', \$out, '2>', \$err);
my $busy = 0;
for (1 .. 100)
{
	$busy = $plain->safe_psql('postgres',
		q{SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND query LIKE '%scanbench-fleet: scan_efficiency%' AND pid <> pg_backend_pid()});
	last if $busy;
	sleep 0.1;
}
is($busy, 1, 'the plain server is measuring');
$plain->stop('fast');
$h->finish;
$rc = $? >> 8;
is($rc, 1, 'a server stopped mid-run: exit status 1');
my $reason = central(q{SELECT reason FROM scan_history WHERE server = 'plain' ORDER BY id DESC LIMIT 1});
like($reason, qr/^measurement failed: .*(terminat|closed|lost)/i, "... and a row with its reason: $reason");
like($out, qr/plain t: measurement failed/, '... which the table says');
$plain->start;

# ---- a server that stops answering: the client's own deadline ----
($out, $err) = ('', '');
$h = IPC::Run::start([ $fleet, '--servers', $solo, '--relation', 't', '--history', $history,
	'--max-seconds', '1', '--timeout', '1', '--no-restore' ], '>', \$out, '2>', \$err);
my $pid = '';
for (1 .. 100)
{
	$pid = $plain->safe_psql('postgres',
		q{SELECT pid FROM pg_stat_activity WHERE state = 'active' AND query LIKE '%scanbench-fleet: scan_efficiency%' AND pid <> pg_backend_pid()});
	last if $pid;
	sleep 0.05;
}
ok($pid, 'the plain server is measuring');
# A stopped backend answers nothing, not even its own statement_timeout.
kill 'STOP', $pid if $pid;
$t0 = time;
$h->finish;
my $took = time - $t0;
kill 'CONT', $pid if $pid;
is($? >> 8, 1, 'a server that stops answering: exit status 1');
cmp_ok($took, '<', 1 + 5 + 3, sprintf('... given up on after --timeout and the grace (%.1f s)', $took));
like(central(q{SELECT reason FROM scan_history WHERE server = 'plain' ORDER BY id DESC LIMIT 1}),
	qr/no answer within 1 s \(--timeout\); the call was cancelled/, '... a row with that reason');

# ---- SIGINT ----
my $before = central('SELECT max(id) FROM scan_history');
($out, $err) = ('', '');
$h = IPC::Run::start([ $fleet, '--servers', $servers, '--relation', 't', '--history', $history,
	'--jobs', '4', '--max-seconds', '30', '--target-pct', '0.1', '--no-restore' ],
	'>', \$out, '2>', \$err);
my $waiting = scalar @all;
for (1 .. 150)
{
	$waiting = grep {
		$_->safe_psql('postgres',
			q{SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND query LIKE '%scanbench-fleet: scan_efficiency%' AND pid <> pg_backend_pid()}) == 0
	} @all;
	last unless $waiting;
	sleep 0.1;
}
is($waiting, 0, 'every server is measuring');
$t0 = time;
$h->signal('INT');
$h->finish;
$took = time - $t0;
$rc = $? >> 8;
is($rc, 130, 'SIGINT: exit status 130');
cmp_ok($took, '<', 1.0, sprintf('... within a second (%.2f s)', $took));
my @left;
for my $n (@all)
{
	my $left = $n->safe_psql('postgres',
		q{SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()});
	push @left, $n->name if $left;
}
is("@left", '', 'no server is left measuring, nor connected');
is(central("SELECT count(*) FROM scan_history WHERE id > $before AND reason LIKE '%interrupted%'"), scalar @all,
	'each server has a row saying it was interrupted');

# ---- could not run ----
IPC::Run::run([ $fleet, '--servers', $servers, '--relation', 't', '--history',
	sprintf('postgresql://%s:%d/postgres', ($central->host =~ s{/}{%2F}gr), PostgreSQL::Test::Cluster::get_free_port()) ],
	'>', \$out, '2>', \$err);
is($? >> 8, 2, 'a central history that cannot be reached: exit status 2');
like($err, qr/could not connect to the central history/, '... said on stderr');
IPC::Run::run([ $fleet, '--servers', $servers, '--relation', 't', '--history', $history, '--cache', 'bogus' ],
	'>', \$out, '2>', \$err);
is($? >> 8, 2, 'a bad option: exit status 2');
like($err, qr/invalid cache mode "bogus"/, '... named');

$_->stop for ($standby, $primary, $plain, $central, grep { defined } $throttled);
done_testing();
