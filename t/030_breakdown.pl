# Where a scan's time goes: scan_breakdown, scan_shapes, scan_sweep, and
# the I/O workers' CPU and settings in scan_rate's result.
#
# On PostgreSQL 18 and later the cluster runs with io_method = worker, so
# that the I/O workers' CPU is measured, then is restarted with
# io_method = sync to check it is NULL there.  Wall-clock comparisons run
# only with PG_TEST_EXTRA containing scanbench_slow.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use JSON::PP qw(decode_json);

my $slow = ($ENV{PG_TEST_EXTRA} // '') =~ /\bscanbench_slow\b/;

my $node = PostgreSQL::Test::Cluster->new('breakdown');
$node->init;
# ->major: a release candidate ("19rc1") compares below 19 as a version.
my $major = $node->pg_version->major;
my $v18 = $major >= 18;
my $v19 = $major >= 19;
$node->append_conf('postgresql.conf', "shared_buffers = 128MB\nmax_parallel_workers = 4\n");
# 19's pool of I/O workers grows from io_min_workers to io_max_workers;
# 18's is fixed at io_workers.
$node->append_conf('postgresql.conf', "io_method = worker\n" .
	($v19 ? "io_min_workers = 1\nio_max_workers = 4\n" : "io_workers = 2\n")) if $v18;
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION scanbench;
	CREATE TABLE small AS
		SELECT g AS id, (g % 1000)::numeric(12,2) AS price, md5(g::text) AS note
		FROM generate_series(1, 100000) g;
	VACUUM (FREEZE, ANALYZE) small;
});
# Many columns, and smaller than shared_buffers/4 so that a warm scan is
# all buffer hits: what deforming costs is not lost in copying.
$node->safe_psql('postgres', q{
	CREATE TABLE wide AS
		SELECT g AS c1, g AS c2, g AS c3, g AS c4, g AS c5, g AS c6, g AS c7, g AS c8,
			g AS c9, g AS c10, g AS c11, g AS c12, g AS c13, g AS c14, g AS c15,
			md5(g::text) AS last
		FROM generate_series(1, 150000) g;
	VACUUM (FREEZE, ANALYZE) wide;
});
# Larger than shared_buffers/4, so a scan goes through a ring buffer and
# its reads are the I/O workers' on 18.
$node->safe_psql('postgres', q{
	CREATE TABLE big AS
		SELECT g AS id, repeat(md5(g::text), 4) AS pad FROM generate_series(1, 400000) g;
	VACUUM (FREEZE, ANALYZE) big;
});

# One result row as a hash, through JSON so that column names come along.
sub row
{
	my ($sql) = @_;
	return decode_json($node->safe_psql('postgres', "SELECT row_to_json(r) FROM ($sql) r"));
}

