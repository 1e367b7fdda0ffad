/*
 * sched.h - the scheduler: per-CPU run queues, Linux's scheduling classes
 * (SCHED_FIFO/RR before the weighted-fair normal tasks), sleeping with
 * deadlines, kernel threads.
 *
 * Preemption happens on the way back to user mode (and in the idle loop):
 * the timer tick only marks the CPU as needing to reschedule, as a Linux
 * kernel without CONFIG_PREEMPT does. Kernel code therefore runs until it
 * sleeps or returns, which keeps spinlock-protected sections simple.
 */
#ifndef REWIND_SCHED_H
#define REWIND_SCHED_H

#include "kernel/process/task.h"
#include "uapi/sched.h"

#define SCHED_SLICE_TICKS 10	     /* 10 ms at hz=1000 */
#define SCHED_RR_MS	  100	     /* SCHED_RR's time slice, as Linux's sched_rr_timeslice_ms */
#define NICE_0_VTICK	  (1l << 20) /* vruntime a nice-0 task gains in a tick */
#define MIN_NICE	  (-20)
#define MAX_NICE	  19

/* RT throttling (/proc/sys/kernel/sched_rt_*): RT tasks get runtime of every period; -1: all. */
extern s64 sched_rt_runtime_us;
extern u64 sched_rt_period_us;

/* Ticks of a SCHED_RR slice at the hz knob's rate (policy.c). */
int sched_rr_ticks(void);
/* vruntime a normal task gains in a tick: NICE_0_VTICK scaled by nice-0's weight / its own (priority.c). */
u64 sched_vtick(const struct task *t);
/* t's weight: of its nice, or SCHED_IDLE's (1024 at nice 0, Linux's CFS table). */
u32 sched_weight(const struct task *t);
/* t's vruntime as the nanoseconds a nice-0 task would have run (/proc/<pid>/sched). */
s64 sched_vruntime_ns(const struct task *t);
/*
 * Gives t a policy, RT priority (0 for the normal policies) and nice,
 * moving it in its run queue and having its CPU pick again (policy.c and
 * priority.c check what the caller may set).
 */
void sched_set_attrs(struct task *t, int policy, int rt_priority, int nice);
/*
 * A child's scheduling: the parent's policy, priority, nice, I/O priority
 * and vruntime; with SCHED_RESET_ON_FORK a normal policy at nice >= 0 (policy.c).
 */
void sched_fork(struct task *child, const struct task *parent);
/*
 * How far t's vruntime is ahead of its queue's least: what a new task
 * carries to whichever queue it starts on, since queues' vruntimes are
 * not comparable (Linux's task_fork_fair makes the child's relative).
 */
s64 sched_vruntime_lead(const struct task *t);

/* Makes the thread that booted this CPU (on the given stack) its idle task. */
void sched_init_cpu(u64 boot_stack_top);
/*
 * The boot thread's last act: become the idle loop, which halts with its
 * tick stopped (kernel/time/tick.c) until there is a task to run.
 */
__noreturn void sched_idle_loop(void);

/* A new task (state RUNNABLE) joins a run queue. */
void sched_start_task(struct task *t);
/* A sleeping task becomes runnable; a no-op for any other state. */
void wake_up_task(struct task *t);
/* The current task is about to sleep: call before testing the condition. */
void set_current_sleeping(void);
/* Gives up the CPU; the current task runs again when it is runnable and picked. */
void schedule(void);
/*
 * Gives the CPU away if the tick asked for it: for long loops in the
 * kernel, which is not preemptible (Linux's cond_resched). Only where no
 * spinlock is held.
 */
static inline void
cond_resched(void)
{
	if (READ_ONCE(this_cpu()->need_resched))
		schedule();
}
/*
 * Timer interrupt work: kernel timers, the time slice, and sleepers whose
 * deadline passed. us: the time the tick stands for, one period, or the
 * tickless stretch of an idle CPU whose tick restarts (kernel/time/tick.c).
 */
void sched_tick(u64 us);
/* A timer interrupt between ticks (drivers/lapic.c's high-resolution events): due timers and sleepers only. */
void sched_timer_event(void);
/* The earliest TSC deadline of this CPU's timed sleepers and of the kernel timers (~0: none). */
u64 sched_next_event(void);
/* Tasks running or queued on any CPU now (idle tasks not counted); read without locks. */
unsigned sched_nr_running(void);
/* Context switches on all CPUs since boot (/proc/stat's ctxt). */
u64 sched_nr_switches(void);
/* Context switches on cpu since boot (membarrier's grace period); read without locks. */
u64 sched_cpu_switches(unsigned cpu);
/*
 * Sleeps (the caller has called set_current_sleeping or prepare_to_wait)
 * until woken or until ns have passed; returns the nanoseconds left (0 when
 * the time ran out).
 */
u64 schedule_timeout_ns(u64 ns);
/* Sleeps ns nanoseconds; -EINTR if interrupted first. */
long sleep_ns(u64 ns);

/* Allocates a task with a kernel stack, copying nothing: for fork and kthreads. */
struct task *task_alloc(const char *name);
/*
 * Charges t's kernel stack and struct to the process leader leads, as
 * Linux's memory cgroups count kernel stacks: a process of many threads
 * weighs that much more to the OOM killer. false without memory.
 */
bool task_charge_stack(struct task *t, struct task *leader);
void task_free(struct task *t);
/* A kernel thread that runs fn(arg), then exits (freed by the kernel). */
struct task *kthread_start(const char *name, void (*fn)(void *), void *arg);
/* The same, allowed only on the CPUs in the mask. */
struct task *kthread_start_on(const char *name, void (*fn)(void *), void *arg, u64 cpus);
/* A kernel thread made but neither registered (no pid) nor started. */
struct task *kthread_create(const char *name, void (*fn)(void *), void *arg, u64 cpus);
/* A freshly forked user task resumes in user mode from its frame (task_user_frame). */
void task_prepare_user_return(struct task *t);

#endif
