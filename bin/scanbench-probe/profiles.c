/*
 * profiles.c: storage profiles: what a volume's vendor publishes of its
 * limits, kept as data so that a user can add a volume, or correct one,
 * without a new program (see scanbench_storage_profiles.conf).
 *
 * The file is read whole and every error named with its line before
 * anything connects: a profile that is wrong would make every figure
 * measured against it wrong, silently.  A profile named again in a later
 * file (--profiles) replaces the earlier one; --storage NAME:KEY=VALUE,...
 * changes the figures of one profile (a gp3 volume provisioned with more
 * than its baseline), and is held to the volume's published ceilings.
 *
 * Nothing here connects: the limit at a request size is arithmetic on the
 * profile and a size the caller found.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/types.h>

#include "cli.h"
#include "profiles.h"
#include "xalloc.h"

#define MIB		1048576.0

/* The numeric keys, with the figure each sets and its unit's scale. */
static const struct
{
	const char *key;
	ProfileFigure fig;
	double		scale;
	const char *meaning;
}			numeric_keys[] = {
	{"iops", PF_IOPS, 1, "baseline requests a second"},
	{"mib_s", PF_BYTES_S, MIB, "baseline MiB/s (2^20 bytes)"},
	{"mb_s", PF_BYTES_S, 1e6, "baseline MB/s (10^6 bytes)"},
	{"burst_iops", PF_BURST_IOPS, 1, "requests a second while a burst allowance lasts"},
	{"burst_mib_s", PF_BURST_BYTES_S, MIB, "MiB/s while a burst allowance lasts"},
	{"burst_mb_s", PF_BURST_BYTES_S, 1e6, "MB/s while a burst allowance lasts"},
	{"iops_per_gib", PF_IOPS_PER_GIB, 1, "baseline requests a second per GiB of the volume"},
	{"min_iops", PF_MIN_IOPS, 1, "the least baseline of iops_per_gib"},
	{"size_gib", PF_SIZE_GIB, 1, "the volume's size, GiB"},
	{"max_iops", PF_MAX_IOPS, 1, "the most requests a second the volume can be given"},
	{"max_mib_s", PF_MAX_BYTES_S, MIB, "the most MiB/s the volume can be given"},
	{"max_mb_s", PF_MAX_BYTES_S, 1e6, "the most MB/s the volume can be given"},
	{"max_mib_s_per_iops", PF_MAX_MIB_S_PER_IOPS, 1, "the most MiB/s per provisioned request a second"},
	{"request_kib", PF_REQUEST_KIB, 1, "the largest request the volume counts as one, KiB"},
	{"latency_ms", PF_LATENCY_MS, 1, "the stated latency of one request, ms"},
};

#define NNUMERIC ((int) (sizeof(numeric_keys) / sizeof(numeric_keys[0])))

static const char *const text_keys = "description, source, status (check), burst (none)";

static char *
key_list(void)
{
	char	   *s = xstrdup("");

	for (int i = 0; i < NNUMERIC; i++)
	{
		char	   *more = xprintf("%s%s, ", s, numeric_keys[i].key);

		free(s);
		s = more;
	}
	{
		char	   *more = xprintf("%s%s", s, text_keys);

		free(s);
		s = more;
	}
	return s;
}

static Profile *
profile_new(const char *name, const char *origin)
{
	Profile    *p = xmalloc(sizeof(Profile));

	p->name = xstrdup(name);
	p->origin = xstrdup(origin);
	for (int i = 0; i < PF_NFIGURES; i++)
	{
		p->fig[i] = NAN;
		p->scale[i] = 1;
	}
	return p;
}

static Profile *
profile_copy(const Profile *from, const char *origin)
{
	Profile    *p = xmalloc(sizeof(Profile));

	*p = *from;
	p->name = xstrdup(from->name);
	p->description = xstrdup(from->description);
	p->source = xstrdup(from->source);
	p->origin = xstrdup(origin);
	p->overrides = NULL;
	return p;
}

void
profile_free(Profile *p)
{
	if (p == NULL)
		return;
	free(p->name);
	free(p->description);
	free(p->source);
	free(p->origin);
	free(p->overrides);
	free(p);
}

/* The set's profiles and its array; the set is left empty. */
void
profiles_free(ProfileSet *set)
{
	for (int i = 0; i < set->n; i++)
		profile_free(set->p[i]);
	free(set->p);
	set->p = NULL;
	set->n = set->cap = 0;
}

