/* scanbench--0.4.0--0.5.0.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION scanbench UPDATE TO '0.5.0'" to load this file. \quit

--
-- ==== The device's own rate beside the dd-like read ====
--
-- scan_efficiency also reads the same blocks as a device is read by a
-- reader that keeps it busy (O_DIRECT, 1 MB, many in flight), and gives
-- the scan as a percentage of that; the verdict gains depth_limited.
--
ALTER TYPE @extschema@.scan_efficiency_result
	ADD ATTRIBUTE device_mb_s float8 CASCADE,
	ADD ATTRIBUTE device_pct float8 CASCADE,
	ADD ATTRIBUTE device_depth integer CASCADE;
COMMENT ON COLUMN @extschema@.scan_efficiency_result.device_mb_s IS 'median rate of the device itself over the same blocks, MB/s: O_DIRECT reads of 1 MB with device_depth in flight, as fio reads a device with direct=1, bs=1M and that iodepth; cold only; NULL where the filesystem refuses O_DIRECT and under a read limit of the server''s control group (read_bps_limit, read_iops_limit), which sets it';
COMMENT ON COLUMN @extschema@.scan_efficiency_result.device_pct IS 'median scan rate as a percentage of device_mb_s, pair by pair or run by run: how much of what the device delivers to a reader that keeps it busy the scan got (scan_pct compares with one read at a time)';
COMMENT ON COLUMN @extschema@.scan_efficiency_result.device_depth IS 'reads of 1 MB kept in flight by the device reads: 32, or one per MB of a shorter stretch';
COMMENT ON COLUMN @extschema@.scan_efficiency_result.verdict IS 'marks: {ok}, or any of unstable, cached, host_cache, burst, cpu_contended, cpu_limited, io_limited, depth_limited, storage_not_limiting; when nothing was measured, why: {empty} (no blocks) or {over_budget} (no pair within max_seconds)';

-- A body in SQL keeps the columns its result type had when it was made:
-- made again, it reads the type with the device's columns.
CREATE OR REPLACE FUNCTION scanbench_internal.scan_history_measure(rel regclass, cache text, runs integer,
									 sample float8, max_seconds float8,
									 target_pct float8, method text,
									 min_pct float8 DEFAULT NULL,
									 max_drop_pct float8 DEFAULT NULL,
									 warn_pct float8 DEFAULT NULL,
									 warn_drop_pct float8 DEFAULT NULL,
									 window_days integer DEFAULT NULL)
RETURNS bigint
LANGUAGE sql VOLATILE
SET client_min_messages = error
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
	SELECT @extschema@.scan_history_record(r, scan_history_measure.min_pct,
							   scan_history_measure.max_drop_pct,
							   scan_history_measure.warn_pct,
							   scan_history_measure.warn_drop_pct,
							   scan_history_measure.window_days)
	FROM @extschema@.scan_efficiency(scan_history_measure.rel, scan_history_measure.cache,
						 runs => scan_history_measure.runs,
						 sample => scan_history_measure.sample,
						 max_seconds => scan_history_measure.max_seconds,
						 target_pct => scan_history_measure.target_pct,
						 method => scan_history_measure.method,
						 restore => true) AS r;
END;


-- Stretches cover the read-ahead window's ramp where the window is large.
COMMENT ON COLUMN @extschema@.scan_efficiency_result.method IS 'pairs (sampled stretches of 8 MB, longer where needed: 16 of the file''s read-ahead windows where they are large and the read is cold and unthrottled; enough to drain a rate limiter''s allowance under the server''s limits) or whole (whole-relation passes)';
