# workload_scans: one query given by the caller, a row per scan node, on a
# cluster of its own.
#   - A sequential scan, an index scan and a bitmap heap scan (of an index
#     uncorrelated with the heap): each gives its row, naming the table
#     and the index, with the rows it returned; cold it read blocks and
#     waited for them (the rate its bytes over its wait), warm it read
#     none.
#   - Refused before anything runs, with the SQLSTATE the server gives
#     its own refusals: a write, DDL, two statements, FOR UPDATE, a WITH
#     query that deletes; nothing changed.  A SELECT whose function writes
#     a table is stopped by the read-only transaction; one that writes a
#     temporary table runs, and the rows it wrote are rolled back.
#   - A query that fails (a division by zero) is the caller's error, and
#     a cancel (statement_timeout) stops it: nothing is left behind, the
#     session's settings are its own again and the next call runs, in a
#     session of its own and inside a transaction block, rolled back to
#     a savepoint.
#   - A role granted as doc/workload.md says runs it; without the grants
#     it is refused.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use JSON::PP;

my $node = PostgreSQL::Test::Cluster->new('scans');
$node->init;
$node->append_conf('postgresql.conf', q{
shared_buffers = 64MB
max_parallel_workers_per_gather = 0
autovacuum = off
});
$node->start;

# About 7 MB, less than a quarter of shared_buffers: a warm run finds it
# all there.  k is a permutation of g, uncorrelated with the heap.
$node->safe_psql('postgres', q{
	CREATE EXTENSION scanbench;
	CREATE TABLE s (g int, k int, pad text);
	INSERT INTO s SELECT g, (g::bigint * 7919) % 50000, repeat('x', 100) FROM generate_series(1, 50000) g;
	CREATE INDEX s_k ON s (k);
	VACUUM (FREEZE, ANALYZE) s;
	CHECKPOINT;
});

