/*
 * membarrier.c - the membarrier system call, as Linux's
 * kernel/sched/membarrier.c behaves: a thread orders its memory accesses
 * against those of other threads without their taking a barrier on every
 * access themselves (userspace RCU, liburcu, uses it so).
 *
 * MEMBARRIER_CMD_GLOBAL waits for a grace period: every other online CPU
 * has switched tasks, been idle, or taken an interrupt (each a full barrier
 * on x86) since the call began. The expedited commands interrupt the CPUs
 * that may be running a thread concerned and wait until each has run the
 * interrupt, whose entry and return are full barriers and serialize the
 * core (so SYNC_CORE needs nothing more): the private ones target the CPUs
 * that have the caller's address space loaded (mm->cpumask, a superset of
 * those running its threads), and need the process registered first
 * (EPERM); GLOBAL_EXPEDITED targets every CPU running a task, a superset of
 * those running registered processes (another CPU's mm may be freed under
 * us, so it is not read). Registrations live in the mm: a fork copies
 * them, an exec starts without. rewind has no rseq, so the RSEQ commands
 * are EINVAL and QUERY does not list them, as Linux without CONFIG_RSEQ.
 */
#include "kernel/process/task.h"
#include "kernel/sched/sched.h"
#include "kernel/syscall/syscall.h"
#include "kernel/x86/percpu.h"
#include "kernel/x86/smp.h"
#include "mm/vm.h"
#include "uapi/errno.h"
#include "uapi/membarrier.h"

/* What a registration has made ready, in mm->membarrier_state (Linux's MEMBARRIER_STATE_*). */
#define STATE_PRIVATE_EXPEDITED		  (1u << 1)
#define STATE_GLOBAL_EXPEDITED		  (1u << 3)
#define STATE_PRIVATE_EXPEDITED_SYNC_CORE (1u << 5)

#define SUPPORTED_COMMANDS                                                                        \
	(MEMBARRIER_CMD_GLOBAL | MEMBARRIER_CMD_GLOBAL_EXPEDITED |                                \
	 MEMBARRIER_CMD_REGISTER_GLOBAL_EXPEDITED | MEMBARRIER_CMD_PRIVATE_EXPEDITED |            \
	 MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED | MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE | \
	 MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_SYNC_CORE)

static u32
registrations(void)
{
	return __atomic_load_n(&current()->mm->membarrier_state, __ATOMIC_ACQUIRE);
}

static void
full_barrier(void *unused)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

/* Interrupts the CPUs in mask (this one aside) and waits until each has run the barrier. */
static void
barrier_on(u64 mask)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST); /* the caller's accesses before theirs */
	smp_call_mask(mask, full_barrier, NULL);
	__atomic_thread_fence(__ATOMIC_SEQ_CST); /* theirs before the caller's next ones */
}

/* Whether cpu has passed a barrier since it showed switches and ticks: switched, idled, ticked. */
static bool
cpu_quiescent(unsigned cpu, u64 switches, u64 ticks)
{
	struct cpu *c = cpus[cpu];

	return sched_cpu_switches(cpu) != switches || READ_ONCE(c->ticks) != ticks ||
	       READ_ONCE(c->current) == c->idle;
}

/* MEMBARRIER_CMD_GLOBAL: waits until every other online CPU has passed a barrier. */
static void
wait_grace_period(void)
{
	u64 switches[MAX_CPUS], ticks[MAX_CPUS];
	u64 waiting = cpus_online_mask() & ~(1ul << this_cpu()->id);

	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	for (unsigned i = 0; i < MAX_CPUS; i++) {
		if (waiting & (1ul << i)) {
			switches[i] = sched_cpu_switches(i);
			ticks[i] = READ_ONCE(cpus[i]->ticks);
		}
	}
	while (waiting) {
		for (unsigned i = 0; i < MAX_CPUS; i++)
			if ((waiting & (1ul << i)) && cpu_quiescent(i, switches[i], ticks[i]))
				waiting &= ~(1ul << i);
		if (waiting)
			sleep_ns(1000000);
	}
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

/* The online CPUs running a task now, the idle ones aside. */
static u64
busy_cpus(void)
{
	u64 mask = 0, online = cpus_online_mask();

	for (unsigned i = 0; i < MAX_CPUS; i++)
		if ((online & (1ul << i)) && READ_ONCE(cpus[i]->current) != cpus[i]->idle)
			mask |= 1ul << i;
	return mask;
}

static long
private_expedited(u32 ready)
{
	struct mm *mm = current()->mm;

	if (!(registrations() & ready))
		return -EPERM;
	barrier_on(__atomic_load_n(&mm->cpumask, __ATOMIC_ACQUIRE));
	return 0;
}

/*
 * Registers the caller's process for the commands ready says. Linux
 * then makes every CPU running one of its threads see the registration;
 * here the expedited commands read the mm itself, so there is nothing to
 * tell them.
 */
static long
register_state(u32 ready)
{
	__atomic_or_fetch(&current()->mm->membarrier_state, ready, __ATOMIC_SEQ_CST);
	return 0;
}

SYSCALL3(membarrier, int, cmd, unsigned, flags, int, cpu_id)
{
	if (cmd == MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ ? flags & ~MEMBARRIER_CMD_FLAG_CPU : flags)
		return -EINVAL;
	switch (cmd) {
	case MEMBARRIER_CMD_QUERY:
		return SUPPORTED_COMMANDS;
	case MEMBARRIER_CMD_GLOBAL:
		wait_grace_period();
		return 0;
	case MEMBARRIER_CMD_GLOBAL_EXPEDITED:
		barrier_on(busy_cpus());
		return 0;
	case MEMBARRIER_CMD_REGISTER_GLOBAL_EXPEDITED:
		return register_state(STATE_GLOBAL_EXPEDITED);
	case MEMBARRIER_CMD_PRIVATE_EXPEDITED:
		return private_expedited(STATE_PRIVATE_EXPEDITED);
	case MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED:
		return register_state(STATE_PRIVATE_EXPEDITED);
	case MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE:
		return private_expedited(STATE_PRIVATE_EXPEDITED_SYNC_CORE);
	case MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_SYNC_CORE:
		return register_state(STATE_PRIVATE_EXPEDITED_SYNC_CORE);
	default: /* the RSEQ commands among them: rewind has no rseq */
		return -EINVAL;
	}
}
