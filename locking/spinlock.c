/*
 * spinlock.c - the instrumented paths of the spinlock (spinlock.h): lock
 * statistics (lockstat.h) and the `lockdebug` checks; and those of the
 * rwlock's readers (rwlock.h), which keep their records on the same stacks.
 *
 * While either knob is on, spin_lock, spin_trylock and spin_unlock come
 * here. What an acquisition records is kept by the CPU that holds the
 * lock, in its stack of held spinlocks (as Linux's lockdep keeps a task's
 * held_locks), so that the lock itself stays 16 bytes: which lock, its
 * ticket, where it was taken (lockdebug) and when the hold began
 * (lockstat). The place recorded is the return address into the function
 * where spin_lock was inlined: its symbol names the lock site. A CPU
 * changes its stack only with interrupts off; other CPUs read it, unlocked,
 * only to name a holder in a report.
 *
 * An entry describes a holding while the lock's owner is still the entry's
 * ticket. A lock released after both knobs went off leaves its entry
 * behind, stale: lookups skip it, and a full stack drops such entries
 * (probing each lock's memory, which may have gone with its stack).
 *
 * lockdebug (a boot-time knob; Linux's CONFIG_DEBUG_SPINLOCK) checks:
 *  - recursion: a CPU about to wait for a lock it holds itself would spin
 *    forever; it panics naming both places (the usual cause: an interrupt
 *    handler takes a lock its CPU holds without _irqsave);
 *  - releases of a free lock, or of a lock another CPU holds: panic;
 *  - long holds: a waiter that has spun for SPIN_WARN_SECONDS prints one
 *    warning naming the lock, its holder's CPU and place, with its own
 *    backtrace, and spins on. Only the time the waiter really spun counts:
 *    a virtual CPU the host does not run for a while (an overloaded host
 *    stalled whole guests for over a second) sees the clock jump between
 *    two looks, and such a gap (over SPIN_GAP_MS) is left out, or every
 *    waiter of the stall would warn of a hold that never was.
 * A lock taken before lockdebug went on has no record and is not checked.
 * The records also serve lockdebug's context checks (lockdebug.c): no
 * spinlock held where a task may sleep, in schedule() but its runqueue
 * lock, or on the way back to user mode.
 */
#include "locking/spinlock.h"
#include "locking/rwlock.h"
#include "kernel/backtrace.h"
#include "kernel/knobs.h"
#include "kernel/ksyms.h"
#include "kernel/panic.h"
#include "kernel/x86/percpu.h"
#include "kernel/printk.h"
#include "kernel/time/tsc.h"
#include "kernel/lib/vsprintf.h"
#include "mm/extable.h"

#define HELD_MAX	  16 /* spinlocks one CPU holds at once, nested */
#define SPIN_WARN_SECONDS 5
#define SPIN_GAP_MS	  10  /* between two looks at the clock: the host ran something else */
#define SYM_TEXT	  128 /* room for "function+0x1a/0x80" */

KNOB_BOOL_AT(lockdebug, lock_knobs.debug, "lockdebug", 0, false,
	     "check spinlocks: record holder CPU and place, catch recursion and bad "
	     "releases, a spinlock held where a task may sleep, schedules or returns to "
	     "user mode, warn about a lock waited for over " __stringify(SPIN_WARN_SECONDS) " s");

struct held_spinlock {
	struct spinlock *lock;
	bool shared; /* a read hold of the rwlock whose wait_lock is lock (rwlock.h) */
	u32 ticket;  /* the holding's; stale once lock->owner moved on */
	u32 class;   /* lockstat's class of the lock, when since is set */
	u64 pc;	     /* where it was taken, if lockdebug was on; else 0 */
	u64 since;   /* TSC when lockstat began timing the hold; 0: not timed */
};

struct held_spinlocks {
	u32 depth;
	struct held_spinlock e[HELD_MAX]; /* innermost last */
} __aligned(64);

static struct held_spinlocks held[MAX_CPUS];

/* A CPU printing a long-wait warning: its own waits meanwhile stay quiet. */
static bool reporting[MAX_CPUS];

static u32
cpu_id(void)
{
	return this_cpu()->id;
}

/* ---- the held-lock stacks ------------------------------------------------------------ */

