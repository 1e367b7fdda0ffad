/*
 * eventpoll.c - epoll: an instance that remembers a set of files and
 * reports which of them are ready, without asking each one every time.
 *
 * Each watched (file, fd) pair is an epitem. Adding it asks the file's poll
 * operation once with a table whose queue procedure hooks a wake function
 * onto every wait queue the file names (kernel/sched/wait.h): from then on
 * any wake-up of the file puts the item on the instance's ready list and
 * wakes the instance's sleepers. epoll_wait only looks at the ready list,
 * asking each item there for its mask again, as Linux's fs/eventpoll.c:
 *   level-triggered  an item still ready goes back on the list, so the
 *                    next wait asks it again;
 *   EPOLLET          it does not: only a new wake-up reports it again;
 *   EPOLLONESHOT     once reported it is disabled until EPOLL_CTL_MOD.
 * Wake-ups carry no mask here, so a wake-up may queue an item that turns
 * out not to be ready; asking it again filters that out.
 *
 * An epoll file can itself be watched (nested epoll): its poll operation
 * is readable when an item on its ready list is, and its own wake-ups come
 * from its items' wake functions. Linux's limits on the graph hold: adding
 * an instance that reaches the one it is added to is ELOOP, as is a chain
 * below it deeper than EP_MAX_NESTS; a file with more than EP_MAX_NESTS + 1
 * instances stacked above it is EINVAL (reverse_path_check). Linux also
 * caps the number of wake-up paths per depth; that is not counted here.
 *
 * EPOLLEXCLUSIVE hooks the item's wake function as an exclusive entry
 * (kernel/sched/wait.h): a wake_up() of the file's queue wakes one of the
 * instances so watching it that has a task in epoll_wait, as Linux's
 * ep_poll_callback (wake-ups carry no mask here, so any event counts).
 *
 * Locking, outermost first:
 *   epmutex        the graph: every instance's items, every file's
 *                  watchers (file->epitems); held by epoll_ctl, by the
 *                  close of an instance and by the last close of a watched file
 *   ep->mtx        an instance's items stay alive: held while its ready
 *                  list is scanned (epoll_wait, poll of the epoll file),
 *                  and by whoever removes one. A nested scan takes the
 *                  inner instance's mtx under the outer's.
 *   target queue's lock, then ep->lock (spinlock, interrupts off): the ready
 *                  list and each item's events, taken by wake functions
 * No reference on a watched file is held: its last close removes it from
 * every instance first (eventpoll_release, called by file_put), so an item
 * found under ep->mtx has a file whose release has not run.
 */
#include "fs/vfs.h"
#include "kernel/lib/string.h"
#include "kernel/sched/sched.h"
#include "kernel/signal/signal.h"
#include "kernel/syscall/syscall.h"
#include "kernel/time/tsc.h"
#include "mm/kmalloc.h"
#include "uapi/errno.h"
#include "uapi/eventpoll.h"
#include "uapi/time.h"
#include "kernel/time/time64.h"

#define EP_MAX_NESTS	4
#define EP_PRIVATE_BITS (EPOLLWAKEUP | EPOLLONESHOT | EPOLLET | EPOLLEXCLUSIVE)
#define EPOLLEXCLUSIVE_OK_BITS \
	(POLLIN | POLLOUT | POLLERR | POLLHUP | EPOLLWAKEUP | EPOLLET | EPOLLEXCLUSIVE)
#define EP_MAX_EVENTS	(0x7fffffff / sizeof(struct kernel_epoll_event))
#define EP_UNACTIVE_PTR ((struct epitem *)-1L)

struct eventpoll {
	struct mutex mtx;
	struct spinlock lock;	   /* rdllist, items' rdlink and event.events */
	struct wait_queue wq;	   /* tasks in epoll_wait */
	struct wait_queue poll_wq; /* poll of this file: tasks in poll, outer instances */
	struct list_head rdllist;  /* items a wake-up says may be ready */
	struct epitem *ovflist;	   /* woken during epoll_wait's scan; EP_UNACTIVE_PTR: no scan */
	struct list_head items;	   /* every item; epmutex */
	struct file *file;	   /* its own file (not referenced: it owns us) */
	u64 visited;		   /* the graph walk that saw it last (epmutex) */
};

