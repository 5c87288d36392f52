/*
 * run.h: the measurements, every server at once (run.c).
 */
#ifndef SCANBENCH_FLEET_RUN_H
#define SCANBENCH_FLEET_RUN_H

#include <libpq-fe.h>

#include "measure.h"
#include "options.h"
#include "servers.h"

extern int	run_fleet(const Options *opt, Server *servers, int nservers, Row *rows,
					  PGconn *queue);

#endif							/* SCANBENCH_FLEET_RUN_H */
