# scanbench-probe against known answers: a server without the extension's
# help, its postmaster in a control group (t/SbLab.pm, tools/lab.sh) whose
# reads are capped and whose memory, page cache included, is limited.
# The cells are the table below; bench/probe.sh runs this file and prints
# the rows it notes ("# table |"), so the lab table in doc/lab.md and this
# test are one run of one definition.
#
# In every cell the table (about 1070 MB) is first put out of the page
# cache from outside, as other work would on a managed server, and the
# memory stated (--memory) is the group's limit:
#   - bytes: the group's reads capped at 125 MiB/s, a gp3 volume's
#     baseline, memory 96 MiB: pass 1 cold, at the cap within 10 %,
#     100 % +- 10 % of gp3 (bytes a second); pass 2 cold too, the table
#     not fitting in what the memory leaves the page cache;
#   - requests: the table on a lab disk (tools/lab-disk) serving 800
#     requests a second, its read-ahead Linux's default 128 kB, memory
#     96 MiB: pass 1 at 800 times the mean size of the requests the disk
#     served (its own counters) within 10 %, and, stated as a volume of
#     800 IOPS, 100 % +- 10 % of it, a limit of requests a second at the
#     request size the probe takes (the read-ahead's).  Not the group's
#     own request cap: its counters (blkio.throttle.io_serviced) count a
#     request once where its throttle charges each part a large one is
#     split into, so the size of what it limits is not known to 10 %;
#   - memory: the byte cap, memory 2 GiB: pass 1 at the cap, not shown
#     cold (the memory could have held the table); pass 2 warm.
# What each pass really was comes from the read counters: pass 2 read
# (nearly) the whole table from the disk, or (nearly) none of it.  The
# read rate per second of read wait within 10 % of the rate the cap
# allows (under io_method worker, the part of the pass the I/O workers did
# not overlap: at least 90 % of it), and the same server's
# scan_efficiency's scan_mb_s within 10 % of the client's figure.  On 15,
# and on 18 under io_method worker and sync (what RDS offers); the memory
# cell under worker alone: whether the page cache held the table does not
# depend on which process read it.  Up to
# three tries of a cell's first run, each reported: none may be above the
# cap, and one must be near it.  Skips where control groups cannot be
# written or a lab disk mounted; runs with PG_TEST_EXTRA=scanbench_slow
# (it times reads, and takes the lab lock).
use strict;
use warnings;
use File::Spec;
use FindBin;
use lib $FindBin::RealBin;
use JSON::PP;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use SbLab;
use SbClient;

