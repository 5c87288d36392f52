/*
 * signals.h: SIGINT and SIGTERM, cancelling every running call
 * (signals.c).
 */
#ifndef SCANBENCH_FLEET_SIGNALS_H
#define SCANBENCH_FLEET_SIGNALS_H

#include <signal.h>

#include <libpq-fe.h>

extern volatile sig_atomic_t interrupted;
extern int	signal_pipe[2];
extern void signals_init(void);
extern void signals_watch(int slot, PGconn *conn);

#endif							/* SCANBENCH_FLEET_SIGNALS_H */
