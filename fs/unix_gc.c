/*
 * unix_gc.c - files in flight in SCM_RIGHTS messages, and the garbage
 * collector for the sockets only they keep alive, as Linux's
 * net/unix/garbage.c (before its 6.10 rewrite) has them.
 *
 * A file sent over an AF_UNIX socket is referenced by the message until a
 * receiver takes it. A socket can thus be kept alive by a message in its
 * own queue (sent over itself, then closed), or by a ring of sockets each
 * in the next one's queue: no fd names any of them, nobody can ever
 * receive those messages, and reference counting alone frees nothing.
 *
 * So every file in flight is counted: per socket (u->inflight, the
 * sockets with any on gc_inflight_list), in all (unix_tot_inflight), and
 * per user (what ETOOMANYREFS limits, unix_scm.c). When a socket is
 * released while sockets are in flight, the collector runs, all of it
 * under unix_lock, so that no receive or send moves a message meanwhile:
 *
 *  1. candidates: in-flight sockets whose file's every reference is in
 *     flight (refcount == inflight); nothing outside a queue holds them;
 *  2. from each candidate's count, the references held by candidates'
 *     queues (a listener's: its embryo connections' queues) are taken
 *     away; a candidate left with some is referenced from a queue that
 *     someone can still read, so it is reachable, and so is everything in
 *     its own queue, transitively;
 *  3. the candidates left unreachable are garbage: their queues are
 *     emptied, and freeing those messages drops the last references, so
 *     the sockets are released in turn (without unix_lock: a file put may
 *     release a socket, which takes it).
 *
 * A count that runs high errs safe: references it names that no queue
 * holds keep their socket reachable.
 */
#include "fs/unix.h"

static struct list_head gc_inflight_list = LIST_HEAD_INIT(gc_inflight_list);
static u32 unix_tot_inflight; /* sockets in flight, counted once per message holding one */
static bool gc_in_progress;   /* a collection is freeing: releases it causes do not recurse */

/* ---- counting ----------------------------------------------------------------------- */

void
unix_inflight(struct file *f)
{
	struct unix_sock *u = unix_sock_of_file(f);

	if (!u)
		return;
	mutex_lock(&unix_lock);
	if (u->inflight++ == 0)
		list_add_tail(&u->gc_link, &gc_inflight_list);
	unix_tot_inflight++;
	mutex_unlock(&unix_lock);
}

void
unix_notinflight(struct file *f)
{
	struct unix_sock *u = unix_sock_of_file(f);

	if (!u)
		return;
	mutex_lock(&unix_lock);
	if (--u->inflight == 0)
		list_del(&u->gc_link);
	unix_tot_inflight--;
	mutex_unlock(&unix_lock);
}

/* ---- collecting ------------------------------------------------------------------- */

/* Calls fn(child, arg) for each socket in flight in u's queue, or its embryos' if it listens. */
static void
for_each_child(struct unix_sock *u, void (*fn)(struct unix_sock *child))
{
	struct list_head *pos;

	if (u->state == UNIX_LISTENING) {
		list_for_each(pos, &u->queue)
			for_each_child(list_entry(pos, struct unix_sock, pending_link), fn);
		return;
	}
	list_for_each(pos, &u->queue) {
		struct unix_msg *msg = list_entry(pos, struct unix_msg, link);
		for (u32 i = 0; i < msg->nfiles; i++) {
			struct unix_sock *child = unix_sock_of_file(msg->files[i]);
			if (child && child->gc_candidate)
				fn(child);
		}
	}
}

static void
drop_internal_ref(struct unix_sock *child)
{
	child->gc_refs--;
}

static void
restore_ref(struct unix_sock *child)
{
	child->gc_refs++;
}

/*
 * Candidates referenced from outside the candidates' queues are reachable,
 * and so is what is in flight in their queues: until nothing changes (a
 * loop, not a recursion, for a chain of any length).
 */
static void
mark_reachable(void)
{
	struct list_head *pos;
	bool changed;

	do {
		changed = false;
		list_for_each(pos, &gc_inflight_list) {
			struct unix_sock *u = list_entry(pos, struct unix_sock, gc_link);
			if (u->gc_candidate && u->gc_refs > 0) {
				u->gc_candidate = false;
				for_each_child(u, restore_ref);
				changed = true;
			}
		}
	} while (changed);
}

/* Moves the messages of a garbage socket (a listener's: of its embryos) onto hitlist. */
static void
take_garbage(struct unix_sock *u, struct list_head *hitlist)
{
	struct list_head *pos;

	if (u->state == UNIX_LISTENING) {
		list_for_each(pos, &u->queue)
			take_garbage(list_entry(pos, struct unix_sock, pending_link), hitlist);
		return;
	}
	while (!list_empty(&u->queue)) {
		struct unix_msg *msg = list_first_entry(&u->queue, struct unix_msg, link);
		unix_msg_dequeue(u, msg);
		list_add_tail(&msg->link, hitlist);
	}
}

/* Finds the unreachable in-flight sockets and moves their messages to hitlist (unix_lock held). */
static void
find_garbage(struct list_head *hitlist)
{
	struct list_head *pos;

	list_for_each(pos, &gc_inflight_list) {
		struct unix_sock *u = list_entry(pos, struct unix_sock, gc_link);
		u->gc_candidate =
			__atomic_load_n(&u->file->refcount, __ATOMIC_ACQUIRE) == u->inflight;
		u->gc_refs = u->inflight;
	}
	list_for_each(pos, &gc_inflight_list) {
		struct unix_sock *u = list_entry(pos, struct unix_sock, gc_link);
		if (u->gc_candidate)
			for_each_child(u, drop_internal_ref);
	}
	mark_reachable();
	list_for_each(pos, &gc_inflight_list) {
		struct unix_sock *u = list_entry(pos, struct unix_sock, gc_link);
		if (u->gc_candidate)
			take_garbage(u, hitlist);
		u->gc_candidate = false;
	}
}

void
unix_gc(void)
{
	struct list_head hitlist;

	list_init(&hitlist);
	mutex_lock(&unix_lock);
	if (gc_in_progress || !unix_tot_inflight) {
		mutex_unlock(&unix_lock);
		return;
	}
	gc_in_progress = true;
	find_garbage(&hitlist);
	mutex_unlock(&unix_lock);
	unix_msgs_notinflight(&hitlist);
	unix_msgs_free(&hitlist); /* the garbage sockets' last references: they go now */
	mutex_lock(&unix_lock);
	gc_in_progress = false;
	mutex_unlock(&unix_lock);
}
