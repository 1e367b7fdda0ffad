/*
 * uaccess.h - the only way the kernel touches user memory.
 *
 * Every routine checks that the range lies in user space, and every
 * instruction that reads or writes user memory is in the exception table:
 * a bad pointer gives -EFAULT, never a kernel fault. A fault on a valid but
 * not-yet-present user page is first offered to the page-fault handler
 * (demand paging, copy-on-write), then retried. With SMAP, user memory is
 * opened (stac) only inside these routines.
 *
 * The page cache's write loop (fs/filemap.c) copies with the two partial
 * copies below, chosen by the copy_nocache knob: the non-temporal copy
 * regression of Linux 2.6.29 (docs/seeds.md, seed 004; docs/regressions/nocache.md).
 */
#ifndef REWIND_UACCESS_H
#define REWIND_UACCESS_H

#include "kernel/lib/types.h"
#include "mm/layout.h"
#include "uapi/errno.h"
#include "mm/extable.h"

#define __user

static inline bool
access_ok(const void __user *addr, size_t n)
{
	u64 a = (u64)(uintptr_t)addr;
	return n <= USER_TOP && a <= USER_TOP - n;
}

/* 0, or -EFAULT if any byte could not be copied. */
int copy_from_user(void *dst, const void __user *src, size_t n);
int copy_to_user(void __user *dst, const void *src, size_t n);
/*
 * Linux's copy_struct_from_user, for a structure that grows by versions
 * (openat2's open_how, sched_setattr's sched_attr): the caller's usize bytes
 * fill the kernel's ksize ones, a shorter structure leaves the rest zero,
 * and a longer one must be zero past ksize: -E2BIG otherwise, -EFAULT for a
 * bad address.
 */
static inline int
copy_struct_from_user(void *dst, size_t ksize, const void __user *src, size_t usize)
{
	__builtin_memset(dst, 0, ksize);
	if (copy_from_user(dst, src, MIN(usize, ksize)))
		return -EFAULT;
	for (size_t off = ksize; off < usize; off++) {
		u8 byte;
		if (copy_from_user(&byte, (const u8 __user *)src + off, 1))
			return -EFAULT;
		if (byte)
			return -E2BIG;
	}
	return 0;
}

/*
 * Copies up to n bytes and returns how many were NOT copied (0: all), as
 * Linux's __copy_from_user_inatomic: a fault stops the copy at the exact
 * byte, and what came before it is in dst. n when src is not user space.
 */
size_t copy_from_user_partial(void *dst, const void __user *src, size_t n);
/*
 * The same with non-temporal stores (movnti + sfence): dst's lines are
 * written around the caches and evicted from them, as Linux's
 * __copy_from_user_inatomic_nocache before 2.6.29's fix.
 */
size_t copy_from_user_nocache(void *dst, const void __user *src, size_t n);
/*
 * The two copies without the range check, for callers that have made it
 * (and for kbench=copy, which times them between kernel buffers): the bytes
 * not copied.
 */
size_t copy_user_raw(void *dst, const void *src, size_t n);
size_t copy_user_nocache_raw(void *dst, const void *src, size_t n);
int clear_user(void __user *dst, size_t n);
/*
 * Copies a NUL-terminated string of at most max bytes including the NUL:
 * its length, -EFAULT, or -ENAMETOOLONG when no NUL comes within max bytes.
 */
long strncpy_from_user(char *dst, const char __user *src, size_t max);

/*
 * Reads one aligned u32 with a single load (atomic, unlike the copies) and
 * never resolves a page fault, so that it may run under a spinlock: 0, or
 * -EFAULT when the page is absent or the address bad. The caller then drops
 * its locks, faults the page in with copy_from_user and tries again.
 */
int get_user_u32_nofault(u32 *out, const u32 __user *p);

/*
 * Atomically replaces the aligned u32 at p with new if it holds *expected
 * (lock cmpxchg), leaving in *expected what it held: equal to the old
 * *expected exactly when the store happened. A fault on an absent page is
 * resolved and the instruction retried; an address that cannot be written
 * (unmapped, read-only, kernel) gives -EFAULT. Sleeps: no spinlock held.
 * Linux's futex_atomic_cmpxchg_inatomic with its fault_in retry folded in.
 */
int cmpxchg_user_u32(u32 __user *p, u32 *expected, u32 new);

/* Turned on at boot when the CPU has SMAP (CR4.SMAP set). */
extern bool uaccess_smap;

/* Opens user memory to the kernel's accesses (SMAP's stac), and closes it (clac). */
static inline void
user_access_open(void)
{
	if (uaccess_smap)
		__asm__ __volatile__("stac" ::: "memory");
}

static inline void
user_access_close(void)
{
	if (uaccess_smap)
		__asm__ __volatile__("clac" ::: "memory");
}

/*
 * A window for a few small stores to user memory, as Linux's
 * user_access_begin / unsafe_put_user / user_access_end: the range is
 * checked and SMAP opened once, and each store is one instruction in the
 * exception table instead of a copy_to_user call. Between begin and end
 * nothing but the stores runs (no calls: SMAP stays open meanwhile).
 * begin is false, and opens nothing, for a range outside user space.
 */
static inline bool
user_access_begin(const void __user *p, size_t n)
{
	if (!access_ok(p, n))
		return false;
	user_access_open();
	return true;
}

#define user_access_end() user_access_close()

/*
 * Stores x at the user address ptr (within an open window), converted to
 * *ptr's type; a fault that cannot be resolved sets err to -EFAULT, so the
 * caller tests err once after all its stores.
 */
#define unsafe_put_user(x, ptr, err)                                                        \
	__asm__ __volatile__(                                                               \
		"1:	mov %[v], %[m]\n"                                                       \
		"2:\n\t" EXTABLE_FIXUP(3, "movl %[efault], %[e]", 2b) EXTABLE_ENTRY(1b, 3b) \
		: [m] "=m"(*(ptr)), [e] "+r"(err)                                           \
		: [v] "r"((__typeof__(*(ptr)))(x)), [efault] "i"(-EFAULT))
/*
 * Loads *ptr (a user address within an open window; ptr not to const) into x; a fault that
 * cannot be resolved sets err to -EFAULT and x to 0, as unsafe_put_user.
 */
#define unsafe_get_user(x, ptr, err)                                      \
	do {                                                              \
		__typeof__(*(ptr)) __v;                                   \
		__asm__ __volatile__(                                     \
			"1:	mov %[m], %[v]\n"                             \
			"2:\n\t" EXTABLE_FIXUP(3,                         \
					       "movl %[efault], %[e]\n\t" \
					       "xor %[v], %[v]",          \
					       2b) EXTABLE_ENTRY(1b, 3b)  \
			: [v] "=r"(__v), [e] "+r"(err)                    \
			: [m] "m"(*(ptr)), [efault] "i"(-EFAULT));        \
		(x) = __v;                                                \
	} while (0)

/* SMEP and SMAP on this CPU, where it has them. */
void uaccess_init_cpu(void);

#endif
