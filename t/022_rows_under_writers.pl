# scan_rate counts exactly the rows count(1) sees while pgbench writers
# update the table: pgbench_accounts always has 100,000 rows a scale unit,
# and an UPDATE that cannot stay on its page puts the new version past the
# table's end.  A block count fixed before the run's snapshot missed those
# versions (999,994 of 1,000,000 rows in 6 of 36 calls at scale 10).
use strict;
use warnings;
use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $scale = 2;
my $node = PostgreSQL::Test::Cluster->new('rows_under_writers');
$node->init;
$node->append_conf('postgresql.conf', "max_connections = 30\n");
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION scanbench');
my @conn = ('-h', $node->host, '-p', $node->port);
$node->command_ok([ 'pgbench', @conn, '-i', '-q', '-s', $scale, 'postgres' ], 'pgbench -i');
my $expected = 100000 * $scale;

my ($out, $err) = ('', '');
my $writers = IPC::Run::start(
	[ 'pgbench', @conn, '-N', '-c', '4', '-j', '2', '-T', '600', 'postgres' ],
	'>', \$out, '2>', \$err);
$node->poll_query_until('postgres',
	"SELECT count(*) >= 4 FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND query LIKE '%pgbench\\_%'")
  or die "pgbench did not start: $err";

my (@counts, $wrong);
for my $cache ((('cold') x 12), (('warm') x 6), (('asis') x 6))
{
	my $rows = $node->safe_psql('postgres', "SELECT rows FROM scan_rate('pgbench_accounts', '$cache')");
	push @counts, "$cache $rows";
	$wrong++ if $rows != $expected;
}
my $updates = $node->safe_psql('postgres',
	"SELECT n_tup_upd FROM pg_stat_user_tables WHERE relname = 'pgbench_accounts'");
$writers->signal('TERM');
$writers->finish;

cmp_ok($updates, '>', 1000, "the writers updated rows meanwhile ($updates)");
is($wrong // 0, 0, "every one of 24 calls counted $expected rows") or diag(join(', ', @counts));
is($node->safe_psql('postgres', 'SELECT count(1) FROM pgbench_accounts'), $expected,
	'count(1) agrees');

done_testing();