static void
set_put(ProfileSet *set, Profile *p)
{
	for (int i = 0; i < set->n; i++)
		if (strcasecmp(set->p[i]->name, p->name) == 0)
		{
			profile_free(set->p[i]);
			set->p[i] = p;		/* a later file's profile replaces it */
			return;
		}
	if (set->p == NULL)
	{
		set->cap = 16;
		set->p = xmalloc(sizeof(Profile *) * (size_t) set->cap);
	}
	else if (set->n + 1 >= set->cap)
	{
		size_t		cap = (size_t) set->cap;

		set->p = xreserve(set->p, (size_t) set->n, 1, &cap, sizeof(Profile *));
		set->cap = (int) cap;
	}
	set->p[set->n++] = p;
}

Profile *
profiles_find(const ProfileSet *set, const char *name)
{
	for (int i = 0; i < set->n; i++)
		if (strcasecmp(set->p[i]->name, name) == 0)
			return set->p[i];
	return NULL;
}

/* The profiles' names, comma-separated, for a message. */
char *
profiles_names(const ProfileSet *set)
{
	char	   *s = xstrdup("");

	for (int i = 0; i < set->n; i++)
	{
		char	   *more = xprintf("%s%s%s", s, i ? ", " : "", set->p[i]->name);

		free(s);
		s = more;
	}
	return s;
}

static bool
valid_name(const char *s)
{
	if (*s == '\0')
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char) *s) && *s != '_' && *s != '-' && *s != '.')
			return false;
	return true;
}

static char *
trim(char *s)
{
	char	   *end;

	while (*s == ' ' || *s == '\t')
		s++;
	end = s + strlen(s);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r' || end[-1] == '\n'))
		*--end = '\0';
	return s;
}

/*
 * One key = value of a profile; *given marks the figures set by this
 * source (a file's section, or one --storage), so that a figure given
 * twice there is an error, not a silent choice.  NULL, or what is wrong.
 */
static char *
set_key(Profile *p, const char *key, const char *value, bool *given, bool in_file)
{
	for (int i = 0; i < NNUMERIC; i++)
	{
		double		v;
		char	   *end;
		ProfileFigure f = numeric_keys[i].fig;

		if (strcmp(key, numeric_keys[i].key) != 0)
			continue;
		errno = 0;
		v = strtod(value, &end);
		if (!plain_decimal(value, true) || errno || *end || !isfinite(v) || v <= 0)
			return xprintf("%s = \"%s\": must be a number above 0 (%s)", key, value,
						   numeric_keys[i].meaning);
		if (given[f])
			return xprintf("%s: %s given twice", key, numeric_keys[i].meaning);
		given[f] = true;
		p->fig[f] = v * numeric_keys[i].scale;
		p->scale[f] = numeric_keys[i].scale;
		return NULL;
	}
	if (strcmp(key, "burst") == 0)
	{
		if (strcmp(value, "none") != 0)
			return xprintf("burst = \"%s\": must be none (the volume has no burst allowance); "
						   "a burst's figures are burst_iops, burst_mib_s, burst_mb_s", value);
		p->no_burst = true;
		return NULL;
	}
	if (in_file && strcmp(key, "description") == 0)
	{
		free(p->description);		/* given again: the last one, as before */
		p->description = xstrdup(value);
		return NULL;
	}
	if (in_file && strcmp(key, "source") == 0)
	{
		if (*value == '\0')
			return xstrdup("source is empty: name the vendor's page or document");
		free(p->source);		/* given again: the last one, as before */
		p->source = xstrdup(value);
		return NULL;
	}
	if (in_file && strcmp(key, "status") == 0)
	{
		if (strcmp(value, "check") != 0)
			return xprintf("status = \"%s\": must be check (stated by the vendor, check the source)",
						   value);
		p->check = true;
		return NULL;
	}
	if (!in_file && (strcmp(key, "description") == 0 || strcmp(key, "source") == 0 ||
					 strcmp(key, "status") == 0))
		return xprintf("%s can be given in a profiles file, not in --storage", key);
	{
		char	   *keys = key_list();
		char	   *msg = xprintf("unknown key \"%s\" (known: %s)", key, keys);

		free(keys);
		return msg;
	}
}

/* The section ends: what every profile of a file needs. */
static char *
end_section(Profile *p, const char *path, int line, const bool *given)
{
	if (p->source == NULL)
		return xprintf("%s:%d: profile \"%s\" has no source (the vendor's page or document its figures are from)",
					   path, line, p->name);
	if (p->no_burst && (given[PF_BURST_IOPS] || given[PF_BURST_BYTES_S]))
		return xprintf("%s:%d: profile \"%s\" says burst = none and gives a burst's figures",
					   path, line, p->name);
	return NULL;
}

