/*
 * notify.h - what the VFS tells about each change to a file or a
 * directory, for inotify (fs/inotify.c), dnotify (fs/dnotify.c) and
 * fanotify (fs/fanotify.c) to deliver: Linux's fsnotify hooks, at the
 * same points (open, read, write, close, truncate, the attribute calls,
 * and each change of the tree of names), and the permission hooks where
 * fanotify's listeners may refuse an open or a read.
 *
 * A hook costs one test of the inode's watch count when nobody watches it,
 * and the hot ones (read, write, open, close) also one test of a global
 * count of watched directories, because a directory's watches hear about
 * its children too: everything else happens out of line, in fs/notify.c.
 */
#ifndef REWIND_NOTIFY_H
#define REWIND_NOTIFY_H

#include "fs/vfs.h"
#include "uapi/fanotify.h"
#include "uapi/inotify.h"

/*
 * Watches that hear about inodes besides their own: on directories (every
 * child's open, read, write and close) and fanotify's mount and
 * filesystem marks.
 */
extern u32 notify_wide_watches;
/* fanotify marks that ask for a permission event (the open and read paths test it). */
extern u32 fanotify_perm_marks;

static inline bool
inode_watched(const struct inode *inode)
{
	return READ_ONCE(inode->watches) != 0;
}

void __notify_file(struct file *f, u32 mask);

/*
 * f was read (IN_ACCESS), written (IN_MODIFY), opened (IN_OPEN) or is
 * closing (IN_CLOSE_*): to its inode's watches, and to its directory's
 * with its name.
 */
static inline void
notify_file(struct file *f, u32 mask)
{
	if (unlikely(inode_watched(f->inode)) || unlikely(READ_ONCE(notify_wide_watches)))
		__notify_file(f, mask);
}

int __fanotify_perm(struct file *f, u32 mask);

/*
 * f is being opened (FAN_OPEN_PERM, FAN_OPEN_EXEC_PERM) or read
 * (FAN_ACCESS_PERM): 0, or -EPERM when a fanotify listener refuses it. The
 * task waits for the listeners' answers.
 */
static inline int
notify_perm(struct file *f, u32 mask)
{
	return unlikely(READ_ONCE(fanotify_perm_marks)) ? __fanotify_perm(f, mask) : 0;
}

/* inode changed (IN_ATTRIB, IN_MODIFY, IN_ACCESS), told by inode only: its own watches hear. */
void notify_inode(struct inode *inode, u32 mask);
/*
 * The same for an attribute call that reached inode through the name d
 * (NULL: a nameless file): the directory d is in hears it too, with the name.
 */
void notify_change(struct inode *inode, struct dentry *d, u32 mask);
/* A name in a directory, not NUL-terminated (a path's last component). */
struct notify_name {
	const char *s;
	size_t len;
};
/* dir has a new name for child: IN_CREATE. */
void notify_create(struct dentry *dir, struct notify_name name, struct inode *child);
/* victim's name went from dir: IN_ATTRIB, IN_DELETE_SELF (its last name), IN_DELETE. */
void notify_delete(struct dentry *dir, struct notify_name name, struct dentry *victim);
/*
 * moved went from olddir's oldname to newdir's newname, over target (NULL
 * for none): IN_MOVED_FROM and IN_MOVED_TO with one cookie, IN_MOVE_SELF,
 * and target's removal.
 */
void notify_move(struct dentry *olddir, struct notify_name oldname, struct dentry *newdir,
		 struct notify_name newname, struct inode *moved, struct inode *target);

/* ---- fs/inotify.c: the delivery --------------------------------------------- */

/* The limits of /proc/sys/fs/inotify (fs/proc/sysctl.c shows and sets them). */
extern unsigned long inotify_max_queued_events, inotify_max_user_instances,
	inotify_max_user_watches;

/*
 * One event to inode's watches that want it: about inode itself (name
 * NULL) or about its child called name (child_unlinked: that child has
 * no name any more, for IN_EXCL_UNLINK).
 */
void inotify_deliver(struct inode *inode, u32 mask, u32 cookie, const char *name, size_t len,
		     bool child_unlinked);
/* inode lost its last name: IN_DELETE_SELF, and its watches go (IN_IGNORED). */
void inotify_inode_removed(struct inode *inode);

/* ---- fs/fanotify.c ---------------------------------------------------------- */

/* Marks in every fanotify group: whether __notify_file asks fanotify. */
extern u32 fanotify_marks;
/* f was read, written, opened or is closing (IN_* mask): to fanotify's marks. */
void fanotify_file_event(struct file *f, u32 mask);

/* ---- fs/dnotify.c: F_NOTIFY's signals ------------------------------------------ */

/*
 * The event in_mask (IN_*) happened to dir or to a file in it, or a name
 * in it was renamed inside it (rename_inside: DN_RENAME): signals the
 * F_NOTIFY requests on dir that asked for it.
 */
void dnotify_deliver(struct inode *dir, u32 in_mask, bool rename_inside);

#endif
