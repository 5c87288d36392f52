/*-------------------------------------------------------------------------
 *
 * tablespace.h
 *	  Where a tablespace's files are, and which tablespace a measured
 *	  relation's files are in (tablespace.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCANBENCH_TABLESPACE_H
#define SCANBENCH_TABLESPACE_H

#include "relfiles.h"

extern char *sb_tablespace_dir(Oid spc);
extern Oid	sb_target_tablespace(SbTarget *target);

#endif							/* SCANBENCH_TABLESPACE_H */
