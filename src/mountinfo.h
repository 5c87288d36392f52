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

extern bool sb_mount_lookup(const char *path, SbMount *m);
extern void sb_mount_of(const char *path, char **fstype, char **device);

#endif							/* SCANBENCH_MOUNTINFO_H */
