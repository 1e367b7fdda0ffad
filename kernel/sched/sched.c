/*
 * sched.c - run queues, the context switch, sleeping, starting a task on
 * a CPU; see sched.h (a task's allocation and kernel threads: task.c).
 *
 * Each CPU has a run queue of runnable tasks that are not running, a list of
 * timed sleepers, and an idle task (the thread that booted it) that runs
 * when the queue is empty. The queue is two lists, Linux's two classes:
 *
 *   rt_queue: SCHED_FIFO and SCHED_RR tasks, highest rt_priority first,
 *   in arrival order within a priority. Its head runs before any normal
 *   task; FIFO runs until it blocks or yields, RR for SCHED_RR_MS
 *   (sched_rr_ticks()), then goes behind its peers.
 *
 *   queue: SCHED_NORMAL, SCHED_BATCH and SCHED_IDLE tasks in order of
 *   vruntime, the CPU time each has had scaled by NICE_0 weight / its own
 *   weight (Linux's CFS table: each nice step is ~1.25x the CPU share). The
 *   invariant: the head has had the least weighted time, so it runs next,
 *   for SCHED_SLICE_TICKS; over time each task's share of one CPU is its
 *   weight / the sum of the weights. The one exception: a task that yields
 *   goes to the tail once, whatever its vruntime (enqueue_fair). vruntime
 *   grows at the tick (sampled, not exact: cheap, and the pick stays a
 *   list head). The second invariant: no queued task's vruntime is more
 *   than one slice below the queue's min_vruntime, whichever path queued
 *   it (a wake-up, a move from another CPU, a switch out after a yield,
 *   a return from the RT class); enqueue_fair raises it to that floor, so
 *   that sleeping, yielding or RT time earns no hoard of CPU time with
 *   which a task could starve its queue.
 *
 * RT throttling (Linux's sched_rt_runtime_us of sched_rt_period_us): once
 * RT tasks have had rt_runtime_us of a CPU's period, its normal tasks
 * run first until the period ends, so that a spinning FIFO task cannot
 * take the machine.
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
 * from the busiest queue before it halts, and again whenever it wakes: at
 * its tick, or, with its tick stopped, when a busy CPU's tick finds tasks
 * waiting and kicks it (kernel/time/tick.c). A task never runs on two
 * CPUs: it moves only while queued and not on_cpu, under both queues'
 * locks (taken in CPU order). A running task whose affinity excludes its
 * CPU moves after it has been switched out (migrate_to), when its stack is
 * free.
 */
#include "kernel/sched/sched.h"
#include "kernel/sched/switch.h"
#include "kernel/time/cputime.h"
#include "uapi/errno.h"
#include "kernel/x86/debugreg.h"
#include "kernel/x86/fpu.h"
#include "kernel/panic.h"
#include "kernel/process/process.h"
#include "kernel/x86/smp.h"
#include "kernel/x86/paravirt.h"
#include "kernel/printk.h"
#include "kernel/signal/signal.h"
#include "kernel/lib/string.h"
#include "kernel/time/tick.h"
#include "kernel/time/timer.h"
#include "kernel/x86/entry.h"
#include "kernel/x86/traps.h"
#include "kernel/x86/tsc_mode.h"
#include "drivers/lapic.h"
#include "kernel/time/tsc.h"
#include "kernel/lib/vsprintf.h"
#include "kernel/x86/x86.h"
#include "locking/lockdebug.h"
#include "mm/kmalloc.h"
#include "mm/uaccess.h"
#include "mm/vm.h"

struct runqueue {
	struct spinlock lock;
	struct list_head queue;		/* runnable normal tasks, not running, by vruntime */
	struct list_head rt_queue;	/* runnable FIFO/RR tasks, not running, by priority */
	unsigned nr_rt;			/* on rt_queue */
	s64 min_vruntime;		/* never decreases: where a waking task is placed */
	u64 rt_used_us, period_used_us; /* RT time in the current throttling period, and its age */
	bool rt_throttled;		/* RT tasks have had their runtime this period */
	struct list_head sleepers;	/* timed sleeps, via timer_link */
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
	list_init(&rq->rt_queue);
	list_init(&rq->sleepers);
	rq->next_wake = ~0ul;
	rq->nr_queued = 0;
}

