/*
 * dnotify.c - fcntl's F_NOTIFY: a program asks to be signalled when a
 * directory or a file in it changes, as Linux's fs/notify/dnotify/ (the
 * older interface inotify replaced, which programs still use).
 *
 * A request is one open directory's, made through one fd table (closing
 * any fd of that file in that table ends it, as Linux's dnotify_flush);
 * asking again through the same file adds DN_* bits to it, and asking
 * with none ends it. Each event the hooks of fs/notify.c deliver to the
 * directory is matched against the requests on it: a match sends the
 * file's owner (the caller's process unless F_SETOWN named another)
 * SIGIO, or F_SETSIG's signal with si_code POLL_MSG and si_fd, and ends
 * the request unless it has DN_MULTISHOT. DN_RENAME is a rename inside
 * the directory; a move out of it is DN_DELETE, into it DN_CREATE.
 *
 * The requests are few: one list, one spinlock. Each counts in its
 * inode's watches and in notify_wide_watches, so the hooks look.
 */
#include "fs/notify.h"
#include "kernel/process/task.h"
#include "mm/kmalloc.h"
#include "uapi/errno.h"

#define DN_EVENTS (DN_ACCESS | DN_MODIFY | DN_CREATE | DN_DELETE | DN_RENAME | DN_ATTRIB)

struct dnotify_request {
	struct list_head link; /* in requests */
	struct inode *dir;     /* the file's: its file holds it */
	struct file *file;     /* not referenced: closing it ends the request first */
	struct files *files;   /* the fd table it was made through */
	int fd;
	u32 mask; /* DN_EVENTS and DN_MULTISHOT */
};

static struct spinlock dnotify_lock = SPINLOCK_INIT("dnotify");
static struct list_head requests = LIST_HEAD_INIT(requests);
static u32 nr_requests; /* lets a close skip the lock while nobody asks */

static struct dnotify_request *
request_of(struct file *f, struct files *files)
{
	struct list_head *pos;

	list_for_each(pos, &requests) {
		struct dnotify_request *r = list_entry(pos, struct dnotify_request, link);
		if (r->file == f && r->files == files)
			return r;
	}
	return NULL;
}

/* Counts r in its inode's watches (added) or takes it out; dnotify_lock held. */
static void
count_request(struct dnotify_request *r, bool added)
{
	int step = added ? 1 : -1;

	__atomic_add_fetch(&r->dir->watches, step, __ATOMIC_RELAXED);
	__atomic_add_fetch(&notify_wide_watches, step, __ATOMIC_RELAXED);
	WRITE_ONCE(nr_requests, nr_requests + step);
}

/* Ends r (dnotify_lock held): the caller frees it after unlocking. */
static void
end_request(struct dnotify_request *r)
{
	list_del(&r->link);
	count_request(r, false);
}

void
dnotify_flush(struct file *f, struct files *files)
{
	if (!READ_ONCE(nr_requests))
		return;
	u64 flags = spin_lock_irqsave(&dnotify_lock);
	struct dnotify_request *r = request_of(f, files);
	if (r)
		end_request(r);
	spin_unlock_irqrestore(&dnotify_lock, flags);
	kfree(r);
}

long
dnotify_fcntl(int fd, struct file *f, u32 arg)
{
	struct files *files = current()->files;

	if (!(arg & ~DN_MULTISHOT)) { /* nothing asked: the request ends */
		dnotify_flush(f, files);
		return 0;
	}
	if (!S_ISDIR(f->inode->mode))
		return -ENOTDIR;
	struct dnotify_request *fresh = kzalloc(sizeof(*fresh));
	if (!fresh)
		return -ENOMEM;
	f_setown_if_none(f);
	long ret = 0;
	u64 flags = spin_lock_irqsave(&dnotify_lock);
	struct dnotify_request *r = request_of(f, files);
	if (r) {
		r->fd = fd;
		r->mask |= arg & (DN_EVENTS | DN_MULTISHOT);
	} else if (f->inode->watches == UINT16_MAX) {
		ret = -ENOSPC;
	} else {
		*fresh = (struct dnotify_request){ .dir = f->inode,
						   .file = f,
						   .files = files,
						   .fd = fd,
						   .mask = arg & (DN_EVENTS | DN_MULTISHOT) };
		list_add_tail(&fresh->link, &requests);
		count_request(fresh, true);
		fresh = NULL;
	}
	spin_unlock_irqrestore(&dnotify_lock, flags);
	kfree(fresh);
	/* A close of fd meanwhile flushed too early: end the request now, as Linux does. */
	struct file *now = fd_get_raw(fd);
	if (now != f)
		dnotify_flush(f, files);
	if (now)
		file_put(now);
	return ret;
}

/* The DN_* bit an inotify event stands for (0: none, as IN_OPEN and IN_CLOSE_*). */
static u32
dn_of(u32 in_mask)
{
	if (in_mask & IN_ACCESS)
		return DN_ACCESS;
	if (in_mask & IN_MODIFY)
		return DN_MODIFY;
	if (in_mask & IN_ATTRIB)
		return DN_ATTRIB;
	if (in_mask & (IN_CREATE | IN_MOVED_TO))
		return DN_CREATE;
	if (in_mask & (IN_DELETE | IN_MOVED_FROM))
		return DN_DELETE;
	return 0;
}

void
dnotify_deliver(struct inode *dir, u32 in_mask, bool rename_inside)
{
	struct list_head *pos, *next, ended = LIST_HEAD_INIT(ended);
	u32 event = rename_inside ? DN_RENAME : dn_of(in_mask);

	if (!event || !READ_ONCE(nr_requests))
		return;
	u64 flags = spin_lock_irqsave(&dnotify_lock);
	for (pos = requests.next; pos != &requests; pos = next) {
		struct dnotify_request *r = list_entry(pos, struct dnotify_request, link);
		next = pos->next;
		if (r->dir != dir || !(r->mask & event))
			continue;
		file_send_sigio(r->file, r->fd, POLL_MSG);
		if (!(r->mask & DN_MULTISHOT)) {
			end_request(r);
			list_add_tail(&r->link, &ended);
		}
	}
	spin_unlock_irqrestore(&dnotify_lock, flags);
	while (!list_empty(&ended)) {
		struct dnotify_request *r = list_first_entry(&ended, struct dnotify_request, link);
		list_del(&r->link);
		kfree(r);
	}
}
