/*
 * notify.c - which inotify events each change makes, and to whom, as
 * Linux's fsnotify hooks (include/linux/fsnotify.h) decide them: an event
 * about a file goes to the file's own watches, and those of the directory
 * it is named in hear it too, with its name; an event about a name
 * (created, deleted, moved) goes to the directory's watches. IN_ISDIR
 * marks events about directories.
 *
 * The same events reach the directories' F_NOTIFY requests
 * (fs/dnotify.c), which signal where inotify queues, and a file's open,
 * read, write and close reach fanotify's marks (fs/fanotify.c).
 *
 * Where rewind differs: a file's last name going (unlink, rmdir, a rename
 * over it) sends IN_DELETE_SELF at once, where Linux waits for its last
 * dentry reference (an open file's last close). A change told by inode
 * alone (notify_inode: a link count, a truncate, fallocate) reaches only
 * the inode's own watches; the attribute calls tell the name they were
 * reached by too (notify_change), so a directory hears its children's.
 */
#include "fs/notify.h"

u32 notify_wide_watches;
u32 fanotify_perm_marks;

/* IN_ISDIR when the event is about a directory. */
static u32
about(const struct inode *inode, u32 mask)
{
	return S_ISDIR(inode->mode) ? mask | IN_ISDIR : mask;
}

/* One event to inode's inotify watches and its F_NOTIFY requests (a directory's). */
static void
deliver(struct inode *inode, u32 mask, u32 cookie, const char *name, size_t len,
	bool child_unlinked)
{
	inotify_deliver(inode, mask, cookie, name, len, child_unlinked);
	if (S_ISDIR(inode->mode))
		dnotify_deliver(inode, mask, false);
}

/* mask (IN_ISDIR marked already) to the watches of the directory d is named in, with its name. */
static void
tell_parent(struct dentry *d, u32 mask)
{
	char name[NAME_MAX + 1];
	size_t len;
	struct dentry *dir = dget_parent_name(d, name, &len);

	if (dir != d && inode_watched(dir->inode))
		deliver(dir->inode, mask, 0, name, len, READ_ONCE(d->deleted));
	dput(dir);
}

void
__notify_file(struct file *f, u32 mask)
{
	struct inode *inode = f->inode;

	if (f->fmode & (FMODE_PATH | FMODE_NONOTIFY))
		return; /* a handle on a name is neither opened nor closed for its data */
	if (READ_ONCE(fanotify_marks))
		fanotify_file_event(f, mask);
	mask = about(inode, mask);
	if (f->dentry && READ_ONCE(notify_wide_watches))
		tell_parent(f->dentry, mask);
	if (inode_watched(inode))
		deliver(inode, mask, 0, NULL, 0, false);
}

void
notify_change(struct inode *inode, struct dentry *d, u32 mask)
{
	if (d && READ_ONCE(notify_wide_watches))
		tell_parent(d, about(inode, mask));
	notify_inode(inode, mask);
}

void
notify_inode(struct inode *inode, u32 mask)
{
	if (inode_watched(inode))
		deliver(inode, about(inode, mask), 0, NULL, 0, false);
}

void
notify_create(struct dentry *dir, struct notify_name name, struct inode *child)
{
	if (inode_watched(dir->inode))
		deliver(dir->inode, about(child, IN_CREATE), 0, name.s, name.len, false);
}

/*
 * inode lost a name: a file that keeps others has a new link count
 * (IN_ATTRIB, as Linux's fsnotify_link_count); one that kept none is gone.
 */
static void
name_removed(struct inode *inode)
{
	if (!S_ISDIR(inode->mode))
		notify_inode(inode, IN_ATTRIB);
	if (!READ_ONCE(inode->nlink) && inode_watched(inode))
		inotify_inode_removed(inode);
}

void
notify_delete(struct dentry *dir, struct notify_name name, struct dentry *victim)
{
	name_removed(victim->inode);
	if (inode_watched(dir->inode))
		deliver(dir->inode, about(victim->inode, IN_DELETE), 0, name.s, name.len, false);
}

void
notify_move(struct dentry *olddir, struct notify_name oldname, struct dentry *newdir,
	    struct notify_name newname, struct inode *moved, struct inode *target)
{
	static u32 last_cookie;
	bool old_watched = inode_watched(olddir->inode), new_watched = inode_watched(newdir->inode);

	if (old_watched || new_watched) {
		/* One cookie pairs the two halves of a move for whoever hears both. */
		u32 cookie = __atomic_add_fetch(&last_cookie, 1, __ATOMIC_RELAXED);
		if (old_watched)
			deliver(olddir->inode, about(moved, IN_MOVED_FROM), cookie, oldname.s,
				oldname.len, false);
		if (new_watched)
			deliver(newdir->inode, about(moved, IN_MOVED_TO), cookie, newname.s,
				newname.len, false);
	}
	if (olddir == newdir && new_watched)
		dnotify_deliver(newdir->inode, 0, true); /* DN_RENAME: a rename inside it */
	notify_inode(moved, IN_MOVE_SELF);
	if (target)
		name_removed(target);
}
