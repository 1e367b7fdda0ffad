/*
 * irq.c - dispatching interrupt vectors to their handlers; see irq.h.
 *
 * The local APIC needs an EOI for every interrupt it delivered, except its
 * spurious vector; the 8259 range is masked, so anything arriving there is
 * a PIC spurious interrupt that must not be acknowledged at the LAPIC.
 */
#include "kernel/x86/irq.h"
#include "kernel/x86/percpu.h"
#include "kernel/printk.h"
#include "kernel/x86/traps.h"
#include "drivers/lapic.h"

static struct {
	irq_handler_t handler;
	const char *name;
	u64 count;
} vectors[256];

void
irq_register(unsigned vector, irq_handler_t handler, const char *name)
{
	vectors[vector].name = name;
	WRITE_ONCE(vectors[vector].handler, handler);
}

u64
irq_count(unsigned vector)
{
	return __atomic_load_n(&vectors[vector].count, __ATOMIC_RELAXED);
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

	this_cpu()->irqs++;
	__atomic_fetch_add(&vectors[v].count, 1, __ATOMIC_RELAXED);
	if (h)
		h(f);
	else if (v >= VEC_DEVICE_BASE && v != VEC_SPURIOUS)
		pr_warn("irq: unexpected interrupt on vector %#x (cpu %u)\n", v, this_cpu()->id);
	if (needs_lapic_eoi(v))
		lapic_eoi();
}
