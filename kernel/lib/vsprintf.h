/*
 * vsprintf.h - formatted output into a bounded buffer (printk's formatter).
 *
 * Supports %d %i %u %x %X %o %c %s %p %% with the flags '-', '0', '#', a width,
 * a precision (also '*' and '.*'), and the length modifiers h hh l ll z t.
 * Returns the length the full output would have had, like C's snprintf;
 * the buffer always ends with NUL when size > 0.
 */
#ifndef REWIND_VSPRINTF_H
#define REWIND_VSPRINTF_H

#include "kernel/lib/types.h"

int kvsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int ksnprintf(char *buf, size_t size, const char *fmt, ...) __printf(3, 4);

#endif
