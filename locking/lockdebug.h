/*
 * lockdebug.h - lockdebug's context assertions, the checks xv6's sched()
 * makes: no spinlock is held where the task may sleep, switch away or
 * return to user mode. The holder records they read are spinlock.c's
 * per-CPU stacks of held spinlocks, kept only while `lockdebug` is on;
 * with it off each check costs a load of lock_knobs and a branch not
 * taken, and the return to user mode not even that (entry.c).
 *
 * Every check reports through one function, so that a self-test can ask
 * what it would report without panicking (lockdebug_sleep_forbidden).
 */
#ifndef REWIND_LOCKDEBUG_H
#define REWIND_LOCKDEBUG_H

#include "kernel/lib/types.h"
#include "kernel/panic.h"
#include "locking/lockstat.h"

struct spinlock;

#define LOCKDEBUG_WHY 192 /* room for a report's reason */

/*
 * What forbids a sleep here, in why: a spinlock this CPU holds (other than
 * except, which may be NULL), or interrupts off once the boot has turned
 * them on; false if nothing does. Under lockdebug only.
 */
bool lockdebug_sleep_forbidden(const struct spinlock *except, char *why, size_t size);

/* Panics if lockdebug_sleep_forbidden: what (a lock's name) may sleep at pc. */
void lockdebug_might_sleep(const char *what, u64 pc);
/*
 * schedule(), called from pc with interrupt flags caller_flags, now holds
 * rq_lock: it must be the only spinlock held, interrupts must be off now
 * and must have been on in the caller (once the boot turned them on).
 */
void lockdebug_schedule(const struct spinlock *rq_lock, u64 caller_flags, u64 pc);
/* exit_to_user found spinlocks_recorded set (percpu.h); interrupts off. */
void lockdebug_user_return(u64 rip, u64 vector);
/* kernel_main: interrupts are on; from now on a sleep with them off is a bug. */
void lockdebug_irqs_on_at_boot(void);

#ifdef HOSTED
static inline bool
lockdebug_on(void)
{
	return false;
}
#else
static inline bool
lockdebug_on(void)
{
	return unlikely(READ_ONCE(lock_knobs.debug) != 0);
}
#endif

/*
 * A documented invariant of the lock named lock_name, checked under
 * lockdebug where its comment says it holds (fs/mount.c, the rwsem count
 * layouts): a panic naming the lock, the condition and the place.
 */
#define LOCKDEBUG_ASSERT(cond, lock_name)                                                          \
	do {                                                                                       \
		if (lockdebug_on() && !(cond))                                                     \
			panic("lockdebug: %s: invariant '%s' broken at %s:%d", (lock_name), #cond, \
			      __FILE__, __LINE__);                                                 \
	} while (0)

/*
 * Linux's might_sleep(): at the entry of everything that may sleep (the
 * sleeping locks, the wait and sleep primitives), so that a caller in the
 * wrong context is caught even when this call does not happen to sleep.
 * what names the lock or primitive; the report names the caller.
 */
#define might_sleep(what)                                                                \
	do {                                                                             \
		if (lockdebug_on())                                                      \
			lockdebug_might_sleep((what), (u64)__builtin_return_address(0)); \
	} while (0)

#endif
