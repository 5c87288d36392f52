/*-------------------------------------------------------------------------
 *
 * procstat.c
 *	  CPU time and I/O bytes of the processes that do a scan's work, read
 *	  from /proc over one measured interval: this backend, its parallel
 *	  workers and, from PostgreSQL 18 with io_method=worker, the I/O
 *	  workers.
 *
 * Sources, per process: /proc/PID/stat utime and stime (CPU, in clock
 * ticks, usually 10 ms), /proc/PID/io read_bytes (what the kernel fetched
 * from storage on the process's behalf) and rchar (what its read calls
 * returned, page cache hits included).  This backend's own CPU, and its
 * wait for a CPU, come more precisely from clock.c.
 *
 * Parallel workers start after the interval begins and have exited, and
 * been reaped by the postmaster, before the leader's ExecutorEnd returns
 * (DestroyParallelContext waits for the postmaster to report each worker
 * stopped).  Linux adds a reaped child's CPU to its parent's cutime and
 * cstime, and its I/O counters to the parent's /proc/PID/io, so the
 * postmaster's growth over the interval holds the workers' whole lives,
 * start-up and shutdown included.  It also holds any other child of the
 * postmaster that exited in the same interval (another session
 * disconnecting, an autovacuum worker finishing): on a busy server that
 * is noise in the parallel figures, never in this backend's own.
 *
 * I/O workers are long-lived children of the postmaster shared by every
 * backend; they are found by their process title ("postgres: io worker
 * N", possibly with the cluster name before it) and read at both ends of
 * the interval.  Their CPU over the interval includes reads done for
 * other sessions at the same time.
 *
 * Anything that cannot be read (no /proc, another uid, a process gone) is
 * reported as unknown, never as an error: these figures explain a
 * measurement, they are not worth failing it.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include "miscadmin.h"
#include "postmaster/postmaster.h"
#include "utils/guc.h"

#include "procstat.h"

/*
 * Read a small /proc or /sys file into buf, NUL-terminated; false if
 * unreadable or empty.  cgroup.c reads its control files with it too.
 */
bool
sb_read_small_file(const char *path, char *buf, size_t size)
{
	int			fd;
	ssize_t		n;
	size_t		len = 0;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return false;
	while (len < size - 1 && (n = read(fd, buf + len, size - 1 - len)) > 0)
		len += n;
	close(fd);
	buf[len] = '\0';
	return len > 0;
}

/*
 * /proc/PID/stat: the fields after the command name, which may itself
 * hold spaces and parentheses, so parsing starts after the last ')'.
 * Fields counted from 1 as in proc(5): 4 ppid, 14 utime, 15 stime,
 * 16 cutime, 17 cstime.
 */
static bool
read_stat(pid_t pid, pid_t *ppid, SbProcUsage *own, SbProcUsage *reaped)
{
	char		path[64];
	char		buf[1024];
	char	   *p;
	unsigned long long f[18];
	int			field;
	double		tick = (double) sysconf(_SC_CLK_TCK);

	snprintf(path, sizeof(path), "/proc/%d/stat", (int) pid);
	if (!sb_read_small_file(path, buf, sizeof(buf)) || tick <= 0)
		return false;
	p = strrchr(buf, ')');
	if (p == NULL)
		return false;
	p += 2;						/* past ") " to field 3, the state */
	while (*p && *p != ' ')
		p++;
	for (field = 4; field <= 17; field++)
	{
		char	   *end;

		f[field] = strtoull(p, &end, 10);
		if (end == p)
			return false;
		p = end;
	}
	if (ppid)
		*ppid = (pid_t) f[4];
	if (own)
	{
		own->cpu_ok = true;
		own->user_s = f[14] / tick;
		own->sys_s = f[15] / tick;
	}
	if (reaped)
	{
		reaped->cpu_ok = true;
		reaped->user_s = f[16] / tick;
		reaped->sys_s = f[17] / tick;
	}
	return true;
}

/* /proc/PID/io: rchar and read_bytes. */
static void
read_io(pid_t pid, SbProcUsage *u)
{
	char		path[64];
	char		buf[1024];
	char	   *p;
	bool		have_rchar = false,
				have_read = false;

	u->io_ok = false;
	snprintf(path, sizeof(path), "/proc/%d/io", (int) pid);
	if (!sb_read_small_file(path, buf, sizeof(buf)))
		return;
	if ((p = strstr(buf, "rchar: ")) != NULL)
	{
		u->rchar = strtoull(p + 7, NULL, 10);
		have_rchar = true;
	}
	if ((p = strstr(buf, "\nread_bytes: ")) != NULL)
	{
		u->read_bytes = strtoull(p + 13, NULL, 10);
		have_read = true;
	}
	u->io_ok = have_rchar && have_read;
}

/* Whether a child of the postmaster is an I/O worker, by its title. */
static bool
is_io_worker(pid_t pid)
{
	char		path[64];
	char		buf[256];

	snprintf(path, sizeof(path), "/proc/%d/cmdline", (int) pid);
	if (!sb_read_small_file(path, buf, sizeof(buf)))
		return false;
	/* The title ends at the first NUL; the rest is padding. */
	return strncmp(buf, "postgres: ", 10) == 0 && strstr(buf, "io worker") != NULL;
}

/*
 * I/O workers do the reads only under io_method=worker, which exists from
 * PostgreSQL 18 on; asking the setting by name keeps this free of version
 * tests.
 */
