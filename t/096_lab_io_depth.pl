# The depth effective_io_concurrency needs, against known answers: a lab
# disk (t/SbLab.pm) that serves at most P read requests at once, each
# taking L, gives k random 8 kB reads in flight min(k, P) / L pages a
# second, and under a cap of N requests a second no more than N.  What a
# reader sees per request is L and the machine's own time to pass the
# request and wake the reader, which other work on the CPUs stretches: the
# known answers use the time dd sees, one read at a time, just before and
# after each figure (on an idle machine L).
#   - P = 8, L = 8 ms: page_costs reads the table at depths 1, 2, 4, ...;
#     each rate up to depth 16 is within 10 % of min(k, 8) / that time,
#     and the depth recommended is 8, the least within 90 % of the best
#     (16 where the machine's time costs 8 readers more than a tenth);
#   - P = 32, L = 8 ms, N = 250: the rate is 125 at depth 1 and 250
#     from depth 2, and the depth recommended is 2;
#   - scan_advice, cold, with the tablespace's effective_io_concurrency at
#     1, proposes the first cell's depth for it, measured, with the
#     command that sets it, and no gain for this scan;
#   - scan_advice, cold, on a 96 MB table: a wider read-ahead window for
#     the disk's own backing device, whose gain, applied, is within 20 %
#     of the one predicted;
#   - access_paths, P = 8, L = 8 ms: an index scan's heap pages at 125 a
#     second, a bitmap heap scan's at min(effective_io_concurrency, 8) *
#     125, its index pages at 125.
# The latency is long beside the machine's own time (8 ms: a disk
# array's spindles), so that the known rates hold with the CPUs busy.
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

# inside(got, lo, hi, what): got within 10 % of the range lo to hi.
sub inside
{
	my ($got, $lo, $hi, $what) = @_;
	my $known = abs($hi - $lo) < 0.5 ? sprintf('%.0f', $lo) : sprintf('%.0f to %.0f', $lo, $hi);
	ok($got >= 0.9 * $lo && $got <= 1.1 * $hi, "$what: $got, known $known (within 10 %)");
}

# The machine's own time per request, besides the latency set, depends on
# what else runs on its CPUs (t/SbLab.pm's seen_us): the known answers take
# the time a reader of one request at a time sees, measured with dd just
# before and just after the figure, lo to hi.  At depth k up to P each of
# the k readers sees that time; beyond P the device is full whatever the
# readers' delays, and serves P over something between that time and the
# latency itself; a cap of N requests a second bounds both.
sub known_rates
{
	my ($k, $p, $iops, $lat_us, $seen_lo, $seen_hi) = @_;
	my ($lo, $hi) = $k <= $p
	  ? ($k * 1e6 / $seen_hi, $k * 1e6 / $seen_lo)
	  : ($p * 1e6 / $seen_hi, $p * 1e6 / $lat_us);
	if ($iops)
	{
		$lo = $iops if $lo > $iops;
		$hi = $iops if $hi > $iops;
	}
	return ($lo, $hi);
}

