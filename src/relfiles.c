/*-------------------------------------------------------------------------
 *
 * relfiles.c
 *	  From a regclass to the files to read: privilege and kind checks, the
 *	  leaves of a partitioned or inheritance tree, and each leaf's segment
 *	  files as they were when the call began.
 *
 * Every leaf is opened with AccessShareLock and kept open to the end of
 * the call.  That lock conflicts with TRUNCATE, VACUUM's truncation and
 * DROP, so PostgreSQL cannot shrink or remove the files under the reader;
 * they may grow (INSERT), which is why sizes are fixed here, at the start.
 * Something outside PostgreSQL (an operator, a restore tool, a file system
 * fault) can still shrink or remove one: every reader then stops with an
 * ERROR naming the file and what changed (sb_segment_check_size,
 * sb_segment_short_read), as PostgreSQL's own read path does, and never
 * counts a short read as complete.
 *
 * What is measured is what a plain SELECT of the relation reads, and a
 * member that would make the figures disagree with it is refused rather
 * than left out quietly:
 *  - row-level security: a scan would count only the rows the policies let
 *    the caller see, while the bytes are the whole table's; executor scans
 *    refuse a relation whose policies apply to the caller.
 *  - a foreign member (a foreign partition or inheritance child) has no
 *    files here: refused.
 *  - another session's temporary child of an inheritance parent lives in
 *    that session's local buffers; SELECT on the parent skips it, and so
 *    does this, with a NOTICE.
 *  - a table access method other than heap may not keep its data in
 *    segment files of the heap's layout: refused, as pgstattuple does.
 *  - during recovery (a hot standby) an unlogged relation has no files
 *    but its init fork; SELECT refuses it, and so does this, with the
 *    same error, before any file is looked at.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <sys/stat.h>

#include "access/relation.h"
#include "access/xlog.h"
#include "catalog/pg_am.h"
#include "catalog/pg_class.h"
#include "catalog/pg_inherits.h"
#include "commands/defrem.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "storage/fd.h"
#include "storage/lmgr.h"
#include "utils/acl.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/rls.h"
#include "utils/syscache.h"

#include "relfiles.h"

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
	 * relation's own SELECT privilege is the gate to this relation.  An
	 * index has no privileges of its own (only its owner would pass): the
	 * caller has checked its table's.
	 */
	if (kind == SB_TARGET_INDEX)
	{
		if (relkind != RELKIND_INDEX)
			elog(ERROR, "\"%s\" is not an index", relname);
		return;
	}

	/*
	 * Nor does a TOAST table or its index (their owner is the table's):
	 * reading the table's values reads them, so the table's SELECT, which
	 * the caller checked, is the gate here too.
	 */
	if (kind == SB_TARGET_TOAST)
	{
		if (relkind != RELKIND_TOASTVALUE && relkind != RELKIND_INDEX)
			elog(ERROR, "\"%s\" is not a TOAST table or index", relname);
		return;
	}
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

		/*
		 * Policies would filter the rows the scan returns but not the blocks
		 * it reads: rows would count only what the caller may see, or, in
		 * the scan's own counters, what it may not.  Neither is a measure of
		 * the table, so refuse.  noError: with row_security off this says
		 * RLS_ENABLED rather than raising the server's own error.
		 */
		if (check_enable_rls(relid, InvalidOid, true) == RLS_ENABLED)
			ereport(ERROR,
					(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
					 errmsg("cannot scan \"%s\": row-level security applies to it", relname),
					 errdetail("A scan would count only the rows this role's policies let it see, against the whole table's bytes."),
					 errhint("Measure as the table's owner (unless FORCE ROW LEVEL SECURITY is set), as a role with BYPASSRLS or as a superuser; raw_read() is not affected.")));
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

/*
 * Refuse a table whose access method is not heap: its data need not be in
 * segment files laid out as the heap's, and the raw read would time
 * something other than what the scan reads.
 */
static void
check_access_method(Relation rel, Oid named)
{
	if (!RELKIND_HAS_TABLE_AM(rel->rd_rel->relkind) ||
		rel->rd_rel->relam == HEAP_TABLE_AM_OID)
		return;

	if (RelationGetRelid(rel) == named)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("cannot measure \"%s\"", RelationGetRelationName(rel)),
				 errdetail("Table access method \"%s\" is not supported; only heap tables are.",
						   get_am_name(rel->rd_rel->relam))));
	ereport(ERROR,
			(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			 errmsg("cannot measure \"%s\"", get_rel_name(named)),
			 errdetail("Its member \"%s\" uses table access method \"%s\"; only heap tables are supported.",
					   RelationGetRelationName(rel),
					   get_am_name(rel->rd_rel->relam)),
			 errhint("Measure the heap members one by one.")));
}