/* Whether e records the current (exclusive) holding of l. */
static bool
records(const struct held_spinlock *e, const struct spinlock *l)
{
	return READ_ONCE(e->lock) == l && !READ_ONCE(e->shared) &&
	       READ_ONCE(e->ticket) == READ_ONCE(l->owner);
}

/* This CPU's record of l, or NULL; interrupts off. */
static struct held_spinlock *
find_mine(const struct spinlock *l)
{
	struct held_spinlocks *h = &held[cpu_id()];

	for (u32 i = h->depth; i-- > 0;)
		if (records(&h->e[i], l))
			return &h->e[i];
	return NULL;
}

bool
spin_lock_holder(const struct spinlock *l, u32 *cpu, u64 *pc)
{
	for (u32 c = 0; c < MAX_CPUS; c++) {
		const struct held_spinlocks *h = &held[c];
		u32 depth = MIN(READ_ONCE(h->depth), HELD_MAX);
		for (u32 i = 0; i < depth; i++) {
			if (records(&h->e[i], l)) {
				*cpu = c;
				*pc = READ_ONCE(h->e[i].pc);
				return true;
			}
		}
	}
	return false;
}

/*
 * Whether a possibly stale entry's lock is still held under its ticket; a
 * shared entry's rwlock, by some reader. lockdebug is a boot-time knob, but
 * the self-tests switch it on for a while, so a read hold recorded then
 * may end untracked: its record goes once the rwlock has no reader.
 */
static bool
still_held(const struct held_spinlock *e)
{
	u64 words;

	BUILD_BUG_ON(offsetof(struct spinlock, next) != 0 || offsetof(struct spinlock, owner) != 4);
	if (e->shared)
		return probe_read_u64(&container_of(e->lock, struct rwlock, wait_lock)->cnts,
				      &words) == 0 &&
		       (u32)words >= RW_READER;
	return probe_read_u64(e->lock, &words) == 0 && (u32)(words >> 32) == e->ticket;
}

/*
 * Keeps this CPU's spinlocks_recorded (percpu.h) true while lockdebug has
 * records here, so that exit_to_user's one test of exit_work sends a return
 * to user mode that holds a spinlock to lockdebug_user_return.
 */
static void
note_depth(const struct held_spinlocks *h)
{
	WRITE_ONCE(this_cpu()->spinlocks_recorded, h->depth != 0 && READ_ONCE(lock_knobs.debug));
}

/* Pushes a record on this CPU's stack; one that finds it full of live ones is lost. */
static void
push(const struct held_spinlock *e)
{
	struct held_spinlocks *h = &held[cpu_id()];

	if (h->depth == HELD_MAX)
		spin_held_forget_stale();
	if (h->depth < HELD_MAX)
		h->e[h->depth++] = *e;
	note_depth(h);
}

/* Removes one of this CPU's records, keeping the others in order. */
static void
drop(struct held_spinlock *e)
{
	struct held_spinlocks *h = &held[cpu_id()];

	h->depth--;
	for (u32 i = (u32)(e - h->e); i < h->depth; i++)
		h->e[i] = h->e[i + 1];
	note_depth(h);
}

/* This CPU's shared record of l, or NULL; interrupts off. */
static struct held_spinlock *
find_shared(const struct spinlock *l)
{
	struct held_spinlocks *h = &held[cpu_id()];

	for (u32 i = h->depth; i-- > 0;)
		if (h->e[i].lock == l && h->e[i].shared && still_held(&h->e[i]))
			return &h->e[i];
	return NULL;
}

bool
spin_holds_shared(const struct spinlock *l)
{
	u64 flags = local_irq_save();
	bool held_here = find_shared(l) != NULL;

	local_irq_restore(flags);
	return held_here;
}

u32
spin_held_here(const struct spinlock *except, const struct spinlock **innermost, u64 *pc)
{
	struct held_spinlocks *h = &held[cpu_id()];
	u32 n = 0;

	for (u32 i = h->depth; i-- > 0;) {
		const struct held_spinlock *e = &h->e[i];
		if (e->lock == except || !still_held(e))
			continue;
		if (n++ == 0) {
			*innermost = e->lock;
			*pc = e->pc;
		}
	}
	return n;
}

