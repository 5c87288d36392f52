# Counting a backend's open descriptors, for the tests that check that a
# cancelled or timed-out call leaves none behind.
package ScanbenchFds;

use strict;
use warnings;
use Exporter 'import';

our @EXPORT = qw(open_fds);

# How many of process $pid's descriptors point at a path matching $re;
# -1 when /proc cannot be read.
sub open_fds
{
	my ($pid, $re) = @_;
	opendir(my $dh, "/proc/$pid/fd") or return -1;
	my @targets = map { readlink("/proc/$pid/fd/$_") // '' } grep { !/^\./ } readdir($dh);
	closedir($dh);
	return scalar(grep { $_ =~ $re } @targets);
}

1;
