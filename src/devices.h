/*-------------------------------------------------------------------------
 *
 * devices.h
 *	  The layers under a file: the filesystem, then each block device below
 *	  it, from /sys (devices.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCANBENCH_DEVICES_H
#define SCANBENCH_DEVICES_H

#include "nodes/pg_list.h"

/*
 * One layer under a file: the filesystem, then each block device below
 * it.  Unknown numbers are -1, unknown strings NULL.
 */
typedef struct SbLayer
{
	int			level;			/* 0: the filesystem; devices below */
	const char *kind;			/* filesystem, partition, lvm, dm, crypt,
								 * md, loop, disk */
	char	   *name;			/* mount source, or kernel device name */
	char	   *parent;			/* name of the layer above, NULL at 0 */
	char	   *major_minor;
	char	   *mount_point;	/* filesystems */
	char	   *fstype;
	char	   *mount_options;
	char	   *dm_name;		/* device-mapper */
	char	   *raid_level;		/* md */
	char	   *backing_file;	/* loop */
	int			rotational;		/* 0, 1, or -1 */
	char	   *scheduler;
	int64		read_ahead_kb;
	int64		nr_requests;
	int64		logical_block_size;
	int64		physical_block_size;
	int64		max_sectors_kb;
	int64		size_bytes;
	char	   *note;
} SbLayer;

extern List *sb_storage_layers(const char *path);
extern char *sb_file_bdi_dir(const char *path);
extern int64 sb_file_read_ahead_kb(const char *path);

#endif							/* SCANBENCH_DEVICES_H */
