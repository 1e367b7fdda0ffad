/*
 * oom_kill.c - the out-of-memory policy, Linux's in kind: when a page
 * fault finds no free page, the process with the most resident pages is
 * sent SIGKILL, with one kernel line naming it, and the faulting task
 * waits and faults again instead of dying in its place. init is chosen
 * only when nothing else is left; kernel threads have no pages to give.
 *
 * A process's size is its resident pages and page-table pages (mm->pgtables,
 * as Linux's oom_badness counts mm_pgtables_bytes: a process touching one
 * byte per 2 MiB costs a table page for each) plus the kernel memory
 * charged to it (struct mem_charge: the pipe buffers, file locks, mounts
 * and thread stacks it made). Linux's oom_badness does not count these,
 * which it bounds by per-user limits instead (pipe-user-pages-soft,
 * RLIMIT_NPROC) and charges to a memory cgroup. rewind has no cgroups, so
 * without this a user filling memory with empty pipes left its own
 * processes small and a bystander was killed.
 *
 * The size is then moved by the process's oom_score_adj, thousandths of
 * all pages (-1000..1000, /proc/<pid>/oom_score_adj), and a process at
 * -1000 is never chosen, as Linux's.
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
#include "mm/kmalloc.h"
#include "mm/page_alloc.h"
#include "uapi/signal.h"

struct mem_charge {
	s64 refs;
	s64 bytes;
};

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

struct mem_charge *
mem_charge_current(void)
{
	struct task *leader = current()->group_leader;

	return leader ? mem_charge_of(leader) : NULL; /* none for the kernel's own work */
}

struct mem_charge *
mem_charge_of(struct task *leader)
{
	struct mem_charge *c = __atomic_load_n(&leader->mem_charge, __ATOMIC_ACQUIRE), *none = NULL;

	if (!c) {
		struct mem_charge *fresh = kzalloc(sizeof(*fresh));
		if (!fresh)
			return NULL;
		fresh->refs = 1; /* the leader's */
		c = fresh;
		if (!__atomic_compare_exchange_n(&leader->mem_charge, &none, fresh, false,
						 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
			kfree(fresh); /* another thread made one first */
			c = none;
		}
	}
	__atomic_fetch_add(&c->refs, 1, __ATOMIC_RELAXED);
	return c;
}

void
mem_charge_add(struct mem_charge *c, s64 pages)
{
	mem_charge_add_bytes(c, pages * (s64)PAGE_SIZE);
}

void
mem_charge_add_bytes(struct mem_charge *c, s64 bytes)
{
	__atomic_fetch_add(&c->bytes, bytes, __ATOMIC_RELAXED);
}

void
mem_charge_put(struct mem_charge *c)
{
	if (__atomic_sub_fetch(&c->refs, 1, __ATOMIC_ACQ_REL) == 0)
		kfree(c);
}

void
mem_charge_release(struct task *leader)
{
	if (leader->mem_charge)
		mem_charge_put(leader->mem_charge);
}

/* Pages the process holds: resident, page tables, charged kernel memory; tasks_lock held. */
static u64
weight(const struct task *leader)
{
	const struct mem_charge *c = leader->mem_charge;
	s64 bytes = c ? __atomic_load_n(&c->bytes, __ATOMIC_RELAXED) : 0;

	return leader->mm->rss + __atomic_load_n(&leader->mm->pgtables, __ATOMIC_RELAXED) +
	       (u64)MAX(bytes, 0l) / PAGE_SIZE;
}

/* What the choice weighs: the weight moved by oom_score_adj (Linux's oom_badness). */
static s64
badness(const struct task *leader, u64 total_pages)
{
	return (s64)weight(leader) + leader->oom_score_adj * (s64)(total_pages / 1000);
}

/* Whether the choice passes over the process always (init aside, chosen last). */
static bool
never_chosen(const struct task *leader)
{
	return leader->oom_score_adj == OOM_SCORE_ADJ_MIN;
}

unsigned long
oom_score(const struct task *leader, u64 total_pages)
{
	if (!leader->mm || leader->tgid == 1 || leader->group_exiting || !total_pages ||
	    never_chosen(leader))
		return 0;
	s64 points = (1000 + badness(leader, total_pages) * 1000 / (s64)total_pages) * 2 / 3;
	return (unsigned long)MAX(points, 0l);
}

/* The process to kill: the highest badness, init last; NULL if none. tasks_lock held. */
static struct task *
choose_victim(u64 total_pages)
{
	struct task *best = NULL, *init = NULL;
	s64 best_points = 0;
	struct list_head *pos;

	list_for_each(pos, &all_tasks) {
		struct task *t = list_entry(pos, struct task, all_link);
		if (t != t->group_leader || !t->mm || t->group_exiting)
			continue;
		if (t->tgid == 1) {
			init = t;
			continue;
		}
		if (never_chosen(t))
			continue;
		s64 points = badness(t, total_pages);
		if (!best || points > best_points)
			best = t, best_points = points;
	}
	return best ? best : init;
}

/* Kills a victim unless one is still dying: tasks_lock taken here. */
static void
kill_a_victim(void)
{
	struct page_alloc_stats st;

	page_alloc_get_stats(&st);
	u64 flags = spin_lock_irqsave(&tasks_lock);
	if (!victim_still_dying()) {
		struct task *v = choose_victim(st.total_pages);
		if (v) {
			victim_mm = v->mm;
			pr_err("oom: out of memory at a fault of pid %d (%s): killed pid %d (%s), %lu resident pages, %lu in all, oom_score_adj %d\n",
			       current()->pid, current()->comm, v->tgid, v->comm,
			       (unsigned long)v->mm->rss, (unsigned long)weight(v),
			       v->oom_score_adj);
			group_kill_locked(v, SIGKILL); /* a wait status of "killed by SIGKILL" */
		}
	}
	spin_unlock_irqrestore(&tasks_lock, flags);
}

void
oom_forget_mm(const struct mm *mm)
{
	u64 flags = spin_lock_irqsave(&tasks_lock);

	if (victim_mm == mm)
		victim_mm = NULL;
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
