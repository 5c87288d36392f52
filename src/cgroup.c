/*-------------------------------------------------------------------------
 *
 * cgroup.c
 *	  The limits a control group puts on this server process, read from
 *	  the group files the kernel keeps: a CPU quota, the I/O throttles of
 *	  the device under a path, and the time the group was held back by its
 *	  quota.
 *
 * Why: a container (Kubernetes, CloudNativePG, systemd's CPUQuota=) or a
 * cloud volume's throttle gives a server a CPU and a disk smaller than the
 * machine's.  A rate measured there is what the server gets, and right for
 * it; but a figure that does not say so reads as the device's speed or the
 * executor's cost.  These readings make the limit a fact beside the rate.
 *
 * Where: /proc/self/cgroup names this process's group in each hierarchy.
 * cgroup v1 keeps one hierarchy per controller ("4:cpu,cpuacct:/lab",
 * "7:blkio:/lab"), v2 a single one ("0::/lab").  Both are found, and the
 * mount that serves them, in /proc/self/mountinfo; the group's directory
 * is the mount point plus the group's path below the mount's root.  A
 * machine may have both (the hybrid layout, v2 mounted with no
 * controllers): a v1 controller that names the process wins, v2 is read
 * otherwise.
 *
 * What: a limit set on a parent group binds its children too, so each is
 * the tightest from this process's group up to the mount point.
 *   CPU      v1 cpu.cfs_quota_us / cpu.cfs_period_us (-1: none)
 *            v2 cpu.max "QUOTA PERIOD" ("max": none)
 *   I/O      v1 blkio.throttle.{read,write}_{bps,iops}_device "MAJ:MIN N"
 *            v2 io.max "MAJ:MIN rbps=N wbps=N riops=N wiops=N" ("max": none)
 *   held back  cpu.stat: v1 nr_throttled, throttled_time (ns);
 *            v2 nr_throttled, throttled_usec
 * A throttle is set on a whole disk (the kernel refuses one on a
 * partition), so for a file on a partition the disk's throttles are read
 * too, and the tighter applies.  A limit that applies to a device further
 * down a device-mapper or md stack is not followed.
 *
 * Anything unreadable (no /proc, no cgroup mount, a file gone because the
 * group was removed) is "no limit known", never an error: these readings
 * explain a figure, they are not worth failing it.  No file here blocks.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <fcntl.h>
#include <math.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "cgroup.h"
#include "mountinfo.h"
#include "procstat.h"

#define SB_CG_PATH	1024

/* Which hierarchy to look in. */
typedef enum SbCgController
{
	SB_CG_CPU,
	SB_CG_IO
} SbCgController;

/* Whether word is one of the comma-separated items of list. */
static bool
in_list(const char *list, size_t len, const char *word)
{
	size_t		wl = strlen(word);
	const char *p = list;
	const char *end = list + len;

	while (p < end)
	{
		const char *comma = memchr(p, ',', end - p);
		size_t		il = (comma ? comma : end) - p;

		if (il == wl && strncmp(p, word, wl) == 0)
			return true;
		p += il + 1;
	}
	return false;
}

/*
 * This process's group path in the hierarchy that serves the controller
 * (v1's "cpu" or "blkio" line, else v2's "0::" line) and that hierarchy's
 * version; false if /proc/self/cgroup has neither.
 */
static bool
own_group(SbCgController which, char *group, size_t size, int *version)
{
	const char *v1name = which == SB_CG_CPU ? "cpu" : "blkio";
	char		buf[4096];
	char	   *line;
	char	   *save;
	bool		have_v2 = false;
	char		v2path[SB_CG_PATH];

	if (!sb_read_small_file("/proc/self/cgroup", buf, sizeof(buf)))
		return false;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
	{
		char	   *c1 = strchr(line, ':');
		char	   *c2 = c1 ? strchr(c1 + 1, ':') : NULL;

		if (c2 == NULL)
			continue;
		if (strncmp(line, "0:", 2) == 0 && c2 == c1 + 1)
		{
			strlcpy(v2path, c2 + 1, sizeof(v2path));
			have_v2 = true;
		}
		else if (in_list(c1 + 1, c2 - c1 - 1, v1name))
		{
			strlcpy(group, c2 + 1, size);
			*version = 1;
			return true;
		}
	}
	if (!have_v2)
		return false;
	strlcpy(group, v2path, size);
	*version = 2;
	return true;
}

