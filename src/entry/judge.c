/*-------------------------------------------------------------------------
 *
 * judge.c
 *	  scanbench_internal.judge_figure(jsonb): the judge of a scan_efficiency
 *	  figure (verdict.c) fed with figures given as they are, not measured.
 *
 * Every mark of a verdict rests on a threshold (a share of a throttle, a
 * ratio of two rates, a share of the timed time); the lab shows the marks
 * end to end, on disks and CPUs of known speed, in minutes.  This function
 * lets a test put a figure on either side of each threshold and see the
 * mark come and go, in milliseconds: sql/judge.sql does that for every
 * rule, so that a threshold moved by mistake fails the quick tier.
 *
 * The input is one JSON object whose keys are SbJudgeInput's fields (and
 * the control group's limits: cpu_quota_us, cpu_period_us, read_bps,
 * read_iops_limit, cpu_version, io_version, device); a key left out is a figure the path does not have.
 * "what", when given, names the relation and lets the judge speak (its
 * NOTICEs and WARNINGs, as scan_efficiency gives them); without it the
 * judge is silent.  A key it does not know is refused, so that a test
 * cannot pass for having misspelt one.
 *
 * scanbench_internal.judge_rules() lists the rules every judge reads
 * (judgerules.c), each with its threshold: sql/judge.sql holds the
 * thresholds no literal figure reaches (the judges of page_costs,
 * index_crossover, access_paths, toast_efficiency, workload_scans) and
 * checks that each mark a rule gives is one of the verdict's.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "catalog/pg_type.h"
#include "fmgr.h"
#include "funcapi.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"
#include "utils/numeric.h"
#include "utils/tuplestore.h"

#include "argcheck.h"
#include "fnargs.h"
#include "judgerules.h"
#include "rows.h"
#include "runjudge.h"
#include "verdict.h"

PG_FUNCTION_INFO_V1(judge_figure);
PG_FUNCTION_INFO_V1(judge_rules);

/* The keys and where each goes. */
typedef enum
{
	JK_DOUBLE,					/* a double of SbJudgeInput */
	JK_INT,						/* an int */
	JK_INT64,					/* an int64 */
	JK_LIMIT,					/* an int64 of SbCgroupLimits */
	JK_LIMIT_INT,				/* an int of SbCgroupLimits */
	JK_TEXT						/* what, unit, cache, device: strings */
} JudgeKeyKind;

typedef struct JudgeKey
{
	const char *name;
	JudgeKeyKind kind;
	size_t		offset;
} JudgeKey;

#define IN(f) offsetof(SbJudgeInput, f)
#define LIM(f) offsetof(SbCgroupLimits, f)

static const JudgeKey judge_keys[] = {
	{"what", JK_TEXT, 0}, {"unit", JK_TEXT, 0}, {"cache", JK_TEXT, 0},
	{"n", JK_INT, IN(n)}, {"device_depth", JK_INT, IN(device_depth)},
	{"median", JK_DOUBLE, IN(median)}, {"lo", JK_DOUBLE, IN(lo)},
	{"hi", JK_DOUBLE, IN(hi)}, {"target_pct", JK_DOUBLE, IN(target_pct)},
	{"cached_pct", JK_DOUBLE, IN(cached_pct)},
	{"read_mb_s", JK_DOUBLE, IN(read_mb_s)},
	{"scan_mb_s", JK_DOUBLE, IN(scan_mb_s)},
	{"direct_mb_s", JK_DOUBLE, IN(direct_mb_s)},
	{"host_ratio", JK_DOUBLE, IN(host_ratio)},
	{"device_mb_s", JK_DOUBLE, IN(device_mb_s)},
	{"device_pct", JK_DOUBLE, IN(device_pct)},
	{"read_iops", JK_DOUBLE, IN(read_iops)},
	{"read_request_kb", JK_DOUBLE, IN(read_request_kb)},
	{"ceiling_mb_s", JK_DOUBLE, IN(ceiling_mb_s)},
	{"ceiling_ratio", JK_DOUBLE, IN(ceiling_ratio)},
	{"timed_s", JK_DOUBLE, IN(timed_s)},
	{"cpu_wait_s", JK_DOUBLE, IN(cpu_wait_s)},
	{"throttled_s", JK_DOUBLE, IN(throttled_s)},
	{"cpu_busy_s", JK_DOUBLE, IN(cpu_busy_s)},
	{"scan_timed_s", JK_DOUBLE, IN(scan_timed_s)},
	{"scan_busy_s", JK_DOUBLE, IN(scan_busy_s)},
	{"scan_periods", JK_INT64, IN(scan_periods)},
	{"scan_spent_periods", JK_INT64, IN(scan_spent_periods)},
	{"drift_first", JK_DOUBLE, IN(drift_first)},
	{"drift_second", JK_DOUBLE, IN(drift_second)},
	{"cpu_quota_us", JK_LIMIT, LIM(cpu_quota_us)},
	{"cpu_period_us", JK_LIMIT, LIM(cpu_period_us)},
	{"read_bps", JK_LIMIT, LIM(read_bps)},
	{"read_iops_limit", JK_LIMIT, LIM(read_iops)},
	{"cpu_version", JK_LIMIT_INT, LIM(cpu_version)},
	{"io_version", JK_LIMIT_INT, LIM(io_version)},
	{"device", JK_TEXT, 0},
};

