/*-------------------------------------------------------------------------
 *
 * storage.h
 *	  What sits under the data and how it behaves: the mount and the block
 *	  device chain (mountinfo.c, devices.c), timed random I/O (randio.c)
 *	  and the scratch-file tests of storage_profile (profile.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCANBENCH_STORAGE_H
#define SCANBENCH_STORAGE_H

#include "nodes/pg_list.h"

#include "measure.h"

/* Largest random_ops / reads accepted: 10 million. */
#define SB_MAX_RANDOM_OPS	10000000

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

/* One file of a random I/O run: chunks of block_size, from offset 0. */
typedef struct SbRandomFile
{
	int			fd;
	uint64		chunks;
	uint64		base;			/* reported offsets are base + offset */
} SbRandomFile;

typedef struct SbRandomResult
{
	uint64		ops;
	uint64		bytes;
	bool		repeats;		/* more ops than chunks: some read twice */
	SbTiming	timing;
	double		p50_us;
	double		p95_us;
	double		p99_us;
	uint64		min_offset;
	uint64		max_offset;
} SbRandomResult;

/* mountinfo.c */
extern bool sb_mount_lookup(const char *path, SbMount *m);

/* devices.c */
extern List *sb_storage_layers(const char *path);

/* randio.c */
extern void sb_random_io(SbRandomFile *files, int nfiles, int block_size,
						 uint64 ops, bool write, SbRandomResult *r);

/* profile.c */
extern Oid	sb_check_write_tablespace(Oid spc);
extern double sb_write_mb_s(Oid spc, uint64 bytes, int block_size);

/* storage_info.c */
extern char *sb_tablespace_dir(Oid spc);
extern Oid	sb_target_tablespace(SbTarget *target);

#endif							/* SCANBENCH_STORAGE_H */