/* One wait queue an item's file named, with the wake function hooked on it. */
struct ep_wait {
	struct wait_entry we;
	struct wait_queue *q;
	struct epitem *epi;
	struct ep_wait *next;
};

struct epitem {
	struct list_head ep_link;   /* in ep->items */
	struct list_head rdlink;    /* in ep->rdllist, or a scan's list; empty when neither */
	struct epitem *ovf_next;    /* in ep->ovflist; EP_UNACTIVE_PTR when not */
	struct list_head file_link; /* in file->epitems */
	struct eventpoll *ep;
	struct file *file;
	int fd;
	struct kernel_epoll_event event;
	struct ep_wait *waits;
};

static struct mutex epmutex = MUTEX_INIT(epmutex, "epmutex");
static u64 walk_generation; /* epmutex */

static const struct file_operations eventpoll_fops;

static bool
is_file_epoll(struct file *f)
{
	return f->ops == &eventpoll_fops;
}

/* ---- readiness: wake functions and the ready list -------------------------------------------- */

/*
 * Queues epi (ep->lock held): whether it is enabled (a disabled one-shot
 * item stays off). While epoll_wait scans without the lock, the ready list
 * is the scan's: epi goes on ovflist, which the scan's end moves over.
 */
static bool
ep_queue_locked(struct epitem *epi)
{
	struct eventpoll *ep = epi->ep;

	if (!(epi->event.events & ~EP_PRIVATE_BITS))
		return false;
	if (ep->ovflist != EP_UNACTIVE_PTR) {
		if (epi->ovf_next == EP_UNACTIVE_PTR) {
			epi->ovf_next = ep->ovflist;
			ep->ovflist = epi;
		}
	} else if (list_empty(&epi->rdlink)) {
		list_add_tail(&epi->rdlink, &ep->rdllist);
	}
	return true;
}

static void
ep_wake(struct eventpoll *ep)
{
	wake_up_all(&ep->wq);
	wake_up_all(&ep->poll_wq);
}

/*
 * A watched file's queue was woken: the item may be ready. An exclusive
 * item takes the wake-up only when a task waits in this instance.
 */
static bool
ep_poll_callback(struct wait_entry *e)
{
	struct epitem *epi = container_of(e, struct ep_wait, we)->epi;
	struct eventpoll *ep = epi->ep;
	u64 flags = spin_lock_irqsave(&ep->lock);
	bool queued = ep_queue_locked(epi);
	bool has_sleeper = !list_empty(&ep->wq.waiters);

	spin_unlock_irqrestore(&ep->lock, flags);
	if (queued)
		ep_wake(ep);
	return !(epi->event.events & EPOLLEXCLUSIVE) || (queued && has_sleeper);
}

struct ep_pqueue {
	struct poll_table pt;
	struct epitem *epi;
	int error;
};

/* The queue procedure of an item's first poll: hooks the wake function on q. */
static void
ep_ptable_queue(struct file *f, struct wait_queue *q, struct poll_table *pt)
{
	struct ep_pqueue *epq = container_of(pt, struct ep_pqueue, pt);
	struct ep_wait *w = kmalloc(sizeof(*w));

	(void)f;
	if (!w) {
		epq->error = -ENOMEM;
		return;
	}
	w->q = q;
	w->epi = epq->epi;
	w->next = epq->epi->waits;
	epq->epi->waits = w;
	list_init(&w->we.link);
	if (epq->epi->event.events & EPOLLEXCLUSIVE)
		add_wait_queue_exclusive_func(q, &w->we, ep_poll_callback);
	else
		add_wait_queue_func(q, &w->we, ep_poll_callback);
}

