/*
 * sched.c - run queues, the context switch, sleeping, kernel threads; see
 * sched.h.
 *
 * Each CPU has a run queue of runnable tasks that are not running, a list of
 * timed sleepers, and an idle task (the thread that booted it) that runs
 * when the queue is empty. Picking is round-robin: the head runs for
 * SCHED_SLICE_TICKS ticks, then goes to the tail if still runnable.
 *
 * The rq lock is held across the switch itself and released by the task
 * switched to (finish_switch), so that a task is never seen half-switched:
 * under the lock, "on_cpu" says whether its stack is still in use, and
 * wake_up_task() can tell "about to sleep" (on_cpu: schedule() will keep it)
 * from "asleep" (enqueue it).
 *
 * Balancing across CPUs: a new task goes to an idle CPU it may run on
 * (else the least loaded); a woken task goes back to its own CPU, which is
 * sent a reschedule IPI if it is idle; an idle CPU pulls a waiting task
 * from the busiest queue before it halts (and again at each tick while
 * idle). A task never runs on two CPUs: it moves only while queued and not
 * on_cpu, under both queues' locks (taken in CPU order). A running task
 * whose affinity excludes its CPU moves after it has been switched out
 * (migrate_to), when its stack is free.
 */
#include "kernel/process/cred.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/loadavg.h"
#include "kernel/sched/switch.h"
#include "kernel/objcount.h"
#include "kernel/time/cputime.h"
#include "kernel/time/posix_timer.h"
#include "uapi/errno.h"
#include "kernel/x86/debugreg.h"
#include "kernel/x86/fpu.h"
#include "kernel/panic.h"
#include "kernel/process/process.h"
#include "kernel/process/ptrace.h"
#include "kernel/x86/smp.h"
#include "kernel/x86/paravirt.h"
#include "kernel/printk.h"
#include "kernel/signal/signal.h"
#include "kernel/lib/string.h"
#include "kernel/time/timer.h"
#include "kernel/x86/entry.h"
#include "kernel/x86/traps.h"
#include "kernel/time/tsc.h"
#include "kernel/lib/vsprintf.h"
#include "kernel/x86/x86.h"
#include "locking/lockdebug.h"
#include "mm/kmalloc.h"
#include "mm/uaccess.h"
#include "mm/oom_kill.h"
#include "mm/vm.h"
#include "mm/vmap.h"

struct runqueue {
	struct spinlock lock;
	struct list_head queue;	   /* runnable, not running */
	struct list_head sleepers; /* timed sleeps, via timer_link */
	u64 next_wake; /* no sleeper's deadline is earlier (~0: none); may be stale early */
	unsigned nr_queued;
	u64 nr_switches; /* since boot, under lock */
};

static struct runqueue runqueues[MAX_CPUS];

static struct runqueue *
rq_of(unsigned cpu)
{
	return &runqueues[cpu];
}

static void
rq_init(struct runqueue *rq)
{
	spin_lock_init(&rq->lock, "runqueue");
	list_init(&rq->queue);
	list_init(&rq->sleepers);
	rq->next_wake = ~0ul;
	rq->nr_queued = 0;
}

static void
enqueue(struct runqueue *rq, struct task *t)
{
	list_add_tail(&t->run_link, &rq->queue);
	rq->nr_queued++;
}

static struct task *
dequeue(struct runqueue *rq)
{
	struct task *t = list_first_entry(&rq->queue, struct task, run_link);

	list_del(&t->run_link);
	rq->nr_queued--;
	return t;
}

/*
 * Tells cpu (locked rq) that it has work; returns whether it must also be
 * interrupted: it is idle, perhaps halted until an interrupt. The caller
 * sends that IPI after unlocking the queue - the CPU it wakes goes straight
 * for this lock, and sending an IPI (an ICR write, an exit under a
 * hypervisor) is slow enough that it would spin there meanwhile.
 */
static bool
kick_needed(unsigned cpu)
{
	struct cpu *c = cpus[cpu];

	if (READ_ONCE(c->current) != c->idle)
		return false;
	WRITE_ONCE(c->need_resched, true);
	return cpu != this_cpu()->id;
}

/* rq is t's run queue and is locked; returns whether t's CPU needs the IPI (kick_needed). */
static bool
wake_locked(struct runqueue *rq, struct task *t)
{
	if (t->state != TASK_SLEEPING)
		return false;
	WRITE_ONCE(t->state, TASK_RUNNABLE);
	if (!t->on_cpu)
		enqueue(rq, t);
	return kick_needed(t->cpu);
}

