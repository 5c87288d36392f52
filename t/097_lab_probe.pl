# scanbench-probe against known answers: a server without the extension's
# help, in a control group (t/SbLab.pm, tools/lab.sh) whose reads are
# capped and whose memory, page cache included, is limited.  The cells
# are the table below; bench/probe.sh runs this file and prints the rows
# it notes ("# table |"), so the lab table in doc/lab.md and this test
# are one run of one definition.
#
# In every cell the table (about 520 MB) is first put out of the page
# cache from outside, as other work would on a managed server, and the
# memory stated (--memory) is the group's limit:
#   - bytes: reads capped at 125 MiB/s, a gp3 volume's baseline, memory
#     48 MiB: pass 1 cold, at the cap within 10 %, 100 % +- 10 % of gp3
#     (bytes a second); pass 2 cold too, the table not fitting in what
#     the memory leaves the page cache;
#   - requests: reads capped at 25 requests a second and no byte cap,
#     memory 48 MiB: pass 1 at 25 times the mean size of the requests the
#     group sent (the group's own counters: the kernel's read-ahead sets
#     it, not the server), within 10 %; stated as a volume of 25 IOPS it
#     is never called warm for running above 25 requests of the size
#     assumed, and with --request-kib at the size the group sent it is
#     100 % +- 10 % of the volume, a limit of requests a second;
#   - memory: the byte cap, memory 1 GiB: pass 1 at the cap, not shown
#     cold (the memory could have held the table); pass 2 warm.
# What each pass really was comes from the group's read counters: pass 2
# read (nearly) the whole table from the disk, or (nearly) none of it.
# The read rate per second of read wait within 10 % of the rate the cap
# allows (under io_method worker, the part of the pass the I/O workers did
# not overlap: at least 90 % of it), and the same server's
# scan_efficiency's scan_mb_s within 10 % of the client's figure.  On 15,
# and on 18 under io_method worker and sync (what RDS offers).  Up to
# three tries of a cell's first run, each reported: none may be above the
# cap, and one must be near it.  Skips where control groups cannot be
# written; runs with PG_TEST_EXTRA=scanbench_slow (it times reads, and
# takes the lab lock).
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

# name, read MiB/s, read requests/s, memory MiB, pass 2, storage stated
my @cells = (
	[ 'bytes', 125, 0, 48, 'cold', 'gp3' ],
	[ 'requests', 0, 25, 48, 'cold', 'lab:iops=25' ],
	[ 'memory', 125, 0, 1024, 'warm', 'gp3' ],
);

my $probe = client_program('scanbench-probe');
my $profiles = File::Spec->rel2abs('bin/scanbench-probe/scanbench_storage_profiles.conf');

my $node = PostgreSQL::Test::Cluster->new('lab_probe');
$node->init;
$node->append_conf('postgresql.conf', "shared_buffers = 16MB\nautovacuum = off\nmax_wal_size = 4GB\n");
$node->start;
my $major = $node->safe_psql('postgres', q{SELECT current_setting('server_version_num')::int / 10000});

# About 520 MB: over ten times what 48 MiB leaves the page cache beside
# shared buffers, so the probe, told the memory, can show both passes
# cold; a pass of 4 s at 125 MiB/s, a limiter's allowance after an idle
# gap a few per cent of it (t/090).  Scanned through a ring, so little of
# it stays in shared buffers.
$node->safe_psql('postgres', q{
	CREATE EXTENSION scanbench;
	CREATE UNLOGGED TABLE t WITH (fillfactor = 10) AS SELECT g FROM generate_series(1, 1600000) g;
	VACUUM (FREEZE, ANALYZE) t;
	CHECKPOINT;
});
system('sync');
my $path = $node->safe_psql('postgres', q{SELECT pg_relation_filepath('t')});

# Out of the page cache, as after other work: dd's nocache on its files.
sub evict
{
	for my $f (glob($node->data_dir . "/$path"), glob($node->data_dir . "/$path.*"))
	{
		system('dd', "if=$f", 'iflag=nocache', 'count=0', 'status=none') == 0 or die "dd $f: $?";
	}
}

