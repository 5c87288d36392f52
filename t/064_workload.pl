# The workload's reads, from a server's own counters: pg_stat_statements
# loaded (in a schema of its own) and track_io_timing on.
#   - A known workload between two snapshots: a count of a table out of
#     both caches, two counts of one the page cache holds (larger than a
#     quarter of shared_buffers: each scan reads it again through its
#     ring).  Each statement's blocks read are its table's, its bytes the
#     blocks times 8192, its rate the bytes over its wait, its share of
#     waiting the wait over its time; held against references recorded by
#     hand for a slow disk, the page cache's reads are page_cache.  The
#     cold scan's known answer needs a disk of known speed: t/097 has it.
#   - pg_stat_io (16 on): the client backends' bulk reads of the interval,
#     bytes from 18, reads of 8 kB before, the rate their bytes over their
#     wait.
#   - Against the counters now (no second snapshot).
#   - A database without pg_stat_statements: refused, with the command.
#   - track_io_timing off when a snapshot was taken: no rate, the note and
#     the NOTICE say how to turn it on.
#   - pg_stat_statements_reset() between two snapshots: counted from the
#     reset, marked.
#   - A monitoring role granted as doc/workload.md says takes snapshots
#     and reads them; without the grants it is refused.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use JSON::PP;
use FindBin;
use lib $FindBin::RealBin;
use SbCold;

my $node = PostgreSQL::Test::Cluster->new('workload');
$node->init;
$node->append_conf('postgresql.conf', q{
shared_buffers = 16MB
shared_preload_libraries = 'pg_stat_statements'
track_io_timing = on
max_parallel_workers_per_gather = 0
autovacuum = off
});
$node->start;

my $major = $node->safe_psql('postgres', q{SELECT current_setting('server_version_num')::int / 10000});

# 200000 rows at fillfactor 10: about 8000 blocks, 64 MB, each table.
$node->safe_psql('postgres', q{
	CREATE EXTENSION scanbench;
	CREATE SCHEMA pgss;
	CREATE EXTENSION pg_stat_statements SCHEMA pgss;
	CREATE TABLE wl_cold WITH (fillfactor = 10) AS SELECT g FROM generate_series(1, 200000) g;
	CREATE TABLE wl_warm WITH (fillfactor = 10) AS SELECT g FROM generate_series(1, 200000) g;
});
$node->safe_psql('postgres', 'VACUUM (FREEZE, ANALYZE) wl_cold, wl_warm');
$node->safe_psql('postgres', 'CHECKPOINT');
my $pages = $node->safe_psql('postgres', q{SELECT pg_relation_size('wl_cold') / 8192});
cmp_ok($pages, '>', 4 * 16 * 128, "wl_cold: $pages blocks, more than four times shared_buffers");

# The references of a slow disk, recorded by hand: sequential 20 MB/s (a
# page in 409.6 us), random 1 MB/s, a page from the page cache in 4 us.
$node->safe_psql('postgres', q{
	INSERT INTO page_costs_history (measured_at, relschema, relname, tablespace,
		seq_page_us, random_page_us, cached_page_us)
	VALUES (now(), 'public', 'wl_cold', 'pg_default', 409.6, 8192, 4);
});

sub json_rows
{
	my ($sql, $db, @opts) = @_;
	my ($ret, $out, $err) = $node->psql($db // 'postgres',
		"SELECT coalesce(json_agg(r), '[]') FROM ($sql) r", @opts);
	die "$sql: $err" if $ret;
	return (decode_json($out), $err);
}

sub snapshot
{
	my ($user) = @_;
	my ($ret, $out, $err) = $node->psql('postgres', 'SELECT workload_snapshot()',
		$user ? (extra_params => [ '-U', $user ]) : ());
	die "workload_snapshot: $err" if $ret;
	return ($out, $err);
}

sub by_query
{
	my ($rows, $re) = @_;
	my @m = grep { defined $_->{query} && $_->{query} =~ $re } @$rows;
	return $m[0];
}