# The depths that can be the knee, the least depth within 90 % of the
# best: each up to the first whose rate is surely within 90 % of the best,
# that may be.  On an idle machine that is one depth, P (or where the cap
# is reached); with the CPUs busy enough that P readers get less than 90 %
# of what the device serves, the next one; between the two, either.
sub knee_candidates
{
	my ($p, $iops, $lat_us, $seen_lo, $seen_hi, @depths) = @_;
	my @r = map { [ known_rates($_, $p, $iops, $lat_us, $seen_lo, $seen_hi) ] } @depths;
	my ($best_lo, $best_hi) = (0, 0);
	for (@r)
	{
		$best_lo = $_->[0] if $_->[0] > $best_lo;
		$best_hi = $_->[1] if $_->[1] > $best_hi;
	}
	my @c;
	for my $i (0 .. $#depths)
	{
		push @c, $depths[$i] if $r[$i][1] >= 0.9 * $best_lo;
		last if $r[$i][0] >= 0.9 * $best_hi;
	}
	return @c;
}

sub seen_range
{
	my @t = sort { $a <=> $b } @_;
	return ($t[0], $t[-1]);
}

# The latency of every cell, long beside the machine's own time.
my $lat_us = 8000;
my @first_knees;
for my $cell ([8, 0, 8], [32, 250, 2])
{
	my ($parallel, $iops, $knee) = @$cell;
	my $name = "$parallel at once, " . $lat_us / 1000 . ' ms' . ($iops ? ", $iops requests/s" : '');
	$disk->set(latency_us => $lat_us, depth => $parallel, iops => $iops, mb_s => 0);
	my $before = $disk->seen_us;
	cold_table($node, 'd');
	my ($r, $err) = expanded_row($node, "SELECT * FROM page_costs('d', max_seconds => 30)");
	my ($seen_lo, $seen_hi) = seen_range($before, $disk->seen_us);
	note("$name: " . join(', ', map { "$_ $r->{$_}" } sort keys %$r));
	note(join(' ', $disk->stat_lines));
	note(sprintf('%s: one read at a time through the disk took %.0f to %.0f us', $name, $seen_lo, $seen_hi));
	my @depths = $r->{depths} =~ /(\d+)/g;
	my @rates = $r->{depth_pages_s} =~ /([0-9.e+]+)/g;
	cmp_ok($r->{sweeps}, '>=', 3, "$name: three sweeps or more ($r->{sweeps})");
	for my $i (0 .. $#depths)
	{
		my $k = $depths[$i];
		next if $k > 16;
		inside($rates[$i], known_rates($k, $parallel, $iops, $lat_us, $seen_lo, $seen_hi),
			"$name: pages/s at depth $k");
	}
	my @knees = knee_candidates($parallel, $iops, $lat_us, $seen_lo, $seen_hi, @depths);
	@first_knees = @knees unless @first_knees;
	ok((grep { $_ == $r->{recommended_effective_io_concurrency} } @knees),
		"$name: effective_io_concurrency $r->{recommended_effective_io_concurrency}, known @knees ($knee on an idle machine)");
	like($r->{command}, qr/effective_io_concurrency = $r->{recommended_effective_io_concurrency}\)$/,
		"$name: ... in the command");
}

# scan_advice proposes the first cell's depth for the tablespace.
$disk->set(latency_us => $lat_us, depth => 8, iops => 0, mb_s => 0);
$node->safe_psql('postgres', 'ALTER TABLESPACE lab SET (effective_io_concurrency = 1)');
cold_table($node, 'd');
my $rows = decode_json($node->safe_psql('postgres',
	"SELECT coalesce(json_agg(a), '[]') FROM scan_advice('d', 'cold', max_seconds => 60) a"));
note(join("\n", map { "$_->{setting} $_->{current} -> $_->{value}: $_->{basis}" } @$rows));
my ($eic) = grep { $_->{setting} eq 'effective_io_concurrency' && $_->{command} =~ /^ALTER TABLESPACE/ } @$rows;
ok($eic, 'scan_advice: a row for the tablespace\'s effective_io_concurrency');
SKIP:
{
	skip 'no row', 6 unless $eic;
	ok((grep { $_ == $eic->{value} } @first_knees), "scan_advice: $eic->{value}, the known depth (@first_knees)");
	is($eic->{current}, 1, '... against the 1 in force');
	ok($eic->{measured} && $eic->{pairs} >= 3, "... measured, over $eic->{pairs} sweeps");
	ok(!defined $eic->{gain}, '... with no gain for this scan');
	is($eic->{command}, "ALTER TABLESPACE lab SET (effective_io_concurrency = $eic->{value})", '... and the command');
	like($eic->{basis}, qr/could go up to [0-9.]+ times as fast/, '... the basis gives what a bitmap heap scan gains');
}
# No session trial of effective_io_concurrency: the tablespace's is in
# force for the table's reads.
ok(!(grep { $_->{setting} eq 'effective_io_concurrency' && $_->{command} =~ /^SET / } @$rows),
	'scan_advice: no session trial where the tablespace sets the depth');

# A sequential scan's depth is the kernel's read-ahead (two windows in
# flight at most), so at 8 ms the window sets its rate: scan_advice
# proposes a wider one for the disk's own backing device, predicting a
# gain as wide as the window's, up to what the device gives O_DIRECT reads
# at depth and the warm scan.  Applied here, the scan's real gain (cold
# scan_rate, each in a session that opens the file anew under the window
# then in force, alternated) is within 20 % of the prediction.  The table
# is 96 MB: the window's ramp, a few latencies long, is then a few per cent
# of a scan with the wide window (on d's 24 MB it is a fifth).  The disk's
# bytes are capped at 120 MB/s, which the wider window reaches: past that
# the machine's own time to copy each 1 MB request through the layer
# grows with what else runs on its CPUs (on a busy machine the scan got
# 168 to 211 MB/s where an idle one gets 225), and the known answer holds
# only where the disk, not the machine, sets the rate.  bench/advice.sh
# shows the uncapped cell.
$disk->set(latency_us => 0, depth => 0, iops => 0, mb_s => 0);
$node->safe_psql('postgres', q{
	CREATE UNLOGGED TABLE r (g int, pad text) TABLESPACE lab;
	INSERT INTO r SELECT g, repeat('x', 200) FROM generate_series(1, 400000) g;
	VACUUM (FREEZE, ANALYZE) r;
	CHECKPOINT;
});
$disk->set(latency_us => $lat_us, depth => 8, iops => 0, mb_s => 120);
cold_table($node, 'r');
my $ra_rows = decode_json($node->safe_psql('postgres',
	"SELECT coalesce(json_agg(a), '[]') FROM scan_advice('r', 'cold', max_seconds => 30) a"));
my ($ra) = grep { $_->{setting} eq 'read-ahead' } @$ra_rows;
my $ra0 = $disk->read_ahead_kb;
my $ra_file = $disk->ra_file;
ok($ra, "scan_advice: a read-ahead row where the window sets the scan's rate (now $ra0 kB)");
SKIP:
{
	skip 'no row', 3 unless $ra;
	note("read-ahead: $ra->{basis}");
	is($ra->{current}, "${ra0}kB", '... against the window in force');
	# A file takes the window when it is opened: 18's I/O workers keep
	# theirs open until a restart (cold_table restarts the server).
	my $workers = $node->safe_psql('postgres', "SELECT current_setting('io_method', true)") eq 'worker';
	my $then = $workers ? '; then restart the server' : '';
	like($ra->{command}, qr{^echo \d+ > \Q$ra_file\E\Q$then\E$}, "... set through the mount's backing device: $ra->{command}");
	my ($kb) = $ra->{command} =~ /^echo (\d+)/;
	my (@before, @after);
	for (1 .. 3)
	{
		for my $side ([ $ra0, \@before ], [ $kb, \@after ])
		{
			$disk->read_ahead_kb($side->[0]);
			cold_table($node, 'r');
			push @{ $side->[1] }, $node->safe_psql('postgres',
				"SELECT scan_mb_s FROM scan_rate('r', 'cold', 'count(1)', 0)");
		}
	}
	$disk->read_ahead_kb($ra0);
	my $median = sub { my @v = sort { $a <=> $b } @_; $v[$#v / 2] };
	my $real = $median->(@after) / $median->(@before);
	note("scan_rate MB/s, window $ra0 kB: @before; $kb kB: @after");
	ok(abs($real / $ra->{gain} - 1) <= 0.2,
		sprintf('... the scan %.2f times as fast with it, %.2f predicted (within 20 %%)', $real, $ra->{gain}));
}
# While the window limits the scan, no server I/O setting is proposed: a
# sequential read stream (18) leaves its depth to read-ahead.
ok(!(grep { $_->{setting} =~ /^io_(method|workers|max_workers|max_combine_limit)$/ } @$ra_rows),
	'scan_advice: no server I/O setting proposed while the window limits the scan');
$node->safe_psql('postgres', 'DROP TABLE r');

# access_paths on the same disk: an index scan fetches heap pages one at
# a time, 125 a second at 8 ms; a bitmap heap scan keeps the tablespace's
# effective_io_concurrency (8) in flight, min(8, 8) * 125 = 1,000 a
# second, where the table is far larger than the pages read (they are
# rarely neighbours, each one request).  Either reads its index pages
# first, one at a time.  The bitmap heap scan's look-ahead starts at one
# read and doubles each time the scan waits (the read stream's distance
# from 17, the prefetch target before): its first 1 + 2 + 4 pages take a
# round of L each, r = log2(min(depth, 8)) rounds, and the rest go
# min(depth, 8) at a time.  A run of h heap and i index pages takes
# L * (i + r + (h - (2^r - 1)) / min(depth, 8)), and its rate is (h + i)
# over that.  Random reads at each path's depth get min(depth, 8) / L,
# and path_pct is the path's rate over theirs.  The table is made with the
# disk at no latency, as d and r were; the cell's disk is set again after.
$disk->set(latency_us => 0, depth => 0, iops => 0, mb_s => 0);
lab_scattered_table($node, 'a', 'lab');
$node->safe_psql('postgres', q{
	ALTER TABLESPACE lab SET (effective_io_concurrency = 8);
	CHECKPOINT;
});
# The disk as the read-ahead cell left it (its byte cap far above the
# 8 MB a second these 8 kB reads make).
$disk->set(latency_us => $lat_us, depth => 8, iops => 0, mb_s => 120);
# From 18, I/O workers enough for the depth.
lab_io_workers($node, 16);
# Eight reads in flight pass through eight I/O workers (18) and the disk's
# own threads, each woken once a read: with other work on the CPUs those
# wake-ups queue behind it, and the scan keeps fewer in flight than the
# reader of one request at a time the known answer is timed by.  A group
# weighing a hundred times the default runs first, and takes nothing from
# an idle machine.
if (defined(my $why = lab_why()))
{
	note("the server keeps the default CPU weight: $why");
}
else
{
	lab_new($node)->weight(100);
}
my @cols = qw(path rows heap_pages_read index_pages_read pages_s depth random_pages_s path_pct rounds verdict);

# One call's rows, each with its known answers from the time one read
# took through the disk around the call.
sub access_paths_rows
{
	my $before = $disk->seen_us;
	my $out = $node->safe_psql('postgres',
		'SELECT ' . join(', ', @cols) . " FROM access_paths('a', 'a_k', selectivity => 0.001, max_seconds => 120,"
		  . " paths => '{index,bitmap}') WHERE cache = 'cold'");
	my ($seen_lo, $seen_hi) = seen_range($before, $disk->seen_us);
	note(sprintf('access_paths: one read at a time through the disk took %.0f to %.0f us', $seen_lo, $seen_hi));
	my @rows;
	for my $line (split /\n/, $out)
	{
		my %r;
		@r{@cols} = split /\|/, $line, -1;
		note("access_paths, $r{path}: " . join(', ', map { "$_ $r{$_}" } @cols));
		my $d = $r{depth} < 8 ? $r{depth} : 8;
		my ($h, $i) = ($r{heap_pages_read}, $r{index_pages_read});
		my $rounds = lab_bitmap_rounds($h, $i, $d);
		$r{known} = [ map { 1e6 * ($h + $i) / ($rounds * $_) } ($seen_hi, $seen_lo) ];
		$r{known_random} = [ $d * 1e6 / $seen_hi, $d * 1e6 / $seen_lo ];
		$r{known_pct} = 100 * ($h + $i) / ($rounds * $d);
		push @rows, \%r;
	}
	return @rows;
}

# A read kept waiting behind other work on the CPUs for a moment lowers a
# call's figure: up to three calls, each reported, the last one judged.
my @rows;
for my $try (1 .. 3)
{
	@rows = access_paths_rows();
	my $near = sub { $_[0] >= 0.9 * $_[1][0] && $_[0] <= 1.1 * $_[1][1] };
	my @off = grep { !$near->($_->{pages_s}, $_->{known}) || !$near->($_->{random_pages_s}, $_->{known_random}) } @rows;
	last if !@off || $try == 3;
	diag(sprintf('access_paths (try %d): %s more than 10 %% from the known answer; trying again',
		$try, join(' and ', map { "$_->{path} at $_->{pages_s} pages a second" } @off)));
}
for my $r (@rows)
{
	inside($r->{pages_s}, @{ $r->{known} },
		"access_paths, $r->{path} at depth $r->{depth}, $r->{heap_pages_read} heap and $r->{index_pages_read} index pages: pages a second");
	inside($r->{random_pages_s}, @{ $r->{known_random} },
		"access_paths, $r->{path}: random reads at depth $r->{depth}");
	# Both at the same time per read: their ratio is the time's own.
	inside($r->{path_pct}, ($r->{known_pct}) x 2, "access_paths, $r->{path}: path_pct");
	unlike($r->{verdict}, qr/cached|over_budget/, "access_paths, $r->{path}: judged ($r->{verdict})");
}

$disk->set(latency_us => 0, depth => 0, iops => 0, mb_s => 0);
$node->stop;
done_testing();
