/*
 * signals.c: SIGINT, SIGTERM and SIGHUP, handled alike at every phase.
 *
 * Each exits 128 + its number (130, 143, 129), and what the database is left
 * with does not depend on when it came: as it was before the command, or the
 * complete table.
 *
 * While nothing needs undoing (options, connecting, --stdout, after the load
 * committed) a signal ends the program from the handler, with a line saying
 * what that means.  While the load runs the first signal is recorded and,
 * as psql does, a cancel request goes at once to every connection's backend:
 * a statement that blocks (a lock wait, COPY, VACUUM) stops now, not when it
 * would have ended, and the main thread then rolls back and removes what
 * this load made.  A second signal exits at once; the server rolls back
 * what did not commit, and a staging table left committed is dropped by the
 * next run (load.c).
 *
 * Only the main thread takes these signals: job threads start with them
 * blocked, so that the cancel handles are freed with the signals blocked
 * and the handler never sees one half-freed.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include <libpq-fe.h>

#include "loader.h"
#include "signals.h"

/* The number of the first signal, 0 if none. */
volatile sig_atomic_t interrupted;

static volatile sig_atomic_t undo_pending;
static const char *volatile exit_message = LOADER_NAME ": error: interrupted: nothing was changed\n";
static PGcancel *volatile cancels[FREEZER_SLOT + 1];

static const int handled[] = {SIGINT, SIGTERM, SIGHUP};

static void
write_stderr(const char *s)
{
	ssize_t		rc = write(STDERR_FILENO, s, strlen(s));

	(void) rc;
}

static void
cancel_all(void)
{
	char		errbuf[256];

	for (int i = 0; i <= FREEZER_SLOT; i++)
		if (cancels[i])
			(void) PQcancel(cancels[i], errbuf, sizeof(errbuf));
}

static void
handle_signal(int signo)
{
	int			save_errno = errno;

	cancel_all();
	if (interrupted || !undo_pending)
	{
		write_stderr(interrupted ? LOADER_NAME ": error: interrupted again: exiting "
					 "without waiting for the rollback; the server rolls back what did "
					 "not commit, and the next run drops a staging table left behind\n"
					 : exit_message);
		_exit(128 + signo);
	}
	interrupted = signo;
	errno = save_errno;
}

void
signals_init(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handle_signal;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (int i = 0; i < (int) (sizeof(handled) / sizeof(handled[0])); i++)
		sigaddset(&sa.sa_mask, handled[i]);
	for (int i = 0; i < (int) (sizeof(handled) / sizeof(handled[0])); i++)
		sigaction(handled[i], &sa, NULL);
}

/* Block (or unblock) the signals in the calling thread. */
void
signals_block(bool block)
{
	sigset_t	set;

	sigemptyset(&set);
	for (int i = 0; i < (int) (sizeof(handled) / sizeof(handled[0])); i++)
		sigaddset(&set, handled[i]);
	pthread_sigmask(block ? SIG_BLOCK : SIG_UNBLOCK, &set, NULL);
}

/*
 * undo: whether the database now holds something of this load's that a
 * signal must have rolled back; when not, what a signal exits saying.
 */
void
signals_set_phase(bool undo, const char *message)
{
	signals_block(true);
	undo_pending = undo;
	if (message)
		exit_message = message;
	signals_block(false);
}

/*
 * Slot 0 is the control connection, slot j the job j's, FREEZER_SLOT the
 * connection that freezes in steps.
 */
void
signals_watch_conn(int slot, PGconn *conn)
{
	PGcancel   *c = conn ? PQgetCancel(conn) : NULL;
	PGcancel   *old;

	signals_block(true);
	old = cancels[slot];
	cancels[slot] = c;
	signals_block(false);
	if (old)
		PQfreeCancel(old);
}

int
interrupted_status(void)
{
	return 128 + (interrupted ? interrupted : SIGINT);
}
