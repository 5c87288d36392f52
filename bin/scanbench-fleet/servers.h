/*
 * servers.h: the servers file, one server a line, tag=value words
 * (servers.c).
 */
#ifndef SCANBENCH_FLEET_SERVERS_H
#define SCANBENCH_FLEET_SERVERS_H

#include <stdbool.h>

#define MAX_TAGS			32

typedef struct Tag
{
	char	   *key;
	char	   *value;
} Tag;

/* One line of the servers file, and what was learnt about the server. */
typedef struct Server
{
	int			line;
	char	   *invalid;		/* a line that cannot be used: the reason */
	char	   *conninfo;
	char	   *name;			/* tag name=, else host:port/dbname */
	Tag			tags[MAX_TAGS];	/* sorted by key, name= left out */
	int			ntags;
	/* identity, as the server said (NULL until known) */
	char	   *system_identifier;
	char	   *host;
	char	   *port;
	char	   *role;			/* primary or standby */
	char	   *server_version;
	char	   *schema;			/* where scanbench is, quoted */
	char	   *search_path;	/* the session's own schemas, a name[] */
	/* --night */
	bool		taken;			/* claimed by this runner */
	bool		recorded;		/* its rows are in the central history */
} Server;

extern Server *read_servers(const char *path, int *nservers, char **error);
extern void free_servers(Server *servers, int n);
extern char *tags_json(const Server *s);
extern bool same_tags(const Server *a, const Server *b);
extern const char *server_disk(const Server *s);

#endif							/* SCANBENCH_FLEET_SERVERS_H */