static const JudgeKey *
judge_key(const char *name)
{
	int			i;

	for (i = 0; i < lengthof(judge_keys); i++)
		if (strcmp(judge_keys[i].name, name) == 0)
			return &judge_keys[i];
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("judge_figure has no input \"%s\"", name),
			 errhint("Its keys are SbJudgeInput's fields (src/verdict.h) and the control group's cpu_quota_us, cpu_period_us, read_bps, read_iops_limit, cpu_version, io_version and device.")));
	return NULL;				/* not reached */
}

static double
number_of(const char *name, JsonbValue *v)
{
	if (v->type != jbvNumeric)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("judge_figure's input \"%s\" must be a number", name)));
	return DatumGetFloat8(DirectFunctionCall1(numeric_float8,
											  NumericGetDatum(v->val.numeric)));
}

/* One key's value into the judge's input or the limits. */
static void
set_input(SbJudgeInput *in, SbCgroupLimits *lim, const char *name,
		  JsonbValue *v)
{
	const JudgeKey *k = judge_key(name);
	char	   *s;

	if (v->type == jbvNull)
		return;					/* a figure the path does not have */
	if (k->kind != JK_TEXT)
	{
		double		d = number_of(name, v);

		if (k->kind == JK_DOUBLE)
			*(double *) ((char *) in + k->offset) = d;
		else if (k->kind == JK_INT)
			*(int *) ((char *) in + k->offset) = (int) d;
		else if (k->kind == JK_INT64)
			*(int64 *) ((char *) in + k->offset) = (int64) d;
		else if (k->kind == JK_LIMIT)
			*(int64 *) ((char *) lim + k->offset) = (int64) d;
		else
			*(int *) ((char *) lim + k->offset) = (int) d;
		if (k->kind == JK_LIMIT || k->kind == JK_LIMIT_INT)
			in->limits = lim;
		return;
	}
	if (v->type != jbvString)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("judge_figure's input \"%s\" must be a string", name)));
	s = pnstrdup(v->val.string.val, v->val.string.len);
	if (strcmp(name, "what") == 0)
		in->what = s;
	else if (strcmp(name, "unit") == 0)
		in->unit = s;
	else if (strcmp(name, "device") == 0)
	{
		strlcpy(lim->device, s, sizeof(lim->device));
		in->limits = lim;
	}
	else
		in->cache = sb_parse_cache(cstring_to_text(s), true);
}

/* ---- judge_figure(input jsonb) -> text: the marks, as scan_efficiency's
 *      NOTICEs name them: "ok", or marks separated by commas ---- */

Datum
judge_figure(PG_FUNCTION_ARGS)
{
	Jsonb	   *input;
	SbCgroupLimits *lim = palloc0(sizeof(SbCgroupLimits));
	SbJudgeInput in;
	SbVerdict	v;
	JsonbIterator *it;
	JsonbValue	key;
	JsonbValue	val;
	JsonbIteratorToken tok;

	sb_args_refuse_nulls(fcinfo);
	input = PG_GETARG_JSONB_P(0);
	if (!JB_ROOT_IS_OBJECT(input))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("judge_figure's input must be a JSON object")));
	sb_judge_input_init(&in);
	in.cache = SB_CACHE_COLD;
	it = JsonbIteratorInit(&input->root);
	while ((tok = JsonbIteratorNext(&it, &key, true)) != WJB_DONE)
	{
		char	   *name;

		if (tok != WJB_KEY)
			continue;
		name = pnstrdup(key.val.string.val, key.val.string.len);
		tok = JsonbIteratorNext(&it, &val, true);
		if (tok != WJB_VALUE)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("judge_figure's input \"%s\" must be a number or a string",
							name)));
		set_input(&in, lim, name, &val);
	}

	sb_judge(&in, &v);
	PG_RETURN_TEXT_P(cstring_to_text(sb_verdict_text(&v)));
}

/*
 * judge_rules() -> (rule, judges, mark, level, threshold, compared,
 * meaning): the table of judgerules.c, in its order.  level is the
 * status a recorded run's rule makes the run, in its judge's words
 * (scan_history's regression, page_costs_history's alarm).
 */
Datum
judge_rules(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	int			i;

	sb_init_srf(fcinfo);
	for (i = 0; i < SB_NRULES; i++)
	{
		const SbRule *r = sb_rule((SbRuleId) i);
		Datum		judges[SB_JUDGE_COUNT];
		int			n = 0;
		SbRow		row;

		for (int j = 0; j < SB_JUDGE_COUNT; j++)
			if (r->judges & (1u << j))
				judges[n++] = CStringGetTextDatum(sb_judge_name((SbJudge) (1u << j)));
		sb_row_init(&row, rsinfo->setDesc, NULL, 0);
		sb_row_text(&row, "rule", r->name);
		sb_row_datum(&row, "judges",
					 PointerGetDatum(construct_array(judges, n, TEXTOID, -1,
													 false, TYPALIGN_INT)));
		sb_row_text(&row, "mark", r->mark);
		sb_row_text(&row, "level", r->level == SB_RUN_OK ? NULL :
					r->judges & SB_JUDGE_HISTORY ? sb_run_status_name(r->level) :
					sb_page_costs_status_name(r->level));
		sb_row_exact(&row, "threshold", r->threshold);
		sb_row_text(&row, "compared", r->compared);
		sb_row_text(&row, "meaning", r->meaning);
		tuplestore_puttuple(rsinfo->setResult, sb_row_tuple(&row));
	}
	return (Datum) 0;
}