/*
 * The profiles of one file, added to the set (a name seen before, in an
 * earlier file, is replaced).  A file that does not exist is no error
 * with missing_ok (the installed one, where it was not installed).
 */
bool
profiles_read(ProfileSet *set, const char *path, bool missing_ok, char **error)
{
	FILE	   *f = fopen(path, "r");
	char	   *buf = NULL;
	size_t		bufsize = 0;
	ssize_t		len;
	int			line = 0;
	int			start = 0;
	Profile    *cur = NULL;
	bool		given[PF_NFIGURES];
	ProfileSet	mine = {0};

	*error = NULL;
	if (f == NULL)
	{
		if (missing_ok && errno == ENOENT)
			return true;
		*error = xprintf("could not open the profiles file \"%s\": %s", path, strerror(errno));
		return false;
	}
	while ((len = getline(&buf, &bufsize, f)) >= 0)
	{
		char	   *s,
				   *eq;

		line++;
		if (memchr(buf, '\0', (size_t) len))
		{
			*error = xprintf("%s:%d: a NUL byte: not a text file", path, line);
			break;
		}
		s = trim(buf);
		if (*s == '\0' || *s == '#' || *s == ';')
			continue;
		if (*s == '[')
		{
			char	   *close = strchr(s, ']');

			if (cur && (*error = end_section(cur, path, start, given)) != NULL)
				break;
			if (close == NULL || close[1] != '\0')
			{
				*error = xprintf("%s:%d: a section is [NAME] alone on its line", path, line);
				break;
			}
			*close = '\0';
			s = trim(s + 1);
			if (!valid_name(s))
			{
				*error = xprintf("%s:%d: invalid profile name \"%s\": letters, digits, '_', '-' and '.' only",
								 path, line, s);
				break;
			}
			if (profiles_find(&mine, s))
			{
				*error = xprintf("%s:%d: profile \"%s\" is given twice in this file", path, line, s);
				break;
			}
			{
				char	   *origin = xprintf("%s:%d", path, line);

				cur = profile_new(s, origin);
				free(origin);
			}
			set_put(&mine, cur);
			memset(given, 0, sizeof(given));
			start = line;
			continue;
		}
		eq = strchr(s, '=');
		if (eq == NULL)
		{
			*error = xprintf("%s:%d: expected [NAME] or KEY = VALUE, found \"%s\"", path, line, s);
			break;
		}
		if (cur == NULL)
		{
			*error = xprintf("%s:%d: \"%s\" before the first [NAME]", path, line, s);
			break;
		}
		*eq = '\0';
		{
			char	   *msg = set_key(cur, trim(s), trim(eq + 1), given, true);

			if (msg)
			{
				*error = xprintf("%s:%d: profile \"%s\": %s", path, line, cur->name, msg);
				free(msg);
				break;
			}
		}
	}
	if (*error == NULL && ferror(f))
		*error = xprintf("could not read the profiles file \"%s\": %s", path, strerror(errno));
	else if (*error == NULL && cur)
		*error = end_section(cur, path, start, given);
	free(buf);
	fclose(f);
	if (*error)
	{
		profiles_free(&mine);
		return false;
	}
	for (int i = 0; i < mine.n; i++)
		set_put(set, mine.p[i]);
	free(mine.p);
	return true;
}

/*
 * --storage NAME or NAME:KEY=VALUE,...: the profile, or a copy of it with
 * those figures; a name no file has, with figures, is a profile of the
 * command line's alone.
 */
