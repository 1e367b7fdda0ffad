/*
 * posix_timer.c - POSIX per-process timers: timer_create, timer_settime,
 * timer_gettime, timer_getoverrun and timer_delete, with Linux's ABI and
 * errnos.
 *
 * A process's timers hang off its leader, with ids counted up from 0 per
 * process and not reused until the count wraps (Linux's
 * next_posix_timer_id). A timer runs on one of two engines:
 *  - CLOCK_REALTIME, CLOCK_MONOTONIC, CLOCK_BOOTTIME, CLOCK_TAI: a one-shot
 *    kernel timer (timer.c, timer_arm_at) at the expiry;
 *  - the CPU-time clocks (CLOCK_PROCESS_CPUTIME_ID, CLOCK_THREAD_CPUTIME_ID
 *    and clock_getcpuclockid's ids): on the armed_cpu list, compared with
 *    the measured task's CPU time (cputime.c, exact) at every jiffy, by
 *    the tick's machine-wide duty (tick.c).
 * expiry_ns, on the timer's clock, is always the next expiry not yet
 * signalled. A SIGEV_NONE timer never goes on an engine: timer_gettime
 * computes what is left from expiry_ns (Linux's common_timer_get).
 *
 * An expiry sends the timer's one siginfo (SI_TIMER: si_timerid,
 * si_overrun, si_value), which the timer owns for its life. A periodic
 * timer is then off its engine until that signal is delivered (Linux's
 * "requeue on delivery", posixtimer_rearm): the delivery counts the
 * periods that passed meanwhile as the signal's si_overrun and arms the
 * next expiry. So a timer of 1 ns with its signal blocked fires once, not
 * at every interrupt, and costs nothing until its process takes the
 * signal. A signal that is ignored is not queued and would never be
 * delivered: such a timer re-arms itself at most once a tick (Linux's
 * posix_timer_fn), so that a handler installed later sees it.
 * timer_getoverrun reports the overrun of the last signal delivered.
 *
 * That siginfo is charged to the real user who created the timer against
 * RLIMIT_SIGPENDING from timer_create on, as Linux preallocates and
 * charges it: a user's timers and queued signals, in all its processes,
 * share one bound, at which timer_create fails EAGAIN. The charge goes
 * back at timer_delete or exit, or, if the signal is pending then, once it
 * is taken.
 *
 * Locking: posix_timers_lock guards every process's list and every timer's
 * setting (a machine-wide lock: processes have few timers).
 * Order: tasks_lock, posix_timers_lock, then the sighand lock a signal takes.
 * A kernel timer's expiry takes both (timer_cancel waits for it before a
 * timer is freed).
 */
#include "kernel/time/posix_timer.h"
#include "kernel/process/task.h"
#include "kernel/syscall/syscall.h"
#include "kernel/time/clock.h"
#include "kernel/time/timekeeping.h"
#include "kernel/time/tsc.h"
#include "kernel/x86/paravirt.h"
#include "mm/kmalloc.h"
#include "uapi/errno.h"

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
	bool active;	      /* set, and not a one-shot that has fired */
	u64 interval_ns;      /* 0: one-shot (and 0 while disarmed, as Linux reports it) */
	u64 expiry_ns;	      /* the next expiry not yet signalled, on its clock */
	bool requeue_pending; /* periodic, off its engine until its signal is delivered */
	s64 overrun;	      /* periods past expiry_ns's predecessor since the last delivery */
	int overrun_last;     /* timer_getoverrun */
	struct timer timer;
	struct cpu_clock cpu;	   /* CPU-time timers: the clock */
	struct list_head cpu_link; /* on armed_cpu while armed, else empty */
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

/* pt's clock now in ns: a CPU-time clock read with tasks_lock held (-1 once its task is gone). */
static s64
timer_clock_now(struct posix_timer *pt)
{
	return pt->on_cpu_clock ? cpu_clock_read_locked(&pt->cpu) : clock_read_ns(pt->clock);
}

/* Takes pt off armed_cpu; posix_timers_lock held. */
static void
cpu_disarm(struct posix_timer *pt)
{
	if (!list_empty(&pt->cpu_link))
		list_del(&pt->cpu_link);
}

/* Puts pt on its engine for expiry_ns; both locks held. */
static void
engine_arm(struct posix_timer *pt)
{
	if (!pt->on_cpu_clock)
		timer_arm_at(&pt->timer, pt->clock, pt->expiry_ns);
	else if (list_empty(&pt->cpu_link))
		list_add_tail(&pt->cpu_link, &armed_cpu);
}

static void
engine_disarm(struct posix_timer *pt)
{
	if (pt->on_cpu_clock)
		cpu_disarm(pt);
	else
		timer_arm(&pt->timer, 0, 0);
}

/* Moves a periodic pt's expiry past now, counting the expiries passed as overruns. */
static void
forward(struct posix_timer *pt, u64 now)
{
	if (now < pt->expiry_ns)
		return;
	u64 periods = (now - pt->expiry_ns) / pt->interval_ns + 1;
	pt->expiry_ns += periods * pt->interval_ns;
	pt->overrun = (s64)MIN((u64)pt->overrun + periods, (u64)__INT_MAX__);
}

/* Sends pt's signal: whether it is pending now (false: ignored, or its thread gone). */
static bool
fire(struct posix_timer *pt)
{
	struct task *t = task_find(pt->target);

	if (!t || t->tgid != pt->tgid) /* a SIGEV_THREAD_ID thread that exited gets nothing */
		return false;
	return signal_send_timer(t, pt->sigq, !(pt->notify & SIGEV_THREAD_ID));
}