plan skip_all => 'times reads in the lab: set PG_TEST_EXTRA=scanbench_slow'
  unless ($ENV{PG_TEST_EXTRA} // '') =~ /\bscanbench_slow\b/;
my $why = lab_why();
plan skip_all => "no lab here: $why" if defined $why;
$why = lab_disk_why();
plan skip_all => "no lab disk here: $why" if defined $why;

# name; the group's read cap, MiB/s; the lab disk's requests a second and
# read-ahead, kB, where the cell's table lies on it; the group's memory,
# MiB; what pass 2 is; the volume stated.
my @cells = (
	{ name => 'bytes', mib_s => 125, memory => 96, pass2 => 'cold', storage => 'gp3' },
	{ name => 'requests', iops => 800, ra_kb => 128, memory => 96, pass2 => 'cold', storage => 'lab:iops=800' },
	{ name => 'memory', mib_s => 125, memory => 2048, pass2 => 'warm', storage => 'gp3' },
);

my $probe = client_program('scanbench-probe');
my $profiles = File::Spec->rel2abs('bin/scanbench-probe/scanbench_storage_profiles.conf');

my $node = PostgreSQL::Test::Cluster->new('lab_probe');
$node->init;
$node->append_conf('postgresql.conf', "shared_buffers = 16MB\nautovacuum = off\nmax_wal_size = 4GB\n");
$node->start;
my $major = $node->safe_psql('postgres', q{SELECT current_setting('server_version_num')::int / 10000});

# About 1070 MB: over ten times what 96 MiB leaves the page cache beside
# shared buffers, so the probe, told the memory, can show both passes
# cold; a pass of 8 s at 125 MiB/s, a limiter's allowance after an idle
# gap a few per cent of it (t/090).  Not less memory: under io_method
# worker each I/O worker reads with a read-ahead window of its own (8 MB
# on the lab's VM), and in 48 MiB they evicted each other's, reading a
# fifth of the table twice.  Scanned through a ring, so little of
# it stays in shared buffers.  The same again on the lab disk.
my $disk = lab_disk_new();
my $ddir = $disk->dir;
$node->safe_psql('postgres', qq{
	CREATE EXTENSION scanbench;
	CREATE TABLESPACE lab LOCATION '$ddir';
	CREATE UNLOGGED TABLE t WITH (fillfactor = 10) AS SELECT g FROM generate_series(1, 3000000) g;
	CREATE UNLOGGED TABLE td WITH (fillfactor = 10) TABLESPACE lab AS SELECT * FROM t;
	VACUUM (FREEZE, ANALYZE) t, td;
	CHECKPOINT;
});
system('sync');

# Out of the page cache, as after other work: dd's nocache on its files.
sub evict
{
	my ($table) = @_;
	my $path = $node->safe_psql('postgres', "SELECT pg_relation_filepath('$table')");
	for my $f (glob($node->data_dir . "/$path"), glob($node->data_dir . "/$path.*"))
	{
		system('dd', "if=$f", 'iflag=nocache', 'count=0', 'status=none') == 0 or die "dd $f: $?";
	}
}

sub probe_json
{
	my ($out, $err) = ('', '');
	IPC::Run::run([ $probe, '-h', $node->host, '-p', $node->port, '-d', 'postgres',
		'--profiles', $profiles, '--format', 'json', @_ ], '<', \undef, '>', \$out, '2>', \$err);
	is($? >> 8, 0, 'the probe exits 0') or diag($err);
	return decode_json($out);
}

sub within
{
	my ($got, $want, $tol) = @_;
	return abs($got - $want) / $want <= $tol;
}

sub cell
{
	my ($config, $c) = @_;
	my $label = "$config, $c->{name}";
	my $table = $c->{iops} ? 'td' : 't';
	# Shared buffers emptied; the new postmaster is the one put in the
	# group, and its memory is charged there from now on.
	$node->restart;
	my $lab = lab_new($node);
	$lab->limit($c->{mib_s} // 0, 0);
	$lab->memory($c->{memory});
	$disk->set(latency_us => 0, depth => 0, iops => $c->{iops} // 0, mb_s => 0);
	my $ra0 = $disk->read_ahead_kb;
	$disk->read_ahead_kb($c->{ra_kb}) if $c->{ra_kb};
	# What the cell's table was read with from its disk: (requests, bytes).
	my $reads = $c->{iops}
	  ? sub { my $st = $disk->stat; return ($st->{reads}, $st->{read_bytes}); }
	  : sub { return $lab->reads; };
	my @common = ('-t', $table, '--storage', $c->{storage}, '--memory', "$c->{memory}MB");

	my (@rates, $best);
	for my $try (1 .. 3)
	{
		evict($table);
		my ($n0, $b0) = $reads->();
		my $j = probe_json(@common);
		my ($n1, $b1) = $reads->();
		my ($p1, $p2) = @{ $j->{passes} };
		# The known answers of this run: the rate the cap allows, and what
		# of pass 2 came from the disk (pass 1's blocks read all did: the
		# table was out of the page cache).
		my $req = ($b1 - $b0) / ($n1 - $n0);
		my $known = $c->{iops} ? $c->{iops} * $req / 1e6 : $c->{mib_s} * 1.048576;
		my $p2_disk = 100 * ($b1 - $b0 - 8192 * $p1->{read_blocks}) / (8192 * ($p2->{read_blocks} + $p2->{hit_blocks}));
		$j->{lab} = { known_mb_s => $known, request_kib => $req / 1024, pass2_disk_pct => $p2_disk };
		note(sprintf('%s, try %d: pass 1 %s %.1f MB/s (known %.1f; read wait %.1f MB/s, %.1f %% of %s), pass 2 %s %.1f MB/s, %.0f %% of it from the disk; requests of %.0f kB',
			$label, $try, $p1->{cache}, $p1->{scan_mb_s}, $known, $p1->{read_wait_mb_s} // -1,
			$p1->{volume_pct}, $c->{storage}, $p2->{cache}, $p2->{scan_mb_s}, $p2_disk, $req / 1024));
		note("pass 1: $p1->{why}");
		note("pass 2: $p2->{why}");
		push @rates, sprintf('%.1f/%.1f', $p1->{scan_mb_s}, $known);
		cmp_ok($p1->{scan_mb_s}, '<=', 1.10 * $known, "$label, try $try: pass 1 not above the cap");
		$best = $j if !defined $best
		  || abs($p1->{scan_mb_s} / $known - 1) < abs($best->{passes}[0]{scan_mb_s} / $best->{lab}{known_mb_s} - 1);
		last if within($p1->{scan_mb_s}, $known, 0.10);
	}
	my ($p1, $p2) = @{ $best->{passes} };
	my $known = $best->{lab}{known_mb_s};
	ok(within($p1->{scan_mb_s}, $known, 0.10),
		"$label: the scan rate $p1->{scan_mb_s} MB/s within 10 % of the cap's $known (@rates)");
	if ($config =~ /worker/)
	{
		cmp_ok($p1->{read_wait_mb_s}, '>=', 0.90 * $known,
			"$label: the read rate per second of wait $p1->{read_wait_mb_s} MB/s at least 90 % of it");
	}
	else
	{
		ok(within($p1->{read_wait_mb_s}, $known, 0.10),
			"$label: the read rate per second of wait $p1->{read_wait_mb_s} MB/s within 10 % of it");
	}

	# What each pass was, and what the probe called it.
	my $p2_disk = $best->{lab}{pass2_disk_pct};
	if ($c->{pass2} eq 'cold')
	{
		is($p1->{cache}, 'cold', "$label: pass 1, the table out of both caches and larger than the memory, cold");
		cmp_ok($p2_disk, '>=', 90, "$label: pass 2 read $p2_disk % of the table from the disk");
		is($p2->{cache}, 'cold', "$label: ... and is called cold");
	}
	else
	{
		is($p1->{cache}, 'unknown', "$label: pass 1, from the disk, neither warm nor cold: the memory could have held the table");
		cmp_ok($p2_disk, '<=', 10, "$label: pass 2 read $p2_disk % of the table from the disk");
		is($p2->{cache}, 'warm', "$label: ... and is called warm");
	}

	# The figure against the volume stated.
	if ($c->{iops})
	{
		is($p1->{limit_kind}, 'requests a second', "$label: the stated volume's requests bind");
		is($p1->{request_from}, 'the Linux default read-ahead, assumed', "$label: ... at the read-ahead's size");
		ok(within($best->{lab}{request_kib}, $c->{ra_kb}, 0.10),
			"$label: ... which the disk was sent: $best->{lab}{request_kib} kB on average");
	}
	else
	{
		is($p1->{limit_kind}, 'bytes a second', "$label: gp3's bytes bind");
	}
	cmp_ok(abs($p1->{volume_pct} - 100), '<=', 10, "$label: $p1->{volume_pct} % of the volume stated");
	is($p1->{verdict}, '{io_limited}', "$label: verdict io_limited") if $p1->{cache} eq 'cold';

	# The extension's figure on the same server, the caps still on, in
	# whole passes as the probe reads: its default 8 MB stretches each
	# start the kernel's read-ahead afresh, and under a cap of requests
	# they send smaller ones than a whole pass does.
	my $ext = $node->safe_psql('postgres', "SELECT scan_mb_s FROM scan_efficiency('$table', 'cold', method => 'whole')");
	note("$label: scan_efficiency's scan_mb_s $ext, the client's $p1->{scan_mb_s}");
	ok(within($p1->{scan_mb_s}, $ext, 0.10),
		"$label: the client's figure within 10 % of scan_efficiency's scan_mb_s ($ext)");

	# The row of the lab table (bench/probe.sh).
	note(sprintf('table | %s | %s | %s | %s | %.1f | %.1f | %.1f | %.1f %s | %s | %s (%.0f %% from disk) | %.1f |',
		$config, $c->{name},
		$c->{iops} ? sprintf('%d req/s (%.0f kB)', $c->{iops}, $best->{lab}{request_kib}) : "$c->{mib_s} MiB/s",
		$c->{memory} >= 1024 ? ($c->{memory} / 1024) . ' GiB' : "$c->{memory} MiB",
		$known, $p1->{scan_mb_s}, $p1->{read_wait_mb_s}, $p1->{volume_pct},
		$p1->{limit_kind} =~ /^requests/ ? 'req' : 'bytes',
		$p1->{cache}, $p2->{cache}, $p2_disk, $ext));
	$disk->set(latency_us => 0, depth => 0, iops => 0, mb_s => 0);
	$disk->read_ahead_kb($ra0);
	return $best;
}

my @configs = $major >= 18 ? (map { "$major $_" } qw(worker sync)) : ("$major");
for my $config (@configs)
{
	if ($config =~ / (\w+)$/)
	{
		my $method = $1;
		$node->safe_psql('postgres', "ALTER SYSTEM SET io_method = $method");
		$node->restart;
		is($node->safe_psql('postgres', 'SHOW io_method'), $method, "io_method = $method");
	}
	for my $c (@cells)
	{
		next if $c->{name} eq 'memory' && $config =~ / sync$/;
		my $j = cell($config, $c);
		my $p1 = $j->{passes}[0];
		if ($major >= 18)
		{
			cmp_ok(abs($p1->{io_read_bytes} - 8192 * $p1->{read_blocks}), '<=', 0.1 * 8192 * $p1->{read_blocks},
				"$config, $c->{name}: this session's pg_stat_io bytes are EXPLAIN's blocks read");
		}
	}
}

$node->stop;
done_testing();