/*
 * The mount point of the hierarchy (v1 with the controller among its
 * super options, or v2) and the mount's root within it.
 */
static bool
hierarchy_mount(SbCgController which, int version, char *mnt, char *root,
				size_t size)
{
	const char *v1name = which == SB_CG_CPU ? "cpu" : "blkio";
	SbMountLine *lines;
	int			n,
				i;

	lines = sb_mountinfo(&n);
	for (i = 0; lines != NULL && i < n; i++)
	{
		SbMountLine *l = &lines[i];

		if (version == 2 ? strcmp(l->fstype, "cgroup2") == 0 :
			(strcmp(l->fstype, "cgroup") == 0 &&
			 in_list(l->super_options, strlen(l->super_options), v1name)))
		{
			strlcpy(mnt, l->mount_point, size);
			strlcpy(root, l->root, size);
			return true;
		}
	}
	return false;
}

/*
 * This process's group directory for the controller: false if there is
 * none to read.
 */
static bool
group_dir(SbCgController which, char *dir, size_t size, char *mnt,
		  int *version)
{
	char		group[SB_CG_PATH];
	char		root[SB_CG_PATH];
	const char *rel;
	struct stat st;

	if (!own_group(which, group, sizeof(group), version) ||
		!hierarchy_mount(which, *version, mnt, root, SB_CG_PATH))
		return false;
	/* Below a mount whose root is a group, paths start with that root. */
	rel = group;
	if (strcmp(root, "/") != 0 && strncmp(group, root, strlen(root)) == 0)
		rel = group + strlen(root);
	snprintf(dir, size, "%s%s%s", mnt, (*rel == '/' || *rel == '\0') ? "" : "/", rel);
	/* A group outside this mount namespace's view: read the mount's own. */
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
		strlcpy(dir, mnt, size);
	return true;
}

/* Step dir up one level; false once it is the mount point. */
static bool
parent_dir(char *dir, const char *mnt)
{
	char	   *slash;

	if (strlen(dir) <= strlen(mnt))
		return false;
	slash = strrchr(dir, '/');
	if (slash == NULL || slash < dir + strlen(mnt))
		return false;
	*slash = '\0';
	return true;
}

/* "max" or a negative number: no limit (-1). */
static int64
limit_value(const char *s)
{
	long long	v;

	if (strncmp(s, "max", 3) == 0)
		return -1;
	v = strtoll(s, NULL, 10);
	return v > 0 ? (int64) v : (v == 0 ? 0 : -1);
}

/* The CPU quota of one group directory, as quota and period; -1 none. */
static void
dir_cpu(const char *dir, int version, int64 *quota, int64 *period)
{
	char		path[SB_CG_PATH + 32];
	char		buf[128];

	*quota = *period = -1;
	if (version == 1)
	{
		snprintf(path, sizeof(path), "%s/cpu.cfs_quota_us", dir);
		if (!sb_read_small_file(path, buf, sizeof(buf)))
			return;
		*quota = limit_value(buf);
		snprintf(path, sizeof(path), "%s/cpu.cfs_period_us", dir);
		if (sb_read_small_file(path, buf, sizeof(buf)))
			*period = limit_value(buf);
	}
	else
	{
		char	   *sp;

		snprintf(path, sizeof(path), "%s/cpu.max", dir);
		if (!sb_read_small_file(path, buf, sizeof(buf)))
			return;
		*quota = limit_value(buf);
		sp = strchr(buf, ' ');
		if (sp)
			*period = limit_value(sp + 1);
	}
	if (*quota <= 0 || *period <= 0)
		*quota = *period = -1;
}

/* Keep the tighter of two limits, -1 meaning none. */
static void
tighten(int64 *have, int64 v)
{
	if (v >= 0 && (*have < 0 || v < *have))
		*have = v;
}

