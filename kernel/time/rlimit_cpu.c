/*
 * rlimit_cpu.c - RLIMIT_CPU: what a process gets for using more CPU time
 * (user and system, all its threads, those that exited too) than its
 * limit, checked at the tick as Linux's check_process_timers does:
 *   at or past the hard limit   SIGKILL;
 *   at or past the soft limit   SIGXCPU, and the soft limit goes up by a
 *                               second, so another follows each second
 *                               used until the hard limit kills.
 * Both are sent as from the kernel (SI_KERNEL). The soft limit is read
 * afresh at every tick, so a setrlimit below the time used acts at the
 * next one; a process without a limit (RLIM_INFINITY, the default) pays
 * one load per tick. The time is the one getrusage reports
 * (cputime_read_process, kernel/time/cputime.h).
 */
#include "kernel/time/rlimit_cpu.h"
#include "kernel/process/task.h"
#include "kernel/signal/signal.h"
#include "kernel/time/cputime.h"
#include "kernel/time/time64.h"
#include "uapi/resource.h"

/* The process's CPU time in whole seconds; tasks_lock held. */
static u64
process_cpu_seconds(struct task *t)
{
	struct cputime c = cputime_read_process_locked(t);

	return cputime_ns(c.user + c.sys) / NSEC_PER_SEC;
}

static void
send_limit_signal(struct task *leader, int signo)
{
	struct kernel_siginfo info = { .signo = signo, .code = SI_KERNEL };

	signal_send_process(leader, &info);
}

void
rlimit_cpu_tick(struct task *t)
{
	struct task *leader = t->group_leader;

	/* Only a member of its group may touch the leader (see itimer_cpu_tick). */
	if (!leader || !t->sighand || list_empty(&t->thread_link) ||
	    READ_ONCE(leader->rlim[RLIMIT_CPU].rlim_cur) == RLIM_INFINITY)
		return;
	u64 flags = spin_lock_irqsave(&tasks_lock);
	if (!list_empty(&t->thread_link)) {
		struct kernel_rlimit *lim = &leader->rlim[RLIMIT_CPU];
		u64 used = process_cpu_seconds(t);
		if (lim->rlim_max != RLIM_INFINITY && used >= lim->rlim_max) {
			send_limit_signal(leader, SIGKILL);
		} else if (lim->rlim_cur != RLIM_INFINITY && used >= lim->rlim_cur) {
			send_limit_signal(leader, SIGXCPU);
			WRITE_ONCE(lim->rlim_cur, lim->rlim_cur + 1);
		}
	}
	spin_unlock_irqrestore(&tasks_lock, flags);
}
