/*
 * signals.c: SIGINT and SIGTERM send a cancel request for the query
 * running on the server measured (PQcancel is safe in a handler), so that
 * a probe stopped by hand or by cron's timeout leaves no scan running
 * there; the program then ends with 128 + the signal's number.
 */
#include <signal.h>
#include <stddef.h>

#include <libpq-fe.h>

#include "signals.h"

volatile sig_atomic_t interrupted;

static PGcancel *volatile cancel;

static void
handler(int signo)
{
	char		errbuf[256];
	PGcancel   *c = cancel;

	if (interrupted == 0)
		interrupted = signo;
	if (c)
		(void) PQcancel(c, errbuf, sizeof(errbuf));
}

void
signals_init(void)
{
	struct sigaction sa = {0};

	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* The connection a signal cancels the query of (NULL: none). */
void
signals_watch(PGconn *conn)
{
	PGcancel   *old = cancel;
	sigset_t	block,
				was;

	/* No handler may use the old one while it is freed. */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &was);
	cancel = conn ? PQgetCancel(conn) : NULL;
	if (old)
		PQfreeCancel(old);
	sigprocmask(SIG_SETMASK, &was, NULL);
}
