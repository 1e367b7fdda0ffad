/*
 * osq.c - the optimistic spin queue (Linux 3.16's form, the tail an int);
 * see osq.h.
 *
 * Each CPU has one node { next, prev, locked, cpu }. The queue word holds
 * the tail's CPU + 1. To queue, a CPU exchanges its own number into the
 * tail: an old tail of 0 means the queue was empty and it is the head at
 * once; otherwise it links itself behind the old tail (prev->next = me)
 * and spins on its own node's `locked`, a line nobody else writes until
 * its turn comes, so N waiting CPUs spin on N different cache lines. The
 * head leaves by swinging the tail from itself back to 0, or, if someone
 * queued behind it, by setting that successor's `locked`.
 *
 * Leaving early. A queued CPU that must reschedule (the tick ended its
 * slice) leaves the middle of the queue in three steps:
 *   A. unlink from prev: cmpxchg prev->next from me to NULL. If that
 *      fails, prev is handing the head to us (then `locked` turns 1 and we
 *      take it after all) or prev itself left and step C gave us a new
 *      prev: re-read node->prev and retry.
 *   B. find a stable successor: if we are the tail, cmpxchg the tail back
 *      to prev and we are out; otherwise wait until our successor has
 *      linked itself (node->next set) and take it with an exchange to NULL.
 *   C. join them: next->prev = prev, prev->next = next.
 * The unlocking head uses step B too, when a CPU has swapped itself into
 * the tail but has not linked itself yet.
 *
 * Invariants: a node is in at most one queue (its CPU's one spinner); the
 * tail names the last node or is 0; `locked` of a node is written once
 * per queueing, by its predecessor; prev->next is either the node behind
 * prev, NULL while a change is in flight, or points at a node that will
 * rewrite it (step A retries until it owns the change).
 *
 * Interrupts stay on while spinning (the tick must be able to end a
 * slice); interrupt handlers never spin here.
 */
#include "locking/osq.h"
#include "kernel/x86/percpu.h"
#include "kernel/x86/x86.h"

struct osq_node {
	struct osq_node *next; /* the CPU queued behind; written by it (link) or by C */
	struct osq_node *prev; /* the CPU ahead; rewritten by a leaving prev's step C */
	int locked;	       /* 1: this CPU is the head (set by its predecessor) */
	int cpu;	       /* this node's CPU + 1, the queue word's encoding */
} __aligned(64);

static struct osq_node osq_nodes[MAX_CPUS];

static inline int
this_cpu_code(void)
{
	return (int)this_cpu()->id + 1;
}

static inline struct osq_node *
node_of(int code)
{
	return &osq_nodes[code - 1];
}

static inline bool
must_reschedule(void)
{
	return READ_ONCE(this_cpu()->need_resched);
}

/*
 * Step B: returns the node behind ours once it is linked, taking it off
 * node->next; or NULL if we were the tail and moved the tail back to prev
 * (prev NULL: the queue is left empty).
 */
static struct osq_node *
wait_for_next(struct osq *q, struct osq_node *node, struct osq_node *prev)
{
	int me = node->cpu, back = prev ? prev->cpu : 0;

	for (;;) {
		int tail = me;
		if (__atomic_load_n(&q->tail, __ATOMIC_RELAXED) == me &&
		    __atomic_compare_exchange_n(&q->tail, &tail, back, false, __ATOMIC_ACQ_REL,
						__ATOMIC_RELAXED))
			return NULL;
		/*
		 * Someone is behind us: it has swapped itself into the tail and
		 * links itself (prev->next = it) next; wait for that store.
		 */
		if (READ_ONCE(node->next)) {
			struct osq_node *next =
				__atomic_exchange_n(&node->next, NULL, __ATOMIC_ACQ_REL);
			if (next)
				return next;
		}
		cpu_relax();
	}
}

bool
osq_lock(struct osq *q)
{
	struct osq_node *node = &osq_nodes[this_cpu()->id], *prev, *next;
	int old;

	node->locked = 0;
	node->next = NULL;
	node->cpu = this_cpu_code();
	old = __atomic_exchange_n(&q->tail, node->cpu, __ATOMIC_ACQ_REL);
	if (old == 0)
		return true;
	prev = node_of(old);
	WRITE_ONCE(node->prev, prev);
	__atomic_store_n(&prev->next, node, __ATOMIC_RELEASE);

	while (!__atomic_load_n(&node->locked, __ATOMIC_ACQUIRE)) {
		if (must_reschedule())
			goto leave;
		cpu_relax();
	}
	return true;

leave:
	/* A: take prev's pointer to us away, unless prev is handing us the head. */
	for (;;) {
		struct osq_node *expect = node;
		if (READ_ONCE(prev->next) == node &&
		    __atomic_compare_exchange_n(&prev->next, &expect, NULL, false, __ATOMIC_ACQ_REL,
						__ATOMIC_RELAXED))
			break;
		if (__atomic_load_n(&node->locked, __ATOMIC_ACQUIRE))
			return true;
		cpu_relax();
		prev = READ_ONCE(
			node->prev); /* a leaving prev's step C may have given us another */
	}
	/* B: the node behind us, or we were last and the tail is prev's now. */
	next = wait_for_next(q, node, prev);
	if (!next)
		return false;
	/* C: prev and next meet; our node is free. */
	WRITE_ONCE(next->prev, prev);
	__atomic_store_n(&prev->next, next, __ATOMIC_RELEASE);
	return false;
}

void
osq_unlock(struct osq *q)
{
	struct osq_node *node = &osq_nodes[this_cpu()->id], *next;
	int me = node->cpu;

	if (__atomic_compare_exchange_n(&q->tail, &me, 0, false, __ATOMIC_RELEASE,
					__ATOMIC_RELAXED))
		return;
	next = __atomic_exchange_n(&node->next, NULL, __ATOMIC_ACQ_REL);
	if (!next)
		next = wait_for_next(q, node, NULL);
	if (next)
		__atomic_store_n(&next->locked, 1, __ATOMIC_RELEASE);
}
