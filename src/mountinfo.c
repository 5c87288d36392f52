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
 * Fill *m for the filesystem holding path (relative to the data directory
 * or absolute).  Returns false, with m->note saying why, when the file or
 * /proc/self/mountinfo cannot be read or no line matches; never errors.
 */
bool
sb_mount_lookup(const char *path, SbMount *m)
{
	struct stat st;
	char		real[PATH_MAX];
	FILE	   *mi;
	char		line[8192];
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

	mi = AllocateFile("/proc/self/mountinfo", "r");
	if (mi == NULL)
	{
		m->note = psprintf("could not read /proc/self/mountinfo: %m");
		return false;
	}

	/*
	 * A line reads: id parent major:minor root mountpoint options
	 * [optional fields...] - fstype source superoptions
	 */
	while (fgets(line, sizeof(line), mi) != NULL)
	{
		unsigned int maj,
					min;
		char		mountpoint[4096];
		char		opts[2048];
		char		type[256];
		char		source[4096];
		char		superopts[2048];
		char	   *sep;
		bool		prefix;
		size_t		len;

		if (sscanf(line, "%*d %*d %u:%u %*s %4095s %2047s",
				   &maj, &min, mountpoint, opts) != 4)
			continue;
		if (maj != m->dev_major || min != m->dev_minor)
			continue;
		sep = strstr(line, " - ");
		if (sep == NULL)
			continue;
		superopts[0] = '\0';
		if (sscanf(sep + 3, "%255s %4095s %2047s", type, source, superopts) < 2)
			continue;
		unescape_octal(mountpoint);
		unescape_octal(source);

		/* Prefer a mount the file's path goes through, then the deepest. */
		prefix = path_under(real, mountpoint);
		len = strlen(mountpoint);
		if (m->fstype != NULL &&
			((best_prefix && !prefix) ||
			 (prefix == best_prefix && len < best_len)))
			continue;
		best_prefix = prefix;
		best_len = len;
		m->mount_point = pstrdup(mountpoint);
		m->fstype = pstrdup(type);
		m->source = pstrdup(source);
		m->options = merge_options(opts, superopts);
	}
	FreeFile(mi);

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
