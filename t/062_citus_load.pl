# scanbench-load --distribute on a Citus coordinator: the table is created
# distributed (with --shard-count shards), the rows go to the shards through
# the coordinator's COPY and are the same rows as a single-server load; the
# summary gives the pages of all the shards, not of the empty shell.  A
# wrong column leaves no table; without Citus the option is refused.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib $FindBin::RealBin;
use IPC::Run;
use ScanbenchLoad;
use SbCitus;

# Usage errors need no server.
my ($ret, $out, $err);
IPC::Run::run([ $loader, '--shard-count', '4' ], '>', \$out, '2>', \$err);
like($err, qr/--shard-count applies to a table created with --distribute/,
	'--shard-count alone is a usage error');
IPC::Run::run([ $loader, '--distribute', 'l_orderkey', '--append' ], '>', \$out, '2>', \$err);
like($err, qr/--distribute creates the table/, '--distribute with --append is a usage error');

my $plain = PostgreSQL::Test::Cluster->new('load_no_citus');
$plain->init;
$plain->start;
($ret, $out, $err) = run_loader($plain, '-s', '0.01', '--distribute', 'l_orderkey');
is($ret, 1, 'without Citus: exit 1');
like($err, qr/--distribute needs the citus extension/, 'without Citus: says why');
is($plain->safe_psql('postgres', "SELECT to_regclass('lineitem') IS NULL"), 't',
	'without Citus: no table made');
$plain->stop;

SKIP:
{
	my $why = SbCitus::unavailable();
	skip $why, 9 if defined $why;
	my ($coord, $w1, $w2) = SbCitus::start_cluster('load');
	my $sql = sub { $coord->safe_psql('postgres', shift) };

	($ret, $out, $err) = run_loader($coord, '-s', '0.02', '-t', 'single');
	is($ret, 0, 'single-server load') or diag($err);
	($ret, $out, $err) = run_loader($coord, '-s', '0.02', '-t', 'dist', '-j', '2',
		'--distribute', 'l_orderkey', '--shard-count', '6');
	is($ret, 0, 'distributed load') or diag($err);

	is($sql->("SELECT count(*) FROM pg_dist_shard WHERE logicalrelid = 'dist'::regclass"),
		'6', 'created distributed with the shards asked for');
	is($sql->("SELECT pg_relation_size('dist')"), '0',
		"no rows in the coordinator's shell table");
	my $sum = q{SELECT count(*) || ' ' || md5(string_agg(t::text, E'\n' ORDER BY l_orderkey, l_linenumber)) FROM %s t};
	is($sql->(sprintf($sum, 'dist')), $sql->(sprintf($sum, 'single')),
		'the same rows as the single-server load');
	my $pages = $sql->("SELECT citus_relation_size('dist') / 8192");
	cmp_ok($pages, '>', 0, "the shards hold $pages pages");
	like($err, qr/ $pages pages in 6 shards, [0-9.]+ bytes\/row/,
		"the summary gives the shards' pages");

	($ret, $out, $err) = run_loader($coord, '-s', '0.01', '-t', 'wrongcol',
		'--distribute', 'no_such_column');
	is($ret, 1, 'a wrong distribution column fails');
	is($sql->("SELECT to_regclass('wrongcol') IS NULL"), 't', '... and leaves no table');

	$_->stop for ($coord, $w1, $w2);
}

done_testing();
