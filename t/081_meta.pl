# META.json as PGXN reads it (meta-spec 1.0.0): valid JSON, the required
# fields, semantic versions equal to scanbench.control's default_version,
# files that exist.  And the release's other papers: LICENSE, and a
# CHANGELOG section for this version.  No server needed.
use strict;
use warnings;
use Test::More;
use JSON::PP;

sub slurp
{
	my $f = shift;
	open(my $fh, '<', $f) or return undef;
	local $/;
	my $s = <$fh>;
	close $fh;
	return $s;
}

my $control = slurp('scanbench.control') // die "scanbench.control: $!";
my ($extversion) = $control =~ /^default_version\s*=\s*'([^']+)'/m;
ok(defined $extversion, "scanbench.control has a default_version");

# PGXN wants semantic versions (x.y.z); the extension's versions are x.y.
my $semver = qr/^\d+\.\d+\.\d+(-[0-9A-Za-z-]+)?$/;
my $want = $extversion =~ /^\d+\.\d+$/ ? "$extversion.0" : $extversion;

my $meta = eval { JSON::PP->new->relaxed(0)->decode(slurp('META.json') // '') };
ok(ref $meta eq 'HASH', 'META.json is a valid JSON object') or diag($@);
$meta //= {};

for my $k (qw(name abstract version maintainer license provides meta-spec))
{
	ok(exists $meta->{$k}, "META.json has the required field $k");
}
is($meta->{'meta-spec'}{version}, '1.0.0', 'meta-spec version 1.0.0');
is($meta->{name}, 'scanbench', 'name is the extension\'s');
like($meta->{abstract} // '', qr/\S/, 'abstract is not empty');
like($meta->{version} // '', $semver, 'version is a semantic version');
is($meta->{version}, $want, "version $want is scanbench.control's default_version $extversion");

my $m = $meta->{maintainer};
ok((!ref $m && $m =~ /\S/) || (ref $m eq 'ARRAY' && @$m && !grep { !/\S/ } @$m),
	'maintainer is a name or a list of names');

my %licenses = map { $_ => 1 } qw(agpl_3 apache_1_1 apache_2_0 artistic_1 artistic_2 bsd
  freebsd gfdl_1_2 gfdl_1_3 gpl_1 gpl_2 gpl_3 lgpl_2_1 lgpl_3_0 mit mozilla_1_0 mozilla_1_1
  openssl perl_5 postgresql qpl_1_0 ssleay sun zlib open_source restricted unrestricted unknown);
ok(!ref $meta->{license} && $licenses{ $meta->{license} // '' }, 'license is a PGXN license name');
is($meta->{license}, 'postgresql', 'license: postgresql, as LICENSE says');
like(slurp('LICENSE') // '', qr/\APostgreSQL License\n\nCopyright \(c\) \d{4}, the scanbench authors\n/,
	'LICENSE is the PostgreSQL License of the scanbench authors');

my $provides = ref $meta->{provides} eq 'HASH' ? $meta->{provides} : {};
ok(exists $provides->{scanbench}, 'provides the scanbench extension');
for my $ext (sort keys %$provides)
{
	my $p = $provides->{$ext};
	ok(defined $p->{file} && -f $p->{file}, "provides $ext: file " . ($p->{file} // '(none)') . ' exists');
	ok(!defined $p->{docfile} || -f $p->{docfile}, "provides $ext: docfile exists if named");
	is($p->{version}, $meta->{version}, "provides $ext: version is the distribution's");
	ok(!defined $p->{abstract} || $p->{abstract} =~ /\S/, "provides $ext: abstract, if any, is not empty");
}

my %phases = map { $_ => 1 } qw(configure build test runtime develop);
my %relations = map { $_ => 1 } qw(requires recommends suggests conflicts);
for my $phase (sort keys %{ $meta->{prereqs} // {} })
{
	ok($phases{$phase}, "prereqs phase $phase is one the spec knows");
	for my $rel (sort keys %{ $meta->{prereqs}{$phase} })
	{
		ok($relations{$rel}, "prereqs $phase.$rel is a relation the spec knows");
		for my $dep (sort keys %{ $meta->{prereqs}{$phase}{$rel} })
		{
			like($meta->{prereqs}{$phase}{$rel}{$dep}, qr/^(\d+\.\d+\.\d+|0)$/,
				"prereqs $phase.$rel.$dep: a version");
		}
	}
}
ok(!defined $meta->{release_status} || $meta->{release_status} =~ /^(stable|testing|unstable)$/,
	'release_status is stable, testing or unstable');

my %known = map { $_ => 1 } qw(name abstract description version maintainer license provides
  meta-spec prereqs release_status resources no_index generated_by tags);
my @unknown = grep { !$known{$_} && !/^[xX]_/ } sort keys %$meta;
is("@unknown", '', 'no field the spec does not know (custom ones start with x_)');

like(slurp('CHANGELOG.md') // '', qr/^## \Q$extversion\E\b/m, "CHANGELOG.md has a section for $extversion");

done_testing();
