# Small trees of files for the tests of the tree checks (t/083_docs.pl,
# t/084_layout.pl): each check is shown passing on a tree that keeps its
# rules, then failing on trees that break one rule each.
package SbTree;

use strict;
use warnings;
use Exporter 'import';
use File::Basename qw(dirname);
use File::Path qw(make_path);
use File::Temp qw(tempdir);

our @EXPORT = qw(write_tree);

# write_tree(%files): a new temporary directory, removed when the test
# ends, holding each file named (a path relative to it) with its text; a
# file whose text is undef is left out, so that a caller can take one
# away from its passing tree.
sub write_tree
{
	my (%files) = @_;
	my $dir = tempdir(CLEANUP => 1);
	for my $f (sort keys %files)
	{
		next unless defined $files{$f};
		my $path = "$dir/$f";
		make_path(dirname($path));
		open(my $fh, '>', $path) or die "could not write $path: $!";
		print $fh $files{$f};
		close($fh) or die "could not write $path: $!";
	}
	return $dir;
}

1;
