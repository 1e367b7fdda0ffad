/*
 * robust_futex.c - robust futex lists (set_robust_list, get_robust_list)
 * and what the kernel does with them when a thread dies: Linux's
 * exit_robust_list and handle_futex_death.
 *
 * A thread registers the head of a list in its own memory naming every
 * robust mutex it holds (uapi/futex.h). When it exits or execs, whatever
 * the reason (a signal, a raw exit), each listed word that still holds
 * its tid gets FUTEX_OWNER_DIED, keeping FUTEX_WAITERS, and one waiter is
 * woken: the next locker then gets EOWNERDEAD instead of waiting forever.
 * The entry being locked or unlocked (list_op_pending) is handled last,
 * and if its word is 0 (the unlock finished) a waiter is woken still, as
 * the unlock's own wake-up may not have happened.
 *
 * The list is user memory: every read may fault (the walk stops), the
 * list may be cyclic (the walk stops after ROBUST_LIST_LIMIT entries, as
 * Linux's), and a word may change under the update, which is an atomic
 * compare-and-exchange retried a bounded number of times.
 */
#include "kernel/sched/futex.h"
#include "kernel/process/cred.h"
#include "kernel/process/process.h"
#include "kernel/process/task.h"
#include "kernel/syscall/syscall.h"
#include "mm/uaccess.h"
#include "uapi/errno.h"
#include "uapi/futex.h"

#define ROBUST_LIST_LIMIT 2048 /* entries walked at most: Linux's */
#define CMPXCHG_RETRIES	  64   /* a word changing under every attempt: give up */

/* Pointer bit 0: the entry is a PI futex (no waiter to wake here). */
static u64
entry_address(u64 ptr, bool *pi)
{
	*pi = ptr & 1;
	return ptr & ~1ul;
}

/* The word at uaddr of a mutex whose owner (tid) is gone. */
static void
owner_died(u64 uaddr, int tid, bool pi, bool pending)
{
	u32 __user *word = (u32 __user *)uaddr;
	u32 val;

	if (!IS_ALIGNED(uaddr, sizeof(u32)) || copy_from_user(&val, word, sizeof(val)))
		return;
	for (int attempt = 0; attempt < CMPXCHG_RETRIES; attempt++) {
		if (pending && !pi && val == 0) {
			futex_wake_user(uaddr, 1); /* released, perhaps without its wake-up */
			return;
		}
		if ((val & FUTEX_TID_MASK) != (u32)tid)
			return; /* not this thread's: nothing to do */
		u32 seen = val;
		if (cmpxchg_user_u32(word, &seen, (val & FUTEX_WAITERS) | FUTEX_OWNER_DIED))
			return;
		if (seen == val) {
			if (!pi && (val & FUTEX_WAITERS))
				futex_wake_user(uaddr, 1);
			return;
		}
		val = seen; /* changed meanwhile: look again */
	}
}

/* The next pointer of the entry at addr: 0, or -EFAULT. */
static int
read_next(u64 addr, u64 *next)
{
	return copy_from_user(next, (const void __user *)addr, sizeof(*next));
}

void
futex_robust_release(struct task *t)
{
	u64 head = t->robust_list;
	struct robust_list_head h;
	bool pi, pending_pi, next_pi;
	u64 next;

	t->robust_list = 0;
	if (!head || copy_from_user(&h, (const void __user *)head, sizeof(h)))
		return;
	u64 entry = entry_address((u64)(uintptr_t)h.list.next, &pi);
	u64 pending = entry_address((u64)(uintptr_t)h.list_op_pending, &pending_pi);
	for (int n = 0; entry != head && n < ROBUST_LIST_LIMIT; n++) {
		/* The next pointer first: once the word is released, the entry may be reused. */
		int err = read_next(entry, &next);
		if (entry != pending)
			owner_died(entry + (u64)h.futex_offset, t->pid, pi, false);
		if (err)
			return;
		entry = entry_address(next, &next_pi);
		pi = next_pi;
	}
	if (pending)
		owner_died(pending + (u64)h.futex_offset, t->pid, pending_pi, true);
}

SYSCALL2(set_robust_list, u64, head, size_t, len)
{
	if (len != sizeof(struct robust_list_head))
		return -EINVAL;
	current()->robust_list = head;
	return 0;
}

/* Another thread's list only for who may inspect it (Linux: ptrace_may_access). */
SYSCALL3(get_robust_list, int, pid, u64 __user *, head_ptr, size_t __user *, len_ptr)
{
	u64 head = 0, flags = spin_lock_irqsave(&tasks_lock);
	struct task *t = pid ? task_find(pid) : current();
	long err = !t ? -ESRCH : !task_may_inspect(t) ? -EPERM : 0;

	if (!err)
		head = t->robust_list;
	spin_unlock_irqrestore(&tasks_lock, flags);
	if (err)
		return err;
	size_t len = sizeof(struct robust_list_head);
	if (copy_to_user(len_ptr, &len, sizeof(len)) || copy_to_user(head_ptr, &head, sizeof(head)))
		return -EFAULT;
	return 0;
}
