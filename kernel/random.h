/*
 * random.h - random bytes for AT_RANDOM, getrandom(2) and /dev/urandom.
 *
 * RDRAND where the CPU has it; otherwise a SplitMix64 stream seeded from the
 * TSC at boot and stirred with the TSC on every call. The fallback is not
 * cryptographic: rewind is a measurement kernel, and says so in the log.
 */
#ifndef REWIND_RANDOM_H
#define REWIND_RANDOM_H

#include "kernel/lib/types.h"
#include "mm/uaccess.h"

void random_init(void);
void get_random_bytes(void *buf, size_t n);
/*
 * len random bytes into user memory: how many (fewer when a signal came
 * after a page, as Linux's), or -EFAULT when none could be written.
 */
long random_read_user(void __user *buf, size_t len);

#endif