# --- The settings reported are the server's. ---
my $r = row("SELECT settings->>'shared_buffers' AS sb, settings->>'effective_io_concurrency' AS eic,
	coalesce(settings->>'io_method', '-') AS io_method,
	coalesce(settings->>'io_combine_limit', '-') AS icl,
	coalesce(settings->>'io_workers', '-') AS iow,
	coalesce(settings->>'io_min_workers', '-') AS iomin,
	coalesce(settings->>'io_max_workers', '-') AS iomax
	FROM scan_rate('small', 'asis')");
is($r->{sb}, $node->safe_psql('postgres', 'SHOW shared_buffers'), 'settings: shared_buffers as SHOW prints it');
is($r->{eic}, $node->safe_psql('postgres', 'SHOW effective_io_concurrency'), 'settings: effective_io_concurrency');
if ($v18)
{
	is($r->{io_method}, $node->safe_psql('postgres', 'SHOW io_method'), 'settings: io_method');
	is($r->{icl}, $node->safe_psql('postgres', 'SHOW io_combine_limit'), 'settings: io_combine_limit');
	if ($v19)
	{
		is($r->{iomin}, $node->safe_psql('postgres', 'SHOW io_min_workers'), 'settings: io_min_workers');
		is($r->{iomax}, $node->safe_psql('postgres', 'SHOW io_max_workers'), 'settings: io_max_workers');
		is($r->{iow}, '-', 'settings: no io_workers from 19 on');
	}
	else
	{
		is($r->{iow}, $node->safe_psql('postgres', 'SHOW io_workers'), 'settings: io_workers');
		is($r->{iomin} . $r->{iomax}, '--', 'settings: no io_min_workers, io_max_workers before 19');
	}
}
else
{
	is($r->{io_method}, '-', 'settings: no io_method before 18');
}

# --- The I/O workers' CPU, on 18 with io_method = worker. ---
SKIP:
{
	skip 'I/O workers exist from PostgreSQL 18 on', 3 unless $v18;
	# CPU is counted in clock ticks (10 ms): a few cold scans of a table
	# of 67 MB give the workers enough to show.
	my ($user, $sys) = (0, 0);
	for my $i (1 .. 3)
	{
		my $s = row("SELECT io_worker_user_s, io_worker_sys_s FROM scan_rate('big', 'cold')");
		$user += $s->{io_worker_user_s};
		$sys += $s->{io_worker_sys_s};
		last if $user + $sys > 0;
	}
	cmp_ok($user + $sys, '>', 0, "io_method=worker: the I/O workers' CPU on a cold scan is non-zero (user $user s, sys $sys s)");
	my $b = row("SELECT io_worker_user_s + io_worker_sys_s AS iow, user_s + sys_s AS total,
		backend_user_s + backend_sys_s AS backend FROM scan_breakdown('big', 'cold')");
	cmp_ok($b->{iow}, '>=', 0, 'scan_breakdown reports the I/O workers apart');
	cmp_ok(abs($b->{total} - $b->{backend} - $b->{iow}), '<=', 0.0015,
		"... and includes them in its total ($b->{total} = $b->{backend} + $b->{iow})");
}

# --- On a warm table: cpu, nothing from storage, shares that add up. ---
for my $round (1 .. 2)
{
	# Up to three tries: with io_method worker (18 and later) the warm
	# scan waits on I/O workers copying from the page cache, and another
	# run on the machine (CI tests two majors at once) can keep them off a
	# CPU for a whole call, which is then rightly "mixed".
	my $b;
	for my $try (1 .. 3)
	{
		$b = row("SELECT * FROM scan_breakdown('small', 'warm')");
		last if ($b->{bottleneck} // '') eq 'cpu';
	}
	is($b->{bottleneck}, 'cpu', "warm round $round: the bottleneck is cpu "
		. "(cpu $b->{cpu_pct} %, waiting for a CPU $b->{cpu_wait_pct} %, io $b->{io_wait_pct} %)");
	cmp_ok($b->{storage_read_bytes}, '<', 0.01 * $b->{bytes},
		"warm round $round: about 0 bytes from storage ($b->{storage_read_bytes} of $b->{bytes})");
	is($b->{shared_read}, 0, "warm round $round: no buffer read");
	my $sum = $b->{cpu_pct} + $b->{cpu_wait_pct} + $b->{io_wait_pct} + $b->{other_pct};
	cmp_ok(abs($sum - 100), '<=', 5, "warm round $round: the shares add up to the wall time ($sum %)");
}

# A cold one reads the table from storage or the page cache, and its shares
# add up too.
my $c = row("SELECT * FROM scan_breakdown('big', 'cold')");
cmp_ok($c->{storage_read_bytes} + ($c->{page_cache_bytes} || 0), '>=', 0.9 * $c->{bytes},
	"cold: the table's bytes came from storage ($c->{storage_read_bytes}) or the page cache ("
	  . ($c->{page_cache_bytes} // 'NULL') . ")");
cmp_ok($c->{shared_read}, '>=', 0.95 * $c->{pages}, 'cold: its pages were read into buffers');
my $sum = $c->{cpu_pct} + $c->{cpu_wait_pct} + $c->{io_wait_pct} + $c->{other_pct};
cmp_ok(abs($sum - 100), '<=', 5, "cold: the shares add up to the wall time ($sum %)");
ok($c->{bottleneck} =~ /^(cpu|io|mixed)$/, "cold: bottleneck is $c->{bottleneck}");
cmp_ok($c->{cached_pct_before}, '<', 5, 'cold: the scan started cold');

# Parallel workers' CPU is counted when they ran.
my $p = row("SELECT workers_launched, parallel_user_s + parallel_sys_s AS par
	FROM scan_breakdown('big', 'warm', 'sum(length(pad))', 2)");
is($p->{workers_launched}, 2, 'scan_breakdown with 2 workers launches them');
cmp_ok($p->{par}, '>', 0, "their CPU is counted ($p->{par} s)");

# --- scan_shapes: deforming every column is not cheaper than none. ---
SKIP:
{
	skip 'wall-clock comparison: set PG_TEST_EXTRA=scanbench_slow', 1 unless $slow;
	# Medians of five rounds, shapes interleaved, to ride out a busy machine.
	my %s = map { split /\|/ } split /\n/, $node->safe_psql('postgres',
		"SELECT shape, scan_s FROM scan_shapes('wide', 'warm', runs => 5)");
	my ($m1, $ml) = ($s{'count(1)'}, $s{'count(last column)'});
	cmp_ok($ml, '>=', 0.9 * $m1,
		"count(last column) ($ml s) is not faster than count(1) ($m1 s) by more than noise");
}
my @shapes = split /\n/, $node->safe_psql('postgres', "SELECT shape FROM scan_shapes('small')");
is_deeply(\@shapes,
	[ 'count(1)', 'count(*)', 'count(last column)', 'sum(number column)', 'filter, no row passes' ],
	'scan_shapes: the five shapes, in order of cost');

# --- scan_sweep: the workers really launched; what cannot be set. ---
my $out = $node->safe_psql('postgres',
	"SELECT value, workers_planned, workers_launched FROM scan_sweep('small', 'warm', 'parallel_workers', '{0,1,2}')");
is($out, "0|0|0\n1|1|1\n2|2|2", 'sweep over parallel_workers 0..2 reports the workers launched');
# With only one worker allowed, the second asked for is not launched.
$node->safe_psql('postgres', 'ALTER SYSTEM SET max_parallel_workers = 1');
$node->reload;
$out = $node->safe_psql('postgres',
	"SELECT value, workers_planned, workers_launched FROM scan_sweep('small', 'warm', 'parallel_workers', '{2}')");
is($out, '2|2|1', 'planned 2 with max_parallel_workers = 1: 1 launched, and reported');
$node->safe_psql('postgres', 'ALTER SYSTEM RESET max_parallel_workers');
$node->reload;

for my $t (
	[ 'shared_buffers', '256MB', qr/setting "shared_buffers" cannot be changed by a session/ ],
	[ 'io_method', 'sync',
		$v18 ? qr/setting "io_method" cannot be changed by a session/ : qr/unrecognized setting "io_method"/ ],
	[ 'no_such_setting', '1', qr/unrecognized setting "no_such_setting"/ ])
{
	my ($name, $val, $want) = @$t;
	my ($ret, $o, $err) = $node->psql('postgres',
		"SELECT * FROM scan_sweep('small', 'cold', '$name', '{$val}')");
	isnt($ret, 0, "sweep of $name is refused");
	like($err, $want, '... with a clear message');
}
# Refused before anything is measured: a cold sweep refused evicts nothing.
$node->safe_psql('postgres', 'SELECT count(*) FROM small');
$node->psql('postgres', "SELECT * FROM scan_sweep('small', 'cold', 'shared_buffers', '{256MB}')");
my $kept = $node->safe_psql('postgres',
	"SELECT buffers_cached_pct_before FROM scan_rate('small', 'asis')");
cmp_ok($kept, '>', 95, "nothing was evicted before the refusal ($kept % still in shared_buffers)");

# --- The read wait is the server's own count of it (18: per backend). ---
# The same execution counted both ways: scan_rate's io_read_s and the
# backend's read time in pg_stat_get_backend_io around the call.  A first
# call loads the catalogs, so that the second reads only the table.
if ($v18)
{
	my $out = $node->safe_psql('postgres', q{
		SELECT 1 FROM scan_rate('big', 'asis') \g /dev/null
		SELECT pg_stat_force_next_flush() \g /dev/null
		SELECT coalesce(sum(read_time), 0) AS io0 FROM pg_stat_get_backend_io(pg_backend_pid())
			WHERE object = 'relation' \gset
		SELECT io_read_s AS rate_io FROM scan_rate('big', 'cold') \gset
		SELECT pg_stat_force_next_flush() \g /dev/null
		SELECT :rate_io, (coalesce(sum(read_time), 0) - :io0) / 1000
		FROM pg_stat_get_backend_io(pg_backend_pid()) WHERE object = 'relation';
	});
	my ($mine, $server) = split /\|/, $out;
	cmp_ok($server, '>', 0, "a cold scan of big waited for reads ($server s)");
	# io_read_s is rounded to the millisecond.
	cmp_ok(abs($mine - $server), '<=', 0.0006 + 0.01 * $server,
		"io_read_s ($mine s) is the backend's read time in pg_stat_io ($server s)");
}

# --- 19: the scan's own count of its reads, cross-checked. ---
# The read streams count the blocks they read (EXPLAIN (ANALYZE, IO));
# the buffer manager counts the statement's.  A plain count(1) reads
# every block through the scan's stream, so the two agree; a select list
# that detoasts values read out of line reads TOAST blocks outside that
# stream, and the check must say the accounts disagree.  Before 19 every
# one of the columns is NULL.
{
	my @cols = qw(stream_reads stream_read_blocks stream_waits stream_distance
		stream_distance_max stream_check);
	my $b = row("SELECT pages, shared_read, io_read_s, " . join(', ', @cols)
		. " FROM scan_breakdown('big', 'cold')");
	note(join(', ', map { "$_ " . ($b->{$_} // 'NULL') } ('pages', 'shared_read', 'io_read_s', @cols)));
	if ($v19)
	{
		cmp_ok($b->{stream_reads}, '>', 0, 'stream: a cold scan of big issued reads through its stream');
		is($b->{stream_read_blocks}, $b->{shared_read},
			"stream: they read the blocks the buffer manager counts ($b->{shared_read})");
		cmp_ok($b->{stream_read_blocks}, '>=', $b->{pages} * 0.9, 'stream: ... nearly all the pages of a cold scan');
		ok(defined $b->{stream_waits} && defined $b->{stream_distance_max}, 'stream: waits and look-ahead are given');
		is($b->{stream_check}, 'agree', 'stream: the two accounts of count(1) agree');

		$node->safe_psql('postgres', q{
			CREATE TABLE toasty (id int, doc text);
			ALTER TABLE toasty ALTER doc SET STORAGE EXTERNAL;
			INSERT INTO toasty SELECT g, repeat(md5(g::text), 200) FROM generate_series(1, 2000) g;
			VACUUM (FREEZE, ANALYZE) toasty;
		});
		# The TOAST blocks the insert left in shared buffers are read again.
		$node->restart;
		my $t = row("SELECT shared_read, stream_read_blocks, stream_check
			FROM scan_breakdown('toasty', 'cold', 'sum(length(doc))')");
		note("toasty: shared_read $t->{shared_read}, stream_read_blocks $t->{stream_read_blocks}, $t->{stream_check}");
		cmp_ok($t->{shared_read}, '>', $t->{stream_read_blocks}, 'stream: detoasting reads blocks outside the scan\'s stream');
		like($t->{stream_check}, qr/^disagree: the buffers read \d+ blocks, the scan's read streams \d+: the rest were read outside the scan/,
			'stream: ... and the check says the accounts disagree, and why');
	}
	else
	{
		ok(!(grep { defined $b->{$_} } @cols), "stream: before 19 the scan's own I/O counts are NULL");
	}
}

# --- 18 with io_method = sync: no I/O workers, NULL. ---
if ($v18)
{
	$node->append_conf('postgresql.conf', "io_method = sync\n");
	$node->restart;
	my $s = row("SELECT io_worker_user_s IS NULL AS u, io_worker_sys_s IS NULL AS s,
		settings->>'io_method' AS m FROM scan_rate('big', 'cold')");
	ok($s->{u} && $s->{s} && $s->{m} eq 'sync', 'io_method=sync: the I/O workers\' CPU is NULL, settings say sync');
}

# overlap_pct is NULL only with a NOTICE saying why: calls on a small,
# cached table, whose three timings are all noise, land outside 0..100
# often enough.
{
	my ($nulls, $notices) = (0, 0);
	for my $i (1 .. 20)
	{
		my ($ret, $out, $err) = $node->psql('postgres',
			"SELECT overlap_pct IS NULL FROM scan_breakdown('small', 'asis')");
		$nulls++ if $out eq 't';
		$notices++ if $err =~ /NOTICE:  overlap_pct is NULL: the scan took [0-9.]+ s, (less|more) than/;
	}
	is($notices, $nulls, "overlap_pct: a NOTICE for each of the $nulls NULLs in 20 calls");
}

$node->stop;
done_testing();
