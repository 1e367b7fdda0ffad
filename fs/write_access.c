/*
 * write_access.c - who may write a regular file: its writers, or the
 * programs running from it, never both (ETXTBSY).
 *
 * execve maps the page-cache pages of the executable straight into the
 * new program, so a write changes running code and a truncation leaves
 * the program's text past the end of the file (SIGBUS at the next fetch;
 * for init, a kernel panic). Linux therefore keeps one count per inode,
 * i_writecount: positive, the open files that may write it; negative, the
 * holders that deny writing (each executable mapping of it). Either kind
 * of holder is refused while the other kind exists, even for root. The
 * count moves by compare-and-swap, so the check and the change are one
 * step and no lock is needed.
 *
 * Takers: open for writing or with O_TRUNC and truncate(2) (fs/file.c,
 * fs/truncate.c) take write access; execve denies writing while it loads
 * the file, and every VMA with VM_DENYWRITE holds one denial for as long
 * as it exists (mm/vm.c), so the file is writable again when the last
 * mapping of the program is gone (exit, a later execve, munmap).
 */
#include "fs/vfs.h"

/* Moves the count by delta (+1 or -1) unless it has the sign that excludes this holder. */
static int
write_count_move(struct inode *inode, int delta)
{
	int old = __atomic_load_n(&inode->writecount, __ATOMIC_RELAXED);

	do {
		if (delta > 0 ? old < 0 : old > 0)
			return -ETXTBSY;
	} while (!__atomic_compare_exchange_n(&inode->writecount, &old, old + delta, true,
					      __ATOMIC_ACQ_REL, __ATOMIC_RELAXED));
	return 0;
}

int
inode_get_write_access(struct inode *inode)
{
	return write_count_move(inode, 1);
}

void
inode_put_write_access(struct inode *inode)
{
	__atomic_sub_fetch(&inode->writecount, 1, __ATOMIC_RELEASE);
}

int
inode_deny_write_access(struct inode *inode)
{
	return write_count_move(inode, -1);
}

void
inode_allow_write_access(struct inode *inode)
{
	__atomic_add_fetch(&inode->writecount, 1, __ATOMIC_RELEASE);
}

/* ---- fs/fs.h: for execve and the VMAs of a program ----------------------- */

int
file_deny_write(struct file *f)
{
	return inode_deny_write_access(f->inode);
}

void
file_allow_write(struct file *f)
{
	inode_allow_write_access(f->inode);
}
