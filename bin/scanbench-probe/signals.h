/*
 * signals.h: SIGINT and SIGTERM cancel the running pass (signals.c).
 */
#ifndef SCANBENCH_PROBE_SIGNALS_H
#define SCANBENCH_PROBE_SIGNALS_H

#include <signal.h>

#include <libpq-fe.h>

extern volatile sig_atomic_t interrupted;

extern void signals_init(void);
extern void signals_watch(PGconn *conn);

#endif							/* SCANBENCH_PROBE_SIGNALS_H */