void
wake_up_task(struct task *t)
{
	for (;;) {
		/* t->cpu may change until its queue's lock is held: check it again under the lock. */
		unsigned cpu = READ_ONCE(t->cpu);
		struct runqueue *rq = rq_of(cpu);
		u64 flags = spin_lock_irqsave(&rq->lock);
		if (READ_ONCE(t->cpu) == cpu) {
			bool kick = wake_locked(rq, t);
			spin_unlock_irqrestore(&rq->lock, flags);
			if (kick)
				smp_send_reschedule(cpu);
			return;
		}
		spin_unlock_irqrestore(&rq->lock, flags);
	}
}

void
set_current_sleeping(void)
{
	WRITE_ONCE(current()->state, TASK_SLEEPING);
}

static unsigned
first_allowed_cpu(const struct task *t)
{
	u64 m = t->cpus_allowed & cpus_online_mask();

	return m ? (unsigned)__builtin_ctzl(m) : 0;
}

/* Where a new task should start: an idle CPU it may use, else the shortest queue. */
static unsigned
select_cpu(const struct task *t)
{
	u64 allowed = t->cpus_allowed & cpus_online_mask();
	unsigned best = first_allowed_cpu(t), here = this_cpu()->id;
	unsigned best_load = ~0u;

	for (unsigned i = 0; i < MAX_CPUS; i++) {
		if (!(allowed & (1ul << i)))
			continue;
		struct cpu *c = cpus[i];
		unsigned load = READ_ONCE(rq_of(i)->nr_queued) + (READ_ONCE(c->current) != c->idle);
		if (load < best_load || (load == best_load && i == here)) {
			best = i;
			best_load = load;
		}
	}
	return best;
}

/* Locks two run queues in CPU order (a fixed order: no deadlock). */
static void
lock_two(struct runqueue *a, struct runqueue *b)
{
	if (a < b) {
		spin_lock(&a->lock);
		spin_lock(&b->lock);
	} else {
		spin_lock(&b->lock);
		spin_lock(&a->lock);
	}
}

/* A queued task of src that may move to cpu (not running anywhere); src locked. */
static struct task *
stealable(struct runqueue *src, unsigned cpu)
{
	struct list_head *pos;

	for (pos = src->queue.prev; pos != &src->queue; pos = pos->prev) {
		struct task *t = list_entry(pos, struct task, run_link);
		if (!t->on_cpu && (t->cpus_allowed & (1ul << cpu)))
			return t;
	}
	return NULL;
}

/* An idle CPU takes one waiting task from the busiest other queue; interrupts off. */
static void
pull_task(struct cpu *c)
{
	struct runqueue *here = rq_of(c->id), *busiest = NULL;
	unsigned most = 0;

	for (unsigned i = 0; i < MAX_CPUS; i++) {
		if (i == c->id || !cpus[i] || !READ_ONCE(cpus[i]->online))
			continue;
		unsigned n = READ_ONCE(rq_of(i)->nr_queued);
		if (n > most) {
			most = n;
			busiest = rq_of(i);
		}
	}
	if (!busiest)
		return;
	lock_two(here, busiest);
	struct task *t = stealable(busiest, c->id);
	if (t) {
		list_del(&t->run_link);
		busiest->nr_queued--;
		t->cpu = c->id;
		enqueue(here, t);
	}
	spin_unlock(&busiest->lock);
	spin_unlock(&here->lock);
}

/*
 * Everything but the stack: address space, FPU, TLS base, kernel stack
 * for traps; debug registers only if next has breakpoints or this CPU
 * still holds another task's, so that a switch without pays one test.
 */
static void
switch_cpu_state(struct cpu *c, struct task *prev, struct task *next)
{
	if (prev->mm)
		fpu_save(&prev->fpu);
	if (next->mm) {
		fpu_restore(&next->fpu);
		wrmsr(MSR_FS_BASE, next->fs_base);
	}
	if (next->debugregs.hw_dr7 | c->hw_dr7)
		debugreg_switch(c, next);
	mm_activate(next->mm);
	c->kernel_rsp = next->kstack_top;
	c->tss.rsp[0] = next->kstack_top;
	c->current = next;
	cputime_switch(prev, next);
}

