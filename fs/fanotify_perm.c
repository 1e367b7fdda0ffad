/*
 * fanotify_perm.c - fanotify's permission events: a task opening
 * (FAN_OPEN_PERM, FAN_OPEN_EXEC_PERM) or reading (FAN_ACCESS_PERM) a file
 * under a FAN_CLASS_CONTENT group's mark waits until the listener has
 * read the event and written a struct fanotify_response naming its fd:
 * FAN_ALLOW lets the call go on, FAN_DENY fails it with EPERM. A group
 * that goes (its last close) allows what it was asked, so that no task
 * waits for a listener that is gone (LTP's fanotify07).
 *
 * An event moves PERM_QUEUED (in its group's queue) -> PERM_READING (in a
 * reader's hands) -> PERM_AWAITING (in the group's awaiting list, under
 * the fd read gave) -> PERM_ANSWERED, each step under fanotify_lock. The
 * asking task owns its events and frees them; if it stops waiting (a
 * signal), it takes back those still queued or awaiting, and leaves one in
 * a reader's hands to the reader (asker NULL).
 *
 * A file opened while no permission mark existed never asks (its reads
 * make no FAN_ACCESS_PERM), as the Linux 6.1 of Debian does
 * (FMODE_NONOTIFY_PERM); Linux decides by the file's instance, rewind by
 * every mark.
 *
 * Where rewind differs: Linux asks the groups one after another, by
 * class, and stops at the first refusal; rewind asks them all at once and
 * waits for every answer. Linux's wait yields only to a fatal signal;
 * rewind's to any, the call then restarting (or failing with EINTR) as
 * an interrupted open does, and asking again.
 */
#include "fs/fanotify.h"
#include "kernel/process/task.h"
#include "kernel/sched/sched.h"
#include "kernel/signal/signal.h"
#include "mm/kmalloc.h"

/* Tells e's task the answer (fanotify_lock held); e is off every list of its group. */
static void
answer(struct fan_event *e, u32 response)
{
	struct fan_asker *a = e->asker;

	e->state = PERM_ANSWERED;
	if (!a)
		return;
	a->pending--;
	if (response & FAN_DENY)
		a->denied = true;
	wake_up_all(&a->wq);
}

/* Queues one event for each content group whose marks ask mask about o (fanotify_lock held). */
static void
ask_groups(const struct fan_object *o, u32 mask, struct fan_asker *a, struct list_head *asked)
{
	struct list_head *pos;

	list_for_each(pos, &fanotify_groups) {
		struct fan_group *g = list_entry(pos, struct fan_group, link);
		u32 m = fan_group_mask(g, o, mask);
		if (!m)
			continue;
		struct fan_event *e = fan_event_new(g, o, m);
		if (!e)
			continue; /* no memory: allowed, as Linux's dropped event is */
		e->asker = a;
		e->state = PERM_QUEUED;
		if (fan_queue(g, e)) {
			a->pending++;
			list_add_tail(&e->asker_link, asked);
		} else {
			list_add_tail(&e->asker_link, asked); /* overflowed: allowed; freed below */
			e->state = PERM_ANSWERED;
		}
	}
}

/* The task stops waiting: takes back its events from their groups (fanotify_lock held). */
static void
give_up(struct list_head *asked)
{
	struct list_head *pos, *next;

	for (pos = asked->next; pos != asked; pos = next) {
		struct fan_event *e = list_entry(pos, struct fan_event, asker_link);
		next = pos->next;
		switch (e->state) {
		case PERM_QUEUED:
			e->group->queued--;
			/* fall through */
		case PERM_AWAITING:
			list_del(&e->link);
			break;
		case PERM_READING:
			e->asker = NULL; /* the reader frees it */
			list_del(&e->asker_link);
			break;
		case PERM_ANSWERED:
			break;
		}
	}
}

int
__fanotify_perm(struct file *f, u32 mask)
{
	struct fan_object o;
	struct fan_asker a = { .pending = 0 };
	struct list_head asked = LIST_HEAD_INIT(asked);
	int err = 0;

	if ((f->fmode & FMODE_NONOTIFY_PERM) || !fan_object_get(f, &o))
		return 0;
	wait_queue_init(&a.wq);
	spin_lock(&fanotify_lock);
	ask_groups(&o, mask, &a, &asked);
	spin_unlock(&fanotify_lock);
	fan_object_put(&o);
	if (list_empty(&asked))
		return 0;
	WAIT_ENTRY(we);
	for (;;) {
		prepare_to_wait(&a.wq, &we);
		if (!READ_ONCE(a.pending))
			break;
		if (task_interrupted()) {
			err = -ERESTARTSYS;
			break;
		}
		schedule();
	}
	finish_wait(&a.wq, &we);
	spin_lock(&fanotify_lock);
	if (err)
		give_up(&asked);
	else if (a.denied)
		err = -EPERM;
	spin_unlock(&fanotify_lock);
	while (!list_empty(&asked)) {
		struct fan_event *e = list_first_entry(&asked, struct fan_event, asker_link);
		list_del(&e->asker_link);
		fan_event_free(e);
	}
	return err;
}

void
fan_perm_reported(struct fan_event *e, int fd, bool ok)
{
	spin_lock(&fanotify_lock);
	struct fan_asker *a = e->asker;
	if (a && !ok) {
		answer(e, FAN_DENY); /* as Linux: an event the listener could not see is refused */
	} else if (a) {
		e->fd = fd;
		e->state = PERM_AWAITING;
		list_add_tail(&e->link, &e->group->awaiting);
	}
	spin_unlock(&fanotify_lock);
	if (!a)
		fan_event_free(e); /* its task stopped waiting */
}

long
fan_perm_write(struct fan_group *g, const char __user *buf, size_t n)
{
	struct kernel_fanotify_response r;
	long ret = -ENOENT;

	if (n < sizeof(r))
		return -EINVAL;
	if (copy_from_user(&r, buf, sizeof(r)))
		return -EFAULT;
	u32 verdict = r.response & ~FAN_AUDIT;
	/* FAN_AUDIT needs FAN_ENABLE_AUDIT, which fanotify_init refuses here. */
	if ((verdict != FAN_ALLOW && verdict != FAN_DENY) || (r.response & FAN_AUDIT) || r.fd < 0)
		return -EINVAL;
	spin_lock(&fanotify_lock);
	struct list_head *pos;
	list_for_each(pos, &g->awaiting) {
		struct fan_event *e = list_entry(pos, struct fan_event, link);
		if (e->fd == r.fd) {
			list_del(&e->link);
			answer(e, verdict);
			ret = sizeof(r);
			break;
		}
	}
	spin_unlock(&fanotify_lock);
	return ret;
}

void
fan_perm_release(struct fan_group *g)
{
	struct list_head *lists[] = { &g->queue, &g->awaiting };

	for (size_t i = 0; i < ARRAY_SIZE(lists); i++) {
		struct list_head *pos, *next;
		for (pos = lists[i]->next; pos != lists[i]; pos = next) {
			struct fan_event *e = list_entry(pos, struct fan_event, link);
			next = pos->next;
			if (!(e->mask & FAN_PERM_EVENTS))
				continue;
			if (e->state == PERM_QUEUED)
				g->queued--;
			list_del(&e->link);
			answer(e, FAN_ALLOW);
		}
	}
}