/* v1: the value for dev in one blkio.throttle.*_device file. */
static int64
v1_device_value(const char *dir, const char *file, const char *dev)
{
	char		path[SB_CG_PATH + 64];
	char		buf[4096];
	char	   *line;
	char	   *save;
	size_t		dl = strlen(dev);

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	if (!sb_read_small_file(path, buf, sizeof(buf)))
		return -1;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (strncmp(line, dev, dl) == 0 && line[dl] == ' ')
			return limit_value(line + dl + 1);
	return -1;
}

/* v2: the value of key= on dev's line of io.max. */
static int64
v2_device_value(const char *buf, const char *dev, const char *key)
{
	size_t		dl = strlen(dev);
	const char *p = buf;

	while (p && *p)
	{
		const char *eol = strchr(p, '\n');

		if (strncmp(p, dev, dl) == 0 && p[dl] == ' ')
		{
			char		line[512];
			char	   *k;

			strlcpy(line, p, Min(sizeof(line), (size_t) ((eol ? eol : p + strlen(p)) - p + 1)));
			k = strstr(line, key);
			return k ? limit_value(k + strlen(key)) : -1;
		}
		p = eol ? eol + 1 : NULL;
	}
	return -1;
}

static void
dir_io(const char *dir, int version, const char *dev, SbCgroupLimits *l)
{
	if (version == 1)
	{
		tighten(&l->read_bps, v1_device_value(dir, "blkio.throttle.read_bps_device", dev));
		tighten(&l->write_bps, v1_device_value(dir, "blkio.throttle.write_bps_device", dev));
		tighten(&l->read_iops, v1_device_value(dir, "blkio.throttle.read_iops_device", dev));
		tighten(&l->write_iops, v1_device_value(dir, "blkio.throttle.write_iops_device", dev));
	}
	else
	{
		char		path[SB_CG_PATH + 16];
		char		buf[4096];

		snprintf(path, sizeof(path), "%s/io.max", dir);
		if (!sb_read_small_file(path, buf, sizeof(buf)))
			return;
		tighten(&l->read_bps, v2_device_value(buf, dev, "rbps="));
		tighten(&l->write_bps, v2_device_value(buf, dev, "wbps="));
		tighten(&l->read_iops, v2_device_value(buf, dev, "riops="));
		tighten(&l->write_iops, v2_device_value(buf, dev, "wiops="));
	}
}

/*
 * The device under path as "MAJ:MIN" and, for a partition, its disk's;
 * returns how many were found (0 to 2).
 */
static int
devices_of(const char *path, char devs[2][32])
{
	struct stat st;
	char		sys[128];
	char		buf[64];
	int			n = 0;

	if (stat(path, &st) != 0)
		return 0;
	snprintf(devs[n++], 32, "%u:%u", major(st.st_dev), minor(st.st_dev));
	snprintf(sys, sizeof(sys), "/sys/dev/block/%s/partition", devs[0]);
	if (access(sys, F_OK) == 0)
	{
		snprintf(sys, sizeof(sys), "/sys/dev/block/%s/../dev", devs[0]);
		if (sb_read_small_file(sys, buf, sizeof(buf)))
		{
			buf[strcspn(buf, "\n")] = '\0';
			strlcpy(devs[n++], buf, 32);
		}
	}
	return n;
}

/*
 * The directory of the group whose quota binds this process (the
 * tightest on the way up), or its own group's where none does; cached
 * for cpu.stat, which is read twice around every timed pass.
 */
static char cpu_stat_dir[SB_CG_PATH];
static int	cpu_stat_version;

static void
find_cpu(SbCgroupLimits *l)
{
	char		dir[SB_CG_PATH];
	char		mnt[SB_CG_PATH];
	double		best = -1;

	l->cpu_version = 0;
	l->cpu_quota_us = l->cpu_period_us = -1;
	cpu_stat_dir[0] = '\0';
	if (!group_dir(SB_CG_CPU, dir, sizeof(dir), mnt, &l->cpu_version))
	{
		l->cpu_version = 0;
		return;
	}
	cpu_stat_version = l->cpu_version;
	strlcpy(cpu_stat_dir, dir, sizeof(cpu_stat_dir));
	do
	{
		int64		q,
					p;

		dir_cpu(dir, l->cpu_version, &q, &p);
		if (q > 0 && (best < 0 || (double) q / p < best))
		{
			best = (double) q / p;
			l->cpu_quota_us = q;
			l->cpu_period_us = p;
			strlcpy(cpu_stat_dir, dir, sizeof(cpu_stat_dir));
		}
	} while (parent_dir(dir, mnt));
}