Profile *
profile_from_spec(ProfileSet *set, const char *spec, char **error)
{
	char	   *copy = xstrdup(spec);
	char	   *colon = strchr(copy, ':');
	char	   *name = copy;
	Profile    *base,
			   *p;
	bool		given[PF_NFIGURES] = {0};

	*error = NULL;
	if (colon)
		*colon = '\0';
	if (!valid_name(name))
	{
		*error = xprintf("invalid storage \"%s\": NAME or NAME:KEY=VALUE,... (a name of letters, digits, '_', '-' and '.')",
						 spec);
		free(copy);
		return NULL;
	}
	base = profiles_find(set, name);
	if (base == NULL && (colon == NULL || colon[1] == '\0'))
	{
		char	   *names = profiles_names(set);

		*error = set->n
			? xprintf("unknown storage profile \"%s\" (known: %s; or give its figures: %s:mib_s=...,iops=...)",
					  name, names, name)
			: xprintf("unknown storage profile \"%s\": no profiles were read (give its figures: %s:mib_s=...,iops=..., or --profiles FILE)",
					  name, name);
		free(names);
		free(copy);
		return NULL;
	}
	if (colon == NULL)
	{
		free(copy);
		return base;
	}
	if (base)
		p = profile_copy(base, "--storage");
	else
	{
		p = profile_new(name, "--storage");
		p->source = xstrdup("given on the command line");
	}
	p->overrides = xstrdup(colon + 1);
	for (char *item = strtok(colon + 1, ","); item; item = strtok(NULL, ","))
	{
		char	   *eq = strchr(item, '=');
		char	   *msg;

		if (eq == NULL)
		{
			*error = xprintf("invalid storage \"%s\": \"%s\" is not KEY=VALUE", spec, item);
			profile_free(p);
			free(copy);
			return NULL;
		}
		*eq = '\0';
		msg = set_key(p, trim(item), trim(eq + 1), given, false);
		if (msg)
		{
			*error = xprintf("invalid storage \"%s\": %s", spec, msg);
			free(msg);
			profile_free(p);
			free(copy);
			return NULL;
		}
	}
	/* A baseline given anew makes a per-GiB one the file gave moot. */
	if (given[PF_IOPS] && !given[PF_IOPS_PER_GIB])
		p->fig[PF_IOPS_PER_GIB] = NAN;
	free(copy);
	return p;
}

static const char *
bytes_unit(const Profile *p, ProfileFigure f)
{
	return p->scale[f] == 1e6 ? "MB/s" : "MiB/s";
}

static double
in_unit(const Profile *p, ProfileFigure f)
{
	return p->fig[f] / (p->scale[f] == 1e6 ? 1e6 : MIB);
}

VolumeLimit
profile_baseline(const Profile *p)
{
	VolumeLimit v = {p->fig[PF_IOPS], p->fig[PF_BYTES_S]};

	if (isnan(v.iops) && !isnan(p->fig[PF_IOPS_PER_GIB]) && !isnan(p->fig[PF_SIZE_GIB]))
	{
		v.iops = p->fig[PF_IOPS_PER_GIB] * p->fig[PF_SIZE_GIB];
		if (!isnan(p->fig[PF_MIN_IOPS]) && v.iops < p->fig[PF_MIN_IOPS])
			v.iops = p->fig[PF_MIN_IOPS];
		if (!isnan(p->fig[PF_MAX_IOPS]) && v.iops > p->fig[PF_MAX_IOPS])
			v.iops = p->fig[PF_MAX_IOPS];
	}
	return v;
}

bool
profile_has_burst(const Profile *p)
{
	return !p->no_burst && (!isnan(p->fig[PF_BURST_IOPS]) || !isnan(p->fig[PF_BURST_BYTES_S]));
}

/* The burst's limits: the baseline's where the profile states none. */
VolumeLimit
profile_burst(const Profile *p)
{
	VolumeLimit v = profile_baseline(p);

	if (!profile_has_burst(p))
		return v;
	if (!isnan(p->fig[PF_BURST_IOPS]))
		v.iops = isnan(v.iops) ? p->fig[PF_BURST_IOPS] : fmax(v.iops, p->fig[PF_BURST_IOPS]);
	if (!isnan(p->fig[PF_BURST_BYTES_S]))
		v.bytes_s = isnan(v.bytes_s) ? p->fig[PF_BURST_BYTES_S] : fmax(v.bytes_s, p->fig[PF_BURST_BYTES_S]);
	return v;
}

/*
 * The profile can be measured against: a baseline stated, within what
 * the volume can be provisioned with.
 */
