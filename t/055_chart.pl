# scan_history_svg(): well-formed SVG (xmllint, and the server's XML
# parser), one point per run at its scan % on the axis, the interval band,
# the limits and the changes marked; rendered by headless
# Chromium when it is installed (Debian: chromium), so that a browser, not
# only a parser, accepts it.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use File::Spec;
use File::Temp qw(tempdir);

# A program on PATH, or undef.
sub in_path
{
	my ($name) = @_;
	for my $d (split /:/, $ENV{PATH} // '')
	{
		return "$d/$name" if -x "$d/$name";
	}
	return undef;
}

my $node = PostgreSQL::Test::Cluster->new('chart');
$node->init;
$node->start;
sub sql { return $node->safe_psql('postgres', shift) }
sql(q{
	CREATE EXTENSION scanbench;
	CREATE TABLE lineitem AS SELECT g AS id, md5(g::text) AS v FROM generate_series(1, 100000) g;
	CREATE TABLE orders AS SELECT g AS id FROM generate_series(1, 50000) g;
});
# Real runs, then a month of earlier ones around them with a scheduler
# change and a server upgrade.
sql(q{SELECT scan_history_record(r) FROM scan_efficiency('lineitem') r});
sql(q{SELECT scan_history_record(r) FROM scan_efficiency('orders') r});
sql(q{
	INSERT INTO scan_history (measured_at, relid, relschema, relname, cache, read_mb_s, scan_mb_s,
		scan_pct, scan_pct_lo, scan_pct_hi, verdict, filesystem, device, scheduler, read_ahead_kb,
		kernel, server_version)
	SELECT now() - make_interval(days => d), 'lineitem'::regclass, 'public', 'lineitem', 'cold',
		2000 + 10 * d, (2000 + 10 * d) * (60 + d % 5) / 100, 60 + d % 5, 57 + d % 5, 63 + d % 5,
		-- The marks of the real run, when it could be judged: the runs a
		-- run is compared with (and the chart's median) have its marks.
		CASE WHEN d = 9 THEN '{unstable}'::text[]
			 ELSE coalesce((SELECT h.verdict FROM scan_history h
							WHERE h.relname = 'lineitem' AND scanbench_internal.scan_history_marks(h.verdict) IS NOT NULL
							ORDER BY h.id LIMIT 1), '{ok}') END, 'ext4', '/dev/vda',
		CASE WHEN d > 12 THEN 'mq-deadline' ELSE 'bfq' END, 128, '6.1.0',
		CASE WHEN d > 20 THEN '15.19' ELSE '15.20' END
	FROM generate_series(1, 30) d;
});
my $runs = sql(q{SELECT count(*) FROM scan_history WHERE cache = 'cold'});

# Absolute: a browser needs a file:// URL, and 18's tempdir may be relative.
my $dir = File::Spec->rel2abs(PostgreSQL::Test::Utils::tempdir('chart'));
my $svg = "$dir/history.svg";
# As the README has it: psql -At into a file.
my ($out, $err) = ('', '');
IPC::Run::run([ 'psql', '-X', '-At', '-d', $node->connstr('postgres'), '-c',
	"SELECT scan_history_svg(NULL, 'cold', 60, min_pct => 40)" ], '>', $svg, '2>', \$err);
is($err, '', 'psql printed no error');
my $text = slurp_file($svg);
like($text, qr/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/, 'an SVG document');

SKIP:
{
	my $xmllint = in_path('xmllint');
	skip 'xmllint is not installed (Debian: libxml2-utils)', 1 unless $xmllint;
	my ($o, $e) = ('', '');
	IPC::Run::run([ 'xmllint', '--noout', $svg ], '>', \$o, '2>', \$e);
	is($? >> 8, 0, 'xmllint: well-formed') or diag($e);
}

# The server's own XML parser reads it too, and its XPath gives the points
# back: each run's number and figure as the history has them, placed on
# the scale the axis shows.
my $q = $text;
$q =~ s/'/''/g;
is(sql("SELECT xml_is_well_formed_document('$q')"), 't',
	'the server parses it as an XML document');
my $ns = q{ARRAY[ARRAY['s', 'http://www.w3.org/2000/svg']]};
my $run = q{//s:circle[@class="run"]};
is(sql(qq{SELECT string_agg(r::text, ',' ORDER BY r::text::bigint)
		  FROM unnest(xpath('$run/\@data-run', '$q'::xml, $ns)) AS r}),
	sql(q{SELECT string_agg(id::text, ',' ORDER BY id) FROM scan_history WHERE cache = 'cold'}),
	'XPath: a point for each run of the history');
# The same nodes in the same order: the measured runs and their figures.
is(sql(qq{SELECT string_agg(r::text || ':' || p::text, ',' ORDER BY r::text::bigint)
		  FROM unnest(xpath('${run}[\@data-scan-pct]/\@data-run', '$q'::xml, $ns),
					  xpath('${run}[\@data-scan-pct]/\@data-scan-pct', '$q'::xml, $ns)) AS u(r, p)}),
	sql(q{SELECT string_agg(id || ':' || round(scan_pct::numeric, 1), ',' ORDER BY id)
		  FROM scan_history WHERE cache = 'cold' AND scan_pct IS NOT NULL}),
	'XPath: each measured point with its run\'s scan %');

# Every measured point lies on the line the axis labels draw: the top grid
# label is the top of the panel (y 56), 0 its bottom (y 320).
my @axis = $text =~ /<g class="axis" fill="#333" text-anchor="end">\n(.*?)<\/g>/s;
my @labels = $axis[0] =~ /<text x="66" y="([0-9.]+)">([0-9.e+-]+)<\/text>/g;
my %label_y;
while (my ($y, $v) = splice(@labels, 0, 2)) { $label_y{$v} = $y; }
my ($pct_top) = sort { $b <=> $a } grep { $label_y{$_} < 320 + 4 } keys %label_y;
ok($pct_top > 0 && abs($label_y{$pct_top} - 4 - 56) < 0.11, "the scan % axis tops at $pct_top");
my $off = 0;
my $measured = 0;
while ($text =~ /<circle class="run" cx="[0-9.]+" cy="([0-9.]+)"[^>]*data-scan-pct="([0-9.]+)"/g)
{
	my ($cy, $pct) = ($1, $2);
	$measured++;
	# 0.05 % of rounding in the figure, 0.05 in the coordinate
	$off++ if abs($cy - (320 - $pct / $pct_top * 264)) > 0.05 * 264 / $pct_top + 0.051;
}
cmp_ok($measured, '>=', 30, "$measured measured points");
is($off, 0, 'each point sits at its scan % on the axis');

# Within a series the points run left to right in order of time.
my $unordered = 0;
for my $g ($text =~ /<g class="series"[^>]*>(.*?)<\/g>\n<g class="legend"/gs)
{
	my @cx = $g =~ /<circle class="run" cx="([0-9.]+)"/g;
	$unordered += grep { $cx[$_] < $cx[ $_ - 1 ] } 1 .. $#cx;
}
is($unordered, 0, 'points in order of time');

my @points = $text =~ /<circle class="run"/g;
is(scalar(@points), $runs, "one point per run ($runs)");
my @hollow = $text =~ /<circle class="run"[^>]*fill="white"/g;
is(scalar(@hollow),
	sql(q{SELECT count(*) FROM scan_history WHERE cache = 'cold'
		  AND (scan_pct IS NULL OR scanbench_internal.scan_history_marks(verdict) IS NULL)}),
	'the runs that could not be judged are hollow');
my @ids = $text =~ /<title>run (\d+),/g;
is(join(',', sort { $a <=> $b } @ids),
	sql(q{SELECT string_agg(id::text, ',' ORDER BY id) FROM scan_history WHERE cache = 'cold'}),
	'each run by its number');
like($text, qr/<polygon class="band"/, 'the interval is drawn as a band');
like($text, qr/alarm below 40 %/, 'the fixed limit is drawn');
like($text, qr/alarm: 20 % below median/, 'the drop limit is drawn');
like($text, qr/scheduler mq-deadline → bfq/, 'the scheduler change is marked');
like($text, qr/server 15\.19 → 15\.20/, 'the server upgrade is marked');
like($text, qr/class="read"/, 'read MB/s is drawn');
like($text, qr/class="scan"/, 'scan MB/s is drawn');
my @series = $text =~ /<g class="series"/g;
is(scalar(@series), 2, 'one series per relation');
my @coords = $text =~ /<circle class="run" cx="([0-9.]+)" cy="([0-9.]+)"/g;
ok(!grep({ $_ < 0 || $_ > 980 } @coords), 'every point is inside the picture');

my $one = sql(q{SELECT scan_history_svg('orders')});
my @one = $one =~ /<circle class="run"/g;
is(scalar(@one), 1, 'one relation: its own run only');

SKIP:
{
	my $chromium = in_path('chromium');
	skip 'chromium is not installed', 3 unless $chromium;
	my $png = "$dir/history.png";
	my ($o, $e) = ('', '');
	# A second try: on a loaded machine a headless browser now and then
	# dies at start-up, before it has looked at the file.
	for my $try (1 .. 2)
	{
		my $profile = tempdir(DIR => $dir);
		($o, $e) = ('', '');
		eval {
			IPC::Run::run([ $chromium, '--headless', '--no-sandbox', '--disable-gpu',
				'--disable-background-networking', '--disable-component-update', '--disable-sync',
				'--no-first-run', "--user-data-dir=$profile", '--window-size=980,640',
				"--screenshot=$png", "file://$svg" ], '>', \$o, '2>', \$e,
				IPC::Run::timeout(180));
		};
		$e .= $@ if $@;
		last if -s $png;
	}
	ok(-s $png, 'chromium rendered it') or diag($e);
	skip 'no picture to look at', 2 unless -s $png;
	open(my $fh, '<:raw', $png) or die "$png: $!";
	read($fh, my $sig, 8);
	close $fh;
	is($sig, "\x89PNG\r\n\x1a\n", 'as a PNG');
	cmp_ok(-s $png, '>', 20000, 'with something drawn in it (' . (-s $png) . ' bytes)');
}

$node->stop;
done_testing();