/*
 * The limits that apply to this process and, for the I/O throttles, to
 * the device holding path (relative to the data directory, or absolute).
 */
void
sb_cgroup_limits(const char *path, SbCgroupLimits *l)
{
	char		dir[SB_CG_PATH];
	char		mnt[SB_CG_PATH];
	char		devs[2][32];
	int			ndev;
	int			i;

	memset(l, 0, sizeof(SbCgroupLimits));
	l->read_bps = l->write_bps = l->read_iops = l->write_iops = -1;
	find_cpu(l);

	ndev = devices_of(path, devs);
	if (ndev == 0)
		return;
	strlcpy(l->device, devs[ndev - 1], sizeof(l->device));
	if (!group_dir(SB_CG_IO, dir, sizeof(dir), mnt, &l->io_version))
	{
		l->io_version = 0;
		return;
	}
	do
	{
		for (i = 0; i < ndev; i++)
			dir_io(dir, l->io_version, devs[i], l);
	} while (parent_dir(dir, mnt));
}

/*
 * Where the binding limits are set, so that advice can name the file to
 * change: the directory of the group whose CPU quota binds this process
 * and of the group with the tightest read throttle of the device under
 * path; "" where there is no such limit.
 */
void
sb_cgroup_limit_dirs(const char *path, char *cpu_dir, char *io_dir, size_t size)
{
	SbCgroupLimits l;
	char		dir[SB_CG_PATH];
	char		mnt[SB_CG_PATH];
	char		devs[2][32];
	int64		best = -1;
	int			ndev;
	int			i;

	cpu_dir[0] = io_dir[0] = '\0';
	memset(&l, 0, sizeof(l));
	find_cpu(&l);
	if (l.cpu_quota_us > 0)
		strlcpy(cpu_dir, cpu_stat_dir, size);

	ndev = devices_of(path, devs);
	if (ndev == 0 || !group_dir(SB_CG_IO, dir, sizeof(dir), mnt, &l.io_version))
		return;
	do
	{
		SbCgroupLimits here;

		here.read_bps = here.write_bps = here.read_iops = here.write_iops = -1;
		for (i = 0; i < ndev; i++)
			dir_io(dir, l.io_version, devs[i], &here);
		if (here.read_bps >= 0 && (best < 0 || here.read_bps < best))
		{
			best = here.read_bps;
			strlcpy(io_dir, dir, size);
		}
	} while (parent_dir(dir, mnt));
}

/*
 * The reads of block_size bytes a second the group's read limits allow,
 * the fewer of its requests and its bytes a second; HUGE_VAL for none.
 */
double
sb_cgroup_read_rate(const SbCgroupLimits *l, int block_size)
{
	double		rate = HUGE_VAL;

	if (l->read_iops > 0)
		rate = (double) l->read_iops;
	if (l->read_bps > 0)
		rate = Min(rate, (double) l->read_bps / block_size);
	return rate;
}

/*
 * Reads of block_size a second the group's read throttle allows the file
 * at path; HUGE_VAL where nothing throttles it.
 */
double
sb_cgroup_path_read_rate(const char *path, int block_size)
{
	SbCgroupLimits limits;

	sb_cgroup_limits(path, &limits);
	return sb_cgroup_read_rate(&limits, block_size);
}

/*
 * Reads of block_size the group's read throttle lets through in seconds,
 * for the file at path; 0 where nothing throttles it.  A side read untimed
 * before it is timed drains the throttle's first allowance this way: the
 * kernel lets a slice's worth through at once, which would otherwise be
 * timed at memory speed.
 */
uint64
sb_cgroup_allowance_reads(const char *path, int block_size, double seconds)
{
	double		rate = sb_cgroup_path_read_rate(path, block_size);

	return rate < HUGE_VAL ? (uint64) ceil(seconds * rate) : 0;
}

