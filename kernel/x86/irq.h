/*
 * irq.h - interrupt vectors and handler registration.
 *
 * Vector map:
 *   0x00-0x1f  CPU exceptions (kernel/x86/traps.c)
 *   0x20-0x2f  the legacy 8259 PICs, remapped and fully masked: only spurious
 *   0x30-0xef  device interrupts routed through the IOAPIC (ISA IRQ n -> 0x30 + n)
 *   0xf0-0xfd  the local APIC timer, inter-processor interrupts, a self-test's vector
 *   0xfe       local APIC error, 0xff local APIC spurious
 */
#ifndef REWIND_IRQ_H
#define REWIND_IRQ_H

#include "kernel/lib/types.h"

struct trap_frame;

#define VEC_PIC_BASE	   0x20
#define VEC_DEVICE_BASE	   0x30
#define VEC_LAPIC_TIMER	   0xf0
#define VEC_IPI_RESCHEDULE 0xf1
#define VEC_IPI_CALL	   0xf2
#define VEC_IPI_STOP	   0xf4
#define VEC_LAPIC_ERROR	   0xfe
#define VEC_SPURIOUS	   0xff

typedef void (*irq_handler_t)(struct trap_frame *f);

/* Installs the handler for a vector; the dispatcher sends the LAPIC EOI afterwards. */
void irq_register(unsigned vector, irq_handler_t handler, const char *name);
void irq_dispatch(struct trap_frame *f);
/* Interrupts taken on vector, by every CPU; by one CPU (/proc/interrupts). */
u64 irq_count(unsigned vector);
u32 irq_count_on(unsigned cpu, unsigned vector);
/* The NMI handler counts its NMI on this CPU, as vector VEC_NMI's (traps.h). */
void irq_count_nmi(void);

#endif
