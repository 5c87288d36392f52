# scan_advice against known answers, in the truth bench's lab (t/SbLab.pm,
# tools/lab.sh): the cluster in control groups that throttle its disk reads
# and cap its CPU, initialised with data checksums, which cost CPU on every
# page read into shared buffers.
#   - A disk throttled to 50 MiB/s: no CPU advice, and no predicted gain
#     that would take the scan above the throttle; on 18, io_combine_limit
#     at its cap names io_max_combine_limit, a restart, as the limit.
#   - A CPU-bound warm scan with a second CPU free: a parallel worker is
#     measured to help, and its gain agrees within 15 % with scan_rate run
#     with and without the worker.
#   - Half a CPU: the quota, not the worker count, is named as the limit,
#     with the command that lifts it.
#   - In every cell, a candidate that needs a restart, a reload or root is
#     predicted, never measured, and says so.
# Skips where control groups cannot be written (tools/test.sh hands the
# postgres user a group to make them in, as root).
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use JSON::PP;
use FindBin;
use lib $FindBin::RealBin;
use SbLab;

my $why = lab_why();
plan skip_all => "no lab here: $why" if defined $why;

my $node = PostgreSQL::Test::Cluster->new('advice');
$node->init(extra => ['--data-checksums']);
# No workers unless asked: the planner's choice is the current setting.
$node->append_conf('postgresql.conf',
	"shared_buffers = 32MB\nmax_parallel_workers_per_gather = 0\n");
$node->start;
my $major = $node->safe_psql('postgres', 'SHOW server_version_num') / 10000;

# t: fillfactor 10, few rows a page, cheap to scan: the disk limits it.
# n: narrow rows, many a page, costly to scan: the CPU limits it warm.
$node->safe_psql('postgres', q{
	CREATE EXTENSION scanbench;
	CREATE UNLOGGED TABLE t WITH (fillfactor = 10) AS
		SELECT g FROM generate_series(1, 150000) g;
	CREATE UNLOGGED TABLE n AS SELECT g FROM generate_series(1, 3000000) g;
	VACUUM (FREEZE, ANALYZE) t;
	VACUUM (FREEZE, ANALYZE) n;
});

my $lab = lab_new($node);

# The rows of a scan_advice call, as hashes.
sub advice
{
	my ($args) = @_;
	my $json = $node->safe_psql('postgres',
		"SELECT coalesce(json_agg(a), '[]') FROM scan_advice($args) a");
	my $rows = decode_json($json);
	note(join("\n", map {
		sprintf("%s %s -> %s: gain %s [%s, %s] %s, %s; %s",
			$_->{setting}, $_->{current} // '', $_->{value}, $_->{gain} // 'NULL',
			$_->{gain_lo} // '', $_->{gain_hi} // '',
			$_->{measured} ? 'measured' : 'predicted', $_->{cost}, $_->{basis})
	} @$rows));
	return @$rows;
}

sub median { my @v = sort { $a <=> $b } @_; return $v[int(@v / 2)]; }

# What every cell must show of the candidates it cannot try.
sub never_measured
{
	my ($cell, @rows) = @_;
	for my $r (grep { $_->{cost} =~ /^(restart|reload|root)$/ } @rows)
	{
		ok(!$r->{measured} && $r->{pairs} == 0 && $r->{basis} =~ /^(predicted|not predicted)/,
			"$cell: $r->{setting} needs $r->{cost}: predicted, never measured, and says so");
		ok(!defined $r->{gain_lo}, "$cell: ... with no measured interval");
	}
}

# ---- a throttled disk ----
my $mib = 50;
my $limit = $mib * 1.048576;	# MB/s
$lab->limit($mib, 0);

my $scan = median(map {
	$node->safe_psql('postgres', "SELECT scan_mb_s FROM scan_rate('t', 'cold')") } 1 .. 3);
my @io = advice("'t', 'cold', max_seconds => 25");
ok(!(grep { $_->{setting} =~ /^(max_parallel_workers_per_gather|cpu\.|data_checksums)/ } @io),
	'storage-limited: no CPU advice');
