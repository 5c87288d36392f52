# The scrapers' files in examples/ (a pgwatch metric definition and an
# sql_exporter configuration) parse as YAML of the shape each tool reads,
# and their queries, run against a central history holding a fleet's rows,
# give the last judged run of each server x relation (not a later unstable
# one, nor a failure), its interval and verdict, and each server's latest
# failure.  Where Debian's prometheus-sql-exporter is installed, it is run
# on the configuration and its /metrics checked.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use CPAN::Meta::YAML;
use File::Temp qw(tempdir);
use FindBin;
use HTTP::Tiny;
use IPC::Run;
use Time::HiRes qw(sleep time);

my $examples = "$FindBin::RealBin/../examples";

sub slurp_yaml
{
	my ($file) = @_;
	open my $fh, '<', $file or die "$file: $!";
	local $/;
	my $text = <$fh>;
	close $fh;
	my $doc = CPAN::Meta::YAML->read_string($text)
	  or die "$file: " . CPAN::Meta::YAML->errstr;
	return ($doc->[0], $text);
}

my ($pgwatch) = slurp_yaml("$examples/pgwatch-scanbench.yml");
my ($sqlexp, $sqlexp_text) = slurp_yaml("$examples/sql_exporter-scanbench.yml");

# pgwatch: metrics.NAME.sqls.VERSION is the query, epoch_ns first, tags
# named tag_*; gauges names columns of it.
my @pgwatch_sql;
ok(ref $pgwatch->{metrics} eq 'HASH' && %{ $pgwatch->{metrics} }, 'pgwatch: a metrics map');
for my $name (sort keys %{ $pgwatch->{metrics} })
{
	my $m = $pgwatch->{metrics}{$name};
	like($name, qr/^[a-z_]+$/, "pgwatch: metric name $name");
	ok($m->{description}, "pgwatch: $name has a description");
	ok(ref $m->{sqls} eq 'HASH' && (grep { /^\d+$/ } keys %{ $m->{sqls} }), "pgwatch: $name has sqls by major");
	ok(ref $m->{gauges} eq 'ARRAY' && @{ $m->{gauges} }, "pgwatch: $name has gauges");
	for my $v (keys %{ $m->{sqls} })
	{
		like($m->{sqls}{$v}, qr/^\s*SELECT .*epoch_ns,/s, "pgwatch: $name/$v starts with epoch_ns");
		push @pgwatch_sql, [ $name, $m->{sqls}{$v}, $m->{gauges} ];
	}
}

# sql_exporter (justwatchcom's, Debian's): jobs[].queries[] with name,
# help, labels, values, query.
my @sqlexp_sql;
ok(ref $sqlexp->{jobs} eq 'ARRAY' && @{ $sqlexp->{jobs} }, 'sql_exporter: a list of jobs');
for my $job (@{ $sqlexp->{jobs} })
{
	ok($job->{name} && $job->{interval} && ref $job->{connections} eq 'ARRAY', "sql_exporter: job $job->{name} has interval and connections");
	for my $q (@{ $job->{queries} })
	{
		ok($q->{name} && $q->{help} && ref $q->{labels} eq 'ARRAY' && ref $q->{values} eq 'ARRAY' && $q->{query},
			"sql_exporter: query $q->{name} has help, labels, values and a query");
		push @sqlexp_sql, $q;
	}
}

# The central history: the local runs of this server, and a fleet's rows as
# scanbench-fleet COPYs them.
my $node = PostgreSQL::Test::Cluster->new('central');
$node->init;
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION scanbench;
	CREATE TABLE t AS SELECT g AS id FROM generate_series(1, 20000) g;
	CREATE TABLE fleet_rows (LIKE scan_history);
	INSERT INTO scan_history (measured_at, relid, relschema, relname, cache, scan_pct,
	  scan_pct_lo, scan_pct_hi, read_mb_s, scan_mb_s, verdict, server, server_role, tags, reason)
	VALUES
	  (now() - interval '2 days', 1, 'public', 'lineitem', 'cold', 80, 78, 82, 500, 400, '{ok}', 'a', 'primary', '{"class": "x"}', NULL),
	  (now() - interval '1 day', 1, 'public', 'lineitem', 'cold', 85.5, 84, 87, 510, 436, '{ok,io_limited}', 'a', 'primary', '{"class": "x"}', NULL),
	  (now() - interval '1 hour', 1, 'public', 'lineitem', 'cold', 10, 1, 90, 500, 50, '{unstable}', 'a', 'primary', '{"class": "x"}', NULL),
	  (now() - interval '1 day', 1, 'public', 'lineitem', 'cold', 70, 69, 71, 300, 210, '{ok}', 'b', 'standby', '{"class": "x"}', NULL),
	  (now() - interval '1 hour', NULL, NULL, 'lineitem', 'cold', NULL, NULL, NULL, NULL, NULL, NULL, 'b', NULL, '{"class": "x"}', 'could not connect: refused'),
	  -- a."b.c" and "a.b".c: two relations, whose names joined with a dot agree
	  (now() - interval '3 hours', 1, 'a', 'b.c', 'cold', 40, 39, 41, 100, 40, '{ok}', 'c', 'primary', '{}', NULL),
	  (now() - interval '2 hours', 1, 'a.b', 'c', 'cold', 60, 59, 61, 100, 60, '{ok}', 'c', 'primary', '{}', NULL);
});
# A local run, measured and recorded here (server NULL).
$node->safe_psql('postgres', q{SELECT scan_history_record(r) FROM scan_efficiency('t', 'warm', max_seconds => 2, target_pct => 50) AS r});
my $local_judged = $node->safe_psql('postgres',
	q{SELECT count(*) FROM scan_history WHERE server IS NULL AND scanbench_internal.scan_history_marks(verdict) IS NOT NULL AND scan_pct IS NOT NULL});

