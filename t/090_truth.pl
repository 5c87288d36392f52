# Figures against known answers: the cluster in control groups that
# throttle its disk reads and cap its CPU (t/SbLab.pm, tools/lab.sh).
#   - A disk throttled to 100 MiB/s: raw reads at the limit; scan_efficiency
#     storage-limited, io_limited and never storage_not_limiting, near
#     100 %; a sampled call agrees with whole passes within 10 %; the limit
#     is in the row and in storage_info.
#   - A quarter of a CPU: a warm scan is cpu_limited, never blamed on other
#     processes, at the wall-clock rate scan_rate sees; a cold one, whose
#     reads spend CPU too, is cpu_limited as well.
#   - Busy loops on every CPU outside the group never lift a rate above the
#     disk's limit.
# Skips where control groups cannot be written (tools/test.sh hands the
# postgres user a group to make them in, as root).
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib $FindBin::RealBin;
use SbLab;

my $why = lab_why();
plan skip_all => "no lab here: $why" if defined $why;

my $node = PostgreSQL::Test::Cluster->new('truth');
$node->init;
$node->append_conf('postgresql.conf', "shared_buffers = 32MB\nmax_wal_size = 4GB\n");
$node->start;

# fillfactor 10: about 200 MB, two seconds' read at the limit, so that the
# throttle's allowance after an idle gap (about a tenth of a second of its
# rate) stays a few per cent of a pass.
$node->safe_psql('postgres', q{
	CREATE EXTENSION scanbench;
	CREATE UNLOGGED TABLE t WITH (fillfactor = 10) AS
		SELECT g FROM generate_series(1, 600000) g;
	VACUUM (FREEZE, ANALYZE) t;
	CREATE UNLOGGED TABLE s WITH (fillfactor = 10) AS
		SELECT g FROM generate_series(1, 45000) g;
	VACUUM (FREEZE, ANALYZE) s;
	CREATE UNLOGGED TABLE c AS SELECT g FROM generate_series(1, 6000000) g;
	VACUUM (FREEZE, ANALYZE) c;
	CHECKPOINT;
});
# The tables just written reach the disk before anything is timed, so that
# their write-back does not share the device with the reads measured.
system('sync');

my $lab = lab_new($node);
# The lab holds the machine's lab lock while it measures: another run's
# lab cannot take it.
my $lockdir = lab_lock_dir();
system('flock', '-n', $lockdir, 'true');
isnt($? >> 8, 0, "the lab lock on $lockdir is held while the lab measures");
my $mib = 100;
my $limit = $mib * 1.048576;	# MB/s

# One row of a query as a hash, with its messages.
sub row
{
	my ($sql) = @_;
	my ($ret, $out, $err) = $node->psql('postgres', $sql, extra_params => [ '-x', '-A' ]);
	is($ret, 0, "runs: $sql") or diag($err);
	my %r = map { split(/\|/, $_, 2) } grep { /\|/ } split /\n/, $out;
	return (\%r, $err);
}

