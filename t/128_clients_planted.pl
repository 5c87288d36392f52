# The clients run no code that a role planted where their SQL could find
# it.
#
# scanbench-fleet, scanbench-load and scanbench-probe connect as whoever
# runs them, often a
# superuser, to databases where other roles may CREATE in public.  Such a
# role plants, before the clients run:
#  - functions and aggregates under the name of every function the
#    clients' SQL calls, read from their sources (every name followed by
#    "(" in their SQL that pg_catalog has a function of): copies of each of
#    pg_catalog's signatures, which win where public comes first on the
#    path, and the types a call could match more exactly than pg_catalog's
#    polymorphic, "any" or casting ones do (array_agg(integer),
#    percentile_cont(numeric ORDER BY float8), format(text, name, name));
#  - operators under every operator name their SQL uses
#    (OPERATOR(pg_catalog.X), or bare), over every pair of the types their
#    SQL handles ("||"(text, integer) among them);
#  - types under the name of every built-in type their SQL names (a domain
#    whose CHECK runs planted code);
#  - overloads of the extension's functions they call, with the relation
#    as oid or text, in the extension's schema (public).
# Every planted body counts itself in a sequence (which a rollback does not
# undo) and raises a WARNING naming itself.
#
# Then every mode of each client runs, with the databases' own path and
# with public put before pg_catalog (as a database's owner can set it):
# the fleet measuring with its central history (twice, the second reading
# the first's runs) and sharing a night (--night); the probe timing a
# table found on the database's path, into the central history; the loader
# making a
# table, replacing one with jobs, indexes and --check, appending, making
# part_doc, waiting for a lock and giving up on one, and dropping a
# staging table an earlier load left.  No planted code may run.
#
# Last, a lint of the sources: no function, cast or operator in the
# clients' SQL is left for the search_path to resolve, so that a new call
# is caught even before a test plants its look-alike.
#
# On the clients before their SQL was qualified and their sessions' path
# pinned (main at ea2e721), 102 of its 133 tests fail: the central
# history's check ran a planted =(oid, regclass) (and so found no history,
# and the fleet measured nothing), the loader's look at its table the same
# (it then found no table), its search for staging tables left behind a
# planted =("char", "char") and ~~(name, name), its look at the server
# /(bigint, integer), its advisory lock's key << and |, and with public
# first on the path a planted domain's CHECK ran in the load.
use strict;
use warnings;
use File::Temp qw(tempdir);
use FindBin;
use lib $FindBin::RealBin;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use Time::HiRes qw(sleep time);
use ScanbenchLoad;
use SbClient;

my $fleet = client_program('scanbench-fleet');
my $probe = client_program('scanbench-probe');

# ---- the clients' SQL, from their sources ----

# Each C file's string literals, joined where only whitespace, a macro's
# name or a macro call's parentheses separate them (what the compiler
# joins, near enough), each group as [file, text].
sub literal_groups
{
	my ($file) = @_;
	open my $fh, '<', $file or die "$file: $!";
	local $/;
	my $src = <$fh>;
	close $fh;
	my @groups;
	my $cur;
	my $gap = '';
	my $i = 0;
	my $n = length $src;
	while ($i < $n)
	{
		my $c = substr($src, $i, 1);
		if ($c eq '/' && substr($src, $i + 1, 1) eq '*')
		{
			my $e = index($src, '*/', $i + 2);
			$i = $e < 0 ? $n : $e + 2;
			next;
		}
		if ($c eq '/' && substr($src, $i + 1, 1) eq '/')
		{
			my $e = index($src, "\n", $i);
			$i = $e < 0 ? $n : $e;
			next;
		}
		if ($c eq "'")
		{
			# a character literal, such as '"' or '\\'
			my $j = $i + 1;
			$j++ if substr($src, $j, 1) eq '\\';
			$j++;
			$j++ while $j < $n && substr($src, $j, 1) ne "'";
			$i = $j + 1;
			$gap .= 'x';
			next;
		}
		if ($c eq '"')
		{
			my $s = '';
			$i++;
			while ($i < $n)
			{
				my $d = substr($src, $i, 1);
				if ($d eq '\\')
				{
					my $e = substr($src, $i + 1, 1);
					$s .= $e eq 'n' ? "\n" : $e eq 't' ? "\t" : $e;
					$i += 2;
					next;
				}
				last if $d eq '"';
				$s .= $d;
				$i++;
			}
			$i++;
			if (defined $cur && $gap =~ /^[\s\w()]*$/)
			{
				$cur->[1] .= $s;
			}
			else
			{
				$cur = [ $file, $s ];
				push @groups, $cur;
			}
			$gap = '';
			next;
		}
		$gap .= $c;
		$i++;
	}
	return @groups;
}

my @sources = grep { !m{/test/} } (glob('bin/scanbench-fleet/*.[ch]'), glob('bin/scanbench-load/*.[ch]'),
	glob('bin/scanbench-probe/*.[ch]'), glob('bin/common/*.[ch]'));
ok(@sources >= 60, scalar(@sources) . ' source files of the three clients');