/* Queues t, runnable and switched out, on another CPU (its affinity moved it). */
static void
migrate(struct task *t, unsigned cpu)
{
	struct runqueue *rq = rq_of(cpu);

	spin_lock(&rq->lock);
	t->cpu = cpu;
	t->migrate_to = -1;
	enqueue(rq, t);
	bool kick = kick_needed(cpu);
	spin_unlock(&rq->lock);
	if (kick)
		smp_send_reschedule(cpu);
}

/* Runs in the task switched to, with the rq lock held by the one switched from. */
static void
finish_switch(struct task *prev)
{
	int dest = prev->migrate_to;

	WRITE_ONCE(prev->on_cpu, false);
	spin_unlock(&rq_of(this_cpu()->id)->lock);
	if (dest >= 0)
		migrate(prev, (unsigned)dest);
}

void
schedule(void)
{
	struct cpu *c = this_cpu();
	struct runqueue *rq = rq_of(c->id);
	u64 flags = spin_lock_irqsave(&rq->lock);
	struct task *prev = c->current;

	if (unlikely(READ_ONCE(lock_knobs.debug)))
		lockdebug_schedule(&rq->lock, flags, (u64)__builtin_return_address(0));
	WRITE_ONCE(c->need_resched, false);
	if (prev != c->idle && prev->state == TASK_RUNNABLE) {
		if (prev->cpus_allowed & (1ul << c->id))
			enqueue(rq, prev);
		else
			prev->migrate_to = first_allowed_cpu(prev);
	}
	struct task *next = rq->nr_queued ? dequeue(rq) : c->idle;
	if (next == prev) {
		spin_unlock_irqrestore(&rq->lock, flags);
		return;
	}
	if (next->slice <= 0)
		next->slice = SCHED_SLICE_TICKS;
	next->on_cpu = true;
	next->cpu = c->id;
	rq->nr_switches++;
	switch_cpu_state(c, prev, next);
	struct task *last = (struct task *)switch_stacks(&prev->saved_rsp, next->saved_rsp, prev);
	finish_switch(last);
	local_irq_restore(flags);
}

/* The first thing a new task runs, reached from task_entry in switch.asm. */
__noreturn void task_first_run(struct task *prev);

__noreturn void
task_first_run(struct task *prev)
{
	struct task *t = current();

	finish_switch(prev);
	local_irq_enable();
	if (t->kthread_fn) {
		t->kthread_fn(t->kthread_arg);
		task_exit(0);
	}
	if (t->set_child_tid) /* CLONE_CHILD_SETTID: in the child's own memory */
		(void)copy_to_user((int __user *)t->set_child_tid, &t->pid, sizeof(t->pid));
	first_return_to_user(t);
}

/* Wakes this CPU's sleepers whose deadline passed and notes the earliest left; rq->lock held. */
static void
wake_due_sleepers(struct runqueue *rq, u64 now)
{
	struct list_head *pos = rq->sleepers.next;
	u64 next = ~0ul;

	while (pos != &rq->sleepers) {
		struct task *s = list_entry(pos, struct task, timer_link);
		pos = pos->next;
		if (now >= s->wake_deadline) {
			list_del(&s->timer_link);
			wake_locked(rq, s); /* this CPU's own queue: it needs no IPI */
		} else {
			next = MIN(next, s->wake_deadline);
		}
	}
	WRITE_ONCE(rq->next_wake, next);
}

void
sched_timer_event(void)
{
	struct runqueue *rq = rq_of(this_cpu()->id);

	timers_run();
	spin_lock(&rq->lock);
	wake_due_sleepers(rq, rdtsc());
	spin_unlock(&rq->lock);
}

u64
sched_next_event(void)
{
	return MIN(READ_ONCE(rq_of(this_cpu()->id)->next_wake), timers_next_deadline());
}

void
sched_tick(void)
{
	struct cpu *c = this_cpu();
	struct runqueue *rq = rq_of(c->id);
	struct task *t = c->current;

	timers_run();
	if (c->id == 0) {
		posix_cpu_timers_tick();
		loadavg_tick();
	}
	spin_lock(&rq->lock);
	wake_due_sleepers(rq, rdtsc());
	if (t != c->idle && --t->slice <= 0)
		WRITE_ONCE(c->need_resched, true);
	if (t == c->idle && rq->nr_queued)
		WRITE_ONCE(c->need_resched, true);
	spin_unlock(&rq->lock);
}

