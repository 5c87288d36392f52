# make install puts exactly the expected files in place, the loader
# included, and make uninstall takes every one of them away again: staged
# under DESTDIR, as a packager does, so the server's directories are not
# touched.  No server needed.
use strict;
use warnings;
use PostgreSQL::Test::Utils;
use Test::More;
use File::Find;
use File::Spec;
use IPC::Run;

# pg_config on PATH is the server's under test (make prove_installcheck
# and tools/test.sh put its bindir first).
sub pg_config
{
	my ($out, $err) = ('', '');
	IPC::Run::run([ 'pg_config', @_ ], '>', \$out, '2>', \$err) or die "pg_config @_: $err";
	chomp $out;
	return $out;
}

sub make
{
	my ($out, $err) = ('', '');
	IPC::Run::run([ 'make', '-s', 'PG_CONFIG=pg_config', @_ ], '>', \$out, '2>', \$err);
	return ($? >> 8, "$out$err");
}

sub files_under
{
	my $root = shift;
	my @f;
	find({ wanted => sub { push @f, substr($File::Find::name, length $root) if -f || -l },
		   no_chdir => 1 }, $root) if -d $root;
	return sort @f;
}

# Absolute: the loader is installed by a make run in its own directory.
my $stage = File::Spec->rel2abs(PostgreSQL::Test::Utils::tempdir);
my ($bindir, $pkglibdir, $sharedir) = map { pg_config($_) } qw(--bindir --pkglibdir --sharedir);

# What the tree says should be installed: the library, the control file,
# every install and upgrade script (this version's among them), the
# loader, the fleet client, the probe and its storage profiles, and the library's bitcode
# where the server was built with LLVM.
open(my $fh, '<', 'scanbench.control') or die $!;
my ($version) = join('', <$fh>) =~ /^default_version\s*=\s*'([^']+)'/m;
close $fh;
# The scripts: the released ones (released/), and those make writes (the
# current version's from surface/, each unreleased step from its
# manifest), whether or not made yet.
my %sql = map { s{.*/}{}r => 1 } glob('released/scanbench--*.sql');
$sql{"scanbench--$version.sql"} = 1;
$sql{ s{.*/(.*)\.sql$}{scanbench--$1.sql}r } = 1 for glob('surface/upgrade/*--*.sql');
my @sql = sort keys %sql;
my @want = ("$pkglibdir/scanbench.so", "$sharedir/extension/scanbench.control",
	(map { "$sharedir/extension/$_" } @sql), "$bindir/scanbench-load", "$bindir/scanbench-fleet",
	"$bindir/scanbench-probe", "$sharedir/scanbench/scanbench_storage_profiles.conf");

my $global = pg_config('--pgxs') =~ s{src/makefiles/pgxs\.mk$}{src/Makefile.global}r;
open($fh, '<', $global) or die "$global: $!";
my $llvm = grep { /^with_llvm\s*=\s*yes/ } <$fh>;
close $fh;
if ($llvm)
{
	push @want, "$pkglibdir/bitcode/scanbench.index.bc",
	  map { "$pkglibdir/bitcode/scanbench/" . s/\.c$/.bc/r } ('scanbench.c', glob('src/*.c'), glob('src/entry/*.c'));
}
@want = sort @want;

my ($rc, $out) = make('install', "DESTDIR=$stage");
is($rc, 0, 'make install DESTDIR=... succeeds') or diag($out);
my @got = files_under($stage);
is(join("\n", @got), join("\n", @want),
	'the installed files are the library, control file, scripts, loader, fleet client, probe, profiles'
	  . ($llvm ? ' and bitcode' : ''));
ok(-x "$stage$bindir/scanbench-load", 'the loader is installed executable');
ok(-x "$stage$bindir/scanbench-fleet", 'the fleet client is installed executable');
ok(-x "$stage$bindir/scanbench-probe", 'the probe is installed executable');

($rc, $out) = make('uninstall', "DESTDIR=$stage");
is($rc, 0, 'make uninstall DESTDIR=... succeeds') or diag($out);
@got = files_under($stage);
is(join("\n", @got), '', 'make uninstall leaves no file behind');

done_testing();
