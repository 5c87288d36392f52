# scanbench_metrics() as node_exporter's textfile collector reads it, by a
# strict parser of the Prometheus text exposition format (0.0.4): HELP and
# TYPE lines and their escapes, metric and label names, label value
# escapes, one TYPE and one HELP per family, before its samples, samples of
# a family together, no sample twice, values as Go's ParseFloat reads them,
# a final line feed.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;

my $metric_name = qr/[a-zA-Z_:][a-zA-Z0-9_:]*/;
my $label_name = qr/[a-zA-Z_][a-zA-Z0-9_]*/;
my $float = qr/[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?|[-+]?Inf|NaN/;

# Parse the text; die with the line on the first error.  Returns
# { family => { type, help, samples => [ [ { labels }, value ] ] } }.
sub parse_exposition
{
	my ($text) = @_;
	die "empty output\n" if $text eq '';
	die "does not end with a line feed\n" unless $text =~ /\n\z/;
	my (%fam, %seen_sample, $current);
	my $lineno = 0;
	for my $line (split /\n/, $text)
	{
		$lineno++;
		my $where = "line $lineno: $line\n";
		next if $line eq '';
		if ($line =~ /^#/)
		{
			if ($line =~ /^# HELP (\S+) ?(.*)$/)
			{
				my ($name, $doc) = ($1, $2);
				die "bad metric name in HELP, $where" unless $name =~ /^$metric_name$/;
				die "second HELP for $name, $where" if defined $fam{$name}{help};
				die "bad escape in HELP, $where" if ($doc =~ s/\\[\\n]//gr) =~ /\\/;
				($fam{$name}{help} = $doc) =~ s/\\(.)/$1 eq 'n' ? "\n" : $1/ge;
				die "HELP after samples of $name, $where" if @{ $fam{$name}{samples} // [] };
			}
			elsif ($line =~ /^# TYPE (\S+) (\S+)$/)
			{
				my ($name, $type) = ($1, $2);
				die "bad metric name in TYPE, $where" unless $name =~ /^$metric_name$/;
				die "unknown type $type, $where"
				  unless $type =~ /^(counter|gauge|histogram|summary|untyped)$/;
				die "second TYPE for $name, $where" if defined $fam{$name}{type};
				die "TYPE after samples of $name, $where" if @{ $fam{$name}{samples} // [] };
				$fam{$name}{type} = $type;
			}
			elsif ($line =~ /^# (HELP|TYPE)\b/)
			{
				die "malformed $1 line, $where";
			}
			next;    # a comment
		}
		$line =~ /^($metric_name)(\{.*\})?[ \t]+($float)(?:[ \t]+(-?[0-9]+))?$/
		  or die "malformed sample, $where";
		my ($name, $labeltext, $value) = ($1, $2 // '', $3);
		my %labels;
		if ($labeltext ne '')
		{
			my $body = substr($labeltext, 1, -1);
			while ($body ne '')
			{
				$body =~ s/^($label_name)="((?:[^"\\\n]|\\[\\"n])*)"//
				  or die "malformed label at '$body', $where";
				my ($ln, $lv) = ($1, $2);
				die "reserved label name $ln, $where" if $ln =~ /^__/;
				die "label $ln twice, $where" if exists $labels{$ln};
				$lv =~ s/\\(.)/$1 eq 'n' ? "\n" : $1/ge;
				$labels{$ln} = $lv;
				last if $body eq '' || $body eq ',';
				$body =~ s/^,// or die "expected a comma at '$body', $where";
			}
		}
		# A sample belongs to the family of its name (gauges and untyped:
		# the name itself).
		die "sample of $name has no TYPE before it, $where" unless defined $fam{$name}{type};
		die "samples of $name are not together, $where"
		  if defined $current && $current ne $name && @{ $fam{$name}{samples} // [] };
		$current = $name;
		my $key = join "\0", $name, map { "$_=$labels{$_}" } sort keys %labels;
		die "duplicate sample, $where" if $seen_sample{$key}++;
		push @{ $fam{$name}{samples} }, [ \%labels, $value ];
	}
	return \%fam;
}

# The parser refuses what it must.
for my $bad ("x 1", "# TYPE x gauge\nx{a=\"b} 1\n", "# TYPE x gauge\nx 1\n# TYPE x gauge\n",
	"# TYPE x gauge\nx{a=\"\\q\"} 1\n", "# TYPE x gauge\nx one\n", "# TYPE x gauge\nx 1\nx 2\n",
	"# TYPE 1x gauge\n", "# TYPE x gauge\nx{__a=\"1\"} 1\n", "# TYPE x meter\n",
	"# TYPE x gauge\n# TYPE y gauge\nx 1\ny 1\nx{a=\"1\"} 2\n")
{
	ok(!eval { parse_exposition($bad); 1 }, "the parser refuses " . ($bad =~ s/\n/\\n/gr));
}
ok(eval { parse_exposition("# HELP x a \\\\ b\\n c\n# TYPE x gauge\nx{a=\"q\\\"\\\\\\n\",} 1e+09 1700000000000\n\n"); 1 },
	'and accepts escapes, a trailing comma, an exponent and a timestamp') or diag($@);

my $node = PostgreSQL::Test::Cluster->new('metrics');
$node->init;
$node->start;
sub sql { return $node->safe_psql('postgres', shift) }
sql(q{
	CREATE EXTENSION scanbench;
	CREATE TABLE t AS SELECT g AS id FROM generate_series(1, 50000) g;
	CREATE SCHEMA "odd ""schema""";
	CREATE SCHEMA a;
	CREATE SCHEMA "a.b";
});
# a."b.c" and "a.b".c: the same text joined with a dot, two relations.
sql(q{INSERT INTO scan_history (measured_at, relid, relschema, relname, cache, scan_pct, verdict)
	  VALUES (now(), 1, 'a', 'b.c', 'cold', 40, '{ok}'), (now(), 1, 'a.b', 'c', 'cold', 60, '{ok}')});
sql(q{CREATE TABLE "odd ""schema""".tt AS SELECT g AS id FROM generate_series(1, 20000) g});
sql(q{SELECT scan_history_record(r) FROM scan_efficiency('t', max_seconds => 5) r});
sql(q{SELECT scan_history_record(r) FROM scan_efficiency('t', 'warm', max_seconds => 5) r});
sql(q{SELECT scan_history_record(r) FROM scan_efficiency('"odd ""schema""".tt', max_seconds => 5) r});
# A name no real table here has, with every character the format escapes.
sql(q{INSERT INTO scan_history (measured_at, relid, relschema, relname, cache, scan_pct, verdict)
	  VALUES (now(), 1, 'public', E'we"ird\\\\name\nnew', 'cold', 50, '{unstable}')});

# As the README has it: psql -At into a .prom file.
my ($out, $err) = ('', '');
IPC::Run::run([ 'psql', '-X', '-At', '-d', $node->connstr('postgres'), '-c', 'SELECT scanbench_metrics()' ],
	'>', \$out, '2>', \$err);
is($err, '', 'psql printed no error');
my $fam = eval { parse_exposition($out) };
ok($fam, 'the output parses as the exposition format') or diag($@ . $out);
$fam //= {};

for my $name (qw(scanbench_scan_efficiency_percent scanbench_scan_efficiency_median_percent
	scanbench_read_bytes_per_second scanbench_scan_bytes_per_second scanbench_run_judged
	scanbench_verdict_info scanbench_last_run_timestamp_seconds scanbench_recorded_runs))
{
	is($fam->{$name}{type}, 'gauge', "$name is a gauge");
	ok(length($fam->{$name}{help} // '') > 10, "$name has HELP");
}
my %pct = map { ("$_->[0]{schema}|$_->[0]{relation}/$_->[0]{cache}") => $_->[1] }
  @{ $fam->{scanbench_scan_efficiency_percent}{samples} };
is(scalar(keys %pct), 6, 'one sample per relation and cache mode');
is($pct{'a|b.c/cold'}, '40', 'a."b.c" is a series');
is($pct{'a.b|c/cold'}, '60', '"a.b".c is another');
cmp_ok($pct{'public|t/cold'} // 0, '>', 0, 'public.t cold has its figure');
cmp_ok($pct{'public|t/warm'} // 0, '>', 0, 'public.t warm has its figure');
cmp_ok($pct{'odd "schema"|tt/cold'} // 0, '>', 0, 'a quoted schema name comes through unescaped');
is($pct{"public|we\"ird\\name\nnew/cold"}, '50', 'so do a quote, a backslash and a line feed');
my ($read) = map { $_->[1] } grep { $_->[0]{schema} eq 'public' && $_->[0]{relation} eq 't' && $_->[0]{cache} eq 'cold' }
  @{ $fam->{scanbench_read_bytes_per_second}{samples} };
my $mb_s = sql(q{SELECT read_mb_s FROM scan_history WHERE relname = 't' AND cache = 'cold'});
cmp_ok(abs(($read // 0) - $mb_s * 1e6), '<', 1e6 * 0.05 + 1, 'read rate in bytes per second');
my ($judged) = map { $_->[1] } grep { $_->[0]{relation} =~ /ird/ }
  @{ $fam->{scanbench_run_judged}{samples} };
is($judged, '0', 'an unstable run is not judged');
my ($ts) = map { $_->[1] } grep { $_->[0]{schema} eq 'public' && $_->[0]{relation} eq 't' && $_->[0]{cache} eq 'cold' }
  @{ $fam->{scanbench_last_run_timestamp_seconds}{samples} };
cmp_ok(abs(($ts // 0) - time), '<', 600, 'the timestamp is in epoch seconds');

$node->stop;
done_testing();
