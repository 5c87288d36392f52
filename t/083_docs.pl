# tools/docs-check.pl: the tree's README and doc/ pass it, and each thing it
# guards makes it fail: a README over 20,000 bytes, a relative link to a
# file or a heading that does not exist, a page of doc/ the README does not
# link.  No server needed.
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);
use File::Path qw(make_path);

my $check = 'tools/docs-check.pl';

sub run_check
{
	my $top = shift;
	my $out = `perl $check $top 2>&1`;
	return ($? >> 8, $out);
}

sub put
{
	my ($file, $text) = @_;
	open(my $fh, '>', $file) or die "$file: $!";
	print $fh $text;
	close $fh;
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
	my $dir = tempdir(CLEANUP => 1);
	make_path("$dir/doc");
	for my $f (keys %files)
	{
		put("$dir/$f", $files{$f}) if defined $files{$f};
	}
	return $dir;
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

done_testing();