# The rows of a call, cold before warm, and the call's exit code and
# messages.
sub scans
{
	my ($query, %o) = @_;
	(my $q = $query) =~ s/'/''/g;
	my $args = "'$q'" . ($o{cache} ? ", '$o{cache}'" : '');
	my ($ret, $out, $err) = $node->psql('postgres',
		($o{set} // '') . "\nSELECT coalesce(json_agg(r ORDER BY r.cache, r.node), '[]') FROM workload_scans($args) r",
		$o{user} ? (extra_params => [ '-U', $o{user} ]) : ());
	return ($ret, $ret ? undef : decode_json($out), $err);
}

sub by_cache
{
	my ($rows, $type, $cache) = @_;
	my @m = grep { $_->{node_type} eq $type && $_->{cache} eq $cache } @$rows;
	return $m[0];
}

# ---- each access path, cold then warm ----
my @paths = (
	[ 'Seq Scan', 'SELECT count(*) FROM s', 'SET enable_indexonlyscan = off; SET enable_bitmapscan = off;', 50000, undef ],
	[ 'Index Scan', 'SELECT sum(length(pad)) FROM s WHERE k < 500',
	  'SET enable_seqscan = off; SET enable_bitmapscan = off;', 500, 's_k' ],
	[ 'Bitmap Heap Scan', 'SELECT sum(length(pad)) FROM s WHERE k < 500',
	  'SET enable_seqscan = off; SET enable_indexscan = off;', 500, 's_k' ],
);
for my $p (@paths)
{
	my ($type, $query, $set, $nrows, $idx) = @$p;
	my ($ret, $rows, $err) = scans($query, set => $set);
	is($ret, 0, "$type: the call runs") or diag($err);
	my $cold = by_cache($rows, $type, 'cold');
	my $warm = by_cache($rows, $type, 'warm');
	ok($cold && $warm, "$type: a cold and a warm row") or diag(explain($rows));
	next unless $cold && $warm;
	for my $r ($cold, $warm)
	{
		note("$type, $r->{cache}: " . join(', ', map { "$_ " . (ref $r->{$_} ? '{' . join(',', @{ $r->{$_} }) . '}' : $r->{$_} // 'NULL') }
			qw(relation idx rows loops blocks_read blocks_hit read_wait_s read_mb_s node_s read_wait_pct in_flight cached_pct reference verdict note)));
		is($r->{relation}, 's', "$type, $r->{cache}: the table");
		is($r->{idx}, $idx, "$type, $r->{cache}: the index") if defined $idx;
		is($r->{rows}, $nrows, "$type, $r->{cache}: $nrows rows");
		is($r->{bytes_read}, $r->{blocks_read} * 8192, "$type, $r->{cache}: bytes_read is blocks_read x 8192");
	}
	cmp_ok($cold->{blocks_read}, '>', 0, "$type, cold: $cold->{blocks_read} blocks read");
	is($warm->{blocks_read}, 0, "$type, warm: none read ($warm->{blocks_hit} found in shared_buffers)");
	cmp_ok($cold->{cached_pct}, '<=', 5, "$type, cold: $cold->{cached_pct} % resident after the eviction");
	if ($cold->{read_wait_s} > 0)
	{
		my $rate = $cold->{bytes_read} / $cold->{read_wait_s} / 1e6;
		cmp_ok(abs($cold->{read_mb_s} - $rate), '<=', 0.001 * $rate + 0.06,
			sprintf("%s, cold: read_mb_s %s is bytes over the wait (%.2f)", $type, $cold->{read_mb_s}, $rate));
	}
	else
	{
		ok(!defined $cold->{read_mb_s}, "$type, cold: no wait, no rate ($cold->{note})");
	}
	ok(!defined $warm->{verdict}, "$type, warm: nothing read, no verdict");
}

# ---- 19: each node's figures are EXPLAIN (IO)'s own ----
# auto_explain, with log_io, logs the very executions the call runs under
# EXPLAIN (a statement nested in the function), so a row's reads, wait
# and I/Os in flight can be held against the server's own figures for
# the same node of the same run, not against another run's.
if ($node->pg_version->major >= 19)
{
	my $ae = join("\n", "LOAD 'auto_explain';",
		map { "SET auto_explain.$_;" } ('log_min_duration = 0', 'log_analyze = on', 'log_buffers = on',
			'log_io = on', 'log_nested_statements = on', 'log_format = json'));
	for my $p (@paths)
	{
		my ($type, $query, $set) = @$p;
		my $offset = -s $node->logfile;
		my ($ret, $rows, $err) = scans($query, set => "$ae\n$set");
		is($ret, 0, "19, $type: the call runs under auto_explain") or diag($err);
		my $cold = by_cache($rows // [], $type, 'cold');
		# Each plan logged, as auto_explain writes it: one JSON object
		# after "plan:", each of its lines begun with a tab in the log.
		my $log = slurp_file($node->logfile, $offset);
		my @logged = map { decode_json(s/^\t//mgr) } ($log =~ /plan:\n((?:\t[^\n]*\n)+)/g);
		my @found;
		my $walk;
		$walk = sub {
			my ($n) = @_;
			push @found, $n if $n->{'Node Type'} eq $type && ($n->{'Relation Name'} // '') eq 's';
			$walk->($_) for @{ $n->{Plans} // [] };
		};
		$walk->($_->{Plan}) for grep { ($_->{'Query Text'} // '') =~ /^EXPLAIN/ } @logged;
		# The cold run is the one that read: the warm one finds every page.
		my @read = grep { ($_->{'Shared Read Blocks'} // 0) > 0 } @found;
		is(scalar(@read), 1, "19, $type: auto_explain logged one run of the node that read ("
			  . scalar(@found) . ' logged in all)')
		  or next;
		next unless $cold;
		# A node's own figures: EXPLAIN's are its children's too.
		my $own = sub {
			my ($n, $key) = @_;
			my $v = $n->{$key} // 0;
			$v -= $_->{$key} // 0 for @{ $n->{Plans} // [] };
			return $v;
		};
		my $n = $read[0];
		is($cold->{blocks_read}, $own->($n, 'Shared Read Blocks'),
			"19, $type, cold: blocks_read is the node's Shared Read Blocks");
		cmp_ok(abs($cold->{read_wait_s} * 1000 - $own->($n, 'Shared I/O Read Time')), '<=', 0.01,
			"19, $type, cold: read_wait_s is the node's Shared I/O Read Time ("
			  . $own->($n, 'Shared I/O Read Time') . ' ms)');
		if (($n->{'I/O Count'} // 0) > 0)
		{
			cmp_ok(abs($cold->{in_flight} - $n->{'Average I/Os In Progress'}), '<=', 0.05,
				"19, $type, cold: in_flight $cold->{in_flight} is the node's Average I/Os In Progress, "
				  . "to a tenth ($n->{'Average I/Os In Progress'})");
		}
		else
		{
			ok(!defined $cold->{in_flight}, "19, $type, cold: no I/O counted, no in_flight");
		}
	}
}

# ---- refused before anything runs; nothing changed ----
$node->safe_psql('postgres', q{
	CREATE TABLE w (a int);
	CREATE FUNCTION writes() RETURNS int LANGUAGE sql AS 'INSERT INTO w VALUES (1) RETURNING a';
	CREATE FUNCTION writes_temp() RETURNS int LANGUAGE plpgsql AS $$
	BEGIN
		INSERT INTO tmp VALUES (1);
		RETURN 1;
	END $$;
});
my @refused = (
	[ 'INSERT INTO w VALUES (1)', '25006', 'an INSERT' ],
	[ 'UPDATE s SET g = g + 1', '25006', 'an UPDATE' ],
	[ 'DELETE FROM s', '25006', 'a DELETE' ],
	[ 'DROP TABLE s', '0A000', 'DROP TABLE' ],
	[ 'CREATE TABLE made (a int)', '0A000', 'CREATE TABLE' ],
	[ 'TRUNCATE s', '0A000', 'TRUNCATE' ],
	[ 'SELECT count(*) FROM s; DELETE FROM s', '42601', 'two statements' ],
	[ 'SELECT * FROM s WHERE g = 1 FOR UPDATE', '25006', 'FOR UPDATE' ],
	[ 'WITH d AS (DELETE FROM s RETURNING *) SELECT count(*) FROM d', '25006', 'a WITH query that deletes' ],
	[ 'SELECT * INTO made FROM s', '25006', 'SELECT INTO' ],
	[ '', '22023', 'an empty text' ],
	# planned and run, read-only: the function's INSERT is refused
	[ 'SELECT writes() FROM s LIMIT 1', '25006', 'a function that writes' ],
);
for my $r (@refused)
{
	my ($query, $state, $what) = @$r;
	my ($ret, $rows, $err) = scans($query, set => '\set VERBOSITY verbose');
	isnt($ret, 0, "$what: refused");
	like($err, qr/ERROR:  $state:/, "$what: SQLSTATE $state") or diag($err);
}
is($node->safe_psql('postgres', q{SELECT count(*) || ' ' || sum(g) || ' ' || (SELECT count(*) FROM w) || ' ' || coalesce(to_regclass('made')::text, 'none') FROM s}),
	'50000 1250025000 0 none', 'nothing changed: the rows of s, none in w, no table made');

# A temporary table written by the query's function: rolled back.
my ($tret, $tout, $terr) = $node->psql('postgres', q{
	CREATE TEMP TABLE tmp (a int);
	SELECT count(*) FROM workload_scans('SELECT writes_temp() FROM s LIMIT 1');
	SELECT count(*) FROM tmp;});
is($tret, 0, 'a query that writes a temporary table runs') or diag($terr);
like($tout, qr/\n0$/, '... and what it wrote is rolled back');

# ---- a query that fails, and a cancel: nothing left behind ----
my $after = q{
	SELECT current_setting('transaction_read_only'), current_setting('track_io_timing');
	INSERT INTO w VALUES (2);
	SELECT count(*) FROM workload_scans('SELECT count(*) FROM s', 'warm');
	DELETE FROM w;};
my ($dret, $dout, $derr) = $node->psql('postgres',
	"SET track_io_timing = off;\n\\set VERBOSITY verbose\nSELECT * FROM workload_scans('SELECT count(*) FROM s WHERE 1 / (g - g) = 0');\n$after",
	on_error_stop => 0);
like($derr, qr/ERROR:  22012: division by zero/, 'a division by zero is the caller\'s error');
like($derr, qr/workload_scans, the cold run of the query/, '... said to come from the cold run');
is($dout, "off|off\n1", '... nothing left behind: read-write, track_io_timing off again, the next call runs')
  or diag($derr);

my ($cret, $cout, $cerr) = $node->psql('postgres',
	"SET statement_timeout = '500ms';\n\\set VERBOSITY verbose\nSELECT * FROM workload_scans('SELECT count(*) FROM s a, s b WHERE a.g + b.g > 0', 'warm');\nRESET statement_timeout;\n$after",
	on_error_stop => 0);
like($cerr, qr/ERROR:  57014: canceling statement due to statement timeout/, 'statement_timeout cancels the query');
is($cout, "off|off\n1", '... nothing left behind') or diag($cerr);

# Inside a transaction block: the failed call rolled back to a savepoint,
# the transaction goes on, its own write kept.
my ($bret, $bout, $berr) = $node->psql('postgres', q{
	BEGIN;
	INSERT INTO w VALUES (3);
	SAVEPOINT a;
	SELECT * FROM workload_scans('SELECT count(*) FROM s WHERE 1 / (g - g) = 0');
	ROLLBACK TO a;
	SELECT current_setting('transaction_read_only'), current_setting('track_io_timing');
	SELECT count(*) FROM workload_scans('SELECT count(*) FROM s', 'warm');
	SELECT count(*) FROM w;
	COMMIT;
	DELETE FROM w;}, on_error_stop => 0);
like($berr, qr/division by zero/, 'in a transaction block: the error');
is($bout, "off|off\n1\n1", '... rolled back to the savepoint, the block goes on, its own write kept') or diag($berr);

# ---- a role granted as doc/workload.md says ----
$node->safe_psql('postgres', q{
	CREATE ROLE dba LOGIN;
	CREATE ROLE nobody LOGIN;
	GRANT SELECT ON s TO nobody;
});
my ($nret, $nrows, $nerr) = scans('SELECT count(*) FROM s', user => 'nobody');
like($nerr, qr/permission denied for function workload_scans/, 'a role not granted is refused');
$node->safe_psql('postgres', q{
	GRANT EXECUTE ON FUNCTION workload_scans(text, text) TO dba;
	GRANT pg_monitor TO dba;
});
($nret, $nrows, $nerr) = scans('SELECT count(*) FROM s', user => 'dba');
like($nerr, qr/permission denied for table s/, 'granted, it runs the query with its own rights: no SELECT on s, refused');
$node->safe_psql('postgres', 'GRANT SELECT ON s TO dba');
($nret, $nrows, $nerr) = scans('SELECT count(*) FROM s', user => 'dba',
	set => 'SET enable_indexonlyscan = off; SET enable_bitmapscan = off;');
is($nret, 0, 'granted, with SELECT on the table, it runs') or diag($nerr);
my $dcold = by_cache($nrows // [], 'Seq Scan', 'cold');
ok($dcold && $dcold->{blocks_read} > 0, '... cold, the table read' . ($dcold ? " ($dcold->{blocks_read} blocks)" : ''));

$node->stop;
done_testing();
