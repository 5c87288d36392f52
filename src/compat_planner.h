/*-------------------------------------------------------------------------
 *
 * compat_planner.h
 *	  The planner's look at a relation's indexes, across the majors, for
 *	  accesspath.c: a hook that sees the RelOptInfo once its index list is
 *	  built.  Until 18 that is get_relation_info_hook, called at the end of
 *	  get_relation_info(); 19 replaced it with build_simple_rel_hook,
 *	  called from build_simple_rel() after get_relation_info() has run.
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCANBENCH_COMPAT_PLANNER_H
#define SCANBENCH_COMPAT_PLANNER_H

#include "nodes/pathnodes.h"

#if PG_VERSION_NUM >= 190000
#include "optimizer/pathnode.h"

typedef build_simple_rel_hook_type sb_rel_hook_type;

#define SB_REL_HOOK					build_simple_rel_hook
#define SB_REL_HOOK_ARGS			PlannerInfo *root, RelOptInfo *rel, RangeTblEntry *rte
#define SB_REL_HOOK_RELID			(rte->relid)
#define SB_REL_HOOK_CALL(hook)		(hook) (root, rel, rte)
#else
#include "optimizer/plancat.h"

typedef get_relation_info_hook_type sb_rel_hook_type;

#define SB_REL_HOOK					get_relation_info_hook
#define SB_REL_HOOK_ARGS			PlannerInfo *root, Oid relationObjectId, bool inhparent, RelOptInfo *rel
#define SB_REL_HOOK_RELID			relationObjectId
#define SB_REL_HOOK_CALL(hook)		(hook) (root, relationObjectId, inhparent, rel)
#endif

#endif							/* SCANBENCH_COMPAT_PLANNER_H */
