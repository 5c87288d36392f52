/*-------------------------------------------------------------------------
 *
 * relfiles.c
 *	  From a regclass to the files to read: privilege and kind checks, the
 *	  leaves of a partitioned or inheritance tree, and each leaf's segment
 *	  files as they were when the call began.
 *
 * Every leaf is opened with AccessShareLock and kept open to the end of
 * the call.  That lock conflicts with TRUNCATE, VACUUM's truncation and
 * DROP, so the files cannot shrink or vanish under the reader; they may
 * grow (INSERT), which is why sizes are fixed here, at the start.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/relation.h"
#include "catalog/pg_class.h"
#include "catalog/pg_inherits.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "utils/acl.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"

#include "measure.h"

static const char *
relkind_noun(char relkind)
{
	switch (relkind)
	{
		case RELKIND_VIEW:
			return "a view";
		case RELKIND_FOREIGN_TABLE:
			return "a foreign table";
		case RELKIND_COMPOSITE_TYPE:
			return "a composite type";
		case RELKIND_INDEX:
		case RELKIND_PARTITIONED_INDEX:
			return "an index";
		case RELKIND_SEQUENCE:
			return "a sequence";
		case RELKIND_TOASTVALUE:
			return "a TOAST table";
		default:
			return "a relation of this kind";
	}
}

/* Refuse what the caller may not or cannot measure, before any lock. */
static void
check_relation(Oid relid, SbTargetKind kind)
{
	char		relkind = get_rel_relkind(relid);
	char	   *relname = get_rel_name(relid);
	AclResult	aclresult;

	if (relname == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("relation with OID %u does not exist", relid)));

	/*
	 * EXECUTE on the function is the gate to reading server files; the
	 * relation's own SELECT privilege is the gate to this relation.
	 */
	aclresult = pg_class_aclcheck(relid, GetUserId(), ACL_SELECT);
	if (aclresult != ACLCHECK_OK)
		aclcheck_error(aclresult, get_relkind_objtype(relkind), relname);

	if (kind == SB_TARGET_SCAN)
	{
		if (relkind != RELKIND_RELATION &&
			relkind != RELKIND_MATVIEW &&
			relkind != RELKIND_PARTITIONED_TABLE)
			ereport(ERROR,
					(errcode(ERRCODE_WRONG_OBJECT_TYPE),
					 errmsg("cannot scan \"%s\"", relname),
					 errdetail("\"%s\" is %s.", relname, relkind_noun(relkind)),
					 errhint("Executor scans are measured on tables, partitioned tables and materialized views; raw_read() reads any relation that has files.")));
	}
	else if (!RELKIND_HAS_STORAGE(relkind) &&
			 relkind != RELKIND_PARTITIONED_TABLE &&
			 relkind != RELKIND_PARTITIONED_INDEX)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("relation \"%s\" has no files to read", relname),
				 errdetail("\"%s\" is %s.", relname, relkind_noun(relkind)),
				 errhint("Measure a table, materialized view, index or sequence.")));
}

static void
fill_leaf(SbLeaf *leaf, Relation rel)
{
	char	   *path;
	int			i;

	/* Their pages live in another backend's local buffers, unflushed. */
	if (RELATION_IS_OTHER_TEMP(rel))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("cannot measure temporary tables of other sessions")));

	leaf->rel = rel;
	leaf->fileid = SbRelFileId(rel);
	leaf->local = RelationUsesLocalBuffers(rel);
	leaf->nblocks = RelationGetNumberOfBlocks(rel);
	leaf->nsegments = (leaf->nblocks + RELSEG_SIZE - 1) / RELSEG_SIZE;
	leaf->segments = palloc0(sizeof(SbSegment) * Max(leaf->nsegments, 1));

	path = sb_relation_path(rel);
	for (i = 0; i < leaf->nsegments; i++)
	{
		SbSegment  *seg = &leaf->segments[i];
		BlockNumber nblocks;

		seg->relid = RelationGetRelid(rel);
		seg->segno = i;
		seg->path = (i == 0) ? path : psprintf("%s.%d", path, i);
		seg->first_block = (BlockNumber) i * RELSEG_SIZE;
		nblocks = Min(leaf->nblocks - seg->first_block, RELSEG_SIZE);
		seg->bytes = (off_t) nblocks * BLCKSZ;
	}
}

/*
 * Open the relation named by the caller and everything it reads through:
 * for a partitioned or inheritance parent, every member with storage (the
 * parent's own, usually empty, heap included), as a scan of it would.
 */
SbTarget *
sb_target_open(Oid relid, SbTargetKind kind)
{
	SbTarget   *target = palloc0(sizeof(SbTarget));
	List	   *members;
	ListCell   *lc;
	char		relkind;
	int			i,
				j;

	check_relation(relid, kind);

	target->relid = relid;
	relkind = get_rel_relkind(relid);
	if (relkind == RELKIND_RELATION ||
		relkind == RELKIND_PARTITIONED_TABLE ||
		relkind == RELKIND_PARTITIONED_INDEX)
		members = find_all_inheritors(relid, AccessShareLock, NULL);
	else
		members = list_make1_oid(relid);

	target->leaves = palloc0(sizeof(SbLeaf) * list_length(members));
	foreach(lc, members)
	{
		Relation	rel = relation_open(lfirst_oid(lc), AccessShareLock);
		SbLeaf	   *leaf;

		if (!RELKIND_HAS_STORAGE(rel->rd_rel->relkind))
		{
			relation_close(rel, NoLock);
			continue;
		}
		leaf = &target->leaves[target->nleaves++];
		fill_leaf(leaf, rel);
		target->nsegments += leaf->nsegments;
		target->nblocks += leaf->nblocks;
	}
	target->bytes = (uint64) target->nblocks * BLCKSZ;

	/* One flat list, for the loops that want every file in order. */
	target->segments = palloc(sizeof(SbSegment *) * Max(target->nsegments, 1));
	target->nsegments = 0;
	for (i = 0; i < target->nleaves; i++)
		for (j = 0; j < target->leaves[i].nsegments; j++)
			target->segments[target->nsegments++] = &target->leaves[i].segments[j];

	return target;
}

/* Close the leaves; the locks stay to the end of the transaction. */
void
sb_target_close(SbTarget *target)
{
	int			i;

	for (i = 0; i < target->nleaves; i++)
		relation_close(target->leaves[i].rel, NoLock);
	target->nleaves = 0;
}

/*
 * A file that stands for where the target lives, for sb_mount_of(): the
 * first member with data, since an inheritance parent's own heap is often
 * empty and may sit in another tablespace.
 */
char *
sb_target_first_path(SbTarget *target)
{
	if (target->nsegments > 0)
		return target->segments[0]->path;
	if (target->nleaves > 0)
		return sb_relation_path(target->leaves[0].rel);
	return NULL;
}
