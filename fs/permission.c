/*
 * permission.c - whether the caller may read, write or search an inode by
 * its mode bits (Linux's generic_permission, without ACLs), and the two
 * rules built on it for changing a directory: may_create and may_delete
 * (Linux's of the same names), which mkdir, mknod, open's O_CREAT,
 * symlink, link, unlink, rmdir and rename apply to the directories they
 * change.
 *
 * The owner's bits apply to the owner, the group's to its group, the
 * others' to everyone else; root (an effective uid of 0, kernel/process/
 * cred.h) may read and write anything and search any directory, as
 * CAP_DAC_OVERRIDE allows. open does not check the bits yet: a process that
 * gave up root still opens any file (docs/robustness.md).
 */
#include "fs/vfs.h"
#include "kernel/process/cred.h"
#include "uapi/errno.h"

int
inode_permission(const struct inode *inode, u32 want)
{
	u32 mode = READ_ONCE(inode->mode), bits;

	if (privileged())
		return 0;
	if (READ_ONCE(inode->uid) == current_fsuid())
		bits = mode >> 6;
	else if (READ_ONCE(inode->gid) == current_fsgid())
		bits = mode >> 3;
	else
		bits = mode;
	return (bits & want & 7) == (want & 7) ? 0 : -EACCES;
}

int
may_create(const struct inode *dir)
{
	return inode_permission(dir, MAY_WRITE | MAY_EXEC);
}

/*
 * In a sticky directory (/tmp's 01777) only the victim's owner, the
 * directory's owner or root removes or replaces a name (Linux's
 * check_sticky): -EPERM for others.
 */
int
may_delete(const struct inode *dir, const struct inode *victim)
{
	int err = inode_permission(dir, MAY_WRITE | MAY_EXEC);
	u32 me = current_fsuid();

	if (err)
		return err;
	if ((READ_ONCE(dir->mode) & S_ISVTX) && !privileged() && READ_ONCE(victim->uid) != me &&
	    READ_ONCE(dir->uid) != me)
		return -EPERM;
	return 0;
}