bool
spin_not_mine(const struct spinlock *l)
{
	u64 flags = local_irq_save();
	bool mine = find_mine(l) != NULL;
	u32 cpu;
	u64 pc;

	local_irq_restore(flags);
	return !mine && (!spin_is_locked((struct spinlock *)l) || spin_lock_holder(l, &cpu, &pc));
}

void
spin_held_forget_stale(void)
{
	struct held_spinlocks *h = &held[cpu_id()];
	u32 live = 0;

	for (u32 i = 0; i < h->depth; i++)
		if (still_held(&h->e[i]))
			h->e[live++] = h->e[i];
	h->depth = live;
	note_depth(h);
}

/* ---- lockdebug's reports ---------------------------------------------------------------- */

/* "held by CPU 1, taken at f+0x10/0x40", or as much of it as is known. */
static void
describe_holder(const struct spinlock *l, char *buf, size_t size)
{
	char where[SYM_TEXT];
	u32 cpu;
	u64 pc;

	if (!spin_lock_holder(l, &cpu, &pc)) {
		ksnprintf(buf, size, "holder not recorded");
		return;
	}
	if (!pc) {
		ksnprintf(buf, size, "held by CPU %u", cpu);
		return;
	}
	ksym_format(pc, where, sizeof(where));
	ksnprintf(buf, size, "held by CPU %u, taken at %s", cpu, where);
}

static __noreturn void
spin_bug(const struct spinlock *l, const char *what, u64 pc)
{
	char here[SYM_TEXT], holder[SYM_TEXT + 32];

	ksym_format(pc, here, sizeof(here));
	describe_holder(l, holder, sizeof(holder));
	panic("spinlock %s %s: CPU %u at %s; %s", l->name, what, cpu_id(), here, holder);
}

static void
check_recursion(const struct spinlock *l, u64 pc)
{
	u64 flags = local_irq_save();
	bool mine = find_mine(l) != NULL;

	local_irq_restore(flags);
	if (mine)
		spin_bug(l, "taken again by its holder", pc);
}

/* A release of a lock this CPU has no record of. */
static void
check_release(const struct spinlock *l, u64 pc)
{
	u32 cpu;
	u64 holder_pc;

	if (READ_ONCE(l->owner) == READ_ONCE(l->next))
		spin_bug(l, "released while free", pc);
	if (spin_lock_holder(l, &cpu, &holder_pc))
		spin_bug(l, "released by a CPU that does not hold it", pc);
}

static __attribute__((noinline)) void
warn_long_wait(const struct spinlock *l, u64 since)
{
	u32 cpu = cpu_id();
	char holder[SYM_TEXT + 32];

	if (reporting[cpu] || panic_in_progress())
		return;
	reporting[cpu] = true;
	describe_holder(l, holder, sizeof(holder));
	pr_warn("lockdebug: CPU %u has waited %lu ms for spinlock %s, %s\n", cpu,
		tsc_cycles_to_ns(rdtsc() - since) / 1000000, l->name, holder);
	backtrace_print((u64)__builtin_return_address(0), 0, *(u64 *)__builtin_frame_address(0));
	reporting[cpu] = false;
}

/* ---- the instrumented paths ---------------------------------------------------------------- */

/* Spins until ticket is served; since: when the wait began. */
static void
spin_wait(struct spinlock *l, u32 ticket, u64 since)
{
	u64 spun = 0, last = since, gap = tsc_hz / 1000 * SPIN_GAP_MS;
	bool warned = false;

	while (!arch_spin_served(l, ticket)) {
		cpu_relax();
		if (warned || !READ_ONCE(lock_knobs.debug))
			continue;
		u64 now = rdtsc();
		spun += now - last < gap ? now - last : 0;
		last = now;
		if (spun > SPIN_WARN_SECONDS * tsc_hz && !arch_spin_served(l, ticket)) {
			warn_long_wait(l, since);
			warned = true;
		}
	}
}

