/*
 * servers.c: the servers file.
 *
 * One server a line: a connection URI (postgresql://host:port/db?...) or
 * service=NAME (pg_service.conf), then optional tag=value words (class,
 * zone, ...; name=LABEL names the server in the output and the history;
 * disk=ID the disk it shares with others, for --night).  '#' at the start
 * of a line or after a blank starts a comment; blank lines are skipped.
 * Servers with the same tags, name= and disk= left out, form a cohort.
 * The file is UTF-8, as the history's text is.  Nothing here connects: the
 * file is checked whole before any server is.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include <libpq-fe.h>

#include "cli.h"
#include "servers.h"
#include "xalloc.h"

static int
tag_cmp(const void *a, const void *b)
{
	return strcmp(((const Tag *) a)->key, ((const Tag *) b)->key);
}

static bool
valid_key(const char *k, size_t len)
{
	if (len == 0)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!(isalnum((unsigned char) k[i]) || k[i] == '_' || k[i] == '-'))
			return false;
	return true;
}

/* The label of a server named by no name= tag: host:port/dbname or the service. */
static char *
default_name(Server *s, const char *conninfo)
{
	char	   *err = NULL;
	PQconninfoOption *opts = PQconninfoParse(conninfo, &err);
	const char *host = NULL,
			   *port = NULL,
			   *db = NULL,
			   *service = NULL;
	char	   *name;

	if (opts == NULL)
	{
		PQfreemem(err);
		return xstrdup(conninfo);
	}
	for (PQconninfoOption *o = opts; o->keyword; o++)
	{
		if (o->val == NULL || o->val[0] == '\0')
			continue;
		if (strcmp(o->keyword, "host") == 0)
			host = o->val;
		else if (strcmp(o->keyword, "port") == 0)
			port = o->val;
		else if (strcmp(o->keyword, "dbname") == 0)
			db = o->val;
		else if (strcmp(o->keyword, "service") == 0)
			service = o->val;
	}
	/* What the row of a server that cannot be reached says it was. */
	s->host = xstrdup(host);
	s->port = xstrdup(port);
	if (service && !host && !port)
		name = xstrdup(service);
	else
		name = xprintf("%s:%s%s%s", host ? host : "localhost", port ? port : "5432",
					   db ? "/" : "", db ? db : "");
	PQconninfoFree(opts);
	return name;
}

/* One line's words into s; NULL if fine, else what is wrong. */
static char *
parse_line(char *line, Server *s)
{
	char	   *save = NULL;
	char	   *word;
	char	   *err = NULL;
	PQconninfoOption *opts;

	word = strtok_r(line, " \t\r\n", &save);
	if (strncmp(word, "postgresql://", 13) != 0 && strncmp(word, "postgres://", 11) != 0 &&
		strncmp(word, "service=", 8) != 0)
		return xprintf("\"%s\" is neither a connection URI (postgresql://...) nor service=NAME", word);
	opts = PQconninfoParse(word, &err);
	if (opts == NULL)
	{
		char	   *msg = xprintf("invalid connection string \"%s\": %s", word,
								  err ? one_line(err) : "out of memory");

		PQfreemem(err);
		return msg;
	}
	PQconninfoFree(opts);
	s->conninfo = xstrdup(word);
	while ((word = strtok_r(NULL, " \t\r\n", &save)) != NULL)
	{
		char	   *eq = strchr(word, '=');

		if (word[0] == '#')
			break;
		if (eq == NULL || !valid_key(word, (size_t) (eq - word)) || eq[1] == '\0')
			return xprintf("\"%s\" is not a tag=value word (letters, digits, _ and - before the =, a value after it)", word);
		*eq = '\0';
		if (strcmp(word, "name") == 0)
		{
			if (s->name)
				return xstrdup("name= is given twice");
			s->name = xstrdup(eq + 1);
			continue;
		}
		for (int i = 0; i < s->ntags; i++)
			if (strcmp(s->tags[i].key, word) == 0)
				return xprintf("tag \"%s\" is given twice", word);
		if (s->ntags == MAX_TAGS)
			return xprintf("more than %d tags", MAX_TAGS);
		s->tags[s->ntags].key = xstrdup(word);
		s->tags[s->ntags].value = xstrdup(eq + 1);
		s->ntags++;
	}
	qsort(s->tags, (size_t) s->ntags, sizeof(Tag), tag_cmp);
	{
		char	   *label = default_name(s, s->conninfo);

		if (s->name == NULL)
			s->name = label;
		else
			free(label);
	}
	return NULL;
}

