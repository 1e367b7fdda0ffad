/*
 * stop_machine.c - park every other CPU, run one function; see stop_machine.h.
 *
 * Linux parks CPUs with a high-priority thread per CPU; rewind's kernel is
 * not preemptible, so an IPI does the same more simply: it lands only where
 * interrupts are on, in task or idle context, and the handler spins there
 * with interrupts off until released. The one place such a CPU could stand
 * that the caller may not like is the middle of an instruction sequence
 * the caller rewrites (a patched paravirt site): may_park vetoes those
 * instruction pointers, and that CPU gets another IPI a moment later, by
 * which time it has moved on.
 */
#include "kernel/x86/stop_machine.h"
#include "kernel/panic.h"
#include "kernel/x86/irq.h"
#include "kernel/x86/percpu.h"
#include "kernel/x86/smp.h"
#include "kernel/x86/traps.h"
#include "kernel/x86/paravirt.h"
#include "kernel/x86/x86.h"
#include "drivers/lapic.h"
#include "locking/spinlock.h"

enum stop_state { STOP_IDLE, STOP_PARKING, STOP_RELEASED };

static struct spinlock stop_lock = SPINLOCK_INIT("stop_machine");
static struct {
	int state;
	bool (*may_park)(u64 rip);
	u64 parked;   /* CPUs spinning in the handler */
	u64 declined; /* CPUs that were at a vetoed place: ask again */
} stop;

static void
send_stop_ipi(u64 mask)
{
	for (unsigned i = 0; i < MAX_CPUS; i++)
		if (mask & (1ul << i))
			lapic_send_ipi(cpus[i]->apic_id, VEC_IPI_STOP);
}

static void
ipi_stop(struct trap_frame *f)
{
	u64 me = 1ul << this_cpu()->id;

	if (READ_ONCE(stop.state) != STOP_PARKING)
		return; /* a late repeat of a stop that is over */
	if (!stop.may_park(f->rip)) {
		__atomic_or_fetch(&stop.declined, me, __ATOMIC_RELEASE);
		return;
	}
	__atomic_or_fetch(&stop.parked, me, __ATOMIC_RELEASE);
	while (READ_ONCE(stop.state) != STOP_RELEASED)
		cpu_relax();
	cpuid(0, 0);		     /* serializing: no stale prefetch of rewritten text survives */
	__native_flush_tlb_global(); /* nor a stale translation of a remapped page (vsyscall) */
	__atomic_and_fetch(&stop.parked, ~me, __ATOMIC_RELEASE);
}

void
stop_machine(void (*fn)(void *), void *arg, bool (*may_park)(u64 rip))
{
	BUG_ON(!irqs_enabled());
	spin_lock(&stop_lock);
	u64 others = cpus_online_mask() & ~(1ul << this_cpu()->id);

	stop.may_park = may_park;
	stop.parked = stop.declined = 0;
	__atomic_store_n(&stop.state, STOP_PARKING, __ATOMIC_RELEASE);
	send_stop_ipi(others);
	while (__atomic_load_n(&stop.parked, __ATOMIC_ACQUIRE) != others) {
		u64 again = __atomic_exchange_n(&stop.declined, 0, __ATOMIC_ACQ_REL);
		send_stop_ipi(again);
		cpu_relax();
	}
	u64 irq = local_irq_save();
	fn(arg);
	cpuid(0, 0);
	__atomic_store_n(&stop.state, STOP_RELEASED, __ATOMIC_RELEASE);
	while (__atomic_load_n(&stop.parked, __ATOMIC_ACQUIRE))
		cpu_relax();
	WRITE_ONCE(stop.state, STOP_IDLE);
	local_irq_restore(irq);
	spin_unlock(&stop_lock);
}

void
stop_machine_init(void)
{
	irq_register(VEC_IPI_STOP, ipi_stop, "ipi-stop");
}
