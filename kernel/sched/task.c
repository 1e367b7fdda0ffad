/*
 * task.c - a task's making and unmaking as the scheduler sees it: the
 * struct and its kernel stack (charged to the process, as Linux's memory
 * cgroups count kernel stacks), the stack frame its first switch "returns"
 * through into task_entry, and kernel threads; see sched.h. Where a task
 * runs (sched_start_task, the queues) is sched.c's.
 */
#include "kernel/landlock/landlock.h"
#include "kernel/process/cred.h"
#include "kernel/process/process.h"
#include "kernel/process/ptrace.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/switch.h"
#include "kernel/objcount.h"
#include "kernel/signal/signal.h"
#include "kernel/lib/vsprintf.h"
#include "kernel/x86/traps.h"
#include "kernel/x86/x86.h"
#include "mm/kmalloc.h"
#include "mm/oom_kill.h"
#include "mm/vmap.h"

struct task *
task_alloc(const char *name)
{
	struct task *t = kzalloc(sizeof(*t));

	if (!t)
		return NULL;
	t->kstack_top = kstack_alloc();
	if (!t->kstack_top) {
		kfree(t);
		return NULL;
	}
	ksnprintf(t->comm, sizeof(t->comm), "%s", name);
	spin_lock_init(&t->alloc_lock, "task_lock");
	t->state = TASK_RUNNABLE;
	t->slice = SCHED_SLICE_TICKS;
	t->cpus_allowed = ~0ul;
	t->migrate_to = -1;
	list_init(&t->run_link);
	list_init(&t->timer_link);
	list_init(&t->children);
	list_init(&t->sibling);
	list_init(&t->all_link);
	wait_queue_init(&t->child_exited);
	ptrace_task_init(t);
	t->start_tsc = rdtsc();
	objcount_created(OBJ_TASK);
	return t;
}

#define TASK_KERNEL_BYTES ((s64)(KSTACK_SIZE + sizeof(struct task)))

bool
task_charge_stack(struct task *t, struct task *leader)
{
	t->stack_charge = mem_charge_of(leader);
	if (t->stack_charge)
		mem_charge_add_bytes(t->stack_charge, TASK_KERNEL_BYTES);
	return t->stack_charge != NULL;
}

void
task_free(struct task *t)
{
	signal_free(t);
	if (t->stack_charge) {
		mem_charge_add_bytes(t->stack_charge, -TASK_KERNEL_BYTES);
		mem_charge_put(t->stack_charge);
	}
	mem_charge_release(t);
	group_list_put(t->groups);
	landlock_domain_put(t->landlock);
	kstack_free(t->kstack_top);
	kfree(t);
	objcount_freed(OBJ_TASK);
}

struct trap_frame *
task_user_frame(struct task *t)
{
	return (struct trap_frame *)(t->kstack_top - sizeof(struct trap_frame));
}

/* Lays out a stack that switch_stacks() "returns" from into task_entry. */
static void
prepare_first_switch(struct task *t, u64 stack_top)
{
	struct switch_frame *f = (struct switch_frame *)stack_top - 1;

	*f = (struct switch_frame){ .ret = (u64)task_entry };
	t->saved_rsp = (u64)f;
}

void
task_prepare_user_return(struct task *t)
{
	prepare_first_switch(t, (u64)task_user_frame(t)); /* the frame stays intact above */
}

struct task *
kthread_start(const char *name, void (*fn)(void *), void *arg)
{
	return kthread_start_on(name, fn, arg, ~0ul);
}

struct task *
kthread_create(const char *name, void (*fn)(void *), void *arg, u64 cpus)
{
	struct task *t = task_alloc(name);

	if (!t)
		return NULL;
	t->cpus_allowed = cpus;
	t->kthread_fn = fn;
	t->kthread_arg = arg;
	/* Below the user frame's slot: a kernel thread may turn into a user process (init). */
	prepare_first_switch(t, (u64)task_user_frame(t));
	return t;
}

struct task *
kthread_start_on(const char *name, void (*fn)(void *), void *arg, u64 cpus)
{
	struct task *t = kthread_create(name, fn, arg, cpus);

	if (t) {
		task_register(t, NULL);
		sched_start_task(t);
	}
	return t;
}
