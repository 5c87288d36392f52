# A warm figure that does not depend on how long the call ran, against
# its known answer: whole passes of the same blocks.  A table of 183 MB in
# the page cache, shared_buffers 128 MB (the table is scanned through a
# ring of buffers), in the lab's group at a CPU weight of 100 and under
# the lab lock, no limit set:
#   - whole: five pass ratios, scan_rate(t, 'warm') over raw_read(t,
#     'warm'), the two alternating; their median is the known answer;
#   - short: a default call (stopped at +-5 %, tens of pairs), as a
#     nightly check makes it;
#   - long: a call of 15 s at target_pct 0.1, hundreds of pairs, the
#     table covered many times.
# Short and long within 5 % of each other, one's interval holding the
# other's median, both within 10 % of the whole passes; the long call's
# first and second half of pairs within 5 % of each other (its fifths
# are noted; a fifth's median moves by 4 % on 18, whose I/O workers read
# the page cache), and no scan of a stretch finding its blocks in
# shared_buffers.  Before the stretches' own
# rings were kept out of the pool, the long call rose 12 % from its first
# fifth and sat 17 to 24 % above the short one.  Up to three tries, each
# reported, the last judged.  Runs with PG_TEST_EXTRA=scanbench_quiet, on
# a machine with nothing else running (it times warm reads, and takes the
# lab lock); skips where control groups cannot be made.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib $FindBin::RealBin;
use SbLab;

# It needs the machine to itself, as bench/call-length.sh does: in a whole
# CI run, another major's tests beside it moved five whole pass ratios of
# one warm table from 12.2 to 24.9 within a try, and a long call's halves
# by 7 %, so CI leaves it out.
plan skip_all => 'needs the machine to itself: set PG_TEST_EXTRA=scanbench_quiet'
  unless ($ENV{PG_TEST_EXTRA} // '') =~ /\bscanbench_quiet\b/;
my $why = lab_why();
plan skip_all => "no control groups here: $why" if defined $why;

my $node = PostgreSQL::Test::Cluster->new('lab_call_length');
$node->init;
$node->append_conf('postgresql.conf', "shared_buffers = 128MB\nautovacuum = off\nmax_wal_size = 4GB\n");
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION scanbench;
	CREATE UNLOGGED TABLE t AS
		SELECT g, g % 97 AS k, md5(g::text) AS pad FROM generate_series(1, 2500000) g;
	VACUUM (FREEZE, ANALYZE) t;
	CHECKPOINT;
});
my $lab = lab_new($node);
$lab->weight(100);

sub sql { return $node->safe_psql('postgres', shift) }

sub median
{
	my @v = sort { $a <=> $b } @_;
	return @v % 2 ? $v[$#v / 2] : ($v[@v / 2 - 1] + $v[@v / 2]) / 2;
}

sub off { my ($x, $ref) = @_; return 100 * ($x - $ref) / $ref; }

my (%last, @tries);
for my $try (1 .. 3)
{
	my @whole;
	for (1 .. 5)
	{
		my $read = sql("SELECT read_mb_s FROM raw_read('t', 'warm')");
		my $scan = sql("SELECT scan_mb_s FROM scan_rate('t', 'warm')");
		push @whole, 100 * $scan / $read;
	}
	my $whole = median(@whole);
	my ($sp, $s, $slo, $shi) = split /\|/,
	  sql("SELECT pairs, scan_pct, scan_pct_lo, scan_pct_hi FROM scan_efficiency('t', 'warm')");
	my ($long, $fifths) = split /\n/, sql(q{
		SELECT pairs || '|' || scan_pct || '|' || scan_pct_lo || '|' || scan_pct_hi
		FROM scan_efficiency('t', 'warm', target_pct => 0.1, max_seconds => 15);
		SELECT string_agg(f::text, ' ' ORDER BY n) || '|' || max(b) || '|' ||
			   (SELECT string_agg(h::text, ' ' ORDER BY n)
				FROM (SELECT ntile AS n, 100 * percentile_cont(0.5) WITHIN GROUP (ORDER BY ratio) AS h
					  FROM (SELECT *, ntile(2) OVER (ORDER BY pair) FROM scan_pairs()) p
					  GROUP BY ntile) y)
		FROM (SELECT ntile AS n, 100 * percentile_cont(0.5) WITHIN GROUP (ORDER BY ratio) AS f,
					 max(b_buffers_pct) AS b
			  FROM (SELECT *, ntile(5) OVER (ORDER BY pair) FROM scan_pairs()) p
			  GROUP BY ntile) x});
	my ($lp, $l, $llo, $lhi) = split /\|/, $long;
	my ($fs, $bufs, $hs) = split /\|/, $fifths;
	my @f = split / /, $fs;
	my @h = split / /, $hs;
	%last = (whole => $whole, s => $s, slo => $slo, shi => $shi, l => $l, llo => $llo, lhi => $lhi,
		sp => $sp, lp => $lp, first => $h[0], second => $h[-1], bufs => $bufs);
	my $note = sprintf('try %d: whole %.1f (%s); short %s [%s, %s] of %d pairs; long %s [%s, %s] of %d pairs, halves %s, fifths %s',
		$try, $whole, join(' ', map { sprintf '%.1f', $_ } @whole), $s, $slo, $shi, $sp, $l, $llo, $lhi, $lp,
		join(' ', map { sprintf '%.1f', $_ } @h), join(' ', map { sprintf '%.1f', $_ } @f));
	note($note);
	push @tries, $note;
	last if abs(off($s, $l)) <= 5 && abs(off($s, $whole)) <= 10 && abs(off($l, $whole)) <= 10
	  && abs(off($h[-1], $h[0])) <= 5 && (($slo <= $l && $l <= $shi) || ($llo <= $s && $s <= $lhi));
}

my %r = %last;
cmp_ok($r{lp}, '>=', 200, "the long call took hundreds of pairs ($r{lp}), the short one tens ($r{sp})");
cmp_ok(abs(off($r{s}, $r{l})), '<=', 5,
	sprintf('short %s within 5 %% of long %s (%+.1f %%)', $r{s}, $r{l}, off($r{s}, $r{l})));
ok(($r{slo} <= $r{l} && $r{l} <= $r{shi}) || ($r{llo} <= $r{s} && $r{s} <= $r{lhi}),
	"one call's interval holds the other's median: short [$r{slo}, $r{shi}], long [$r{llo}, $r{lhi}]");
cmp_ok(abs(off($r{s}, $r{whole})), '<=', 10,
	sprintf('short within 10 %% of the whole passes %.1f (%+.1f %%)', $r{whole}, off($r{s}, $r{whole})));
cmp_ok(abs(off($r{l}, $r{whole})), '<=', 10,
	sprintf('long within 10 %% of the whole passes %.1f (%+.1f %%)', $r{whole}, off($r{l}, $r{whole})));
cmp_ok(abs(off($r{second}, $r{first})), '<=', 5,
	sprintf("the long call's second half %.1f within 5 %% of its first %.1f", $r{second}, $r{first}));
is($r{bufs}, '0', 'no stretch found its blocks in shared_buffers before its timed scan');
note("tries: $_") for @tries;

$node->stop;
done_testing();