/* The events of epi's file that it asks for, now. */
static unsigned
ep_item_poll(struct epitem *epi, struct poll_table *pt)
{
	return file_poll(epi->file, pt) & epi->event.events;
}

/* Moves every item on from back to the front of ep's ready list (ep->lock held). */
static void
ep_requeue_locked(struct eventpoll *ep, struct list_head *from)
{
	while (!list_empty(from)) {
		struct list_head *last = from->prev;
		list_del(last);
		list_add(last, &ep->rdllist);
	}
}

/*
 * The end of epoll_wait's scan (ep->lock held): the items woken meanwhile
 * join the ready list, and so do those of txlist not reported, in front.
 */
static void
ep_end_scan_locked(struct eventpoll *ep, struct list_head *txlist)
{
	struct epitem *epi, *next;

	for (epi = ep->ovflist; epi; epi = next) {
		next = epi->ovf_next;
		epi->ovf_next = EP_UNACTIVE_PTR;
		if (list_empty(&epi->rdlink))
			list_add(&epi->rdlink, &ep->rdllist); /* ovflist is newest first */
	}
	ep->ovflist = EP_UNACTIVE_PTR;
	ep_requeue_locked(ep, txlist);
}

/* Takes the whole ready list into txlist (on the caller's stack); ep->lock held. */
static void
ep_take_ready_locked(struct eventpoll *ep, struct list_head *txlist)
{
	list_init(txlist);
	if (!list_empty(&ep->rdllist)) {
		txlist->next = ep->rdllist.next;
		txlist->prev = ep->rdllist.prev;
		txlist->next->prev = txlist;
		txlist->prev->next = txlist;
		list_init(&ep->rdllist);
	}
}

static void
ep_take_ready(struct eventpoll *ep, struct list_head *txlist)
{
	u64 flags = spin_lock_irqsave(&ep->lock);

	ep_take_ready_locked(ep, txlist);
	spin_unlock_irqrestore(&ep->lock, flags);
}

/* The first item of txlist, taken off it; NULL when it is empty. */
static struct epitem *
ep_next_ready(struct eventpoll *ep, struct list_head *txlist)
{
	u64 flags = spin_lock_irqsave(&ep->lock);
	struct epitem *epi = NULL;

	if (!list_empty(txlist)) {
		epi = list_first_entry(txlist, struct epitem, rdlink);
		list_del(&epi->rdlink);
	}
	spin_unlock_irqrestore(&ep->lock, flags);
	return epi;
}

/* Stores one event's two fields in one user-access window, as Linux's epoll_put_uevent. */
static inline bool
ep_put_event(struct kernel_epoll_event __user *uev, unsigned revents, u64 data)
{
	int err = 0;

	if (!user_access_begin(uev, sizeof(*uev)))
		return false;
	unsafe_put_user(revents, &uev->events, err);
	unsafe_put_user(data, &uev->data, err);
	user_access_end();
	return !err;
}

/*
 * Copies up to maxevents ready events to user memory (ep->mtx held): how
 * many, or -EFAULT when not even the first could be written. As Linux's
 * ep_send_events, the ready list is taken under ep->lock and then walked
 * without it - each item's poll and copy may fault and sleep - while
 * wake-ups go on ovflist (ep_queue_locked); ep->mtx keeps every other
 * writer of the ready list out meanwhile. The end puts the items not
 * reported and those woken meanwhile back on the ready list.
 */
static long
ep_send_events(struct eventpoll *ep, struct kernel_epoll_event __user *uevents, int maxevents)
{
	struct list_head txlist;
	long res = 0;
	u64 flags = spin_lock_irqsave(&ep->lock);

	ep_take_ready_locked(ep, &txlist);
	ep->ovflist = NULL;
	spin_unlock_irqrestore(&ep->lock, flags);
	while (res < maxevents && !list_empty(&txlist)) {
		struct epitem *epi = list_first_entry(&txlist, struct epitem, rdlink);
		list_del(&epi->rdlink);
		unsigned revents = ep_item_poll(epi, NULL);
		if (!revents)
			continue;
		if (!ep_put_event(&uevents[res], revents, epi->event.data)) {
			list_add(&epi->rdlink, &txlist);
			if (!res)
				res = -EFAULT;
			break;
		}
		res++;
		if (epi->event.events & EPOLLONESHOT)
			epi->event.events &= EP_PRIVATE_BITS;
		else if (!(epi->event.events & EPOLLET))
			list_add_tail(&epi->rdlink,
				      &ep->rdllist); /* level-triggered: asked again */
	}
	flags = spin_lock_irqsave(&ep->lock);
	ep_end_scan_locked(ep, &txlist);
	spin_unlock_irqrestore(&ep->lock, flags);
	return res;
}

