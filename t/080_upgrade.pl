# Upgrades: installing an old version and running ALTER EXTENSION scanbench
# UPDATE gives exactly what a fresh CREATE EXTENSION of the current version
# gives, from every old version that has an update path.  Compared: the
# member objects, function definitions (arguments with defaults, result,
# volatility, strictness, parallel safety, cost, language, symbol, SET
# clauses), result types' columns in order and their types, tables'
# columns in order with NOT NULL, defaults, constraints and indexes,
# sequences, views, schemas, every comment, ACLs and initial privileges,
# and the configuration tables pg_dump would dump.  Nothing
# here names an object, so it holds as the upgrade scripts grow.
#
# Users keep result rows in tables made OF a result type (the README's
# history table) or with a column of one: the update must go through with
# such tables in place and keep their rows.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib $FindBin::RealBin;
use SbCitus;

my $node = PostgreSQL::Test::Cluster->new('upgrade');
$node->init;
$node->start;

sub sql { my ($db, $q) = @_; return $node->safe_psql($db, $q); }

my $ext = "(SELECT oid FROM pg_extension WHERE extname = 'scanbench')";
my $members = "SELECT classid, objid, objsubid FROM pg_depend
	WHERE refclassid = 'pg_extension'::regclass AND refobjid = $ext AND deptype = 'e'";

