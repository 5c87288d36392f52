# access_paths against known answers: the cluster's reads of its disk
# under a control group's request limit N, then its byte limit B.  Every
# block a cold index path reads is one request of 8 kB (an index scan
# fetches heap pages one at a time; the table is far larger than the
# pages read, so a bitmap heap scan's pages are rarely neighbours), so
# under N the path reads N pages a second and under B, B / 8192 (the
# kernel reads no more than asked of a lone 8 kB read); random
# reads of the table at the path's depth get the same, so path_pct is
# 100.  Each page rate within 10 % of its answer, path_pct within 10 % of
# 100, and the verdict io_limited.  Skips, saying why, where control
# groups are missing; runs with PG_TEST_EXTRA=scanbench_slow (it times
# reads, and takes the lab lock).
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib $FindBin::RealBin;
use SbLab;

plan skip_all => 'times reads in the lab: set PG_TEST_EXTRA=scanbench_slow'
  unless ($ENV{PG_TEST_EXTRA} // '') =~ /\bscanbench_slow\b/;
my $why = lab_why();
plan skip_all => "no control groups here: $why" if defined $why;

my $node = PostgreSQL::Test::Cluster->new('lab_access_paths');
$node->init;
$node->append_conf('postgresql.conf', "shared_buffers = 16MB\nautovacuum = off\n");
$node->start;
# About 70 MB, 8,800 pages; k is a permutation of g, uncorrelated with
# the heap: each row counted is a heap page read, and a few index pages.
$node->safe_psql('postgres', q{
	CREATE EXTENSION scanbench;
	CREATE UNLOGGED TABLE a (g int, k int, pad text);
	INSERT INTO a SELECT g, (g::bigint * 7919) % 300000, repeat('x', 200) FROM generate_series(1, 300000) g;
	CREATE INDEX a_k ON a (k);
	VACUUM (FREEZE, ANALYZE) a;
	CHECKPOINT;
});
my @cols = qw(path cache rows heap_pages_read index_pages_read run_s pages_s depth
  random_pages_s path_pct pct_low pct_high rounds cached_pct_before verdict);

sub within
{
	my ($got, $known, $pct, $what) = @_;
	cmp_ok(abs($got - $known) / $known * 100, '<=', $pct,
		sprintf('%s: %s, known %.1f (within %d %%)', $what, $got, $known, $pct));
}

# A run of about 1.5 s at each limit: 0.1 % of the rows under 200
# requests a second, 0.4 % under 8 MiB/s (1,024 pages a second).
for my $cell ([0, 200, 0.001], [8, 0, 0.004])
{
	my ($mib, $iops, $sel) = @$cell;
	my $known = $iops ? $iops : $mib * 1048576 / 8192;
	my $name = $iops ? "$iops requests/s" : "$mib MiB/s";

	# The restart starts a new postmaster: the group is made after it.
	$node->restart;
	my $lab = lab_new($node);
	$lab->limit($mib, 0, $iops);
	my $out = $node->safe_psql('postgres',
		'SELECT ' . join(', ', @cols) . " FROM access_paths('a', 'a_k', selectivity => $sel, max_seconds => 120,"
		  . " paths => '{index,bitmap}') WHERE cache = 'cold'");
	for my $line (split /\n/, $out)
	{
		my %r;
		@r{@cols} = split /\|/, $line, -1;
		note("$name, $r{path}: " . join(', ', map { "$_ $r{$_}" } @cols));
		within($r{pages_s}, $known, 10, "$name, $r{path}: pages a second");
		within($r{random_pages_s}, $known, 10, "$name, $r{path}: random reads at depth $r{depth}");
		within($r{path_pct}, 100, 10, "$name, $r{path}: path_pct");
		like($r{verdict}, qr/io_limited/, "$name, $r{path}: the limit is named ($r{verdict})");
		unlike($r{verdict}, qr/cached|over_budget/, "$name, $r{path}: judged");
	}
	$lab->limit(0, 0, 0);
}

$node->stop;
done_testing();
