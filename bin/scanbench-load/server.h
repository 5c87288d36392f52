/*
 * server.h: what the server is (server.c): the settings that decide a
 * load's cost, its CPUs, the WAL position and checkpoint counters.
 */
#ifndef SCANBENCH_LOAD_SERVER_H
#define SCANBENCH_LOAD_SERVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libpq-fe.h>

typedef struct
{
	int			version_num;	/* server_version_num */
	char		wal_level[16];
	bool		wal_minimal;
	bool		fsync;
	bool		full_page_writes;
	bool		wal_log_hints;
	bool		data_checksums;
	int64_t		max_wal_size_mb;
	bool		in_recovery;	/* a standby */
	int			standbys;		/* streaming from it */
	int			cpus;			/* 0: not known (a remote server) */
} ServerInfo;

extern bool server_inspect(PGconn *conn, ServerInfo *si);
extern void server_describe(const ServerInfo *si, char *buf, size_t size);
extern int64_t server_wal_lsn(PGconn *conn);
extern bool server_checkpoints(PGconn *conn, const ServerInfo *si, int64_t *timed,
							   int64_t *requested);

#endif							/* SCANBENCH_LOAD_SERVER_H */
