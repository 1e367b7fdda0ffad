/*
 * cputime.c - charging CPU time to tasks, exactly and by the tick; see
 * cputime.h.
 *
 * Exact: a task is in user mode exactly between cputime_exit_kernel() and
 * the next cputime_enter_kernel(); everything else on its CPU is system
 * time, and a switched-out task accrues nothing.
 * Tick: a tick's worth of TSC cycles goes to whatever the tick
 * interrupted. A CPU's idle task takes its idle ticks (as Linux's idle
 * counter does), so /proc/uptime's idle time works either way; processes
 * are charged nothing while the CPU idles. An idle CPU that stopped its
 * tick (kernel/time/tick.c) is charged the whole tickless stretch as idle
 * when the tick restarts, and a reader of its usage meanwhile adds the
 * stretch so far: the pair is read under the CPU's sequence counter, so
 * that its idle time never seems to go back.
 * Steal: where the hypervisor keeps a steal clock (drivers/kvm_steal.h),
 * each tick takes the steal grown since the last one, up to a tick, out of
 * both methods' charge for the mode it interrupted and puts it in the CPU's
 * steal column. Exact accounting is corrected at the tick too, not at every
 * entry and exit as Linux's vtime does, so that the system call path reads
 * no steal area: a stretch's steal lands in whatever the next tick
 * interrupts.
 */
#include "kernel/time/cputime.h"
#include "kernel/time/rlimit_cpu.h"
#include "mm/vm.h"
#include "kernel/x86/entry.h"
#include "uapi/errno.h"
#include "kernel/syscall/syscall.h"
#include "kernel/x86/paravirt.h"
#include "kernel/x86/percpu.h"
#include "kernel/lib/seqcount.h"
#include "kernel/lib/string.h"
#include "kernel/knobs.h"
#include "kernel/x86/traps.h"
#include "kernel/time/tsc.h"
#include "kernel/time/itimer.h"
#include "drivers/kvm_steal.h"
#include "drivers/lapic.h"
#include "uapi/param.h"

enum { CPUTIME_TSC, CPUTIME_TICK };

KNOB_ENUM(cputime_method, "cputime", CPUTIME_TSC, true,
	  "CPU-time accounting: exact TSC stretches at every kernel entry and exit, "
	  "or whole ticks sampled at the timer interrupt (Linux 3.0)",
	  "tsc", "tick");

void
cputime_switch(struct task *prev, struct task *next)
{
	prev->time.sys += cputime_charge(prev);
	next->time_stamp = prev->time_stamp;
}

/*
 * Each CPU's time by what it ran, sampled at the tick (Linux's
 * kernel_cpustat), TSC cycles; tickless_since: the start of the idle
 * stretch its stopped tick has not charged, or 0. Written by its own CPU.
 */
struct cpu_account {
	struct cpu_usage ticked;
	u64 tickless_since;
	u32 seq;
};
static struct cpu_account cpu_accounts[MAX_CPUS];
/* Each CPU's steal charged so far, ns of its steal clock. */
static u64 steal_accounted[MAX_CPUS];

/*
 * Takes the stolen cycles out of the exact time of the mode the tick
 * interrupted: from user mode the entry has just charged the stretch to
 * user time; in the kernel the stretch is still open, and shortening it
 * comes first.
 */
static void
uncharge_exact(struct task *t, bool from_user, u64 stolen)
{
	if (from_user) {
		t->time.user -= MIN(t->time.user, stolen);
		return;
	}
	u64 open = MIN(rdtsc() - t->time_stamp, stolen);

	t->time_stamp += open;
	t->time.sys -= MIN(t->time.sys, stolen - open);
}

void
cputime_tick(const struct trap_frame *f)
{
	struct task *t = current();
	unsigned cpu = this_cpu()->id;
	struct cpu_usage *u = &cpu_accounts[cpu].ticked;
	u64 tick_ns = 1000000000 / (u64)READ_ONCE(hz);
	u64 stolen_ns = kvm_steal_take(&steal_accounted[cpu], kvm_steal_clock(), tick_ns);
	u64 stolen = tsc_ns_to_cycles(stolen_ns), tick = tsc_ns_to_cycles(tick_ns - stolen_ns);
	bool from_user = trap_from_user(f);

	if (stolen) {
		uncharge_exact(t, from_user, stolen);
		WRITE_ONCE(u->steal, u->steal + stolen);
	}
	if (from_user)
		t->time.tick_user += tick;
	else
		t->time.tick_sys += tick;
	itimer_cpu_tick(t, from_user, cputime_ns(tick));
	rlimit_cpu_tick(t);
	if (t == this_cpu()->idle)
		WRITE_ONCE(u->idle, u->idle + tick);
	else if (from_user)
		WRITE_ONCE(u->user, u->user + tick);
	else
		WRITE_ONCE(u->system, u->system + tick);
}

void
cputime_tickless_begin(u64 from)
{
	WRITE_ONCE(cpu_accounts[this_cpu()->id].tickless_since, from);
}

u64
cputime_tickless_end(u64 now)
{
	struct task *idle = this_cpu()->idle;
	struct cpu_account *u = &cpu_accounts[this_cpu()->id];
	u64 stretch = now > u->tickless_since ? now - u->tickless_since : 0;

	seq_write_begin(&u->seq);
	WRITE_ONCE(u->ticked.idle, u->ticked.idle + stretch);
	WRITE_ONCE(u->tickless_since, 0);
	seq_write_end(&u->seq);
	idle->time.tick_sys += stretch;
	return stretch;
}