# What is compared, one query a kind, each giving text in a stable order.
my %snapshot = (
	'member objects' => qq{
		SELECT pg_describe_object(classid, objid, objsubid) FROM ($members) m ORDER BY 1},
	'functions' => qq{
		SELECT p.oid::regprocedure::text || E'\\n' ||
			CASE WHEN p.prokind IN ('f', 'p') THEN pg_get_functiondef(p.oid) ELSE p.prokind::text END ||
			E'\\nreturns set: ' || p.proretset || ', cost ' || p.procost || ', rows ' || p.prorows ||
			E'\\nvolatility ' || p.provolatile::text || ', parallel ' || p.proparallel::text ||
			', strict ' || p.proisstrict || ', security definer ' || p.prosecdef ||
			', config ' || coalesce(p.proconfig::text, 'none') ||
			E'\\nsymbol ' || p.prosrc || ' in ' || coalesce(p.probin, '') ||
			E'\\nACL ' || coalesce(p.proacl::text, 'default')
		FROM ($members) m JOIN pg_proc p ON m.classid = 'pg_proc'::regclass AND p.oid = m.objid
		ORDER BY p.oid::regprocedure::text},
	'types' => qq{
		SELECT format_type(t.oid, NULL) || ' (' || t.typtype::text || ') ACL ' || coalesce(t.typacl::text, 'default') ||
			coalesce(E'\\n' || (SELECT string_agg('  ' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
									|| CASE WHEN a.attnotnull THEN ' not null' ELSE '' END,
									E'\\n' ORDER BY a.attnum)
							   FROM pg_attribute a
							   WHERE a.attrelid = t.typrelid AND a.attnum > 0 AND NOT a.attisdropped), '') ||
			coalesce(E'\\n  enum ' || (SELECT string_agg(e.enumlabel, ', ' ORDER BY e.enumsortorder)
									  FROM pg_enum e WHERE e.enumtypid = t.oid), '') ||
			CASE WHEN t.typtype = 'd' THEN E'\\n  domain over ' || format_type(t.typbasetype, t.typtypmod) ||
				coalesce(' ' || (SELECT string_agg(pg_get_constraintdef(c.oid), ' ' ORDER BY c.conname)
								 FROM pg_constraint c WHERE c.contypid = t.oid), '')
			ELSE '' END
		FROM ($members) m JOIN pg_type t ON m.classid = 'pg_type'::regclass AND t.oid = m.objid
		ORDER BY 1},
	# Relations: columns in order with their types, NOT NULL, defaults and
	# column privileges; constraints, indexes and triggers of tables;
	# sequences' parameters; views' definitions.
	'relations' => qq{
		SELECT c.oid::regclass || ' (' || c.relkind::text || ') ACL ' || coalesce(c.relacl::text, 'default') ||
			coalesce(E'\\n' || (SELECT string_agg('  ' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
									|| CASE WHEN a.attnotnull THEN ' not null' ELSE '' END
									|| coalesce(' default ' || pg_get_expr(d.adbin, d.adrelid), '')
									|| coalesce(' ACL ' || a.attacl::text, ''),
									E'\\n' ORDER BY a.attnum)
							   FROM pg_attribute a
							   LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
							   WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped), '') ||
			coalesce(E'\\n' || (SELECT string_agg('  constraint ' || k.conname || ' ' || pg_get_constraintdef(k.oid),
									E'\\n' ORDER BY k.conname)
							   FROM pg_constraint k WHERE k.conrelid = c.oid), '') ||
			coalesce(E'\\n' || (SELECT string_agg('  ' || pg_get_indexdef(i.indexrelid), E'\\n'
									ORDER BY pg_get_indexdef(i.indexrelid))
							   FROM pg_index i WHERE i.indrelid = c.oid), '') ||
			coalesce(E'\\n' || (SELECT string_agg('  ' || pg_get_triggerdef(g.oid), E'\\n' ORDER BY g.tgname)
							   FROM pg_trigger g WHERE g.tgrelid = c.oid AND NOT g.tgisinternal), '') ||
			coalesce((SELECT E'\\n  sequence ' || format_type(q.seqtypid, NULL) || ' start ' || q.seqstart ||
						 ' increment ' || q.seqincrement || ' min ' || q.seqmin || ' max ' || q.seqmax ||
						 ' cache ' || q.seqcache || ' cycle ' || q.seqcycle ||
						 coalesce(' owned by ' || (SELECT pg_describe_object(o.refclassid, o.refobjid, o.refobjsubid)
												   FROM pg_depend o WHERE o.classid = 'pg_class'::regclass
												   AND o.objid = c.oid AND o.deptype = 'a'), '')
					  FROM pg_sequence q WHERE q.seqrelid = c.oid), '') ||
			CASE WHEN c.relkind IN ('v', 'm') THEN E'\\n' || pg_get_viewdef(c.oid) ELSE '' END
		FROM ($members) m JOIN pg_class c ON m.classid = 'pg_class'::regclass AND c.oid = m.objid
		ORDER BY 1},
	'schemas' => qq{
		SELECT coalesce(string_agg(n.nspname || ' owner ' || n.nspowner::regrole || ' ACL ' || coalesce(n.nspacl::text, 'default'),
								   E'\\n' ORDER BY n.nspname), 'none')
		FROM ($members) m JOIN pg_namespace n ON m.classid = 'pg_namespace'::regclass AND n.oid = m.objid},
	# Comments on the members and on their columns (a composite type's
	# columns are those of its pg_class entry).
	'comments' => qq{
		SELECT pg_describe_object(d.classoid, d.objoid, d.objsubid) || ': ' || d.description
		FROM pg_description d
		WHERE (d.classoid, d.objoid) IN (SELECT classid, objid FROM ($members) m)
		   OR (d.classoid = 'pg_class'::regclass AND d.objoid IN
				(SELECT t.typrelid FROM ($members) m JOIN pg_type t
				 ON m.classid = 'pg_type'::regclass AND t.oid = m.objid))
		ORDER BY 1},
	'initial privileges' => qq{
		SELECT pg_describe_object(i.classoid, i.objoid, i.objsubid) || ' ' || i.privtype::text || ' ' || i.initprivs::text
		FROM pg_init_privs i
		WHERE (i.classoid, i.objoid) IN (SELECT classid, objid FROM ($members) m)
		ORDER BY 1},
	'configuration tables' => qq{
		SELECT coalesce(string_agg(cfg::regclass || ' ' || coalesce(cond, ''), E'\\n' ORDER BY cfg::regclass::text), 'none')
		FROM pg_extension e, unnest(e.extconfig, e.extcondition) AS u(cfg, cond)
		WHERE e.extname = 'scanbench'},
	'extension' => qq{
		SELECT extversion || ' relocatable ' || extrelocatable || ' in ' || extnamespace::regnamespace
		FROM pg_extension WHERE extname = 'scanbench'},
);

