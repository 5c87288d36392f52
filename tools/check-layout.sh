#!/usr/bin/env bash
# The layout of the C code, read from its includes and calls: the engine
# in src/, the SQL-callable functions in src/entry/, one file a family;
# the client programs in bin/.
#
#   tools/check-layout.sh [-v]
#
# Lists each C file's own includes (with -v), then checks, one "ok" or
# "not ok" line each:
#   - no header lives in src/entry/ and no file includes one from there;
#   - an entry file defines nothing but SQL-callable functions
#     (PG_FUNCTION_INFO_V1) besides its static helpers;
#   - no file calls a function another entry file defines: the engine
#     stands on no entry file, and entry files are peers;
#   - each header src/NAME.h declares only functions src/NAME.c defines;
#   - no file outside src/entry/ sees a call's fcinfo but the decoder the
#     entry files share (src/fnargs.c, src/fnargs.h): the engine gets
#     plain values and structs;
#   - no file outside src/entry/ is an SQL entrance (PG_FUNCTION_INFO_V1);
#   - the Makefile's OBJS names each C file once, REGRESS each test of
#     sql/, and SURFACE each file of surface/ (a file left out would not be
#     built, run or put in the install script); no step is both released
#     (released/) and made from a manifest (surface/upgrade/);
#   - scanbench.c holds the module's magic block and no function;
#   - no C file of src/ or bin/ (scanbench.c too) is over 1,000 lines: a
#     file that long holds more than one concern;
#   - no function of src/entry/ is over 60 lines, from the line of its
#     opening brace to that of its closing one: an entry function decodes
#     its arguments, calls the engine and builds its row, and the
#     measuring is the engine's.  Each one over is named with its file
#     and length;
#   - in the client programs (bin/*/, with bin/common/; not bin/fuzz/,
#     the fuzz tests of their parsers), each header NAME.h declares only
#     functions NAME.c defines (a header without a NAME.c holds types
#     alone), and no circle runs between a program's files: one stands on
#     another when it calls a function the other defines.  A circle is
#     printed with its files and calls;
#   - in a git checkout, no built file is tracked, and no script make
#     writes from surface/ (the current version's install script, each
#     unreleased step): a copy in git would go stale or be edited by hand.
# The last line is "N passed, N failed"; the exit status is 1 on a failure.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2

verbose=0
[ "${1:-}" = "-v" ] && verbose=1

exec perl - "$verbose" <<'PERL'
use strict;
use warnings;

my $verbose = shift;
my ($pass, $fail) = (0, 0);

sub check
{
	my ($ok, $name, @why) = @_;
	if ($ok) { print "ok - $name\n"; $pass++; }
	else { print "not ok - $name\n"; print "#   $_\n" for @why; $fail++; }
}

sub slurp
{
	my $f = shift;
	open(my $fh, '<', $f) or die "$f: $!";
	local $/;
	return <$fh>;
}

