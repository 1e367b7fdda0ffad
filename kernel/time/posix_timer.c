/*
 * posix_timer.c - POSIX per-process timers: timer_create, timer_settime,
 * timer_gettime, timer_getoverrun and timer_delete, with Linux's ABI and
 * errnos.
 *
 * A process's timers hang off its leader, with ids counted up from 0 per
 * process and not reused until the count wraps (Linux's
 * next_posix_timer_id). A timer runs on one of two engines:
 *  - CLOCK_REALTIME, CLOCK_MONOTONIC, CLOCK_BOOTTIME, CLOCK_TAI: a kernel timer
 *    (timer.c) on a TSC deadline, so it fires at the first tick past it;
 *    an absolute REALTIME time is turned into a TSC deadline when the timer
 *    is set (a later clock_settime does not move it, unlike Linux);
 *  - the CPU-time clocks (CLOCK_PROCESS_CPUTIME_ID, CLOCK_THREAD_CPUTIME_ID
 *    and clock_getcpuclockid's ids): on the armed_cpu list, compared with
 *    the measured task's CPU time (cputime.c, exact) at every tick of the
 *    boot CPU.
 * An expiry sends the timer's one siginfo (SI_TIMER: si_timerid,
 * si_overrun, si_value), which the timer owns for its life: while it is
 * still pending, further expiries only count as its overrun (signal.h,
 * signal_send_timer). timer_getoverrun reports the overrun of the last
 * signal delivered. Linux counts overruns up to the delivery, rewind up to
 * the last tick before it: the same but for the periods of that last
 * fraction of a tick.
 *
 * Locking: posix_timers_lock guards every process's list and every timer's
 * setting (a machine-wide lock, as timer.c's: processes have few timers).
 * Order: tasks_lock, posix_timers_lock, then the sighand lock a signal takes.
 * A kernel timer's expiry runs without posix_timers_lock (timer_cancel
 * waits for it before a timer is freed), and reads only what never changes
 * after timer_create.
 */
#include "kernel/time/posix_timer.h"
#include "kernel/process/rlimit.h"
#include "kernel/process/task.h"
#include "kernel/syscall/syscall.h"
#include "kernel/time/clock.h"
#include "kernel/time/tsc.h"
#include "kernel/x86/paravirt.h"
#include "mm/kmalloc.h"
#include "uapi/errno.h"
#include "uapi/resource.h"

#define MAX_NS (1ul << 62) /* far enough: no overflow in TSC cycles */

struct posix_timer {
	struct list_head link; /* in the leader's posix_timers */
	int id;
	int clock;
	bool on_cpu_clock;
	/* Fixed after timer_create: the expiry reads them without the lock. */
	int notify; /* SIGEV_SIGNAL (SIGEV_THREAD too), SIGEV_NONE, or with SIGEV_THREAD_ID */
	int target; /* the pid its signal goes to: its process's, or SIGEV_THREAD_ID's thread */
	int tgid;   /* its process */
	struct sigqueue *sigq; /* its signal's siginfo, owned */
	/* The setting. */
	u64 interval_ns; /* 0: one-shot (and 0 while disarmed, as Linux reports it) */
	struct timer timer;
	struct cpu_clock cpu;	   /* CPU-time timers: the clock */
	struct list_head cpu_link; /* on armed_cpu while armed, else empty */
	u64 cpu_deadline_ns;
};

static struct spinlock posix_timers_lock = SPINLOCK_INIT("posix_timers");
static struct list_head armed_cpu = LIST_HEAD_INIT(armed_cpu);

void
posix_timers_init(struct task *leader)
{
	list_init(&leader->posix_timers);
	leader->next_posix_timer_id = 0;
}

void
posix_timers_handoff(struct task *from, struct task *to)
{
	posix_timers_init(to);
	to->next_posix_timer_id = from->next_posix_timer_id;
}

/* ---- expiry ------------------------------------------------------------------ */

/* Sends pt's signal for expiries periods; tasks_lock held. */
static void
fire(struct posix_timer *pt, u64 expiries)
{
	if (pt->notify == SIGEV_NONE)
		return;
	struct task *t = task_find(pt->target);
	if (t && t->tgid == pt->tgid) /* a SIGEV_THREAD_ID thread that exited gets nothing */
		signal_send_timer(t, pt->sigq, !(pt->notify & SIGEV_THREAD_ID), expiries);
}

