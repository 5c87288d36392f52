--
-- ==== The fleet's queue: runners that share a night ====
--
-- Several scanbench-fleet processes given one --night take their servers
-- from these two tables of the central database, so that each server is
-- measured once that night.  A claim is a lease: a runner renews it while
-- it measures and clears it when it records the server's rows (in the
-- same transaction), so a runner that dies leaves its servers to the
-- others once lease_until has passed.  Servers on one disk (the disk= tag
-- of the servers file; a server without one is a disk of its own, named
-- as the server) are never measured at once: a claim takes the disk's row
-- with FOR UPDATE SKIP LOCKED first, and that row holds a lease too.  The
-- rows are a night's working state, not history: pg_dump leaves them out.
-- A role that runs a fleet with --night needs SELECT, INSERT and UPDATE on
-- both, granted by the DBA (see doc/fleet.md).
--
CREATE TABLE fleet_queue (
	night				text NOT NULL,
	server				text NOT NULL,
	disk				text NOT NULL,
	runner				text,
	claimed_at			timestamptz,
	lease_until			timestamptz,
	finished_at			timestamptz,
	PRIMARY KEY (night, server)
);
CREATE INDEX fleet_queue_disk_idx ON fleet_queue (night, disk);

COMMENT ON TABLE fleet_queue IS
'the servers of each night of scanbench-fleet --night, each claimed by one runner at a time and measured once; not kept by pg_dump';
COMMENT ON COLUMN fleet_queue.night IS 'the night, as --night names it';
COMMENT ON COLUMN fleet_queue.server IS 'the server, as scanbench-fleet names it (its name= tag, else host:port/dbname)';
COMMENT ON COLUMN fleet_queue.disk IS 'the disk it is on: its disk= tag, else its own name; servers of one disk are measured one at a time';
COMMENT ON COLUMN fleet_queue.runner IS 'the runner that holds or last held the claim: host:pid';
COMMENT ON COLUMN fleet_queue.claimed_at IS 'when that runner claimed the server';
COMMENT ON COLUMN fleet_queue.lease_until IS 'the claim holds until then, unless renewed; NULL when not claimed or finished';
COMMENT ON COLUMN fleet_queue.finished_at IS 'when its rows went into scan_history; NULL while it is still to be measured';

CREATE TABLE fleet_queue_disk (
	night				text NOT NULL,
	disk				text NOT NULL,
	runner				text,
	server				text,
	lease_until			timestamptz,
	PRIMARY KEY (night, disk)
);

COMMENT ON TABLE fleet_queue_disk IS
'the disks of each night of scanbench-fleet --night: a disk with a lease is measuring one of its servers, and no other server of it starts; not kept by pg_dump';
-- @comments fleet_queue_disk FROM fleet_queue: night
COMMENT ON COLUMN fleet_queue_disk.disk IS 'the disk, as fleet_queue.disk names it';
COMMENT ON COLUMN fleet_queue_disk.runner IS 'the runner measuring a server of it: host:pid; NULL when none';
COMMENT ON COLUMN fleet_queue_disk.server IS 'the server being measured; NULL when none';
COMMENT ON COLUMN fleet_queue_disk.lease_until IS 'the disk is busy until then, unless renewed; NULL when free';

