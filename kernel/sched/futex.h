/*
 * futex.h - fast user-space locking: the kernel half of futex(2), the call
 * musl's mutexes, condition variables and pthread_join sleep and wake in.
 *
 * The system call itself is defined in kernel/sched/futex.c; other kernel code
 * needs only the wake-ups that thread exit does, for CLONE_CHILD_CLEARTID
 * and for the robust list (kernel/sched/robust_futex.c).
 */
#ifndef REWIND_FUTEX_H
#define REWIND_FUTEX_H

#include "kernel/lib/types.h"

struct mm;
struct task;

/*
 * Wakes up to n (at least one) waiters on the futex at uaddr in mm, keyed
 * privately by (mm, uaddr): a thread exiting with CLONE_CHILD_CLEARTID,
 * after it cleared the word. A waiter that used the shared form on private
 * memory has the same key (kernel/sched/futex.c), so it is woken too. Returns the
 * number woken, or -EINVAL (misaligned) / -EFAULT (not a user address).
 */
int futex_wake_address(struct mm *mm, u64 uaddr, int n);
/*
 * FUTEX_WAKE of up to n waiters on the word at uaddr of the current
 * process, in the shared form, which also meets private waiters on private
 * memory: what a dead robust-mutex owner's word gets. Returns as futex_wake.
 */
int futex_wake_user(u64 uaddr, int n);
/*
 * t (the current task) exits or execs: its robust list is walked, each
 * mutex it still holds marked FUTEX_OWNER_DIED and a waiter woken, and the
 * list forgotten (kernel/sched/robust_futex.c).
 */
void futex_robust_release(struct task *t);

#endif
