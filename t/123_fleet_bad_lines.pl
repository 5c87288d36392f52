# A servers file with lines that cannot be used (bytes that are not UTF-8,
# a NUL byte): the good lines' servers are measured and recorded, each bad
# line is recorded as a failure with its reason, and the exit status is an
# alarm's, not "could not run".  One invalid byte used to discard every
# server's rows at the end, after all were measured.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use FindBin;
use lib $FindBin::RealBin;
use SbClient;

my $fleet = client_program('scanbench-fleet');

my $node = PostgreSQL::Test::Cluster->new('fleet_bad_lines');
$node->init;
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION scanbench;
	CREATE TABLE t AS SELECT g FROM generate_series(1, 20000) g;
	VACUUM (ANALYZE) t;
});
my $host = $node->host;
$host =~ s{([^A-Za-z0-9_.-])}{sprintf('%%%02X', ord $1)}ge;
my $uri = "postgresql://$host:" . $node->port . '/postgres';

my $dir = PostgreSQL::Test::Utils::tempdir();
my $servers = "$dir/servers";
open my $fh, '>', $servers or die;
binmode $fh;
print $fh "$uri name=good class=a\n";
print $fh "$uri name=caf\xe9 class=a\n";
print $fh "$uri name=nul\0 class=a\n";
close $fh;

my ($out, $err) = ('', '');
IPC::Run::run([ $fleet, '--servers', $servers, '--relation', 't', '--history', $uri,
	'--format', 'csv', '--max-seconds', '2', '--no-restore' ],
	'<', \undef, '>', \$out, '2>', \$err);
my $rc = $? >> 8;
is($rc, 1, 'exit 1: the bad lines are failed rows, an alarm') or diag($err);
like($err, qr/:2: not valid UTF-8/, 'line 2 named on stderr, with the reason');
like($err, qr/:3: a NUL byte at byte \d+ of the line/, 'line 3 named as a NUL byte');
unlike($err, qr/not recorded/, 'the runs were recorded');

my $rows = $node->safe_psql('postgres', q{
	SELECT server, reason IS NULL, coalesce(reason, '') FROM scan_history ORDER BY server});
my @rows = map { [ split /\|/ ] } split /\n/, $rows;
is(scalar(@rows), 3, 'three rows in the history');
my %by = map { $_->[0] => $_ } @rows;
is($by{good}[1], 't', 'the good server was measured and recorded');
like($by{'servers file line 2'}[2], qr/^not measured: servers file line 2: not valid UTF-8$/,
	'line 2: a failure with its reason');
like($by{'servers file line 3'}[2], qr/^not measured: servers file line 3: a NUL byte/,
	'line 3: a failure with its reason');
like($out, qr/servers file line 2/, 'the report names the failed line');

$node->stop;
done_testing();
