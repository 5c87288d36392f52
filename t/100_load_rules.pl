# scanbench-load makes a DBT-3 lineitem that follows every column rule of the
# reference (checked in SQL over the loaded table), has dbgen's row counts,
# takes dbgen's space on disk, and is left frozen and analyzed.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use FindBin;
use lib $FindBin::RealBin;
use ScanbenchLoad;

my $node = PostgreSQL::Test::Cluster->new('load_rules');
$node->init;
$node->append_conf('postgresql.conf', "max_wal_size = 2GB\nautovacuum = off\n");
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION pg_visibility');

# Run the loader against this node; returns (exit code, stdout, stderr).
sub load { return run_loader($node, @_) }

sub sql { return $node->safe_psql('postgres', shift) }

# --help reads like a man page; --version names the version --check wants.
{
	my ($out, $err) = ('', '');
	IPC::Run::run([ $loader, '--help' ], '>', \$out, '2>', \$err);
	is($? >> 8, 0, '--help exits 0');
	like($out, qr/^Usage:$/m, '--help has a usage section');
	like($out, qr/$_/, "--help explains $_")
	  for ('--scale=SF', '--seed=N', '--format=FORMAT', '--stdout', '--table=NAME', '--drop', '--append',
		'--unlogged', '--index=COLUMN', '--toast', 'Indexes:', '--jobs=N\|auto', '--force-drop', '--json', 'Choosing --jobs', '--check', '--progress=SEC', '--quiet', '--host', '--port', '--username',
		'--dbname', 'Exit status:');
	IPC::Run::run([ $loader, '--version' ], '>', \$out, '2>', \$err);
	like($out, qr/^scanbench-load \(scanbench\) \Q$version\E$/m, '--version');
}

