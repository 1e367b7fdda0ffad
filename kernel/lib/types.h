/*
 * types.h - fixed-width integers and the few compiler helpers every file uses.
 *
 * Written so that the same header serves the freestanding kernel build and
 * the host unit tests (tests/unit), which compile kernel logic unchanged.
 */
#ifndef REWIND_TYPES_H
#define REWIND_TYPES_H

#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdarg.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;
typedef u64 phys_addr_t;
typedef long ssize_t_k;

#define ARRAY_SIZE(a)	 (sizeof(a) / sizeof((a)[0]))
#define ALIGN_UP(x, a)	 (((x) + ((a)-1)) & ~((__typeof__(x))(a)-1))
#define ALIGN_DOWN(x, a) ((x) & ~((__typeof__(x))(a)-1))
#define IS_ALIGNED(x, a) (((x) & ((__typeof__(x))(a)-1)) == 0)
#define MIN(a, b)	 ((a) < (b) ? (a) : (b))
#define MAX(a, b)	 ((a) > (b) ? (a) : (b))

#define __packed       __attribute__((packed))
#define __aligned(n)   __attribute__((aligned(n)))
#define __section(s)   __attribute__((section(s)))
#define __used	       __attribute__((used))
#define __noreturn     __attribute__((noreturn))
#define __printf(a, b) __attribute__((format(printf, a, b)))
#define likely(x)      __builtin_expect(!!(x), 1)
#define unlikely(x)    __builtin_expect(!!(x), 0)

/* Single, untorn accesses to data another CPU may change concurrently. */
#define READ_ONCE(x)	 (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))
#define barrier()	 __asm__ __volatile__("" ::: "memory")

#define container_of(ptr, type, member) ((type *)((char *)(ptr)-offsetof(type, member)))

#define BUILD_BUG_ON(cond) _Static_assert(!(cond), #cond)

/* A macro's value as a string literal: __stringify(SPIN_WARN_SECONDS) is "5". */
#define __stringify_1(x) #x
#define __stringify(x)	 __stringify_1(x)

#endif
