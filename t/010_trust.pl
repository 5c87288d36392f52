# scan_efficiency's verdict and bounds.  A segment mapped by another
# process makes a cold call "cached", with a WARNING; a warm scan, which
# runs at the executor's CPU speed, is "storage_not_limiting"; sample and
# target_pct stop the sampling; every run measures the same blocks on both
# sides while rows are inserted; memory stays flat in runs.  With
# PG_TEST_EXTRA=scanbench_slow, also the timing-sensitive part: the budget
# is kept within 10 %, and cancel and statement_timeout stop a call within
# a second without leaving a file open.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib $FindBin::RealBin;
use ScanbenchFds;
use IPC::Run;
use Time::HiRes qw(time sleep);

my $slow = ($ENV{PG_TEST_EXTRA} // '') =~ /\bscanbench_slow\b/;

my $node = PostgreSQL::Test::Cluster->new('trust');
$node->init;
$node->append_conf('postgresql.conf', "shared_buffers = 64MB\nmax_wal_size = 4GB\n");
$node->start;

# fillfactor 10: about 100 MB, a dozen stretches of 8 MB, made quickly.
$node->safe_psql('postgres', q{
	CREATE EXTENSION scanbench;
	CREATE UNLOGGED TABLE t WITH (fillfactor = 10) AS
		SELECT g FROM generate_series(1, 300000) g;
	VACUUM (FREEZE, ANALYZE) t;
});
my $stretches = $node->safe_psql('postgres',
	"SELECT ceil(pg_relation_size('t') / 8388608.0)");
cmp_ok($stretches, '>=', 11, "t holds $stretches stretches");

# Run a query; return its output and its messages.
sub call
{
	my ($sql) = @_;
	my ($ret, $out, $err) = $node->psql('postgres', $sql);
	is($ret, 0, "$sql: runs") or diag($err);
	return ($out, $err);
}

# ---- storage_not_limiting: a warm scan runs at its own warm rate ----
my ($out, $err) = call("SELECT verdict FROM scan_efficiency('t', 'warm')");
like($out, qr/[{,]storage_not_limiting\}$/, "warm: verdict $out");
like($err, qr/NOTICE:  storage is not what limits this scan/, 'warm: a NOTICE says so');
is(() = $err =~ /storage is not what limits/g, 1, '... once');

# ---- sample, target_pct ----
($out) = call("SELECT pairs, coverage_pct FROM scan_efficiency('t', 'asis', sample => 0.25, target_pct => 0)");
my ($pairs, $cover) = split /\|/, $out;
cmp_ok($cover, '<=', 25, "sample 0.25: $cover % covered");
cmp_ok($pairs, '>=', 1, "... in $pairs pairs");

# A wide target: the call stops as soon as the interval is within it (after
# 10 pairs at least), or reads everything.
($out) = call("SELECT pairs, coverage_pct, verdict FROM scan_efficiency('t', 'warm', target_pct => 100)");
my ($tp, $tc, $tv) = split /\|/, $out;
cmp_ok($tp, '>=', 10, "a wide target: $tp pairs, no fewer than 10");
if ($tc < 100)
{
	unlike($tv, qr/unstable/, "stopped at $tc %: the interval was within the target ($tv)");
}
else
{
	pass("read all of it: the interval was within the target at the last stretch or never ($tv)");
}

($out) = call("SELECT pairs, coverage_pct FROM scan_efficiency('t', 'asis', target_pct => 0)");
is($out, "$stretches|100", 'target_pct 0: every stretch, all of the relation');

# ---- cached: another process holds a segment mapped ----
SKIP:
{
	skip 'python3 is needed to map a file from another process', 6
	  unless system('python3 -c "import mmap" 2>/dev/null') == 0;

	my $path = $node->data_dir . '/'
	  . $node->safe_psql('postgres', "SELECT pg_relation_filepath('t')");
	# Maps the file, touches every page, then holds it until killed.
	my $py = q{
import mmap, sys, time
f = open(sys.argv[1], 'rb')
m = mmap.mmap(f.fileno(), 0, prot=mmap.PROT_READ)
s = sum(m[i] for i in range(0, len(m), 4096))
print('ready', flush=True)
time.sleep(600)
};
	my ($hin, $hout, $herr) = ('', '', '');
	my $helper = IPC::Run::start([ 'python3', '-c', $py, $path ],
		\$hin, \$hout, \$herr, IPC::Run::timeout(300));
	$helper->pump until $hout =~ /ready/;

	($out, $err) = call("SELECT verdict, read_cached_pct FROM scan_efficiency('t', sample => 0.5)");
	my ($verdict, $cached) = split /\|/, $out;
	like($verdict, qr/[{,]cached[,}]/, "mapped by another process: verdict $verdict");
	cmp_ok($cached, '>', 5, "... $cached % was still cached after eviction");
	like($err, qr/WARNING:  cold measurement found [\d.]+ % of the blocks still cached after eviction/,
		'... and a WARNING says so');

	$helper->kill_kill;
	($out) = call("SELECT verdict FROM scan_efficiency('t', sample => 0.5)");
	unlike($out, qr/cached/, "unmapped: not cached ($out)");
}

# ---- the same blocks on both sides while rows are inserted ----
# Rows of one integer: at most $per_page on a page.  Before the scans were
# limited to the blocks fixed at the start, rows from the growing end of the
# table were counted against bytes that did not hold them.
$node->safe_psql('postgres', q{
	CREATE TABLE u AS SELECT g FROM generate_series(1, 400000) g;
	VACUUM (FREEZE, ANALYZE) u;
});
my $per_page = $node->safe_psql('postgres',
	"SELECT max(n) FROM (SELECT count(*) n FROM u GROUP BY (ctid::text::point)[0]) s");
my $inserter = IPC::Run::start(
	[
		'psql', '-X', '-q', '-d', $node->connstr('postgres'), '-c',
		'DO $$ BEGIN FOR i IN 1..2000 LOOP INSERT INTO u SELECT g FROM generate_series(1, 5000) g; COMMIT; END LOOP; END $$'
	],
	'>', '/dev/null', '2>', '/dev/null', IPC::Run::timeout(600));
sleep(0.5);
for my $method ('whole', 'pairs')
{
	my $args = $method eq 'whole' ? "runs => 8, method => 'whole'" : "target_pct => 0";
	my ($before) = $node->safe_psql('postgres', "SELECT pg_relation_size('u')");
	($out) = call("SELECT bytes, rows FROM scan_efficiency('u', 'asis', $args)");
	my ($bytes, $rows) = split /\|/, $out;
	my $after = $node->safe_psql('postgres', "SELECT pg_relation_size('u')");
	cmp_ok($after, '>', $before, "$method: u grew during the call ($before to $after bytes)");
	cmp_ok($rows, '<=', $per_page * $bytes / 8192,
		"$method: $rows rows from $bytes bytes, at most $per_page a page");
}
$inserter->kill_kill;
$node->safe_psql('postgres',
	"SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE query LIKE 'DO %INSERT INTO u%'");

# ---- memory stays flat in runs ----
# 500 partitions: each run used to plan the statement again in the caller's
# memory, 115 MB more at 80 runs than at 1.
$node->safe_psql('postgres', q{
	CREATE TABLE p (id integer) PARTITION BY HASH (id);
	SELECT format('CREATE TABLE p_%s PARTITION OF p FOR VALUES WITH (MODULUS 500, REMAINDER %s)', i, i)
	FROM generate_series(0, 499) i \gexec
	INSERT INTO p SELECT generate_series(1, 5000);
});
my ($session, $pid) = fd_session($node);

sub peak_rss_kb
{
	open(my $fh, '<', "/proc/$pid/status") or return -1;
	my ($kb) = map { /^VmHWM:\s+(\d+)/ ? $1 : () } <$fh>;
	close($fh);
	return $kb;
}
$session->query_safe("SELECT pairs FROM scan_efficiency('p', 'asis', runs => 1, method => 'whole')");
$session->query_safe("SELECT pairs FROM scan_efficiency('p', 'asis', target_pct => 0)");
my $rss1 = peak_rss_kb();
$session->query_safe("SELECT pairs FROM scan_efficiency('p', 'asis', runs => 40, method => 'whole')");
$session->query_safe("SELECT pairs FROM scan_efficiency('p', 'asis', target_pct => 0)");
my $rss40 = peak_rss_kb();
cmp_ok($rss40 - $rss1, '<', 8 * 1024,
	"500 partitions: peak RSS $rss1 kB after 1 run, $rss40 kB after 40");
$session->quit;

SKIP:
{
	skip 'timing-sensitive: set PG_TEST_EXTRA=scanbench_slow', 11 unless $slow;

	# About 600 MB: more than a 2-second budget can read cold.
	$node->safe_psql('postgres', q{
		CREATE UNLOGGED TABLE big WITH (fillfactor = 10) AS
			SELECT g FROM generate_series(1, 1800000) g;
		VACUUM (FREEZE, ANALYZE) big;
	});

	# ---- the budget ----
	my $t0 = time();
	($out) = call("SELECT elapsed_s, coverage_pct, pairs FROM scan_efficiency('big', max_seconds => 2, target_pct => 0)");
	my $wall = time() - $t0;
	my ($elapsed, $bcover, $bpairs) = split /\|/, $out;
	cmp_ok($bcover, '<', 100, "2 s budget: stopped at $bcover % of big");
	# A pair begun within the budget is finished: on a busy machine (CI
	# tests two majors at once) one can take longer than those before it
	# predicted, so a quarter over is allowed; a budget not kept at all
	# reads the whole relation.
	cmp_ok($elapsed, '<=', 2.5, "... after $elapsed s, not over the budget by more than 25 %");
	# It stops early only when one more pair, as long as those it took,
	# would not fit: on a busy machine a cold pair can take most of a second.
	cmp_ok($elapsed + $elapsed / ($bpairs || 1), '>=', 1.8,
		sprintf('... and one more pair (%.2f s each) would have overrun it', $elapsed / ($bpairs || 1)));
	cmp_ok($wall, '<=', 2.2 + 0.5, sprintf('... %.2f s as the client saw it', $wall));

	# ---- cancel and statement_timeout ----
	my $filenode = $node->safe_psql('postgres', "SELECT pg_relation_filenode('big')");
	my ($s, $spid) = fd_session($node);
	# The server's own file cache (md.c) keeps descriptors of relations it
	# read: take the baseline after a complete call.
	$s->query_safe("SELECT pairs FROM scan_efficiency('big', 'asis', sample => 0.05)");
	my $fds_before = open_fds($spid, qr{/$filenode(\.\d+)?$});

	$t0 = time();
	$s->query("SET statement_timeout = '300ms'; SELECT * FROM scan_efficiency('big', target_pct => 0)");
	my $took = time() - $t0;
	my $stderr = $s->{stderr};
	$s->query("RESET statement_timeout");
	$stderr .= $s->{stderr};
	like($stderr, qr/canceling statement due to statement timeout/, 'statement_timeout stops a call');
	cmp_ok($took, '<', 1.3, sprintf('... within a second of it (%.2f s)', $took));
	is(open_fds($spid, qr{/$filenode(\.\d+)?$}), $fds_before, '... and leaves no file open');

	# A cancel from another session, half a second in.
	my $canceller = IPC::Run::start(
		[
			'psql', '-X', '-q', '-d', $node->connstr('postgres'), '-c',
			"SELECT pg_sleep(0.5); SELECT pg_cancel_backend($spid)"
		],
		'>', '/dev/null', '2>', '/dev/null');
	$t0 = time();
	$s->query("SELECT * FROM scan_efficiency('big', target_pct => 0)");
	$took = time() - $t0;
	$stderr = $s->{stderr};
	$canceller->finish;
	$s->query("SELECT 1");
	$stderr .= $s->{stderr};
	like($stderr, qr/canceling statement due to user request/, 'a cancel stops a call');
	cmp_ok($took, '<', 1.5, sprintf('... within a second of it (%.2f s)', $took));
	is(open_fds($spid, qr{/$filenode(\.\d+)?$}), $fds_before, '... and leaves no file open');
	$s->quit;
}

$node->stop;
done_testing();
