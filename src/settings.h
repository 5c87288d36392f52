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

#endif							/* SCANBENCH_SETTINGS_H */
