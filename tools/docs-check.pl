#!/usr/bin/env perl
# The README and the pages of doc/ as a reader meets them, without a server:
#
#   tools/docs-check.pl [--write] [TOP]   (TOP: the tree, default this
#                                          script's ..)
#
# Fails when README.md is over 12,000 bytes (the README a DBA reads in ten
# minutes; the rest lives a link away), when a relative link in README.md or
# doc/*.md names a file that does not exist or a #heading the file does not
# have, and when a page of doc/ is not linked from README.md (a page nobody
# can reach from the front is a page nobody reads), and when a page names
# in backquotes a column the SQL surface does not have (see below).
#
# The README's function index, between the lines "<!-- index -->" and
# "<!-- /index -->", is made from the SQL surface: each row is a line
#
#   -- @index N | `function(args)`, ... | what it answers |
#
# beside the function in surface/*.sql, in the order of N (the install
# scripts leave these lines out).  The check fails when the README's rows
# are not those, or a row names in its first column a function, procedure,
# table or view the surface does not make; --write puts the rows in.
#
# Prints an ok/not ok line per check and ends with "N passed, N failed".
use strict;
use warnings;
use File::Basename qw(dirname);
use File::Spec;
use Cwd qw(abs_path);

my $write = @ARGV && $ARGV[0] eq '--write' ? shift @ARGV : undef;
my $top = abs_path($ARGV[0] // dirname(abs_path($0)) . '/..');
my $max_readme = 12000;
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

# Headings and links outside fenced code blocks, with their line numbers.
sub parse
{
	my $text = shift;
	my (@headings, @links);
	my $fence;
	my $n = 0;
	for my $line (split /\n/, $text)
	{
		$n++;
		if ($line =~ /^(```|~~~)/)
		{
			$fence = defined $fence ? undef : 1;
			next;
		}
		next if defined $fence;
		push @headings, $1 if $line =~ /^#{1,6}\s+(.*?)\s*#*\s*$/;
		(my $plain = $line) =~ s/`[^`]*`//g;    # no links inside inline code
		while ($plain =~ /\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)
		{
			push @links, [$1, $n];
		}
	}
	return (\@headings, \@links);
}

# The anchors GitHub gives a page's headings: lower case, punctuation
# dropped, spaces to hyphens, -1, -2, ... for repeats.
sub anchors
{
	my %seen;
	my %a;
	for my $h (@_)
	{
		my $s = lc $h;
		$s =~ s/`//g;
		$s =~ s/\[([^\]]*)\]\([^)]*\)/$1/g;
		$s =~ s/[^\w\- ]//g;
		$s =~ s/ /-/g;
		my $k = $seen{$s}++ ? "$s-" . ($seen{$s} - 1) : $s;
		$a{$k} = 1;
	}
	return \%a;
}

my $readme = "$top/README.md";

# The function index: rows from the surface, in the README.
{
	my (@rows, %made, @bad);
	for my $f (sort glob("$top/surface/*.sql"))
	{
		my $n = 0;
		for my $line (split /\n/, slurp($f) // '')
		{
			$n++;
			$made{ lc $1 } = 1 if $line =~ /^CREATE (?:OR REPLACE )?(?:FUNCTION|PROCEDURE|TABLE|VIEW) (?:\@extschema\@\.)?(\w+)/;
			next unless $line =~ /^-- \@index /;
			my ($ord, $row) = $line =~ /^-- \@index (\d+) (\|.*\|)\s*$/;
			my $where = File::Spec->abs2rel($f, $top) . ":$n";
			if (!defined $ord)
			{
				push @bad, "$where: not -- \@index N | ... |";
				next;
			}
			push @rows, [ $ord, $row, $where ];
		}
	}
	my %ords;
	push @bad, map { "$_->[2]: a second row numbered $_->[0]" } grep { $ords{ $_->[0] }++ } @rows;
	for my $r (@rows)
	{
		my ($first) = $r->[1] =~ /^\|([^|]*)\|/;
		for my $name ($first =~ /`(\w+)/g)
		{
			push @bad, "$r->[2]: $name is no function, procedure, table or view of the surface"
			  unless $made{ lc $name };
		}
	}
	my $table = join('', "| function | what it answers |\n|---|---|\n",
		map { "$_->[1]\n" } sort { $a->[0] <=> $b->[0] } @rows);
	my $text = slurp($readme) // '';
	my ($before, $now, $after) = $text =~ /\A(.*^<!-- index -->\n)(.*?)(^<!-- \/index -->.*)\z/ms;
	if (!defined $now)
	{
		check(0, 'README.md has the function index', 'put the lines <!-- index --> and <!-- /index --> where it goes')
		  if @rows;
	}
	elsif ($write && $now ne $table && !@bad)
	{
		open(my $fh, '>:encoding(UTF-8)', $readme) or die "$readme: $!";
		print $fh $before, $table, $after;
		close $fh or die "$readme: $!";
		print "# README.md: the function index written from surface/\n";
	}
	else
	{
		check(!@bad, 'every row of the function index in surface/ names what the surface makes', @bad);
		check($now eq $table, 'README.md\'s function index is the one surface/ makes',
			'tools/docs-check.pl --write puts it in');
	}
}

my @pages = ($readme, sort glob("$top/doc/*.md"));
my %parsed;
for my $p (@pages)
{
	my $text = slurp($p);
	check(defined $text, "readable: " . File::Spec->abs2rel($p, $top), "$!")
		or next;
	$parsed{$p} = [parse($text)];
}

my $size = -s $readme // 0;
check($size > 0 && $size <= $max_readme, "README.md is $size bytes, at most $max_readme",
	  "move detail to a page of doc/ and link it");

for my $p (@pages)
{
	next unless $parsed{$p};
	my $rel = File::Spec->abs2rel($p, $top);
	my @bad;
	for my $l (@{ $parsed{$p}[1] })
	{
		my ($target, $line) = @$l;
		next if $target =~ m{^[a-z][a-z0-9+.-]*:}i;    # http:, https:, mailto:
		my ($path, $frag) = $target =~ /^([^#]*)(?:#(.*))?$/;
		my $file = $path eq '' ? $p : File::Spec->rel2abs($path, dirname($p));
		if (!-e $file)
		{
			push @bad, "line $line: $target: no file $path";
			next;
		}
		next unless defined $frag && $file =~ /\.md$/;
		$parsed{$file} //= [parse(slurp($file) // '')];
		push @bad, "line $line: $target: no heading #$frag in $path"
			unless anchors(@{ $parsed{$file}[0] })->{$frag};
	}
	check(!@bad, "$rel: every relative link names a file and heading that exist", @bad);
}

my %linked;
if ($parsed{$readme})
{
	for my $l (@{ $parsed{$readme}[1] })
	{
		my ($path) = $l->[0] =~ /^([^#]*)/;
		$linked{ File::Spec->rel2abs($path, $top) } = 1 if $path ne '';
	}
}
for my $p (@pages[1 .. $#pages])
{
	my $rel = File::Spec->abs2rel($p, $top);
	check($linked{$p}, "$rel is linked from README.md", "add it to the README's list of pages");
}

# Column names in backquotes.  A word shaped like the SQL surface's column
# vocabulary (a time *_s, a rate *_mb_s, a share *_pct) must be a name the
# SQL surface (surface/*.sql, of which make writes the current install
# script) uses outside its comments and strings, or a field a
# client program names in a string (scanbench-fleet's report columns), so a
# page cannot keep naming a column after it is renamed.
my $control = slurp("$top/scanbench.control");
my ($version) = defined $control ? $control =~ /^default_version\s*=\s*'([^']+)'/m : ();
if (defined $version)
{
	my $sql = join('', map { slurp($_) // '' } glob("$top/surface/*.sql"));
	# Strings and comments in one pass, each read from where it starts: a
	# string may hold "--" and a comment a quote.
	$sql =~ s/'(?:[^']|'')*'|--[^\n]*//g;
	my %names = map { $_ => 1 } $sql =~ /\b([a-z_][a-z0-9_]*)\b/g;
	for my $c (glob("$top/bin/*/*.c"))
	{
		my $code = slurp($c) // '';
		$names{$_} = 1 for $code =~ /"([a-z_][a-z0-9_]*)"/g;
	}
	for my $p (@pages)
	{
		my $text = slurp($p) // '';
		my $rel = File::Spec->abs2rel($p, $top);
		my (@bad, %seen);
		my $n = 0;
		for my $line (split /\n/, $text)
		{
			$n++;
			while ($line =~ /`([a-z][a-z0-9]*(?:_[a-z0-9]+)*_(?:s|pct))`/g)
			{
				push @bad, "line $n: `$1` is no column, argument or field"
				  unless $names{$1} || $seen{$1}++;
			}
		}
		check(!@bad, "$rel: every column it names in backquotes exists in surface/", @bad);
	}
}

print "$pass passed, $fail failed\n";
exit($fail ? 1 : 0);
