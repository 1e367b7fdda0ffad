/*
 * cputime.h - per-task CPU time, kept two ways at once:
 *  - exact: the TSC is read at every entry to and exit from the kernel and
 *    at every context switch, and the stretch since the last reading is
 *    charged to user or system time (docs/grounds.md, "Measurement
 *    rules");
 *  - tick: each timer tick charges a whole tick to the task it interrupted,
 *    as user or system time by the mode it interrupted (Linux 3.0's way).
 * The `cputime=tsc|tick` knob (run time) chooses which one is reported:
 * getrusage, times, wait4, /proc and the CPU-time clocks all go through
 * cputime_read*() or fill_rusage(), which apply it.
 */
#ifndef REWIND_CPUTIME_H
#define REWIND_CPUTIME_H

#include "kernel/process/task.h"
#include "kernel/x86/paravirt.h"
#include "uapi/resource.h"

struct trap_frame;

/*
 * The TSC cycles since t's last reading, which this one replaces. Inline
 * with the two below: every system call's entry and exit charges one
 * (kernel/x86/entry.c), and two calls there cost the null call a tenth of
 * its instructions.
 */
static inline u64
cputime_charge(struct task *t)
{
	u64 now = rdtsc();
	u64 stretch = now - t->time_stamp;

	t->time_stamp = now;
	return stretch;
}

/* From user mode: the stretch since the exit was user time. */
static inline void
cputime_enter_kernel(struct task *t)
{
	t->time.user += cputime_charge(t);
}

/* Back to user mode: the stretch since the entry was system time. */
static inline void
cputime_exit_kernel(struct task *t)
{
	t->time.sys += cputime_charge(t);
}

void cputime_switch(struct task *prev, struct task *next);
/* Every CPU's timer tick, with the frame it interrupted. */
void cputime_tick(const struct trap_frame *f);
/*
 * How a CPU spent its time since boot, by the tick whatever the knob says
 * (as Linux's /proc/stat): in user mode, in the kernel, idle, and stolen by
 * the hypervisor (0 without a steal clock: drivers/kvm_steal.h).
 */
struct cpu_usage {
	u64 user, system, idle, steal;
};
/* cpu's, in nanoseconds, a tickless stretch in progress counted as idle. */
struct cpu_usage cputime_cpu_usage(unsigned cpu);
/*
 * This idle CPU's tick stops (kernel/time/tick.c): its time from `from`
 * (TSC, the last tick) is idle until cputime_tickless_end(now), which
 * charges it to the CPU's and its idle task's idle time and returns it.
 */
void cputime_tickless_begin(u64 from);
u64 cputime_tickless_end(u64 now);
/*
 * The times as the knob reports them: user and sys are the chosen method's
 * (the tick_* fields stay, so applying this twice changes nothing).
 */
struct cputime cputime_selected(struct cputime c);
/* sum += c, both methods. */
void cputime_add(struct cputime *sum, struct cputime c);
/* The task's times up to now, including the stretch in progress; selected. */
struct cputime cputime_read(struct task *t);
/* The whole process's times: every live member of t's thread group, plus those that exited. */
struct cputime cputime_read_process(struct task *t);
/* The same with tasks_lock already held. */
struct cputime cputime_read_process_locked(struct task *t);
/* Cycles of CPU time to nanoseconds. */
u64 cputime_ns(u64 cycles);

/* c as the knob selects it (raw sums, as wait4's, are fine); maxrss in KB. */
void fill_rusage(struct kernel_rusage *ru, struct cputime c, u64 minflt, u64 maxrss_kb);

#endif