/* The new holder's record; waited_since as for lockstat_acquire. */
static void
record_acquire(struct spinlock *l, u64 pc, u64 waited_since)
{
	union lock_knobs on = { .any = READ_ONCE(lock_knobs.any) };
	struct held_spinlock e = { .lock = l, .ticket = l->owner, .pc = on.debug ? pc : 0 };

	if (!on.any)
		return; /* both went off since spin_lock looked */
	if (on.stat) {
		e.class = lockstat_class(l->name);
		e.since = lockstat_acquire(e.class, LOCK_EXCLUSIVE, waited_since);
	}
	u64 flags = local_irq_save();
	push(&e);
	local_irq_restore(flags);
}

void
spin_lock_tracked(struct spinlock *l)
{
	u64 pc = (u64)__builtin_return_address(0);
	u32 ticket = arch_spin_take_ticket(l);
	u64 waited_since = 0;

	if (!arch_spin_served(l, ticket)) {
		if (READ_ONCE(lock_knobs.debug))
			check_recursion(l, pc);
		waited_since = rdtsc();
		spin_wait(l, ticket, waited_since);
	}
	record_acquire(l, pc, waited_since);
}

bool
spin_trylock_tracked(struct spinlock *l)
{
	if (!arch_spin_trylock(l))
		return false;
	record_acquire(l, (u64)__builtin_return_address(0), 0);
	return true;
}

void
spin_unlock_tracked(struct spinlock *l)
{
	u64 pc = (u64)__builtin_return_address(0);
	u64 flags = local_irq_save();
	struct held_spinlock *e = find_mine(l);

	if (e) {
		if (e->since)
			lockstat_release(e->class, e->since);
		drop(e);
	} else if (READ_ONCE(lock_knobs.debug)) {
		check_release(l, pc);
	}
	local_irq_restore(flags);
	arch_spin_unlock(l);
}

/*
 * The lock behind pv_ops.lock.spin_lock_flags (kernel/x86/paravirt.h):
 * out of line, so that a profile of a PARAVIRT=y kernel names it as the
 * seed's does; interrupts are already saved and off.
 */
void
default_spin_lock_flags(struct spinlock *l, u64 flags)
{
	(void)flags;
	spin_lock(l);
}

/* ---- the rwlock's readers (rwlock.h) --------------------------------------------------------- */

/*
 * A reader is counted as a shared acquisition (not timed, as no reader hold
 * is) and, under lockdebug, recorded by a shared entry keyed by the
 * rwlock's wait_lock, which the context checks then see (a record whose
 * hold ended untracked lapses once the rwlock has no reader: still_held).
 * A release without a record may be of a hold taken before lockdebug went
 * on; only one while no reader holds the rwlock is a bug, as spinlock's
 * check_release. lockdebug also catches the deadlocks
 * particular to the rwlock: a reader taking it again (a writer may be
 * waiting for it between the two) here, and a reader taking it to write
 * in write_wait_for_readers (rwlock.c).
 */
void
read_lock_tracked(struct rwlock *l)
{
	u64 pc = (u64)__builtin_return_address(0);
	u64 waited_since = 0;

	if (READ_ONCE(lock_knobs.debug) && spin_holds_shared(&l->wait_lock))
		spin_bug(&l->wait_lock, "read-locked again by a CPU that reads it", pc);
	if (__atomic_add_fetch(&l->cnts, RW_READER, __ATOMIC_ACQUIRE) & RW_WRITER) {
		waited_since = lockstat_wait_start();
		read_lock_queued(l);
	}
	if (lockstat_on())
		lockstat_acquire(lockstat_class(l->wait_lock.name), LOCK_SHARED, waited_since);
	if (READ_ONCE(lock_knobs.debug)) {
		struct held_spinlock e = { .lock = &l->wait_lock, .shared = true, .pc = pc };
		u64 flags = local_irq_save();
		push(&e);
		local_irq_restore(flags);
	}
}

void
read_unlock_tracked(struct rwlock *l)
{
	if (READ_ONCE(lock_knobs.debug)) {
		u64 flags = local_irq_save();
		struct held_spinlock *e = find_shared(&l->wait_lock);
		if (e)
			drop(e);
		local_irq_restore(flags);
		if (!e && READ_ONCE(l->cnts) < RW_READER)
			spin_bug(&l->wait_lock, "read-unlocked while no reader holds it",
				 (u64)__builtin_return_address(0));
	}
	__atomic_sub_fetch(&l->cnts, RW_READER, __ATOMIC_RELEASE);
}
