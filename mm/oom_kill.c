/*
 * oom_kill.c - the out-of-memory policy, Linux's in kind: when a page
 * fault finds no free page, the process with the most resident pages is
 * sent SIGKILL, with one kernel line naming it, and the faulting task
 * waits and faults again instead of dying in its place. init is chosen
 * only when nothing else is left; kernel threads have no pages to give.
 *
 * One victim at a time: while a task still uses the last victim's address
 * space (its threads are on their way out), nobody else is killed, as
 * Linux's tsk_is_oom_victim check. The victim is known by its mm's address
 * alone, compared under tasks_lock (where tasks' mm pointers change:
 * task_swap_mm), so that nothing is held that would keep its pages.
 *
 * A faulting task waits at most OOM_WAIT_TRIES naps for a victim: one
 * that cannot leave (sleeping on a lock the faulter holds) must not hang
 * the faulter, whose fault then fails as before this policy (SIGSEGV, or
 * EFAULT from a system call). Linux's oom_reaper frees such a victim's
 * memory without it; rewind has no reaper.
 */
#include "mm/oom_kill.h"
#include "mm/vm.h"
#include "kernel/printk.h"
#include "kernel/process/process.h"
#include "kernel/process/task.h"
#include "kernel/sched/sched.h"
#include "uapi/signal.h"

#define OOM_NAP_NS     (1000 * 1000) /* between two attempts of a waiting fault */
#define OOM_WAIT_TRIES 1000

static const struct mm *victim_mm; /* the last victim's, only compared; tasks_lock */

/* Whether a task still uses the last victim's address space; tasks_lock held. */
static bool
victim_still_dying(void)
{
	struct list_head *pos;

	if (!victim_mm)
		return false;
	list_for_each(pos, &all_tasks) {
		if (list_entry(pos, struct task, all_link)->mm == victim_mm)
			return true;
	}
	victim_mm = NULL;
	return false;
}

/* The process to kill: most resident pages, init last; NULL if none. tasks_lock held. */
static struct task *
choose_victim(void)
{
	struct task *best = NULL, *init = NULL;
	struct list_head *pos;

	list_for_each(pos, &all_tasks) {
		struct task *t = list_entry(pos, struct task, all_link);
		if (t != t->group_leader || !t->mm || t->group_exiting)
			continue;
		if (t->tgid == 1) {
			init = t;
			continue;
		}
		if (!best || t->mm->rss > best->mm->rss)
			best = t;
	}
	return best ? best : init;
}

/* Kills a victim unless one is still dying: tasks_lock taken here. */
static void
kill_a_victim(void)
{
	u64 flags = spin_lock_irqsave(&tasks_lock);

	if (!victim_still_dying()) {
		struct task *v = choose_victim();
		if (v) {
			victim_mm = v->mm;
			pr_err("oom: out of memory at a fault of pid %d (%s): killed pid %d (%s), %lu resident pages\n",
			       current()->pid, current()->comm, v->tgid, v->comm,
			       (unsigned long)v->mm->rss);
			group_kill_locked(v, SIGKILL); /* a wait status of "killed by SIGKILL" */
		}
	}
	spin_unlock_irqrestore(&tasks_lock, flags);
}

bool
out_of_memory(void)
{
	for (int i = 0; i < OOM_WAIT_TRIES && !fatal_signal_pending(); i++) {
		kill_a_victim();
		if (fatal_signal_pending())
			return false; /* this task was the biggest */
		sleep_ns(OOM_NAP_NS);
		u64 flags = spin_lock_irqsave(&tasks_lock);
		bool waiting = victim_still_dying();
		spin_unlock_irqrestore(&tasks_lock, flags);
		if (!waiting)
			return true; /* its memory is back: fault again */
	}
	return false;
}