# Counts within 0.1 % of dbgen's, and the rules of every column.
my %dbgen_rows = ('0.01' => 60175, '0.1' => 600572);
for my $sf ('0.01', '0.1')
{
	my $t = "li_" . ($sf =~ s/\./_/r);
	my ($rc, $out, $err) = load('-s', $sf, '-t', $t, '-F', 'text');
	is($rc, 0, "SF $sf: loaded") or diag($err);
	like($err, qr/loaded \d+ rows into "$t" \(SF $sf, seed \d+, 1 job, text\).*COPY FREEZE.*then ANALYZE/,
		"SF $sf: the summary line says COPY FREEZE and ANALYZE");

	my $rows = sql("SELECT count(*) FROM $t");
	my $off = abs($rows - $dbgen_rows{$sf}) / $dbgen_rows{$sf};
	cmp_ok($off, '<=', 0.001, "SF $sf: $rows rows, within 0.1 % of dbgen's $dbgen_rows{$sf}");

	my $orders = 1500000 * $sf;
	my $parts = 200000 * $sf;
	my $S = 10000 * $sf;
	my $last_key = int(($orders - 1) / 8) * 32 + ($orders - 1) % 8 + 1;
	my @rules = (
		# name => query returning true
		[ 'column types as in the reference', qq{
			SELECT string_agg(attname || ' ' || format_type(atttypid, atttypmod), ', ' ORDER BY attnum) =
				'l_orderkey bigint, l_partkey integer, l_suppkey integer, l_linenumber integer, '
				'l_quantity numeric(15,2), l_extendedprice numeric(15,2), l_discount numeric(15,2), '
				'l_tax numeric(15,2), l_returnflag character(1), l_linestatus character(1), '
				'l_shipdate date, l_commitdate date, l_receiptdate date, '
				'l_shipinstruct character(25), l_shipmode character(10), l_comment character varying(44)'
			FROM pg_attribute WHERE attrelid = '$t'::regclass AND attnum > 0} ],
		[ "$orders orders, keys sparse: 8 used of every 32", qq{
			SELECT count(DISTINCT l_orderkey) = $orders
				AND bool_and((l_orderkey - 1) % 32 < 8)
				AND min(l_orderkey) = 1 AND max(l_orderkey) = $last_key FROM $t} ],
		[ 'l_linenumber is 1..n within each order, n from 1 to 7, all seen', qq{
			SELECT bool_and(mn = 1 AND mx = n AND d = n AND n BETWEEN 1 AND 7)
				AND count(DISTINCT n) = 7
			FROM (SELECT count(*) n, min(l_linenumber) mn, max(l_linenumber) mx,
						 count(DISTINCT l_linenumber) d
				  FROM $t GROUP BY l_orderkey) o} ],
		[ 'mean lines per order near 4', qq{
			SELECT abs(count(*)::numeric / count(DISTINCT l_orderkey) - 4) < 0.05 FROM $t} ],
		[ "l_partkey uniform in [1, $parts]", qq{
			SELECT min(l_partkey) = 1 AND max(l_partkey) = $parts
				AND abs(avg(l_partkey) / ($parts / 2.0) - 1) < 0.02 FROM $t} ],
		[ 'l_suppkey = (pk + i (S/4 + (pk-1)/S)) mod S + 1 for some i in 0..3, each i seen', qq{
			SELECT bool_and(i IS NOT NULL) AND count(DISTINCT i) = 4
			FROM $t LEFT JOIN LATERAL (
				SELECT min(i) i FROM generate_series(0, 3) i
				WHERE l_suppkey = (l_partkey + i * ($S / 4 + (l_partkey - 1) / $S)) % $S + 1) s ON true} ],
		[ 'l_quantity integer 1..50, all seen', qq{
			SELECT bool_and(l_quantity = trunc(l_quantity)) AND min(l_quantity) = 1
				AND max(l_quantity) = 50 AND count(DISTINCT l_quantity) = 50 FROM $t} ],
		[ 'l_extendedprice = quantity x retail price of the part', qq{
			SELECT bool_and(l_extendedprice = l_quantity *
				(90000 + ((l_partkey / 10) % 20001) + 100 * (l_partkey % 1000)) / 100.0) FROM $t} ],
		[ 'l_discount 0.00..0.10 and l_tax 0.00..0.08 in steps of 0.01, all seen', qq{
			SELECT bool_and(l_discount * 100 = trunc(l_discount * 100) AND l_tax * 100 = trunc(l_tax * 100))
				AND min(l_discount) = 0 AND max(l_discount) = 0.10 AND count(DISTINCT l_discount) = 11
				AND min(l_tax) = 0 AND max(l_tax) = 0.08 AND count(DISTINCT l_tax) = 9 FROM $t} ],
		[ 'receipt date = ship date + 1..30', qq{
			SELECT bool_and(l_receiptdate - l_shipdate BETWEEN 1 AND 30)
				AND min(l_receiptdate - l_shipdate) = 1 AND max(l_receiptdate - l_shipdate) = 30 FROM $t} ],
		# The order date is not stored: every line must admit one order date
		# d with ship = d + 1..121 and commit = d + 30..90, inside the range.
		[ 'one order date per order fits ship (+1..121) and commit (+30..90) dates', qq{
			SELECT bool_and(lo <= hi AND lo <= date '1998-12-31' - 151 AND hi >= date '1992-01-01')
			FROM (SELECT greatest(max(l_shipdate) - 121, max(l_commitdate) - 90) lo,
						 least(min(l_shipdate) - 1, min(l_commitdate) - 30) hi
				  FROM $t GROUP BY l_orderkey) o} ],
		[ 'dates within 1992-01-02 .. 1998-12-31', qq{
			SELECT min(l_shipdate) >= '1992-01-02' AND max(l_receiptdate) <= '1998-12-31'
				AND max(l_shipdate) > '1998-06-01' AND min(l_commitdate) < '1992-03-01' FROM $t} ],
		[ "l_returnflag R or A when received by 1995-06-17, else N; all seen", qq{
			SELECT bool_and(CASE WHEN l_receiptdate <= '1995-06-17' THEN l_returnflag IN ('R', 'A')
								 ELSE l_returnflag = 'N' END)
				AND count(DISTINCT l_returnflag) = 3 FROM $t} ],
		[ "l_linestatus O when shipped after 1995-06-17, else F", qq{
			SELECT bool_and((l_shipdate > '1995-06-17') = (l_linestatus = 'O'))
				AND count(DISTINCT l_linestatus) = 2 FROM $t} ],
		[ 'l_shipinstruct: the four instructions, all seen, blank-padded to 25 (and l_shipmode to 10)', qq{
			SELECT bool_and(l_shipinstruct IN ('DELIVER IN PERSON', 'COLLECT COD', 'NONE', 'TAKE BACK RETURN'))
				AND count(DISTINCT l_shipinstruct) = 4 AND bool_and(octet_length(l_shipinstruct) = 25 AND octet_length(l_shipmode) = 10)
			FROM $t} ],
		[ 'l_shipmode: the seven modes, all seen', qq{
			SELECT bool_and(l_shipmode IN ('REG AIR', 'AIR', 'RAIL', 'SHIP', 'TRUCK', 'MAIL', 'FOB'))
				AND count(DISTINCT l_shipmode) = 7 FROM $t} ],
		[ 'l_comment: 10..43 characters of words, all lengths seen, mostly distinct', qq{
			SELECT bool_and(length(l_comment) BETWEEN 10 AND 43 AND l_comment ~ '^[a-z ,.;!?]+\$')
				AND count(DISTINCT length(l_comment)) = 34
				AND count(DISTINCT l_comment) > 0.9 * count(*) FROM $t} ],
	);
	for my $r (@rules)
	{
		my ($name, $q) = @$r;
		is(sql($q), 't', "SF $sf: $name");
	}
}