/* pt's expiry_ns has come, its clock reads now, and it is off its engine; both locks held. */
static void
expire(struct posix_timer *pt, u64 now)
{
	bool queued = fire(pt);

	if (!pt->interval_ns) {
		pt->active = false;
		return;
	}
	pt->expiry_ns += pt->interval_ns; /* the one signalled is not an overrun */
	if (queued) {
		pt->requeue_pending = true; /* the delivery arms the next */
		return;
	}
	forward(pt, now + timekeeping_tick_ns());
	engine_arm(pt);
}

/*
 * A wall-clock timer's kernel timer: interrupts off, on whichever CPU's
 * tick saw it due. A call that timer_settime overtook (the timer disarmed
 * or armed again meanwhile) does nothing.
 */
static void
wall_timer_expired(struct timer *tm, u64 expiries)
{
	struct posix_timer *pt = container_of(tm, struct posix_timer, timer);
	u64 flags = spin_lock_irqsave(&tasks_lock);

	spin_lock(&posix_timers_lock);
	if (pt->active && !pt->requeue_pending && !timer_remaining(tm, rdtsc()))
		expire(pt, (u64)clock_read_ns(pt->clock));
	spin_unlock(&posix_timers_lock);
	spin_unlock_irqrestore(&tasks_lock, flags);
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
		if (now >= 0 && (u64)now < pt->expiry_ns)
			continue;
		cpu_disarm(pt);
		if (now >= 0) /* else the measured task is gone: its clock stopped for good */
			expire(pt, (u64)now);
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
 * The next free id of the caller's process, or -EAGAIN when every id is
 * taken. The counter moves on whether or not the timer is then created,
 * as Linux's does. posix_timers_lock held.
 */
static int
alloc_id(void)
{
	struct task *leader = current()->group_leader;
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

/*
 * A timer with its siginfo, which is charged to the caller's real user:
 * NULL when that user holds as many siginfos and timers as the caller's
 * RLIMIT_SIGPENDING allows, or out of memory.
 */
static struct posix_timer *
timer_alloc(void)
{
	struct posix_timer *pt = kzalloc(sizeof(*pt));

	if (!pt)
		return NULL;
	pt->sigq = signal_timer_sigqueue();
	if (!pt->sigq) {
		kfree(pt);
		return NULL;
	}
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
	signal_disown(current(), pt->sigq);
	kfree(pt);
	return err;
}

/* ---- the setting ------------------------------------------------------------- */

/*
 * Nanoseconds to the next expiry and the period; both 0 while disarmed. A
 * periodic timer waiting for its signal's delivery, or a SIGEV_NONE one,
 * is moved past now first. A timer whose expiry has passed reads 1 ns
 * while its signal is still to come, a SIGEV_NONE one-shot 0 (Linux's
 * common_timer_get). Both locks held.
 */
static void
read_setting(struct posix_timer *pt, struct kernel_itimerspec *out)
{
	s64 now = timer_clock_now(pt);
	u64 left = 0;

	*out = (struct kernel_itimerspec){ 0 };
	if (!pt->active || now < 0)
		return;
	bool none = pt->notify == SIGEV_NONE;
	if (pt->interval_ns && (pt->requeue_pending || none))
		forward(pt, (u64)now);
	if (pt->expiry_ns > (u64)now)
		left = pt->expiry_ns - (u64)now;
	else if (!none)
		left = 1;
	out->it_value = ns_to_timespec(left);
	out->it_interval = ns_to_timespec(pt->interval_ns);
}

/* Arms (value != 0) or disarms pt; value is absolute on its clock if abs. Both locks held. */
static void
arm(struct posix_timer *pt, u64 value, u64 interval, bool abs)
{
	s64 now = timer_clock_now(pt);

	engine_disarm(pt);
	pt->active = value && now >= 0;
	pt->interval_ns = pt->active ? interval : 0;
	pt->requeue_pending = false;
	pt->overrun = 0;
	pt->overrun_last = 0;
	if (!pt->active)
		return;
	pt->expiry_ns = abs ? value : (u64)now + MIN(value, ~(u64)now);
	if (pt->notify != SIGEV_NONE)
		engine_arm(pt);
}

void
posix_timer_delivered(struct kernel_siginfo *info)
{
	u64 flags = spin_lock_irqsave(&tasks_lock);

	spin_lock(&posix_timers_lock);
	struct posix_timer *pt = find_timer(info->timer.tid);
	if (pt && pt->requeue_pending) {
		pt->requeue_pending = false;
		s64 now = timer_clock_now(pt);
		if (now >= 0) {
			forward(pt, (u64)now);
			engine_arm(pt);
		}
		pt->overrun_last = (int)MIN(pt->overrun + info->timer.overrun, (s64)__INT_MAX__);
		pt->overrun = 0;
		info->timer.overrun = pt->overrun_last;
	}
	spin_unlock(&posix_timers_lock);
	spin_unlock_irqrestore(&tasks_lock, flags);
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
		read_setting(pt, &old);
		arm(pt, value, interval, flags & TIMER_ABSTIME);
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
		read_setting(pt, &cur);
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
	int overrun = pt ? pt->overrun_last : -EINVAL;

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
	pt->active = false; /* an expiry in progress does nothing */
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
