# tools/check-layout.sh: this tree passes it, and each rule it guards makes
# it fail on a small tree that breaks it: a header in src/entry/, a file
# including a header from there, an entry file defining a function that is
# not SQL-callable, an entry file calling another's function, the engine
# calling an entry file, a header declaring a function its .c does not
# define, the engine seeing fcinfo or declaring an SQL entrance, a C file
# or a test the Makefile does not list, a C file of src/ or bin/ over
# 1,000 lines, a function of src/entry/ over 60; and, in the client
# programs of bin/, a header declaring another file's function and a
# circle of calls between a program's files.  No server needed.
use strict;
use warnings;
use Test::More;
use FindBin;
use lib $FindBin::RealBin;
use SbTree;
use File::Path qw(make_path);
use File::Copy qw(copy);

my $check = 'tools/check-layout.sh';

sub run_check
{
	my $script = shift;
	my $out = `bash $script 2>&1`;
	return ($? >> 8, $out);
}

my ($rc, $out) = run_check($check);
is($rc, 0, 'the C files of this tree pass') or diag($out);
like($out, qr/^\d+ passed, 0 failed$/m, 'it ends with the count');

# A small tree that passes: an engine module, two entry files, the magic
# block; then one fault at a time.
sub tree
{
	my %files = (
		'scanbench.c' => "#include \"postgres.h\"\n#include \"fmgr.h\"\n\nPG_MODULE_MAGIC;\n",
		'src/clock.h' => "#ifndef CLOCK_H\n#define CLOCK_H\nextern double sb_now(void);\n#endif\n",
		'src/clock.c' => "#include \"clock.h\"\n\n/* the time */\ndouble\nsb_now(void)\n{\n\treturn 0;\n}\n",
		'src/entry/a.c' => "#include \"clock.h\"\n\nstatic int\nhelper(void)\n{\n\treturn 1;\n}\n\nPG_FUNCTION_INFO_V1(fa);\n\nDatum\nfa(PG_FUNCTION_ARGS)\n{\n\treturn helper() + sb_now();\n}\n",
		'src/entry/b.c' => "#include \"clock.h\"\n\nPG_FUNCTION_INFO_V1(fb);\n\nDatum\nfb(PG_FUNCTION_ARGS)\n{\n\treturn sb_now();\n}\n",
		@_);
	my $dir = write_tree(%files);
	make_path("$dir/tools");
	copy($check, "$dir/tools/check-layout.sh") or die "copy: $!";
	return "$dir/tools/check-layout.sh";
}

($rc, $out) = run_check(tree());
is($rc, 0, 'a small tree that keeps the rules passes') or diag($out);

($rc, $out) = run_check(tree('src/entry/a.h' => "extern Datum fa(PG_FUNCTION_ARGS);\n"));
isnt($rc, 0, 'a header in src/entry/ fails');
like($out, qr/^not ok - src\/entry\/ holds no header$/m, '... naming the rule');