bool
profile_check(const Profile *p, char **error)
{
	VolumeLimit v = profile_baseline(p);

	*error = NULL;
	if (isnan(v.iops) && isnan(v.bytes_s))
	{
		if (!isnan(p->fig[PF_IOPS_PER_GIB]))
			*error = xprintf("storage profile \"%s\" states its baseline per GiB: give the volume's size (--storage '%s:size_gib=N')",
							 p->name, p->name);
		else
			*error = xprintf("storage profile \"%s\" states no limit for this volume: give its figures (--storage '%s:mib_s=N,iops=N')",
							 p->name, p->name);
		return false;
	}
	if (!isnan(p->fig[PF_MAX_IOPS]) && !isnan(v.iops) && v.iops > p->fig[PF_MAX_IOPS])
		*error = xprintf("storage profile \"%s\": %.0f IOPS is above the %.0f the volume can be given",
						 p->name, v.iops, p->fig[PF_MAX_IOPS]);
	else if (!isnan(p->fig[PF_MAX_BYTES_S]) && !isnan(v.bytes_s) && v.bytes_s > p->fig[PF_MAX_BYTES_S] * 1.000001)
		*error = xprintf("storage profile \"%s\": %g %s is above the %g %s the volume can be given",
						 p->name, in_unit(p, PF_BYTES_S), bytes_unit(p, PF_BYTES_S),
						 in_unit(p, PF_MAX_BYTES_S), bytes_unit(p, PF_MAX_BYTES_S));
	else if (!isnan(p->fig[PF_MAX_MIB_S_PER_IOPS]) && !isnan(v.bytes_s) && !isnan(v.iops) &&
			 v.bytes_s > p->fig[PF_MAX_MIB_S_PER_IOPS] * MIB * v.iops * 1.000001)
		*error = xprintf("storage profile \"%s\": %g %s needs at least %.0f IOPS (%g MiB/s per IOPS at most), not %.0f",
						 p->name, in_unit(p, PF_BYTES_S), bytes_unit(p, PF_BYTES_S),
						 ceil(v.bytes_s / MIB / p->fig[PF_MAX_MIB_S_PER_IOPS]),
						 p->fig[PF_MAX_MIB_S_PER_IOPS], v.iops);
	return *error == NULL;
}

/*
 * The bytes a second a volume of these limits gives to requests of
 * request_bytes: the smaller of its byte limit and its request limit
 * times the request's size.  *by_requests says which binds.  NAN when
 * neither can be known (a request limit alone, no request size).
 */
double
profile_limit(VolumeLimit v, double request_bytes, bool *by_requests)
{
	double		by_iops = (!isnan(v.iops) && request_bytes > 0) ? v.iops * request_bytes : NAN;

	*by_requests = false;
	if (isnan(by_iops))
		return v.bytes_s;
	if (isnan(v.bytes_s) || by_iops < v.bytes_s)
	{
		*by_requests = true;
		return by_iops;
	}
	return v.bytes_s;
}

static char *
append(char *s, const char *more)
{
	char	   *r = xprintf("%s%s%s", s, *s ? ", " : "", more);

	free(s);
	return r;
}

/* "3000 IOPS, 125 MiB/s; burst: none", as a person reads it. */
char *
profile_describe(const Profile *p)
{
	VolumeLimit v = profile_baseline(p);
	char	   *s = xstrdup("");
	char		buf[128];
	char	   *r;

	if (!isnan(v.iops))
	{
		snprintf(buf, sizeof(buf), "%.0f IOPS", v.iops);
		s = append(s, buf);
		if (isnan(p->fig[PF_IOPS]) && !isnan(p->fig[PF_IOPS_PER_GIB]))
		{
			snprintf(buf, sizeof(buf), "(%g per GiB of %g GiB)", p->fig[PF_IOPS_PER_GIB],
					 p->fig[PF_SIZE_GIB]);
			r = xprintf("%s %s", s, buf);
			free(s);
			s = r;
		}
	}
	else if (!isnan(p->fig[PF_IOPS_PER_GIB]))
	{
		snprintf(buf, sizeof(buf), "%g IOPS per GiB", p->fig[PF_IOPS_PER_GIB]);
		s = append(s, buf);
	}
	if (!isnan(v.bytes_s))
	{
		snprintf(buf, sizeof(buf), "%g %s", in_unit(p, PF_BYTES_S), bytes_unit(p, PF_BYTES_S));
		s = append(s, buf);
	}
	if (*s == '\0')
		s = append(s, "no figures (give them with --storage)");
	if (p->no_burst)
		r = xprintf("%s; burst: none", s);
	else if (profile_has_burst(p))
	{
		char	   *b = xstrdup("");

		if (!isnan(p->fig[PF_BURST_IOPS]))
		{
			snprintf(buf, sizeof(buf), "%.0f IOPS", p->fig[PF_BURST_IOPS]);
			b = append(b, buf);
		}
		if (!isnan(p->fig[PF_BURST_BYTES_S]))
		{
			snprintf(buf, sizeof(buf), "%g %s", in_unit(p, PF_BURST_BYTES_S),
					 bytes_unit(p, PF_BURST_BYTES_S));
			b = append(b, buf);
		}
		r = xprintf("%s; burst: %s", s, b);
		free(b);
	}
	else
		r = xprintf("%s; burst: not stated", s);
	free(s);
	return r;
}

/* The profile as --storage would give it: "gp3:iops=6000,mib_s=250". */
char *
profile_spec(const Profile *p)
{
	return p->overrides ? xprintf("%s:%s", p->name, p->overrides) : xstrdup(p->name);
}
