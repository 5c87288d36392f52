/*
 * signals.h: SIGINT, SIGTERM and SIGHUP in scanbench-load (signals.c).
 */
#ifndef SCANBENCH_LOAD_SIGNALS_H
#define SCANBENCH_LOAD_SIGNALS_H

#include <signal.h>
#include <stdbool.h>

#include <libpq-fe.h>

extern volatile sig_atomic_t interrupted;
extern void signals_init(void);
extern void signals_block(bool block);
extern void signals_set_phase(bool undo, const char *message);
extern void signals_watch_conn(int slot, PGconn *conn);
extern int	interrupted_status(void);

#endif							/* SCANBENCH_LOAD_SIGNALS_H */
