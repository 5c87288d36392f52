/*-------------------------------------------------------------------------
 *
 * mountinfo.c
 *	  What holds a file: the filesystem type and the block device, read
 *	  from /proc/self/mountinfo by the file's device number.
 *
 * statfs() alone cannot tell ext2 from ext4 (one magic number), and a
 * mount point found by path prefix can be wrong under bind mounts; the
 * device number of the file itself picks the right mountinfo line.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "storage/fd.h"

#include "measure.h"

/*
 * Set *fstype and *device for the filesystem holding path (relative to the
 * data directory or absolute).  Either is set to NULL when unknown.
 */
void
sb_mount_of(const char *path, char **fstype, char **device)
{
	struct stat st;
	FILE	   *mi;
	char		line[4096];
	size_t		best_len = 0;

	*fstype = NULL;
	*device = NULL;

	if (path == NULL || stat(path, &st) != 0)
		return;
	mi = AllocateFile("/proc/self/mountinfo", "r");
	if (mi == NULL)
		return;

	/*
	 * A line reads: id parent major:minor root mountpoint options
	 * [optional fields...] - fstype source superoptions
	 */
	while (fgets(line, sizeof(line), mi) != NULL)
	{
		unsigned int maj,
					min;
		char		mountpoint[1024];
		char		type[256];
		char		source[1024];
		char	   *sep;

		if (sscanf(line, "%*d %*d %u:%u %*s %1023s", &maj, &min, mountpoint) != 3)
			continue;
		if (maj != major(st.st_dev) || min != minor(st.st_dev))
			continue;
		sep = strstr(line, " - ");
		if (sep == NULL || sscanf(sep + 3, "%255s %1023s", type, source) != 2)
			continue;

		/* Of several mounts of one device, the deepest mount point. */
		if (strlen(mountpoint) >= best_len)
		{
			best_len = strlen(mountpoint);
			*fstype = pstrdup(type);
			*device = pstrdup(source);
		}
	}
	FreeFile(mi);
}