/* A wall-clock timer's kernel timer: interrupts off, on whichever CPU's tick saw it due. */
static void
wall_timer_expired(struct timer *tm, u64 expiries)
{
	struct posix_timer *pt = container_of(tm, struct posix_timer, timer);
	u64 flags = spin_lock_irqsave(&tasks_lock);

	fire(pt, expiries);
	spin_unlock_irqrestore(&tasks_lock, flags);
}

/* Takes pt off armed_cpu; posix_timers_lock held. */
static void
cpu_disarm(struct posix_timer *pt)
{
	if (!list_empty(&pt->cpu_link))
		list_del(&pt->cpu_link);
}

void
posix_cpu_timers_tick(void)
{
	if (READ_ONCE(armed_cpu.next) == &armed_cpu)
		return; /* no CPU-time timer anywhere: the common case costs one load */
	u64 flags = spin_lock_irqsave(&tasks_lock);
	spin_lock(&posix_timers_lock);
	struct list_head *pos = armed_cpu.next;
	while (pos != &armed_cpu) {
		struct posix_timer *pt = list_entry(pos, struct posix_timer, cpu_link);
		pos = pos->next;
		s64 now = cpu_clock_read_locked(&pt->cpu);
		if (now < 0) { /* the measured task is gone: its clock stopped for good */
			cpu_disarm(pt);
			continue;
		}
		if ((u64)now < pt->cpu_deadline_ns)
			continue;
		u64 expiries = 1;
		if (pt->interval_ns) {
			expiries += ((u64)now - pt->cpu_deadline_ns) / pt->interval_ns;
			pt->cpu_deadline_ns += expiries * pt->interval_ns;
		} else {
			cpu_disarm(pt);
		}
		fire(pt, expiries);
	}
	spin_unlock(&posix_timers_lock);
	spin_unlock_irqrestore(&tasks_lock, flags);
}

/* ---- the table --------------------------------------------------------------- */

/* The caller's timer id, or NULL; posix_timers_lock held. */
static struct posix_timer *
find_timer(int id)
{
	struct task *leader = current()->group_leader;
	struct list_head *pos;

	list_for_each(pos, &leader->posix_timers) {
		struct posix_timer *pt = list_entry(pos, struct posix_timer, link);
		if (pt->id == id)
			return pt;
	}
	return NULL;
}

/*
 * The next free id of the caller's process, or -EAGAIN when the process
 * has as many timers as RLIMIT_SIGPENDING allows (Linux charges each
 * timer's siginfo to it, per user rather than per process) or every id is
 * taken. The counter moves on whether or not the timer is then created,
 * as Linux's does. posix_timers_lock held.
 */
static int
alloc_id(void)
{
	struct task *leader = current()->group_leader;
	u64 count = 0;
	struct list_head *pos;

	list_for_each(pos, &leader->posix_timers)
		count++;
	if (count >= rlimit(RLIMIT_SIGPENDING))
		return -EAGAIN;
	int first = leader->next_posix_timer_id;
	do {
		int id = leader->next_posix_timer_id;
		leader->next_posix_timer_id = (id + 1) & __INT_MAX__;
		if (!find_timer(id))
			return id;
	} while (leader->next_posix_timer_id != first);
	return -EAGAIN;
}

/*
 * Where sigevent ev sends the signal (Linux's good_sigevent): the pid in
 * *target, or -EINVAL for an unknown notification, a signal number out of
 * 1..64, or a SIGEV_THREAD_ID thread outside the caller's process.
 */
static int
sigevent_target(const struct kernel_sigevent *ev, int *target)
{
	struct task *cur = current();

	*target = cur->tgid;
	switch (ev->sigev_notify) {
	case SIGEV_SIGNAL | SIGEV_THREAD_ID: {
		u64 flags = spin_lock_irqsave(&tasks_lock);
		struct task *t = task_find(ev->tid);
		bool ours = t && t->tgid == cur->tgid && t->state != TASK_ZOMBIE;
		spin_unlock_irqrestore(&tasks_lock, flags);
		if (!ours)
			return -EINVAL;
		*target = ev->tid;
	}
		/* fall through */
	case SIGEV_SIGNAL:
	case SIGEV_THREAD:
		return ev->sigev_signo >= 1 && ev->sigev_signo <= _NSIG ? 0 : -EINVAL;
	case SIGEV_NONE:
		return 0;
	default:
		return -EINVAL;
	}
}

