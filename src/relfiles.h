/*-------------------------------------------------------------------------
 *
 * relfiles.h
 *	  What one call measures: the named relation, its leaves and their
 *	  segment files, opened and locked (relfiles.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCANBENCH_RELFILES_H
#define SCANBENCH_RELFILES_H

#include "storage/block.h"
#include "utils/relcache.h"

#include "compat.h"

/* Which relations a caller accepts. */
typedef enum SbTargetKind
{
	SB_TARGET_FILES,			/* anything with files: raw reads */
	SB_TARGET_SCAN,				/* tables and matviews: executor scans */
	SB_TARGET_INDEX,			/* an index of a table the caller opened as
								 * SB_TARGET_SCAN: its SELECT is the gate */
	SB_TARGET_TOAST				/* the TOAST table or TOAST index of a table
								 * the caller opened as SB_TARGET_SCAN */
} SbTargetKind;

/*
 * A stretch of one segment file to read: by default the whole file up to
 * the size the relation had at the start.  Sampled measurement reads
 * chosen block ranges instead, as more, shorter stretches.
 */
typedef struct SbSegment
{
	char	   *path;			/* relative to the data directory */
	Oid			relid;			/* of the leaf the file belongs to */
	int			segno;
	off_t		offset;			/* where in the file the stretch begins */
	BlockNumber first_block;	/* relation block at that offset */
	off_t		bytes;			/* bytes to read from there */
} SbSegment;

/* A leaf relation with storage, opened with AccessShareLock. */
typedef struct SbLeaf
{
	Relation	rel;
	SbFileId	fileid;
	bool		local;			/* temp table: local buffers */
	BlockNumber nblocks;		/* at the start of the call */
	int			nsegments;
	SbSegment  *segments;
} SbLeaf;

/* What one call measures: the named relation and its leaves. */
typedef struct SbTarget
{
	Oid			relid;
	int			nleaves;
	SbLeaf	   *leaves;
	int			nsegments;		/* over all leaves */
	SbSegment **segments;		/* all leaves' segments, in leaf order */
	BlockNumber nblocks;		/* over all leaves */
	uint64		bytes;			/* nblocks * BLCKSZ */
} SbTarget;

extern SbTarget *sb_target_open(Oid relid, SbTargetKind kind);
extern void sb_target_close(SbTarget *target);
extern char *sb_target_first_path(SbTarget *target);
extern int	sb_open_segment(SbSegment *seg, bool direct, bool refuse_ok);
extern void sb_segment_check_size(int fd, const SbSegment *seg);
extern void sb_segment_short_read(const SbSegment *seg, off_t done);

#endif							/* SCANBENCH_RELFILES_H */