# The lines only one side has (each with its count), as "-" for the
# update and "+" for the fresh install: the snapshots are long.
sub line_diff
{
	my ($up, $fresh) = @_;
	my %n;
	$n{$_}-- for split /\n/, $up;
	$n{$_}++ for split /\n/, $fresh;
	my @d = map { ($n{$_} < 0 ? '-' : '+') . ' ' . $_ } grep { $n{$_} } sort keys %n;
	if (!@d)
	{
		# The same lines in another order: show where the order parts.
		my @u = split /\n/, $up;
		my @f = split /\n/, $fresh;
		my $i = 0;
		$i++ while $i < @u && $u[$i] eq $f[$i];
		my $to = $i + 3 < $#u ? $i + 3 : $#u;
		@d = ("same lines, another order, from line " . ($i + 1) . ':',
			  (map { "- $_" } @u[$i .. $to]), (map { "+ $_" } @f[$i .. $to]));
	}
	return join("\n", @d[0 .. ($#d < 40 ? $#d : 39)], @d > 40 ? ('... ' . (@d - 40) . ' more') : ());
}

# Every kind in one psql, each after a line naming it: a psql a kind was
# ten processes a snapshot, on every major.
sub snapshot
{
	my $db = shift;
	my $out = sql($db, join('', map { "\\echo ==snapshot $_==\n$snapshot{$_};\n" } sort keys %snapshot));
	my (%lines, $kind);
	for my $line (split /\n/, $out, -1)
	{
		if ($line =~ /^==snapshot (.+)==$/ && exists $snapshot{$1})
		{
			$kind = $1;
			$lines{$kind} = [];
			next;
		}
		die "snapshot: a line before the first kind: $line" unless defined $kind;
		push @{ $lines{$kind} }, $line;
	}
	die 'snapshot: ' . scalar(keys %lines) . ' kinds read of ' . scalar(keys %snapshot)
	  unless keys %lines == keys %snapshot;
	return { map { $_ => join("\n", @{ $lines{$_} }) } keys %lines };
}

# The library serves the SQL definitions of every earlier version: a
# database not yet at ALTER EXTENSION UPDATE (after a package upgrade, say)
# calls the new library through its old CREATE FUNCTIONs.  Every C function
# of each old version is called that way, and must answer: a crash would
# reset every connection of the cluster.  A C function of an old version
# with no call below fails the test, so a new one cannot be forgotten.
# A column renamed since is checked under its old name (mb_s, seconds,
# fstype): the library fills it there.  The read's seconds are rounded to
# milliseconds, and a warm read of the small table can take less: they
# must be there, not above 0.
my %old_call = (
	raw_read => q{SELECT bytes > 0 AND mb_s > 0 AND seconds >= 0 FROM raw_read('t', cache => 'warm')},
	raw_read_segments => q{SELECT count(*) > 0 FROM raw_read_segments('t', cache => 'warm')},
	scan_rate => q{SELECT rows = 20000 AND mb_s > 0 FROM scan_rate('t', 'warm')},
	scan_efficiency => q{SELECT rows = 20000 AND scan_pct > 0 FROM scan_efficiency('t', 'warm')},
	scan_breakdown => q{SELECT rows = 20000 FROM scan_breakdown('t', 'warm')},
	scan_shapes => q{SELECT count(*) > 0 FROM scan_shapes('t')},
	scan_sweep => q{SELECT count(*) = 2 FROM scan_sweep('t', 'effective_io_concurrency', ARRAY['1', '2'], 'warm')},
	storage_info_rel => q{SELECT count(fstype) > 0 FROM storage_info('t'::regclass)},
	storage_info_tablespace => q{SELECT count(*) > 0 FROM storage_info('pg_default'::name)},
	storage_profile => q{SELECT count(*) = 5 FROM storage_profile('pg_default', 1, 8192, 10)},
	random_read => q{SELECT reads = 100 FROM random_read('t', 100, 8192, 'warm')},
	scan_history_kernel => q{SELECT scan_history_kernel() <> ''},
	scan_history_outside_block => q{SELECT true FROM (SELECT scan_history_outside_block()) AS s},
	# Citus tables only: a plain table gets an error, never a crash.
	scan_efficiency_shards => q{SELECT count(*) FROM scan_efficiency_shards('t', 'warm')},
	scan_efficiency_node => q{SELECT scan_efficiency_node('read', 'warm', 8192, '{}', '{}') IS NOT NULL},
);
# 0.3 put cache second in every function, renamed the result columns
# (read_mb_s, read_s, scan_mb_s, filesystem) and moved the history's C
# helpers into scanbench_internal; its calls are written as 0.3 names them.
my %old_call_since = (
	'0.3' => {
		raw_read => q{SELECT bytes > 0 AND read_mb_s > 0 AND read_s >= 0 FROM raw_read('t', 'warm')},
		random_read => q{SELECT reads = 100 FROM random_read('t', 'warm', 100, 8192)},
		scan_rate => q{SELECT rows = 20000 AND scan_mb_s > 0 FROM scan_rate('t', 'warm')},
		scan_sweep => q{SELECT count(*) = 2 FROM scan_sweep('t', 'warm', 'effective_io_concurrency', ARRAY['1', '2'])},
		storage_info_rel => q{SELECT count(filesystem) > 0 FROM storage_info('t'::regclass)},
		storage_info_tablespace => q{SELECT count(*) > 0 FROM storage_info_tablespace('pg_default')},
		# A small table may get no advice in 3 s; the call must answer.
		scan_advice => q{SELECT count(*) >= 0 FROM scan_advice('t', 'warm', 3)},
		scan_history_kernel => q{SELECT scanbench_internal.scan_history_kernel() <> ''},
		scan_history_outside_block => q{SELECT true FROM (SELECT scanbench_internal.scan_history_outside_block()) AS s},
		scan_history_svg => q{SELECT scan_history_svg() LIKE '<svg%'},
	},
	# 0.4.0 added the table of the verdict's marks.
	'0.4.0' => {
		scan_verdict_marks => q{SELECT count(*) >= 10 FROM scan_verdict_marks()},
	},
);
my %may_refuse = (scan_efficiency_shards => 1);

# The call of C function $f under version $v's definitions: the latest
# variant written for $v or a version before it, else the first one.
sub old_call
{
	my ($v, $f) = @_;
	my $q = $old_call{$f};
	for my $since (sort { version_cmp($a, $b) } keys %old_call_since)
	{
		$q = $old_call_since{$since}{$f} // $q if version_cmp($since, $v) <= 0;
	}
	return $q;
}

sub version_cmp
{
	my @a = split /\./, shift;
	my @b = split /\./, shift;
	for my $i (0 .. ($#a > $#b ? $#a : $#b))
	{
		my $c = ($a[$i] // 0) <=> ($b[$i] // 0);
		return $c if $c;
	}
	return 0;
}

sub call_old_definitions
{
	my ($db, $v) = @_;
	sql($db, q{CREATE TABLE t AS SELECT g, repeat('x', 100) AS pad FROM generate_series(1, 20000) g; VACUUM t});
	my @c_funcs = split /\n/, sql($db, qq{
		SELECT DISTINCT p.prosrc FROM ($members) m JOIN pg_proc p
		ON m.classid = 'pg_proc'::regclass AND p.oid = m.objid
		JOIN pg_language l ON l.oid = p.prolang AND l.lanname = 'c' ORDER BY 1});
	ok(scalar(@c_funcs) >= 4, "$v: C functions of the old definitions: " . scalar(@c_funcs));
	for my $f (@c_funcs)
	{
		my $q = old_call($v, $f);
		ok(defined $q, "$v: $f has a call under the old definitions") or next;
		my ($rc, $out, $err) = $node->psql($db, $q);
		if ($may_refuse{$f})
		{
			ok($rc == 0 || ($rc == 3 && $err =~ /ERROR:/), "$v: $f under the old definition answers or refuses cleanly")
			  or diag("rc $rc: $err");
		}
		else
		{
			is("$rc $out", '0 t', "$v: $f works under the old definition with the new library")
			  or diag($err);
		}
		is($node->safe_psql('postgres', 'SELECT 1'), '1', "$v: the server is up after $f");
	}
	unlike(slurp_file($node->logfile), qr/terminated by signal/,
		"$v: no backend crashed under the old definitions");
}

sql('postgres', 'CREATE DATABASE fresh');
sql('fresh', 'CREATE EXTENSION scanbench');
my $current = sql('fresh', "SELECT extversion FROM pg_extension WHERE extname = 'scanbench'");
is($current, sql('postgres', "SELECT default_version FROM pg_available_extensions WHERE name = 'scanbench'"),
	"a fresh install is the default version $current");
my $fresh = snapshot('fresh');
like($fresh->{'member objects'}, qr/^function scan_efficiency\(/m, 'the snapshot sees the members');
like($fresh->{'types'}, qr/^scan_efficiency_result \(c\).*\n  relation regclass/m,
	'the snapshot sees the result types\' columns');

my @old = split /\n/, sql('postgres', qq{
	SELECT source FROM pg_extension_update_paths('scanbench')
	WHERE target = '$current' AND path IS NOT NULL AND source <> '$current'
	ORDER BY string_to_array(source, '.')::int[]});
ok(scalar(@old) >= 1, 'old versions with an update path: ' . join(', ', @old));
is(sql('postgres', qq{SELECT count(*) FROM pg_available_extension_versions
	WHERE name = 'scanbench' AND version <> '$current'}), scalar(@old),
	'every old version can be updated to the current one');

for my $v (@old)
{
	my $db = "from_" . ($v =~ s/\W/_/gr);
	sql('postgres', "CREATE DATABASE $db");
	sql($db, "CREATE EXTENSION scanbench VERSION '$v'");
	call_old_definitions($db, $v);
	sql($db, 'ALTER EXTENSION scanbench UPDATE');
	is(sql($db, "SELECT extversion FROM pg_extension WHERE extname = 'scanbench'"), $current,
		"$v: updated to $current");
	my $up = snapshot($db);
	for my $kind (sort keys %snapshot)
	{
		ok($up->{$kind} eq $fresh->{$kind}, "$v updated and $current installed: same $kind")
		  or diag(line_diff($up->{$kind}, $fresh->{$kind}));
	}
}

# An argument that kept its name in some definition and changed its type
# is refused by name, never read as the type the library expects.
sql('fresh', q{CREATE TABLE t AS SELECT g FROM generate_series(1, 1000) g;
	CREATE FUNCTION sb_retyped(rel regclass, cache text, block_size text)
	RETURNS scan_efficiency_result AS '$libdir/scanbench', 'scan_efficiency' LANGUAGE C});
my ($rc, $out, $err) = $node->psql('fresh', q{SELECT * FROM sb_retyped('t', 'warm', '8192')});
like($err, qr/argument block_size of sb_retyped\(\) is of type text, which this version of scanbench does not read.*HINT:  Run ALTER EXTENSION scanbench UPDATE/s,
	'a definition whose argument changed type is refused, naming the argument');
is($node->safe_psql('postgres', 'SELECT 1'), '1', 'the server is up after the refusal');

# A history table OF each result type (the standalone composite types:
# CREATE TABLE OF refuses a table's row type, which a member's pg_depend
# rows may also name) and a table with a column of it, each
# holding a row, as users keep results: the update goes through, the rows
# stay, and a history table gains the type's new columns.
for my $v (@old)
{
	my $db = "kept_" . ($v =~ s/\W/_/gr);
	sql('postgres', "CREATE DATABASE $db");
	sql($db, "CREATE EXTENSION scanbench VERSION '$v'");
	my @types = split /\n/, sql($db, qq{
		SELECT t.typname FROM ($members) m JOIN pg_type t
		ON m.classid = 'pg_type'::regclass AND t.oid = m.objid
		JOIN pg_class c ON c.oid = t.typrelid AND c.relkind = 'c' ORDER BY 1});
	for my $t (@types)
	{
		sql($db, "CREATE TABLE hist_$t OF $t; INSERT INTO hist_$t DEFAULT VALUES;
				  CREATE TABLE col_$t (id int, r $t);
				  INSERT INTO col_$t VALUES (1, NULL), (2, jsonb_populate_record(NULL::$t, '{}'));");
	}

	my ($rc, $out, $err) = $node->psql($db, 'ALTER EXTENSION scanbench UPDATE');
	is($rc, 0, "$v: ALTER EXTENSION scanbench UPDATE goes through with tables of its result types")
	  or diag($err);
	# One psql a type, a line a query: four psql processes a type were
	# two fifths of the file's time, on every major.
	for my $t (@types)
	{
		my $cols = q{
			SELECT string_agg(attname || ' ' || format_type(atttypid, atttypmod), ', ' ORDER BY attnum)
			FROM pg_attribute WHERE attrelid = '%s'::regclass AND attnum > 0 AND NOT attisdropped;};
		my ($kept, $hist_cols, $type_cols) = split /\n/, sql($db,
			"SELECT (SELECT count(*) FROM hist_$t) || ' ' || (SELECT count(*) FROM col_$t);"
			  . sprintf($cols, "hist_$t") . sprintf($cols, $t)), -1;
		is($kept, '1 2', "$v: rows of tables of $t are kept");
		is($hist_cols, $type_cols, "$v: the history table OF $t has the type's columns");
	}
}

$node->stop;

# On a Citus table: scan_efficiency through each version's definition,
# before ALTER EXTENSION UPDATE and after, records a run when asked to
# (record => true, and efficiency_check), once, and records nothing
# otherwise (restore => true, which puts the nodes' caches back).
subtest 'a Citus table under every definition' => sub {
	my $why = SbCitus::unavailable();
	plan skip_all => $why if defined $why;
	my ($coord, $w1, $w2) = SbCitus::start_cluster('upgrade');
	$coord->safe_psql('postgres', q{
		CREATE TABLE ct (id bigint, pad text);
		SELECT create_distributed_table('ct', 'id', shard_count => 4);
		INSERT INTO ct SELECT g, repeat('x', 100) FROM generate_series(1, 20000) g;
		VACUUM ct});
	my $runs = sub {
		return 0 if $coord->safe_psql('postgres', "SELECT to_regclass('scan_history') IS NULL") eq 't';
		return $coord->safe_psql('postgres', 'SELECT count(*) FROM scan_history');
	};
	my $has = sub {
		my ($name, $arg) = @_;
		return $coord->safe_psql('postgres', qq{
			SELECT count(*) > 0 FROM pg_proc WHERE proname = '$name'
			   AND (SELECT '$arg' = ANY (proargnames) OR '$arg' = '')}) eq 't';
	};
	# A call adds $added runs to the history.
	my $calls = sub {
		my ($when) = @_;
		# 0.1 measured no Citus table: the call says so, and nothing else.
		if (!$has->('scan_efficiency_node', ''))
		{
			my ($rc, $out, $err) = $coord->psql('postgres', q{SELECT * FROM scan_efficiency('ct', 'warm')});
			like($err, qr/ERROR:  measuring the placements of "ct" failed.*HINT:  scanbench must be installed on every node, at a version that measures Citus tables/s,
				"$when: a Citus table is refused, pointing at ALTER EXTENSION UPDATE");
			return;
		}
		# The nodes put their caches back from 0.4.0's definition on;
		# before, the call measures, warns and records nothing.
		my $restores = $has->('scan_efficiency_node', 'snapshots') ? 'NOT NULL' : 'NULL';
		# The default method's pairs over four shards of under a megabyte
		# run until their interval is narrow, or a minute: a budget of a
		# few seconds where the definition takes one.
		my $budget = $has->('scan_efficiency', 'max_seconds') ? ', max_seconds => 5' : '';
		my @calls = ([ qq{SELECT rows = 20000 FROM scan_efficiency('ct', 'warm'$budget)}, 0 ]);
		push @calls, [ q{SELECT rows = 20000 FROM scan_efficiency('ct', 'warm', runs => 2, method => 'whole', record => true)}, 1 ]
		  if $has->('scan_efficiency', 'record');
		push @calls, [ qq{SELECT rows = 20000 AND restored_pct IS $restores FROM scan_efficiency('ct', 'warm', runs => 2, method => 'whole', restore => true)}, 0 ]
		  if $has->('scan_efficiency', 'restore');
		push @calls, [ q{SELECT count(*) > 0 FROM scan_efficiency_shards('ct', 'warm')}, 0 ];
		for my $c (@calls)
		{
			my ($q, $added) = @$c;
			my $before = $runs->();
			my ($rc, $out, $err) = $coord->psql('postgres', $q);
			is("$rc $out", '0 t', "$when: $q") or diag($err);
			is($runs->(), $before + $added, "$when: ... recorded $added run" . ($added == 1 ? '' : 's'));
		}
		if ($has->('efficiency_check', ''))
		{
			my $before = $runs->();
			my ($rc, $out, $err) = $coord->psql('postgres',
				q{CALL efficiency_check('ct', 'warm', max_drop_pct => 90, method => 'whole', runs => 2)});
			is($rc, 0, "$when: efficiency_check on a Citus table") or diag($err);
			is($runs->(), $before + 1, "$when: ... recorded exactly one run");
		}
	};
	my $current = $coord->safe_psql('postgres',
		"SELECT extversion FROM pg_extension WHERE extname = 'scanbench'");
	for my $v (@old)
	{
		$coord->safe_psql('postgres', 'DROP EXTENSION scanbench');
		$coord->safe_psql('postgres', "CREATE EXTENSION scanbench VERSION '$v'");
		$calls->("$v, before the update");
		$coord->safe_psql('postgres', 'ALTER EXTENSION scanbench UPDATE');
		is($coord->safe_psql('postgres', "SELECT extversion FROM pg_extension WHERE extname = 'scanbench'"),
			$current, "$v: updated to $current on the cluster");
		$calls->("$v, after the update");
	}
	unlike(slurp_file($_->logfile), qr/terminated by signal/, $_->name . ': no backend crashed')
	  for ($coord, $w1, $w2);
	$_->stop for ($coord, $w1, $w2);
};

done_testing();
