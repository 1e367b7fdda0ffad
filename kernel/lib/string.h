/*
 * string.h - the memory and string functions the kernel uses.
 *
 * The kernel is built -ffreestanding, so it brings its own; host unit tests
 * use the C library's instead (same names, same meaning).
 */
#ifndef REWIND_STRING_H
#define REWIND_STRING_H

#ifdef HOSTED
#include <string.h>
#else
#include "kernel/lib/types.h"

void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t max);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strchr(const char *s, int c);
char *strstr(const char *haystack, const char *needle);
#endif

#endif
