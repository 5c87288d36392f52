# Figures against known answers: the cluster in control groups that
# throttle its disk reads and cap its CPU (t/SbLab.pm, tools/lab.sh).
#   - A disk throttled to 100 MiB/s: raw reads at the limit; scan_efficiency
#     storage-limited, io_limited and never storage_not_limiting, near
#     100 %; a sampled call agrees with whole passes within 10 %; the limit
#     is in the row and in storage_info.
#   - A quarter of a CPU: a warm scan is cpu_limited, never blamed on other
#     processes, at the wall-clock rate scan_rate sees.
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
});

my $lab = lab_new($node);
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

my ($raw) = row("SELECT read_mb_s FROM raw_read('t', 'cold', 8192)");
cmp_ok($raw->{read_mb_s}, '<=', 1.1 * $limit, "raw read $raw->{read_mb_s} MB/s: not above the limit of $limit");
cmp_ok($raw->{read_mb_s}, '>=', 0.8 * $limit, '... and near it');

my ($whole, $werr) = row("SELECT * FROM scan_efficiency('t', runs => 6, method => 'whole', target_pct => 10)");
my @wm = marks($whole->{verdict});
ok((grep { $_ eq 'io_limited' } @wm), "whole passes: io_limited ($whole->{verdict})");
ok(!(grep { $_ eq 'storage_not_limiting' } @wm), '... never storage_not_limiting');
ok(!(grep { !/^(unstable|io_limited)$/ } @wm), '... and no other mark');
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

# ---- background load never lifts a rate above the limit ----
$lab->load_start;
($raw) = row("SELECT read_mb_s FROM raw_read('t', 'cold', 8192)");
cmp_ok($raw->{read_mb_s}, '<=', 1.1 * $limit, "loaded: raw read $raw->{read_mb_s} MB/s");
my ($scan) = row("SELECT scan_mb_s FROM scan_rate('t', 'cold')");
cmp_ok($scan->{scan_mb_s}, '<=', 1.1 * $limit, "loaded: scan_rate $scan->{scan_mb_s} MB/s");
my ($lp) = row("SELECT * FROM scan_efficiency('t', target_pct => 10, max_seconds => 30)");
cmp_ok($lp->{read_mb_s}, '<=', 1.1 * $limit, "loaded: sampled read $lp->{read_mb_s} MB/s");
cmp_ok($lp->{scan_mb_s}, '<=', 1.1 * $limit, "loaded: sampled scan $lp->{scan_mb_s} MB/s");
cmp_ok($lp->{cpu_wait_s}, '>=', 0, "loaded: the wait for a CPU is reported ($lp->{cpu_wait_s} s)");
$lab->load_stop;

# ---- a quarter of a CPU ----
$lab->limit(0, 0.25);
# scan_rate is timed on both sides of the call (other work on the machine
# moves what a quarter of a CPU scans at while the test runs).
my $scan_rate = sub { (row("SELECT scan_mb_s FROM scan_rate('t', 'warm')"))[0]{scan_mb_s} };
my @rates = map { $scan_rate->() } 1 .. 2;
my ($cpu, $cerr) = row("SELECT * FROM scan_efficiency('t', 'warm', runs => 6, method => 'whole')");
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
# Within 15 % of the range scan_rate saw before and after.
$d = $cpu->{scan_mb_s} < $rates[0] ? 100 * ($cpu->{scan_mb_s} - $rates[0]) / $rates[0]
  : $cpu->{scan_mb_s} > $rates[-1] ? 100 * ($cpu->{scan_mb_s} - $rates[-1]) / $rates[-1] : 0;
cmp_ok(abs($d), '<=', 15,
	sprintf("... at the wall-clock rate: %s MB/s against scan_rate's %s to %s before and after (%+.1f %%)",
		$cpu->{scan_mb_s}, $rates[0], $rates[-1], $d));
cmp_ok($cpu->{cpu_throttled_s}, '>', 0, "... held back $cpu->{cpu_throttled_s} s");
is($cpu->{cpu_quota_us} . '/' . $cpu->{cpu_period_us}, '25000/100000', '... the row names the quota');
my ($st_n, $st_s) = $lab->stat;
cmp_ok($st_s, '>=', $cpu->{cpu_throttled_s}, "the group's own cpu.stat ($st_s s) covers it");

$node->stop;
done_testing();
