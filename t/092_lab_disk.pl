# Reads at depth against a disk of known latency and depth (t/SbLab.pm's
# lab disk, tools/lab-disk): a tablespace on it, random_read one at a time
# and with 16 reads in flight, the best of up to three tries within 10 % of
# the answer the disk's numbers give, min(depth read, depth served) /
# latency reads a second, and none above it.
# Skips, saying why, where FUSE is missing; runs with
# PG_TEST_EXTRA=scanbench_slow (it times reads, and takes the lab lock).
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib $FindBin::RealBin;
use SbLab;

plan skip_all => 'times reads on the lab disk: set PG_TEST_EXTRA=scanbench_slow'
  unless ($ENV{PG_TEST_EXTRA} // '') =~ /\bscanbench_slow\b/;
my $why = lab_disk_why();
plan skip_all => "no lab disk here: $why" if defined $why;

my $node = PostgreSQL::Test::Cluster->new('lab_disk');
$node->init;
$node->append_conf('postgresql.conf', "shared_buffers = 16MB\n");
$node->start;

my $disk = lab_disk_new();
my $dir = $disk->dir;

# 10,000 blocks: every read of a run lands on a block of its own (a block
# read twice would come from the page cache).  No autovacuum: a worker
# reading the table while random_read times its reads shares the disk
# (on 15 one did: 597 reads where 250 were asked for, 3 in flight at
# depth 1); VACUUM reads it once here, before the disk has a latency.
$node->safe_psql('postgres', qq{
	CREATE EXTENSION scanbench;
	CREATE TABLESPACE lab LOCATION '$dir';
	CREATE UNLOGGED TABLE r (g int, pad text)
		WITH (fillfactor = 10, autovacuum_enabled = off) TABLESPACE lab;
	INSERT INTO r SELECT g, repeat('x', 600) FROM generate_series(1, 130000) g;
	VACUUM (FREEZE, ANALYZE) r;
	CHECKPOINT;
});
my $blocks = $node->safe_psql('postgres', "SELECT pg_relation_size('r') / 8192");
cmp_ok($blocks, '>=', 9000, "the table has $blocks blocks on the lab disk");

# A read of 8 ms: the layer's own cost, and the wait for a CPU on a busy
# machine (0.2 to 0.5 ms a request with a load of 15 on two CPUs), are
# then a few per cent of it, and 16 in flight make 2000 reads a second,
# which such a machine still serves (4000 came out 17 % short).
my $lat_us = 8000;

# (depth served, depth read, reads): about two seconds each.  The disk
# never serves faster than its numbers allow, but a busy machine makes a
# reader slower: each request then waits for a CPU as well (at a load of
# 15 on two CPUs, 16 reads in flight at 8 ms made 1665 a second of 2000
# once).  As t/090 does with a throttle, up to three tries, each
# reported: none may be above the answer, and one must be near it.
for my $cell ([32, 1, 250], [32, 16, 4000], [8, 16, 2000])
{
	my ($served, $depth, $reads) = @$cell;
	my $known = ($depth < $served ? $depth : $served) * 1e6 / $lat_us;
	my ($best, @all);
	for my $try (1 .. 3)
	{
		$disk->set(latency_us => $lat_us, depth => $served, iops => 0, mb_s => 0);
		my $out = $node->safe_psql('postgres', qq{
			SELECT iops, depth, repeats FROM random_read('r', 'cold', $reads, 8192, $depth)});
		my ($iops, $d, $repeats) = split /\|/, $out;
		my $st = $disk->stat;
		note("served $served, read at $depth, try $try: $iops IOPS, known $known; layer: "
			  . "$st->{reads} reads, at most $st->{in_flight_max} in flight");
		# The table's other forks add a few reads; nothing else may read it.
		cmp_ok($st->{reads}, '<=', 1.05 * $reads + 100,
			"try $try: the disk served random_read's reads and few more ($st->{reads} for $reads)")
		  if $try == 1;
		if ($try == 1)
		{
			is($d, $depth, "random_read reports depth $depth");
			is($repeats, 'f', 'no block read twice');
			cmp_ok($st->{in_flight_max}, '>=', ($depth < $served ? $depth : $served),
				"depth $depth: the disk saw that many reads in flight");
		}
		push @all, $iops;
		$best = $iops if !defined $best || abs($iops - $known) < abs($best - $known);
		last if abs($iops - $known) / $known <= 0.10;
	}
	cmp_ok((sort { $b <=> $a } @all)[0], '<=', 1.10 * $known,
		"served $served, read at depth $depth: no run above $known IOPS (@all)");
	cmp_ok(abs($best - $known) / $known, '<=', 0.10,
		"served $served, read at depth $depth: $best IOPS within 10 % of $known");
}

$node->stop;
done_testing();
