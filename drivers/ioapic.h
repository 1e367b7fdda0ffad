/*
 * ioapic.h - the I/O APIC, which routes device interrupt lines to CPUs.
 *
 * Until the ACPI MADT is parsed (SMP milestone) the one IOAPIC is taken at
 * its standard address 0xfec00000 with identity ISA routing; it is checked
 * by reading its version register, and every pin starts masked.
 */
#ifndef REWIND_IOAPIC_H
#define REWIND_IOAPIC_H

#include "kernel/lib/types.h"

void ioapic_init(void);
/* Routes an ISA IRQ line (edge, active high) to vector VEC_DEVICE_BASE + irq on a CPU. */
int ioapic_route_isa_irq(unsigned irq, u32 apic_id);
void ioapic_mask(unsigned pin);

#endif