for my $r (grep { defined $_->{gain} } @io)
{
	cmp_ok($r->{gain} * $scan, '<=', 1.15 * $limit,
		"storage-limited: $r->{setting} gain $r->{gain} takes the scan ($scan MB/s) no higher than the throttle's $limit MB/s");
}
my ($thr) = grep { $_->{setting} =~ /^(io\.max rbps|blkio\.throttle\.read_bps_device)$/ } @io;
ok($thr, 'the throttle is named');
if ($thr)
{
	is($thr->{current}, $mib * 1048576, '... with its bytes/s');
	ok(!defined $thr->{gain}, '... and no gain, the device being unmeasurable under it');
	like($thr->{command}, qr{^echo '\d+:\d+ (rbps=max|0)' > /\S+/(io\.max|blkio\.throttle\.read_bps_device)$},
		"... and the command that lifts it: $thr->{command}");
}
if ($major >= 18)
{
	my ($cap) = grep { $_->{setting} eq 'io_max_combine_limit' } @io;
	ok($cap && $cap->{cost} eq 'restart' && $cap->{basis} =~ /at its cap io_max_combine_limit/,
		'18: io_combine_limit at its cap names io_max_combine_limit, a restart');
}
never_measured('storage-limited', @io);

# ---- a CPU-bound scan with a second CPU free ----
# Other work on the machine would take the second CPU: the group runs
# first, so that the CPU is as free for the advice as for scan_rate.
$lab->limit(0, 0);
$lab->weight(100);
my $cpus = `nproc`;
chomp $cpus;
SKIP:
{
	skip "one CPU: no worker can run beside the scan", 5 if $cpus < 2;
	# The advice, then the same comparison by hand with scan_rate,
	# alternating.  Whether the second CPU is free is the host's doing, and
	# another run on the machine (CI runs two majors at once) can take it
	# for one of the two and not the other: a second try, both reported.
	my (@cpu, $par, $real, $d);
	for my $try (1 .. 2)
	{
		@cpu = advice("'n', 'warm', max_seconds => 25");
		($par) = grep { $_->{setting} eq 'max_parallel_workers_per_gather' } @cpu;
		last unless $par && $par->{measured};
		my (@without, @with);
		for my $i (1 .. 7)
		{
			push @without, $node->safe_psql('postgres', "SELECT scan_mb_s FROM scan_rate('n', 'warm')");
			push @with, $node->safe_psql('postgres',
				"SELECT scan_mb_s FROM scan_rate('n', 'warm', 'count(1)', $par->{value})");
		}
		$real = median(@with) / median(@without);
		$d = 100 * ($par->{gain} - $real) / $real;
		last if abs($d) <= 15;
		note(sprintf("try %d: the measured gain %.2f against scan_rate's %.2f (%+.1f %%)",
			$try, $par->{gain}, $real, $d));
	}
	ok($par, 'CPU-bound with a CPU free: parallel workers are a candidate')
		or skip 'no parallel row', 5;
	is($par->{current}, '0', '... from none');
	ok($par->{measured} && $par->{pairs} > 0, "... measured, in $par->{pairs} pairs")
		or skip 'not measured', 3;
	is($par->{command}, "SET max_parallel_workers_per_gather = $par->{value}", '... with the command');
	cmp_ok(abs($d), '<=', 15,
		sprintf("... the measured gain %.2f agrees with scan_rate's %.2f (%+.1f %%)",
			$par->{gain}, $real, $d));
	# Whether the second CPU is free is the host's doing (other work on
	# it takes the worker's CPU): where the reference runs say a worker
	# helps, the advice must say so too.
	if ($real >= 1.15)
	{
		cmp_ok($par->{gain}, '>', 1.0, "... and they help, as scan_rate says ($real): gain $par->{gain}");
	}
	else
	{
		note("scan_rate says a worker does not help now ($real): the second CPU is busy");
	}
	never_measured('CPU-bound', @cpu);
}

$lab->weight(1);

# ---- half a CPU ----
$lab->limit(0, 0.5);
my @q = advice("'n', 'warm', max_seconds => 20");
my ($quota) = grep { $_->{setting} =~ /^(cpu\.max|cpu\.cfs_quota_us)$/ } @q;
ok($quota, 'half a CPU: the quota is a candidate');
ok(!(grep { $_->{setting} eq 'max_parallel_workers_per_gather' } @q),
	'... and the worker count is not');
if ($quota)
{
	like($quota->{basis}, qr/quota of 0\.50 CPU is the limit, not the worker count/,
		'... it says the quota is the limit');
	is($quota->{cost}, 'root', '... which takes root to lift');
	like($quota->{command}, qr{^echo (-1|'max 100000') > /\S+/(cpu\.cfs_quota_us|cpu\.max)$},
		"... with the command: $quota->{command}");
	cmp_ok($quota->{gain}, '>', 1.0, "... predicted to help: at most $quota->{gain}");
}
my ($sum) = grep { $_->{setting} eq 'data_checksums' } @q;
ok($sum, 'data checksums on a CPU-bound scan are a candidate');
is($sum && $sum->{cost}, 'restart', '... needing a restart');
never_measured('half a CPU', @q);

$node->stop;
done_testing();