sub probe_json
{
	my ($out, $err) = ('', '');
	IPC::Run::run([ $probe, '-h', $node->host, '-p', $node->port, '-d', 'postgres', '-t', 't',
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
	my ($config, $name, $mib, $iops, $mem, $pass2, $storage) = @_;
	my $label = "$config, $name";
	# Shared buffers emptied; the new postmaster is the one put in the
	# group, and its memory is charged there from now on.
	$node->restart;
	my $lab = lab_new($node);
	$lab->limit($mib, 0, $iops);
	$lab->memory($mem);
	my @common = ('--storage', $storage, '--memory', "${mem}MB");

	my (@rates, $best);
	for my $try (1 .. 3)
	{
		evict();
		my ($n0, $b0) = $lab->reads;
		my $j = probe_json(@common);
		my ($n1, $b1) = $lab->reads;
		my ($p1, $p2) = @{ $j->{passes} };
		# The known answers of this run: the requests the group sent, and
		# what of pass 2 came from the disk (pass 1's blocks read all did:
		# the table was out of the page cache).
		my $req = ($b1 - $b0) / ($n1 - $n0);
		my $known = $iops ? $iops * $req / 1e6 : $mib * 1.048576;
		my $p2_disk = 100 * ($b1 - $b0 - 8192 * $p1->{read_blocks}) / (8192 * ($p2->{read_blocks} + $p2->{hit_blocks}));
		$j->{lab} = { known_mb_s => $known, request_kib => $req / 1024, pass2_disk_pct => $p2_disk };
		note(sprintf('%s, try %d: pass 1 %s %.1f MB/s (known %.1f; read wait %.1f MB/s, %.1f %% of %s), pass 2 %s %.1f MB/s, %.0f %% of it from the disk; requests of %.0f kB',
			$label, $try, $p1->{cache}, $p1->{scan_mb_s}, $known, $p1->{read_wait_mb_s} // -1,
			$p1->{volume_pct}, $storage, $p2->{cache}, $p2->{scan_mb_s}, $p2_disk, $req / 1024));
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
	if ($pass2 eq 'cold')
	{
		is($p1->{cache}, 'cold', "$label: pass 1, the table out of both caches and larger than the memory, cold");
		cmp_ok($p2_disk, '>=', 90, "$label: pass 2 read $p2_disk % of the table from the disk");
		is($p2->{cache}, 'cold', "$label: ... and is called cold");
	}
	else
	{
		isnt($p1->{cache}, 'warm', "$label: pass 1, from the disk, not called warm");
		is($p1->{cache}, 'unknown', "$label: ... nor cold, the memory large enough to have held the table");
		cmp_ok($p2_disk, '<=', 10, "$label: pass 2 read $p2_disk % of the table from the disk");
		is($p2->{cache}, 'warm', "$label: ... and is called warm");
	}

	# The figure against the volume stated.
	my $fig = $p1;
	if ($iops)
	{
		is($p1->{limit_kind}, 'requests a second', "$label: the stated volume's requests bind");
		like($p1->{note} // '', qr/either a cache served some of them or the volume was sent larger requests/,
			"$label: above them at the size assumed, and said so rather than called warm");
		# Stated at the size the group sent, the limit is the cap.
		evict();
		my $j = probe_json(@common, '--passes', '1', '--request-kib', sprintf('%.0f', $best->{lab}{request_kib}));
		$fig = $j->{passes}[0];
		note(sprintf('%s, at --request-kib %.0f: %.1f MB/s, %.1f %% of %.1f MB/s (%s), %s',
			$label, $best->{lab}{request_kib}, $fig->{scan_mb_s}, $fig->{volume_pct}, $fig->{limit_mb_s},
			$fig->{limit_kind}, $fig->{cache}));
		is($fig->{limit_kind}, 'requests a second', "$label: at the size sent, a limit of requests a second");
		is($fig->{cache}, 'cold', "$label: ... the pass cold");
	}
	else
	{
		is($p1->{limit_kind}, 'bytes a second', "$label: gp3's bytes bind");
	}
	cmp_ok(abs($fig->{volume_pct} - 100), '<=', 10, "$label: $fig->{volume_pct} % of the volume stated");
	is($fig->{verdict}, '{io_limited}', "$label: verdict io_limited") if $fig->{cache} eq 'cold';

	# The extension's figure on the same server, the caps still on.
	my $ext = $node->safe_psql('postgres', q{SELECT scan_mb_s FROM scan_efficiency('t', 'cold', max_seconds => 30)});
	note("$label: scan_efficiency's scan_mb_s $ext, the client's $p1->{scan_mb_s}");
	ok(within($p1->{scan_mb_s}, $ext, 0.10),
		"$label: the client's figure within 10 % of scan_efficiency's scan_mb_s ($ext)");

	# The row of the lab table (bench/probe.sh).
	note(sprintf('table | %s | %s | %s | %s | %.1f | %.1f | %.1f | %.1f %s | %s | %s (%.0f %% from disk) | %.1f |',
		$config, $name,
		$iops ? sprintf('%d req/s (%.0f kB)', $iops, $best->{lab}{request_kib}) : "$mib MiB/s",
		$mem >= 1024 ? ($mem / 1024) . ' GiB' : "$mem MiB",
		$known, $p1->{scan_mb_s}, $p1->{read_wait_mb_s}, $fig->{volume_pct},
		$fig->{limit_kind} =~ /^requests/ ? 'req' : 'bytes',
		$p1->{cache}, $p2->{cache}, $p2_disk, $ext));
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
		my $j = cell($config, @$c);
		my $p1 = $j->{passes}[0];
		if ($major >= 18)
		{
			cmp_ok(abs($p1->{io_read_bytes} - 8192 * $p1->{read_blocks}), '<=', 0.1 * 8192 * $p1->{read_blocks},
				"$config, $c->[0]: this session's pg_stat_io bytes are EXPLAIN's blocks read");
		}
	}
}

$node->stop;
done_testing();