static bool
io_workers_in_use(void)
{
	const char *method = GetConfigOption("io_method", true, false);

	return method != NULL && strcmp(method, "worker") == 0;
}

static void
find_io_workers(SbProcSnap *snap)
{
	DIR		   *dir;
	struct dirent *de;

	snap->nio = 0;
	snap->io_ok = false;
	if (!io_workers_in_use())
		return;
	dir = opendir("/proc");
	if (dir == NULL)
		return;
	while ((de = readdir(dir)) != NULL && snap->nio < SB_MAX_IO_WORKERS)
	{
		pid_t		pid;
		pid_t		ppid;
		SbProcUsage u = {0};

		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		pid = (pid_t) atoi(de->d_name);
		if (!read_stat(pid, &ppid, &u, NULL) || ppid != PostmasterPid ||
			!is_io_worker(pid))
			continue;
		read_io(pid, &u);
		snap->io_pids[snap->nio] = pid;
		snap->io[snap->nio] = u;
		snap->nio++;
	}
	closedir(dir);
	snap->io_ok = (snap->nio > 0);
}

static void
usage_diff(SbProcUsage *out, const SbProcUsage *end, const SbProcUsage *start)
{
	out->cpu_ok = start->cpu_ok && end->cpu_ok;
	out->user_s = out->cpu_ok ? end->user_s - start->user_s : 0;
	out->sys_s = out->cpu_ok ? end->sys_s - start->sys_s : 0;
	out->io_ok = start->io_ok && end->io_ok;
	out->rchar = out->io_ok ? end->rchar - start->rchar : 0;
	out->read_bytes = out->io_ok ? end->read_bytes - start->read_bytes : 0;
}

/*
 * Take the starting readings.  Done before the clock starts, since finding
 * the I/O workers walks /proc.
 */
void
sb_procstat_start(SbProcSnap *snap)
{
	memset(snap, 0, sizeof(SbProcSnap));
	read_stat(MyProcPid, NULL, &snap->self, NULL);
	read_io(MyProcPid, &snap->self);
	read_stat(PostmasterPid, NULL, NULL, &snap->reaped);
	read_io(PostmasterPid, &snap->reaped);
	find_io_workers(snap);
}

/*
 * Take the closing readings and turn both into growth over the interval:
 * this backend, the postmaster's reaped children (the parallel workers)
 * and the I/O workers, those found at the start and those started since.
 * An I/O worker that exited in between drops out of the sum; if none is
 * left the figure is unknown.
 */
void
sb_procstat_stop(SbProcSnap *snap, SbProcDelta *delta)
{
	SbProcUsage end = {0};
	int			i;
	int			nread = 0;

	memset(delta, 0, sizeof(SbProcDelta));
	read_stat(MyProcPid, NULL, &end, NULL);
	read_io(MyProcPid, &end);
	usage_diff(&delta->self, &end, &snap->self);

	memset(&end, 0, sizeof(end));
	read_stat(PostmasterPid, NULL, NULL, &end);
	read_io(PostmasterPid, &end);
	usage_diff(&delta->parallel, &end, &snap->reaped);

	delta->io_workers.cpu_ok = io_workers_in_use();
	delta->io_workers.io_ok = delta->io_workers.cpu_ok;
	for (i = 0; i < snap->nio; i++)
	{
		SbProcUsage one;
		pid_t		ppid;

		memset(&end, 0, sizeof(end));
		if (!read_stat(snap->io_pids[i], &ppid, &end, NULL) ||
			ppid != PostmasterPid)
			continue;
		read_io(snap->io_pids[i], &end);
		usage_diff(&one, &end, &snap->io[i]);
		if (one.cpu_ok)
		{
			delta->io_workers.user_s += one.user_s;
			delta->io_workers.sys_s += one.sys_s;
		}
		if (one.io_ok)
		{
			delta->io_workers.rchar += one.rchar;
			delta->io_workers.read_bytes += one.read_bytes;
		}
		else
			delta->io_workers.io_ok = false;
		nread++;
	}

	/*
	 * From 19 the pool grows between io_min_workers and io_max_workers as
	 * reads queue up (a new worker every io_worker_launch_interval at
	 * most), and shrinks after io_worker_idle_timeout: a worker that was
	 * not there at the start was started during the interval, and all it
	 * did counts.
	 */
	if (delta->io_workers.cpu_ok)
	{
		SbProcSnap *now = palloc0(sizeof(SbProcSnap));
		int			j;

		find_io_workers(now);
		for (j = 0; j < now->nio; j++)
		{
			bool		known = false;

			for (i = 0; i < snap->nio && !known; i++)
				known = (snap->io_pids[i] == now->io_pids[j]);
			if (known || !now->io[j].cpu_ok)
				continue;
			delta->io_workers.user_s += now->io[j].user_s;
			delta->io_workers.sys_s += now->io[j].sys_s;
			if (now->io[j].io_ok)
			{
				delta->io_workers.rchar += now->io[j].rchar;
				delta->io_workers.read_bytes += now->io[j].read_bytes;
			}
			else
				delta->io_workers.io_ok = false;
			nread++;
		}
		pfree(now);
	}
	if (nread == 0)
	{
		delta->io_workers.cpu_ok = false;
		delta->io_workers.io_ok = false;
	}
	delta->nio = nread;
}
