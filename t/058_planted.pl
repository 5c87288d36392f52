# Code planted by a role that can CREATE in a schema on the caller's path
# never runs inside scanbench.
#
# A role with CREATE on public (the default up to PostgreSQL 14, kept by
# upgrades from 14), and on the extension's own schema, plants before the
# extension is made:
#  - operators over every pair of a dozen types (the exact match that beats
#    pg_catalog's when that needs a cast, and exact duplicates of
#    pg_catalog's, which win where public comes first on the path), for
#    every operator scanbench's SQL uses;
#  - functions and aggregates under the name of every function scanbench's
#    SQL and PL/pgSQL call, with the argument types those calls could match
#    more exactly than pg_catalog's (polymorphic, "any", VARIADIC) do;
#  - functions under the names of scanbench's own helpers
#    (scan_history_marks, scan_history_median, ...), in public and in the
#    extension's schema, where an unqualified call would find them;
#  - types under the names of the built-in types (a domain whose CHECK
#    runs planted code), which a PL/pgSQL variable declared unqualified
#    resolves through the caller's path;
#  - with the extension in a schema whose name needs quotes ("Sb Own"),
#    a schema named as that name quoted ("Sb Own" with the quotes, made
#    with CREATE on the database), holding a history of her own whose
#    triggers count themselves: a name quoted twice would address it.
# Casts cannot be planted: CREATE CAST needs the ownership of its source
# or target type, and the test checks that the role is refused one between
# built-in types.  Every planted body counts itself in a sequence (which a
# rollback does not undo) and raises a WARNING naming itself.
#
# Then every function and procedure of the extension (listed from the
# catalog: the test fails if one has no call here) is called as a
# superuser, once with the server's default path and once with public and
# the extension's schema before pg_catalog, and those granted to
# pg_monitor are called by a member of it.  No planted code may run.
#
# With the extension in public and with it in a schema of its own whose
# name needs quotes.
#
# Against the bodies of 0.3 (this test run on the tree before they were
# qualified) it fails 126 of 377 tests: CREATE EXTENSION itself binds to
# the planted code (the history's DEFAULT nextval('scan_history_id_seq')
# took the planted nextval(text), "column id is of type bigint but default
# expression is of type text"; the trend's array_agg(...)[1] took the
# planted array_agg), so nothing can be called; and before the scan's
# select list was resolved in pg_catalog alone, the count(1) of scan_rate,
# scan_breakdown, scan_shapes, scan_sweep, scan_efficiency and scan_advice
# ran the planted count(integer) (its nextval() refused only because the
# scan runs read-only).
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('planted');
$node->init;
# pg_stat_statements loaded, for the workload's snapshots.
$node->append_conf('postgresql.conf',
	"shared_buffers = 32MB\nshared_preload_libraries = 'pg_stat_statements'\ntrack_io_timing = on\n");
$node->start;

$node->safe_psql('postgres', q{
	CREATE ROLE other LOGIN;
	CREATE ROLE mon LOGIN;
	GRANT pg_monitor TO mon;
});

my @types = qw(int4 int8 float8 numeric text bool timestamptz interval jsonb text[] oid regclass);
my %is_type = map { $_ => 1 } @types;

# The result type a planted operator gives, close enough to the real one
# that a query using it still parses (and so runs the planted body).
sub op_result
{
	my ($op, $l, $r) = @_;
	return 'bool' if $op =~ /^(=|<>|<|>|<=|>=|&&|\@>|<\@|~~|\?)$/;
	return 'jsonb' if $op eq '->';
	return 'text' if $op eq '->>' || $op eq '||';
	return 'float8' if $l eq 'float8' || $r eq 'float8';
	return 'numeric' if $l eq 'numeric' || $r eq 'numeric';
	return $l;
}

sub qtype
{
	my ($t) = @_;
	return $t =~ /^(.*)\[\]$/ ? "pg_catalog.$1\[\]" : "pg_catalog.$t";
}

# A planted body: counts itself, says so, gives NULL (or no row).
sub body
{
	my ($what, $bare) = @_;
	$what =~ s/'/''/g;
	my $ret = $bare ? 'RETURN;' : 'RETURN NULL;';
	# IMMUTABLE, as a planter would declare it so that no check for
	# volatile functions stops it; the WARNING first, since a read-only
	# transaction refuses nextval().
	return "LANGUAGE plpgsql IMMUTABLE SET search_path = pg_catalog AS \$p\$BEGIN "
	  . "RAISE WARNING 'planted code ran: %', '$what'; "
	  . "PERFORM pg_catalog.nextval('public.planted_hits'::pg_catalog.regclass); $ret END\$p\$";
}

my $fn_no = 0;
my %planted;

# One function, unless one of that name and those argument types is there.
sub plant_function
{
	my ($schema, $name, $args, $result, $setof) = @_;
	my $argl = join(', ', map { qtype($_) } @$args);
	return '' if $planted{"$schema.$name($argl)"}++;
	my $ret = ($setof ? 'SETOF ' : '') . ($is_type{$result} ? qtype($result) : $result);
	return "CREATE FUNCTION $schema.$name($argl) RETURNS $ret "
	  . body("$schema.$name($argl)", $setof || $result eq 'void') . ";\n";
}