/* Behind every task of the same or a higher priority. */
static __attribute__((noinline)) void
enqueue_rt(struct runqueue *rq, struct task *t)
{
	struct list_head *pos = rq->rt_queue.prev;

	while (pos != &rq->rt_queue &&
	       list_entry(pos, struct task, run_link)->rt_priority < t->rt_priority)
		pos = pos->prev;
	list_add(&t->run_link, pos);
	rq->nr_rt++;
}

/*
 * Behind every task with as little vruntime, and no further back than a
 * slice behind the queue's least: whatever the path that queues it (a
 * wake-up, a move from another CPU, a switch out, a policy change), a
 * task that fell behind has no hoard of CPU time to spend. A yielding
 * task goes to the tail whatever its vruntime: behind its peers this
 * once, as Linux's yield skips a task once; it is back in order when it
 * is next queued. (Raising its vruntime to the tail's would cost the
 * context switch's budget more.) While it waits there the least, read
 * from the head, passes it; the floor keeps a task that yields again and
 * again from falling behind by a slice of every other task each time.
 */
static inline void
enqueue_fair(struct runqueue *rq, struct task *t)
{
	struct list_head *pos = rq->queue.prev;
	s64 floor = rq->min_vruntime - (s64)SCHED_SLICE_TICKS * NICE_0_VTICK;

	t->vruntime = MAX(t->vruntime, floor);
	if (unlikely(t->yielded)) {
		t->yielded = false;
		list_add_tail(&t->run_link, &rq->queue);
		return;
	}
	while (pos != &rq->queue && list_entry(pos, struct task, run_link)->vruntime > t->vruntime)
		pos = pos->prev;
	list_add(&t->run_link, pos);
}

static inline __attribute__((always_inline)) void
enqueue(struct runqueue *rq, struct task *t)
{
	if (unlikely(t->rt_priority))
		enqueue_rt(rq, t);
	else
		enqueue_fair(rq, t);
	rq->nr_queued++;
}

static void
dequeue_task(struct runqueue *rq, struct task *t)
{
	list_del(&t->run_link);
	rq->nr_queued--;
	if (t->rt_priority)
		rq->nr_rt--;
}

/*
 * The next to run: the RT queue's head unless RT time is throttled, the
 * normal queue's head, or a throttled RT task rather than nothing.
 */
static struct task *
dequeue_next(struct runqueue *rq)
{
	struct list_head *from = &rq->queue;

	if (unlikely(rq->nr_rt) && (!rq->rt_throttled || list_empty(&rq->queue))) {
		from = &rq->rt_queue;
		rq->nr_rt--;
	}
	struct task *t = list_first_entry(from, struct task, run_link);
	list_del(&t->run_link);
	rq->nr_queued--;
	return t;
}

/* t moves to another queue: its vruntime keeps its distance from the least (enqueue_fair floors it). */
static void
move_vruntime(struct task *t, struct runqueue *from, struct runqueue *to)
{
	t->vruntime += READ_ONCE(to->min_vruntime) - READ_ONCE(from->min_vruntime);
}

