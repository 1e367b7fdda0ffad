/*
 * fuzz_host.h - what a host fuzz target needs around the kernel code it
 * includes: a printk that prints nothing (the parsers report bad input
 * through it) and a panic that aborts, so that the fuzzer sees a panic as
 * the crash it is. Each tests/fuzz/fuzz_<name>.c includes this, then the
 * kernel .c file it fuzzes, and defines LLVMFuzzerTestOneInput.
 */
#ifndef REWIND_FUZZ_HOST_H
#define REWIND_FUZZ_HOST_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/lib/types.h"
#include "kernel/printk.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

void
vprintk(int level, const char *fmt, va_list ap)
{
}

void
printk(int level, const char *fmt, ...)
{
}

bool
ratelimit_allow(struct ratelimit *rl, unsigned *dropped)
{
	*dropped = 0;
	return true;
}

void panic(const char *fmt, ...) __attribute__((noreturn));
void
panic(const char *fmt, ...)
{
	abort();
}

/* An exactly-sized heap copy, so that ASan sees any read past the input. */
static inline uint8_t *
fuzz_copy(const uint8_t *data, size_t size)
{
	uint8_t *copy = malloc(size ? size : 1);

	memcpy(copy, data, size);
	return copy;
}

#endif
