/*
 * db.h: the password -W asks for, once, for every connection (db.c).
 */
#ifndef SCANBENCH_FLEET_DB_H
#define SCANBENCH_FLEET_DB_H

#include "options.h"

extern const char *fleet_password(const Options *opt);

#endif							/* SCANBENCH_FLEET_DB_H */
