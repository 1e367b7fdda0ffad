/*
 * random.h - random bytes for AT_RANDOM, getrandom(2) and /dev/urandom.
 *
 * RDRAND where the CPU has it; otherwise a SplitMix64 stream seeded from the
 * TSC at boot and stirred with the TSC on every call. The fallback is not
 * cryptographic: rewind is a measurement kernel, and says so in the log.
 *
 * Bytes written to /dev/random or added with RNDADDENTROPY are mixed into
 * the generator's state, and a key folded from it is XORed into every
 * RDRAND word, so what is added changes what comes out either way. The
 * entropy count is Linux 6.1's: full (RANDOM_POOL_BITS) once seeded, which
 * rewind is from boot; crediting saturates there and zapping is a no-op.
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
/* Mixes len bytes of user memory into the generator: len, or -EFAULT. */
long random_write_user(const void __user *buf, size_t len);
/* The ioctls of /dev/random and /dev/urandom (RNDGETENTCNT...), Linux 6.1's checks. */
long random_ioctl(unsigned cmd, unsigned long arg);
/* The entropy count in bits (/proc/sys/kernel/random/entropy_avail). */
int random_entropy_bits(void);

#endif
