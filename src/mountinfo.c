/*-------------------------------------------------------------------------
 *
 * mountinfo.c
 *	  What holds a file: the mount, its filesystem type, source and
 *	  options, read from /proc/self/mountinfo by the file's device number.
 *
 * statfs() alone cannot tell ext2 from ext4 (one magic number), and a
 * mount point found by path prefix can be wrong under bind mounts; the
 * device number of the file itself picks the right mountinfo lines, and
 * of several mounts of that device the one whose mount point is the
 * longest prefix of the file's real path is the one the file is reached
 * through.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "lib/stringinfo.h"
#include "storage/fd.h"

#include "mountinfo.h"

/*
 * mountinfo escapes space, tab, newline and backslash as \ooo octal;
 * undo that in place.
 */
static void
unescape_octal(char *s)
{
	char	   *out = s;

	while (*s)
	{
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '7' &&
			s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7')
		{
			*out++ = (char) (((s[1] - '0') << 6) | ((s[2] - '0') << 3) | (s[3] - '0'));
			s += 4;
		}
		else
			*out++ = *s++;
	}
	*out = '\0';
}

/* Does mount point mp contain path (both absolute)? */
static bool
path_under(const char *path, const char *mp)
{
	size_t		len = strlen(mp);

	if (strcmp(mp, "/") == 0)
		return true;
	return strncmp(path, mp, len) == 0 && (path[len] == '/' || path[len] == '\0');
}

/*
 * The options of one mount: the per-mount ones (rw, noatime, ...) then the
 * filesystem's own (data=ordered, discard, ...) that are not already there.
 */
static char *
merge_options(const char *mount_opts, const char *super_opts)
{
	StringInfoData buf;
	char	   *copy = pstrdup(super_opts);
	char	   *tok;
	char	   *save = NULL;

	initStringInfo(&buf);
	appendStringInfoString(&buf, mount_opts);
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
	{
		char	   *probe = psprintf(",%s,", tok);
		char	   *have = psprintf(",%s,", buf.data);

		if (strstr(have, probe) == NULL)
			appendStringInfo(&buf, ",%s", tok);
		pfree(probe);
		pfree(have);
	}
	pfree(copy);
	return buf.data;
}

/*
 * Every line of /proc/self/mountinfo, its fields unescaped, the one reader
 * of that file (cgroup.c finds its hierarchies here too); NULL where the
 * file cannot be read, with errno set.  A line reads:
 *   id parent major:minor root mountpoint options [optional fields...]
 *   - fstype source superoptions
 */
SbMountLine *
sb_mountinfo(int *n)
{
	FILE	   *mi = AllocateFile("/proc/self/mountinfo", "r");
	SbMountLine *lines;
	int			size = 64;
	char		line[8192];

	*n = 0;
	if (mi == NULL)
		return NULL;
	lines = palloc(sizeof(SbMountLine) * size);
	while (fgets(line, sizeof(line), mi) != NULL)
	{
		SbMountLine *l;
		char		root[4096];
		char		mountpoint[4096];
		char		opts[2048];
		char		type[256];
		char		source[4096];
		char		superopts[2048];
		unsigned int maj,
					min;
		char	   *sep = strstr(line, " - ");

		superopts[0] = '\0';
		if (sep == NULL ||
			sscanf(line, "%*d %*d %u:%u %4095s %4095s %2047s",
				   &maj, &min, root, mountpoint, opts) != 5 ||
			sscanf(sep + 3, "%255s %4095s %2047s", type, source, superopts) < 2)
			continue;
		if (*n == size)
		{
			size *= 2;
			lines = repalloc(lines, sizeof(SbMountLine) * size);
		}
		l = &lines[(*n)++];
		unescape_octal(root);
		unescape_octal(mountpoint);
		unescape_octal(source);
		l->dev_major = maj;
		l->dev_minor = min;
		l->root = pstrdup(root);
		l->mount_point = pstrdup(mountpoint);
		l->options = pstrdup(opts);
		l->fstype = pstrdup(type);
		l->source = pstrdup(source);
		l->super_options = pstrdup(superopts);
	}
	FreeFile(mi);
	return lines;
}

/*
 * Fill *m for the filesystem holding path (relative to the data directory
 * or absolute).  Returns false, with m->note saying why, when the file or
 * /proc/self/mountinfo cannot be read or no line matches; never errors.
 */
bool
sb_mount_lookup(const char *path, SbMount *m)
{
	struct stat st;
	char		real[PATH_MAX];
	SbMountLine *lines;
	int			n,
				i;
	size_t		best_len = 0;
	bool		best_prefix = false;

	memset(m, 0, sizeof(SbMount));
	if (path == NULL)
	{
		m->note = "no file to look up";
		return false;
	}
	if (stat(path, &st) != 0)
	{
		m->note = psprintf("could not stat \"%s\": %m", path);
		return false;
	}
	m->dev_major = major(st.st_dev);
	m->dev_minor = minor(st.st_dev);
	if (realpath(path, real) == NULL)
		strlcpy(real, path, sizeof(real));

	lines = sb_mountinfo(&n);
	if (lines == NULL)
	{
		m->note = psprintf("could not read /proc/self/mountinfo: %m");
		return false;
	}
	for (i = 0; i < n; i++)
	{
		SbMountLine *l = &lines[i];
		bool		prefix;
		size_t		len;

		if (l->dev_major != m->dev_major || l->dev_minor != m->dev_minor)
			continue;
		/* Prefer a mount the file's path goes through, then the deepest. */
		prefix = path_under(real, l->mount_point);
		len = strlen(l->mount_point);
		if (m->fstype != NULL &&
			((best_prefix && !prefix) ||
			 (prefix == best_prefix && len < best_len)))
			continue;
		best_prefix = prefix;
		best_len = len;
		m->mount_point = l->mount_point;
		m->fstype = l->fstype;
		m->source = l->source;
		m->options = merge_options(l->options, l->super_options);
	}

	if (m->fstype == NULL)
	{
		m->note = psprintf("no line of /proc/self/mountinfo has device %u:%u",
						   m->dev_major, m->dev_minor);
		return false;
	}
	return true;
}

/*
 * Set *fstype and *device for the filesystem holding path.  Either is set
 * to NULL when unknown.
 */
void
sb_mount_of(const char *path, char **fstype, char **device)
{
	SbMount		m;

	sb_mount_lookup(path, &m);
	*fstype = m.fstype;
	*device = m.source;
}