/* poll of an epoll file: readable while an item on its ready list is ready. */
static unsigned
ep_eventpoll_poll(struct file *f, struct poll_table *pt)
{
	struct eventpoll *ep = f->private;
	struct list_head txlist;
	struct epitem *epi;
	unsigned mask = 0;

	poll_wait(f, &ep->poll_wq, pt);
	mutex_lock(&ep->mtx);
	ep_take_ready(ep, &txlist);
	while (!mask && (epi = ep_next_ready(ep, &txlist))) {
		if (ep_item_poll(epi, NULL)) {
			mask = POLLIN | POLLRDNORM;
			u64 flags = spin_lock_irqsave(&ep->lock);
			list_add(&epi->rdlink, &txlist);
			spin_unlock_irqrestore(&ep->lock, flags);
		}
		/* not ready: it stays off the list until its next wake-up, as in Linux */
	}
	u64 flags = spin_lock_irqsave(&ep->lock);
	ep_requeue_locked(ep, &txlist);
	spin_unlock_irqrestore(&ep->lock, flags);
	mutex_unlock(&ep->mtx);
	return mask;
}

/* ---- items: insert, modify, remove ----------------------------------------------------------- */

static struct epitem *
ep_find(struct eventpoll *ep, struct file *f, int fd)
{
	struct list_head *pos;

	list_for_each(pos, &ep->items) {
		struct epitem *epi = list_entry(pos, struct epitem, ep_link);
		if (epi->file == f && epi->fd == fd)
			return epi;
	}
	return NULL;
}

/* Unhooks and frees epi (epmutex and ep->mtx held): no wake function of it runs after. */
static void
ep_remove(struct eventpoll *ep, struct epitem *epi)
{
	struct ep_wait *w, *next;

	for (w = epi->waits; w; w = next) {
		next = w->next;
		remove_wait_queue(w->q, &w->we);
		kfree(w);
	}
	u64 flags = spin_lock_irqsave(&ep->lock);
	if (!list_empty(&epi->rdlink))
		list_del(&epi->rdlink);
	spin_unlock_irqrestore(&ep->lock, flags);
	list_del(&epi->ep_link);
	list_del(&epi->file_link);
	kfree(epi);
}

/*
 * Whether adding to ep an instance `to` makes a loop or a chain too deep
 * (Linux's ep_loop_check): the instances below `to`, depth levels down.
 */
static bool
ep_loops(struct eventpoll *ep, struct eventpoll *to, int depth)
{
	struct list_head *pos;

	to->visited = walk_generation;
	list_for_each(pos, &to->items) {
		struct file *child = list_entry(pos, struct epitem, ep_link)->file;
		if (!is_file_epoll(child))
			continue;
		struct eventpoll *below = child->private;
		if (below->visited == walk_generation)
			continue;
		if (below == ep || depth > EP_MAX_NESTS || ep_loops(ep, below, depth + 1))
			return true;
	}
	return false;
}

/* How many instances are stacked above f, on its longest path up. */
static int
ep_height_above(struct file *f)
{
	struct list_head *pos;
	int height = 0;

	list_for_each(pos, &f->epitems) {
		int h = 1 + ep_height_above(list_entry(pos, struct epitem, file_link)->ep->file);
		if (h > height)
			height = h;
	}
	return height;
}

