/*
 * random.h - random bytes for AT_RANDOM and getrandom(2).
 *
 * RDRAND where the CPU has it; otherwise a SplitMix64 stream seeded from the
 * TSC at boot and stirred with the TSC on every call. The fallback is not
 * cryptographic: rewind is a measurement kernel, and says so in the log.
 */
#ifndef REWIND_RANDOM_H
#define REWIND_RANDOM_H

#include "kernel/lib/types.h"

void random_init(void);
void get_random_bytes(void *buf, size_t n);

#endif