# On disk: within 5 % of a dbgen-made lineitem after VACUUM FREEZE (153.6
# bytes a row), for COPY FREEZE and for the parallel load alike.
for my $jobs (1, 3)
{
	my $t = "size_j$jobs";
	my ($rc, $out, $err) = load('-s', '0.1', '-t', $t, '-j', $jobs, '-F', 'binary');
	is($rc, 0, "jobs $jobs: loaded") or diag($err);
	like($err, $jobs == 1 ? qr/COPY FREEZE .*then ANALYZE/ : qr/ COPY .*then VACUUM \(FREEZE, ANALYZE\)/,
		"jobs $jobs: the summary says how the table was frozen");
	my ($bytes, $pages, $rows) = split /\|/, sql(
		"SELECT pg_relation_size('$t')::numeric / count(*), pg_relation_size('$t') / 8192, count(*) FROM $t");
	cmp_ok(abs($bytes / 153.6 - 1), '<', 0.05,
		sprintf("jobs $jobs: %.1f bytes a row, within 5 %% of 153.6", $bytes));
	like($err, qr/$pages pages/, "jobs $jobs: the summary gives the page count");

	# Ready to measure: frozen, all-visible, analyzed; the first scan
	# dirties no page (no hint bits left to set).
	# Pages that hold rows, that is: parallel COPYs contending for the
	# extension lock make the server add extra blocks, and the few that stay
	# all-zero are never marked all-visible by VACUUM.  They hold nothing to
	# set hint bits on, which the scan check below confirms.
	is(sql("SELECT count(*) FROM pg_visibility_map('$t') v
			WHERE NOT (all_frozen AND all_visible)
			AND EXISTS (SELECT 1 FROM $t WHERE ctid >= ('(' || v.blkno || ',0)')::tid
										  AND ctid < ('(' || v.blkno + 1 || ',0)')::tid)"),
		'0', "jobs $jobs: every page with rows all-visible and all-frozen");
	my $empty = sql("SELECT count(*) FROM pg_visibility_map('$t') WHERE NOT all_visible");
	diag("jobs $jobs: $empty empty page(s) left by extension are not all-visible") if $empty > 0;
	is(sql("SELECT last_analyze IS NOT NULL AND n_live_tup = $rows FROM pg_stat_user_tables WHERE relname = '$t'"),
		't', "jobs $jobs: analyzed");
	$node->restart;    # empty shared_buffers: the scan reads every page
	my $plan = sql("EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF) SELECT count(*) FROM $t");
	like($plan, qr/Buffers: shared (hit|read)=/, "jobs $jobs: the scan reports its buffers");
	unlike($plan, qr/dirtied|written/, "jobs $jobs: the first scan dirties and writes no page");
}

# --unlogged makes an unlogged table.
{
	my ($rc) = load('-s', '0.01', '-t', 'unlogged_li', '--unlogged');
	is($rc, 0, '--unlogged: loaded');
	is(sql("SELECT relpersistence FROM pg_class WHERE relname = 'unlogged_li'"), 'u', '--unlogged: table is unlogged');
}

# --stdout writes dbgen-like '|' rows with no connection at all.
{
	my ($out, $err) = ('', '');
	IPC::Run::run([ $loader, '--stdout', '-s', '0.01', '-p', '1' ], '>', \$out, '2>', \$err);
	is($? >> 8, 0, '--stdout: exits 0 without a server');
	my @lines = split /\n/, $out;
	is(scalar(@lines), sql('SELECT count(*) FROM li_0_01'), '--stdout: as many rows as the load');
	like($lines[0], qr/^1\|\d+\|\d+\|1\|\d+\.00\|\d+\.\d\d\|0\.\d\d\|0\.\d\d\|[RAN]\|[OF]\|\d{4}-\d\d-\d\d\|/,
		'--stdout: first row looks like dbgen');
	is(scalar(grep { tr/|// != 15 } @lines), 0, '--stdout: 16 fields a row, no trailing |');
}

$node->stop;
done_testing();