/*
 * Whether a file at or below f (an epoll file's items, recursively) has
 * more instances stacked above it than Linux lets wake-ups climb
 * (reverse_path_check).
 */
static bool
ep_paths_too_deep(struct file *f)
{
	struct list_head *pos;

	if (!is_file_epoll(f))
		return ep_height_above(f) > EP_MAX_NESTS + 1;
	struct eventpoll *ep = f->private;
	if (ep->visited == walk_generation)
		return false;
	ep->visited = walk_generation;
	list_for_each(pos, &ep->items) {
		if (ep_paths_too_deep(list_entry(pos, struct epitem, ep_link)->file))
			return true;
	}
	return false;
}

static int
ep_insert(struct eventpoll *ep, const struct kernel_epoll_event *event, struct file *tf, int fd)
{
	struct epitem *epi = kzalloc(sizeof(*epi));

	if (!epi)
		return -ENOMEM;
	list_init(&epi->rdlink);
	epi->ovf_next = EP_UNACTIVE_PTR;
	epi->ep = ep;
	epi->file = tf;
	epi->fd = fd;
	epi->event = *event;
	list_add_tail(&epi->ep_link, &ep->items);
	list_add_tail(&epi->file_link, &tf->epitems);
	walk_generation++;
	if (ep_paths_too_deep(tf)) {
		ep_remove(ep, epi);
		return -EINVAL;
	}
	struct ep_pqueue epq = { .pt = { ep_ptable_queue }, .epi = epi, .error = 0 };
	unsigned revents = ep_item_poll(epi, &epq.pt);
	if (epq.error) {
		ep_remove(ep, epi);
		return epq.error;
	}
	if (revents) {
		u64 flags = spin_lock_irqsave(&ep->lock);
		ep_queue_locked(epi);
		spin_unlock_irqrestore(&ep->lock, flags);
		ep_wake(ep);
	}
	return 0;
}

static int
ep_modify(struct eventpoll *ep, struct epitem *epi, const struct kernel_epoll_event *event)
{
	u64 flags = spin_lock_irqsave(&ep->lock);

	epi->event = *event;
	spin_unlock_irqrestore(&ep->lock, flags);
	if (ep_item_poll(epi, NULL)) {
		flags = spin_lock_irqsave(&ep->lock);
		ep_queue_locked(epi);
		spin_unlock_irqrestore(&ep->lock, flags);
		ep_wake(ep);
	}
	return 0;
}

void
eventpoll_release(struct file *f)
{
	if (list_empty(&f->epitems)) /* nobody can add it now: no reference is left */
		return;
	mutex_lock(&epmutex);
	while (!list_empty(&f->epitems)) {
		struct epitem *epi = list_first_entry(&f->epitems, struct epitem, file_link);
		struct eventpoll *ep = epi->ep;
		mutex_lock(&ep->mtx);
		ep_remove(ep, epi);
		mutex_unlock(&ep->mtx);
	}
	mutex_unlock(&epmutex);
}

static void
ep_release(struct file *f)
{
	struct eventpoll *ep = f->private;

	mutex_lock(&epmutex);
	mutex_lock(&ep->mtx);
	while (!list_empty(&ep->items))
		ep_remove(ep, list_first_entry(&ep->items, struct epitem, ep_link));
	mutex_unlock(&ep->mtx);
	mutex_unlock(&epmutex);
	kfree(ep);
}

static const struct file_operations eventpoll_fops = {
	.poll = ep_eventpoll_poll,
	.release = ep_release,
	.name = "[eventpoll]",
};

/* ---- system calls -------------------------------------------------------------------------------- */

