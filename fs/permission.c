/*
 * permission.c - whether the caller may read, write, search or execute an
 * inode by its mode bits (Linux's generic_permission, without ACLs), and
 * the rules built on it: may_open for open(2), may_exec for execve,
 * may_create and may_delete for the directories that mkdir, mknod, open's
 * O_CREAT, symlink, link, unlink, rmdir and rename change,
 * access_permission for access(2), which asks with the real ids, and
 * inode_owner_or_root for what only a file's owner may do.
 *
 * The owner's bits apply to the owner, the group's to its group (the
 * asker's group id or one of its supplementary groups), the others' to
 * everyone else. When the bits refuse, the capabilities may override
 * them (kernel/process/cred.h): CAP_DAC_OVERRIDE reads and writes anything
 * and searches any directory, but executes only a file with an x bit
 * somewhere (a data file is not a program for root either);
 * CAP_DAC_READ_SEARCH reads any file and reads and searches any
 * directory. Every component of a path walk takes search permission on
 * the directory it is looked up in (fs/namei.c).
 */
#include "fs/vfs.h"
#include "kernel/process/cred.h"
#include "uapi/errno.h"
#include "uapi/fcntl.h"
#include "uapi/mount.h"

/* Who asks: the ids the bits are matched against, and the effective capabilities that override them. */
struct asker {
	u32 uid, gid;
	u64 caps;
};

static bool
has_cap(struct asker who, int cap)
{
	return who.caps >> cap & 1;
}

/* Linux's generic_permission after the bits said no: whether a capability says yes. */
static bool
dac_override(u32 mode, u32 want, struct asker who)
{
	if (S_ISDIR(mode))
		return has_cap(who, CAP_DAC_OVERRIDE) ||
		       (!(want & MAY_WRITE) && has_cap(who, CAP_DAC_READ_SEARCH));
	if ((want & 7) == MAY_READ && has_cap(who, CAP_DAC_READ_SEARCH))
		return true;
	return (!(want & MAY_EXEC) || (mode & S_IXUGO)) && has_cap(who, CAP_DAC_OVERRIDE);
}

static int
permission_for(const struct inode *inode, u32 want, struct asker who)
{
	u32 mode = READ_ONCE(inode->mode), bits;

	if (READ_ONCE(inode->uid) == who.uid)
		bits = mode >> 6;
	else if (READ_ONCE(inode->gid) == who.gid || in_supplementary_groups(READ_ONCE(inode->gid)))
		bits = mode >> 3;
	else
		bits = mode;
	if ((bits & want & 7) == (want & 7) || dac_override(mode, want, who))
		return 0;
	return -EACCES;
}

/* The current process's effective capabilities; all for a kernel thread. */
static u64
current_caps(void)
{
	struct task *leader = current()->group_leader;

	return leader ? READ_ONCE(leader->caps.effective) : CAP_FULL_SET;
}

int
generic_permission(const struct inode *inode, u32 want)
{
	return permission_for(inode, want,
			      (struct asker){ current_fsuid(), current_fsgid(), current_caps() });
}

/* A file system may widen the rule for some inodes (procfs: a process's own fd directory). */
int
inode_permission(const struct inode *inode, u32 want)
{
	if (inode->iops && inode->iops->permission)
		return inode->iops->permission(inode, want);
	return generic_permission(inode, want);
}

/*
 * access(2) asks as the real ids (AT_EACCESS: the effective ones), so that
 * a set-user-ID program can ask what its invoker may do; the capabilities
 * follow the real uid then, as Linux's access override credentials: all
 * that are permitted for a real uid of 0, none for another. A
 * write to a read-only mount is EROFS for the kinds of file that live on
 * it; devices, FIFOs and sockets are written elsewhere.
 */