sub marks { my ($v) = @_; $v //= ''; $v =~ s/^\{|\}$//g; return split /,/, $v; }

# ---- a throttled disk ----
$lab->limit($mib, 0);

# The known answer is the limit when the device itself is free. The disk
# is shared with whatever else the machine does (in CI, another major's
# run and the package roots being built), whose writes can hold a read
# below the limit for a moment: up to three tries, each reported; none may
# be above the limit, and one must be near it.
my @raws;
for my $try (1 .. 3)
{
	my ($raw) = row("SELECT read_mb_s FROM raw_read('t', 'cold', 8192)");
	push @raws, $raw->{read_mb_s};
	cmp_ok($raw->{read_mb_s}, '<=', 1.1 * $limit,
		"raw read $raw->{read_mb_s} MB/s (try $try): not above the limit of $limit");
	last if $raw->{read_mb_s} >= 0.8 * $limit;
	Test::More::diag("raw read $raw->{read_mb_s} MB/s, below 80 % of the limit of $limit: trying again");
	sleep 2;
}
cmp_ok((sort { $b <=> $a } @raws)[0], '>=', 0.8 * $limit,
	"... and near it (tries: @{[ join ', ', @raws ]} MB/s)");

my ($whole, $werr) = row("SELECT * FROM scan_efficiency('t', runs => 6, method => 'whole', target_pct => 10)");
my @wm = marks($whole->{verdict});
ok((grep { $_ eq 'io_limited' } @wm), "whole passes: io_limited ($whole->{verdict})");
ok(!(grep { $_ eq 'storage_not_limiting' } @wm), '... never storage_not_limiting');
# A busy machine (CI runs two majors at once) may also hold the backend
# off its CPU: that mark is a fact about the machine and comes with its
# own NOTICE; no other mark may appear under a throttle.
ok(!(grep { !/^(unstable|io_limited|cpu_contended)$/ } @wm), "... and no other mark ($whole->{verdict})");
if (grep { $_ eq 'cpu_contended' } @wm)
{
	like($werr, qr/NOTICE:  this backend waited for a CPU held by other processes/,
		'... cpu_contended (a busy machine) comes with its NOTICE');
}
else
{
	unlike($werr, qr/held by other processes/, '... and no NOTICE of contention without the mark');
}
cmp_ok(abs($whole->{scan_pct} - 100), '<=', 10, "... storage-limited: scan_pct $whole->{scan_pct} near 100");
cmp_ok($whole->{read_mb_s}, '<=', 1.1 * $limit, "... read $whole->{read_mb_s} MB/s at most the limit");
cmp_ok($whole->{scan_mb_s}, '<=', 1.1 * $limit, "... scan $whole->{scan_mb_s} MB/s at most the limit");
is($whole->{read_bps_limit}, $mib * 1048576, '... the row names the limit');
like($werr, qr/NOTICE:  the read throttle of device \d+:\d+, \d+ bytes\/s .* set the read rate/,
	'... and a NOTICE says the throttle set it');

my ($pairs) = row("SELECT * FROM scan_efficiency('t', target_pct => 10)");
my $d = 100 * ($pairs->{read_mb_s} - $whole->{read_mb_s}) / $whole->{read_mb_s};
cmp_ok(abs($d), '<=', 10,
	sprintf("sampled read %s MB/s within 10 %% of whole passes' %s (%+.1f %%)",
		$pairs->{read_mb_s}, $whole->{read_mb_s}, $d));
$d = 100 * ($pairs->{scan_mb_s} - $whole->{scan_mb_s}) / $whole->{scan_mb_s};
cmp_ok(abs($d), '<=', 10,
	sprintf("sampled scan %s MB/s within 10 %% of whole passes' %s (%+.1f %%)",
		$pairs->{scan_mb_s}, $whole->{scan_mb_s}, $d));
ok(!(grep { $_ eq 'storage_not_limiting' } marks($pairs->{verdict})),
	"sampled: not storage_not_limiting ($pairs->{verdict})");

my $info = $node->safe_psql('postgres',
	"SELECT DISTINCT read_bps_limit FROM storage_info('t'::regclass)");
is($info, $mib * 1048576, 'storage_info shows the read throttle');
my ($bd) = row("SELECT * FROM scan_breakdown('t')");
is($bd->{read_bps_limit}, $mib * 1048576, 'scan_breakdown names the read throttle');
cmp_ok($bd->{scan_mb_s}, '<=', 1.1 * $limit, "... and its scan, $bd->{scan_mb_s} MB/s, is not above it");

# The history and the metrics carry the limit the run was measured under.
$node->psql('postgres', "CALL efficiency_check('t', max_seconds => 10)");
is($node->safe_psql('postgres', 'SELECT read_bps_limit FROM scan_history ORDER BY id DESC LIMIT 1'),
	$mib * 1048576, 'the history keeps the read throttle');
like($node->safe_psql('postgres', 'SELECT scanbench_metrics()'),
	qr/^scanbench_read_limit_bytes_per_second\{schema="public",relation="t",cache="cold"\} @{[ $mib * 1048576 ]}$/m,
	'... and the metrics show it');

# A relation of a tenth of a second at the limit: each pass fits in much of
# the throttle's allowance, and the verdict must say the figure is not
# the rate a long scan gets.
my ($short) = row("SELECT * FROM scan_efficiency('s', runs => 6, method => 'whole')");
if ($short->{read_mb_s} > 1.1 * $limit)
{
	ok((grep { $_ eq 'burst' } marks($short->{verdict})),
		"a short relation read at $short->{read_mb_s} MB/s under $limit: burst ($short->{verdict})");
}
else
{
	ok(!(grep { $_ eq 'burst' } marks($short->{verdict})),
		"a short relation read within the limit ($short->{read_mb_s} MB/s): no burst ($short->{verdict})");
}

# ---- background load never lifts a rate above the limit ----
$lab->load_start;
my ($raw) = row("SELECT read_mb_s FROM raw_read('t', 'cold', 8192)");
cmp_ok($raw->{read_mb_s}, '<=', 1.1 * $limit, "loaded: raw read $raw->{read_mb_s} MB/s");
my ($scan) = row("SELECT scan_mb_s FROM scan_rate('t', 'cold')");
cmp_ok($scan->{scan_mb_s}, '<=', 1.1 * $limit, "loaded: scan_rate $scan->{scan_mb_s} MB/s");
my ($lp) = row("SELECT * FROM scan_efficiency('t', target_pct => 10, max_seconds => 30)");
cmp_ok($lp->{read_mb_s}, '<=', 1.1 * $limit, "loaded: sampled read $lp->{read_mb_s} MB/s");
cmp_ok($lp->{scan_mb_s}, '<=', 1.1 * $limit, "loaded: sampled scan $lp->{scan_mb_s} MB/s");
cmp_ok($lp->{cpu_wait_s}, '>=', 0, "loaded: the wait for a CPU is reported ($lp->{cpu_wait_s} s)");
$lab->load_stop;

# ---- a quarter of a CPU ----
# c's full pages cost the scan CPU (t's are nearly empty): a warm pass
# lasts seconds under the quota, tens of its periods, so that where a pass
# starts in a period (a period's quota left unspent before it) moves its
# rate by a few per cent, not the 20 % of a pass of four periods.
$lab->limit(0, 0.25);
# scan_rate is timed on both sides of the call (other work on the machine
# moves what a quarter of a CPU scans at while the test runs).
my $scan_rate = sub { (row("SELECT scan_mb_s FROM scan_rate('c', 'warm')"))[0]{scan_mb_s} };
my @rates = map { $scan_rate->() } 1 .. 2;
my ($cpu, $cerr) = row("SELECT * FROM scan_efficiency('c', 'warm', runs => 6, method => 'whole')");
push @rates, map { $scan_rate->() } 1 .. 2;
@rates = sort { $a <=> $b } @rates;
my @cm = marks($cpu->{verdict});
ok((grep { $_ eq 'cpu_limited' } @cm), "a quarter of a CPU: cpu_limited ($cpu->{verdict})");
# The kernel counts the time the quota holds the backend back as a wait
# for a CPU too: most of the wait must be known as the quota's, and any
# wait left to other processes is named beside it.
cmp_ok($cpu->{cpu_throttled_s}, '>=', 0.5 * $cpu->{cpu_wait_s},
	"... not blamed on other processes: $cpu->{cpu_throttled_s} s of the $cpu->{cpu_wait_s} s wait held back by the quota");
if (grep { $_ eq 'cpu_contended' } @cm)
{
	like($cerr, qr/held by other processes .*\n.*besides [\d.]+ s held back by its own CPU quota/,
		'... and only the rest is put down to other processes (the machine was busy)');
}
else
{
	unlike($cerr, qr/held by other processes/, '... in no message either');
}
like($cerr, qr/NOTICE:  the server's CPU quota of 25000 us per 100000 us \(0\.25 CPU/,
	'... a NOTICE names the quota');
# Within 15 % of the range scan_rate saw before and after; 25 % where the
# verdict says other processes held the CPU (CI runs two majors at once),
# which moves each call by its own share.  A rate from CPU time instead of
# wall time would be 4 times the range.
my $busy = grep { $_ eq 'cpu_contended' } @cm;
$d = $cpu->{scan_mb_s} < $rates[0] ? 100 * ($cpu->{scan_mb_s} - $rates[0]) / $rates[0]
  : $cpu->{scan_mb_s} > $rates[-1] ? 100 * ($cpu->{scan_mb_s} - $rates[-1]) / $rates[-1] : 0;
cmp_ok(abs($d), '<=', $busy ? 25 : 15,
	sprintf("... at the wall-clock rate: %s MB/s against scan_rate's %s to %s before and after (%+.1f %%%s)",
		$cpu->{scan_mb_s}, $rates[0], $rates[-1], $d, $busy ? ', the machine busy' : ''));
cmp_ok($cpu->{cpu_throttled_s}, '>', 0, "... held back $cpu->{cpu_throttled_s} s");
is($cpu->{cpu_quota_us} . '/' . $cpu->{cpu_period_us}, '25000/100000', '... the row names the quota');
my ($cbd) = row("SELECT * FROM scan_breakdown('c', 'warm')");
is($cbd->{cpu_quota_us} . '/' . $cbd->{cpu_period_us}, '25000/100000', 'scan_breakdown names the quota');
cmp_ok($cbd->{cpu_throttled_pct}, '>', 0, "... and the share of its pass it held back ($cbd->{cpu_throttled_pct} %)");

# Cold, a pass spends CPU in read() as well (the page cache, the copies),
# and meets the quota below the warm ceiling: the verdict must still say
# the quota held it back, from the CPU the passes used.
my ($cold, $colderr) = row("SELECT * FROM scan_efficiency('c', runs => 6, method => 'whole')");
ok((grep { $_ eq 'cpu_limited' } marks($cold->{verdict})),
	"a quarter of a CPU, cold: cpu_limited ($cold->{verdict}, scan $cold->{scan_mb_s} MB/s)");
like($colderr, qr/The scans used \d+ % of the CPU time the quota allows/,
	'... and its NOTICE says how much of the quota the scans used');
note($colderr);

my ($st_n, $st_s) = $lab->stat;
cmp_ok($st_s, '>=', $cpu->{cpu_throttled_s}, "the group's own cpu.stat ($st_s s) covers it");

$node->stop;
done_testing();