# The code without comments and string literals: what is left is what
# the compiler sees of names.
sub uncommented
{
	my $s = shift;
	$s =~ s{/\*.*?\*/}{ }gs;
	$s =~ s{//[^\n]*}{}g;
	return $s;
}

sub code_of
{
	my $s = uncommented(shift);
	$s =~ s{^(\s*#\s*include\s.*)$}{}mg;
	$s =~ s{"(?:\\.|[^"\\\n])*"}{""}g;
	$s =~ s{'(?:\\.|[^'\\\n])*'}{''}g;
	return $s;
}

# Functions a file defines: PostgreSQL style puts the name at the start of
# a line, the type on the line above; static ones are the file's own.
sub definitions
{
	my $code = shift;
	my (%public, %static);
	while ($code =~ /^([^\n]*)\n([A-Za-z_]\w*)\(([^;{]*?)\)\s*\{/mg)
	{
		my ($type, $name) = ($1, $2);
		if ($type =~ /\bstatic\b/) { $static{$name} = 1; }
		else { $public{$name} = 1; }
	}
	return (\%public, \%static);
}

my @engine = sort glob('src/*.c');
my @entry = sort glob('src/entry/*.c');
my @all = ('scanbench.c', @engine, @entry);
my %code = map { $_ => code_of(slurp($_)) } @all;
my %includes = map { my $f = $_; $f => [ uncommented(slurp($f)) =~ /^\s*#\s*include\s+([<"][^>"]*[>"])/mg ] }
  (@all, glob('src/*.h'));

# Each C file's own includes.
if ($verbose)
{
	print "# $_: @{$includes{$_}}\n" for (@all, sort glob('src/*.h'));
}

# No entry headers.
my @entry_h = glob('src/entry/*.h');
check(!@entry_h, 'src/entry/ holds no header', map { "$_ exists" } @entry_h);
my @bad_inc;
for my $f (@all, glob('src/*.h'))
{
	push @bad_inc, map { "$f includes $_" } grep { m{^"(?:entry/|\.\./)} } @{$includes{$f}};
}
check(!@bad_inc, 'no file includes a header from src/entry/', @bad_inc);

# What each entry file defines, and that it exports SQL functions only.
my %owner;
my @exports;
for my $f (@entry)
{
	my ($public) = definitions($code{$f});
	my %sql = map { $_ => 1 } $code{$f} =~ /^PG_FUNCTION_INFO_V1\((\w+)\)/mg;
	for my $fn (sort keys %$public)
	{
		$owner{$fn} = $f;
		push @exports, "$f defines $fn(), not an SQL function" unless $sql{$fn};
	}
}
check(!@exports, 'entry files define only SQL-callable functions', @exports);

# No file calls what an entry file defines, but that file itself.
my @calls;
for my $f (@all)
{
	for my $fn (sort keys %owner)
	{
		next if $owner{$fn} eq $f;
		push @calls, "$f calls $fn() of $owner{$fn}" if $code{$f} =~ /\b\Q$fn\E\s*\(/;
	}
}
check(!@calls, 'no file calls a function of an entry file', @calls);

# Functions a header declares: with extern, or a prototype written without.
sub declarations
{
	my $hc = code_of(slurp(shift));
	my @decl = $hc =~ /^extern\s[^;(]*?\b(\w+)\s*\(/mg;
	# a prototype written without extern declares a function as well
	push @decl, $hc =~ /^(?!extern\b|static\b|typedef\b|#)[A-Za-z_][\w \t*]*?\b(\w+)\s*\([^;{}()]*(?:\([^;{}()]*\)[^;{}()]*)*\)\s*;/mg;
	return @decl;
}

# One header a module: NAME.h declares what NAME.c defines; a header with
# no NAME.c of its own holds types only.
sub check_header
{
	my ($h, $code) = @_;
	(my $c = $h) =~ s/\.h$/.c/;
	my @decl = declarations($h);
	if (!-f $c)
	{
		check(!@decl, "$h declares no function (no $c)", map { "declares $_()" } @decl);
		return;
	}
	my ($public) = definitions($code // code_of(slurp($c)));
	my @foreign = grep { !$public->{$_} } @decl;
	check(!@foreign, "$h declares only functions $c defines",
		  map { "declares $_(), not defined in $c" } @foreign);
}

check_header($_, $code{s/\.h$/.c/r}) for sort glob('src/*.h');

# The engine sees no call: fcinfo is src/entry/'s and the decoder's.
my @sees;
for my $f ('scanbench.c', @engine, sort glob('src/*.h'))
{
	next if $f =~ m{^src/fnargs\.[ch]$};
	my $c = code_of(slurp($f));
	my %names = map { $_ => 1 } $c =~ /\b(fcinfo|FunctionCallInfo|PG_FUNCTION_ARGS)\b/g;
	push @sees, map { "$f names $_" } sort keys %names;
}
check(!@sees, 'no file outside src/entry/ but src/fnargs.c sees fcinfo', @sees);

# SQL entrances live in src/entry/.
my @entrances;
for my $f ('scanbench.c', @engine)
{
	push @entrances, map { "$f declares $_()" } $code{$f} =~ /^PG_FUNCTION_INFO_V1\((\w+)\)/mg;
}
check(!@entrances, 'no SQL-callable function outside src/entry/', @entrances);

# The Makefile's lists, against the files.
if (-f 'Makefile')
{
	(my $mk = slurp('Makefile')) =~ s/\\\n/ /g;
	my ($objs) = $mk =~ /^OBJS\s*=\s*(.*)$/m;
	my ($regress) = $mk =~ /^REGRESS\s*=\s*(.*)$/m;
	my %listed = map { $_ => 1 } split ' ', $objs // '';
	my %files = map { (s/\.c$/.o/r) => 1 } @all;
	my @miss = ((map { "not in OBJS: $_" } grep { !$listed{$_} } sort keys %files),
				(map { "in OBJS without a source: $_" } grep { !$files{$_} } sort keys %listed));
	check(!@miss, "the Makefile's OBJS names every C file", @miss);
	my %tests = map { $_ => 1 } split ' ', $regress // '';
	my @left = grep { !$tests{$_} } map { m{sql/(.*)\.sql$}; $1 } sort glob('sql/*.sql');
	check(!@left, "the Makefile's REGRESS names every test of sql/", map { "not in REGRESS: $_" } @left);
	my ($surface) = $mk =~ /^SURFACE\s*=\s*(.*)$/m;
	$surface //= '';
	$surface =~ s{\$\(addprefix\s+surface/,\s*(.*?)\)\s*$}{join ' ', map { "surface/$_" } split ' ', $1}e;
	my %in_surface;
	$in_surface{$_}++ for split ' ', $surface;
	my %sfiles = map { $_ => 1 } glob('surface/*.sql');
	my @off = ((map { "not in SURFACE: $_" } grep { !$in_surface{$_} } sort keys %sfiles),
			   (map { "in SURFACE without a file: $_" } grep { !$sfiles{$_} } sort keys %in_surface),
			   (map { "twice in SURFACE: $_" } grep { $in_surface{$_} > 1 } sort keys %in_surface));
	check(!@off, "the Makefile's SURFACE names every file of surface/ once", @off);
}

# Files and entry functions of a size one can read: the lines of a file
# as wc -l counts them; a function from its opening brace at the start
# of a line to its closing one (PostgreSQL style).
my $max_file = 1000;
my $max_entry_fn = 60;
my @c_files = ('scanbench.c', @engine, @entry);
if (opendir(my $bin, 'bin'))
{
	my @dirs = map { "bin/$_" } grep { !/^\./ && -d "bin/$_" } readdir($bin);
	closedir($bin);
	push @c_files, sort map { glob("$_/*.c") } sort @dirs;
}
my @long_files;
for my $f (@c_files)
{
	my $n = () = slurp($f) =~ /\n/g;
	push @long_files, "$f has $n lines" if $n > $max_file;
}
check(!@long_files, "no C file of src/ or bin/ over $max_file lines", @long_files);

my @long_fns;
for my $f (@entry)
{
	my ($name, $start);
	my @lines = split /\n/, slurp($f);
	for my $i (0 .. $#lines)
	{
		$name = $1 if $lines[$i] =~ /^([A-Za-z_]\w*)\(/;
		# a body's brace follows its signature's closing parenthesis; an
		# initializer's follows "="
		$start = $i if $lines[$i] =~ /^\{/ && defined $name && $i > 0
		  && $lines[$i - 1] =~ /\)\s*$/;
		if ($lines[$i] =~ /^\}/ && defined $start)
		{
			my $n = $i - $start + 1;
			push @long_fns, "$f: $name() is $n lines" if $n > $max_entry_fn;
			undef $start;
			undef $name;
		}
	}
}
check(!@long_fns, "no function in src/entry/ over $max_entry_fn lines", @long_fns);

# A step is released (kept in released/) or made from its manifest
# (surface/upgrade/), never both: make install would put both in one
# place.
my @both = grep { -e "released/scanbench--$_.sql" } map { m{^surface/upgrade/(.*)\.sql$}; $1 } sort glob('surface/upgrade/*--*.sql');
check(!@both, 'no step is both released and made from a manifest',
	  map { "released/scanbench--$_.sql and surface/upgrade/$_.sql: a released step is frozen, delete its manifest" } @both);

# scanbench.c: the magic block only.
my ($pub, $st) = definitions($code{'scanbench.c'});
my @fns = (keys %$pub, keys %$st);
check($code{'scanbench.c'} =~ /PG_MODULE_MAGIC/ && !@fns,
	  'scanbench.c holds the magic block and no function', map { "defines $_()" } @fns);

# The client programs, bin/*/, each a libpq program of its own files and
# bin/common/'s.  One header a module, as in src/; and no circle between
# a program's files: file A stands on file B when A calls a function B
# defines, and no file may stand, through others, on itself.
# bin/fuzz/ is no program: its fuzz tests are each built from the parser's
# own files in a program's directory, each defines the same entry point
# (LLVMFuzzerTestOneInput), and none has a header; read as a program of
# its own, its files would stand for none that is built.
my @clients = grep { -d $_ && $_ ne 'bin/common' && $_ ne 'bin/fuzz' } sort glob('bin/*');
check_header($_) for map { sort glob("$_/*.h") } ('bin/common', @clients);

for my $dir (@clients)
{
	my @files = (sort(glob("$dir/*.c")), sort(glob('bin/common/*.c')));
	my %fcode = map { $_ => code_of(slurp($_)) } @files;
	my (%owner, %calls);
	for my $f (@files)
	{
		my ($public) = definitions($fcode{$f});
		$owner{$_} = $f for keys %$public;
	}
	for my $f (@files)
	{
		for my $fn (sort keys %owner)
		{
			next if $owner{$fn} eq $f;
			push @{$calls{$f}{$owner{$fn}}}, $fn if $fcode{$f} =~ /\b\Q$fn\E\s*\(/;
		}
	}

	# The circles: each file, the shortest way from it back to itself.
	my (@circles, %seen);
	for my $start (@files)
	{
		my %from = ($start => undef);
		my @queue = ($start);
		my $back;
		while (defined(my $f = shift @queue))
		{
			for my $g (sort keys %{$calls{$f} // {}})
			{
				if ($g eq $start) { $back = $f; last; }
				next if exists $from{$g};
				$from{$g} = $f;
				push @queue, $g;
			}
			last if defined $back;
		}
		next unless defined $back;
		my @path = ($start);
		for (my $f = $back; $f ne $start; $f = $from{$f}) { splice(@path, 1, 0, $f); }
		my $key = join(' ', sort @path);
		next if $seen{$key}++;
		my @steps;
		for my $i (0 .. $#path)
		{
			my ($a, $b) = ($path[$i], $path[($i + 1) % @path]);
			push @steps, "$a calls " . join(', ', map { "$_()" } @{$calls{$a}{$b}}) . " of $b";
		}
		push @circles, 'circle: ' . join(' -> ', @path, $start), map { "  $_" } @steps;
	}
	check(!@circles, "no circle between the files of $dir", @circles);
}

# Nothing built is kept in the tree: a program or object committed by
# mistake would ship in make dist's zip.  Only in a git checkout (the
# test runs' copies are plain directories), where git runs: a package
# root sees the checkout but has no git, and its major's run of this
# check is the same as the host's.
my @tracked;
if (-e '.git')
{
	@tracked = split /\0/, `git ls-files -z 2>/dev/null`;
	print '# not checked against git: ', ($? >> 8 == 127 ? 'git is not installed here' : 'git ls-files exited with ' . ($? >> 8)), "\n" if $?;
}
if (@tracked)
{
	my @built;
	for my $f (@tracked)
	{
		next unless -f $f;
		open(my $fh, '<:raw', $f) or next;
		my $magic = '';
		read($fh, $magic, 4);
		push @built, $f if $magic eq "\x7fELF" || $f =~ /\.(o|so|bc|a)$/;
	}
	check(!@built, 'no built file (object, library, program) is in git', @built);

	# The scripts make writes from surface/: kept in git, one would be
	# read instead of the surface, go stale and be edited by hand.
	my ($version) = (-f 'scanbench.control' ? slurp('scanbench.control') : '') =~ /^default_version\s*=\s*'([^']+)'/m;
	my @made = ((defined $version ? ("scanbench--$version.sql") : ()),
				map { s{^surface/upgrade/(.*)\.sql$}{scanbench--$1.sql}r } glob('surface/upgrade/*--*.sql'));
	my %tracked = map { $_ => 1 } @tracked;
	my @kept = grep { $tracked{$_} } @made;
	check(!@kept, 'no script make writes from surface/ is in git', map { "$_ is made by make: git rm --cached it" } @kept);
}

print "$pass passed, $fail failed\n";
exit($fail ? 1 : 0);
PERL