static long
do_epoll_create(int flags)
{
	if (flags & ~EPOLL_CLOEXEC)
		return -EINVAL;
	struct eventpoll *ep = kzalloc(sizeof(*ep));
	if (!ep)
		return -ENOMEM;
	mutex_init(&ep->mtx, "eventpoll");
	spin_lock_init(&ep->lock, "eventpoll");
	wait_queue_init(&ep->wq);
	wait_queue_init(&ep->poll_wq);
	list_init(&ep->rdllist);
	ep->ovflist = EP_UNACTIVE_PTR;
	list_init(&ep->items);
	ep->file = anon_inode_getfile(&eventpoll_fops, ep, O_RDWR);
	if (!ep->file) {
		kfree(ep);
		return -ENOMEM;
	}
	int fd = fd_alloc(ep->file, 0, flags & EPOLL_CLOEXEC);
	if (fd < 0)
		file_put(ep->file); /* frees ep */
	return fd;
}

SYSCALL1(epoll_create1, int, flags)
{
	return do_epoll_create(flags);
}

SYSCALL1(epoll_create, int, size)
{
	return size <= 0 ? -EINVAL : do_epoll_create(0);
}

static bool
op_has_event(int op)
{
	return op != EPOLL_CTL_DEL;
}

/* The checks Linux's do_epoll_ctl makes before it looks at the instance's items, in its order. */
static long
ep_ctl_check(struct file *ef, struct file *tf, int op, const struct kernel_epoll_event *ev)
{
	if (!tf->ops->poll)
		return -EPERM; /* regular files and the like: always ready, so not pollable */
	if (ef == tf || !is_file_epoll(ef))
		return -EINVAL;
	if (op_has_event(op) && (ev->events & EPOLLEXCLUSIVE)) {
		if (op == EPOLL_CTL_MOD)
			return -EINVAL;
		if (op == EPOLL_CTL_ADD &&
		    (is_file_epoll(tf) || (ev->events & ~EPOLLEXCLUSIVE_OK_BITS)))
			return -EINVAL;
	}
	return 0;
}

/* The operation itself, epmutex and ep->mtx held. */
static long
ep_ctl_locked(struct eventpoll *ep, struct file *tf, int fd, int op, struct kernel_epoll_event *ev)
{
	if (op == EPOLL_CTL_ADD && is_file_epoll(tf)) {
		walk_generation++;
		if (ep_loops(ep, tf->private, 0))
			return -ELOOP;
	}
	struct epitem *epi = ep_find(ep, tf, fd);
	switch (op) {
	case EPOLL_CTL_ADD:
		if (epi)
			return -EEXIST;
		ev->events |= POLLERR | POLLHUP;
		return ep_insert(ep, ev, tf, fd);
	case EPOLL_CTL_DEL:
		if (!epi)
			return -ENOENT;
		ep_remove(ep, epi);
		return 0;
	case EPOLL_CTL_MOD:
		if (!epi)
			return -ENOENT;
		if (epi->event.events & EPOLLEXCLUSIVE)
			return -EINVAL;
		ev->events |= POLLERR | POLLHUP;
		return ep_modify(ep, epi, ev);
	default:
		return -EINVAL;
	}
}

SYSCALL4(epoll_ctl, int, epfd, int, op, int, fd, struct kernel_epoll_event __user *, event)
{
	struct kernel_epoll_event ev = { 0, 0 };

	if (op_has_event(op) && copy_from_user(&ev, event, sizeof(ev)))
		return -EFAULT;
	struct file *ef = fd_get(epfd);
	if (!ef)
		return -EBADF;
	struct file *tf = fd_get(fd);
	long ret = tf ? ep_ctl_check(ef, tf, op, &ev) : -EBADF;
	if (!ret) {
		struct eventpoll *ep = ef->private;
		mutex_lock(&epmutex);
		mutex_lock(&ep->mtx);
		ret = ep_ctl_locked(ep, tf, fd, op, &ev);
		mutex_unlock(&ep->mtx);
		mutex_unlock(&epmutex);
	}
	if (tf)
		file_put(tf);
	file_put(ef);
	return ret;
}

/*
 * Waits until ep has events, timeout_ns passes (negative: forever) or a
 * signal comes (-EINTR: epoll_wait is never restarted, as in Linux).
 */
