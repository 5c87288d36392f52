# The depth effective_io_concurrency needs, against known answers: a lab
# disk (t/SbLab.pm) that serves at most P read requests at once, each
# taking L, gives k random 8 kB reads in flight min(k, P) / L pages a
# second, and under a cap of N requests a second no more than N.
#   - P = 8, L = 2 ms: page_costs reads the table at depths 1, 2, 4, ...;
#     each rate up to depth 16 is within 10 % of min(k, 8) * 500, and the
#     depth recommended is 8, the least within 90 % of the best;
#   - P = 32, L = 2 ms, N = 1,000: the rate is 500 at depth 1 and 1,000
#     from depth 2, and the depth recommended is 2;
#   - scan_advice, cold, with the tablespace's effective_io_concurrency at
#     1, proposes the first cell's 8 for it, measured, with the command
#     that sets it, and no gain for this scan;
#   - access_paths, P = 8, L = 2 ms: an index scan's heap pages at 500 a
#     second, a bitmap heap scan's at min(effective_io_concurrency, 8) *
#     500, its index pages at 500.
# Skips, saying why, where FUSE is missing; runs with
# PG_TEST_EXTRA=scanbench_slow (it times reads, and takes the lab lock).
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use JSON::PP;
use FindBin;
use lib $FindBin::RealBin;
use SbCold;
use SbLab;

