/*
 * signals.c: SIGINT.
 *
 * The first SIGINT only sets a flag: the jobs stop at their next chunk and
 * fail their COPY, and a table this load created is dropped, so nothing
 * partial is left.  A second one exits at once; the server rolls back the
 * open transactions when the connections go.
 */
#include <signal.h>
#include <unistd.h>

#include "loader.h"

volatile sig_atomic_t interrupted;

static void
handle_sigint(int signo)
{
	(void) signo;
	if (interrupted)
		_exit(EXIT_INTERRUPTED);
	interrupted = 1;
}

void
catch_sigint(void)
{
	signal(SIGINT, handle_sigint);
}