static long
ep_poll(struct eventpoll *ep, struct kernel_epoll_event __user *uevents, int maxevents,
	s64 timeout_ns)
{
	u64 deadline = timeout_ns > 0 ? ns_since_boot() + (u64)timeout_ns : 0;

	for (;;) {
		mutex_lock(&ep->mtx);
		long res = ep_send_events(ep, uevents, maxevents);
		mutex_unlock(&ep->mtx);
		if (res || timeout_ns == 0)
			return res;
		u64 now = ns_since_boot();
		if (timeout_ns > 0 && now >= deadline)
			return 0;
		WAIT_ENTRY(we);
		prepare_to_wait(&ep->wq, &we); /* before the test: a wake-up after it is not lost */
		if (list_empty(&ep->rdllist)) {
			if (task_interrupted())
				res = -EINTR;
			else if (timeout_ns < 0)
				schedule();
			else
				schedule_timeout_ns(deadline - now);
		}
		finish_wait(&ep->wq, &we);
		if (res)
			return res;
	}
}

/* epoll_wait's checks, in Linux's order (do_epoll_wait), then the wait. */
static long
do_epoll_wait(int epfd, struct kernel_epoll_event __user *events, int maxevents, s64 timeout_ns)
{
	if (maxevents <= 0 || (u64)maxevents > EP_MAX_EVENTS)
		return -EINVAL;
	if (!access_ok(events, (size_t)maxevents * sizeof(*events)))
		return -EFAULT;
	struct fd f = fdget(epfd);
	if (!f.file)
		return -EBADF;
	long ret = is_file_epoll(f.file) ? ep_poll(f.file->private, events, maxevents, timeout_ns)
					 : -EINVAL;
	fdput(f);
	return ret;
}

static s64
ms_to_timeout(int timeout_ms)
{
	return timeout_ms < 0 ? -1 : (s64)timeout_ms * 1000000;
}

SYSCALL4(epoll_wait, int, epfd, struct kernel_epoll_event __user *, events, int, maxevents, int,
	 timeout_ms)
{
	return do_epoll_wait(epfd, events, maxevents, ms_to_timeout(timeout_ms));
}

/* epoll_pwait and epoll_pwait2: the wait with sigmask (if given) in force. */
static long
epoll_wait_masked(int epfd, struct kernel_epoll_event __user *events, int maxevents, s64 timeout_ns,
		  const u64 __user *sigmask, size_t sigsetsize)
{
	if (sigmask) {
		long err = signal_set_temporary_mask_user(sigmask, sigsetsize);
		if (err)
			return err;
	}
	long ret = do_epoll_wait(epfd, events, maxevents, timeout_ns);
	if (sigmask)
		signal_restore_temporary_mask(ret == -EINTR);
	return ret;
}

SYSCALL6(epoll_pwait, int, epfd, struct kernel_epoll_event __user *, events, int, maxevents, int,
	 timeout_ms, const u64 __user *, sigmask, size_t, sigsetsize)
{
	return epoll_wait_masked(epfd, events, maxevents, ms_to_timeout(timeout_ms), sigmask,
				 sigsetsize);
}

SYSCALL6(epoll_pwait2, int, epfd, struct kernel_epoll_event __user *, events, int, maxevents,
	 const struct kernel_timespec __user *, timeout, const u64 __user *, sigmask, size_t,
	 sigsetsize)
{
	struct kernel_timespec ts;
	s64 timeout_ns = -1;

	if (timeout) {
		if (copy_from_user(&ts, timeout, sizeof(ts)))
			return -EFAULT;
		if (ts.tv_sec < 0 || ts.tv_nsec < 0 || ts.tv_nsec >= NSEC_PER_SEC)
			return -EINVAL;
		if (__builtin_mul_overflow(ts.tv_sec, NSEC_PER_SEC, &timeout_ns) ||
		    __builtin_add_overflow(timeout_ns, ts.tv_nsec, &timeout_ns))
			timeout_ns = INT64_MAX;
	}
	return epoll_wait_masked(epfd, events, maxevents, timeout_ns, sigmask, sigsetsize);
}