s64
sched_vruntime_lead(const struct task *t)
{
	return t->vruntime - READ_ONCE(rq_of(t->cpu)->min_vruntime);
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

/*
 * t, an RT task just queued on its CPU's rq (locked), takes that CPU from
 * a normal task or a lower RT priority unless RT time is throttled; returns
 * whether the CPU needs the IPI.
 */
static bool
preempts_current(struct runqueue *rq, struct task *t)
{
	struct cpu *c = cpus[t->cpu];

	if (rq->rt_throttled || READ_ONCE(c->current)->rt_priority >= t->rt_priority)
		return false;
	WRITE_ONCE(c->need_resched, true);
	return t->cpu != this_cpu()->id;
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
	return kick_needed(t->cpu) || (unlikely(t->rt_priority) && preempts_current(rq, t));
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

/* A task of src's list that may move to cpu (not running anywhere); src locked. */
static struct task *
stealable_from(struct list_head *list, unsigned cpu)
{
	struct list_head *pos;

	for (pos = list->prev; pos != list; pos = pos->prev) {
		struct task *t = list_entry(pos, struct task, run_link);
		if (!t->on_cpu && (t->cpus_allowed & (1ul << cpu)))
			return t;
	}
	return NULL;
}

/* A queued task of src that may move to cpu, RT tasks first; src locked. */
static struct task *
stealable(struct runqueue *src, unsigned cpu)
{
	struct task *t = src->nr_rt ? stealable_from(&src->rt_queue, cpu) : NULL;

	return t ? t : stealable_from(&src->queue, cpu);
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
		dequeue_task(busiest, t);
		move_vruntime(t, busiest, here);
		t->cpu = c->id;
		enqueue(here, t);
	}
	spin_unlock(&busiest->lock);
	spin_unlock(&here->lock);
}

/*
 * Everything but the stack: address space, FPU, TLS base, kernel stack
 * for traps; debug registers only if next has breakpoints or this CPU
 * still holds another task's, so that a switch without pays one test;
 * CR4.TSD only when next's PR_SET_TSC mode differs from the CPU's.
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
	tsc_mode_switch(c, next);
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
	move_vruntime(t, rq_of(t->cpu), rq);
	t->cpu = cpu;
	t->migrate_to = -1;
	enqueue(rq, t);
	bool kick = kick_needed(cpu);
	spin_unlock(&rq->lock);
	if (kick)
		smp_send_reschedule(cpu);
}

/*
 * Runs in the task switched to, with the rq lock held by the one switched
 * from. Once on_cpu is false a dead prev may be reaped and freed by another
 * CPU (wait.c, exit.c wait for it), so everything read from prev is read
 * before: READ_ONCE keeps the compiler from sinking the load below the
 * store (a plain load was emitted after it, and a 4-CPU thread churn read
 * a freed task's poison as the CPU to migrate to).
 */
static void
finish_switch(struct task *prev)
{
	int dest = READ_ONCE(prev->migrate_to);

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
	struct task *next = NULL;
	if (prev != c->idle && prev->state == TASK_RUNNABLE) {
		if (prev->cpus_allowed & (1ul << c->id)) {
			enqueue(rq, prev);
			next = dequeue_next(rq); /* the queue holds prev at least */
		} else {
			prev->migrate_to = first_allowed_cpu(prev);
		}
	}
	if (!next)
		next = rq->nr_queued ? dequeue_next(rq) : c->idle;
	if (next == prev) {
		spin_unlock_irqrestore(&rq->lock, flags);
		return;
	}
	next->on_cpu = true;
	next->cpu = c->id;
	rq->nr_switches++;
	switch_cpu_state(c, prev, next);
	struct task *last = (struct task *)switch_stacks(&prev->saved_rsp, next->saved_rsp, prev);
	finish_switch(last);
	local_irq_restore(flags);
}

void
sched_set_attrs(struct task *t, int policy, int rt_priority, int nice)
{
	for (;;) {
		unsigned cpu = READ_ONCE(t->cpu);
		struct runqueue *rq = rq_of(cpu);
		u64 flags = spin_lock_irqsave(&rq->lock);
		/*
		 * Between its switch-out and migrate() a task belongs to no queue
		 * and is about to join another: wait for it to land. migrate()
		 * stores cpu before migrate_to, so read them in the other order.
		 */
		if (READ_ONCE(t->migrate_to) < 0 && READ_ONCE(t->cpu) == cpu) {
			bool queued = !list_empty(&t->run_link);
			if (queued)
				dequeue_task(rq, t);
			if (policy != t->policy)
				t->slice =
					policy == SCHED_RR ? sched_rr_ticks() : SCHED_SLICE_TICKS;
			/* Back from RT, a stale vruntime meets enqueue_fair's floor. */
			t->policy = (u8)policy;
			t->rt_priority = (u8)rt_priority;
			t->nice = (s8)nice;
			if (queued)
				enqueue(rq, t);
			/* Its CPU picks again, with the new order. */
			WRITE_ONCE(cpus[cpu]->need_resched, true);
			spin_unlock_irqrestore(&rq->lock, flags);
			smp_send_reschedule(cpu);
			return;
		}
		spin_unlock_irqrestore(&rq->lock, flags);
		cpu_relax();
	}
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

/* Microseconds per tick, at the hz knob's rate. */
static u64
tick_us(void)
{
	return 1000000ul / (u64)READ_ONCE(hz);
}

/* The least vruntime on rq, the running normal task's included; rq locked. */
static void
update_min_vruntime(struct runqueue *rq, const struct task *running)
{
	s64 least = running->vruntime;

	if (!list_empty(&rq->queue))
		least = MIN(least, list_first_entry(&rq->queue, struct task, run_link)->vruntime);
	rq->min_vruntime = MAX(rq->min_vruntime, least);
}

/* The running task t had this tick: its vruntime or its RT time grows, its slice shrinks. */
static void
charge_tick(struct cpu *c, struct runqueue *rq, struct task *t)
{
	if (t->rt_priority) {
		rq->rt_used_us += tick_us();
		if (t->policy == SCHED_RR && --t->slice <= 0) {
			t->slice = sched_rr_ticks();
			WRITE_ONCE(c->need_resched, true);
		}
		return;
	}
	t->vruntime += (s64)sched_vtick(t);
	update_min_vruntime(rq, t);
	if (--t->slice <= 0) {
		t->slice = SCHED_SLICE_TICKS; /* refilled here, not on the switch's path */
		WRITE_ONCE(c->need_resched, true);
	}
}

/*
 * RT throttling: after rt_runtime_us of a period spent in RT tasks, the
 * normal tasks go first until the period ends. rq locked.
 */
static void
rt_period_tick(struct cpu *c, struct runqueue *rq, struct task *t, u64 us)
{
	s64 runtime = READ_ONCE(sched_rt_runtime_us);

	rq->period_used_us += us;
	if (rq->period_used_us >= READ_ONCE(sched_rt_period_us)) {
		rq->period_used_us = rq->rt_used_us = 0;
		if (rq->rt_throttled && rq->nr_rt)
			WRITE_ONCE(c->need_resched, true);
		rq->rt_throttled = false;
	} else if (!rq->rt_throttled && runtime >= 0 && rq->rt_used_us >= (u64)runtime) {
		rq->rt_throttled = true;
		if (t->rt_priority && !list_empty(&rq->queue))
			WRITE_ONCE(c->need_resched, true);
	}
}

void
sched_tick(u64 us)
{
	struct cpu *c = this_cpu();
	struct runqueue *rq = rq_of(c->id);
	struct task *t = c->current;

	timers_run();
	spin_lock(&rq->lock);
	wake_due_sleepers(rq, rdtsc());
	if (t != c->idle)
		charge_tick(c, rq, t);
	rt_period_tick(c, rq, t, us);
	if (t == c->idle && rq->nr_queued)
		WRITE_ONCE(c->need_resched, true);
	bool waiting = t != c->idle && rq->nr_queued;
	spin_unlock(&rq->lock);
	if (waiting)
		tick_nohz_kick_idle();
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
sched_cpu_switches(unsigned cpu)
{
	return READ_ONCE(rq_of(cpu)->nr_switches);
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

void
sched_start_task(struct task *t)
{
	t->cpu = select_cpu(t);
	struct runqueue *rq = rq_of(t->cpu);
	u64 flags = spin_lock_irqsave(&rq->lock);
	t->state = TASK_RUNNABLE;
	t->vruntime += rq->min_vruntime; /* it was a lead (sched_fork), 0 for a kernel thread */
	enqueue(rq, t);
	unsigned cpu = t->cpu;
	bool kick = kick_needed(cpu) || (t->rt_priority && preempts_current(rq, t));
	spin_unlock_irqrestore(&rq->lock, flags);
	if (kick)
		smp_send_reschedule(cpu);
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
			tick_nohz_idle_exit();
			local_irq_enable();
			schedule();
		} else {
			tick_nohz_idle_enter();
			safe_halt(); /* sti; hlt: no wake-up is lost between the test and the halt */
		}
	}
}
