#!/usr/bin/perl
# Assembles the install scripts from the SQL surface (run by the Makefile;
# doc/development.md, "Changing the SQL surface").
#
#   assemble.pl install VERSION FILE...     the current version's install
#       script: the surface files in the order given, @VERSION@ replaced
#   assemble.pl step MANIFEST FILE...       an unreleased upgrade step: the
#       manifest's own statements, with its directives replaced by the
#       surface's text
#
# A manifest (surface/upgrade/A--B.sql) holds what only an upgrade needs
# (ALTER, DROP, moving rows) and names the rest, one directive a line:
#
#   -- @include NAME     the surface file NAME.sql, or the block NAME
#   -- @replace NAME     the same, CREATE FUNCTION, PROCEDURE and VIEW made
#                        CREATE OR REPLACE (for an object the older version has)
#   -- @comment WHAT     the surface's one COMMENT ON WHAT statement, WHAT
#                        being its start ("COLUMN scan_history.verdict",
#                        "FUNCTION scan_advice(")
#
# A block is the lines of a surface file between "-- @begin NAME" and
# "-- @end NAME"; those two lines are left out of every script.  Each object
# is written once, in the surface: a step names it, never copies it.
#
# A column that means the same in two objects is described once: in the
# surface, a line
#
#   -- @comments TARGET FROM SOURCE: COLUMN...
#
# stands for a COMMENT ON COLUMN TARGET.COLUMN with the text of SOURCE's
# same column, which the surface writes out (on one line).
#
# A line "-- @index N | ... |" is a row of the README's function index,
# which tools/docs-check.pl makes from them in the order of N; it is left
# out of every script.
#
# Plain Perl without modules: it runs wherever the extension is built.
use strict;
use warnings;

sub fail { print STDERR "assemble.pl: @_\n"; exit 1; }

my $mode = shift @ARGV // '';
my $arg = shift @ARGV;
fail("usage: assemble.pl install VERSION FILE... | step MANIFEST FILE...")
  unless ($mode eq 'install' || $mode eq 'step') && defined $arg && @ARGV;

my $marker = qr/^-- \@(begin|end) (\S+)\s*$/;
my $columns = qr/^-- \@comments (\w+) FROM (\w+):((?:\s+\w+)+)\s*$/;
my (%file, %block, @order, %raw, %column_text);
for my $path (@ARGV)
{
	open(my $fh, '<', $path) or fail("$path: $!");
	$raw{$path} = [<$fh>];
	close $fh;
	for (@{ $raw{$path} })
	{
		$column_text{"$1.$2"} = $3 if /^COMMENT ON COLUMN (?:\@extschema\@\.)?(\w+)\.(\w+) IS ('.*';)\s*$/;
	}
}
for my $path (@ARGV)
{
	my @lines;
	for my $l (@{ $raw{$path} })
	{
		# A row of the README's function index (tools/docs-check.pl).
		next if $l =~ /^-- \@index /;
		if ($l =~ /^-- \@comments/)
		{
			my ($target, $source, $cols) = $l =~ $columns or fail("$path: not -- \@comments TARGET FROM SOURCE: COLUMN...: $l");
			for my $c (split ' ', $cols)
			{
				my $text = $column_text{"$source.$c"} // fail("$path: no one-line COMMENT ON COLUMN $source.$c to take");
				push @lines, "COMMENT ON COLUMN $target.$c IS $text\n";
			}
		}
		else
		{
			push @lines, $l;
		}
	}
	my $name = $path =~ s{.*/}{}r =~ s{\.sql$}{}r;
	fail("$path: a second surface file named $name") if $file{$name};
	$file{$name} = [grep { !/$marker/ } @lines];
	push @order, $name;
	my $open;
	for my $i (0 .. $#lines)
	{
		next unless $lines[$i] =~ $marker;
		my ($kind, $b) = ($1, $2);
		if ($kind eq 'begin')
		{
			fail("$path:" . ($i + 1) . ": block $b begins inside block $open") if defined $open;
			fail("$path:" . ($i + 1) . ": a second block named $b") if $block{$b} || $file{$b};
			$open = $b;
			$block{$b} = [];
		}
		else
		{
			fail("$path:" . ($i + 1) . ": \@end $b without its \@begin") unless defined $open && $open eq $b;
			undef $open;
		}
	}
	fail("$path: block $open has no \@end") if defined $open;
	fill_blocks(\@lines, \%block);
}
for my $b (keys %block) { fail("block $b is also a file's name") if $file{$b}; }

# Each block's lines, the markers left out.
sub fill_blocks
{
	my ($lines, $blocks) = @_;
	my $open;
	for my $l (@$lines)
	{
		if ($l =~ $marker) { $open = $1 eq 'begin' ? $2 : undef; next; }
		push @{ $blocks->{$open} }, $l if defined $open;
	}
}

if ($mode eq 'install')
{
	print map { s/\@VERSION\@/$arg/gr } @{ $file{$_} } for @order;
	exit 0;
}

# Every COMMENT ON statement of the surface, by its text after COMMENT ON.
my @comments;
for my $name (@order)
{
	my $lines = $file{$name};
	for (my $i = 0; $i <= $#$lines; $i++)
	{
		next unless $lines->[$i] =~ /^COMMENT ON (.*)/s;
		my ($what, $stmt, $quotes) = ($1, '', 0);
		for (; $i <= $#$lines; $i++)
		{
			$stmt .= $lines->[$i];
			$quotes += () = $lines->[$i] =~ /'/g;
			last if $quotes % 2 == 0 && $lines->[$i] =~ /;\s*$/;
		}
		push @comments, [$what, $stmt];
	}
}

open(my $fh, '<', $arg) or fail("$arg: $!");
my $n = 0;
while (my $line = <$fh>)
{
	$n++;
	if ($line =~ /^-- \@(include|replace) (\S+)\s*$/)
	{
		my ($how, $name) = ($1, $2);
		my $text = $file{$name} // $block{$name} // fail("$arg:$n: no surface file or block named $name");
		my @out = @$text;
		if ($how eq 'replace')
		{
			my $made = grep { s/^CREATE (FUNCTION|PROCEDURE|VIEW) /CREATE OR REPLACE $1 /; } @out;
			fail("$arg:$n: $name makes no function, procedure or view to replace") unless $made;
		}
		print @out;
	}
	elsif ($line =~ /^-- \@comment (.+?)\s*$/)
	{
		my $what = $1;
		my @hit = grep { substr($_->[0], 0, length $what) eq $what
						   && ($what =~ /\($/ || substr($_->[0], length $what) =~ /^[\s(]/) } @comments;
		fail("$arg:$n: " . scalar(@hit) . " COMMENT ON $what in the surface, not one") unless @hit == 1;
		print $hit[0][1];
	}
	elsif ($line =~ /^-- \@/)
	{
		fail("$arg:$n: unknown directive: $line");
	}
	else
	{
		print $line;
	}
}
close $fh;
