/*
 * queue.h: --night, the servers taken from a queue in the central
 * database that several runners share, with leases (queue.c).
 */
#ifndef SCANBENCH_FLEET_QUEUE_H
#define SCANBENCH_FLEET_QUEUE_H

#include <stdbool.h>

#include <libpq-fe.h>

#include "measure.h"
#include "options.h"
#include "servers.h"

typedef enum
{
	QUEUE_GOT,					/* a server to measure */
	QUEUE_WAIT,					/* none now; some still to finish */
	QUEUE_DONE,					/* every one of this runner's is finished */
	QUEUE_ERROR					/* said on stderr */
} QueueClaim;

extern bool queue_broken;
extern bool queue_open(PGconn *conn, const Options *opt, Server *servers, int nservers);
extern QueueClaim queue_claim(PGconn *conn, const Options *opt, Server *servers, int nservers,
							  int *index);
extern bool queue_renew(PGconn *conn, const Options *opt, Server **busy, int nbusy);
extern bool queue_finish(PGconn *conn, const Options *opt, Server *s, Row *rows, int nrows);
extern void queue_release(PGconn *conn, const Options *opt, Server **busy, int nbusy);

#endif							/* SCANBENCH_FLEET_QUEUE_H */
