# A relation of several segment files (over 1 GB): every byte and row is
# measured, O_DIRECT works where the filesystem allows it, and
# statement_timeout stops raw_read and scan_rate mid-way without leaving a
# file descriptor open.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib $FindBin::RealBin;
use ScanbenchFds;
use Time::HiRes qw(time);

# 1.2 GB written and read several times, and a wall-clock limit: contrib's
# way of keeping such tests out of a plain make installcheck.
plan skip_all => 'writes a 1.2 GB table and times a cancel: set PG_TEST_EXTRA=scanbench_slow'
  unless ($ENV{PG_TEST_EXTRA} // '') =~ /\bscanbench_slow\b/;

my $node = PostgreSQL::Test::Cluster->new('segments');
$node->init;
$node->append_conf('postgresql.conf', "shared_buffers = 64MB\nmax_wal_size = 4GB\n");
$node->start;

# fillfactor 10 makes 1.2 GB out of 3.5 M small rows, quickly.
$node->safe_psql('postgres', q{
	CREATE EXTENSION scanbench;
	CREATE UNLOGGED TABLE big WITH (fillfactor = 10) AS
		SELECT g FROM generate_series(1, 3500000) g;
	VACUUM (FREEZE, ANALYZE) big;
});
my $size = $node->safe_psql('postgres', "SELECT pg_relation_size('big')");
my $count = $node->safe_psql('postgres', "SELECT count(*) FROM big");
cmp_ok($size, '>', 1024 * 1024 * 1024, "big is over 1 GB ($size bytes)");

my ($segs, $bytes, $reads) = split /\|/, $node->safe_psql('postgres',
	"SELECT segments, bytes, reads FROM raw_read('big')");
is($segs, 2, 'two segment files');
is($bytes, $size, 'raw_read bytes = pg_relation_size');
is($reads, $size / 8192, 'one read per 8 kB block');

my @files = split /\n/, $node->safe_psql('postgres',
	"SELECT segno, bytes, path FROM raw_read_segments('big', 'warm', 1048576) ORDER BY segno");
is(scalar(@files), 2, 'raw_read_segments: a row per file');
my ($s0, $b0, $p0) = split /\|/, $files[0];
my ($s1, $b1, $p1) = split /\|/, $files[1];
is($b0, 1024 * 1024 * 1024, 'segment 0 is a full gigabyte');
is($b0 + $b1, $size, 'segments add up to the relation');
is($p1, "$p0.1", 'segment 1 is the .1 file');

my ($rows, $pages, $sbytes) = split /\|/, $node->safe_psql('postgres',
	"SELECT rows, pages, bytes FROM scan_rate('big')");
is($rows, $count, 'scan_rate rows = count(*)');
is($sbytes, $size, 'scan_rate bytes = pg_relation_size');
is($pages * 8192, $size, 'pages * BLCKSZ');

($rows, $bytes) = split /\|/, $node->safe_psql('postgres',
	"SELECT rows, bytes FROM scan_efficiency('big', 'cold', method => 'whole')");
is($rows, $count, 'scan_efficiency rows = count(*)');
is($bytes, $size, 'scan_efficiency bytes = pg_relation_size');
# Stretches of both segment files, all of them: every row once.
my $cover;
($rows, $cover) = split /\|/, $node->safe_psql('postgres',
	"SELECT rows, coverage_pct FROM scan_efficiency('big', 'warm', target_pct => 0)");
is($rows, $count, 'scan_efficiency pairs, full coverage: rows = count(*)');
is($cover, 100, '... coverage 100 %');

# O_DIRECT: real reads of every byte, or a clear refusal.
my ($ret, $out, $err) = $node->psql('postgres',
	"SELECT bytes, reads FROM raw_read('big', 'direct', 1048576)");
if ($ret == 0)
{
	my ($db, $dr) = split /\|/, $out;
	is($db, $size, 'direct: every byte');
	is($dr, int(($size + 1048575) / 1048576), 'direct: 1 MB reads');
}
else
{
	like($err, qr/refuses O_DIRECT/, 'direct: a clear refusal on this filesystem');
	pass('direct: skipped the byte count');
}

# Cancel: statement_timeout mid-call.  A session of its own, so that its
# file descriptors can be counted before and after.
# Descriptors a backend holds on big's files.  The server's own file cache
# (md.c) keeps at most one per segment; one of ours left behind would be a
# second.
my $filenode = $node->safe_psql('postgres', "SELECT pg_relation_filenode('big')");

my ($session, $pid) = fd_session($node);
# The server keeps relation files open in its own file cache (md.c): take
# the baseline after complete calls, so that only descriptors of ours count.
$session->query_safe("SELECT bytes FROM raw_read('big', 'asis', 1048576)");
$session->query_safe("SELECT rows FROM scan_efficiency('big', 'asis')");
my $fds_before = open_fds($pid, qr{/$filenode(\.\d+)?$});
ok($fds_before <= 2, "backend $pid has $fds_before descriptors on big's files");

# 512-byte direct reads of 1.2 GB would take minutes; warm 512-byte reads
# several seconds.  Either way the timeout must stop it at once.
my $mode = $ret == 0 ? 'direct' : 'warm';
for my $call ("raw_read('big', '$mode', 512)",
	"scan_rate('big', 'warm', 'sum(length(repeat(g::text, 500)))')",
	"scan_efficiency('big', 'warm', 512, 1000)")
{
	my $t0 = time();
	$session->query("SET statement_timeout = '300ms'; SELECT * FROM $call");
	my $elapsed = time() - $t0;
	# psql's stderr may arrive with the next query's output.
	my $stderr = $session->{stderr};
	$session->query("RESET statement_timeout");
	$stderr .= $session->{stderr};
	like($stderr, qr/canceling statement due to statement timeout/,
		"$call: cancelled by statement_timeout");
	cmp_ok($elapsed, '<', 3, sprintf("%s: stopped within %.2f s", $call, $elapsed));
	is(open_fds($pid, qr{/$filenode(\.\d+)?$}), $fds_before, "$call: no descriptor left open");
}
$session->quit;

$node->stop;
done_testing();
