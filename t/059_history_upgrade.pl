# A 0.3 history that holds nonsense (a NaN, a 1e308, an infinite time,
# which 0.3 took) upgrades to 0.4.0 without losing a row: the constraints
# those rows break stay NOT VALID with a WARNING, the others are
# validated; new nonsense is refused; the judge, the trend, the metrics
# and the chart leave the old rows out instead of failing or drawing NaN.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('history_upgrade');
$node->init;
$node->start;
sub sql { return $node->safe_psql('postgres', shift) }

sql(q{CREATE EXTENSION scanbench VERSION '0.3'});
sql(q{
	INSERT INTO scan_history (measured_at, relschema, relname, cache, scan_pct, verdict)
	SELECT now() - make_interval(days => d), 'public', 'lineitem', 'cold', 50 + d, '{ok}'
	FROM generate_series(1, 5) d;
	INSERT INTO scan_history (measured_at, relschema, relname, cache, scan_pct, verdict)
	VALUES (now() - interval '12 hours', 'public', 'lineitem', 'cold', 1e308, '{ok}'),
		   (now() - interval '11 hours', 'public', 'lineitem', 'cold', 'NaN', '{ok}'),
		   ('infinity', 'public', 'lineitem', 'cold', 50, '{ok}');
	INSERT INTO scan_history (measured_at, relschema, relname, cache, scan_pct, verdict)
	VALUES (now() - interval '1 hour', 'public', 'lineitem', 'cold', 49, '{ok}');
});
my $rows = sql(q{SELECT count(*) FROM scan_history});

my ($ret, $out, $err) = $node->psql('postgres', q{ALTER EXTENSION scanbench UPDATE TO '0.4.0'});
is($ret, 0, 'the update runs') or diag($err);
like($err, qr/WARNING:  scan_history keeps rows that break scan_history_scan_pct_check; the constraint is left NOT VALID/,
	'a WARNING names the constraint old rows break');
like($err, qr/scan_history_measured_at_check; the constraint is left NOT VALID/, '... each of them');
unlike($err, qr/scan_history_rates_check/, 'a constraint no row breaks says nothing');
is(sql(q{SELECT count(*) FROM scan_history}), $rows, 'no row is lost');
is(sql(q{SELECT string_agg(conname || '=' || convalidated, ' ' ORDER BY conname) FROM pg_constraint
		  WHERE conrelid = 'scan_history'::regclass AND contype = 'c' AND conname <> 'scan_history_server_role_check'}),
	'scan_history_cached_pct_check=true scan_history_limits_check=true scan_history_measured_at_check=false '
	  . 'scan_history_rates_check=true scan_history_scan_pct_check=false scan_history_seconds_check=true',
	'the constraints old rows break stay NOT VALID, the others are validated');

($ret, $out, $err) = $node->psql('postgres', q{INSERT INTO scan_history (measured_at, relschema, relname, cache, scan_pct)
	VALUES (now(), 'public', 'lineitem', 'cold', 'NaN')});
like($err, qr/violates check constraint "scan_history_scan_pct_check"/, 'new nonsense is refused all the same');

# The latest good run is judged against the 5 good earlier ones alone.
my $judged = sql(q{SELECT status || ' ' || median_pct || ' ' || earlier_runs FROM scan_history_judge(
	(SELECT id FROM scan_history WHERE scan_pct = 49))});
is($judged, 'ok 53 5', 'the judge compares with the usable runs only, without overflowing');
my ($nan_judged) = sql(q{SELECT status FROM scan_history_judge((SELECT id FROM scan_history WHERE scan_pct = 'NaN'))});
is($nan_judged, 'not_judged', 'a NaN run is not judged');
is(sql(q{SELECT judged_runs || ' ' || min_pct || ' ' || max_pct FROM scan_trend}), '6 49 55',
	'the trend counts and bounds the usable runs');
my $metrics = sql(q{SELECT scanbench_metrics()});
unlike($metrics, qr/^scanbench\S+\{[^}]*\} (NaN|[+-]?Inf)/m, 'no NaN or infinite sample in the metrics');
my $svg = sql(q{SELECT scan_history_svg(NULL, 'cold')});
like($svg, qr/^<svg/, 'the chart draws');
unlike($svg, qr/NaN|Infinity/, 'and has no NaN or infinite coordinate');

# 0.4.0 to 0.5.0: the judge gains an argument and is made again.  A call
# written for 0.4.0 gives the same answer after the update; an EXECUTE a
# DBA granted on the old function goes with it, and the update names the
# role in a WARNING with the GRANT that gives it again.
sql(q{CREATE ROLE checker;
	GRANT EXECUTE ON FUNCTION scan_history_judge(bigint, float8, float8, float8, float8, integer) TO checker});
# Its hint's query names the server the run is of (NULL: this one) from
# 0.5.0 on; every figure and word else is the same.
my $old_call = q{SELECT status, message, detail, median_pct, drop_pct, earlier_runs
	FROM scan_history_judge((SELECT id FROM scan_history WHERE scan_pct = 49), min_pct => 40, window_days => 30)};
my $before = sql($old_call);
like($before, qr/^ok\|/, 'the 0.4.0 judge judges the run');
($ret, $out, $err) = $node->psql('postgres', q{ALTER EXTENSION scanbench UPDATE TO '0.5.0'});
is($ret, 0, 'the update to 0.5.0 runs') or diag($err);
like($err, qr/WARNING:  scan_history_judge gains an argument: the EXECUTE granted to checker on the old one is not carried over\n.*HINT:  GRANT EXECUTE ON FUNCTION public\.scan_history_judge\(bigint, float8, float8, float8, float8, integer, text\) TO checker;/s,
	'the update names the role whose grant on the judge it cannot carry, with the GRANT');
unlike($err, qr/granted to (pg_monitor|postgres)/, 'and no other role');
is(sql($old_call), $before, 'a call written for 0.4.0 gives the same answer after the update');
my $may = q{SELECT has_function_privilege('checker',
	'scan_history_judge(bigint, float8, float8, float8, float8, integer, text)', 'EXECUTE')};
is(sql($may), 'f', 'the role may not call the new judge before the GRANT');
sql(q{GRANT EXECUTE ON FUNCTION public.scan_history_judge(bigint, float8, float8, float8, float8, integer, text) TO checker});
is(sql($may), 't', 'the GRANT the hint gives lets it call again');

# The set judge gives every run the per-run judge's answer, the rows 0.3
# took (a NaN, a 1e308, an infinite time) among them, and with limits given.
my $same = q{SELECT count(*) || ' ' || count(*) FILTER (WHERE
		(s.status, s.message, s.detail, s.hint, s.median_pct, s.drop_pct, s.earlier_runs) IS NOT DISTINCT FROM
		(p.status, p.message, p.detail, p.hint, p.median_pct, p.drop_pct, p.earlier_runs))
	FROM scan_history_judge_runs(first_run => 0) s, scan_history_judge(s.run, server => s.server) p};
my $all = sql(q{SELECT count(*) FROM scan_history});
is(sql($same), "$all $all", 'the set judgement of every run, old nonsense included, is the per-run judgement');
(my $limited = $same) =~ s/\(first_run => 0\)/(first_run => 0, min_pct => 52, window_days => 3)/;
$limited =~ s/server => s.server\)/server => s.server, min_pct => 52, window_days => 3)/;
is(sql($limited), "$all $all", '... and with limits given');

$node->stop;
done_testing();