# Run a query, rows as hashes by column name.
sub rows_of
{
	my ($sql) = @_;
	my $out = $node->safe_psql('postgres', "COPY ($sql) TO STDOUT WITH (FORMAT csv, HEADER)");
	my @lines = split /\n/, $out;
	my @cols = split /,/, shift @lines;
	my @rows;
	for my $l (@lines)
	{
		my @v = map { s/^"|"$//gr } ($l =~ /("(?:[^"]|"")*"|[^,]*)(?:,|$)/g);
		my %r;
		@r{@cols} = @v;
		push @rows, \%r;
	}
	return (\@cols, \@rows);
}

for my $m (@pgwatch_sql)
{
	my ($name, $sql, $gauges) = @$m;
	my ($cols, $rows) = rows_of($sql);
	is($cols->[0], 'epoch_ns', "pgwatch $name: epoch_ns is the first column");
	for my $g (grep { $_ ne '*' } @$gauges)
	{
		ok((grep { $_ eq $g } @$cols), "pgwatch $name: gauge $g is a column");
	}
	if ($name eq 'scanbench_fleet')
	{
		my @a = grep { $_->{tag_server} eq 'a' } @$rows;
		is(scalar @a, 1, 'pgwatch scanbench_fleet: one row for server a');
		is("$a[0]{scan_pct} $a[0]{scan_pct_lo} $a[0]{scan_pct_hi} $a[0]{verdict}", '85.5 84 87 ok,io_limited',
			'pgwatch scanbench_fleet: the last judged run, not the later unstable one');
		my @b = grep { $_->{tag_server} eq 'b' } @$rows;
		is("$b[0]{scan_pct} $b[0]{tag_role}", '70 standby', 'pgwatch scanbench_fleet: a failure is not a judged run');
		my %c = map { ("$_->{tag_schema}|$_->{tag_relation}") => $_->{scan_pct} }
		  grep { $_->{tag_server} eq 'c' } @$rows;
		is(join(' ', map { "$_=$c{$_}" } sort keys %c), 'a.b|c=60 a|b.c=40',
			'pgwatch scanbench_fleet: schema and relation apart, a."b.c" and "a.b".c two rows');
		my @local = grep { $_->{tag_server} eq 'local' } @$rows;
		is(scalar @local, $local_judged > 0 ? 1 : 0, 'pgwatch scanbench_fleet: the local run, when judged');
	}
	else
	{
		my %failed = map { $_->{tag_server} => $_->{failed} } @$rows;
		is("$failed{a} $failed{b}", '0 1', "pgwatch $name: b's latest row failed, a's did not");
	}
}

for my $q (@sqlexp_sql)
{
	my ($cols, $rows) = rows_of($q->{query});
	for my $c (@{ $q->{labels} }, @{ $q->{values} })
	{
		ok((grep { $_ eq $c } @$cols), "sql_exporter $q->{name}: $c is a column");
	}
	ok(@$rows >= 2, "sql_exporter $q->{name}: rows for the servers");
	if ($q->{name} eq 'scanbench_fleet')
	{
		my @c = sort map { "$_->{schema}|$_->{relation}" } grep { $_->{server} eq 'c' } @$rows;
		is("@c", 'a.b|c a|b.c', 'sql_exporter scanbench_fleet: a."b.c" and "a.b".c two rows');
	}
}

# Debian's prometheus-sql-exporter on the configuration, pointed at the test
# cluster.
SKIP:
{
	my $bin = '/usr/bin/prometheus-sql-exporter';
	skip 'prometheus-sql-exporter is not installed (Debian package prometheus-sql-exporter)', 4
	  unless -x $bin;
	my $dir = tempdir('sb-sqlexp-XXXX', TMPDIR => 1, CLEANUP => 1);
	my $url = sprintf('postgres://%s@/postgres?host=%s&port=%d&sslmode=disable',
		scalar(getpwuid($<)), $node->host, $node->port);
	(my $conf = $sqlexp_text) =~ s{'postgres://monitor\@localhost/scanbench\?sslmode=disable'}{'$url'};
	$conf =~ s/interval: '5m'/interval: '1s'/;
	isnt($conf, $sqlexp_text, 'sql_exporter: the connection replaced');
	open my $fh, '>', "$dir/config.yml" or die;
	print $fh $conf;
	close $fh;
	my $port = PostgreSQL::Test::Cluster::get_free_port();
	my ($out, $err) = ('', '');
	my $h = IPC::Run::start([ $bin, '-config.file', "$dir/config.yml", '-web.listen-address', "127.0.0.1:$port" ],
		'>', \$out, '2>', \$err);
	my $body = '';
	my $deadline = time + 20;
	while (time < $deadline)
	{
		my $res = HTTP::Tiny->new(timeout => 2)->get("http://127.0.0.1:$port/metrics");
		$body = $res->{content} // '';
		last if $res->{success} && $body =~ /^sql_scanbench_fleet_failed\{/m && $body =~ /^sql_scanbench_fleet\{/m;
		sleep 0.3;
	}
	$h->kill_kill;
	like($body, qr/^sql_scanbench_fleet\{(?=[^}]*col="scan_pct")(?=[^}]*server="a")(?=[^}]*verdict="ok,io_limited")[^}]*\} 85\.5$/m,
		'sql_exporter: scan_pct of server a from its last judged run') or diag("stderr: $err");
	like($body, qr/^sql_scanbench_fleet_failed\{(?=[^}]*server="b")[^}]*\} 1$/m, 'sql_exporter: server b failed');
	like($body, qr/^sql_scanbench_fleet_failed\{(?=[^}]*server="a")[^}]*\} 0$/m, 'sql_exporter: server a did not');
}

$node->stop;
done_testing();
