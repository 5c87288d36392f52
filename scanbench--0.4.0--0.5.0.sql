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
COMMENT ON COLUMN @extschema@.scan_efficiency_result.device_mb_s IS 'median rate of the device itself over the same blocks, MB/s: O_DIRECT reads of 1 MB with device_depth in flight, as fio --direct=1 --bs=1M --iodepth reads; cold only, NULL where the filesystem refuses O_DIRECT';
COMMENT ON COLUMN @extschema@.scan_efficiency_result.device_pct IS 'median scan rate as a percentage of device_mb_s, pair by pair or run by run: how much of what the device delivers to a reader that keeps it busy the scan got (scan_pct compares with one read at a time)';
COMMENT ON COLUMN @extschema@.scan_efficiency_result.device_depth IS 'reads of 1 MB kept in flight by the device reads: 32, or one per MB of a shorter stretch';
