/*
 * db.c: the password -W asks for, once, for every connection.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "fleet.h"

/*
 * Ask as psql does: on the terminal, without echo; from standard input and
 * standard error when there is no terminal.
 */
static char *
prompt_password(void)
{
	FILE	   *in = fopen("/dev/tty", "r");
	FILE	   *out = in ? fopen("/dev/tty", "w") : NULL;
	struct termios t_orig,
				t;
	bool		echo_off = false;
	char		buf[1024];
	size_t		len;

	if (in == NULL || out == NULL)
	{
		if (in)
			fclose(in);
		in = stdin;
		out = stderr;
	}
	if (isatty(fileno(in)) && tcgetattr(fileno(in), &t_orig) == 0)
	{
		t = t_orig;
		t.c_lflag &= ~ECHO;
		echo_off = tcsetattr(fileno(in), TCSAFLUSH, &t) == 0;
	}
	fprintf(out, "Password: ");
	fflush(out);
	if (fgets(buf, sizeof(buf), in) == NULL)
		buf[0] = '\0';
	if (echo_off)
	{
		tcsetattr(fileno(in), TCSAFLUSH, &t_orig);
		fputc('\n', out);
		fflush(out);
	}
	if (in != stdin)
	{
		fclose(in);
		fclose(out);
	}
	len = strlen(buf);
	if (len > 0 && buf[len - 1] == '\n')
		buf[--len] = '\0';
	return xstrdup(buf);
}

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
		password = prompt_password();
	return password;
}
