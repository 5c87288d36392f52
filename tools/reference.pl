#!/usr/bin/env perl
# doc/reference.md against the installed extension's catalog.
#
#   tools/reference.pl [--check | --write | --dump] [--catalog FILE]
#                      [--dbname DB] [TOP]
#
# doc/reference.md holds generated blocks, one for each function, procedure,
# table and view of the extension's schema, and one for the verdict's marks:
#
#   <!-- catalog: scan_efficiency -->
#   ...the signature (argument names, types, defaults, in order), the
#   result's columns (name, type, comment, in order)...
#   <!-- /catalog -->
#
#   <!-- catalog: verdict marks -->
#   | mark | ... |
#   <!-- /catalog -->
#
# The catalog is read from a running server with psql (PGHOST, PGPORT,
# PGUSER and PGDATABASE as usual, or --dbname) where the extension is
# created, or from a file --dump wrote.  The prose around the blocks is
# written by hand; the blocks are not.
#
#   --check   (the default) fails when a block differs from what the catalog
#             gives, when a function, procedure, table or view of the
#             extension has no block, when a block names one that does not
#             exist, when the marks a page's table lists are not the
#             verdict's, and when an example in README.md or doc/*.md calls
#             a function with an argument it does not have, or shows a
#             verdict psql would not print.
#   --write   rewrites every block from the catalog, appends a section for
#             each object that has none (to be described and moved), and
#             drops the blocks of objects that no longer exist.
#   --dump    prints the catalog as JSON, for --catalog.
#
# The verdict's marks come from the SQL function scan_verdict_marks()
# (mark, judged, meaning) where the extension has it; otherwise from the C
# source (TOP/src): the marks src/verdict.c adds (add(v, "...")), those an
# entry file sets when nothing was measured (marks[0] = "..."), and ok.
# With the function the block's table is generated; without it the table
# is written by hand and its first column must list exactly those marks.
#
# Prints an ok/not ok line per check and ends with "N passed, N failed".
use strict;
use warnings;
use File::Basename qw(dirname);
use File::Spec;
use Cwd qw(abs_path);
use Getopt::Long;
use JSON::PP;

