/*-------------------------------------------------------------------------
 *
 * cgroup.h
 *	  The limits a control group puts on this server process: a CPU quota
 *	  and the I/O throttles of a block device, and how long the group was
 *	  held back by its quota (cgroup.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCANBENCH_CGROUP_H
#define SCANBENCH_CGROUP_H

/*
 * Limits of this process's groups, the tightest on the way from its own
 * group up to the root.  A limit that is not set is -1.  version is 1 or
 * 2 for the hierarchy the CPU limit (cpu_version) or the I/O limits
 * (io_version) were read from, 0 where no group file could be read.
 */
typedef struct SbCgroupLimits
{
	int			cpu_version;
	int64		cpu_quota_us;	/* CPU time allowed per period */
	int64		cpu_period_us;
	int			io_version;
	char		device[32];		/* "MAJ:MIN" the throttles were read for */
	int64		read_bps;
	int64		write_bps;
	int64		read_iops;
	int64		write_iops;
} SbCgroupLimits;

/*
 * cpu.stat of the group whose quota applies (this process's own group when
 * none does): periods in which it ran out of quota and the time it spent
 * held back.  ok is false where the file could not be read.
 */
typedef struct SbCgroupCpuStat
{
	bool		ok;
	int64		nr_periods;		/* periods in which the group ran */
	int64		nr_throttled;	/* of them, those it ran out of quota */
	double		throttled_s;
} SbCgroupCpuStat;

extern void sb_cgroup_limits(const char *path, SbCgroupLimits *limits);
extern void sb_cgroup_cpu_stat(SbCgroupCpuStat *stat);
extern double sb_cgroup_read_rate(const SbCgroupLimits *limits, int block_size);
extern double sb_cgroup_path_read_rate(const char *path, int block_size);
/*
 * Seconds of a read throttle's rate read untimed before a side is timed:
 * the kernel lets a slice's worth (100 ms) through at once, and a little
 * more as a slice starts.
 */
#define SB_THROTTLE_ALLOWANCE_S	0.15

extern uint64 sb_cgroup_allowance_reads(const char *path, int block_size,
										double seconds);
extern double sb_cgroup_cpus(const SbCgroupLimits *limits);
extern bool sb_cgroup_io_reads(const char *device, int64 *ios, int64 *bytes);
extern void sb_cgroup_limit_dirs(const char *path, char *cpu_dir,
								 char *io_dir, size_t size);

#endif							/* SCANBENCH_CGROUP_H */