int
access_permission(const struct inode *inode, u32 want, bool effective)
{
	struct id_set uids = current_uids(), gids = current_gids();
	u32 uid = effective ? uids.effective : uids.real;
	u32 gid = effective ? gids.effective : gids.real;
	u32 mode = READ_ONCE(inode->mode);

	if ((want & MAY_WRITE) && (S_ISREG(mode) || S_ISDIR(mode) || S_ISLNK(mode)) &&
	    sb_may_write(inode))
		return -EROFS;
	u64 caps = current_caps();
	if (!effective) {
		struct task *leader = current()->group_leader;
		caps = uid != 0 ? 0 : leader ? READ_ONCE(leader->caps.permitted) : CAP_FULL_SET;
	}
	return permission_for(inode, want, (struct asker){ uid, gid, caps });
}

/* Linux's inode_owner_or_capable: the file's owner, or a process with CAP_FOWNER. */
bool
inode_owner_or_root(const struct inode *inode)
{
	return capable(CAP_FOWNER) || READ_ONCE(inode->uid) == current_fsuid();
}

/*
 * open(2) of an existing file (Linux's may_open): read permission for
 * reading, write permission for writing or O_TRUNC; the access mode 3
 * ("neither", ioctl only) asks for both, as Linux does. O_PATH asks
 * nothing, and neither does the open that created the file. O_NOATIME
 * is the owner's (EPERM): others' reads must show in the access time.
 */
int
may_open(const struct inode *inode, u32 flags)
{
	static const u32 want_of_mode[4] = { MAY_READ, MAY_WRITE, MAY_READ | MAY_WRITE,
					     MAY_READ | MAY_WRITE };
	u32 want = want_of_mode[flags & O_ACCMODE];

	if (flags & O_PATH)
		return 0;
	if (flags & O_TRUNC)
		want |= MAY_WRITE;
	int err = inode_permission(inode, want);
	if (!err && (flags & O_NOATIME) && !inode_owner_or_root(inode))
		err = -EPERM;
	return err;
}

/*
 * execve of inode (Linux's do_open_execat and may_open with MAY_EXEC):
 * a regular file, execute permission, not on a noexec mount. Reading is
 * not asked: a mode 0711 program runs.
 */
int
may_exec(const struct inode *inode)
{
	if (!S_ISREG(READ_ONCE(inode->mode)) || (READ_ONCE(inode->sb->flags) & MS_NOEXEC))
		return -EACCES;
	return inode_permission(inode, MAY_EXEC);
}

int
may_create(const struct inode *dir)
{
	return inode_permission(dir, MAY_WRITE | MAY_EXEC);
}

/*
 * A new inode in dir belongs to its creator (ramfs set that), except in
 * a set-group-ID directory (Linux's inode_init_owner): there it takes the
 * directory's group, a new directory keeps the set-group-ID bit so that
 * its own children do the same, and a new group-executable file loses
 * that bit unless its creator is in the group or has CAP_FSETID,
 * as Linux's mode_strip_sgid.
 */
void
inode_init_owner(struct inode *inode, const struct inode *dir)
{
	u32 mode = inode->mode;

	if (!(READ_ONCE(dir->mode) & S_ISGID))
		return;
	inode->gid = READ_ONCE(dir->gid);
	if (S_ISDIR(mode))
		mode |= S_ISGID;
	else if ((mode & (S_ISGID | S_IXGRP)) == (S_ISGID | S_IXGRP) && !in_group_p(inode->gid) &&
		 !capable(CAP_FSETID))
		mode &= ~S_ISGID;
	inode->mode = mode;
}

/*
 * In a sticky directory (/tmp's 01777) only the victim's owner, the
 * directory's owner or CAP_FOWNER removes or replaces a name (Linux's
 * check_sticky): -EPERM for others.
 */
int
may_delete(const struct inode *dir, const struct inode *victim)
{
	int err = inode_permission(dir, MAY_WRITE | MAY_EXEC);
	u32 me = current_fsuid();

	if (err)
		return err;
	if ((READ_ONCE(dir->mode) & S_ISVTX) && !capable(CAP_FOWNER) &&
	    READ_ONCE(victim->uid) != me && READ_ONCE(dir->uid) != me)
		return -EPERM;
	return 0;
}
