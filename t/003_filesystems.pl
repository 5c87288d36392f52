# Filesystem detection on real filesystems of known types: tools/test.sh
# mounts small ext2 and xfs images where the machine allows it and names
# them in SCANBENCH_TEST_FS ("ext2:/mnt/a xfs:/mnt/b"); a tablespace on
# each must be reported with its own type and loop device.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my @mounts = map { [ split /:/, $_, 2 ] } grep { length } split /\s+/, ($ENV{SCANBENCH_TEST_FS} // '');
plan skip_all => 'no test filesystems mounted (SCANBENCH_TEST_FS is empty: mount needs root)'
  unless @mounts;

my $node = PostgreSQL::Test::Cluster->new('filesystems');
$node->init;
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION scanbench');

for my $m (@mounts)
{
	my ($fs, $dir) = @$m;
	my $loc = "$dir/ts_$$";
	mkdir $loc or BAIL_OUT("cannot create $loc: $!");
	$node->safe_psql('postgres', qq{
		CREATE TABLESPACE ts_$fs LOCATION '$loc';
		CREATE TABLE on_$fs TABLESPACE ts_$fs AS
			SELECT g AS id, md5(g::text) AS v FROM generate_series(1, 200000) g;
		VACUUM (FREEZE, ANALYZE) on_$fs;
	});
	my ($type, $device, $rows, $pct) = split /\|/, $node->safe_psql('postgres',
		"SELECT filesystem, device, rows, scan_pct FROM scan_efficiency('on_$fs')");
	is($type, $fs, "a table on $fs is reported on $fs");
	like($device, qr{^/dev/loop\d+$}, "... on its loop device ($device)");
	is($rows, 200000, "... with all its rows");
	cmp_ok($pct, '>', 0, "... and a scan percentage ($pct)");

	my $cold = $node->safe_psql('postgres',
		"SELECT cached_pct_before FROM raw_read('on_$fs', cache => 'cold')");
	cmp_ok($cold, '<', 5, "cold works on $fs ($cold %)");
	my $bytes = $node->safe_psql('postgres',
		"SELECT bytes = pg_relation_size('on_$fs') FROM raw_read('on_$fs', 'direct', 4096)");
	is($bytes, 't', "O_DIRECT reads every byte on $fs");

	$node->safe_psql('postgres', "DROP TABLE on_$fs; DROP TABLESPACE ts_$fs");
}

$node->stop;
done_testing();