sub marks { my ($r) = @_; return join(',', @{ $r->{verdict} // [] }); }

# ---- a known workload between two snapshots ----
cold_table($node, 'wl_cold');
$node->safe_psql('postgres', 'SELECT count(*) FROM wl_warm');
my ($s1) = snapshot();
$node->safe_psql('postgres', 'SELECT count(*) FROM wl_cold');
$node->safe_psql('postgres', 'SELECT count(*) FROM wl_warm') for 1 .. 2;
my ($s2) = snapshot();
ok($s2 > $s1, "two snapshots, $s1 and $s2");

my ($rows) = json_rows("SELECT * FROM workload_reads($s1, $s2)");
my $cold = by_query($rows, qr/^SELECT count\(\*\) FROM wl_cold$/);
my $warm = by_query($rows, qr/^SELECT count\(\*\) FROM wl_warm$/);
ok($cold && $warm, 'both statements are there') or diag(explain($rows));
is($cold->{calls}, 1, 'the cold count ran once');
is($warm->{calls}, 2, 'the warm count ran twice');
cmp_ok($cold->{blocks_read}, '>=', $pages - 64, "cold: $cold->{blocks_read} blocks read, the table's $pages");
cmp_ok($cold->{blocks_read}, '<=', $pages + 64, '... and not more');
cmp_ok($warm->{blocks_read}, '>=', 2 * $pages - 2 * 16 * 128, "warm: $warm->{blocks_read} blocks read, twice the table's but what shared_buffers kept");
for my $r ([ cold => $cold ], [ warm => $warm ])
{
	my ($name, $q) = @$r;
	is($q->{bytes_read}, $q->{blocks_read} * 8192, "$name: bytes_read is blocks_read x 8192");
	cmp_ok($q->{read_wait_s}, '>', 0, "$name: read_wait_s $q->{read_wait_s} > 0");
	my $rate = $q->{bytes_read} / $q->{read_wait_s} / 1e6;
	cmp_ok(abs($q->{read_mb_s} - $rate), '<=', 0.001 * $rate + 0.06,
		sprintf("%s: read_mb_s %s is bytes / read_wait_s (%.2f)", $name, $q->{read_mb_s}, $rate));
	my $pct = 100 * $q->{read_wait_s} / $q->{exec_s};
	cmp_ok(abs($q->{read_wait_pct} - $pct), '<=', 0.06,
		sprintf("%s: read_wait_pct %s is read_wait_s / exec_s (%.2f)", $name, $q->{read_wait_pct}, $pct));
	cmp_ok(abs($q->{block_wait_us} - 1e6 * $q->{read_wait_s} / $q->{blocks_read}), '<=', 0.01,
		"$name: block_wait_us $q->{block_wait_us} is the wait a block");
	cmp_ok(abs($q->{sequential_pct} - 100 * $q->{read_mb_s} / 20), '<=', 0.35,
		"$name: sequential_pct $q->{sequential_pct} is read_mb_s against the 20 MB/s recorded");
}
like(marks($warm), qr/\bpage_cache\b/,
	"warm: from the page cache (verdict {" . marks($warm) . "}, $warm->{read_mb_s} MB/s, against a 20 MB/s disk)");
note("cold: $cold->{read_mb_s} MB/s, $cold->{block_wait_us} us a block, {" . marks($cold) . "} (this disk's own speed)");

# The statement that took the snapshot is counted as any other.
ok(by_query($rows, qr/workload_snapshot/), 'the snapshot statement itself is a statement');

# ---- pg_stat_io, from 16 ----
my ($io, $ioerr) = json_rows("SELECT * FROM workload_io($s1, $s2)");
if ($major < 16)
{
	is(scalar(@$io), 0, "$major: no pg_stat_io rows");
	like($ioerr, qr/NOTICE:  this server has no pg_stat_io: it came in PostgreSQL 16/, '... and a NOTICE says why');
}
else
{
	my ($bulk) = grep { $_->{backend_type} eq 'client backend' && $_->{object} eq 'relation'
		  && $_->{context} eq 'bulkread' } @$io;
	ok($bulk, 'pg_stat_io: the client backends\' bulk reads') or diag(explain($io));
	my $blocks = $cold->{blocks_read} + $warm->{blocks_read};
	cmp_ok($bulk->{bytes_read}, '>=', 0.9 * $blocks * 8192,
		"... $bulk->{bytes_read} bytes, the two statements' $blocks blocks");
	cmp_ok($bulk->{bytes_read}, '<=', 1.1 * $blocks * 8192 + 8 * 1048576, '... and not many more');
	if ($major >= 18)
	{
		cmp_ok($bulk->{bytes_read} / $bulk->{reads}, '>=', 8192,
			sprintf("18: read_bytes counted, %.0f bytes a read (reads combined)", $bulk->{bytes_read} / $bulk->{reads}));
	}
	else
	{
		is($bulk->{bytes_read}, $bulk->{reads} * 8192, "$major: reads of 8 kB each (op_bytes)");
	}
	my $rate = $bulk->{bytes_read} / $bulk->{read_wait_s} / 1e6;
	cmp_ok(abs($bulk->{read_mb_s} - $rate), '<=', 0.001 * $rate + 0.06,
		sprintf("... read_mb_s %s is bytes / read_wait_s (%.2f)", $bulk->{read_mb_s}, $rate));
	ok(defined $bulk->{reference}, "... held against a reference ($bulk->{reference})");
}

# ---- against the counters now ----
my ($now) = json_rows("SELECT * FROM workload_reads($s1)");
my $cold_now = by_query($now, qr/^SELECT count\(\*\) FROM wl_cold$/);
is($cold_now->{blocks_read}, $cold->{blocks_read}, 'to_snapshot NULL: the counters now, the same blocks');

# ---- a database without pg_stat_statements ----
$node->safe_psql('postgres', 'CREATE DATABASE other');
$node->safe_psql('other', 'CREATE EXTENSION scanbench');
my ($ret, $out, $err) = $node->psql('other', 'SELECT workload_snapshot()');
isnt($ret, 0, 'a database without pg_stat_statements: refused');
like($err, qr/ERROR:  pg_stat_statements is not installed in this database/, '... saying so');
like($err, qr/HINT:  Add pg_stat_statements to shared_preload_libraries and restart the server, then run CREATE EXTENSION pg_stat_statements in this database/,
	'... with the commands');
is($node->safe_psql('other', 'SELECT count(*) FROM workload_snapshots'), 0, '... and nothing written');

# ---- track_io_timing off ----
$node->safe_psql('postgres', 'ALTER SYSTEM SET track_io_timing = off');
$node->reload;
my ($s3, $s3err) = snapshot();
like($s3err, qr/NOTICE:  track_io_timing is off: no read is timed.*\n.*HINT:  ALTER SYSTEM SET track_io_timing = on; SELECT pg_reload_conf\(\);/,
	'a snapshot with track_io_timing off: a NOTICE with the command');
$node->safe_psql('postgres', 'ALTER SYSTEM RESET track_io_timing');
$node->reload;
$node->safe_psql('postgres', 'SELECT count(*) FROM wl_warm');
my ($s4) = snapshot();
my ($off, $offerr) = json_rows("SELECT * FROM workload_reads($s3, $s4)");
my $warm_off = by_query($off, qr/^SELECT count\(\*\) FROM wl_warm$/);
is(marks($warm_off), 'no_read_timing', 'timing off at the first snapshot: no_read_timing');
ok(!defined $warm_off->{read_mb_s} && !defined $warm_off->{read_wait_s}, '... no wait and no rate');
like($warm_off->{note}, qr/track_io_timing was off.*ALTER SYSTEM SET track_io_timing = on; SELECT pg_reload_conf\(\);/,
	'... the note says how to turn it on');
like($offerr, qr/NOTICE:  track_io_timing was off when snapshot $s3 was taken/, '... and a NOTICE names the snapshot');

# Blocks read in a session with it off, between snapshots taken with it
# on: no wait recorded, not timed.
my ($s5) = snapshot();
$node->safe_psql('postgres', 'SET track_io_timing = off; SELECT count(*) FROM wl_warm');
my ($s6) = snapshot();
my ($sess) = json_rows("SELECT * FROM workload_reads($s5, $s6)");
my $warm_sess = by_query($sess, qr/^SELECT count\(\*\) FROM wl_warm$/);
cmp_ok($warm_sess->{blocks_read}, '>', 0, 'a session with track_io_timing off read blocks');
is(marks($warm_sess), 'no_read_timing', '... not timed: no_read_timing');

# ---- a reset between snapshots ----
my ($s7) = snapshot();
$node->safe_psql('postgres', 'SELECT pgss.pg_stat_statements_reset()');
$node->safe_psql('postgres', 'SELECT count(*) FROM wl_warm');
my ($s8) = snapshot();
my ($reset, $reseterr) = json_rows("SELECT * FROM workload_reads($s7, $s8)");
my $warm_reset = by_query($reset, qr/^SELECT count\(\*\) FROM wl_warm$/);
is($warm_reset->{calls}, 1, 'pg_stat_statements_reset() between: counted from the reset');
like(marks($warm_reset), qr/\breset\b/, "... marked reset ({" . marks($warm_reset) . "})");
like($warm_reset->{note}, qr/started again/, '... the note says so');
like($reseterr, qr/NOTICE:  the counters of \d+ statements? started again in the interval/, '... and a NOTICE');

# ---- a monitoring role, granted as doc/workload.md says ----
$node->safe_psql('postgres', q{
	CREATE ROLE watcher LOGIN;
	GRANT pg_monitor TO watcher;
});
($ret, $out, $err) = $node->psql('postgres', 'SELECT workload_snapshot()', extra_params => [ '-U', 'watcher' ]);
like($err, qr/permission denied for function workload_snapshot/, 'pg_monitor alone may not take a snapshot');
($ret, $out, $err) = $node->psql('postgres', "SELECT count(*) FROM workload_reads($s1, $s2)", extra_params => [ '-U', 'watcher' ]);
is($ret, 0, '... but may read two snapshots') or diag($err);
$node->safe_psql('postgres', q{
	GRANT EXECUTE ON FUNCTION workload_snapshot() TO watcher;
	GRANT INSERT ON workload_snapshots, workload_io_snapshots TO watcher;
	GRANT USAGE ON SEQUENCE workload_snapshot_id_seq TO watcher;
	GRANT USAGE ON SCHEMA pgss TO watcher;
});
my ($w1) = snapshot('watcher');
$node->safe_psql('postgres', 'SELECT count(*) FROM wl_warm');
my ($watched) = json_rows("SELECT * FROM workload_reads($w1)", 'postgres', extra_params => [ '-U', 'watcher' ]);
my $seen = by_query($watched, qr/^SELECT count\(\*\) FROM wl_warm$/);
ok($seen, "granted: the role takes a snapshot ($w1) and sees another role's statement, text and all");
is($seen->{role}, 'postgres', '... run by postgres') if $seen;

$node->stop;
done_testing();
