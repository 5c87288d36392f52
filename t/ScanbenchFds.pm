# Counting a backend's open descriptors, for the tests that check that a
# cancelled or timed-out call leaves none behind.
package ScanbenchFds;

use strict;
use warnings;
use Exporter 'import';

our @EXPORT = qw(open_fds fd_session);

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

# A session of $node to count the descriptors of: (session, its backend's
# pid).  query_safe dies on any message psql prints, so only errors are
# sent: the notices and warnings of a measuring call (its verdict, time
# that ran out on a busy machine) are not what these tests check, and the
# cancels and timeouts they check still show.
sub fd_session
{
	my ($node) = @_;
	my $session = $node->background_psql('postgres', on_error_stop => 0);
	$session->query_safe('SET client_min_messages = error');
	my $pid = $session->query_safe('SELECT pg_backend_pid()');
	$pid =~ s/\D//g;
	return ($session, $pid);
}

1;
