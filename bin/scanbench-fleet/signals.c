/*
 * signals.c: SIGINT and SIGTERM.
 *
 * The first signal sends, from the handler, a cancel request to every call
 * that runs (PQcancel is safe in a signal handler), records the signal and
 * wakes the poll loop through a pipe; the loop then starts nothing new and
 * closes every connection within a second (run.c), records what it has and
 * exits 128 + the signal's number.  A second signal exits at once: the
 * cancel requests have been sent already.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <libpq-fe.h>

#include "cli.h"
#include "fleet.h"
#include "signals.h"

volatile sig_atomic_t interrupted;
int			signal_pipe[2] = {-1, -1};

static PGcancel *volatile cancels[MAX_JOBS];

static void
handle_signal(int signo)
{
	int			save_errno = errno;
	char		errbuf[256];

	for (int i = 0; i < MAX_JOBS; i++)
		if (cancels[i])
			(void) PQcancel(cancels[i], errbuf, sizeof(errbuf));
	if (interrupted)
	{
		static const char msg[] = FLEET_NAME ": error: interrupted again: exiting at once\n";
		ssize_t		rc = write(STDERR_FILENO, msg, sizeof(msg) - 1);

		(void) rc;
		_exit(128 + signo);
	}
	interrupted = signo;
	if (signal_pipe[1] >= 0)
	{
		ssize_t		rc = write(signal_pipe[1], "x", 1);

		(void) rc;
	}
	errno = save_errno;
}

void
signals_init(void)
{
	struct sigaction sa;

	if (pipe(signal_pipe) != 0)
	{
		log_error("could not create a pipe: %s", strerror(errno));
		_exit(EXIT_CANNOT_RUN);
	}
	for (int i = 0; i < 2; i++)
	{
		fcntl(signal_pipe[i], F_SETFL, fcntl(signal_pipe[i], F_GETFL) | O_NONBLOCK);
		fcntl(signal_pipe[i], F_SETFD, FD_CLOEXEC);
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handle_signal;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGINT);
	sigaddset(&sa.sa_mask, SIGTERM);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* The call in slot now runs on conn (NULL: none). */
void
signals_watch(int slot, PGconn *conn)
{
	PGcancel   *c = conn ? PQgetCancel(conn) : NULL;
	PGcancel   *old;
	sigset_t	set,
				saved;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_BLOCK, &set, &saved);
	old = cancels[slot];
	cancels[slot] = c;
	sigprocmask(SIG_SETMASK, &saved, NULL);
	if (old)
		PQfreeCancel(old);
}
