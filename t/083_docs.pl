# tools/docs-check.pl: the tree's README and doc/ pass it, and each thing it
# guards makes it fail: a README over 20,000 bytes, a relative link to a
# file or a heading that does not exist, a page of doc/ the README does not
# link, a column named in backquotes that the install script does not
# have.  No server needed.
use strict;
use warnings;
use Test::More;
use FindBin;
use lib $FindBin::RealBin;
use SbTree;

my $check = 'tools/docs-check.pl';

sub run_check
{
	my $top = shift;
	my $out = `perl $check $top 2>&1`;
	return ($? >> 8, $out);
}

my ($rc, $out) = run_check('.');
is($rc, 0, "README.md and doc/*.md of this tree pass") or diag($out);
like($out, qr/^\d+ passed, 0 failed$/m, 'it ends with the count');

# A small tree that passes, then one fault at a time.
sub tree
{
	my %files = (
		'README.md' => "# t\n\nSee [a](doc/a.md), [its part](doc/a.md#the-part-two) and [x](https://example.org/none).\n",
		'doc/a.md' => "# A\n\n## The part: two\n\nBack to [the README](../README.md#t).\n\n```sh\n# not a heading\n[not](a-link.md)\n```\n",
		@_);
	return write_tree(%files);
}

($rc, $out) = run_check(tree());
is($rc, 0, 'a tree whose links all resolve passes') or diag($out);

($rc, $out) = run_check(tree('README.md' => "# t\n\n[a](doc/a.md)\n" . ('x' x 20001) . "\n"));
isnt($rc, 0, 'a README over 20,000 bytes fails');
like($out, qr/^not ok - README\.md is \d+ bytes, at most 20000$/m, '... and says so');

($rc, $out) = run_check(tree('doc/a.md' => "# A\n\nSee [b](b.md).\n"));
isnt($rc, 0, 'a link to a missing file fails');
like($out, qr/^#   line 3: b\.md: no file b\.md$/m, '... naming the line and the file');

($rc, $out) = run_check(tree('doc/a.md' => "# A\n\n[back](../README.md#no-such-heading)\n"));
isnt($rc, 0, 'a link to a missing heading fails');
like($out, qr/no heading #no-such-heading in \.\.\/README\.md/, '... naming the heading');

($rc, $out) = run_check(tree('doc/b.md' => "# B\n"));
isnt($rc, 0, 'a page of doc/ the README does not link fails');
like($out, qr/^not ok - doc\/b\.md is linked from README\.md$/m, '... naming the page');

# With the install script of the control file's version, a column named in
# backquotes must be one of its names.
my %sql_tree = (
	'scanbench.control' => "default_version = '9.9'\n",
	'scanbench--9.9.sql' => "-- not a name: old_s\nCREATE TYPE r AS (read_s float8, scan_pct float8);\nCOMMENT ON TYPE r IS 'gone_s';\n");
($rc, $out) = run_check(tree(%sql_tree, 'doc/a.md' => "# A\n\n## The part: two\n\n`read_s` and `scan_pct` are columns.\n"));
is($rc, 0, 'columns the install script defines pass') or diag($out);

($rc, $out) = run_check(tree(%sql_tree, 'doc/a.md' => "# A\n\n## The part: two\n\n`read_s`, `old_s` and `gone_s`.\n"));
isnt($rc, 0, 'a column named only in a comment or a string of the script fails');
like($out, qr/^#   line 5: `old_s` is no column, argument or field$/m, '... naming the line and the column');
like($out, qr/^#   line 5: `gone_s` is no column/m, '... each of them');

done_testing();