/*
 * Whether the len bytes at s are UTF-8: the history stores names and tags
 * as text and jsonb, which would refuse the whole night's rows at the end
 * for one bad byte.  Overlong forms and surrogates are refused, as
 * PostgreSQL refuses them.
 */
static bool
valid_utf8(const unsigned char *s, size_t len)
{
	size_t		i = 0;

	while (i < len)
	{
		unsigned char c = s[i];
		int			n;
		unsigned int cp;

		if (c < 0x80)
		{
			i++;
			continue;
		}
		if ((c & 0xE0) == 0xC0)
			n = 1, cp = c & 0x1F;
		else if ((c & 0xF0) == 0xE0)
			n = 2, cp = c & 0x0F;
		else if ((c & 0xF8) == 0xF0)
			n = 3, cp = c & 0x07;
		else
			return false;
		for (int k = 1; k <= n; k++)
		{
			if (i + k >= len || (s[i + k] & 0xC0) != 0x80)
				return false;
			cp = (cp << 6) | (s[i + k] & 0x3F);
		}
		if ((n == 1 && cp < 0x80) || (n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) ||
			cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
			return false;
		i += n + 1;
	}
	return true;
}

/* The longest line read: far beyond any connection URI and its tags. */
#define MAX_LINE	8190

/*
 * The servers of the file at path, or NULL with *error saying what is wrong.
 * The file is read whole before anything connects.  A line that cannot be
 * used is a server of its own, marked invalid with the reason (and said on
 * stderr): it is recorded as a failure while the others are measured.  An
 * unreadable file, or one with no usable line, is an error.
 */
Server *
read_servers(const char *path, int *nservers, char **error)
{
	FILE	   *f = fopen(path, "r");
	char	   *line = NULL;
	size_t		linecap = 0;
	ssize_t		len;
	int			lineno = 0;
	int			n = 0;
	int			usable = 0;
	size_t		cap = 16;
	Server	   *servers;

	*error = NULL;
	if (f == NULL)
	{
		*error = xprintf("could not open servers file \"%s\": %s", path, strerror(errno));
		return NULL;
	}
	servers = xmalloc(sizeof(Server) * cap);
	while ((len = getline(&line, &linecap, f)) >= 0)
	{
		char	   *p = line;
		char	   *why = NULL;
		Server	   *s;

		lineno++;
		while (*p == ' ' || *p == '\t')
			p++;
		if ((*p == '#' || *p == '\n' || *p == '\r' || *p == '\0') &&
			memchr(line, '\0', (size_t) len) == NULL)
			continue;
		servers = xreserve(servers, (size_t) n, 1, &cap, sizeof(Server));
		s = &servers[n];
		memset(s, 0, sizeof(Server));
		s->line = lineno;
		if (memchr(line, '\0', (size_t) len) != NULL)
			why = xprintf("a NUL byte at byte %zu of the line",
						  (size_t) ((char *) memchr(line, '\0', (size_t) len) - line) + 1);
		else if (len > MAX_LINE + 1)
			why = xprintf("line longer than %d bytes", MAX_LINE);
		else if (!valid_utf8((const unsigned char *) line, (size_t) len))
			why = xstrdup("not valid UTF-8");
		else
			why = parse_line(p, s);
		for (int i = 0; i < n && why == NULL; i++)
			if (servers[i].invalid == NULL && strcmp(servers[i].name, s->name) == 0)
				why = xprintf("server \"%s\" is named on line %d too (give each a name= tag of its own)",
							  s->name, servers[i].line);
		if (why)
		{
			/* Nothing of the line goes further: it may not even be text. */
			for (int t = 0; t < s->ntags; t++)
			{
				free(s->tags[t].key);
				free(s->tags[t].value);
			}
			free(s->conninfo);
			free(s->name);
			free(s->host);
			free(s->port);
			memset(s, 0, sizeof(Server));
			s->line = lineno;
			s->name = xprintf("servers file line %d", lineno);
			s->invalid = xprintf("not measured: servers file line %d: %s", lineno, why);
			log_error("%s:%d: %s", path, lineno, why);
			free(why);
		}
		else
			usable++;
		n++;
	}
	if (ferror(f))
		*error = xprintf("could not read servers file \"%s\": %s", path, strerror(errno));
	free(line);
	fclose(f);
	if (!*error && n == 0)
		*error = xprintf("servers file \"%s\" names no server", path);
	else if (!*error && usable == 0)
		*error = xprintf("servers file \"%s\" names no server that can be measured", path);
	if (*error)
	{
		free_servers(servers, n);
		return NULL;
	}
	*nservers = n;
	return servers;
}

/* The n servers of read_servers, and all they hold. */
void
free_servers(Server *servers, int n)
{
	for (int i = 0; i < n; i++)
	{
		Server	   *s = &servers[i];

		for (int t = 0; t < s->ntags; t++)
		{
			free(s->tags[t].key);
			free(s->tags[t].value);
		}
		free(s->invalid);
		free(s->conninfo);
		free(s->name);
		free(s->system_identifier);
		free(s->host);
		free(s->port);
		free(s->role);
		free(s->server_version);
		free(s->schema);
		free(s->search_path);
	}
	free(servers);
}

static void
json_string(char **out, size_t *len, size_t *cap, const char *s)
{
	for (const char *c = s;; c++)
	{
		char		buf[8];
		const char *piece = buf;

		*out = xreserve(*out, *len, 8, cap, 1);
		if (*c == '\0')
			break;
		if (*c == '"' || *c == '\\')
			snprintf(buf, sizeof(buf), "\\%c", *c);
		else if ((unsigned char) *c < 0x20)
			snprintf(buf, sizeof(buf), "\\u%04x", (unsigned char) *c);
		else
		{
			buf[0] = *c;
			buf[1] = '\0';
		}
		memcpy(*out + *len, piece, strlen(piece));
		*len += strlen(piece);
	}
}

/* The tags as a JSON object, keys in order: {"class": "ssd", ...}. */
char *
tags_json(const Server *s)
{
	size_t		cap = 64,
				len = 0;
	char	   *out = xmalloc(cap);

	out[len++] = '{';
	for (int i = 0; i < s->ntags; i++)
	{
		if (i > 0)
		{
			out[len++] = ',';
			out[len++] = ' ';
		}
		out[len++] = '"';
		json_string(&out, &len, &cap, s->tags[i].key);
		out[len++] = '"';
		out[len++] = ':';
		out[len++] = ' ';
		out[len++] = '"';
		json_string(&out, &len, &cap, s->tags[i].value);
		out[len++] = '"';
		out = xreserve(out, len, 8, &cap, 1);
	}
	out[len++] = '}';
	out[len] = '\0';
	return out;
}

/*
 * The disk the server is on, for --night: its disk= tag, else its own name
 * (a disk of its own).
 */
const char *
server_disk(const Server *s)
{
	for (int i = 0; i < s->ntags; i++)
		if (strcmp(s->tags[i].key, "disk") == 0)
			return s->tags[i].value;
	return s->name;
}

/*
 * Whether two servers are of one cohort: the same tags, disk= aside (where
 * a server is, not what it is: servers on other disks of the same kind are
 * peers, and --night keeps the servers of one disk apart in time).
 */
bool
same_tags(const Server *a, const Server *b)
{
	int			i = 0,
				j = 0;

	for (;;)
	{
		while (i < a->ntags && strcmp(a->tags[i].key, "disk") == 0)
			i++;
		while (j < b->ntags && strcmp(b->tags[j].key, "disk") == 0)
			j++;
		if (i == a->ntags || j == b->ntags)
			return i == a->ntags && j == b->ntags;
		if (strcmp(a->tags[i].key, b->tags[j].key) != 0 ||
			strcmp(a->tags[i].value, b->tags[j].value) != 0)
			return false;
		i++;
		j++;
	}
}