static struct posix_timer *
timer_alloc(void)
{
	struct posix_timer *pt = kzalloc(sizeof(*pt));

	if (!pt)
		return NULL;
	pt->sigq = kzalloc(sizeof(*pt->sigq));
	if (!pt->sigq) {
		kfree(pt);
		return NULL;
	}
	list_init(&pt->sigq->link);
	pt->sigq->owned = true;
	timer_init(&pt->timer, wall_timer_expired);
	list_init(&pt->cpu_link);
	return pt;
}

/*
 * A timer nobody can find any more (member: a task of its process): waits
 * for its expiry in progress, then frees it.
 */
static void
timer_destroy(struct task *member, struct posix_timer *pt)
{
	timer_cancel(&pt->timer);
	signal_disown(member, pt->sigq);
	kfree(pt);
}

/* Without a sigevent: SIGALRM to the process, with the timer's id as si_value (Linux's). */
SYSCALL3(timer_create, int, clock, const struct kernel_sigevent __user *, uevent, int __user *, uid)
{
	struct kernel_sigevent ev = { .sigev_signo = SIGALRM, .sigev_notify = SIGEV_SIGNAL };
	if (uevent && copy_from_user(&ev, uevent, sizeof(ev)))
		return -EFAULT;
	long err = clock_timer_kind(clock);
	if (err < 0)
		return err;
	bool cpu = err == CLOCK_TIMERS_CPU;
	struct posix_timer *pt = timer_alloc();
	if (!pt)
		return -EAGAIN;
	u64 flags = spin_lock_irqsave(&posix_timers_lock);
	int id = alloc_id();
	spin_unlock_irqrestore(&posix_timers_lock, flags);
	err = id;
	if (id < 0)
		goto fail;
	if (!uevent)
		ev.sigev_value = (unsigned long)id;
	err = sigevent_target(&ev, &pt->target);
	if (!err && copy_to_user(uid, &id, sizeof(id)))
		err = -EFAULT;
	if (!err && cpu)
		err = cpu_clock_bind(clock, &pt->cpu);
	if (err)
		goto fail;
	pt->id = id;
	pt->clock = clock;
	pt->on_cpu_clock = cpu;
	pt->notify = ev.sigev_notify == SIGEV_THREAD ? SIGEV_SIGNAL : ev.sigev_notify;
	pt->tgid = current()->tgid;
	pt->sigq->info = (struct kernel_siginfo){ .signo = ev.sigev_signo,
						  .code = SI_TIMER,
						  .timer = { .tid = id, .value = ev.sigev_value } };
	flags = spin_lock_irqsave(&posix_timers_lock);
	list_add_tail(&pt->link, &current()->group_leader->posix_timers);
	spin_unlock_irqrestore(&posix_timers_lock, flags);
	return 0;
fail:
	kfree(pt->sigq);
	kfree(pt);
	return err;
}

/* ---- the setting ------------------------------------------------------------- */

/* Nanoseconds to the deadline (0: passed) and the period; both 0 while disarmed. */
static void
read_setting(struct posix_timer *pt, s64 cpu_now, struct kernel_itimerspec *out)
{
	u64 left;

	if (pt->on_cpu_clock) {
		bool armed = !list_empty(&pt->cpu_link);
		left = !armed				    ? 0
		       : pt->cpu_deadline_ns > (u64)cpu_now ? pt->cpu_deadline_ns - (u64)cpu_now
							    : 1;
	} else {
		left = timer_remaining(&pt->timer, rdtsc());
		left = left ? MAX(tsc_cycles_to_ns(left), 1ul) : 0;
	}
	/* An armed timer whose deadline just passed reads 1 ns, never "disarmed" (Linux's). */
	out->it_value = ns_to_timespec(left);
	out->it_interval = ns_to_timespec(left ? pt->interval_ns : 0);
}

/* A CPU-time timer's clock now, read with tasks_lock, or 0 for the other timers. */
static s64
cpu_clock_now(struct posix_timer *pt)
{
	return pt->on_cpu_clock ? cpu_clock_read_locked(&pt->cpu) : 0;
}

