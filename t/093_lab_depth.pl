# What set the rate, on storage as most servers have it:
# - a disk with a latency per request (t/SbLab.pm's lab disk): the device
#   read at depth is reported beside the one-at-a-time raw read, at or
#   above the scan's rate, the verdict says depth_limited and never
#   storage_not_limiting.  On 18 the read stream of a sequential scan
#   leaves depth to the kernel's read-ahead (two 128 kB requests in
#   flight on the lab disk, with io_method worker and io_uring alike), so
#   no major is asked to beat the dd-like read; each must beat one
#   request of that size at a time, and say in its NOTICE that depth set
#   the rate (PostgreSQL's read_stream.c: a sequential stream relies on
#   the kernel's read-ahead and looks no further ahead than
#   io_combine_limit);
# - a read throttle of requests a second (cgroup read_iops): io_limited,
#   its NOTICE naming the limit, and neither host_cache nor
#   storage_not_limiting.
# Skips, saying why, where FUSE or control groups are missing; runs with
# PG_TEST_EXTRA=scanbench_slow (it times reads, and takes the lab lock).
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

my $node = PostgreSQL::Test::Cluster->new('lab_depth');
$node->init;
$node->append_conf('postgresql.conf', "shared_buffers = 16MB\nautovacuum = off\n");
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION scanbench');
my $major = $node->safe_psql('postgres', q{SELECT current_setting('server_version_num')::int / 10000});
# From 18, as many I/O workers as effective_io_concurrency's 16, so that
# the workers are not what bounds the depth the scan keeps.
lab_io_workers($node, 16);

sub row
{
	my ($sql) = @_;
	my ($ret, $out, $err) = $node->psql('postgres', $sql);
	die "$sql: $err" if $ret;
	my %r;
	for (split /\n/, $out)
	{
		my ($k, $v) = split /\|/, $_, 2;
		$r{$k} = $v;
	}
	return (\%r, $err);
}

my $cols = q{read_mb_s, scan_mb_s, scan_pct, device_mb_s, device_pct,
	device_depth, verdict::text AS verdict};

SKIP:
{
	my $why = lab_disk_why();
	skip "no lab disk here: $why", 7 if defined $why;
	my $disk = lab_disk_new();
	my $dir = $disk->dir;

	# 64 MB: eight stretches, a few seconds of pairs at this latency.
	$node->safe_psql('postgres', qq{
		CREATE TABLESPACE lab LOCATION '$dir';
		CREATE UNLOGGED TABLE d (g int, pad text) TABLESPACE lab;
		INSERT INTO d SELECT g, repeat('x', 200) FROM generate_series(1, 250000) g;
		VACUUM (FREEZE) d;
		CHECKPOINT;
	});

	# 4 ms a request, 32 served at once: one 128 kB read-ahead request at
	# a time gets 33 MB/s, 8 reads of 1 MB in flight 2 GB/s (or what the
	# layer passes), 16 reads of 128 kB (18's read stream) 520 MB/s.
	$disk->set(latency_us => 4000, depth => 32, iops => 0, mb_s => 0);
	my ($r, $err) = row(qq{\\x on
		SELECT $cols FROM scan_efficiency('d', max_seconds => 30, target_pct => 0)});
	note(join(', ', map { "$_ $r->{$_}" } sort keys %$r));
	note($err);
	cmp_ok($r->{device_mb_s}, '>=', $r->{scan_mb_s},
		"latency: the device read at depth $r->{device_depth} ($r->{device_mb_s} MB/s) is no slower than the scan ($r->{scan_mb_s})");
	cmp_ok($r->{device_mb_s}, '>=', 1.5 * $r->{read_mb_s},
		'latency: the device read at depth is well above the one-at-a-time read');
	unlike($r->{verdict}, qr/storage_not_limiting/, "latency: not storage_not_limiting ($r->{verdict})");
	unlike($r->{verdict}, qr/host_cache/, 'latency: depth is not taken for a cache');
	like($r->{verdict}, qr/depth_limited/, 'latency: depth_limited');
	like($err, qr/latency at the depth the scan kept/, 'latency: the NOTICE says depth set the rate');
	# One request at a time, of the size the scan's read-ahead requests
	# have on this mount (128 kB): 32 MB/s at 4 ms.  The scan, read-ahead
	# keeping a second request in flight, beats it on every major.
	my $one = $node->safe_psql('postgres',
		q{SELECT read_mb_s FROM raw_read('d', 'direct', 131072, 1)});
	cmp_ok($r->{scan_mb_s}, '>', 1.3 * $one,
		"latency, $major: the scan ($r->{scan_mb_s} MB/s) beats one 128 kB request at a time ($one MB/s)");
	$disk->set(latency_us => 0, depth => 0, iops => 0, mb_s => 0);
}

SKIP:
{
	my $why = lab_why();
	skip "no control groups here: $why", 6 if defined $why;
	# 50 requests a second: with the read-ahead requests of a few MB a
	# virtual disk takes, about 200 MB/s, below what a scan's CPU gets, so
	# that the throttle, not the CPU, sets both sides' rates.
	$node->safe_psql('postgres', q{
		CREATE UNLOGGED TABLE q (g int, pad text);
		INSERT INTO q SELECT g, repeat('x', 200) FROM generate_series(1, 600000) g;
		VACUUM (FREEZE) q;
		CHECKPOINT;
	});
	my $lab = lab_new($node);
	$lab->limit(0, 0, 50);
	my ($r, $err) = row(qq{\\x on
		SELECT $cols, read_iops_limit FROM scan_efficiency('q', max_seconds => 30, target_pct => 0)});
	note(join(', ', map { "$_ $r->{$_}" } sort keys %$r));
	note($err);
	is($r->{read_iops_limit}, 50, 'iops: the limit is read');
	like($r->{verdict}, qr/io_limited/, "iops: io_limited ($r->{verdict})");
	like($err, qr/50 requests\/s .* set the read rate/, 'iops: the NOTICE names the limit');
	unlike($r->{verdict}, qr/host_cache|storage_not_limiting/, 'iops: the O_DIRECT reads are not compared by bytes');

	# random_read drains the throttle's first allowance before timing:
	# 100 reads at 50 a second, one at a time and 16 in flight.  One at a
	# time, each read's wake-up adds to the throttle's 20 ms, and another
	# run's work on the CPUs can make that a millisecond or two: up to
	# three calls, each reported, the last one judged.
	for my $depth (1, 16)
	{
		my @tries;
		for my $try (1 .. 3)
		{
			push @tries, $node->safe_psql('postgres',
				"SELECT iops FROM random_read('q', 'cold', 100, 8192, $depth)");
			last if abs($tries[-1] - 50) / 50 <= 0.05;
			diag("random_read at depth $depth: $tries[-1] of 50 a second, more than 5 % off; trying again")
			  if $try < 3;
		}
		cmp_ok(abs($tries[-1] - 50) / 50, '<=', 0.05,
			"iops: random_read at depth $depth gets the limit, $tries[-1] of 50 a second (tries: @tries)");
	}
	$lab->limit(0, 0, 0);
}

$node->stop;
done_testing();
