# The Prometheus alert rules and the Grafana dashboard of examples/: the
# rules pass promtool's check and their unit tests; the dashboard is JSON
# of the shape Grafana imports; and where Debian's prometheus is
# installed, a Prometheus on the loopback scrapes scanbench_metrics() of a
# central history holding a fleet's runs (served by a small HTTP responder
# here, as node_exporter's textfile collector would serve it), loads the
# rules, and every query of the dashboard and every alert's expression
# returns the series it is for.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use File::Temp qw(tempdir);
use FindBin;
use HTTP::Tiny;
use IO::Socket::INET;
use IPC::Run;
use JSON::PP;
use Time::HiRes qw(sleep time);

my $examples = "$FindBin::RealBin/../examples";
my $rules = "$examples/prometheus/scanbench.rules.yml";
my $rules_test = "$examples/prometheus/scanbench.rules.test.yml";
my $dashboard_file = "$examples/grafana/scanbench.json";

sub find_bin
{
	my ($name) = @_;
	for my $d (split /:/, "$ENV{PATH}:/usr/bin:/usr/sbin")
	{
		return "$d/$name" if -x "$d/$name";
	}
	return undef;
}

# The dashboard: JSON with panels, each with targets that have a PromQL
# expression, and query variables.
my $dash = eval {
	open my $fh, '<:raw', $dashboard_file or die "$dashboard_file: $!";
	local $/;
	decode_json(<$fh>);
};
ok($dash, 'the dashboard is JSON') or diag($@);
$dash //= {};
ok($dash->{title} && $dash->{uid} && ref $dash->{panels} eq 'ARRAY' && @{ $dash->{panels} } >= 4,
	'the dashboard has a title, a uid and panels');
