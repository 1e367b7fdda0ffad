/*
 * itimer.c - the interval timers of a process: setitimer and getitimer
 * with ITIMER_REAL, and alarm, which is the same timer in whole seconds;
 * and the CPU-time timers ITIMER_VIRTUAL and ITIMER_PROF.
 *
 * ITIMER_REAL: At the deadline the process gets SIGALRM (si_code SI_KERNEL, as
 * from Linux), and again every interval if one is set. A kernel timer
 * (kernel/time/timer.c) in the group leader does the work.
 *
 * The timer is armed once at a time: an interval starts again when SIGALRM
 * is taken (itimer_signal_taken, from dequeue_signal, as Linux's), the
 * periods missed meanwhile skipped. So a 1 us interval costs at most one
 * expiry per delivered signal, and none while SIGALRM stays pending
 * (blocked): no interrupt storm. An ignored SIGALRM is never queued; then
 * the timer re-arms itself, at most once a tick, while the process lives.
 * Meanwhile getitimer reads 0 left, the interval as set (Linux's
 * itimer_get_remtime).
 *
 * ITIMER_VIRTUAL counts the process's user time down, ITIMER_PROF its user
 * and system time, at the tick (itimer_cpu_tick, from cputime_tick: a
 * whole tick charged to the task it interrupted, Linux 3.0's way), so
 * their resolution is the tick. At zero the process gets SIGVTALRM or
 * SIGPROF and the timer reloads its interval. A tick costs one load per
 * timer when neither is armed.
 */
#include "kernel/time/itimer.h"
#include "uapi/time.h"
#include "uapi/errno.h"
#include "kernel/x86/paravirt.h"
#include "kernel/signal/signal_internal.h"
#include "kernel/syscall/syscall.h"
#include "kernel/time/tsc.h"
#include "kernel/time/time64.h"
#include "kernel/time/timekeeping.h"
#include "kernel/lib/string.h"

#define MAX_NS (1ul << 62) /* far enough: no overflow in TSC cycles */

/*
 * Arms the first deadline of the interval after not_before, on the grid of
 * the last one - unless setitimer armed the timer meanwhile.
 */
static void
rearm(struct task *leader, u64 now, u64 not_before)
{
	struct timer *tm = &leader->real_timer;
	u64 interval = MAX(tsc_ns_to_cycles(leader->real_interval_ns), 1ul);
	u64 next = tm->deadline + interval;

	if (timer_remaining(tm, now))
		return;
	if (next <= not_before)
		next += ((not_before - next) / interval + 1) * interval;
	timer_arm(tm, MAX(next, now + 1), 0);
}

/*
 * Whether an expiry must arm the next period itself: an interval is set,
 * the process lives on, and SIGALRM was not queued (ignored), so no
 * dequeue_signal will. tasks_lock and the sighand lock held: setitimer and
 * dequeue_signal decide under the latter too.
 */
static bool
rearms_itself(struct task *leader)
{
	return leader->real_interval_ns && !leader->group_exiting && leader->live_threads &&
	       !(leader->sig_shared.set & sigmask(SIGALRM));
}

/* Timer context: interrupts off, on whichever CPU's tick saw the deadline. */
static void
itimer_expired(struct timer *tm, u64 expiries)
{
	struct task *leader = container_of(tm, struct task, real_timer);
	struct kernel_siginfo info = { .signo = SIGALRM, .code = SI_KERNEL };
	u64 flags = spin_lock_irqsave(&tasks_lock);

	(void)expiries; /* armed once at a time: always 1 */
	signal_send_process(leader, &info);
	u64 sighand_flags = sighand_lock(leader);
	if (rearms_itself(leader)) {
		u64 now = rdtsc();
		rearm(leader, now, now + tsc_ns_to_cycles(timekeeping_tick_ns()));
	}
	sighand_unlock(leader, sighand_flags);
	spin_unlock_irqrestore(&tasks_lock, flags);
}

void
itimer_signal_taken(struct task *leader)
{
	u64 now = rdtsc();

	if (leader->real_interval_ns)
		rearm(leader, now, now);
}

void
itimer_init(struct task *leader)
{
	timer_init(&leader->real_timer, itimer_expired);
	leader->real_interval_ns = 0;
	memset(leader->cpu_itimers, 0, sizeof(leader->cpu_itimers));
}

static const int cpu_itimer_signal[] = { [ITIMER_VIRTUAL - 1] = SIGVTALRM,
					 [ITIMER_PROF - 1] = SIGPROF };

void
itimer_cpu_tick(struct task *t, bool user, u64 ns)
{
	struct task *leader = t->group_leader;

	if (!leader || !t->sighand)
		return; /* a kernel thread */
	/*
	 * A thread that has left its group (task_exit, leave_thread_group)
	 * still ticks until its last switch, but its leader may have been
	 * reaped and freed meanwhile: only a member, checked under
	 * tasks_lock, which the reaping takes, may touch the leader. The
	 * unlocked look first keeps the lock off the tick of a process with
	 * no CPU timer.
	 */
	if (list_empty(&t->thread_link) || (!READ_ONCE(leader->cpu_itimers[0].left_ns) &&
					    !READ_ONCE(leader->cpu_itimers[1].left_ns)))
		return;
	u64 flags = spin_lock_irqsave(&tasks_lock); /* threads on other CPUs count down too */
	if (list_empty(&t->thread_link)) {
		spin_unlock_irqrestore(&tasks_lock, flags);
		return;
	}
	for (int i = user ? ITIMER_VIRTUAL - 1 : ITIMER_PROF - 1; i < 2; i++) {
		struct cpu_itimer *it = &leader->cpu_itimers[i];
		if (!it->left_ns)
			continue;
		if (it->left_ns > ns) {
			it->left_ns -= ns;
			continue;
		}
		WRITE_ONCE(it->left_ns, it->interval_ns);
		struct kernel_siginfo info = { .signo = cpu_itimer_signal[i], .code = SI_KERNEL };
		signal_send_process(leader, &info);
	}
	spin_unlock_irqrestore(&tasks_lock, flags);
}