($rc, $out) = run_check(tree('src/entry/b.c' => "#include \"entry/a.h\"\n\nPG_FUNCTION_INFO_V1(fb);\n\nDatum\nfb(PG_FUNCTION_ARGS)\n{\n\treturn 0;\n}\n"));
isnt($rc, 0, 'an entry file including an entry header fails');
like($out, qr/^#   src\/entry\/b\.c includes "entry\/a\.h"$/m, '... naming the file and the header');

($rc, $out) = run_check(tree('src/entry/b.c' => "PG_FUNCTION_INFO_V1(fb);\n\nint\nshared_helper(void)\n{\n\treturn 0;\n}\n\nDatum\nfb(PG_FUNCTION_ARGS)\n{\n\treturn 0;\n}\n"));
isnt($rc, 0, 'an entry file exporting a function that is not SQL-callable fails');
like($out, qr/^#   src\/entry\/b\.c defines shared_helper\(\), not an SQL function$/m, '... naming it');

($rc, $out) = run_check(tree('src/entry/b.c' => "PG_FUNCTION_INFO_V1(fb);\n\nDatum\nfb(PG_FUNCTION_ARGS)\n{\n\treturn fa(fcinfo);\n}\n"));
isnt($rc, 0, 'an entry file calling another entry file fails');
like($out, qr/^#   src\/entry\/b\.c calls fa\(\) of src\/entry\/a\.c$/m, '... naming the call');

($rc, $out) = run_check(tree('src/clock.c' => "#include \"clock.h\"\n\ndouble\nsb_now(void)\n{\n\treturn fb(NULL);\n}\n"));
isnt($rc, 0, 'the engine calling an entry file fails');
like($out, qr/^#   src\/clock\.c calls fb\(\) of src\/entry\/b\.c$/m, '... naming the call');

($rc, $out) = run_check(tree('src/clock.h' => "extern double sb_now(void);\nextern double sb_elapsed(double t0);\n"));
isnt($rc, 0, "a header declaring another file's function fails");
like($out, qr/^#   declares sb_elapsed\(\), not defined in src\/clock\.c$/m, '... naming the function');

($rc, $out) = run_check(tree('src/clock.h' => "extern double sb_now(void);\ndouble\t\tsb_since(double t0);\n"));
isnt($rc, 0, 'a prototype without extern of a function its .c does not define fails');
like($out, qr/^#   declares sb_since\(\), not defined in src\/clock\.c$/m, '... naming the function');

($rc, $out) = run_check(tree('src/stray.h' => "extern int sb_stray(void);\n"));
isnt($rc, 0, 'a header without a .c of its own that declares a function fails');

($rc, $out) = run_check(tree('src/clock.c' => "#include \"clock.h\"\n\ndouble\nsb_now(void)\n{\n\treturn 0;\n}\n\nint\nsb_nargs(FunctionCallInfo fcinfo)\n{\n\treturn 0;\n}\n",
	'src/clock.h' => "extern double sb_now(void);\nextern int sb_nargs(FunctionCallInfo fcinfo);\n"));
isnt($rc, 0, 'the engine seeing fcinfo fails');
like($out, qr/^#   src\/clock\.c names fcinfo$/m, '... naming the file');
like($out, qr/^#   src\/clock\.h names FunctionCallInfo$/m, '... and its header');

($rc, $out) = run_check(tree('src/fnargs.c' => "#include \"fnargs.h\"\n\nint\nsb_nargs(FunctionCallInfo fcinfo)\n{\n\treturn 0;\n}\n",
	'src/fnargs.h' => "extern int sb_nargs(FunctionCallInfo fcinfo);\n"));
is($rc, 0, 'the decoder, src/fnargs.c, may see fcinfo') or diag($out);

($rc, $out) = run_check(tree('src/clock.c' => "#include \"clock.h\"\n\nPG_FUNCTION_INFO_V1(sb_clock_now);\n\ndouble\nsb_now(void)\n{\n\treturn 0;\n}\n"));
isnt($rc, 0, 'an SQL entrance in the engine fails');
like($out, qr/^#   src\/clock\.c declares sb_clock_now\(\)$/m, '... naming it');

($rc, $out) = run_check(tree('Makefile' => "OBJS = scanbench.o \\\n\tsrc/clock.o src/entry/a.o src/entry/b.o\nREGRESS = basic\n",
	'sql/basic.sql' => "SELECT 1;\n"));
is($rc, 0, 'a Makefile listing every C file and test passes') or diag($out);

($rc, $out) = run_check(tree('Makefile' => "OBJS = scanbench.o src/clock.o src/entry/a.o src/gone.o\nREGRESS = basic\n",
	'sql/basic.sql' => "SELECT 1;\n", 'sql/more.sql' => "SELECT 2;\n"));
isnt($rc, 0, 'a Makefile leaving out a C file or a test fails');
like($out, qr/^#   not in OBJS: src\/entry\/b\.o$/m, '... naming the C file left out');
like($out, qr/^#   in OBJS without a source: src\/gone\.o$/m, '... and the object with no source');
like($out, qr/^#   not in REGRESS: more$/m, '... and the test left out');

($rc, $out) = run_check(tree('Makefile' => "OBJS = scanbench.o src/clock.o src/entry/a.o src/entry/b.o\nREGRESS = basic\n"
	  . "SURFACE = \$(addprefix surface/,header.sql \\\n\tgone.sql header.sql)\n",
	'sql/basic.sql' => "SELECT 1;\n", 'surface/header.sql' => "-- the top\n", 'surface/reads.sql' => "SELECT 1;\n"));
isnt($rc, 0, 'a Makefile whose SURFACE leaves out a file of surface/ fails');
like($out, qr/^#   not in SURFACE: surface\/reads\.sql$/m, '... naming the file left out');
like($out, qr/^#   in SURFACE without a file: surface\/gone\.sql$/m, '... the name with no file');
like($out, qr/^#   twice in SURFACE: surface\/header\.sql$/m, '... and the file named twice');

($rc, $out) = run_check(tree('released/scanbench--1.0--1.1.sql' => "SELECT 1;\n",
	'surface/upgrade/1.0--1.1.sql' => "-- \@include reads\n"));
isnt($rc, 0, 'a step both released and made from a manifest fails');
like($out, qr/^#   released\/scanbench--1\.0--1\.1\.sql and surface\/upgrade\/1\.0--1\.1\.sql: /m, '... naming both');

($rc, $out) = run_check(tree('scanbench.c' => "PG_MODULE_MAGIC;\n\nvoid\n_PG_init(void)\n{\n}\n"));
isnt($rc, 0, 'a function in scanbench.c fails');

# A file of 1,001 lines, in the engine and in a client; an entry function
# of 61 lines from brace to brace, beside one of 60 and a long
# initializer.
my $long_c = "/* long */\n" . ("int\t\tx;\n" x 1000);
($rc, $out) = run_check(tree('src/long.c' => $long_c));
isnt($rc, 0, 'a C file of src/ over 1,000 lines fails');
like($out, qr/^not ok - no C file of src\/ or bin\/ over 1000 lines$/m, '... naming the rule');
like($out, qr/^#   src\/long\.c has 1001 lines$/m, '... and the file with its length');

($rc, $out) = run_check(tree('bin/prog/long.c' => $long_c));
isnt($rc, 0, 'a C file of bin/ over 1,000 lines fails');
like($out, qr/^#   bin\/prog\/long\.c has 1001 lines$/m, '... naming the file');

($rc, $out) = run_check(tree('src/entry/b.c' => "PG_FUNCTION_INFO_V1(fb);\n\nDatum\nfb(PG_FUNCTION_ARGS)\n{\n" . ("\tsb_now();\n" x 57) . "\treturn 0;\n}\n"));
is($rc, 0, 'an entry function of 60 lines passes') or diag($out);

# An initializer's braces at the start of a line are no function's.
($rc, $out) = run_check(tree('src/entry/b.c' => "PG_FUNCTION_INFO_V1(fb);\n\nstatic const int table[] =\n{\n" . ("\t1,\n" x 90) . "};\n\nDatum\nfb(PG_FUNCTION_ARGS)\n{\n\treturn table[0];\n}\n"));
is($rc, 0, 'a long initializer in an entry file is no long function') or diag($out);

($rc, $out) = run_check(tree('src/entry/b.c' => "PG_FUNCTION_INFO_V1(fb);\n\nDatum\nfb(PG_FUNCTION_ARGS)\n{\n" . ("\tsb_now();\n" x 58) . "\treturn 0;\n}\n"));
isnt($rc, 0, 'an entry function over 60 lines fails');
like($out, qr/^not ok - no function in src\/entry\/ over 60 lines$/m, '... naming the rule');
like($out, qr/^#   src\/entry\/b\.c: fb\(\) is 61 lines$/m, '... and the file, the function and its length');

# A client program: main.c stands on a.c, a.c on ../common/cli.c; a.h
# declares a.c's function, types.h types alone.
my %client = (
	'bin/common/cli.h' => "#ifndef CLI_H\n#define CLI_H\nextern void log_error(const char *msg);\n#endif\n",
	'bin/common/cli.c' => "#include \"cli.h\"\n\nvoid\nlog_error(const char *msg)\n{\n}\n",
	'bin/prog/types.h' => "#ifndef TYPES_H\n#define TYPES_H\ntypedef struct\n{\n\tint\t\tn;\n} Thing;\n#endif\n",
	'bin/prog/a.h' => "#ifndef A_H\n#define A_H\n#include \"types.h\"\nextern int a_count(Thing *t);\n#endif\n",
	'bin/prog/a.c' => "#include \"a.h\"\n#include \"cli.h\"\n\nint\na_count(Thing *t)\n{\n\tlog_error(\"counting\");\n\treturn t->n;\n}\n",
	'bin/prog/main.c' => "#include \"a.h\"\n\nint\nmain(void)\n{\n\tThing\t\tt = {0};\n\n\treturn a_count(&t);\n}\n");

($rc, $out) = run_check(tree(%client));
is($rc, 0, 'a client program that keeps the rules passes') or diag($out);
like($out, qr/^ok - no circle between the files of bin\/prog$/m, '... its files checked for a circle');
like($out, qr/^ok - bin\/prog\/types\.h declares no function \(no bin\/prog\/types\.c\)$/m,
	 '... and a header of types alone allowed');

($rc, $out) = run_check(tree(%client,
	'bin/prog/a.h' => "#include \"types.h\"\nextern int a_count(Thing *t);\nextern int main(void);\n"));
isnt($rc, 0, "a client's header declaring another file's function fails");
like($out, qr/^#   declares main\(\), not defined in bin\/prog\/a\.c$/m, '... naming the function');

($rc, $out) = run_check(tree(%client,
	'bin/prog/b.h' => "extern int b_twice(int n);\n",
	'bin/prog/b.c' => "#include \"a.h\"\n#include \"b.h\"\n\nint\nb_twice(int n)\n{\n\tThing\t\tt = {n};\n\n\treturn 2 * a_count(&t);\n}\n",
	'bin/prog/a.c' => "#include \"a.h\"\n#include \"b.h\"\n\nint\na_count(Thing *t)\n{\n\treturn t->n ? b_twice(t->n - 1) : 0;\n}\n"));
isnt($rc, 0, "a circle between a client's files fails");
like($out, qr/^not ok - no circle between the files of bin\/prog$/m, '... naming the program');
like($out, qr/^#   circle: bin\/prog\/a\.c -> bin\/prog\/b\.c -> bin\/prog\/a\.c$/m, '... and the circle\'s files');
like($out, qr/^#     bin\/prog\/b\.c calls a_count\(\) of bin\/prog\/a\.c$/m, '... and its calls');

done_testing();