my (@queries, %ids);
for my $p (@{ $dash->{panels} // [] })
{
	ok($p->{title} && ref $p->{targets} eq 'ARRAY' && @{ $p->{targets} }, "panel \"$p->{title}\" has targets");
	ok(!$ids{ $p->{id} }++, "panel \"$p->{title}\" has an id of its own");
	for my $t (@{ $p->{targets} })
	{
		ok($t->{expr} && $t->{refId}, "panel \"$p->{title}\" $t->{refId}: an expression");
		push @queries, [ "panel \"$p->{title}\" $t->{refId}", $t->{expr} ];
	}
}
my @variables = grep { $_->{type} eq 'query' } @{ $dash->{templating}{list} // [] };
is(join(' ', map { $_->{name} } @variables), 'relation cache cohort server',
	'the dashboard chooses a relation, a cache mode, cohorts and a server');
for my $title ('The fleet\'s scan efficiency and its spread', 'Servers below their cohort',
	'$server: scan efficiency with its limits')
{
	ok((grep { $_->{title} eq $title } @{ $dash->{panels} // [] }), "the dashboard has \"$title\"");
}

my $promtool = find_bin('promtool');
my $prometheus = find_bin('prometheus');
SKIP:
{
	skip 'promtool is not installed (Debian package prometheus)', 4 unless $promtool;
	my ($out, $err) = ('', '');
	my $ok = IPC::Run::run([ $promtool, 'check', 'rules', $rules ], '>', \$out, '2>', \$err);
	ok($ok, 'promtool check rules') or diag("$out$err");
	like($out, qr/SUCCESS: 6 rules found/, 'six rules');
	($out, $err) = ('', '');
	# promtool reads the rule files named in the test file from its directory.
	$ok = IPC::Run::run([ $promtool, 'test', 'rules', 'scanbench.rules.test.yml' ],
		'>', \$out, '2>', \$err, init => sub { chdir "$examples/prometheus" or die $! });
	ok($ok, 'promtool test rules: the unit tests of the rules pass') or diag("$out$err");
	like($out, qr/SUCCESS/, 'promtool says SUCCESS');
}

if (!$prometheus)
{
	note 'prometheus is not installed (Debian package prometheus): the dashboard\'s queries are not run';
	done_testing();
	exit 0;
}

# A central history: a cohort of six servers (class=nvme) measuring t, four
# runs each, whose latest are s5's drop to half (below its cohort too) and
# s2's drop by 13 %; s6's latest row is a failure, written as
# scanbench-fleet writes one for a relation named without its schema (in
# no schema: a series of its own, beside s6's last figure); s7 stopped
# three days ago.
my $node = PostgreSQL::Test::Cluster->new('central');
$node->init;
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION scanbench;
	INSERT INTO scan_history (measured_at, relschema, relname, cache, scan_pct, scan_pct_lo,
	  scan_pct_hi, read_mb_s, scan_mb_s, verdict, server, server_role, tags, reason)
	SELECT now() - make_interval(days => d + age), 'public', 't', 'cold',
	       CASE WHEN d = 0 THEN latest ELSE earlier END,
	       CASE WHEN d = 0 THEN latest ELSE earlier END - 2,
	       CASE WHEN d = 0 THEN latest ELSE earlier END + 2,
	       500, 5 * CASE WHEN d = 0 THEN latest ELSE earlier END, '{ok}', s, 'primary',
	       '{"class": "nvme"}', NULL
	FROM (VALUES ('s1', 60, 60, 0), ('s2', 70, 61, 0), ('s3', 59, 59, 0), ('s4', 62, 62, 0),
	             ('s5', 60, 30, 0), ('s6', 58, 58, 1), ('s7', 60, 60, 3)) AS f(s, earlier, latest, age),
	     generate_series(0, 4) AS d;
	INSERT INTO scan_history (measured_at, relschema, relname, cache, server, tags, reason)
	VALUES (now(), NULL, 't', 'cold', 's6', '{"class": "nvme"}', 'could not connect: refused');
});
# The workload's checks on the central server (its own queries): five
# nights, the last with one query read at random where it read in order.
$node->safe_psql('postgres', q{
	INSERT INTO workload_checks (id, measured_at, from_snapshot, to_snapshot, interval_s, settings,
		sequential_mb_s, random_mb_s, page_cache_mb_s, limit_max_drop_pct, limit_warn_drop_pct, limit_window_days)
	SELECT n, now() - make_interval(days => 5 - n), CASE WHEN n > 1 THEN n - 1 END, n, 86400,
		jsonb_build_object('enable_seqscan', CASE WHEN n = 5 THEN 'off' ELSE 'on' END), 200, 2, 2000, 50, 25, 30
	FROM generate_series(1, 5) n;
	INSERT INTO workload_history (check_id, measured_at, queryid, database, role, toplevel, query, calls,
		exec_s, blocks_read, blocks_hit, read_wait_s, read_wait_pct, read_mb_s, cached_pct, reference, reference_pct)
	SELECT c.id, c.measured_at, q, 'tpch', 'app', true, 'SELECT ' || q, 10, 10, 10000, 100, 5, 50,
		CASE WHEN q = 1 AND c.id = 5 THEN 4 ELSE 100 END, 1,
		CASE WHEN q = 1 AND c.id = 5 THEN 'random' ELSE 'sequential' END, 50
	FROM workload_checks c, generate_series(1, 2) q
	WHERE c.id > 1;
});
my $metrics = $node->safe_psql('postgres', 'SELECT scanbench_metrics()') . "\n";
like($metrics, qr/^scanbench_scan_efficiency_percent\{server="s5",.*cohort="class=nvme"\} 30$/m,
	'the metrics of the fleet\'s runs carry the server and the cohort');

# The exporter: the metrics, to any GET.
my $listen = IO::Socket::INET->new(LocalAddr => '127.0.0.1', LocalPort => 0, Listen => 8, ReuseAddr => 1)
  or die "listen: $!";
my $exporter_port = $listen->sockport;
my $exporter = fork() // die "fork: $!";
if ($exporter == 0)
{
	while (my $c = $listen->accept)
	{
		while (my $l = <$c>)
		{
			last if $l =~ /^\r?\n$/;
		}
		print $c "HTTP/1.0 200 OK\r\nContent-Type: text/plain; version=0.0.4\r\n"
		  . "Content-Length: " . length($metrics) . "\r\n\r\n" . $metrics;
		close $c;
	}
	exit 0;
}
close $listen;

my $dir = tempdir('sb-prom-XXXX', TMPDIR => 1, CLEANUP => 1);
open my $fh, '>', "$dir/prometheus.yml" or die;
print $fh <<"CONF";
global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files:
  - '$rules'
scrape_configs:
  - job_name: scanbench
    static_configs:
      - targets: ['127.0.0.1:$exporter_port']
CONF
close $fh;
my $port = PostgreSQL::Test::Cluster::get_free_port();
my ($out, $err) = ('', '');
my $h = IPC::Run::start([ $prometheus, "--config.file=$dir/prometheus.yml", "--storage.tsdb.path=$dir/data",
		"--web.listen-address=127.0.0.1:$port", '--log.level=warn' ],
	'>', \$out, '2>', \$err);
my $http = HTTP::Tiny->new(timeout => 5);

sub query
{
	my ($expr) = @_;
	my $res = $http->get("http://127.0.0.1:$port/api/v1/query?" . $http->www_form_urlencode({ query => $expr }));
	my $body = eval { decode_json($res->{content}) } // { status => "HTTP $res->{status}: $res->{content}" };
	return $body;
}

# Ready, the metrics scraped, every rule evaluated once.
my $deadline = time + 60;
my ($scraped, $evaluated) = (0, 0);
while (time < $deadline)
{
	my $r = query('count(scanbench_scan_efficiency_percent)');
	$scraped = ($r->{status} // '') eq 'success' && @{ $r->{data}{result} } ? $r->{data}{result}[0]{value}[1] : 0;
	if ($scraped)
	{
		my $res = $http->get("http://127.0.0.1:$port/api/v1/rules");
		my $rr = eval { decode_json($res->{content}) } // {};
		my @rules = map { @{ $_->{rules} } } @{ $rr->{data}{groups} // [] };
		$evaluated = @rules && !grep { !$_->{lastEvaluation} || $_->{lastEvaluation} =~ /^0001/ } @rules;
		if ($evaluated)
		{
			is(scalar @rules, 6, 'Prometheus loaded the six rules');
			is(join(' ', map { "$_->{name}=$_->{health}" } grep { $_->{health} ne 'ok' } @rules), '',
				'every rule evaluates without an error');
			last;
		}
	}
	sleep 0.5;
}
is($scraped, 7, 'Prometheus scraped the seven servers\' figures (s6\'s failure has none)')
  or diag("scraped $scraped; prometheus: $err\n" . encode_json(query('scanbench_scan_efficiency_percent')));
ok($evaluated, 'Prometheus evaluated the rules');

# Every query of the dashboard with the variables set: relation t, cache
# cold, every cohort, server s5.
my %vars = (relation => 't', cache => 'cold', cohort => '.*', server => 's5');
for my $q (@queries)
{
	my ($name, $expr) = @$q;
	$expr =~ s/\$(\w+)/exists $vars{$1} ? $vars{$1} : "\$$1"/ge;
	my $r = query($expr);
	ok(($r->{status} // '') eq 'success' && @{ $r->{data}{result} // [] } > 0, "$name returns series")
	  or diag("$expr: " . encode_json($r));
}
# The variables' choices: label_values(METRIC, LABEL).
for my $v (@variables)
{
	my ($metric, $label) = $v->{definition} =~ /^label_values\((.*), (\w+)\)$/
	  or (fail("variable $v->{name}: label_values(metric, label)"), next);
	$metric =~ s/\$(\w+)/exists $vars{$1} ? $vars{$1} : "\$$1"/ge;
	my $res = $http->get("http://127.0.0.1:$port/api/v1/label/$label/values?"
		  . $http->www_form_urlencode({ 'match[]' => $metric }));
	my $r = eval { decode_json($res->{content}) } // {};
	ok(@{ $r->{data} // [] } > 0, "variable $v->{name} has values: @{ $r->{data} // [] }");
}
# What each alert's expression finds in this fleet.
my %alert_finds = (
	ScanbenchEfficiencyDrop => 's5',
	ScanbenchEfficiencyWarning => 's2',
	ScanbenchBelowCohort => 's5',
	ScanbenchServerNotReporting => 's7',
	ScanbenchNotMeasured => 's6',
	ScanbenchWorkloadQuerySlower => 'query 1');
my $res = $http->get("http://127.0.0.1:$port/api/v1/rules");
my $rr = eval { decode_json($res->{content}) } // {};
for my $rule (map { @{ $_->{rules} } } @{ $rr->{data}{groups} // [] })
{
	my $r = query($rule->{query});
	my $found = join ' ', sort map { $_->{metric}{server} // (defined $_->{metric}{queryid} ? "query $_->{metric}{queryid}" : '') }
	  @{ $r->{data}{result} // [] };
	is($found, $alert_finds{ $rule->{name} }, "$rule->{name} finds $alert_finds{ $rule->{name} }");
}

$h->kill_kill;
kill 'TERM', $exporter;
waitpid($exporter, 0);
$node->stop;
done_testing();