# The SQL a role with CREATE on $schema runs to plant everything there.
sub plant_sql
{
	my ($schema) = @_;
	my $sql = '';

	# Operators.
	my @binary = ('=', '<>', '<', '>', '<=', '>=', '+', '-', '*', '/', '%',
		'||', '&&', '->', '->>', '<<', '|', '@>', '~~');
	for my $op (@binary)
	{
		for my $l (@types)
		{
			for my $r (@types)
			{
				my $f = 'planted_op_' . $fn_no++;
				$sql .= plant_function($schema, $f, [ $l, $r ], op_result($op, $l, $r));
				$sql .= "CREATE OPERATOR $schema.$op (LEFTARG = " . qtype($l)
				  . ", RIGHTARG = " . qtype($r) . ", FUNCTION = $schema.$f);\n";
			}
		}
	}
	for my $r (qw(int4 int8 float8 numeric interval))
	{
		my $f = 'planted_op_' . $fn_no++;
		$sql .= plant_function($schema, $f, [$r], $r);
		$sql .= "CREATE OPERATOR $schema.- (RIGHTARG = " . qtype($r) . ", FUNCTION = $schema.$f);\n";
	}

	# Functions, by the name scanbench calls them.  One and two arguments
	# of every type; a third for those that take one.
	my %text_result = map { $_ => 1 } qw(format replace array_to_string
	  quote_ident quote_literal to_char pg_size_pretty concat_ws concat
	  current_setting set_config jsonb_typeof lower upper substr trim btrim
	  string_agg);
	my @scalar = qw(round abs floor ceil trunc sqrt power exp ln log
	  isfinite format replace array_to_string quote_ident
	  quote_literal to_char pg_size_pretty concat_ws concat current_setting
	  set_config cardinality array_length string_to_array make_interval
	  now clock_timestamp statement_timestamp to_jsonb jsonb_typeof
	  hashtext pg_advisory_xact_lock nextval pg_extension_config_dump
	  date_part to_timestamp lower upper length substr btrim
	  jsonb_build_object pg_relation_size has_function_privilege
	  has_table_privilege has_sequence_privilege pg_is_in_recovery
	  num_nonnulls to_regclass current_database date_trunc);
	for my $a (qw(text float8 numeric int4 int8))
	{
		my $ta = qtype($a) . '[]';
		for my $name (qw(format concat_ws))
		{
			next if $planted{"$schema.$name(pg_catalog.text, $ta)"}++;
			$sql .= "CREATE FUNCTION $schema.$name(pg_catalog.text, VARIADIC $ta) RETURNS pg_catalog.text "
			  . body("$schema.$name(text, VARIADIC $a\[\])") . ";\n";
		}
	}

	$sql .= "CREATE FUNCTION $schema.make_interval(days pg_catalog.int4) RETURNS pg_catalog.interval "
	  . body("$schema.make_interval(days int4)") . ";\n";
	$planted{"$schema.make_interval(pg_catalog.int4)"} = 1;
	# The result type of the real function where it does not follow the
	# first argument's, so that a query using the planted one still
	# parses, runs it (and a column default made with it is accepted).
	my %result = (nextval => 'int8', hashtext => 'int4', cardinality => 'int4',
		array_length => 'int4', length => 'int4', pg_relation_size => 'int8',
		isfinite => 'bool', pg_advisory_xact_lock => 'void',
		pg_extension_config_dump => 'void', make_interval => 'interval',
		now => 'timestamptz', clock_timestamp => 'timestamptz',
		statement_timestamp => 'timestamptz', to_timestamp => 'timestamptz',
		date_part => 'float8', string_to_array => 'text[]', to_jsonb => 'jsonb',
		jsonb_build_object => 'jsonb', has_function_privilege => 'bool',
		has_table_privilege => 'bool', has_sequence_privilege => 'bool',
		pg_is_in_recovery => 'bool', num_nonnulls => 'int4', to_regclass => 'regclass',
		current_database => 'text');
	for my $name (@scalar)
	{
		my $res = sub { $result{$name} // ($text_result{$name} ? 'text' : $_[0]) };
		$sql .= plant_function($schema, $name, [], $res->('text'));
		for my $a (@types)
		{
			$sql .= plant_function($schema, $name, [$a], $res->($a));
			for my $b (@types)
			{
				$sql .= plant_function($schema, $name, [ $a, $b ], $res->($a));
			}
		}
		for my $a (qw(text float8 numeric int4 int8))
		{
			$sql .= plant_function($schema, $name, [ 'text', $a, $a ], $res->('text'));
			next if $a eq 'text';
			$sql .= plant_function($schema, $name, [ 'text', 'text', $a ], $res->('text'));
		}
	}
	# Set-returning functions.
	for my $a (qw(text float8 int4 int8 jsonb))
	{
		$sql .= plant_function($schema, 'unnest', ["$a\[\]"], $a, 1);
	}
	$sql .= plant_function($schema, 'jsonb_array_elements_text', ['jsonb'], 'text', 1);
	$sql .= plant_function($schema, 'jsonb_array_elements', ['jsonb'], 'jsonb', 1);
	$sql .= "CREATE FUNCTION $schema.jsonb_each_text(pg_catalog.jsonb, OUT key pg_catalog.text, OUT value pg_catalog.text) RETURNS SETOF record "
	  . body("$schema.jsonb_each_text(jsonb)", 1) . ";\n";

	# Aggregates: each state function counts itself.
	for my $a (@types)
	{
		my $sf = 'planted_sfunc_' . $fn_no++;
		$sql .= plant_function($schema, $sf, [ 'int8', $a ], 'int8');
		$sql .= "CREATE AGGREGATE $schema.count(" . qtype($a) . ") (SFUNC = $schema.$sf, STYPE = pg_catalog.int8);\n";
		for my $agg (qw(min max))
		{
			my $mf = 'planted_sfunc_' . $fn_no++;
			$sql .= plant_function($schema, $mf, [ $a, $a ], $a);
			$sql .= "CREATE AGGREGATE $schema.$agg(" . qtype($a) . ") (SFUNC = $schema.$mf, STYPE = " . qtype($a) . ");\n";
		}
		my $af = 'planted_sfunc_' . $fn_no++;
		my $arr = $a =~ /\[\]$/ ? $a : "$a\[\]";
		$sql .= plant_function($schema, $af, [ $arr, $a ], $arr);
		$sql .= "CREATE AGGREGATE $schema.array_agg(" . qtype($a) . ") (SFUNC = $schema.$af, STYPE = " . qtype($arr) . ");\n";
		my $sa = 'planted_sfunc_' . $fn_no++;
		$sql .= plant_function($schema, $sa, [ 'text', $a, 'text' ], 'text');
		$sql .= "CREATE AGGREGATE $schema.string_agg(" . qtype($a) . ", pg_catalog.text) (SFUNC = $schema.$sa, STYPE = pg_catalog.text);\n";
		my $jo = 'planted_sfunc_' . $fn_no++;
		$sql .= plant_function($schema, $jo, [ 'jsonb', 'text', $a ], 'jsonb');
		$sql .= "CREATE AGGREGATE $schema.jsonb_object_agg(pg_catalog.text, " . qtype($a) . ") (SFUNC = $schema.$jo, STYPE = pg_catalog.jsonb);\n";
	}
	my $ba = 'planted_sfunc_' . $fn_no++;
	$sql .= plant_function($schema, $ba, [ 'bool', 'bool' ], 'bool');
	$sql .= "CREATE AGGREGATE $schema.bool_and(pg_catalog.bool) (SFUNC = $schema.$ba, STYPE = pg_catalog.bool);\n";
	my $cs = 'planted_sfunc_' . $fn_no++;
	$sql .= plant_function($schema, $cs, ['int8'], 'int8');
	$sql .= "CREATE AGGREGATE $schema.count(*) (SFUNC = $schema.$cs, STYPE = pg_catalog.int8);\n";

	# scanbench's own helpers, under their names and arguments.
	$sql .= plant_function($schema, 'scan_history_marks', ['text[]'], 'text');
	$sql .= plant_function($schema, 'scan_history_kernel', [], 'text');
	$sql .= plant_function($schema, 'scan_history_usable', ['float8'], 'bool');
	$sql .= plant_function($schema, 'scan_history_window', [qw(int8 int4)], 'int8', 1);
	$sql .= plant_function($schema, 'scan_history_outside_block', [], 'void');
	$sql .= plant_function($schema, 'scan_history_in_block', [], 'bool');
	$sql .= plant_function($schema, 'page_costs_check_limits', [qw(float8 int4)], 'void');
	$sql .= plant_function($schema, 'page_costs_measure', [qw(regclass float8 float8 int4)], 'int8');
	$sql .= plant_function($schema, 'page_costs_report', [qw(int8 float8 int4)], 'void');
	$sql .= plant_function($schema, 'scan_history_check_limits',
		[qw(float8 float8 float8 float8 int4)], 'void');
	$sql .= plant_function($schema, 'scan_history_measure',
		[qw(regclass text int4 float8 float8 float8 text float8 float8 float8 float8 int4)], 'int8');
	for my $args ([qw(int8 int4)], ['int8'])
	{
		my $argl = join(', ', map { qtype($_) } @$args);
		$sql .= "CREATE FUNCTION $schema.scan_history_median($argl, OUT median_pct pg_catalog.float8, "
		  . "OUT runs pg_catalog.int4, OUT since pg_catalog.timestamptz) "
		  . body("$schema.scan_history_median($argl)", 1) . ";\n";
	}

	# Types under the built-in names: a PL/pgSQL variable declared with an
	# unqualified name would be one of these, and its CHECK runs on every
	# assignment.
	$sql .= "CREATE FUNCTION $schema.planted_check() RETURNS pg_catalog.bool "
	  . "LANGUAGE plpgsql IMMUTABLE SET search_path = pg_catalog AS \$p\$BEGIN "
	  . "RAISE WARNING 'planted code ran: %', '$schema domain check'; "
	  . "PERFORM pg_catalog.nextval('public.planted_hits'::pg_catalog.regclass); RETURN true; END\$p\$;\n";
	for my $t (qw(text float8 int4 int8 numeric bool jsonb regclass oid timestamptz interval))
	{
		$sql .= "CREATE DOMAIN $schema.\"$t\" AS pg_catalog.$t CHECK ($schema.planted_check());\n";
	}
	return $sql;
}

# [ database, extension schema ]
for my $case ([ 'pub', 'public' ], [ 'own', '"Sb Own"' ])
{
	my ($db, $s) = @$case;
	$node->safe_psql('postgres', "CREATE DATABASE $db");
	$node->safe_psql($db, qq{
		GRANT CREATE ON SCHEMA public TO other;
		CREATE SCHEMA IF NOT EXISTS $s;
		GRANT CREATE, USAGE ON SCHEMA $s TO other;
		GRANT USAGE ON SCHEMA $s TO mon;
		SET ROLE other;
		CREATE SEQUENCE public.planted_hits;
		GRANT USAGE ON SEQUENCE public.planted_hits TO PUBLIC;
	});

	# Plant in public, and in the extension's schema when it is another.
	my @where = $s eq 'public' ? ('public') : ('public', $s);
	for my $w (@where)
	{
		my $plant = plant_sql($w);
		my ($ret, $out, $err) = $node->psql($db,
			"SET client_min_messages = error; SET ROLE other;\n$plant",
			on_error_stop => 1);
		is($ret, 0, "$db: other plants in $w") or diag($err);
	}
	if ($s ne 'public')
	{
		# The schema whose name is the extension's schema's quoted.
		(my $twice = $s) =~ s/"/""/g;
		$twice = qq{"$twice"};
		my ($ret, $out, $err) = $node->psql($db, qq{GRANT CREATE ON DATABASE $db TO other;
			SET ROLE other;
			CREATE SCHEMA $twice;
			CREATE FUNCTION $twice.planted_trigger() RETURNS trigger } . body("$twice trigger") . qq{;
			CREATE TABLE $twice.scan_history (id pg_catalog.int8, measured_at pg_catalog.timestamptz)
				PARTITION BY RANGE (measured_at);
			CREATE TABLE $twice.scan_history_default PARTITION OF $twice.scan_history DEFAULT;
			CREATE TRIGGER planted BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON $twice.scan_history
				FOR EACH STATEMENT EXECUTE FUNCTION $twice.planted_trigger();
			CREATE TRIGGER planted BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON $twice.scan_history_default
				FOR EACH STATEMENT EXECUTE FUNCTION $twice.planted_trigger();},
			on_error_stop => 1);
		is($ret, 0, "$db: other makes the schema $twice") or diag($err);
	}
	my ($cret, $cout, $cerr) = $node->psql($db, q{SET ROLE other;
		CREATE FUNCTION public.planted_cast(pg_catalog.interval) RETURNS pg_catalog.int4
		LANGUAGE sql AS 'SELECT 1';
		CREATE CAST (pg_catalog.interval AS pg_catalog.int4) WITH FUNCTION public.planted_cast(pg_catalog.interval) AS IMPLICIT;});
	like($cerr, qr/must be owner of type/, "$db: other cannot plant a cast between built-in types");

	# The extension made after the planting, as a DBA would on such a server.
	my ($xret, $xout, $xerr) = $node->psql($db, qq{
		CREATE EXTENSION scanbench SCHEMA $s;
		CREATE TABLE public.t (id bigint, pad text) WITH (autovacuum_enabled = off);
		INSERT INTO public.t SELECT g, repeat('x', 100) FROM generate_series(1, 20000) g;
		CREATE INDEX t_id ON public.t (id);
		VACUUM (ANALYZE) public.t;
		-- large enough for page_costs (10 MB over three read-ahead windows)
		CREATE TABLE public.pc (id bigint, pad text) WITH (autovacuum_enabled = off);
		INSERT INTO public.pc SELECT g, repeat('x', 400) FROM generate_series(1, 140000) g;
		-- in a schema of its own, found through pg_extension; the
		-- monitoring role reads it as doc/workload.md says
		CREATE SCHEMA pgss;
		CREATE EXTENSION pg_stat_statements SCHEMA pgss;
		GRANT USAGE ON SCHEMA pgss TO mon;
		SELECT $s.workload_snapshot();
	}, on_error_stop => 1);
	is($xret, 0, "$db: CREATE EXTENSION scanbench SCHEMA $s") or diag($xerr);
	unlike($xerr, qr/planted code ran/, "$db: no planted code ran while the extension was made");

	# One call of each function and procedure, keyed by its signature as
	# regprocedure prints it with the extension's schema named; $e is
	# replaced by the schema.  A call that must fail gives its error.
	my %calls = (
		'E.raw_read(regclass,text,integer,integer)' => [ q{SELECT E.raw_read('public.t', 'warm', 8192, 2)} ],
		'E.raw_read_segments(regclass,text,integer)' => [ q{SELECT pg_catalog.count(*) FROM E.raw_read_segments('public.t', 'warm')} ],
		'E.random_read(regclass,text,integer,integer,integer)' => [ q{SELECT E.random_read('public.t', 'warm', 100, 8192, 2)} ],
		# C alone, no SQL inside: what the planting could reach is its
		# argument checks, and public.t is smaller than it measures.
		'E.page_costs(regclass,double precision)' =>
		  [ q{SELECT E.page_costs('public.t', max_seconds => 1)}, qr/too small to measure its page costs/ ],
		# C; its bound and its count are parsed with pg_catalog alone on
		# the path.
		'E.access_paths(regclass,regclass,double precision,double precision,text[])' =>
		  [ q{SELECT pg_catalog.count(*) FROM E.access_paths('public.t', 'public.t_id', max_seconds => 2)} ],
		# C; its bounds are read and its scans and costings parsed with
		# pg_catalog alone on the path.
		'E.index_crossover(regclass,regclass,double precision,double precision)' =>
		  [ q{SELECT pg_catalog.count(*) FROM E.index_crossover('public.t', 'public.t_id', max_seconds => 2)} ],
		# C; the scan it times is parsed with pg_catalog alone on the path.
		'E.toast_efficiency(regclass,text,double precision)' =>
		  [ q{SELECT pg_catalog.count(*) FROM E.toast_efficiency('public.t', 'warm', max_seconds => 2)} ],
		'E.scan_verdict_marks()' => [ q{SELECT pg_catalog.count(*) FROM E.scan_verdict_marks()} ],
		'E.scan_rate(regclass,text,text,integer)' => [ q{SELECT E.scan_rate('public.t', 'warm')} ],
		'E.scan_breakdown(regclass,text,text,integer)' => [ q{SELECT E.scan_breakdown('public.t', 'warm')} ],
		'E.scan_shapes(regclass,text,integer)' => [ q{SELECT pg_catalog.count(*) FROM E.scan_shapes('public.t', 'warm')} ],
		'E.scan_sweep(regclass,text,text,text[],integer)' => [ q{SELECT pg_catalog.count(*) FROM E.scan_sweep('public.t', 'warm', 'parallel_workers', '{0}')} ],
		'E.scan_efficiency(regclass,text,integer,integer,double precision,double precision,double precision,text,boolean,boolean,boolean)' =>
		  [ q{SELECT E.scan_efficiency('public.t', 'warm', max_seconds => 3, record => true)} ],
		'E.storage_info(regclass)' => [ q{SELECT pg_catalog.count(*) FROM E.storage_info('public.t')} ],
		'E.storage_info_tablespace(name)' => [ q{SELECT pg_catalog.count(*) FROM E.storage_info_tablespace('pg_default')} ],
		'E.storage_profile(name,integer,integer,integer)' => [ q{SELECT pg_catalog.count(*) FROM E.storage_profile('pg_default', 4, 8192, 100)} ],
		'scanbench_internal.scan_history_kernel()' => [ q{SELECT scanbench_internal.scan_history_kernel()} ],
		'scanbench_internal.scan_history_outside_block()' => [ q{SELECT scanbench_internal.scan_history_outside_block()} ],
		'scanbench_internal.scan_history_marks(text[])' => [ q{SELECT scanbench_internal.scan_history_marks('{ok,cpu_contended}')} ],
		'scanbench_internal.scan_history_median(bigint,integer)' =>
		  [ q{SELECT * FROM scanbench_internal.scan_history_median((SELECT pg_catalog.max(h.id) FROM E.scan_history h))} ],
		'scanbench_internal.scan_history_usable(double precision)' => [ q{SELECT scanbench_internal.scan_history_usable(50)} ],
		'scanbench_internal.scan_history_window(bigint,integer)' =>
		  [ q{SELECT pg_catalog.count(*) FROM scanbench_internal.scan_history_window((SELECT pg_catalog.max(h.id) FROM E.scan_history h), 30)} ],
		'scanbench_internal.scan_history_compared(E.scan_history,integer)' =>
		  [ q{SELECT pg_catalog.count(*) FROM scanbench_internal.scan_history_compared((SELECT h FROM E.scan_history h ORDER BY h.id DESC LIMIT 1), 30)} ],
		'scanbench_internal.scan_history_judged_days(integer,double precision,integer)' =>
		  [ q{SELECT scanbench_internal.scan_history_judged_days(30, 20, 30)} ],
		'scanbench_internal.scan_history_changes(E.scan_history,E.scan_history[])' =>
		  [ q{SELECT pg_catalog.length(scanbench_internal.scan_history_changes((SELECT h FROM E.scan_history h ORDER BY h.id DESC LIMIT 1),
				ARRAY(SELECT h FROM E.scan_history h ORDER BY h.id LIMIT 3)))} ],
		'scanbench_internal.scan_history_verdict(E.scan_history,E.scan_history[],double precision,double precision,double precision,double precision,integer,text)' =>
		  [ q{SELECT * FROM scanbench_internal.scan_history_verdict((SELECT h FROM E.scan_history h ORDER BY h.id DESC LIMIT 1),
				ARRAY(SELECT h FROM E.scan_history h ORDER BY h.id LIMIT 3), NULL, 20, NULL, 10, 30, 'scanbench')} ],
		'E.scan_history_judge_runs(bigint,bigint,double precision,double precision,double precision,double precision,integer,text[],timestamp with time zone)' =>
		  [ q{SELECT pg_catalog.count(*) FROM E.scan_history_judge_runs((SELECT pg_catalog.max(h.id) FROM E.scan_history h))} ],
		'scanbench_internal.scan_history_check_limits(double precision,double precision,double precision,double precision,integer)' =>
		  [ q{SELECT scanbench_internal.scan_history_check_limits(50, 20, 60, 10, 30)} ],
		'E.scan_history_record(E.scan_efficiency_result,double precision,double precision,double precision,double precision,integer)' =>
		  [ q{SELECT E.scan_history_record(E.scan_efficiency('public.t', 'warm', max_seconds => 2), 10, 20, 15, 10, 30)} ],
		'scanbench_internal.scan_history_measure(regclass,text,integer,double precision,double precision,double precision,text,double precision,double precision,double precision,double precision,integer)' =>
		  [ q{SELECT scanbench_internal.scan_history_measure('public.t', 'warm', 1, 1.0, 2, 10, 'pairs')} ],
		'E.scan_history_judge(bigint,double precision,double precision,double precision,double precision,integer,text)' =>
		  [ q{SELECT * FROM E.scan_history_judge((SELECT pg_catalog.max(h.id) FROM E.scan_history h), 10, 50, 11, 40, 30)} ],
		'E.efficiency_check(regclass,text,double precision,double precision,double precision,double precision,integer,double precision,double precision,double precision,text,integer)' =>
		  [ q{CALL E.efficiency_check('public.t', 'warm', min_pct => 0.5, max_drop_pct => 99, max_seconds => 2)} ],
		'E.scan_history_prune(interval)' => [ q{SELECT E.scan_history_prune('400 days')} ],
		'E.scan_history_partition(timestamp with time zone,integer)' =>
		  [ q{SELECT E.scan_history_partition(pg_catalog.now() OPERATOR(pg_catalog.-) interval '2 months', 2)} ],
		'E.scan_history_compress(interval)' => [ q{SELECT E.scan_history_compress('90 days')}, qr/no columnar storage/ ],
		'scanbench_internal.scan_history_series_latest(text,text,text,text,timestamp with time zone,bigint)' =>
		  [ q{SELECT (scanbench_internal.scan_history_series_latest(NULL, 'public', 't', 'warm')).id} ],
		'scanbench_internal.scan_history_series_forget(text[],text[],text[],text[],bigint[])' =>
		  [ q{SELECT scanbench_internal.scan_history_series_forget('{NULL}', '{public}', '{t}', '{warm}', '{0}')} ],
		'scanbench_internal.scan_history_series_refresh(text[],text[],text[],text[],boolean)' =>
		  [ q{SELECT scanbench_internal.scan_history_series_refresh('{NULL}', '{public}', '{t}', '{warm}')} ],
		'scanbench_internal.scan_history_series_trigger()' => [ q{DELETE FROM E.scan_history WHERE false} ],
		'scanbench_internal.scan_history_series_kept()' => [ q{SELECT scanbench_internal.scan_history_series_kept()} ],
		'E.scan_history_series_rebuild()' => [ q{SELECT E.scan_history_series_rebuild()} ],
		'scanbench_internal.scan_history_distributed()' => [ q{SELECT scanbench_internal.scan_history_distributed()} ],
		'scanbench_internal.scan_history_owned()' => [ q{SELECT scanbench_internal.scan_history_owned()} ],
		'scanbench_internal.scan_history_months()' =>
		  [ q{SELECT pg_catalog.count(*) FROM scanbench_internal.scan_history_months()} ],
		'scanbench_internal.scan_history_keys(regclass)' =>
		  [ q{DROP TABLE IF EXISTS E.scan_history_1990_01;
			  CREATE TABLE E.scan_history_1990_01 PARTITION OF E.scan_history FOR VALUES FROM ('1990-01-01') TO ('1990-02-01');
			  SELECT scanbench_internal.scan_history_keys('E.scan_history_1990_01')} ],
		# The check's status is this host's (an ERROR only on an alarm,
		# which max_off_pct 1000 does not reach): its message, whichever
		# it is, names the table.
		'E.page_costs_check(regclass,double precision,double precision,integer)' =>
		  [ q{CALL E.page_costs_check('public.pc', 1, 1000, 30)}, qr/(?:NOTICE|WARNING):  public\.pc[: ]/ ],
		'E.page_costs_record(E.page_costs_result,double precision,integer)' =>
		  [ q{SELECT E.page_costs_record(E.page_costs('public.pc', max_seconds => 1), 50, 30)} ],
		'E.page_costs_judge(bigint,double precision,integer)' =>
		  [ q{SELECT * FROM E.page_costs_judge((SELECT pg_catalog.max(h.id) FROM E.page_costs_history h), 50, 30)} ],
		'E.page_costs_history_prune(interval)' => [ q{SELECT E.page_costs_history_prune('400 days')} ],
		'scanbench_internal.page_costs_check_limits(double precision,integer)' =>
		  [ q{SELECT scanbench_internal.page_costs_check_limits(50, 30)} ],
		'scanbench_internal.page_costs_measure(regclass,double precision,double precision,integer)' =>
		  [ q{SELECT scanbench_internal.page_costs_measure('public.pc', 1, 50, 30)} ],
		'scanbench_internal.page_costs_report(bigint,double precision,integer)' =>
		  [ q{SELECT scanbench_internal.page_costs_report((SELECT pg_catalog.max(h.id) FROM E.page_costs_history h), 1000, 30)} ],
		'scanbench_internal.scan_history_in_block()' => [ q{SELECT scanbench_internal.scan_history_in_block()} ],
		'E.scan_history_distribute(integer)' =>
		  [ q{SELECT E.scan_history_distribute()}, qr/can be distributed only on a Citus coordinator/ ],
		'E.scanbench_metrics()' => [ q{SELECT pg_catalog.length(E.scanbench_metrics())} ],
		'E.scan_history_svg(regclass,text,integer,double precision,double precision)' =>
		  [ q{SELECT pg_catalog.length(E.scan_history_svg(NULL, NULL, 90, 10, 20))} ],
		'E.scan_efficiency_shards(regclass,text,integer,integer)' =>
		  [ q{SELECT pg_catalog.count(*) FROM E.scan_efficiency_shards('public.t', 'warm')}, qr/is not a Citus table/ ],
		'E.scan_efficiency_node(text,text,integer,bigint[],text[],bytea[])' =>
		  [ q{SELECT E.scan_efficiency_node('scan', 'warm', 8192, '{7}', '{public.t}')} ],
		'E.scan_advice(regclass,text,double precision,text)' =>
		  [ q{SELECT pg_catalog.count(*) FROM E.scan_advice('public.t', 'warm', 5)} ],
		'E.workload_snapshot()' => [ q{SELECT E.workload_snapshot()} ],
		'E.workload_references()' => [ q{SELECT pg_catalog.count(*) FROM E.workload_references()} ],
		'E.workload_references_measure(regclass,double precision,interval)' =>
		  [ q{SELECT pg_catalog.count(*) FROM E.workload_references_measure('public.pc', 1, interval '0')} ],
		'E.workload_reads(bigint,bigint)' =>
		  [ q{SELECT pg_catalog.count(*) FROM E.workload_reads((SELECT pg_catalog.min(w.snapshot) FROM E.workload_snapshots w))} ],
		'E.workload_io(bigint,bigint)' =>
		  [ q{SELECT pg_catalog.count(*) FROM E.workload_io((SELECT pg_catalog.min(w.snapshot) FROM E.workload_snapshots w))} ],
		'scanbench_internal.workload_statements_now()' =>
		  [ q{SELECT pg_catalog.count(*) FROM scanbench_internal.workload_statements_now()} ],
		'scanbench_internal.workload_io_now()' =>
		  [ q{SELECT pg_catalog.count(*) FROM scanbench_internal.workload_io_now()} ],
		'scanbench_internal.workload_judge(bigint,double precision,double precision,double precision,double precision,double precision,double precision)' =>
		  [ q{SELECT * FROM scanbench_internal.workload_judge(8192, 90, 50, 100, 8, 60, 2000)} ],
		'scanbench_internal.workload_interval(bigint,bigint)' =>
		  [ q{SELECT scanbench_internal.workload_interval((SELECT pg_catalog.min(w.snapshot) FROM E.workload_snapshots w), NULL)} ],
		# The nightly check: the first call takes its snapshot, later ones
		# record and judge (a query may have fallen by then: SB003).
		'E.workload_check(double precision,double precision,integer,integer)' =>
		  [ q{CALL E.workload_check()}, qr/(?:NOTICE|WARNING|ERROR):  (?:SB003: )?(?:workload check \d+|query -?\d+)/ ],
		'E.workload_history_judge(bigint)' => [ q{SELECT pg_catalog.count(*) FROM E.workload_history_judge()} ],
		'E.workload_history_prune(interval)' => [ q{SELECT E.workload_history_prune('400 days')} ],
		'scanbench_internal.workload_drop_judge(double precision,double precision,integer,bigint,text,text,double precision,double precision,double precision,double precision,jsonb,jsonb,double precision,double precision)' =>
		  [ q{SELECT * FROM scanbench_internal.workload_drop_judge(20, 50, 4, 5000, 'random', 'sequential', 10, 60, 5000, 1000, '{"a": "1"}', '{"a": "2"}', 50, 25)} ],
		'scanbench_internal.workload_check_limits(double precision,double precision,integer)' =>
		  [ q{SELECT scanbench_internal.workload_check_limits(50, 25, 30)} ],
		'scanbench_internal.workload_check_ready(double precision,double precision,integer,integer)' =>
		  [ q{SELECT scanbench_internal.workload_check_ready(50, 25, 30, 100)} ],
		'scanbench_internal.workload_settings()' => [ q{SELECT scanbench_internal.workload_settings()} ],
		'scanbench_internal.workload_check_record(double precision,double precision,integer,integer)' =>
		  [ q{SELECT scanbench_internal.workload_check_record(50, 25, 30, 100)} ],
		'scanbench_internal.workload_check_report(bigint)' =>
		  [ q{SELECT scanbench_internal.workload_check_report((SELECT pg_catalog.max(c.id) FROM E.workload_checks c))},
			qr/(?:NOTICE|WARNING|ERROR):  (?:SB003: )?(?:workload check \d+|query -?\d+)/ ],
		'scanbench_internal.workload_metrics()' =>
		  [ q{SELECT pg_catalog.count(*) FROM scanbench_internal.workload_metrics()} ],

		# C; the query is the caller's, named with its schemas as the
		# caller would; what the library sends of its own names
		# workload_references with the extension's schema.
		'E.workload_scans(text,text)' =>
		  [ q{SELECT pg_catalog.count(*) FROM E.workload_scans('SELECT pg_catalog.count(*) FROM public.t')} ],
		'E.scan_pairs()' => [ q{SELECT pg_catalog.count(*) FROM E.scan_pairs()} ],
		'scanbench_internal.judge_figure(jsonb)' =>
		  [ q{SELECT scanbench_internal.judge_figure('{"cache": "cold", "median": 50, "lo": 49, "hi": 51}')} ],
		'scanbench_internal.judge_run(double precision,double precision,integer,double precision,double precision,double precision,double precision)' =>
		  [ q{SELECT * FROM scanbench_internal.judge_run(50, 25, 3, 40, 20, NULL, 10)} ],
		'scanbench_internal.judge_page_costs_run(double precision,double precision,double precision,integer,integer)' =>
		  [ q{SELECT * FROM scanbench_internal.judge_page_costs_run(60, -70, 50, 1, 8)} ],
		'scanbench_internal.judge_cohort(double precision[],double precision,double precision,double precision,double precision)' =>
		  [ q{SELECT * FROM scanbench_internal.judge_cohort('{50, 50, 50, 60, 40}', 40, 44)} ],
		'scanbench_internal.judge_rules()' =>
		  [ q{SELECT pg_catalog.count(*) FROM scanbench_internal.judge_rules()} ],
	);
	# Read by pg_monitor: the view and the table too.
	my @monitor = (
		'E.scan_history_judge(bigint,double precision,double precision,double precision,double precision,integer,text)',
		'E.scanbench_metrics()',
		'E.scan_history_svg(regclass,text,integer,double precision,double precision)',
		'E.page_costs_judge(bigint,double precision,integer)',
		'E.workload_reads(bigint,bigint)',
		'E.workload_io(bigint,bigint)',
		'E.workload_references()',
		'E.workload_history_judge(bigint)',
	);
	my @monitor_reads = (q{SELECT pg_catalog.count(*) FROM E.scan_trend}, q{SELECT pg_catalog.count(*) FROM E.scan_history},
		q{SELECT pg_catalog.count(*) FROM E.page_costs_history}, q{SELECT pg_catalog.count(*) FROM E.workload_snapshots},
		q{SELECT pg_catalog.count(*) FROM E.workload_io_snapshots}, q{SELECT pg_catalog.count(*) FROM E.workload_checks},
		q{SELECT pg_catalog.count(*) FROM E.workload_history});

	my $members = $node->safe_psql($db, q{
		SET search_path = pg_catalog, pg_temp;
		SELECT p.oid::regprocedure
		FROM pg_depend d
		JOIN pg_proc p ON p.oid = d.objid AND d.classid = 'pg_proc'::regclass
		WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
		  AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'scanbench')
		ORDER BY 1});
	# regprocedure names a schema only where it is not on the path: the
	# extension's own schema is left out on both sides.
	my $norm = sub { my ($k) = @_; $k =~ s/(?:\b(?:E|public)|\Q$s\E)\.//g; return $k; };
	my %called = map { $norm->($_) => 1 } keys %calls;
	my @members = split /\n/, $members;
	ok(scalar(@members) >= 25, "$db: " . scalar(@members) . " functions and procedures listed");
	for my $m (@members)
	{
		ok($called{ $norm->($m) }, "$db: $m has a call in this test");
	}

	# The count is read in a session of its own, kept open: a psql started
	# for each look cost more than the calls looked at.  A sequence's
	# last_value is read as it is now, whatever the session saw before.
	my $counter = $node->background_psql($db);
	$counter->query_safe('SET search_path = pg_catalog, pg_temp');
	my $hits = sub {
		my $n = $counter->query_safe(
			q{SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM public.planted_hits});
		$n =~ s/\s+//g;
		return $n;
	};

	# As the superuser, with the default path and with the planted schemas
	# first (exact duplicates of pg_catalog's then win); as a member of
	# pg_monitor for what is granted to it.
	my @runs = (
		[ 'superuser, default path', '', '', [ sort keys %calls ], [] ],
		[ "superuser, path public, $s, pg_catalog", '', "SET search_path = public, $s, pg_catalog;", [ sort keys %calls ], [] ],
		[ "pg_monitor member, path public, $s, pg_catalog", 'mon', "SET search_path = public, $s, pg_catalog;", \@monitor, \@monitor_reads ],
	);
	# Nothing else runs between two calls: the count after one is the
	# count before the next.
	my $count = $hits->();
	for my $run (@runs)
	{
		my ($label, $user, $path, $keys, $extra) = @$run;
		my @todo = ((map { [ $_, @{ $calls{$_} } ] } @$keys), map { [ $_, $_ ] } @$extra);
		for my $c (@todo)
		{
			my ($key, $sql, $expect_error) = @$c;
			$sql =~ s/\bE\./$s./g;
			my $before = $count;
			my ($ret, $out, $err) = $node->psql($db, "$path\n$sql",
				$user ? (extra_params => [ '-U', $user ]) : ());
			if ($expect_error)
			{
				like($err, $expect_error, "$db, $label: $key gives the message it should");
			}
			else
			{
				is($ret, 0, "$db, $label: $key runs") or diag($err);
			}
			unlike($err, qr/planted code ran/, "$db, $label: $key runs no planted code")
			  or diag(join("\n", grep { /planted code ran/ } split /\n/, $err));
			$count = $hits->();
			is($count, $before, "$db, $label: $key: planted code counted no call");
		}
	}
	$counter->quit;
}

$node->stop;
done_testing();
