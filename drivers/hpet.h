/*
 * hpet.h - the High Precision Event Timer's main counter, as a clocksource.
 *
 * Only the free-running main counter is used (no comparators, no
 * interrupts): rewind's tick comes from the LAPIC timer.
 */
#ifndef REWIND_HPET_H
#define REWIND_HPET_H

#include "kernel/lib/types.h"

/* Maps and starts the HPET the ACPI tables name and registers it ("hpet"); false if none. */
bool hpet_init(void);

#endif
