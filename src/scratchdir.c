/*-------------------------------------------------------------------------
 *
 * scratchdir.c
 *	  A directory of this backend's own for scratch files, inside a
 *	  tablespace's pgsql_tmp, removed on every way out.
 *
 * Why a directory of our own: a scratch file alone is unlinked by the
 * resource owner on an error and by fd.c at backend exit, but a pgsql_tmp
 * directory the call had to create would stay, and after a crash whatever
 * was in it stays until the server restarts.  With everything in one
 * directory named pgsql_tmpPID.scanbench:
 *  - an error or a cancel (PG_ENSURE_ERROR_CLEANUP's catch), a FATAL such
 *    as pg_terminate_backend's (its before_shmem_exit callback) and the
 *    normal end all remove the directory, and pgsql_tmp if it was created
 *    for it;
 *  - the server's start-up clean-up removes it as it removes any
 *    pgsql_tmp* entry;
 *  - a backend killed without either (SIGKILL, with
 *    remove_temp_files_after_crash off) leaves a directory whose PID is no
 *    backend's: the next call in that tablespace removes it, and pgsql_tmp
 *    too if the killed call had created it (a marker file says so).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* PG_TEMP_FILE_PREFIX: storage/fd.h in older releases, common/file_utils.h in newer */
#include "common/file_utils.h"
#include "miscadmin.h"
#include "storage/fd.h"
#include "storage/ipc.h"
#include "storage/proc.h"
#include "storage/procarray.h"

#include "scratchdir.h"

#define SB_SCRATCH_SUFFIX	".scanbench"
/* In a directory whose call created pgsql_tmp: pgsql_tmp goes with it. */
#define SB_SCRATCH_MARKER	"created_pgsql_tmp"

/* The PID in a name like pgsql_tmp1234.scanbench, or 0. */
static int
scratch_dir_pid(const char *name)
{
	const char *p = name + strlen(PG_TEMP_FILE_PREFIX);
	char	   *end;
	long		pid;

	if (strncmp(name, PG_TEMP_FILE_PREFIX, strlen(PG_TEMP_FILE_PREFIX)) != 0 ||
		*p < '0' || *p > '9')
		return 0;
	pid = strtol(p, &end, 10);
	if (strcmp(end, SB_SCRATCH_SUFFIX) != 0 || pid <= 0 || pid > INT_MAX)
		return 0;
	return (int) pid;
}

static bool
has_marker(const char *dir)
{
	char		path[MAXPGPATH];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, SB_SCRATCH_MARKER);
	return stat(path, &st) == 0;
}

/*
 * Remove the scratch directories of backends that are gone.  Returns
 * whether one of them had created pgsql_tmp.
 */
static bool
remove_stale(const char *base)
{
	DIR		   *d;
	struct dirent *de;
	struct stat st;
	bool		created_base = false;

	if (stat(base, &st) != 0)
		return false;
	d = AllocateDir(base);
	while ((de = ReadDirExtended(d, base, WARNING)) != NULL)
	{
		int			pid = scratch_dir_pid(de->d_name);
		char		path[MAXPGPATH];

		CHECK_FOR_INTERRUPTS();
		/* A live backend's, ours from before (none is left) excepted. */
		if (pid == 0 || (pid != MyProcPid && BackendPidGetProc(pid) != NULL))
			continue;
		snprintf(path, sizeof(path), "%s/%s", base, de->d_name);
		created_base |= has_marker(path);
		PathNameDeleteTemporaryDir(path);
		if (rmdir(path) != 0 && errno != ENOENT)
			ereport(WARNING,
					(errcode_for_file_access(),
					 errmsg("could not remove directory \"%s\": %m", path)));
		else
			ereport(LOG,
					(errmsg("removed \"%s\", a scratch directory left by backend %d", path, pid)));
	}
	FreeDir(d);
	return created_base;
}

/*
 * Make this backend's scratch directory in the tablespace's pgsql_tmp,
 * removing stale ones first.  The caller protects what follows with
 * PG_ENSURE_ERROR_CLEANUP(sb_scratch_dir_cleanup).
 */
void
sb_scratch_dir_create(Oid spc, SbScratchDir *dir)
{
	struct stat st;

	memset(dir, 0, sizeof(*dir));
	TempTablespacePath(dir->base, spc);
	snprintf(dir->path, sizeof(dir->path), "%s/%s%d%s", dir->base, PG_TEMP_FILE_PREFIX,
			 MyProcPid, SB_SCRATCH_SUFFIX);
	/* A stale directory that had created pgsql_tmp hands that on to us. */
	dir->created_base = remove_stale(dir->base) || stat(dir->base, &st) != 0;
	PathNameCreateTemporaryDir(dir->base, dir->path);
	dir->exists = true;
	if (dir->created_base)
	{
		char		marker[MAXPGPATH];
		int			fd;

		sb_scratch_file_path(dir, SB_SCRATCH_MARKER, marker, sizeof(marker));
		fd = OpenTransientFile(marker, O_CREAT | O_WRONLY | O_TRUNC | PG_BINARY);
		if (fd < 0)
		{
			int			save_errno = errno;

			sb_scratch_dir_remove(dir);
			errno = save_errno;
			ereport(ERROR,
					(errcode_for_file_access(),
					 errmsg("could not create file \"%s\": %m", marker)));
		}
		CloseTransientFile(fd);
	}
}

void
sb_scratch_file_path(const SbScratchDir *dir, const char *name, char *path, size_t pathlen)
{
	snprintf(path, pathlen, "%s/%s", dir->path, name);
}

/*
 * Remove the directory, what is in it (a file still open is unlinked all
 * the same; its descriptor is closed by the resource owner or at exit) and
 * pgsql_tmp if it was created for it and nothing else is in it now.  Runs
 * in error and exit callbacks: it only logs.
 */
void
sb_scratch_dir_remove(SbScratchDir *dir)
{
	if (!dir->exists)
		return;
	dir->exists = false;
	PathNameDeleteTemporaryDir(dir->path);
	if (dir->created_base)
		(void) rmdir(dir->base);	/* only if empty: others may use it */
}

/* For PG_ENSURE_ERROR_CLEANUP: on an error, and at exit after a FATAL. */
void
sb_scratch_dir_cleanup(int code, Datum arg)
{
	sb_scratch_dir_remove((SbScratchDir *) DatumGetPointer(arg));
}
