/*-------------------------------------------------------------------------
 *
 * mountinfo.h
 *	  The mount under a file, from /proc/self/mountinfo (mountinfo.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCANBENCH_MOUNTINFO_H
#define SCANBENCH_MOUNTINFO_H

/* One mount, from /proc/self/mountinfo. */
typedef struct SbMount
{
	char	   *mount_point;
	char	   *fstype;
	char	   *source;			/* as mountinfo names it: /dev/sda1, tmpfs */
	char	   *options;		/* per-mount then filesystem options */
	unsigned int dev_major;		/* st_dev of the file looked up */
	unsigned int dev_minor;
	char	   *note;			/* why something is missing, or NULL */
} SbMount;

/* One line of /proc/self/mountinfo, its fields unescaped (\040 a space). */
typedef struct SbMountLine
{
	unsigned int dev_major;
	unsigned int dev_minor;
	char	   *root;			/* of the mount within its filesystem */
	char	   *mount_point;
	char	   *options;		/* per-mount */
	char	   *fstype;
	char	   *source;
	char	   *super_options;	/* the filesystem's */
} SbMountLine;

extern SbMountLine *sb_mountinfo(int *n);
extern bool sb_mount_lookup(const char *path, SbMount *m);
extern void sb_mount_of(const char *path, char **fstype, char **device);

#endif							/* SCANBENCH_MOUNTINFO_H */