# SQL: a group that begins with a statement's first word, or holds a cast
# or an OPERATOR (a piece of a statement, such as a macro's).
my $verbs = qr/SELECT|WITH|INSERT|UPDATE|DELETE|COPY|CREATE|ALTER|DROP|COMMENT|VACUUM|ANALYZE|SET|BEGIN|COMMIT|ROLLBACK|LOCK|TRUNCATE/;
my @sql;
for my $f (@sources)
{
	for my $g (literal_groups($f))
	{
		my $t = $g->[1];
		(my $head = $t) =~ s{^\s*(?:/\*.*?\*/\s*)?\(?\s*}{}s;
		push @sql, $g if $head =~ /^(?:$verbs)\b/ || $t =~ /::|OPERATOR\(|\bNOT NULL\b/;
	}
}
ok(@sql >= 60, scalar(@sql) . ' SQL statements and pieces in the sources');

# The SQL's own string literals and comments out of the way.
sub bare_sql
{
	my ($t) = @_;
	$t =~ s{/\*.*?\*/}{ }gs;
	$t =~ s{'(?:[^']|'')*'}{L}g;
	$t =~ s{'[^']*$}{}s;    # a literal that a %s or a macro continues
	return $t;
}

my (%fn_called, %ext_called, %op_called, %type_named);
for my $g (@sql)
{
	my $t = bare_sql($g->[1]);
	while ($t =~ /(?<![\w\$])((?:%s|\w+)\.)?([a-z_][a-z0-9_]*)\s*\(/g)
	{
		my ($q, $name) = ($1 // '', $2);
		if ($q eq '' || $q eq 'pg_catalog.')
		{
			$fn_called{$name} = 1;
		}
		$ext_called{$name} = 1 if $q eq '' || $q eq '%s.';
	}
	$op_called{$1} = 1 while $t =~ /OPERATOR\(pg_catalog\.([^)]+)\)/g;
	(my $u = $t) =~ s/OPERATOR\([^)]*\)//g;
	$op_called{$1} = 1 while $u =~ /\s(=|<>|<=|>=|<|>|\|\||~~|\+|-|\/|<<|>>|\||&)\s/g;
	$op_called{'~~'} = 1 if $u =~ /(?<!\()\bLIKE\b/;
	$type_named{$1} = 1 while $t =~ /::(?:pg_catalog\.)?([a-z_][a-z0-9_]*)/g;
	$type_named{lc $1} = 1 while $t =~ /\b([A-Za-z_][A-Za-z0-9_]*)\b/g;
}
# What a lineitem or a fleet's history holds, whatever the sources call it.
$type_named{$_} = 1 for qw(text date name oid regclass float8 int4 int8 numeric bool timestamptz pg_lsn jsonb);
$op_called{$_} = 1 for qw(= <>);

# ---- the servers ----

my $node = PostgreSQL::Test::Cluster->new('clients_planted');
$node->init;
$node->append_conf('postgresql.conf', "fsync = off\nsynchronous_commit = off\nautovacuum = off\n"
	  . "max_connections = 40\nmax_wal_size = 2GB\n");
$node->start;

# Every statement of the test's own runs with pg_catalog alone on its path.
sub sql
{
	my ($db, $q) = @_;
	return $node->safe_psql($db, "SET search_path = pg_catalog, pg_temp;\n$q");
}

# Rows of fields (tab-separated: an operator's name may hold a "|").
sub rows
{
	my ($db, $q) = @_;
	my $out = $node->safe_psql($db, "SET search_path = pg_catalog, pg_temp;\n$q",
		extra_params => [ '-F', "\t" ]);
	return map { [ split /\t/, $_, -1 ] } grep { length } split /\n/, $out;
}

sub quote_list
{
	return "'{" . join(',', map { my $x = $_; $x =~ s/(["\\])/\\$1/g; qq{"$x"} } @_) . "}'";
}

my %fn = map { $_->[0] => 1 }
  rows('postgres', q{SELECT DISTINCT proname FROM pg_proc WHERE pronamespace = 'pg_catalog'::regnamespace
	AND proname = ANY (}
	  . quote_list(sort keys %fn_called) . '::name[])');
my @fn_names = sort keys %fn;
my %op = map { $_->[0] => 1 }
  rows('postgres', q{SELECT DISTINCT oprname FROM pg_operator WHERE oprnamespace = 'pg_catalog'::regnamespace
	AND oprname = ANY (} . quote_list(sort keys %op_called) . '::name[])');
my @op_names = sort keys %op;
my @type_names = map { $_->[0] }
  rows('postgres', q{SELECT typname FROM pg_type WHERE typnamespace = 'pg_catalog'::regnamespace
	AND typtype = 'b' AND typcategory <> 'A' AND typname = ANY (} . quote_list(sort keys %type_named)
	  . '::name[]) ORDER BY 1');
note('functions: ' . join(' ', @fn_names));
note('operators: ' . join(' ', @op_names));
note('types: ' . join(' ', @type_names));
for my $must (qw(array_agg percentile_cont count string_agg set_config current_setting quote_ident))
{
	ok($fn{$must}, "the sources' calls include $must");
}
for my $must ('=', '||', '-')
{
	ok($op{$must}, "the sources' operators include $must");
}

# ---- the planting ----

# The types planted look-alikes take: what the clients' SQL handles,
# spelt as format_type spells them, as the copies of pg_catalog's are.
my @scalar = ('integer', 'bigint', 'double precision', 'numeric', 'text', 'name', '"char"', 'boolean',
	'oid', 'regclass', 'timestamp with time zone', 'interval', 'jsonb', 'pg_lsn');
my @arrays = ('text[]', 'name[]', 'integer[]');
my @types = (@scalar, @arrays);
my %poly = map { $_ => 1 } qw(anyelement anyarray anynonarray anycompatible anycompatiblearray
  anycompatiblenonarray);
my %bad = map { $_ => 1 } qw(internal cstring anyenum anyrange anymultirange anycompatiblerange
  anycompatiblemultirange trigger event_trigger language_handler fdw_handler index_am_handler
  tsm_handler table_am_handler record);

# A planted body: says so, counts itself, gives NULL (or nothing).
my $fn_no = 0;
sub body
{
	my ($what, $bare) = @_;
	$what =~ s/'/''/g;
	return "LANGUAGE plpgsql IMMUTABLE SET search_path = pg_catalog AS \$p\$BEGIN "
	  . "RAISE WARNING 'planted code ran: %', '$what'; "
	  . "PERFORM pg_catalog.nextval('public.planted_hits'::pg_catalog.regclass); "
	  . ($bare ? 'RETURN;' : 'RETURN NULL;') . " END\$p\$";
}

my %planted;
my @plant;

sub plant_function
{
	my ($name, $args, $result, $setof) = @_;
	my $key = "$name(" . join(',', @$args) . ')';
	return if $planted{$key}++;
	push @plant, "CREATE FUNCTION public.$name(" . join(', ', @$args) . ') RETURNS '
	  . ($setof ? 'SETOF ' : '') . $result . ' ' . body("public.$key", $setof || $result eq 'void') . ';';
}

sub plant_aggregate
{
	my ($name, $direct, $args, $result) = @_;
	my $key = "$name(" . join(',', @$direct) . ' ORDER BY ' . join(',', @$args) . ')';
	return if $planted{$key}++;
	my $sf = 'planted_sfunc_' . $fn_no++;
	push @plant, "CREATE FUNCTION public.$sf($result" . join('', map { ", $_" } @$args)
	  . ") RETURNS $result " . body("public.$key") . ';';
	my $sig = @$direct ? join(', ', @$direct) . ' ORDER BY ' . join(', ', @$args)
	  : @$args ? join(', ', @$args) : '*';
	push @plant, "CREATE AGGREGATE public.$name($sig) (SFUNC = public.$sf, STYPE = $result);";
}

# Polymorphic types given the element type e.
sub subst
{
	my ($t, $e) = @_;
	return $e if $t =~ /^(anyelement|anynonarray|anycompatible|anycompatiblenonarray)$/;
	return "$e\[\]" if $t =~ /^(anyarray|anycompatiblearray)$/;
	return $t;
}

# The argument lists that could match a call to a function with these
# arguments more exactly than it: polymorphic ones given every element
# type, "any" every type, and one or two plain ones every type.
sub variants
{
	my ($args) = @_;
	my @out;
	my $has_poly = grep { $poly{$_} } @$args;
	my @any = grep { $args->[$_] eq '"any"' } 0 .. $#$args;
	if ($has_poly)
	{
		for my $e (@scalar)
		{
			push @out, [ map { subst($_, $e) } @$args ];
		}
	}
	elsif (@any)
	{
		my @lists = ([@$args]);
		for my $p (@any)
		{
			@lists = map { my $l = $_; map { my @c = @$l; $c[$p] = $_; \@c } @types } @lists
			  if @any <= 2;
		}
		if (@any > 2)
		{
			@lists = map { my $t = $_; [ map { $_ eq '"any"' ? $t : $_ } @$args ] } @types;
		}
		push @out, @lists;
	}
	elsif (@$args == 1)
	{
		push @out, [$_] for @types;
	}
	elsif (@$args == 2)
	{
		for my $a (@types)
		{
			push @out, [ $a, $_ ] for @types;
		}
	}
	elsif (@$args > 2)
	{
		for my $p (0 .. $#$args)
		{
			push @out, map { my @c = @$args; $c[$p] = $_; \@c } @types;
		}
	}
	return @out;
}

# Every overload of the names the clients call.
my @procs = rows('postgres', q{
	SELECT p.proname, p.prokind, p.proretset, p.provariadic OPERATOR(pg_catalog.<>) 0,
	       pg_catalog.format_type(p.prorettype, NULL),
	       pg_catalog.array_to_string(ARRAY(SELECT pg_catalog.format_type(u.t, NULL)
	         FROM pg_catalog.unnest(p.proargtypes::pg_catalog.oid[]) WITH ORDINALITY AS u(t, i) ORDER BY u.i), ';'),
	       p.proallargtypes IS NOT NULL,
	       pg_catalog.pg_get_function_arguments(p.oid), pg_catalog.pg_get_function_result(p.oid),
	       coalesce(a.aggkind, ''), coalesce(a.aggnumdirectargs, 0)
	  FROM pg_proc p LEFT JOIN pg_aggregate a ON a.aggfnoid OPERATOR(pg_catalog.=) p.oid
	 WHERE p.pronamespace OPERATOR(pg_catalog.=) 'pg_catalog'::regnamespace
	   AND p.proname OPERATOR(pg_catalog.=) ANY (} . quote_list(@fn_names) . q{::name[])
	 ORDER BY 1, 6});
for my $p (@procs)
{
	my ($name, $kind, $setof, $variadic, $ret, $argl, $has_out, $fargs, $fres, $aggkind, $ndirect) = @$p;
	my @args = length $argl ? split(/;/, $argl) : ();
	next if grep { $bad{$_} && $_ ne 'record' } @args, $ret;
	next if grep { $_ eq 'record' } @args;
	if ($kind eq 'f')
	{
		# The copy, where PL/pgSQL can take its arguments.
		if (!grep { $_ eq '"any"' } @args)
		{
			my $key = "$name(" . join(',', @args) . ')';
			if (!$planted{$key}++)
			{
				push @plant, "CREATE FUNCTION public.$name($fargs) RETURNS $fres "
				  . body("public.$key (a copy)", $setof eq 't' || $has_out eq 't' || $ret eq 'void') . ';';
			}
		}
		next if $has_out eq 't' || $ret eq 'record';
		my @lists;
		if ($variadic eq 't')
		{
			my @fixed = @args[ 0 .. $#args - 1 ];
			my $elem = $args[-1] eq '"any"' ? '"any"'
			  : $args[-1] =~ /^any(compatible)?array$/ ? ($1 ? 'anycompatible' : 'anyelement')
			  : $args[-1] =~ s/\[\]$//r;
			for my $k (1 .. 3)
			{
				push @lists, [ @fixed, ($elem) x $k ];
			}
		}
		else
		{
			@lists = (\@args);
		}
		for my $l (@lists)
		{
			for my $v (variants($l))
			{
				my $e;
				for my $i (0 .. $#$l)
				{
					$e //= $v->[$i] if $poly{ $l->[$i] } && $l->[$i] !~ /array/;
					$e //= ($v->[$i] =~ s/\[\]$//r) if $l->[$i] =~ /array/;
				}
				my $r = $poly{$ret} ? subst($ret, $e // 'text') : $ret;
				next if $r =~ /\[\]\[\]/;
				plant_function($name, $v, $r, $setof eq 't');
			}
		}
	}
	elsif ($kind eq 'a' && $aggkind eq 'n')
	{
		plant_aggregate($name, [], \@args, $ret) unless grep { $_ eq '"any"' } @args;
		for my $v (variants(\@args))
		{
			my $e;
			for my $i (0 .. $#args)
			{
				$e //= $v->[$i] if $poly{ $args[$i] } && $args[$i] !~ /array/;
				$e //= ($v->[$i] =~ s/\[\]$//r) if $args[$i] =~ /array/;
			}
			my $r = $poly{$ret} ? subst($ret, $e // 'text') : $ret;
			next if $r =~ /\[\]\[\]/ || grep { /\[\]\[\]/ } @$v;
			plant_aggregate($name, [], $v, $r);
		}
	}
	elsif ($kind eq 'a' && $aggkind eq 'o')
	{
		my @direct = @args[ 0 .. $ndirect - 1 ];
		my @agg = @args[ $ndirect .. $#args ];
		next if grep { $poly{$_} || $_ eq '"any"' } @direct, @agg;
		plant_aggregate($name, \@direct, \@agg, $ret);
		for my $d ('numeric', 'double precision', 'integer', 'text')
		{
			for my $t (@types)
			{
				plant_aggregate($name, [ ($d) x @direct ], [ ($t) x @agg ], $ret);
			}
		}
	}
}

# Operators: pg_catalog's under each name copied, and every pair of types.
my @ops = rows('postgres', q{
	SELECT o.oprname, o.oprkind, pg_catalog.format_type(o.oprleft, NULL),
	       pg_catalog.format_type(o.oprright, NULL), pg_catalog.format_type(o.oprresult, NULL)
	  FROM pg_operator o
	 WHERE o.oprnamespace OPERATOR(pg_catalog.=) 'pg_catalog'::regnamespace
	   AND o.oprname OPERATOR(pg_catalog.=) ANY (} . quote_list(@op_names) . q{::name[])
	 ORDER BY 1, 3, 4});
my %op_results;
push @{ $op_results{ $_->[0] } }, $_->[4] for @ops;

sub plant_operator
{
	my ($opname, $l, $r, $res) = @_;
	my $key = "OPERATOR $opname($l,$r)";
	return if $planted{$key}++;
	my $f = 'planted_op_' . $fn_no++;
	my @args = grep { $_ ne '-' } ($l, $r);
	push @plant, "CREATE FUNCTION public.$f(" . join(', ', @args) . ") RETURNS $res "
	  . body("public.$opname($l, $r)") . ';';
	push @plant, "CREATE OPERATOR public.$opname (" . ($l ne '-' ? "LEFTARG = $l, " : '')
	  . "RIGHTARG = $r, FUNCTION = public.$f);";
}

for my $o (@ops)
{
	my ($opname, $kind, $l, $r, $res) = @$o;
	next if grep { $bad{$_} } $l, $r, $res;
	next if $kind eq 'b' && $poly{$res} && !$poly{$l} && !$poly{$r};
	plant_operator($opname, $kind eq 'l' ? '-' : $l, $r, $res);
}
for my $opname (@op_names)
{
	my $cmp = !grep { $_ ne 'boolean' } @{ $op_results{$opname} };
	for my $l (@types)
	{
		for my $r (@types)
		{
			my $res = $cmp ? 'boolean'
			  : $opname eq '||' ? ($l =~ /\[\]/ ? $l : $r =~ /\[\]/ ? $r : 'text')
			  : $l eq 'numeric' || $r eq 'numeric' ? 'numeric'
			  : $l eq 'double precision' || $r eq 'double precision' ? 'double precision'
			  : $l =~ /^timestamp/ && $r =~ /^timestamp/ ? 'interval'
			  : $l;
			plant_operator($opname, $l, $r, $res);
		}
	}
}

# Types under the built-in names, whose CHECK runs planted code.
push @plant, "CREATE FUNCTION public.planted_check() RETURNS pg_catalog.bool "
  . "LANGUAGE plpgsql IMMUTABLE SET search_path = pg_catalog AS \$p\$BEGIN "
  . "RAISE WARNING 'planted code ran: %', 'a planted domain''s check'; "
  . "PERFORM pg_catalog.nextval('public.planted_hits'::pg_catalog.regclass); RETURN true; END\$p\$;";
for my $t (@type_names)
{
	push @plant, "CREATE DOMAIN public.\"$t\" AS pg_catalog.\"$t\" CHECK (public.planted_check());";
}

# In template1, so that every database made from it has them.
$node->safe_psql('postgres', 'CREATE ROLE other LOGIN');
$node->safe_psql('template1', q{
	GRANT CREATE ON SCHEMA public TO other;
	SET ROLE other;
	CREATE SEQUENCE public.planted_hits;
	GRANT USAGE ON SEQUENCE public.planted_hits TO PUBLIC;
});
my $t0 = time;
my ($pret, $pout, $perr) = $node->psql('template1',
	"SET client_min_messages = error; SET ROLE other; SET search_path = pg_catalog, pg_temp;\n"
	  . join("\n", @plant) . "\n", on_error_stop => 0);
my @failed = grep { /ERROR/ } split /\n/, $perr;
note(sprintf('%d statements planted in %.0f s; %d refused', scalar(@plant), time - $t0, scalar(@failed)));
my %why;
$why{ s/^.*ERROR:\s+//r =~ s/"[^"]*"/"..."/gr }++ for @failed;
note("$why{$_} x $_") for sort keys %why;
for my $f (@failed[ 0 .. ($#failed < 2 ? $#failed : 2) ])
{
	note('e.g. ' . $plant[ $1 - 2 ]) if $f =~ /<stdin>:(\d+):/;
}
cmp_ok(scalar(@failed), '<', @plant / 20, 'other planted nearly everything it meant to');
ok(sql('template1', $_->[1]) eq 't', "planted: $_->[0]")
  for [ 'array_agg(integer)', q{SELECT pg_catalog.to_regprocedure('public.array_agg(pg_catalog.int4)') IS NOT NULL} ],
  [ 'percentile_cont(numeric ORDER BY float8)',
	q{SELECT pg_catalog.to_regprocedure('public.percentile_cont(pg_catalog.numeric, pg_catalog.float8)') IS NOT NULL} ],
  [ '||(text, integer)', q{SELECT pg_catalog.to_regoperator('public.||(pg_catalog.text, pg_catalog.int4)') IS NOT NULL} ],
  [ 'count(*)', q{SELECT pg_catalog.to_regprocedure('public.count()') IS NOT NULL} ],
  [ 'a domain named date', q{SELECT pg_catalog.to_regtype('public.date') IS NOT NULL} ];

# bench: measured and loaded into; central: the fleet's history; plain:
# no extension.
for my $db (qw(bench central plain))
{
	$node->safe_psql('postgres', "CREATE DATABASE $db");
}
for my $db (qw(bench central))
{
	my ($ret, $out, $err) = $node->psql($db, 'CREATE EXTENSION scanbench', on_error_stop => 1);
	is($ret, 0, "$db: CREATE EXTENSION scanbench") or diag($err);
	# The extension's functions the clients call, as overloads that take
	# the relation as an oid or as text.
	my @ext = rows($db, q{SET search_path = pg_catalog, public;
		SELECT p.proname, pg_catalog.pg_get_function_arguments(p.oid), pg_catalog.pg_get_function_result(p.oid)
		  FROM pg_proc p JOIN pg_depend d ON d.objid OPERATOR(pg_catalog.=) p.oid
		   AND d.classid OPERATOR(pg_catalog.=) 'pg_proc'::regclass AND d.deptype OPERATOR(pg_catalog.=) 'e'
		  JOIN pg_extension e ON e.oid OPERATOR(pg_catalog.=) d.refobjid AND e.extname OPERATOR(pg_catalog.=) 'scanbench'
		 WHERE p.proname OPERATOR(pg_catalog.=) ANY (} . quote_list(sort keys %ext_called) . q{::name[])
		   AND p.pronamespace OPERATOR(pg_catalog.=) 'public'::regnamespace});
	my @more;
	for my $e (@ext)
	{
		my ($name, $args, $res) = @$e;
		next unless $args =~ /\bregclass\b/;
		for my $as (qw(oid text))
		{
			(my $a = $args) =~ s/\bregclass\b/$as/g;
			my $setof = $res =~ /^(SETOF|TABLE)/;
			push @more, "CREATE FUNCTION public.$name($a) RETURNS $res "
			  . body("public.$name($as, ...)", $setof) . ';';
		}
	}
	ok(@more >= 4, "$db: " . scalar(@more) . " overloads of the extension's functions to plant");
	($ret, $out, $err) = $node->psql($db,
		"SET client_min_messages = error; SET ROLE other; SET search_path = pg_catalog, public;\n"
		  . join("\n", @more), on_error_stop => 1);
	is($ret, 0, "$db: other plants overloads of the extension's functions in public") or diag($err);
}
# t in public; u and v in sub, which only the databases' own path has.
sql('bench', q{
	CREATE TABLE public.t AS SELECT g AS id, pg_catalog.repeat('x', 200) AS pad
	  FROM pg_catalog.generate_series(1, 5000) g;
	CREATE SCHEMA sub;
	CREATE TABLE sub.u AS SELECT * FROM public.t;
	CREATE TABLE sub.v AS SELECT * FROM public.t;
	VACUUM (FREEZE, ANALYZE) public.t, sub.u, sub.v;
});

# What ran, counted: each database's planted_hits, and the server's log.
my @dbs = qw(bench central plain);
# Read in a session a database, kept open: three psql processes a look
# cost more than most of what was looked at.  A sequence's last_value is
# read as it is now, whatever the session saw before.
my %counter;
for my $db (@dbs)
{
	$counter{$db} = $node->background_psql($db);
	$counter{$db}->query_safe('SET search_path = pg_catalog, pg_temp');
}
sub hits
{
	my $n = 0;
	for my $db (@dbs)
	{
		my $v = $counter{$db}->query_safe(
			q{SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM public.planted_hits});
		$v =~ s/\s+//g;
		$n += $v;
	}
	return $n;
}
my $log_at = -s $node->logfile;
my $hits_at = hits();
note("after the set-up: $hits_at planted calls counted (the extension's own making included)");

# Nothing planted ran since the last look.
sub nothing_ran
{
	my ($what, $err) = @_;
	my $hits = hits();
	my $log = slurp_file($node->logfile, $log_at);
	my @lines = grep { /planted code ran/ } split /\n/, $log . "\n" . ($err // '');
	my %seen;
	@lines = grep { !$seen{ s/^.*planted code ran: //r }++ } @lines;
	is($hits, $hits_at, "$what: no planted code counted a call");
	ok(!@lines, "$what: no planted code said it ran")
	  or diag(join("\n", map { s/^.*(planted code ran: .*)$/$1/r } @lines[ 0 .. ($#lines < 15 ? $#lines : 15) ]));
	$hits_at = $hits;
	$log_at = -s $node->logfile;
}

my $dir = tempdir('sb-planted-XXXX', TMPDIR => 1, CLEANUP => 1);
my $host = $node->host =~ s{/}{%2F}gr;
sub uri { return sprintf('postgresql://%s:%d/%s', $host, $node->port, shift) }
my $servers = "$dir/servers";
open my $fh, '>', $servers or die "$servers: $!";
print $fh uri('bench') . " name=bench class=test\n";
print $fh uri('plain') . " name=plain class=test\n";
close $fh;

sub fleet
{
	my (@args) = @_;
	my ($out, $err) = ('', '');
	IPC::Run::run([ $fleet, '--servers', $servers, '--relation', 't', '--relation', 'u',
		'--relation', 'sub.v', '--relation', 'nosuch', '--history', uri('central'), '--format', 'csv', '--jobs', '2',
		'--max-seconds', '1', '--target-pct', '0.1', '--cache', 'warm', @args ],
		'>', \$out, '2>', \$err);
	my $rc = $? >> 8;
	my @lines = split /\n/, $out;
	my @cols = split /,/, (shift(@lines) // '');
	my %row;
	for my $l (@lines)
	{
		my @v = map { my $x = $_; $x =~ s/^"|"$//g; $x =~ s/""/"/g; $x } ($l =~ /("(?:[^"]|"")*"|[^,]*)(?:,|$)/g);
		my %r;
		@r{@cols} = @v;
		$row{"$r{server} $r{relation}"} = \%r;
	}
	return ($rc, \%row, $err);
}

sub loader
{
	my (@args) = @_;
	my ($out, $err) = ('', '');
	IPC::Run::run([ $loader, '-h', $node->host, '-p', $node->port, '-d', 'bench', @args ],
		'>', \$out, '2>', \$err);
	return ($? >> 8, $out, $err);
}

# A session holding a lock on a table of bench.
sub holder
{
	my ($lock) = @_;
	my $session = $node->background_psql('bench');
	$session->query_safe("SET search_path = pg_catalog, pg_temp; BEGIN; $lock");
	return $session;
}

my $night = 0;
for my $path ('its own path', 'public before pg_catalog')
{
	my $first = $path eq 'its own path' ? '"$user", public' : 'public, pg_catalog';
	sql('postgres', "ALTER DATABASE $_ SET search_path = $first" . ($_ eq 'bench' ? ', sub' : ''))
	  for @dbs;

	# ---- the fleet, measuring, with the central history ----
	for my $run (1, 2)
	{
		my ($rc, $row, $err) = fleet();
		my $label = "$path, fleet run $run";
		is($rc, 1, "$label: exit 1 (the rows that could not be measured)") or diag($err);
		# t found in public, u in sub by the database's own path, sub.v
		# as named.
		for my $rel ('public.t', 'sub.u', 'sub.v')
		{
			my $r = $row->{"bench $rel"} // {};
			is($r->{reason} // 'no row', '', "$label: bench $rel measured");
			cmp_ok($r->{read_mb_s} || 0, '>', 0, "$label: bench $rel has a read rate");
		}
		like($row->{'bench nosuch'}{reason} // '', qr/relation "nosuch" does not exist/,
			"$label: a relation that is not there says so");
		like($row->{'plain t'}{reason} // '', qr/scanbench is not installed/,
			"$label: a server without the extension says so");
		nothing_ran($label, $err);
	}

	# ---- the fleet, sharing a night ----
	{
		$night++;
		my ($rc, $row, $err) = fleet('--night', "night$night", '--lease', '2', '--max-seconds', '1.5');
		my $label = "$path, fleet --night";
		is($rc, 1, "$label: exit 1 (the rows that could not be measured)") or diag($err);
		is($row->{'bench public.t'}{reason} // 'no row', '', "$label: bench t measured");
		is(sql('central', "SELECT pg_catalog.count(*) FROM public.fleet_queue WHERE night OPERATOR(pg_catalog.=) 'night$night'
			AND finished_at IS NOT NULL"), '2', "$label: both servers finished in the queue");
		nothing_ran($label, $err);
	}

	# ---- the probe, into the central history ----
	{
		my ($pout, $perr) = ('', '');
		IPC::Run::run([ $probe, '-h', $node->host, '-p', $node->port, '-d', 'bench', '-t', 'u',
			'--storage', 'mine:mb_s=1000,iops=5000', '--memory', '1GB', '--history', uri('central'),
			'--name', 'probed', '--tag', 'class=test' ], '<', \undef, '>', \$pout, '2>', \$perr);
		is($? >> 8, 0, "$path, probe: exit 0") or diag($perr);
		like($pout, qr/^scanbench-probe \S+: sub\.u on /, "$path, probe: u found on the database's path");
		like($pout, qr/^pass 2: /m, "$path, probe: two passes");
		nothing_ran("$path, probe", $perr);
	}

	# ---- the loader ----
	my $lt = $path eq 'its own path' ? 'li' : 'li2';
	my ($rc, $out, $err) = loader('-s', '0.01', '-t', $lt);
	is($rc, 0, "$path, loader: a new table") or diag($err);
	nothing_ran("$path, loader: a new table", $err);

	# A staging table an earlier load left, to be dropped.
	sql('bench', q{DROP TABLE IF EXISTS public.scanbench_load_99999;
		CREATE TABLE public.scanbench_load_99999 (a pg_catalog.int4);
		COMMENT ON TABLE public.scanbench_load_99999 IS 'scanbench-load staging table: left by a test'});
	($rc, $out, $err) = loader('-s', '0.01', '-t', $lt, '--drop', '-j', '2', '--index', 'l_orderkey',
		'--index', 'l_shipdate', '--check');
	is($rc, 0, "$path, loader: replaced with two jobs, indexes and --check") or diag($err);
	like($err, qr/dropped public\.scanbench_load_99999/, "$path, loader: the staging table left behind dropped");
	like($out, qr/^scan_efficiency\("?$lt"?\)/m, "$path, loader: --check's figure");
	is(sql('bench', "SELECT pg_catalog.count(*) FROM pg_indexes WHERE tablename OPERATOR(pg_catalog.=) '$lt'"), '2',
		"$path, loader: its two indexes");
	nothing_ran("$path, loader: --drop, jobs, --index, --check", $err);

	($rc, $out, $err) = loader('-s', '0.01', '-t', $lt, '--append', '-j', '2');
	is($rc, 0, "$path, loader: --append with two jobs") or diag($err);
	nothing_ran("$path, loader: --append", $err);

	($rc, $out, $err) = loader('-s', '0.01', '-t', "pd_$lt", '--toast', '--drop');
	is($rc, 0, "$path, loader: --toast") or diag($err);
	nothing_ran("$path, loader: --toast", $err);

	# Waiting for a lock, said on stderr, until the holder ends.
	for my $jobs (1, 2)
	{
		my $holder = holder("LOCK TABLE public.$lt IN ACCESS SHARE MODE;");
		my ($lout, $lerr) = ('', '');
		my $h = IPC::Run::start([ $loader, '-h', $node->host, '-p', $node->port, '-d', 'bench',
			'-s', '0.01', '-t', $lt, '--drop', '-j', $jobs, '--lock-timeout', '60' ],
			'>', \$lout, '2>', \$lerr);
		my $deadline = time + 120;
		until ($lerr =~ /waiting \d+ s for/ || time > $deadline || !$h->pumpable)
		{
			$h->pump_nb;
			sleep 0.2;
		}
		sleep 1.5;
		$holder->query_safe('COMMIT');
		$holder->quit;
		$h->finish;
		is($? >> 8, 0, "$path, loader, $jobs job(s): loaded once the lock was free") or diag($lerr);
		like($lerr, qr/waiting \d+ s for AccessExclusiveLock on table public\.$lt, held by pid \d+/,
			"$path, loader, $jobs job(s): said what it waited for");
		nothing_ran("$path, loader, $jobs job(s): waiting for a lock", $lerr);
	}

	# Giving up on one before the first look: who held it, looked up then.
	{
		my $holder = holder("LOCK TABLE public.$lt IN ACCESS SHARE MODE;");
		($rc, $out, $err) = loader('-s', '0.01', '-t', $lt, '--drop', '--lock-timeout', '0.5');
		$holder->query_safe('COMMIT');
		$holder->quit;
		is($rc, 3, "$path, loader: gave up on the lock") or diag($err);
		like($err, qr/held by pid \d+/, "$path, loader: named who held it");
		nothing_ran("$path, loader: giving up on a lock", $err);
	}
}

# ---- the lint ----
# What the path would resolve: a call of a function pg_catalog or the
# extension has, unqualified; a cast to a type not named pg_catalog.X; an
# operator outside OPERATOR(pg_catalog.X), or a construct that looks one up
# by the path (LIKE, IN (...), NULLIF, BETWEEN, IS DISTINCT FROM, CASE x
# WHEN).
my %callable = map { $_->[0] => 1 } rows('bench', q{SELECT DISTINCT proname FROM pg_proc
	WHERE pronamespace IN ('pg_catalog'::regnamespace, 'public'::regnamespace)
	  AND (pronamespace = 'pg_catalog'::regnamespace
	       OR oid IN (SELECT objid FROM pg_depend WHERE classid = 'pg_proc'::regclass AND deptype = 'e'))});
delete $callable{$_} for qw(extract);    # the grammar's, named pg_catalog.extract
my @found;
for my $g (@sql)
{
	my ($file, $text) = @$g;
	my $t = bare_sql($text);
	(my $where = $file) =~ s{^.*/(bin/)}{$1};
	while ($t =~ /(?<![\w\$.])([a-z_][a-z0-9_]*)\s*\(/g)
	{
		push @found, "$where: $1(...) unqualified" if $callable{$1};
	}
	while ($t =~ /::\s*(?!pg_catalog\.)([A-Za-z_"]\S{0,20})/g)
	{
		push @found, "$where: a cast to $1";
	}
	(my $u = $t) =~ s/OPERATOR\(pg_catalog\.[^)]+\)/ /g;
	# SET's and UPDATE ... SET's "name =" are no operators.
	$u =~ s{\bSET\s+(?:LOCAL\s+)?(.*?)(?=\bFROM\b|\bWHERE\b|\bRETURNING\b|;|$)}
	  {'SET ' . ($1 =~ s/(^|,)(\s*[\w.]+\s*)=/$1$2:=/gr)}gse;
	while ($u =~ /(?:^|[\s\w)\]'])(=|<>|!=|<=|>=|<|>|\|\||~~\*?|!~~\*?|~\*?|!~\*?|\+|-|\/|<<|>>|\||&|#|\^|\@>|<\@|&&)(?=[\s\w('\$(])/g)
	{
		my $o = $1;
		next if $o eq '-' && $u =~ /--/;
		push @found, "$where: operator $o unqualified";
	}
	push @found, "$where: LIKE" if $u =~ /(?<!\()\s*\bLIKE\b/ && $u !~ /\(LIKE\b/;
	push @found, "$where: $1" while $u =~ /\b(NULLIF|BETWEEN|ILIKE|SIMILAR|OVERLAPS|DISTINCT\s+FROM)\b/g;
	push @found, "$where: IN (...)" if $u =~ /\bIN\s*\(/;
	push @found, "$where: CASE x WHEN" if $u =~ /\bCASE\s+(?!WHEN\b)/;
	# a table's columns, made by CREATE TABLE %s %s
	if ($u =~ /^\s*\(\s*\n/ && $u =~ /\bNOT NULL\b/)
	{
		while ($u =~ /^\s+\w+\s+(?!pg_catalog\.)([\w.]+)/mg)
		{
			push @found, "$where: a column of type $1";
		}
	}
}
my %once;
@found = grep { !$once{$_}++ } @found;
is(scalar(@found), 0, "the clients' SQL leaves nothing to the path")
  or diag(join("\n", @found));

$_->quit for values %counter;
$node->stop;
done_testing();
