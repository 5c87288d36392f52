/*-------------------------------------------------------------------------
 *
 * settings.h
 *	  The server settings that shape a measurement's I/O, as jsonb
 *	  (settings.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCANBENCH_SETTINGS_H
#define SCANBENCH_SETTINGS_H

#include "fmgr.h"

extern Datum sb_io_settings(void);

/*
 * Facts of the server that move a scan's CPU share, recorded with every
 * result: a figure under data checksums or JIT is not comparable with one
 * without.  Unknown or not applicable: -1.
 */
typedef struct SbServerFacts
{
	int			server_major;
	bool		data_checksums;
	bool		jit;
	int			io_max_combine_limit;	/* blocks; -1 before 18 */
	int			io_workers;		/* I/O worker processes running; -1
								 * where io_method is not worker */
} SbServerFacts;

extern void sb_server_facts(SbServerFacts *f);
extern int	sb_setting_int(const char *name);
extern bool sb_setting_on(const char *name);

#endif							/* SCANBENCH_SETTINGS_H */
