/*
 * vsprintf.h - formatted output into a bounded buffer (printk's formatter).
 *
 * Supports %d %i %u %x %X %o %c %s %p %% with the flags '-', '0', '#', a width,
 * a precision (also '*' and '.*'), and the length modifiers h hh l ll z t.
 * ksnprintf returns the length the full output would have had, like C's
 * snprintf; kscnprintf returns what it wrote (without the NUL, 0 when size
 * is 0), so that `n += kscnprintf(buf + n, size - n, ...)` never passes
 * the end, however much is cut. The buffer always ends with NUL when
 * size > 0.
 */
#ifndef REWIND_VSPRINTF_H
#define REWIND_VSPRINTF_H

#include "kernel/lib/types.h"

int kvsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int ksnprintf(char *buf, size_t size, const char *fmt, ...) __printf(3, 4);
int kvscnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int kscnprintf(char *buf, size_t size, const char *fmt, ...) __printf(3, 4);

#endif