unsigned
sched_nr_running(void)
{
	unsigned n = 0;

	for (unsigned i = 0; i < READ_ONCE(ncpus); i++) {
		struct cpu *c = cpus[i];
		if (!c || !READ_ONCE(c->online))
			continue;
		n += READ_ONCE(rq_of(i)->nr_queued);
		n += READ_ONCE(c->current) != c->idle;
	}
	return n;
}

u64
sched_nr_switches(void)
{
	u64 n = 0;

	for (unsigned i = 0; i < READ_ONCE(ncpus); i++)
		n += READ_ONCE(rq_of(i)->nr_switches);
	return n;
}

u64
schedule_timeout_ns(u64 ns)
{
	might_sleep("schedule_timeout_ns");
	struct task *t = current();
	struct runqueue *rq = rq_of(this_cpu()->id);
	u64 deadline = rdtsc() + tsc_ns_to_cycles(MIN(ns, 1ul << 62));

	u64 flags = spin_lock_irqsave(&rq->lock);
	t->wake_deadline = deadline;
	list_add_tail(&t->timer_link, &rq->sleepers);
	if (deadline < rq->next_wake) {
		WRITE_ONCE(rq->next_wake, deadline);
		timer_interrupt_at(deadline); /* this CPU's list: this CPU's timer */
	}
	spin_unlock_irqrestore(&rq->lock, flags);

	schedule();

	/*
	 * The entry is on the sleepers list of the CPU this task slept on,
	 * which may not be t->cpu any more (an idle CPU may have pulled it):
	 * take that list's lock, not the new queue's.
	 */
	flags = spin_lock_irqsave(&rq->lock);
	if (!list_empty(&t->timer_link))
		list_del(&t->timer_link);
	spin_unlock_irqrestore(&rq->lock, flags);
	u64 now = rdtsc();
	return now >= deadline ? 0 : tsc_cycles_to_ns(deadline - now);
}

long
sleep_ns(u64 ns)
{
	while (ns) {
		set_current_sleeping();
		if (task_interrupted()) {
			WRITE_ONCE(current()->state, TASK_RUNNABLE);
			return -EINTR;
		}
		ns = schedule_timeout_ns(ns);
	}
	return 0;
}

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

void
sched_start_task(struct task *t)
{
	t->cpu = select_cpu(t);
	struct runqueue *rq = rq_of(t->cpu);
	u64 flags = spin_lock_irqsave(&rq->lock);
	t->state = TASK_RUNNABLE;
	enqueue(rq, t);
	unsigned cpu = t->cpu;
	bool kick = kick_needed(cpu);
	spin_unlock_irqrestore(&rq->lock, flags);
	if (kick)
		smp_send_reschedule(cpu);
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

void
sched_init_cpu(u64 boot_stack_top)
{
	struct cpu *c = this_cpu();
	struct task *idle = kzalloc(sizeof(*idle));

	if (!idle)
		panic("sched: no memory for the idle task");
	rq_init(rq_of(c->id));
	ksnprintf(idle->comm, sizeof(idle->comm), "idle/%u", c->id);
	spin_lock_init(&idle->alloc_lock, "task_lock");
	idle->state = TASK_RUNNABLE;
	idle->on_cpu = true;
	idle->cpu = c->id;
	idle->cpus_allowed = 1ul << c->id;
	idle->migrate_to = -1;
	idle->kstack_top = boot_stack_top;
	list_init(&idle->run_link);
	list_init(&idle->timer_link);
	list_init(&idle->children);
	list_init(&idle->sibling);
	list_init(&idle->all_link);
	wait_queue_init(&idle->child_exited);
	c->idle = idle;
	c->current = idle;
}

__noreturn void
sched_idle_loop(void)
{
	struct cpu *c = this_cpu();

	/* Idle time starts here: until now this task was booting the CPU, which is work. */
	c->idle->time = (struct cputime){ 0 };
	c->idle->time_stamp = rdtsc();

	for (;;) {
		local_irq_disable();
		if (!READ_ONCE(rq_of(c->id)->nr_queued))
			pull_task(c);
		if (READ_ONCE(c->need_resched) || rq_of(c->id)->nr_queued) {
			local_irq_enable();
			schedule();
		} else {
			safe_halt(); /* sti; hlt: no wake-up is lost between the test and the halt */
		}
	}
}