/* Arms (value != 0) or disarms pt; value is absolute on its clock if abs. Both locks held. */
static void
arm(struct posix_timer *pt, u64 value, u64 interval, bool abs, s64 cpu_now)
{
	pt->interval_ns = value ? interval : 0;
	signal_reset_overrun(current(), pt->sigq);
	if (pt->on_cpu_clock) {
		cpu_disarm(pt);
		if (value && cpu_now >= 0) {
			pt->cpu_deadline_ns = abs ? value : (u64)cpu_now + value;
			list_add_tail(&pt->cpu_link, &armed_cpu);
		}
		return;
	}
	if (!value) {
		timer_arm(&pt->timer, 0, 0);
		return;
	}
	if (abs) {
		u64 now = (u64)clock_read_ns(pt->clock);
		value = value > now ? value - now : 0;
	}
	u64 deadline = rdtsc() + tsc_ns_to_cycles(MIN(value, MAX_NS));
	u64 period = interval ? MAX(tsc_ns_to_cycles(MIN(interval, MAX_NS)), 1ul) : 0;
	timer_arm(&pt->timer, deadline, period);
}

SYSCALL4(timer_settime, int, id, int, flags, const struct kernel_itimerspec __user *, unew,
	 struct kernel_itimerspec __user *, uold)
{
	struct kernel_itimerspec new, old;
	u64 value, interval;

	if (!unew)
		return -EINVAL;
	if (copy_from_user(&new, unew, sizeof(new)))
		return -EFAULT;
	if (timespec_to_ns(&new.it_value, &value) || timespec_to_ns(&new.it_interval, &interval))
		return -EINVAL;
	u64 irq = spin_lock_irqsave(&tasks_lock); /* a CPU-time clock is read under it */
	spin_lock(&posix_timers_lock);
	struct posix_timer *pt = find_timer(id);
	if (pt) {
		s64 cpu_now = cpu_clock_now(pt);
		read_setting(pt, cpu_now, &old);
		arm(pt, value, interval, flags & TIMER_ABSTIME, cpu_now);
	}
	spin_unlock(&posix_timers_lock);
	spin_unlock_irqrestore(&tasks_lock, irq);
	if (!pt)
		return -EINVAL;
	return uold && copy_to_user(uold, &old, sizeof(old)) ? -EFAULT : 0;
}

SYSCALL2(timer_gettime, int, id, struct kernel_itimerspec __user *, ucur)
{
	struct kernel_itimerspec cur;
	u64 irq = spin_lock_irqsave(&tasks_lock);

	spin_lock(&posix_timers_lock);
	struct posix_timer *pt = find_timer(id);
	if (pt)
		read_setting(pt, cpu_clock_now(pt), &cur);
	spin_unlock(&posix_timers_lock);
	spin_unlock_irqrestore(&tasks_lock, irq);
	if (!pt)
		return -EINVAL;
	return copy_to_user(ucur, &cur, sizeof(cur)) ? -EFAULT : 0;
}

SYSCALL1(timer_getoverrun, int, id)
{
	u64 flags = spin_lock_irqsave(&posix_timers_lock);
	struct posix_timer *pt = find_timer(id);
	int overrun = pt ? signal_last_overrun(current(), pt->sigq) : -EINVAL;

	spin_unlock_irqrestore(&posix_timers_lock, flags);
	return overrun;
}

/* ---- deletion ---------------------------------------------------------------- */

/* Makes pt unreachable: off its process's list and off armed_cpu; posix_timers_lock held. */
static void
unlink_timer(struct posix_timer *pt)
{
	list_del(&pt->link);
	cpu_disarm(pt);
}

SYSCALL1(timer_delete, int, id)
{
	u64 flags = spin_lock_irqsave(&posix_timers_lock);
	struct posix_timer *pt = find_timer(id);

	if (pt)
		unlink_timer(pt);
	spin_unlock_irqrestore(&posix_timers_lock, flags);
	if (!pt)
		return -EINVAL;
	timer_destroy(current(), pt);
	return 0;
}

void
posix_timers_release(struct task *leader)
{
	struct list_head gone = LIST_HEAD_INIT(gone);
	u64 flags = spin_lock_irqsave(&posix_timers_lock);

	while (!list_empty(&leader->posix_timers)) {
		struct posix_timer *pt =
			list_first_entry(&leader->posix_timers, struct posix_timer, link);
		unlink_timer(pt);
		list_add_tail(&pt->link, &gone);
	}
	spin_unlock_irqrestore(&posix_timers_lock, flags);
	while (!list_empty(&gone)) {
		struct posix_timer *pt = list_first_entry(&gone, struct posix_timer, link);
		list_del(&pt->link);
		timer_destroy(leader, pt);
	}
}
