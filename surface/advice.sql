--
-- ==== Advice: what would make a scan faster here ====
--
-- scan_advice measures each change a session can try against the current
-- setting, in interleaved pairs of scans, and predicts the rest (server
-- and host settings) from the scan's breakdown, with the model stated.
--
CREATE TYPE scan_advice_result AS (
	relation			regclass,
	setting				text,
	value				text,
	current				text,
	gain				float8,
	gain_lo				float8,
	gain_hi				float8,
	measured			boolean,
	pairs				integer,
	basis				text,
	cost				text,
	command				text
);

COMMENT ON TYPE scan_advice_result IS 'one candidate change of scan_advice: measured here, or predicted from the scan''s breakdown';
-- @comments scan_advice_result FROM scan_rate_result: relation
COMMENT ON COLUMN scan_advice_result.setting IS 'what to change: a server setting, data_checksums, read-ahead, scheduler, a control group file (cpu.max, io.max rbps, and their cgroup v1 names), or an option of the table''s tablespace (random_page_cost, effective_io_concurrency: the command says which)';
COMMENT ON COLUMN scan_advice_result.value IS 'the value proposed';
COMMENT ON COLUMN scan_advice_result.current IS 'the value now, as SHOW prints it (for max_parallel_workers_per_gather: the workers the planner gives this scan now; for a tablespace''s option: the value in force for it)';
COMMENT ON COLUMN scan_advice_result.gain IS 'scan rate with the change divided by the rate without it (1.30: 30 % faster); measured: the median of the pair ratios; predicted: the most the model allows; NULL when nothing predicts it, and for a tablespace''s random_page_cost or effective_io_concurrency, which change other plans, not this scan (the basis gives their figures)';
COMMENT ON COLUMN scan_advice_result.gain_lo IS 'measured: lower end of the 95 % interval of the median ratio (NULL below six pairs); predicted: NULL, nothing promises a gain';
COMMENT ON COLUMN scan_advice_result.gain_hi IS 'measured: upper end of that interval; predicted: the model''s bound, as gain';
COMMENT ON COLUMN scan_advice_result.measured IS 'true: measured in this call against the current setting; false: predicted, never measured (basis says from what)';
COMMENT ON COLUMN scan_advice_result.pairs IS 'pairs of scans measured (current, proposed, alternating in order); 0 when predicted; for the tablespace''s random_page_cost the rounds of page times, for its effective_io_concurrency the sweeps over the depths';
COMMENT ON COLUMN scan_advice_result.basis IS 'how the gain was found: the pairs, or the model and the figures it was given (storage-limited: at most min(storage, warm scan) / scan)';
COMMENT ON COLUMN scan_advice_result.cost IS 'what the change costs: none (a SET or ALTER TABLESPACE), CPU (more processes), reload, restart, root (the host or its control groups)';
COMMENT ON COLUMN scan_advice_result.command IS 'the exact command that makes the change';

-- @index 80 | `scan_advice(rel, cache, max_seconds, query)` | which change would make the scan faster here, by how much, at what cost, with the command |
CREATE FUNCTION scan_advice(rel regclass,
							cache text DEFAULT 'cold',
							max_seconds float8 DEFAULT 60,
							query text DEFAULT 'count(1)')
RETURNS SETOF scan_advice_result
AS 'MODULE_PATHNAME', 'scan_advice'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION scan_advice(regclass, text, float8, text) IS
'candidate changes that could make the scan faster here, best first: session settings measured in interleaved pairs against the current ones, server and host settings predicted from the scan''s breakdown, each with its gain, cost and command, within max_seconds; cold, on a table of at least 10 MB, also the tablespace''s random_page_cost and effective_io_concurrency measured as page_costs measures them (the last quarter of max_seconds), when the ones in force are off';

REVOKE ALL ON FUNCTION scan_advice(regclass, text, float8, text) FROM PUBLIC;

