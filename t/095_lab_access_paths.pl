# access_paths, index_crossover and toast_efficiency against known
# answers: the cluster's reads of its disk under a control group's request
# limit N, then its byte limit B (index_crossover's and toast_efficiency's
# cells are below).  Every
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

# index_crossover under a byte limit B and a request limit N at once.  An
# index scan fetches each heap page it has not read yet with one 8 kB
# request, 1 / N seconds under N (N * 8192 < B); in k's order every row is
# on a page not read yet (k is a permutation of g with a large step, as
# above), so after k rows it has taken k / N, and it takes as long as a
# sequential scan of S seconds at k = N * S: the crossover, k / T of the
# T rows, within 25 %, S being the sequential scan's own measured time.
# (S's answer is P * 8192 / B where the scan's requests are large enough
# for B to bind before N, as here on 15 and 18; lineitem's on 18 ran at a
# third of B or less under 1,600 and 800 requests a second, as
# doc/access-paths.md says.  Where the keys' rows lie at
# random, as lineitem's l_partkey's, the pages read after k rows are P *
# (1 - exp(-k / P)): bench/access-paths.sh, which also checks the planner
# under page_costs' ratio.)  Under the setting index_crossover matches to
# the crossover the planner takes the index scan at half of it and the
# sequential scan at twice.
my ($pages, $tuples) = split /\|/, $node->safe_psql('postgres',
	"SELECT relpages, reltuples FROM pg_class WHERE relname = 'a'");
my @xcols = qw(rounds seq_s crossover_rows crossover_selectivity crossover_low crossover_high
  planner_crossover matching_random_page_cost checked_random_page_cost checked_crossover
  checked_at_half checked_at_twice verdict);
for my $cell ([16, 400])
{
	my ($mib, $iops) = @$cell;
	my $bps = $mib * 1048576;
	my $name = "$mib MiB/s and $iops requests/s";

	$node->restart;
	my $lab = lab_new($node);
	$lab->limit($mib, 0, $iops);
	my $out = $node->safe_psql('postgres',
		'SELECT ' . join(', ', @xcols)
		  . " FROM index_crossover('a', 'a_k', max_seconds => 180)");
	my %r;
	@r{@xcols} = split /\|/, $out, -1;
	note("$name: " . join(', ', map { "$_ $r{$_}" } @xcols)
		  . sprintf('; a sequential scan at B would take %.2f s', $pages * 8192 / $bps));
	my $known = $iops * $r{seq_s} / $tuples;
	cmp_ok(abs($r{crossover_selectivity} - $known) / $known * 100, '<=', 25,
		sprintf('%s: the crossover %s, known %.6f (within 25 %%)', $name, $r{crossover_selectivity}, $known));
	cmp_ok($r{rounds}, '>=', 3, "$name: rounds enough to judge");
	is($r{checked_random_page_cost}, $r{matching_random_page_cost}, "$name: the matching setting is checked");
	is($r{checked_at_half}, 'index', "$name: under it ($r{matching_random_page_cost}) the planner takes the index scan at half the crossover");
	is($r{checked_at_twice}, 'seq', "$name: and the sequential scan at twice");
	unlike($r{verdict}, qr/cached|over_budget|no_crossover|correlated/, "$name: judged ($r{verdict})");
	$lab->limit(0, 0, 0);
}

# toast_efficiency under a byte limit B alone.  Every byte of the main
# fork, the TOAST table and its index is read once by either side: the
# raw reads in order, the detoasting scan through a sequential scan of the
# main fork and, value by value, the TOAST index's lookups and the chunks'
# pages, which lie in the order the values were stored.  The limit, not
# the CPU, sets both sides' rate: the scan's over the three relations'
# bytes is B within 10 %, and scan_pct 100 within 10 %.  About 65 MB,
# 12,000 values of 4 kB stored out of line, three chunks each.
$node->safe_psql('postgres', q{
	CREATE UNLOGGED TABLE docs (id int, body text);
	ALTER TABLE docs ALTER COLUMN body SET STORAGE EXTERNAL;
	INSERT INTO docs SELECT g, repeat(md5(g::text), 128) FROM generate_series(1, 12000) g;
	VACUUM (FREEZE, ANALYZE) docs;
	CHECKPOINT;
});
my @tcols = qw(rows values_detoasted main_bytes toast_bytes toast_index_bytes toast_pct rounds
  read_s read_mb_s scan_s scan_mb_s scan_pct pct_low pct_high cached_pct_before elapsed_s verdict);
{
	my $mib = 16;
	my $known = $mib * 1048576 / 1e6;
	my $name = "$mib MiB/s, toast_efficiency";

	$node->restart;
	my $lab = lab_new($node);
	$lab->limit($mib, 0, 0);
	my $out = $node->safe_psql('postgres',
		'SELECT ' . join(', ', @tcols) . " FROM toast_efficiency('docs', max_seconds => 30)");
	my %r;
	@r{@tcols} = split /\|/, $out, -1;
	note("$name: " . join(', ', map { "$_ $r{$_}" } @tcols));
	is($r{values_detoasted}, 12000, "$name: every value detoasted");
	within($r{read_mb_s}, $known, 10, "$name: the raw reads' MB/s");
	within($r{scan_mb_s}, $known, 10, "$name: the scan's MB/s over the three relations' bytes");
	within($r{scan_pct}, 100, 10, "$name: scan_pct");
	like($r{verdict}, qr/io_limited/, "$name: the limit is named ($r{verdict})");
	unlike($r{verdict}, qr/cached|over_budget/, "$name: judged");
	$lab->limit(0, 0, 0);
}

$node->stop;
done_testing();
