/*-------------------------------------------------------------------------
 *
 * devices.c
 *	  The chain of layers under a file, from its filesystem down to the
 *	  physical devices, read from /proc/self/mountinfo and /sys.
 *
 * The file's device number leads to /sys/dev/block/MAJ:MIN, a link into
 * the kernel's device tree.  From there: a partition's parent directory is
 * its disk; device-mapper (LVM, dm-crypt) and md RAID name their lower
 * devices in slaves/; a loop device names its backing file, which lives on
 * another filesystem whose chain follows in turn.  The queue/ attributes
 * (scheduler, read-ahead, request sizes) are the ones the block layer
 * applies to I/O through that device; a partition has none of its own and
 * shows its disk's.
 *
 * Nothing here raises an error: a file or directory that cannot be read
 * leaves NULLs and a note, since a container or a locked-down /sys must
 * not stop the rest of the report.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "storage/fd.h"

#include "devices.h"
#include "mountinfo.h"
#include "procstat.h"

/* A chain deeper than this is a loop in what /sys says. */
#define SB_MAX_DEPTH	12

static void add_filesystem(List **layers, const char *path, int level,
						   const char *parent, int depth);

/* First line of dir/file, without its newline, or NULL. */
static char *
read_sys(const char *dir, const char *file)
{
	char	   *path = psprintf("%s/%s", dir, file);
	char		buf[4096];
	char	   *result = NULL;

	if (sb_read_small_file(path, buf, sizeof(buf)))
	{
		buf[strcspn(buf, "\n")] = '\0';
		result = pstrdup(buf);
	}
	pfree(path);
	return result;
}

static int64
read_sys_int(const char *dir, const char *file)
{
	char	   *s = read_sys(dir, file);
	char	   *end;
	long long	v;

	if (s == NULL)
		return -1;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno != 0 || end == s)
		return -1;
	return (int64) v;
}

static bool
sys_exists(const char *dir, const char *file)
{
	char	   *path = psprintf("%s/%s", dir, file);
	bool		ok = access(path, F_OK) == 0;

	pfree(path);
	return ok;
}

/* "none [mq-deadline] kyber" -> "mq-deadline"; "none" -> "none". */
static char *
scheduler_in_use(const char *s)
{
	const char *open,
			   *close;

	if (s == NULL)
		return NULL;
	open = strchr(s, '[');
	close = open ? strchr(open, ']') : NULL;
	if (open && close)
		return pnstrdup(open + 1, close - open - 1);
	return pstrdup(s);
}

static char *
last_component(const char *path)
{
	const char *slash = strrchr(path, '/');

	return pstrdup(slash ? slash + 1 : path);
}

static char *
parent_dir(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? pnstrdup(path, slash - path) : pstrdup(".");
}

static SbLayer *
new_layer(int level, const char *kind, const char *parent)
{
	SbLayer    *l = palloc0(sizeof(SbLayer));

	l->level = level;
	l->kind = kind;
	l->parent = parent ? pstrdup(parent) : NULL;
	l->rotational = -1;
	l->read_ahead_kb = -1;
	l->nr_requests = -1;
	l->logical_block_size = -1;
	l->physical_block_size = -1;
	l->max_sectors_kb = -1;
	l->size_bytes = -1;
	return l;
}

/* The kind of a device-mapper target, from the prefix of its uuid. */
static const char *
dm_kind(const char *uuid)
{
	if (uuid == NULL)
		return "dm";
	if (strncmp(uuid, "LVM-", 4) == 0)
		return "lvm";
	if (strncmp(uuid, "CRYPT-", 6) == 0)
		return "crypt";
	if (strncmp(uuid, "mpath-", 6) == 0)
		return "multipath";
	return "dm";
}

/*
 * Add the device whose directory in the kernel's device tree is sysdir
 * (a resolved path), then what lies under it.
 */
