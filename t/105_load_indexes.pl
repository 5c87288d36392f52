# scanbench-load's tables for the access paths: --index builds indexes
# named as the server would name them, one whose order follows the heap's
# (l_orderkey: correlation 1 with one job) and ones whose order does not
# (l_partkey, l_shipdate: near 0); a name another relation holds is
# refused before anything is written; a signal while they are built leaves
# the table as it was, or complete.  --toast makes part_doc, whose values
# are all in its TOAST relation, uncompressed, the same for any --jobs and
# --format.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use JSON::PP;
use File::Spec;
use FindBin;
use lib $FindBin::RealBin;
use ScanbenchLoad;

my $node = PostgreSQL::Test::Cluster->new('load_indexes');
$node->init;
$node->append_conf('postgresql.conf', "max_wal_size = 2GB\nautovacuum = off\n");
$node->start;

$ENV{PGAPPNAME} = 'loader-under-test';
my $loader_sessions =
  "FROM pg_stat_activity WHERE application_name = 'loader-under-test' AND pid <> pg_backend_pid()";

sub load { return run_loader($node, @_) }
sub sql { return $node->safe_psql('postgres', shift) }

# "name: definition" of each index of table t, in name order.
sub index_defs
{
	my $t = shift;
	return sql("SELECT string_agg(indexname || ': ' || indexdef, E'\\n' ORDER BY indexname)
				FROM pg_indexes WHERE tablename = '$t'");
}
sub correlation
{
	my ($t, $col) = @_;
	return sql("SELECT correlation FROM pg_stats WHERE tablename = '$t' AND attname = '$col'");
}
# Every value of every row, in any order (t/101 compares them in order).
sub checksum
{
	my ($t) = @_;
	return sql("SELECT count(*) || ' ' || sum(hashtext(t::text)::numeric) FROM $t t");
}
sub staging_left
{
	return sql("SELECT count(*) FROM pg_class WHERE relname LIKE 'scanbench\\_load\\_%'");
}

# --- one job: three indexes, their names, definitions, sizes, correlation ---
my ($rc, $out, $err) = load('-s', '0.1', '--index=l_orderkey,l_partkey', '--index', 'l_shipdate');
is($rc, 0, 'one job, three indexes: loaded') or diag($err);
like($err, qr/and 3 indexes [\d.]+ s \("lineitem_l_orderkey_idx" [\d.]+ MB in [\d.]+ s, "lineitem_l_partkey_idx" [\d.]+ MB in [\d.]+ s, "lineitem_l_shipdate_idx" [\d.]+ MB in [\d.]+ s\)/,
	'one job: the summary line gives each index, its size and its time');
is(index_defs('lineitem'), join("\n",
		'lineitem_l_orderkey_idx: CREATE INDEX lineitem_l_orderkey_idx ON public.lineitem USING btree (l_orderkey)',
		'lineitem_l_partkey_idx: CREATE INDEX lineitem_l_partkey_idx ON public.lineitem USING btree (l_partkey)',
		'lineitem_l_shipdate_idx: CREATE INDEX lineitem_l_shipdate_idx ON public.lineitem USING btree (l_shipdate)'),
	'one job: the indexes, named TABLE_COLUMN_idx, on the columns asked for');
my %corr = map { $_ => correlation('lineitem', $_) } qw(l_orderkey l_partkey l_shipdate);
note("SF 0.1, one job: correlation " . join(', ', map { "$_ $corr{$_}" } sort keys %corr));
cmp_ok($corr{l_orderkey}, '>', 0.99, "one job: l_orderkey follows the heap (correlation $corr{l_orderkey})");
cmp_ok(abs($corr{l_partkey}), '<', 0.05, "l_partkey does not (correlation $corr{l_partkey})");
cmp_ok(abs($corr{l_shipdate}), '<', 0.05, "l_shipdate does not (correlation $corr{l_shipdate})");
is(sql("SELECT bool_and(pg_relation_size(indexrelid) > 0 AND c.reltuples = 600505)
		FROM pg_index JOIN pg_class c ON c.oid = indexrelid WHERE indrelid = 'lineitem'::regclass"),
	't', 'one job: each index holds every row');
is(staging_left(), 0, 'one job: no staging table or index left');
my $base_sum = checksum('lineitem');

# --- two jobs: the same rows, the same indexes; the heap is the jobs' pages ---
($rc, $out, $err) = load('-s', '0.1', '-t', 'li_j2', '-j', '2', '-F', 'text', '--json',
	'--index=l_orderkey,l_partkey');
is($rc, 0, 'two jobs, two indexes: loaded') or diag($err);
like($err, qr/note: with 2 jobs the heap is not in l_orderkey's order: .* its correlation will be about 1\/2/,
	'two jobs: a note says the heap is not in l_orderkey\'s order');
is(checksum('li_j2'), $base_sum, 'two jobs: the same rows as one job');
like(index_defs('li_j2'), qr/^li_j2_l_orderkey_idx: .*\(l_orderkey\)\nli_j2_l_partkey_idx: .*\(l_partkey\)$/,
	'two jobs: both indexes');
my $json = eval { decode_json($out) };
is_deeply([ map { [ $_->{name}, $_->{column}, $_->{bytes} > 0 ? 'bytes' : 'none' ] } @{ $json->{indexes} } ],
	[ [ 'li_j2_l_orderkey_idx', 'l_orderkey', 'bytes' ], [ 'li_j2_l_partkey_idx', 'l_partkey', 'bytes' ] ],
	'--json: each index with its name, column and size');
my $c2 = correlation('li_j2', 'l_orderkey');
note("SF 0.1, two jobs: l_orderkey correlation $c2");
cmp_ok($c2, '>', 0.2, "two jobs: l_orderkey still rises with the heap ($c2, about 1/2)");

# --- --drop replaces the table and its indexes; a name held elsewhere is refused ---
($rc, $out, $err) = load('-s', '0.01', '-t', 'li_j2', '--drop', '--index=l_suppkey', '-q');
is($rc, 0, '--drop with another index: loaded') or diag($err);
like(index_defs('li_j2'), qr/^li_j2_l_suppkey_idx: [^\n]*\(l_suppkey\)$/,
	'--drop: the old indexes went with the old table, the new one is there');
sql('CREATE TABLE other (a int); CREATE INDEX li_j2_l_partkey_idx ON other (a)');
my $before = checksum('li_j2');
($rc, $out, $err) = load('-s', '0.01', '-t', 'li_j2', '--drop', '--index=l_partkey');
is($rc, 1, 'an index name another table holds: exit 1');
like($err, qr/cannot name an index "li_j2_l_partkey_idx": relation public."li_j2_l_partkey_idx" already exists.*\n.*nothing was written/,
	'... naming the relation in the way');
is(checksum('li_j2'), $before, '... and the table is as it was');
($rc, $out, $err) = load('-s', '0.01', '-t', 'li_new', '--index=l_partkey,l_orderkey', '-j', '2', '-q');
is($rc, 0, 'a new table, two jobs: loaded') or diag($err);
is(sql("SELECT count(*) FROM pg_indexes WHERE tablename = 'li_new'"), 2, '... with its two indexes');

# --- a signal while the indexes are built: the table as it was, or complete ---
# Two jobs: a session holding ROW EXCLUSIVE on the staging table, which the
# COPYs and VACUUM do not mind, makes CREATE INDEX wait.
{
	my %run = (out => '', err => '');
	$run{h} = IPC::Run::start([ $loader, conn_args($node), '-s', '0.1', '-t', 'lineitem', '--drop', '-j', '2',
		'--index=l_orderkey,l_partkey' ], '>', \$run{out}, '2>', \$run{err});
	$node->poll_query_until('postgres',
		"SELECT count(*) = 1 FROM pg_class WHERE relname LIKE 'scanbench\\_load\\_%' AND relkind = 'r'")
	  or die "no staging table: $run{err}";
	my $staging = sql("SELECT relname FROM pg_class WHERE relname LIKE 'scanbench\\_load\\_%' AND relkind = 'r'");
	my $holder = $node->background_psql('postgres');
	$holder->query_safe("BEGIN; LOCK TABLE $staging IN ROW EXCLUSIVE MODE");
	$node->poll_query_until('postgres',
		"SELECT count(*) = 1 $loader_sessions AND query LIKE 'CREATE INDEX%' AND wait_event_type = 'Lock'")
	  or die "CREATE INDEX never waited: $run{err}";
	$run{h}->signal('INT');
	ok($node->poll_query_until('postgres', "SELECT count(*) = 0 $loader_sessions AND query LIKE 'CREATE INDEX%'"),
		'SIGINT during CREATE INDEX: the build is cancelled at once');
	$holder->query_safe('COMMIT');
	$holder->quit;
	$run{h}->finish;
	is($run{h}->result(0), 130, 'SIGINT during CREATE INDEX: exit 130');
	is(checksum('lineitem'), $base_sum, 'SIGINT during CREATE INDEX: the table is as it was');
	like(index_defs('lineitem'), qr/^lineitem_l_orderkey_idx:.*\nlineitem_l_partkey_idx:.*\nlineitem_l_shipdate_idx:[^\n]*$/,
		'... with its own three indexes');
	is(staging_left(), 0, 'SIGINT during CREATE INDEX: no staging table or index left');
}
# One job, in one transaction: SIGTERM once a CREATE INDEX runs, made
# slower by a small sort memory and no parallel workers.
{
	local $ENV{PGOPTIONS} = '-c maintenance_work_mem=1MB -c max_parallel_maintenance_workers=0';
	my %run = (out => '', err => '');
	$run{h} = IPC::Run::start([ $loader, conn_args($node), '-s', '0.1', '-t', 'lineitem', '--drop',
		'--index=l_partkey,l_shipdate,l_suppkey' ], '>', \$run{out}, '2>', \$run{err});
	$node->poll_query_until('postgres', "SELECT count(*) > 0 $loader_sessions AND query LIKE 'CREATE INDEX%'")
	  or die "no CREATE INDEX seen: $run{err}";
	$run{h}->signal('TERM');
	$run{h}->finish;
	my $code = $run{h}->result(0);
	is($code, 143, 'one job, SIGTERM during CREATE INDEX: exit 143');
	my $defs = index_defs('lineitem');
	if ($run{err} =~ /the table is complete/)
	{
		like($defs, qr/l_partkey_idx.*\n.*l_shipdate_idx.*\n.*l_suppkey_idx/, '... after the commit: the new table, complete');
	}
	else
	{
		like($run{err}, qr/interrupted: the load was cancelled and rolled back/, '... rolled back');
		like($defs, qr/l_orderkey_idx.*\n.*l_partkey_idx.*\n.*l_shipdate_idx[^\n]*$/, '... the old table and its indexes');
	}
	is(checksum('lineitem'), $base_sum, '... the same rows either way');
	is(staging_left(), 0, '... no staging table or index left');
}

# --- --toast: part_doc, its values out of line and uncompressed ---
($rc, $out, $err) = load('-s', '0.05', '--toast', '--index=pd_partkey', '--json');
is($rc, 0, '--toast: loaded') or diag($err);
like($err, qr/loaded 10000 rows into "part_doc" .* TOAST \d+ MB \(9\d % of the two\)/,
	'--toast: the summary line gives the TOAST relation\'s size') or diag($err);
$json = eval { decode_json($out) };
cmp_ok($json->{toast_bytes}, '>', 40e6, '--json: toast_bytes');
is(sql("SELECT string_agg(attname || ' ' || format_type(atttypid, atttypmod) || ' ' || attstorage::text, ', ' ORDER BY attnum)
		FROM pg_attribute WHERE attrelid = 'part_doc'::regclass AND attnum > 0"),
	'pd_partkey integer p, pd_bytes integer p, pd_doc text e', '--toast: the columns, pd_doc STORAGE EXTERNAL');
is(sql("SELECT count(*) = 10000 AND min(pd_partkey) = 1 AND max(pd_partkey) = 10000
		AND count(DISTINCT pd_partkey) = 10000
		AND min(pd_bytes) >= 2048 AND max(pd_bytes) <= 6143 AND abs(avg(pd_bytes) - 4095.5) < 40
		AND bool_and(octet_length(pd_doc) = pd_bytes) AND count(pg_column_compression(pd_doc)) = 0
		FROM part_doc"), 't', '--toast: a row a part, 2 to 6 kB each, none compressed');
my ($main, $toast) = split /\|/, sql("SELECT pg_relation_size(oid), pg_relation_size(reltoastrelid) FROM pg_class
		WHERE oid = 'part_doc'::regclass");
cmp_ok($toast, '>', 30 * $main, "--toast: the TOAST relation ($toast bytes) holds nearly all, the main fork $main");
cmp_ok(correlation('part_doc', 'pd_partkey'), '>', 0.99, '--toast: pd_partkey follows the heap');
like(index_defs('part_doc'), qr/^part_doc_pd_partkey_idx: .*btree \(pd_partkey\)$/, '--toast: its index');
($rc, $out, $err) = load('-s', '0.05', '--toast', '-t', 'pd_j2', '-j', '2', '-F', 'text', '-q');
is($rc, 0, '--toast, two jobs, text: loaded') or diag($err);
is(checksum('pd_j2'), checksum('part_doc'), '--toast: the same rows with two jobs and text');
{
	my $file = File::Spec->rel2abs(PostgreSQL::Test::Utils::tempdir) . '/part_doc.bin';
	IPC::Run::run([ $loader, '--stdout', '--toast', '-s', '0.05', '-F', 'binary', '-q' ], '>', $file)
	  or die '--stdout --toast failed';
	sql("CREATE TABLE pd_file (LIKE part_doc); COPY pd_file FROM '$file' (FORMAT binary)");
	is(checksum('pd_file'), checksum('part_doc'),
		'--toast --stdout, loaded by the server\'s COPY: the same rows');
}

ok($node->poll_query_until('postgres', "SELECT count(*) = 0 $loader_sessions"),
	'no session of the loader left behind');
$node->stop;
done_testing();
