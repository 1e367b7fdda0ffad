/*
 * lapic.h - the local APIC: this CPU's interrupt controller and timer.
 *
 * x2APIC (MSR access) is used when the CPU has it, unless `nox2apic`;
 * otherwise xAPIC (MMIO). The timer is calibrated against the TSC and
 * ticks at `hz` (kernel/time/tick.c), except on an idle CPU that stopped
 * its tick.
 */
#ifndef REWIND_LAPIC_H
#define REWIND_LAPIC_H

#include "kernel/lib/types.h"

extern int hz; /* the timer-tick knob */

void lapic_init(void);	      /* this CPU: enable, mask LVTs, error/spurious vectors */
void lapic_timer_start(void); /* calibrate (once) and start the periodic tick on this CPU */
void lapic_eoi(void);
u32 lapic_id(void);
void lapic_send_ipi(u32 apic_id, u8 vector);
/* The INIT and STARTUP messages that wake an application processor (MP spec). */
void lapic_send_init(u32 apic_id);
void lapic_send_startup(u32 apic_id, u8 page);
/* A fixed-vector interrupt to this CPU alone (the self shorthand; safe from NMI context). */
void lapic_send_self_ipi(u8 vector);
/*
 * The timer as an NMI source, for the sampling profiler (kernel/profile.c):
 * this CPU's timer fires `rate` times a second with NMI delivery, so it
 * interrupts code running with interrupts off too. The tick then comes from
 * lapic_timer_nmi_tick(), which the NMI handler calls every time: it passes
 * hz of every `rate` NMIs on as a self-IPI on the timer vector, taken when
 * interrupts are next on, as a timer interrupt would have been. rate must
 * be at least hz; 0 gives the timer back to the tick. Interrupts off.
 */
void lapic_timer_nmi_mode(u32 rate);
void lapic_timer_nmi_tick(void);
/* Whether the timer runs one-shot (highres, not the profiler's): a tick it may stop. */
bool lapic_timer_one_shot(void);
/*
 * This CPU's next tick, or a tickless CPU's keep-alive (kernel/time/tick.c),
 * at next_tick (TSC): the timer counts to it or to the next sleeper's or
 * kernel timer's deadline, whichever is first. One-shot mode, interrupts off.
 */
void lapic_timer_next_tick(u64 next_tick);
/* NMI to every other CPU (panic); does nothing before lapic_init. */
void lapic_stop_other_cpus(void);

#endif
