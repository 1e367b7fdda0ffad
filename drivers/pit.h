/*
 * pit.h - the 8254 programmable interval timer, used only to time short
 * calibration windows (channel 2, gated through port 0x61, so no interrupt
 * is involved); the BIOS's tick on channel 0 is stopped.
 */
#ifndef REWIND_PIT_H
#define REWIND_PIT_H

#include "kernel/lib/types.h"

#define PIT_HZ 1193182

/* Starts a one-shot count of `us` microseconds (at most 54 ms). */
void pit_oneshot_start(u32 us);
/* Spins until it has run out. */
void pit_oneshot_wait(void);
/* Stops channel 0's periodic count (the BIOS's 18.2 Hz tick), which nothing here uses. */
void pit_stop_channel0(void);

#endif
