/*
 * fasync.c - O_ASYNC (FASYNC): a file in that mode has its owner
 * (fs/fown.c) told by a signal when it becomes ready, in place of polling
 * it, as Linux's fs/fcntl.c fasync lists.
 *
 * An object that can become ready (a pipe, a socket, an inotify instance)
 * keeps a list of the files on it in O_ASYNC mode, each with the fd that
 * turned the mode on (the signal's si_fd). Its file operation fasync
 * joins or leaves the list when F_SETFL or FIOASYNC flips the flag, and
 * at the file's last close; the object calls kill_fasync where Linux
 * does, with the reason (POLL_IN when data came, POLL_OUT when room did).
 * An entry holds no reference on its file: the last close takes it off
 * first. One spinlock guards every list: signals are rare beside the
 * I/O that makes them, and an object nobody asked for signals on costs
 * one test of an empty list.
 */
#include "fs/vfs.h"
#include "mm/kmalloc.h"
#include "uapi/errno.h"

struct fasync_entry {
	struct list_head link; /* in its object's list */
	struct file *file;     /* not referenced: its last close removes the entry */
	int fd;
};

static struct spinlock fasync_lock = SPINLOCK_INIT("fasync");

static struct fasync_entry *
entry_of(struct list_head *list, struct file *f)
{
	struct list_head *pos;

	list_for_each(pos, list) {
		struct fasync_entry *e = list_entry(pos, struct fasync_entry, link);
		if (e->file == f)
			return e;
	}
	return NULL;
}

int
fasync_helper(int fd, struct file *f, bool on, struct list_head *list)
{
	struct fasync_entry *fresh = on ? kzalloc(sizeof(*fresh)) : NULL, *gone = NULL;

	if (on && !fresh)
		return -ENOMEM;
	u64 flags = spin_lock_irqsave(&fasync_lock);
	struct fasync_entry *e = entry_of(list, f);
	if (e && on) {
		e->fd = fd; /* on again through another fd: that one is si_fd now, as Linux */
	} else if (e) {
		list_del(&e->link);
		gone = e;
	} else if (on) {
		fresh->file = f;
		fresh->fd = fd;
		list_add_tail(&fresh->link, list);
		fresh = NULL;
	}
	spin_unlock_irqrestore(&fasync_lock, flags);
	kfree(fresh);
	kfree(gone);
	return 0;
}

void
kill_fasync(struct list_head *list, int reason)
{
	struct list_head *pos;

	if (READ_ONCE(list->next) == list)
		return; /* nobody asked */
	u64 flags = spin_lock_irqsave(&fasync_lock);
	list_for_each(pos, list) {
		struct fasync_entry *e = list_entry(pos, struct fasync_entry, link);
		file_send_sigio(e->file, e->fd, reason);
	}
	spin_unlock_irqrestore(&fasync_lock, flags);
}