my ($mode, $catalog_file, $dbname) = ('check');
GetOptions(
	'check' => sub { $mode = 'check' },
	'write' => sub { $mode = 'write' },
	'dump' => sub { $mode = 'dump' },
	'catalog=s' => \$catalog_file,
	'dbname|d=s' => \$dbname,
	'help|h' => sub {
		open(my $me, '<', $0) or die;
		while (<$me>) { last unless /^#/; next if /^#!/; s/^# ?//; print; }
		exit 0;
	}) or exit 2;
my $top = abs_path($ARGV[0] // dirname(abs_path($0)) . '/..');
my $page = "$top/doc/reference.md";
my ($pass, $fail) = (0, 0);

sub check
{
	my ($ok, $name, @why) = @_;
	if ($ok) { print "ok - $name\n"; $pass++; }
	else { print "not ok - $name\n"; print "#   $_\n" for @why; $fail++; }
	return $ok;
}

sub slurp
{
	my $f = shift;
	open(my $fh, '<:encoding(UTF-8)', $f) or return undef;
	local $/;
	my $s = <$fh>;
	close $fh;
	return $s;
}

# ---- the catalog ----

# One query: the extension's version and schema, its functions and
# procedures in that schema (scanbench_internal holds helpers, not
# surface), their arguments in order with each default as the server
# prints it, their result's columns, and its tables and views.
my $catalog_sql = <<'SQL';
WITH ext AS (
	SELECT e.oid, e.extversion, e.extnamespace, n.nspname
	FROM pg_catalog.pg_extension e
	JOIN pg_catalog.pg_namespace n ON n.oid = e.extnamespace
	WHERE e.extname = 'scanbench'),
member AS (
	SELECT d.classid, d.objid
	FROM pg_catalog.pg_depend d, ext
	WHERE d.refclassid = 'pg_catalog.pg_extension'::pg_catalog.regclass
	  AND d.refobjid = ext.oid AND d.deptype = 'e'),
fn AS (
	SELECT p.*
	FROM pg_catalog.pg_proc p, ext
	WHERE p.oid IN (SELECT objid FROM member WHERE classid = 'pg_catalog.pg_proc'::pg_catalog.regclass)
	  AND p.pronamespace = ext.extnamespace),
arg AS (
	SELECT fn.oid, a.n,
		   coalesce(fn.proargnames[a.n], '') AS name,
		   pg_catalog.format_type(a.t, NULL) AS type,
		   coalesce(fn.proargmodes[a.n]::text, 'i') AS mode,
		   pg_catalog.pg_get_function_arg_default(fn.oid, a.n::integer) AS def
	FROM fn,
		 unnest(coalesce(fn.proallargtypes, fn.proargtypes::oid[])) WITH ORDINALITY AS a(t, n)),
col AS (
	SELECT fn.oid, a.attnum AS n, a.attname::text AS name,
		   pg_catalog.format_type(a.atttypid, a.atttypmod) AS type,
		   pg_catalog.col_description(a.attrelid, a.attnum) AS comment
	FROM fn
	JOIN pg_catalog.pg_type t ON t.oid = fn.prorettype
	JOIN pg_catalog.pg_attribute a ON a.attrelid = t.typrelid
	WHERE a.attnum > 0 AND NOT a.attisdropped),
rel AS (
	SELECT c.oid, c.relname::text AS name, c.relkind::text AS kind,
		   pg_catalog.obj_description(c.oid, 'pg_class') AS comment
	FROM pg_catalog.pg_class c, ext
	WHERE c.oid IN (SELECT objid FROM member WHERE classid = 'pg_catalog.pg_class'::pg_catalog.regclass)
	  AND c.relnamespace = ext.extnamespace
	  AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
	  -- a partition is its parent's: documented there
	  AND NOT c.relispartition)
SELECT pg_catalog.json_build_object(
	'version', (SELECT extversion FROM ext),
	'schema', (SELECT nspname FROM ext),
	'functions', coalesce((SELECT pg_catalog.json_agg(pg_catalog.json_build_object(
		'name', fn.proname::text,
		'kind', fn.prokind::text,
		'identity', pg_catalog.pg_get_function_identity_arguments(fn.oid),
		'result', pg_catalog.pg_get_function_result(fn.oid),
		'retset', fn.proretset,
		'comment', pg_catalog.obj_description(fn.oid, 'pg_proc'),
		'args', coalesce((SELECT pg_catalog.json_agg(pg_catalog.json_build_object(
				'name', arg.name, 'type', arg.type, 'mode', arg.mode, 'default', arg.def) ORDER BY arg.n)
			FROM arg WHERE arg.oid = fn.oid), '[]'),
		'columns', coalesce((SELECT pg_catalog.json_agg(pg_catalog.json_build_object(
				'name', col.name, 'type', col.type, 'comment', col.comment) ORDER BY col.n)
			FROM col WHERE col.oid = fn.oid), '[]'))
		ORDER BY fn.proname, pg_catalog.pg_get_function_identity_arguments(fn.oid)) FROM fn), '[]'),
	'relations', coalesce((SELECT pg_catalog.json_agg(pg_catalog.json_build_object(
		'name', rel.name, 'kind', rel.kind, 'comment', rel.comment,
		'columns', (SELECT pg_catalog.json_agg(pg_catalog.json_build_object(
				'name', a.attname::text,
				'type', pg_catalog.format_type(a.atttypid, a.atttypmod),
				'comment', pg_catalog.col_description(a.attrelid, a.attnum)) ORDER BY a.attnum)
			FROM pg_catalog.pg_attribute a
			WHERE a.attrelid = rel.oid AND a.attnum > 0 AND NOT a.attisdropped))
		ORDER BY rel.name) FROM rel), '[]'))
SQL

sub psql
{
	my $sql = shift;
	my @cmd = ('psql', '-X', '-A', '-t', '-q', '-v', 'ON_ERROR_STOP=1');
	push @cmd, '-d', $dbname if defined $dbname;
	open(my $ph, '-|', @cmd, '-c', $sql) or die "reference.pl: cannot run psql: $!\n";
	local $/;
	my $out = <$ph>;
	close $ph;
	die "reference.pl: psql failed (exit " . ($? >> 8) . ")\n" if $?;
	return $out;
}

# The marks from the C source, where no SQL function gives them.
sub marks_from_source
{
	my @marks = ('ok');
	my %seen = (ok => 1);
	my $verdict = slurp("$top/src/verdict.c")
	  // die "reference.pl: cannot read $top/src/verdict.c\n";
	my @texts = ($verdict);
	push @texts, slurp($_) // '' for sort glob("$top/src/entry/*.c");
	for my $t (@texts)
	{
		while ($t =~ /\badd\(\s*v\s*,\s*"([a-z_]+)"\s*\)|\bmarks\[\d+\]\s*=\s*"([a-z_]+)"/g)
		{
			my $m = $1 // $2;
			push @marks, $m unless $seen{$m}++;
		}
	}
	return [map { { mark => $_ } } @marks];
}

my $catalog;
if (defined $catalog_file)
{
	my $text = slurp($catalog_file) // die "reference.pl: cannot read $catalog_file: $!\n";
	$catalog = decode_json($text);
}
else
{
	my $json = psql($catalog_sql);
	$json =~ s/\s+$//;
	die "reference.pl: the extension scanbench is not created in this database\n"
	  if $json eq '' || $json =~ /"version"\s*:\s*null/;
	$catalog = decode_json($json);
	if (grep { $_->{name} eq 'scan_verdict_marks' } @{ $catalog->{functions} })
	{
		my $schema = $catalog->{schema};
		$schema =~ s/"/""/g;
		my $rows = psql(qq{SELECT pg_catalog.json_agg(pg_catalog.to_json(m)) FROM "$schema".scan_verdict_marks() m});
		$catalog->{marks} = decode_json($rows);
		$catalog->{marks_source} = 'scan_verdict_marks()';
	}
	else
	{
		$catalog->{marks} = marks_from_source();
		$catalog->{marks_source} = 'src/verdict.c';
	}
}

if ($mode eq 'dump')
{
	print JSON::PP->new->canonical->pretty->encode($catalog);
	exit 0;
}

# ---- rendering a block ----

# Text for a Markdown table cell: no line break, no pipe, nothing GitHub
# would take for HTML or emphasis.
sub cell
{
	my $s = shift // '';
	$s =~ s/\s+/ /g;
	$s =~ s/([|*\\])/\\$1/g;
	$s =~ s/</&lt;/g;
	return $s;
}

# A default as a reader writes it: 'cold', not 'cold'::text.
sub default_text
{
	my ($d, $type) = @_;
	$d =~ s/^\((.*)\)$/$1/;
	$d =~ s/^('(?:[^']|'')*'|NULL|-?[0-9.]+)::\Q$type\E$/$1/;
	$d =~ s/^'(-?[0-9]+(?:\.[0-9]+)?)'$/$1/ if $type =~ /^(integer|bigint|smallint|double precision|real|numeric)$/;
	return $d;
}

sub signature
{
	my $f = shift;
	my @in;
	for my $a (@{ $f->{args} })
	{
		next if $a->{mode} eq 'o' || $a->{mode} eq 't';
		my $s = $a->{mode} eq 'b' ? 'INOUT ' : $a->{mode} eq 'v' ? 'VARIADIC ' : '';
		$s .= "$a->{name} " if $a->{name} ne '';
		$s .= $a->{type};
		$s .= ' DEFAULT ' . default_text($a->{default}, $a->{type}) if defined $a->{default};
		push @in, $s;
	}
	my $head = ($f->{kind} eq 'p' ? 'PROCEDURE ' : 'FUNCTION ') . $f->{name};
	my $result = '';
	if ($f->{kind} ne 'p')
	{
		my $r = $f->{result};
		$r = ($f->{retset} ? 'SETOF ' : '') . 'record' if $r =~ /^TABLE\(/;
		$result = " RETURNS $r";
	}
	my $line = "$head(" . join(', ', @in) . ")$result";
	return $line if length($line) <= 78;
	return "$head(\n" . join(",\n", map { "    $_" } @in) . "\n)$result";
}

sub columns_table
{
	my @cols = @_;
	return () unless @cols;
	my @lines = ('| column | type | what |', '|---|---|---|');
	push @lines, '| ' . join(' | ', $_->{name}, cell($_->{type}), cell($_->{comment})) . ' |' for @cols;
	return @lines;
}

my %fn_by_name;
push @{ $fn_by_name{ $_->{name} } }, $_ for @{ $catalog->{functions} };
my %rel_by_name = map { $_->{name} => $_ } @{ $catalog->{relations} };

sub render_object
{
	my $name = shift;
	my @lines;
	if (my $fs = $fn_by_name{$name})
	{
		for my $f (@$fs)
		{
			push @lines, '', '```sql', signature($f), '```', '';
			push @lines, '> ' . cell($f->{comment}), '' if defined $f->{comment};
			my @cols = @{ $f->{columns} };
			@cols = map { { name => $_->{name}, type => $_->{type} } }
			  grep { $_->{mode} eq 'o' || $_->{mode} eq 'b' || $_->{mode} eq 't' } @{ $f->{args} }
			  unless @cols;
			if (@cols && $f->{kind} ne 'p')
			{
				(my $type = $f->{result}) =~ s/^SETOF //;
				my $whose = $f->{retset} ? "Its rows' columns" : 'Its columns';
				push @lines, $f->{result} =~ /^(?:SETOF )?(?:record|TABLE\()/
				  ? "$whose, in order:" : "$whose (`$type`), in order:", '';
				push @lines, columns_table(@cols), '';
			}
		}
	}
	elsif (my $r = $rel_by_name{$name})
	{
		my %kinds = (r => 'TABLE', p => 'TABLE', v => 'VIEW', m => 'MATERIALIZED VIEW', f => 'FOREIGN TABLE');
		push @lines, '', '```sql', "$kinds{$r->{kind}} $name", '```', '';
		push @lines, '> ' . cell($r->{comment}), '' if defined $r->{comment};
		push @lines, columns_table(@{ $r->{columns} }), '';
	}
	return join("\n", @lines);
}

sub render_marks
{
	my @m = @{ $catalog->{marks} };
	my @lines = ('');
	my @keys = grep { exists $m[0]{$_} } qw(mark judged meaning);
	push @lines, '| ' . join(' | ', @keys) . ' |', '|' . join('|', map { '---' } @keys) . '|';
	for my $r (@m)
	{
		push @lines, '| ' . join(' | ', map {
			my $v = $r->{$_};
			$_ eq 'mark' ? "`$v`" : JSON::PP::is_bool($v) ? ($v ? 'yes' : 'no') : cell($v)
		} @keys) . ' |';
	}
	return join("\n", @lines, '');
}

# The marks a hand-written table lists: the first cell of each row, in
# backquotes.
sub listed_marks
{
	my $body = shift;
	my @marks;
	for my $line (split /\n/, $body)
	{
		push @marks, $1 if $line =~ /^\|\s*`([a-z_]+)`\s*\|/;
	}
	return @marks;
}

my $marks_generated = exists $catalog->{marks}[0]{meaning};
# ok is what psql prints for a verdict without a mark: a table may list it.
my %is_mark = (ok => 1, map { $_->{mark} => 1 } @{ $catalog->{marks} });
my $marks_source = $catalog->{marks_source} // 'the catalog';

# The first lines where two texts part.
sub first_difference
{
	my ($want, $have) = @_;
	my @w = split /\n/, $want, -1;
	my @h = split /\n/, $have, -1;
	for my $i (0 .. ($#w > $#h ? $#w : $#h))
	{
		my ($a, $b) = ($w[$i] // '(end)', $h[$i] // '(end)');
		return ("line " . ($i + 1) . " of the block", "  catalog: $a", "  page:    $b") if $a ne $b;
	}
	return ();
}

# A table of marks written by hand: what it lacks and what it lists that
# is no mark.
sub marks_differ
{
	my $body = shift;
	my %listed = map { $_ => 1 } listed_marks($body);
	return ((map { "mark $_ is not listed" } grep { !$listed{$_} } map { $_->{mark} } @{ $catalog->{marks} }),
			(map { "`$_` is no mark of the verdict" } grep { !$is_mark{$_} } listed_marks($body)));
}

# A table of marks by hand brought up to date: rows of marks that no
# longer exist dropped, a row added for each new one, to be described.
sub marks_mended
{
	my ($body, $said) = @_;
	my %listed = map { $_ => 1 } listed_marks($body);
	my @keep = grep { !/^\|\s*`([a-z_]+)`/ || $is_mark{$1} } split /\n/, $body, -1;
	my @new = grep { !$listed{$_} } map { $_->{mark} } @{ $catalog->{marks} };
	push @$said, "describe the marks " . join(', ', @new) if @new;
	my $last = $#keep;
	$last-- while $last > 0 && $keep[$last] !~ /^\|/;
	splice(@keep, $last + 1, 0, map { "| `$_` |" . (' |' x ((() = $keep[$last] =~ /\|/g) - 2)) } @new);
	return join("\n", @keep);
}

# ---- the pages ----

# Blocks: <!-- catalog: NAME -->, NAME a function, procedure, table or view
# (doc/reference.md only), "verdict marks" (generated where the catalog
# has scan_verdict_marks(), else by hand) or "verdict marks by hand" (a
# table of marks with columns of the page's own, on any page).
my $block_re = qr/<!-- catalog: ([a-z_][a-z0-9_ ]*) -->\n(.*?)<!-- \/catalog -->/s;
my @pages = ("$top/README.md", sort glob("$top/doc/*.md"));
my %text;
for my $p (@pages)
{
	$text{$p} = slurp($p) // die "reference.pl: cannot read $p\n";
}
my (%blocks, @dupes, @misplaced);
while ($text{$page} =~ /$block_re/g)
{
	push @dupes, $1 if exists $blocks{$1};
	$blocks{$1} = $2;
}
for my $p (grep { $_ ne $page } @pages)
{
	# A block shown as an example, in a fenced block, is no block.
	(my $prose = $text{$p}) =~ s/^```.*?^```//gms;
	while ($prose =~ /$block_re/g)
	{
		push @misplaced, File::Spec->abs2rel($p, $top) . ": <!-- catalog: $1 --> belongs in doc/reference.md"
		  unless $1 eq 'verdict marks by hand';
	}
}
my @objects = sort(keys %fn_by_name, keys %rel_by_name);
my %exists = map { $_ => 1 } @objects, 'verdict marks', 'verdict marks by hand';

if ($mode eq 'write')
{
	my @said;
	for my $p (@pages)
	{
		my $old = $text{$p};
		$text{$p} =~ s{$block_re}{
			my ($name, $body) = ($1, $2);
			if ($name eq 'verdict marks by hand' || ($name eq 'verdict marks' && !$marks_generated))
			{
				"<!-- catalog: $name -->\n" . marks_mended($body, \@said) . "<!-- /catalog -->";
			}
			elsif ($p ne $page) { $& }
			elsif ($name eq 'verdict marks') { "<!-- catalog: $name -->\n" . render_marks() . "<!-- /catalog -->" }
			elsif ($exists{$name}) { "<!-- catalog: $name -->\n" . render_object($name) . "\n<!-- /catalog -->" }
			else { push @said, "$name no longer exists: its block is dropped, its prose is yours to remove"; '' }
		}ge;
		if ($p eq $page)
		{
			for my $name (@objects)
			{
				next if exists $blocks{$name};
				push @said, "$name is new: its block is appended to the page, to be described and moved where it belongs";
				$text{$p} =~ s/\n*$/\n\n### $name\n\n<!-- catalog: $name -->\n/;
				$text{$p} .= render_object($name) . "\n<!-- /catalog -->\n";
			}
		}
		next if $text{$p} eq $old;
		open(my $fh, '>:encoding(UTF-8)', $p) or die "reference.pl: cannot write $p: $!\n";
		print $fh $text{$p};
		close $fh;
		print "reference.pl: wrote " . File::Spec->abs2rel($p, $top) . "\n";
	}
	print "reference.pl: $_\n" for @said;
	print "reference.pl: the pages agree with the catalog of scanbench $catalog->{version}\n";
	exit 0;
}

# --check
my $rel = File::Spec->abs2rel($page, $top);
check(!@dupes && !@misplaced, "$rel: one block per object, and none elsewhere",
	  (map { "two blocks for $_" } @dupes), @misplaced);
my @missing = grep { !exists $blocks{$_} } @objects, 'verdict marks';
check(!@missing, "$rel: a block for every function, procedure, table and view of scanbench $catalog->{version}, and for the verdict's marks",
	  map { "no block <!-- catalog: $_ --> for $_" } @missing);
my @unknown = grep { !$exists{$_} } sort keys %blocks;
check(!@unknown, "$rel: every block names something scanbench $catalog->{version} has",
	  map { "<!-- catalog: $_ -->: no function, procedure, table or view $_" } @unknown);

for my $name (grep { $exists{$_} && !/^verdict marks/ } sort keys %blocks)
{
	my $want = render_object($name) . "\n";
	check($blocks{$name} eq $want, "$rel: the block of $name is the catalog's",
		  first_difference($want, $blocks{$name}), 'tools/reference.sh --write makes it again');
}
for my $p (@pages)
{
	my $prel = File::Spec->abs2rel($p, $top);
	while ($text{$p} =~ /$block_re/g)
	{
		my ($name, $body) = ($1, $2);
		next unless $name =~ /^verdict marks/;
		if ($name eq 'verdict marks' && $marks_generated && $p eq $page)
		{
			my $want = render_marks();
			check($body eq $want, "$prel: the verdict's marks are those of $marks_source",
				  first_difference($want, $body), 'tools/reference.sh --write makes it again');
		}
		else
		{
			my @why = marks_differ($body);
			check(!@why, "$prel: the table of the verdict's marks lists those of $marks_source", @why);
		}
	}
}

# ---- the examples of every page ----

# The calls of scanbench's functions in a text: name and argument list,
# read up to the matching parenthesis outside strings.
sub calls
{
	my ($text, $names) = @_;
	my @found;
	while ($text =~ /\b($names)\s*\(/g)
	{
		my ($name, $start) = ($1, pos($text));
		my ($depth, $quote, $i) = (1, '', $start);
		for (; $i < length($text) && $depth > 0; $i++)
		{
			my $c = substr($text, $i, 1);
			if ($quote) { $quote = '' if $c eq $quote; next; }
			if ($c eq "'" || $c eq '"') { $quote = $c; next; }
			$depth++ if $c eq '(';
			$depth-- if $c eq ')';
		}
		next if $depth > 0;
		my $args = substr($text, $start, $i - 1 - $start);
		my $line = 1 + (() = substr($text, 0, $start) =~ /\n/g);
		push @found, [$name, $args, $line];
	}
	return @found;
}

# Top-level pieces of an argument list: split at commas outside
# parentheses, brackets and strings.
sub pieces
{
	my $args = shift;
	my @p = ('');
	my ($depth, $quote) = (0, '');
	for my $c (split //, $args)
	{
		if ($quote) { $quote = '' if $c eq $quote; }
		elsif ($c eq "'" || $c eq '"') { $quote = $c; }
		elsif ($c =~ /[(\[]/) { $depth++; }
		elsif ($c =~ /[)\]]/) { $depth--; }
		elsif ($c eq ',' && $depth == 0) { push @p, ''; next; }
		$p[-1] .= $c;
	}
	@p = () if @p == 1 && $p[0] =~ /^\s*$/;
	return @p;
}

# What a page shows as code: fenced blocks and inline code.
sub code_of
{
	my $t = shift;
	my @code;
	my ($in, $n) = (0, 0);
	my $buf = '';
	my $at;
	for my $line (split /\n/, $t)
	{
		$n++;
		if ($line =~ /^\s*(```|~~~)/)
		{
			if ($in) { push @code, [$buf, $at, 'block']; $buf = ''; }
			else { $at = $n + 1; }
			$in = !$in;
			next;
		}
		if ($in) { $buf .= "$line\n"; next; }
		while ($line =~ /`([^`]+)`/g) { push @code, [$1, $n, 'inline']; }
	}
	return @code;
}

my $names = join('|', map { quotemeta } sort { length($b) <=> length($a) } keys %fn_by_name);
for my $p (@pages)
{
	my $t = $text{$p};
	my $prel = File::Spec->abs2rel($p, $top);
	# Leave the generated blocks out: they are checked above.
	$t =~ s/$block_re/"\n" x (() = $&=~ m{\n}g)/ge;
	my (@bad_args, @bad_verdicts);
	for my $c (code_of($t))
	{
		my ($code, $at, $kind) = @$c;
		for my $call ($names ? calls($code, $names) : ())
		{
			my ($name, $args, $line) = @$call;
			my @p = pieces($args);
			my $where = "line " . ($at + $line - 1);
			# A signature written out (rel regclass, ...) is no call.
			next if grep { /^\s*[a-z_]+\s+(regclass|text|integer|float8|boolean|bigint|name|interval)\b/ } @p;
			my $ok_count = 0;
			my %arg_names;
			for my $f (@{ $fn_by_name{$name} })
			{
				my @in = grep { $_->{mode} ne 'o' && $_->{mode} ne 't' } @{ $f->{args} };
				$arg_names{ $_->{name} } = 1 for @in;
				$ok_count = 1 if @p <= @in;
			}
			for my $piece (@p)
			{
				next unless $piece =~ /^\s*([a-z_][a-z0-9_]*)\s*=>/ && !$arg_names{$1};
				push @bad_args, "$where: $name() takes no argument $1 (its arguments: "
				  . join(', ', sort keys %arg_names) . ")";
			}
			push @bad_args, "$where: $name() given " . scalar(@p) . " arguments, more than it takes" unless $ok_count;
		}
		next unless $kind eq 'block';
		# psql's output: a header naming verdict, its rule, then rows; or
		# expanded display's "verdict | ...".
		my @lines = split /\n/, $code;
		for my $i (0 .. $#lines)
		{
			my @values;
			if ($i < $#lines && $lines[$i + 1] =~ /^\s*-+(?:\+-+)+\s*$|^\s*-{3,}\s*$/ && $lines[$i] =~ /(?:^|\|)\s*verdict\s*(?:\||$)/)
			{
				my @h = map { s/^\s+|\s+$//gr } split /\|/, $lines[$i], -1;
				my ($col) = grep { $h[$_] eq 'verdict' } 0 .. $#h;
				for my $j ($i + 2 .. $#lines)
				{
					last if $lines[$j] =~ /^\s*\(\d+ rows?\)\s*$/ || $lines[$j] !~ /\S/;
					my @v = split /\|/, $lines[$j], -1;
					push @values, [$v[$col] // '', $at + $j];
				}
			}
			push @values, [$1, $at + $i] if $lines[$i] =~ /^\s*verdict\s+\|\s?(.*)$/ && ($i == 0 || $lines[$i - 1] !~ /^\s*-[-+]+\s*$/);
			for my $v (@values)
			{
				my ($value, $line) = @$v;
				$value =~ s/^\s+|\s+$//g;
				next if $value eq '' || $value =~ /^\.\.\.|…$/;
				if ($value !~ /^\{([a-z_]+(?:,[a-z_]+)*)\}$/)
				{
					push @bad_verdicts, "line $line: verdict $value: psql prints the marks as an array, {ok} or {unstable,cached}";
					next;
				}
				push @bad_verdicts, "line $line: verdict $value: $_ is no mark" for grep { !$is_mark{$_} } split /,/, $1;
			}
		}
	}
	check(!@bad_args, "$prel: every call in its examples names arguments scanbench $catalog->{version} has", @bad_args);
	check(!@bad_verdicts, "$prel: every verdict its examples print is one psql prints", @bad_verdicts);
}

print "$pass passed, $fail failed\n";
exit($fail ? 1 : 0);