/* The CPUs the quota allows (0.25 for 25 ms of 100 ms); NaN for none. */
double
sb_cgroup_cpus(const SbCgroupLimits *l)
{
	if (l->cpu_quota_us <= 0 || l->cpu_period_us <= 0)
		return NAN;
	return (double) l->cpu_quota_us / l->cpu_period_us;
}

/*
 * cpu.stat of the group whose quota binds this process.  The group is
 * found on first use and kept: a backend does not change groups, and the
 * reading must cost no more than a file read inside a timed pass.
 */
void
sb_cgroup_cpu_stat(SbCgroupCpuStat *s)
{
	static bool looked = false;
	char		path[SB_CG_PATH + 16];
	char		buf[1024];
	char	   *p;

	memset(s, 0, sizeof(SbCgroupCpuStat));
	if (!looked)
	{
		SbCgroupLimits l;

		find_cpu(&l);
		looked = true;
	}
	if (cpu_stat_dir[0] == '\0')
		return;
	snprintf(path, sizeof(path), "%s/cpu.stat", cpu_stat_dir);
	if (!sb_read_small_file(path, buf, sizeof(buf)))
		return;
	if ((p = strstr(buf, "nr_periods ")) != NULL)
		s->nr_periods = strtoll(p + 11, NULL, 10);
	if ((p = strstr(buf, "nr_throttled ")) != NULL)
		s->nr_throttled = strtoll(p + 13, NULL, 10);
	if (cpu_stat_version == 1 && (p = strstr(buf, "throttled_time ")) != NULL)
	{
		s->throttled_s = strtoll(p + 15, NULL, 10) / 1e9;
		s->ok = true;
	}
	else if (cpu_stat_version == 2 && (p = strstr(buf, "throttled_usec ")) != NULL)
	{
		s->throttled_s = strtoll(p + 15, NULL, 10) / 1e6;
		s->ok = true;
	}
}

/*
 * The read requests and bytes this process's own I/O group has sent to
 * device ("MAJ:MIN") so far: v1 blkio.throttle.io_serviced and
 * io_service_bytes, v2 io.stat's rios and rbytes.  They are counted where
 * the throttle counts them, after the kernel has merged and split the
 * reads into requests, so that their rate can be set beside a read_iops
 * limit.  The group is found on first use and kept, as for cpu.stat.
 * False where the counters cannot be read.
 */
static bool
v1_read_counter(const char *dir, const char *file, const char *dev,
				int64 *value)
{
	char		path[SB_CG_PATH + 64];
	char		buf[8192];
	char	   *line;
	char	   *save;
	size_t		dl = strlen(dev);

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	if (!sb_read_small_file(path, buf, sizeof(buf)))
		return false;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (strncmp(line, dev, dl) == 0 && strncmp(line + dl, " Read ", 6) == 0)
		{
			*value = strtoll(line + dl + 6, NULL, 10);
			return true;
		}
	*value = 0;					/* the group has sent the device nothing yet */
	return true;
}

bool
sb_cgroup_io_reads(const char *device, int64 *ios, int64 *bytes)
{
	static bool looked = false;
	static char io_dir[SB_CG_PATH];
	static int	io_version;
	char		mnt[SB_CG_PATH];

	*ios = *bytes = 0;
	if (!looked)
	{
		if (!group_dir(SB_CG_IO, io_dir, sizeof(io_dir), mnt, &io_version))
			io_dir[0] = '\0';
		looked = true;
	}
	if (io_dir[0] == '\0' || device[0] == '\0')
		return false;
	if (io_version == 1)
		return v1_read_counter(io_dir, "blkio.throttle.io_serviced", device, ios) &&
			v1_read_counter(io_dir, "blkio.throttle.io_service_bytes", device, bytes);
	else
	{
		char		path[SB_CG_PATH + 16];
		char		buf[8192];
		int64		v;

		snprintf(path, sizeof(path), "%s/io.stat", io_dir);
		if (!sb_read_small_file(path, buf, sizeof(buf)))
			return false;
		v = v2_device_value(buf, device, "rios=");
		*ios = Max(v, 0);
		v = v2_device_value(buf, device, "rbytes=");
		*bytes = Max(v, 0);
		return true;
	}
}