static void
fill_leaf(SbLeaf *leaf, Relation rel)
{
	char	   *path;
	int			i;

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
 * Lock the named relation before anything else is looked at, as a
 * RangeVar lookup does; a DROP that commits while we wait leaves its OID
 * behind, which must come back as "does not exist", not as an internal
 * error from relation_open.  Children are locked by find_all_inheritors,
 * which skips those dropped meanwhile.
 */
static void
lock_named_relation(Oid relid)
{
	char	   *relname = get_rel_name(relid);

	LockRelationOid(relid, AccessShareLock);
	if (!SearchSysCacheExists1(RELOID, ObjectIdGetDatum(relid)))
	{
		UnlockRelationOid(relid, AccessShareLock);
		if (relname != NULL)
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_TABLE),
					 errmsg("relation \"%s\" does not exist", relname),
					 errdetail("It was dropped while this call waited for its lock.")));
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("relation with OID %u does not exist", relid)));
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

	/*
	 * Checked before the lock, so that a caller without the right cannot
	 * queue behind someone's ACCESS EXCLUSIVE and hold up everyone after
	 * it; and again after, since privileges, policies or the relation
	 * itself may have changed while we waited.
	 */
	check_relation(relid, kind);
	lock_named_relation(relid);
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
		Oid			member = lfirst_oid(lc);
		Relation	rel = relation_open(member, AccessShareLock);
		char		member_kind = rel->rd_rel->relkind;
		SbLeaf	   *leaf;

		if (RELATION_IS_OTHER_TEMP(rel))
		{
			/* Their pages live in another backend's local buffers, unflushed. */
			if (member == relid)
				ereport(ERROR,
						(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
						 errmsg("cannot measure temporary tables of other sessions")));

			/* SELECT on the parent leaves them out too (expand_inherited_rtentry). */
			ereport(NOTICE,
					(errmsg("skipping \"%s\", a temporary table of another session",
							RelationGetRelationName(rel)),
					 errdetail("A query of \"%s\" does not read it either.",
							   get_rel_name(relid))));
			relation_close(rel, NoLock);
			continue;
		}
		if (member_kind == RELKIND_FOREIGN_TABLE)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("cannot measure \"%s\"", get_rel_name(relid)),
					 errdetail("Its member \"%s\" is a foreign table, whose rows are not in this server's files.",
							   RelationGetRelationName(rel)),
					 errhint("Measure the members that are not foreign one by one.")));
		if (!RELKIND_HAS_STORAGE(member_kind))
		{
			relation_close(rel, NoLock);
			continue;
		}
		/* The executor's own words for it (ExecCheckRTPerms' caller, plancat). */
		if (RecoveryInProgress() && !RelationIsPermanent(rel))
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("cannot access temporary or unlogged relations during recovery"),
					 member != relid ?
					 errdetail("\"%s\" is a member of \"%s\".",
							   RelationGetRelationName(rel), get_rel_name(relid)) : 0,
					 errhint("Measure it on the primary.")));
		check_access_method(rel, relid);

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

/*
 * Open a segment file read-only, as a transient file closed at the end of
 * the transaction whatever happens, with O_DIRECT if asked.  A filesystem
 * that refuses O_DIRECT is an error, or with refuse_ok a -1 return.
 */
int
sb_open_segment(SbSegment *seg, bool direct, bool refuse_ok)
{
	int			fd = OpenTransientFile(seg->path,
									   O_RDONLY | PG_BINARY | (direct ? PG_O_DIRECT : 0));

	if (fd >= 0)
		return fd;
	if (direct && errno == EINVAL && refuse_ok)
		return -1;
	if (direct && errno == EINVAL)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("the filesystem under \"%s\" refuses O_DIRECT",
						seg->path),
				 errhint("Use cache => 'cold' to read through the page cache after evicting it.")));
	ereport(ERROR,
			(errcode_for_file_access(),
			 errmsg("could not open file \"%s\": %m", seg->path)));
	pg_unreachable();
}

/*
 * Fail if the open file fd, a segment file, no longer holds the stretch
 * seg: something outside PostgreSQL shrank it since the call began.
 * Before mapping a file this is what keeps an access past its end (a
 * SIGBUS, which takes every session down) from happening at all.
 */
void
sb_segment_check_size(int fd, const SbSegment *seg)
{
	struct stat st;

	if (fstat(fd, &st) != 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not stat file \"%s\": %m", seg->path)));
	if (st.st_size < seg->offset + seg->bytes)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("file \"%s\" shrank to %lld bytes during the measurement, which reads up to byte %lld",
						seg->path, (long long) st.st_size,
						(long long) (seg->offset + seg->bytes)),
				 errdetail("Something outside PostgreSQL truncated the file; PostgreSQL's locks keep PostgreSQL itself from doing it.")));
}

/*
 * A read of the stretch seg that reached the end of the file after done of
 * its bytes: the file shrank under the reader.  Reported as PostgreSQL's
 * read path reports a short block read, never counted as complete.
 */
void
sb_segment_short_read(const SbSegment *seg, off_t done)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATA_CORRUPTED),
			 errmsg("could not read file \"%s\": read only %lld of %lld bytes",
					seg->path, (long long) done, (long long) seg->bytes),
			 errdetail("The file is shorter than when the measurement began: something outside PostgreSQL truncated it.")));
}
