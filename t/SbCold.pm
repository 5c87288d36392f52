# A table out of both caches, as after a while of other work, and a row
# read as name => value, for the tests that time cold reads of a table
# they made (t/045, t/094).
package SbCold;

use strict;
use warnings;
use Exporter 'import';

our @EXPORT = qw(cold_table expanded_row);

# Restarts $node (shared_buffers emptied), then drops $rel's files from
# the page cache with dd's nocache, written back first: the page cache
# keeps dirty pages it is told to drop, and the shutdown checkpoint has
# just written the table.
sub cold_table
{
	my ($node, $rel) = @_;
	my $path = $node->safe_psql('postgres', "SELECT pg_relation_filepath('$rel')");
	$node->restart;
	system('sync') == 0 or die "sync: $?";
	for my $f (glob($node->data_dir . "/$path"), glob($node->data_dir . "/$path.*"))
	{
		system('dd', "if=$f", 'iflag=nocache', 'count=0', 'status=none') == 0
		  or die "dd $f: $?";
	}
}

# The one row of $sql as a hash of column => value (psql -x -A), and the
# NOTICEs and warnings it printed.
sub expanded_row
{
	my ($node, $sql) = @_;
	my ($ret, $out, $err) = $node->psql('postgres', $sql, extra_params => [ '-x', '-A' ]);
	die "$sql: $err" if $ret;
	my %r;
	for (split /\n/, $out)
	{
		my ($k, $v) = split /\|/, $_, 2;
		$r{$k} = $v if defined $k;
	}
	return (\%r, $err);
}

1;