struct cpu_usage
cputime_cpu_usage(unsigned cpu)
{
	struct cpu_account *u = &cpu_accounts[cpu];
	struct cpu_usage c;
	u32 s;

	do {
		s = seq_read_begin(&u->seq);
		c = (struct cpu_usage){ .user = READ_ONCE(u->ticked.user),
					.system = READ_ONCE(u->ticked.system),
					.idle = READ_ONCE(u->ticked.idle),
					.steal = READ_ONCE(u->ticked.steal) };
		u64 since = READ_ONCE(u->tickless_since), now = rdtsc();
		if (since && now > since)
			c.idle += now - since;
	} while (seq_read_retry(&u->seq, s));
	return (struct cpu_usage){ .user = cputime_ns(c.user),
				   .system = cputime_ns(c.system),
				   .idle = cputime_ns(c.idle),
				   .steal = cputime_ns(c.steal) };
}

struct cputime
cputime_selected(struct cputime c)
{
	if (READ_ONCE(cputime_method) == CPUTIME_TICK) {
		c.user = c.tick_user;
		c.sys = c.tick_sys;
	}
	return c;
}

void
cputime_add(struct cputime *sum, struct cputime c)
{
	sum->user += c.user;
	sum->sys += c.sys;
	sum->tick_user += c.tick_user;
	sum->tick_sys += c.tick_sys;
}

/* Both methods, unselected, with the running task's stretch in progress. */
static struct cputime
read_raw(struct task *t)
{
	struct cputime c = t->time;

	/* Only the running task has a stretch in progress, and it is in the kernel. */
	if (t == current())
		c.sys += rdtsc() - t->time_stamp;
	return c;
}

struct cputime
cputime_read(struct task *t)
{
	return cputime_selected(read_raw(t));
}

struct cputime
cputime_read_process_locked(struct task *t)
{
	struct task *leader = t->group_leader;

	if (!leader) /* an idle task: no process around it */
		return cputime_read(t);
	struct cputime c = leader->exited_threads_time;
	struct list_head *pos;
	list_for_each(pos, &leader->threads)
		cputime_add(&c, read_raw(list_entry(pos, struct task, thread_link)));
	return cputime_selected(c);
}

struct cputime
cputime_read_process(struct task *t)
{
	u64 flags = spin_lock_irqsave(&tasks_lock);
	struct cputime c = cputime_read_process_locked(t);

	spin_unlock_irqrestore(&tasks_lock, flags);
	return c;
}

u64
cputime_ns(u64 cycles)
{
	return tsc_cycles_to_ns(cycles);
}

void
fill_rusage(struct kernel_rusage *ru, struct cputime c, u64 minflt, u64 maxrss_kb)
{
	c = cputime_selected(c);
	u64 u = cputime_ns(c.user) / 1000, s = cputime_ns(c.sys) / 1000;

	memset(ru, 0, sizeof(*ru));
	ru->ru_utime.tv_sec = (s64)(u / 1000000);
	ru->ru_utime.tv_usec = (s64)(u % 1000000);
	ru->ru_stime.tv_sec = (s64)(s / 1000000);
	ru->ru_stime.tv_usec = (s64)(s % 1000000);
	ru->ru_minflt = (s64)minflt;
	ru->ru_maxrss = (s64)maxrss_kb;
}

/*
 * ru_maxrss of the caller's process (Linux's, for RUSAGE_SELF and
 * RUSAGE_THREAD alike): the largest resident set of the address spaces it
 * had, the current one's high-water mark included.
 */
static u64
own_maxrss_kb(struct task *t)
{
	u64 kb = READ_ONCE(t->group_leader->maxrss_kb);

	return t->mm ? MAX(kb, READ_ONCE(t->mm->hiwater_rss) * (PAGE_SIZE / 1024)) : kb;
}

/* ---- the system calls that report CPU time ------------------------------------ */

SYSCALL2(getrusage, int, who, struct kernel_rusage __user *, uru)
{
	struct task *t = current();
	struct kernel_rusage ru;

	switch (who) {
	case RUSAGE_SELF:
		fill_rusage(&ru, cputime_read_process(t), t->minor_faults, own_maxrss_kb(t));
		break;
	case RUSAGE_THREAD:
		fill_rusage(&ru, cputime_read(t), t->minor_faults, own_maxrss_kb(t));
		break;
	case RUSAGE_CHILDREN:
		fill_rusage(&ru, t->group_leader->children_time,
			    t->group_leader->children_minor_faults,
			    READ_ONCE(t->group_leader->children_maxrss_kb));
		break;
	default:
		return -EINVAL;
	}
	return copy_to_user(uru, &ru, sizeof(ru)) ? -EFAULT : 0;
}

static s64
clock_ticks(u64 cycles)
{
	return (s64)(cputime_ns(cycles) / (1000000000 / USER_HZ));
}

SYSCALL1(times, s64 __user *, ubuf)
{
	struct task *t = current();
	struct cputime c = cputime_read_process(t);
	struct cputime children = cputime_selected(t->group_leader->children_time);
	s64 tms[4] = { clock_ticks(c.user), clock_ticks(c.sys), clock_ticks(children.user),
		       clock_ticks(children.sys) };

	if (ubuf && copy_to_user(ubuf, tms, sizeof(tms)))
		return -EFAULT;
	return (long)(ns_since_boot() / (1000000000 / USER_HZ));
}