static void
add_device(List **layers, const char *sysdir, int level, const char *parent,
		   int depth)
{
	SbLayer    *l;
	const char *queue_dir = sysdir;
	char	   *queue;
	char	   *dev;
	int64		sectors;

	if (depth > SB_MAX_DEPTH)
		return;

	l = new_layer(level, "disk", parent);
	l->name = last_component(sysdir);
	dev = read_sys(sysdir, "dev");
	l->major_minor = dev;

	if (sys_exists(sysdir, "partition"))
	{
		l->kind = "partition";
		queue_dir = parent_dir(sysdir);
		l->note = psprintf("queue settings are those of %s",
						   last_component(queue_dir));
	}
	else if (sys_exists(sysdir, "dm"))
	{
		char	   *dmdir = psprintf("%s/dm", sysdir);

		l->dm_name = read_sys(dmdir, "name");
		l->kind = dm_kind(read_sys(dmdir, "uuid"));
	}
	else if (sys_exists(sysdir, "md"))
	{
		char	   *mddir = psprintf("%s/md", sysdir);

		l->kind = "md";
		l->raid_level = read_sys(mddir, "level");
	}
	else if (strncmp(l->name, "loop", 4) == 0)
	{
		char	   *loopdir = psprintf("%s/loop", sysdir);

		l->kind = "loop";
		l->backing_file = read_sys(loopdir, "backing_file");
		if (l->backing_file == NULL)
			l->note = "no backing file (loop device not bound, or /sys/.../loop unreadable)";
	}

	queue = psprintf("%s/queue", queue_dir);
	l->rotational = (int) read_sys_int(queue, "rotational");
	l->scheduler = scheduler_in_use(read_sys(queue, "scheduler"));
	l->read_ahead_kb = read_sys_int(queue, "read_ahead_kb");
	l->nr_requests = read_sys_int(queue, "nr_requests");
	l->logical_block_size = read_sys_int(queue, "logical_block_size");
	l->physical_block_size = read_sys_int(queue, "physical_block_size");
	l->max_sectors_kb = read_sys_int(queue, "max_sectors_kb");
	/* size is in 512-byte sectors whatever the device's block size. */
	sectors = read_sys_int(sysdir, "size");
	l->size_bytes = sectors >= 0 ? sectors * 512 : -1;
	if (l->rotational < 0 && l->scheduler == NULL && l->note == NULL)
		l->note = psprintf("could not read %s", queue);

	*layers = lappend(*layers, l);

	/* What lies under it. */
	if (strcmp(l->kind, "partition") == 0)
		add_device(layers, queue_dir, level + 1, l->name, depth + 1);
	else if (strcmp(l->kind, "loop") == 0 && l->backing_file != NULL)
	{
		/* " (deleted)" marks a backing file unlinked while bound. */
		if (access(l->backing_file, F_OK) == 0)
			add_filesystem(layers, l->backing_file, level + 1, l->name,
						   depth + 1);
	}
	else
	{
		char	   *slaves = psprintf("%s/slaves", sysdir);
		DIR		   *dir = AllocateDir(slaves);
		struct dirent *de;

		/* DEBUG2: a missing slaves/ is normal and no error. */
		while ((de = ReadDirExtended(dir, slaves, DEBUG2)) != NULL)
		{
			char	   *link;
			char		real[PATH_MAX];

			if (de->d_name[0] == '.')
				continue;
			link = psprintf("%s/%s", slaves, de->d_name);
			if (realpath(link, real) != NULL)
				add_device(layers, real, level + 1, l->name, depth + 1);
		}
		if (dir != NULL)
			FreeDir(dir);
	}
}

/*
 * Add the filesystem holding path, then its block devices.
 */
static void
add_filesystem(List **layers, const char *path, int level,
			   const char *parent, int depth)
{
	SbLayer    *l = new_layer(level, "filesystem", parent);
	SbMount		m;
	char	   *link;
	char		real[PATH_MAX];
	bool		found;

	found = sb_mount_lookup(path, &m);
	l->name = m.source;
	l->mount_point = m.mount_point;
	l->fstype = m.fstype;
	l->mount_options = m.options;
	l->note = m.note;
	if (m.dev_major != 0 || m.dev_minor != 0 || found)
		l->major_minor = psprintf("%u:%u", m.dev_major, m.dev_minor);
	*layers = lappend(*layers, l);
	if (m.fstype == NULL && m.dev_major == 0 && m.dev_minor == 0)
		return;					/* could not even stat the file */

	/* The device the file's st_dev names. */
	link = psprintf("/sys/dev/block/%u:%u", m.dev_major, m.dev_minor);
	if (realpath(link, real) != NULL)
	{
		add_device(layers, real, level + 1, l->name, depth + 1);
		return;
	}

	/*
	 * Filesystems such as btrfs give their files an anonymous device
	 * number; their mount source may still be a block device.
	 */
	if (m.source != NULL && m.source[0] == '/')
	{
		struct stat st;

		if (stat(m.source, &st) == 0 && S_ISBLK(st.st_mode))
		{
			link = psprintf("/sys/dev/block/%u:%u",
							major(st.st_rdev), minor(st.st_rdev));
			if (realpath(link, real) != NULL)
			{
				add_device(layers, real, level + 1, l->name, depth + 1);
				return;
			}
		}
	}

	if (l->note != NULL)
		return;
	if (access("/sys/dev/block", R_OK) != 0)
		l->note = psprintf("could not read /sys/dev/block: %m");
	else if (m.fstype != NULL && strcmp(m.fstype, "tmpfs") == 0)
		l->note = "no block device: tmpfs keeps its files in memory";
	else
		l->note = psprintf("no block device: device %u:%u of this %s mount is not one",
						   m.dev_major, m.dev_minor,
						   m.fstype ? m.fstype : "unknown");
}

/*
 * Every layer under path (relative to the data directory or absolute), in
 * order from its filesystem down, as a List of SbLayer.
 */
List *
sb_storage_layers(const char *path)
{
	List	   *layers = NIL;

	add_filesystem(&layers, path, 0, NULL, 0);
	return layers;
}

/*
 * The backing device the page cache reads the file at path through,
 * /sys/class/bdi/MAJ:MIN: a disk's, or a FUSE or NFS mount's own, which no
 * block device stands for.  NULL where the file cannot be stat'ed.
 */
char *
sb_file_bdi_dir(const char *path)
{
	struct stat st;

	if (stat(path, &st) != 0)
		return NULL;
	return psprintf("/sys/class/bdi/%u:%u", major(st.st_dev), minor(st.st_dev));
}

/*
 * The read-ahead window the kernel gives buffered reads of the file at
 * path, kB: its backing device's (sb_file_bdi_dir); -1 where it cannot be
 * read.
 */
int64
sb_file_read_ahead_kb(const char *path)
{
	char	   *dir = sb_file_bdi_dir(path);
	int64		kb;

	if (dir == NULL)
		return -1;
	kb = read_sys_int(dir, "read_ahead_kb");
	pfree(dir);
	return kb;
}
