/*-------------------------------------------------------------------------
 *
 * scratchdir.h
 *	  A directory of this backend's own for scratch files, inside a
 *	  tablespace's pgsql_tmp (scratchdir.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCANBENCH_SCRATCHDIR_H
#define SCANBENCH_SCRATCHDIR_H

typedef struct SbScratchDir
{
	char		base[MAXPGPATH];	/* the tablespace's pgsql_tmp */
	char		path[MAXPGPATH];	/* ours, inside it */
	bool		created_base;	/* pgsql_tmp goes too when ours goes */
	bool		exists;
} SbScratchDir;

/*
 * Use:
 *		sb_scratch_dir_create(spc, &dir);
 *		PG_ENSURE_ERROR_CLEANUP(sb_scratch_dir_cleanup, PointerGetDatum(&dir));
 *		{
 *			sb_scratch_file_path(&dir, "name", path, sizeof(path));
 *			file = PathNameCreateTemporaryFile(path, true);
 *			...
 *		}
 *		PG_END_ENSURE_ERROR_CLEANUP(sb_scratch_dir_cleanup, PointerGetDatum(&dir));
 *		FileClose(file);
 *		sb_scratch_dir_remove(&dir);
 */
extern void sb_scratch_dir_create(Oid spc, SbScratchDir *dir);
extern void sb_scratch_dir_remove(SbScratchDir *dir);
extern void sb_scratch_dir_cleanup(int code, Datum arg);
extern void sb_scratch_file_path(const SbScratchDir *dir, const char *name,
								 char *path, size_t pathlen);

#endif							/* SCANBENCH_SCRATCHDIR_H */
