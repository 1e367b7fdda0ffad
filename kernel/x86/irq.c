/*
 * irq.c - dispatching interrupt vectors to their handlers; see irq.h.
 *
 * The local APIC needs an EOI for every interrupt it delivered, except its
 * spurious vector; the 8259 range is masked, so anything arriving there is
 * a PIC spurious interrupt that must not be acknowledged at the LAPIC.
 *
 * Counts are per CPU and vector, 32-bit as Linux's (/proc/interrupts
 * prints them so): each CPU increments its own without an atomic, with
 * interrupts off; readers add them up.
 */
#include "kernel/x86/irq.h"
#include "kernel/x86/percpu.h"
#include "kernel/printk.h"
#include "kernel/x86/traps.h" /* VEC_NMI */
#include "drivers/lapic.h"

static struct {
	irq_handler_t handler;
	const char *name;
} vectors[256];
static u32 counts[MAX_CPUS][256];

void
irq_register(unsigned vector, irq_handler_t handler, const char *name)
{
	vectors[vector].name = name;
	WRITE_ONCE(vectors[vector].handler, handler);
}

u64
irq_count(unsigned vector)
{
	u64 sum = 0;

	for (unsigned cpu = 0; cpu < MAX_CPUS; cpu++)
		sum += READ_ONCE(counts[cpu][vector]);
	return sum;
}

u32
irq_count_on(unsigned cpu, unsigned vector)
{
	return READ_ONCE(counts[cpu][vector]);
}

void
irq_count_nmi(void)
{
	counts[this_cpu()->id][VEC_NMI]++;
}

static bool
needs_lapic_eoi(unsigned vector)
{
	return vector >= VEC_DEVICE_BASE && vector != VEC_SPURIOUS;
}

void
irq_dispatch(struct trap_frame *f)
{
	unsigned v = (unsigned)f->vector;
	irq_handler_t h = READ_ONCE(vectors[v].handler);

	struct cpu *c = this_cpu();

	c->irqs++;
	counts[c->id][v]++;
	if (h)
		h(f);
	else if (v >= VEC_DEVICE_BASE && v != VEC_SPURIOUS)
		pr_warn("irq: unexpected interrupt on vector %#x (cpu %u)\n", v, this_cpu()->id);
	if (needs_lapic_eoi(v))
		lapic_eoi();
}
