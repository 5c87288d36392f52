/*
 * db.c: the password -W asks for, once, for every connection.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "cli.h"
#include "db.h"
#include "options.h"

/*
 * With -W, the password typed once before any connection; otherwise NULL
 * (libpq's own: the conninfo, PGPASSWORD, ~/.pgpass).  The servers are
 * connected to in parallel, so a server that asks for a password that was
 * not given fails with its reason rather than prompting in the middle.
 */
const char *
fleet_password(const Options *opt)
{
	static char *password;

	if (opt->password_prompt > 0 && password == NULL)
		password = prompt_password("Password: ");
	return password;
}