plan skip_all => 'times reads in the lab: set PG_TEST_EXTRA=scanbench_slow'
  unless ($ENV{PG_TEST_EXTRA} // '') =~ /\bscanbench_slow\b/;
my $why = lab_disk_why();
plan skip_all => "no lab disk here: $why" if defined $why;

my $node = PostgreSQL::Test::Cluster->new('lab_io_depth');
$node->init;
$node->append_conf('postgresql.conf', "shared_buffers = 16MB\nautovacuum = off\n");
$node->start;
my $disk = lab_disk_new();
my $dir = $disk->dir;

# 24 MB: room for 800 distinct random reads a depth, twice over.
$node->safe_psql('postgres', qq{
	CREATE EXTENSION scanbench;
	CREATE TABLESPACE lab LOCATION '$dir';
	CREATE UNLOGGED TABLE d (g int, pad text) TABLESPACE lab;
	INSERT INTO d SELECT g, repeat('x', 200) FROM generate_series(1, 100000) g;
	VACUUM (FREEZE, ANALYZE) d;
	CHECKPOINT;
});

sub within
{
	my ($got, $known, $pct, $what) = @_;
	cmp_ok(abs($got - $known) / $known * 100, '<=', $pct,
		sprintf('%s: %s, known %.0f (within %d %%)', $what, $got, $known, $pct));
}

for my $cell ([8, 0, 8], [32, 1000, 2])
{
	my ($parallel, $iops, $knee) = @$cell;
	my $name = "$parallel at once, 2 ms" . ($iops ? ", $iops requests/s" : '');
	$disk->set(latency_us => 2000, depth => $parallel, iops => $iops, mb_s => 0);
	cold_table($node, 'd');
	my ($r, $err) = expanded_row($node, "SELECT * FROM page_costs('d', max_seconds => 40)");
	note("$name: " . join(', ', map { "$_ $r->{$_}" } sort keys %$r));
	note(join(' ', $disk->stat_lines));
	my @depths = $r->{depths} =~ /(\d+)/g;
	my @rates = $r->{depth_pages_s} =~ /([0-9.e+]+)/g;
	cmp_ok($r->{sweeps}, '>=', 3, "$name: three sweeps or more ($r->{sweeps})");
	for my $i (0 .. $#depths)
	{
		my $k = $depths[$i];
		next if $k > 16;
		my $known = ($k < $parallel ? $k : $parallel) * 500;
		$known = $iops if $iops && $known > $iops;
		within($rates[$i], $known, 10, "$name: pages/s at depth $k");
	}
	is($r->{recommended_effective_io_concurrency}, $knee, "$name: effective_io_concurrency $knee");
	like($r->{command}, qr/effective_io_concurrency = $knee\)$/, "$name: ... in the command");
}

# scan_advice proposes the first cell's depth for the tablespace.
$disk->set(latency_us => 2000, depth => 8, iops => 0, mb_s => 0);
$node->safe_psql('postgres', 'ALTER TABLESPACE lab SET (effective_io_concurrency = 1)');
cold_table($node, 'd');
my $rows = decode_json($node->safe_psql('postgres',
	"SELECT coalesce(json_agg(a), '[]') FROM scan_advice('d', 'cold', max_seconds => 40) a"));
note(join("\n", map { "$_->{setting} $_->{current} -> $_->{value}: $_->{basis}" } @$rows));
my ($eic) = grep { $_->{setting} eq 'effective_io_concurrency' && $_->{command} =~ /^ALTER TABLESPACE/ } @$rows;
ok($eic, 'scan_advice: a row for the tablespace\'s effective_io_concurrency');
SKIP:
{
	skip 'no row', 6 unless $eic;
	is($eic->{value}, 8, 'scan_advice: the known depth, 8');
	is($eic->{current}, 1, '... against the 1 in force');
	ok($eic->{measured} && $eic->{pairs} >= 3, "... measured, over $eic->{pairs} sweeps");
	ok(!defined $eic->{gain}, '... with no gain for this scan');
	is($eic->{command}, 'ALTER TABLESPACE lab SET (effective_io_concurrency = 8)', '... and the command');
	like($eic->{basis}, qr/could go up to [0-9.]+ times as fast/, '... the basis gives what a bitmap heap scan gains');
}
# No session trial of effective_io_concurrency: the tablespace's is in
# force for the table's reads.
ok(!(grep { $_->{setting} eq 'effective_io_concurrency' && $_->{command} =~ /^SET / } @$rows),
	'scan_advice: no session trial where the tablespace sets the depth');

# access_paths on the same disk: an index scan fetches heap pages one at
# a time, 500 a second at 2 ms; a bitmap heap scan keeps the tablespace's
# effective_io_concurrency (8) in flight, min(8, 8) * 500 = 4,000 a
# second, where the table is far larger than the pages read (they are
# rarely neighbours, each one request).  Either reads its index pages
# first, one at a time: a run of h heap and i index pages takes
# i * L + h * L / min(depth, 8), and its rate is (h + i) over that.
# Random reads at each path's depth get min(depth, 8) / L, and path_pct
# is the path's rate over theirs.  k is a permutation of g, uncorrelated
# with the heap.
$node->safe_psql('postgres', q{
	CREATE UNLOGGED TABLE a (g int, k int, pad text) TABLESPACE lab;
	INSERT INTO a SELECT g, (g::bigint * 7919) % 300000, repeat('x', 200) FROM generate_series(1, 300000) g;
	CREATE INDEX a_k ON a (k) TABLESPACE lab;
	VACUUM (FREEZE, ANALYZE) a;
	ALTER TABLESPACE lab SET (effective_io_concurrency = 8);
	CHECKPOINT;
});
# From 18, I/O workers enough for the depth.
lab_io_workers($node, 16);
my @cols = qw(path rows heap_pages_read index_pages_read pages_s depth random_pages_s path_pct rounds verdict);
my $out = $node->safe_psql('postgres',
	'SELECT ' . join(', ', @cols) . " FROM access_paths('a', 'a_k', selectivity => 0.003, max_seconds => 90,"
	  . " paths => '{index,bitmap}') WHERE cache = 'cold'");
for my $line (split /\n/, $out)
{
	my %r;
	@r{@cols} = split /\|/, $line, -1;
	note("access_paths, $r{path}: " . join(', ', map { "$_ $r{$_}" } @cols));
	my $deep = ($r{depth} < 8 ? $r{depth} : 8) * 500;
	my ($h, $i) = ($r{heap_pages_read}, $r{index_pages_read});
	my $known = ($h + $i) / ($i / 500 + $h / $deep);
	within($r{pages_s}, $known, 10,
		"access_paths, $r{path} at depth $r{depth}, $h heap and $i index pages: pages a second");
	within($r{random_pages_s}, $deep, 10, "access_paths, $r{path}: random reads at depth $r{depth}");
	within($r{path_pct}, 100 * $known / $deep, 10, "access_paths, $r{path}: path_pct");
	unlike($r{verdict}, qr/cached|over_budget/, "access_paths, $r{path}: judged ($r{verdict})");
}

$disk->set(latency_us => 0, depth => 0, iops => 0, mb_s => 0);
$node->stop;
done_testing();