void
itimer_release(struct task *leader)
{
	timer_cancel(&leader->real_timer);
}

void
itimer_handoff(struct task *from, struct task *to)
{
	u64 now = rdtsc();
	u64 left = timer_remaining(&from->real_timer, now);

	timer_cancel(&from->real_timer); /* waits for an expiry in progress: from may go after */
	itimer_init(to);
	to->real_interval_ns = from->real_interval_ns;
	memcpy(to->cpu_itimers, from->cpu_itimers, sizeof(to->cpu_itimers));
	to->real_timer.deadline = from->real_timer.deadline; /* the grid of the next interval */
	if (left)
		timer_arm(&to->real_timer, now + left, 0);
}

static bool
timeval_valid(const struct kernel_timeval *tv)
{
	return tv->tv_sec >= 0 && tv->tv_usec >= 0 && tv->tv_usec < USEC_PER_SEC;
}

static u64
timeval_to_ns(const struct kernel_timeval *tv)
{
	if ((u64)tv->tv_sec >= MAX_NS / 1000000000ul)
		return MAX_NS;
	return (u64)tv->tv_sec * 1000000000ul + (u64)tv->tv_usec * NSEC_PER_USEC;
}

/* Rounded up, so that a timer still armed never reads as 0. */
static struct kernel_timeval
ns_to_timeval(u64 ns)
{
	u64 us = (ns + NSEC_PER_USEC - 1) / NSEC_PER_USEC;

	return (struct kernel_timeval){ (s64)(us / USEC_PER_SEC), (s64)(us % USEC_PER_SEC) };
}

/* Reports ITIMER_REAL's setting in old and, if new is not NULL, replaces it. */
static void
real_swap(const struct kernel_itimerval *new, struct kernel_itimerval *old)
{
	struct task *t = current(), *leader = t->group_leader;
	struct timer *tm = &leader->real_timer;
	u64 flags = sighand_lock(t); /* one setter at a time in the process */
	u64 now = rdtsc();
	u64 left = timer_remaining(tm, now);

	old->it_value = ns_to_timeval(left ? tsc_cycles_to_ns(left) : 0);
	old->it_interval = ns_to_timeval(leader->real_interval_ns);
	if (new) {
		u64 value = timeval_to_ns(&new->it_value),
		    interval = timeval_to_ns(&new->it_interval);
		WRITE_ONCE(leader->real_interval_ns, value ? interval : 0);
		timer_arm(tm, value ? now + tsc_ns_to_cycles(value) : 0, 0);
	}
	sighand_unlock(t, flags);
}

/* The same for ITIMER_VIRTUAL or ITIMER_PROF. */
static void
cpu_swap(int which, const struct kernel_itimerval *new, struct kernel_itimerval *old)
{
	struct cpu_itimer *it = &current()->group_leader->cpu_itimers[which - 1];
	u64 flags = spin_lock_irqsave(&tasks_lock); /* the tick's lock */

	old->it_value = ns_to_timeval(it->left_ns);
	old->it_interval = ns_to_timeval(it->interval_ns);
	if (new) {
		u64 value = timeval_to_ns(&new->it_value);
		it->interval_ns = value ? timeval_to_ns(&new->it_interval) : 0;
		/* A tick more, as Linux's: the tick in progress may be charged whole. */
		WRITE_ONCE(it->left_ns, value ? value + timekeeping_tick_ns() : 0);
	}
	spin_unlock_irqrestore(&tasks_lock, flags);
}

/* Reports timer which's setting in old and, if new is not NULL, replaces it; -EINVAL: no such timer. */
static int
itimer_swap(int which, const struct kernel_itimerval *new, struct kernel_itimerval *old)
{
	switch (which) {
	case ITIMER_REAL:
		real_swap(new, old);
		return 0;
	case ITIMER_VIRTUAL:
	case ITIMER_PROF:
		cpu_swap(which, new, old);
		return 0;
	default:
		return -EINVAL;
	}
}

SYSCALL2(getitimer, int, which, struct kernel_itimerval __user *, uval)
{
	struct kernel_itimerval old;
	int err = itimer_swap(which, NULL, &old);

	if (err)
		return err;
	return copy_to_user(uval, &old, sizeof(old)) ? -EFAULT : 0;
}

/* A NULL new value disarms, as Linux allows for old programs. */
SYSCALL3(setitimer, int, which, const struct kernel_itimerval __user *, unew,
	 struct kernel_itimerval __user *, uold)
{
	struct kernel_itimerval new = { 0 }, old;

	if (unew && copy_from_user(&new, unew, sizeof(new)))
		return -EFAULT;
	if (!timeval_valid(&new.it_value) || !timeval_valid(&new.it_interval))
		return -EINVAL;
	int err = itimer_swap(which, &new, &old);
	if (err)
		return err;
	if (uold && copy_to_user(uold, &old, sizeof(old)))
		return -EFAULT;
	return 0;
}

/* The seconds that were left, rounded to the nearest (0 only if none were), as Linux. */
SYSCALL1(alarm, unsigned, seconds)
{
	struct kernel_itimerval new = { .it_value.tv_sec = seconds }, old;

	real_swap(&new, &old);
	s64 left = old.it_value.tv_sec;
	if ((!left && old.it_value.tv_usec) || old.it_value.tv_usec >= USEC_PER_SEC / 2)
		left++;
	return left;
}
