/*
 * profiles.h: storage profiles, the published limits of a volume as data
 * (profiles.c): the profiles file, a profile's lookup, the --storage
 * override, and the limit a profile gives at a request size.
 */
#ifndef SCANBENCH_PROBE_PROFILES_H
#define SCANBENCH_PROBE_PROFILES_H

#include <stdbool.h>

/* A profile's figures, each NAN where the profile does not state it. */
typedef enum ProfileFigure
{
	PF_IOPS,					/* baseline requests a second */
	PF_BYTES_S,					/* baseline bytes a second */
	PF_BURST_IOPS,				/* what a burst allowance lifts them to */
	PF_BURST_BYTES_S,
	PF_IOPS_PER_GIB,			/* a baseline that grows with the volume's size */
	PF_MIN_IOPS,
	PF_SIZE_GIB,
	PF_MAX_IOPS,				/* the most the volume can be provisioned with */
	PF_MAX_BYTES_S,
	PF_MAX_MIB_S_PER_IOPS,
	PF_REQUEST_KIB,				/* the largest request the volume counts as one */
	PF_LATENCY_MS,				/* stated latency of one request */
	PF_NFIGURES
} ProfileFigure;

typedef struct Profile
{
	char	   *name;
	char	   *description;
	char	   *source;			/* the vendor's page or document */
	bool		check;			/* status = check: stated by the vendor, not
								 * confirmed here: check the source */
	bool		no_burst;		/* burst = none: the volume has no burst */
	double		fig[PF_NFIGURES];
	double		scale[PF_NFIGURES];	/* bytes figures: 1048576 if stated in
									 * MiB/s, 1e6 in MB/s */
	char	   *origin;			/* FILE:LINE, or --storage */
	char	   *overrides;		/* the --storage figures, as given; or NULL */
} Profile;

typedef struct ProfileSet
{
	Profile   **p;
	int			n;
	int			cap;
} ProfileSet;

/* A volume's limit: requests and bytes a second, NAN where not stated. */
typedef struct VolumeLimit
{
	double		iops;
	double		bytes_s;
} VolumeLimit;

extern bool profiles_read(ProfileSet *set, const char *path, bool missing_ok, char **error);
extern void profile_free(Profile *p);
extern void profiles_free(ProfileSet *set);
extern Profile *profiles_find(const ProfileSet *set, const char *name);
extern char *profiles_names(const ProfileSet *set);
extern Profile *profile_from_spec(ProfileSet *set, const char *spec, char **error);
extern bool profile_check(const Profile *p, char **error);
extern VolumeLimit profile_baseline(const Profile *p);
extern VolumeLimit profile_burst(const Profile *p);
extern bool profile_has_burst(const Profile *p);
extern double profile_limit(VolumeLimit v, double request_bytes, bool *by_requests);
extern char *profile_describe(const Profile *p);
extern char *profile_spec(const Profile *p);

#endif							/* SCANBENCH_PROBE_PROFILES_H */
