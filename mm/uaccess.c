/*
 * uaccess.c - user-memory access; see uaccess.h.
 *
 * Every load and store of user memory is an instruction listed in the
 * exception table (mm/extable.c), between stac and clac when SMAP is on:
 *
 *   copy_user_raw()   copy_from_user, copy_to_user, copy_from_user_partial
 *                     and strncpy_from_user: "rep movsq" for the quadwords,
 *                     then "rep movsb" for the tail; returns the bytes not
 *                     copied
 *   copy_user_nocache_raw()  copy_from_user_nocache: 8-byte non-temporal
 *                     stores (movnti) that write around the cache, then
 *                     sfence; Linux's __copy_user_nocache (2.6.2x)
 *   clear_user()      "rep stosb"
 *   get_user_u32_nofault()  one aligned load, for callers that may not
 *                     sleep (under a spinlock: futexes)
 *   cmpxchg_user_u32()  one "lock cmpxchgl" (robust futexes at thread exit)
 *
 * A fault on a user page that is merely not present yet is first resolved
 * by the page-fault handler (kernel/x86/traps.c) and the instruction runs
 * again; a fault that cannot be resolved goes to the instruction's fixup,
 * which leaves the count of what was not done, so the caller returns
 * -EFAULT (or a short count) instead of the kernel dying. The copies end
 * at the exact byte that faulted: a wide access that faults is retried a
 * byte at a time (as Linux's copy_user_handle_tail), so that a short
 * write() keeps everything before the bad address, as on Linux.
 */
#include "mm/uaccess.h"
#include "mm/extable.h"
#include "uapi/errno.h"
#include "kernel/x86/percpu.h"
#include "kernel/printk.h"
#include "kernel/x86/x86.h"

bool uaccess_smap;

/*
 * Copies n bytes where either side may be user memory; returns the bytes
 * not copied. Quadwords first, then the tail (see kernel/lib/string.c for why
 * not "rep movsb" alone). A fault in the quadword part leaves rcx quadwords
 * to go: the fixup turns that into bytes for "rep movsb", which copies up to
 * the faulting byte itself (a quadword may straddle the bad page).
 */
size_t
copy_user_raw(void *dst, const void *src, size_t n)
{
	size_t quads = n / 8, tail = n % 8;

	user_access_open();
	__asm__ __volatile__(
		"1:	rep movsq\n"
		"	movq %[tail], %[quads]\n"
		"2:	rep movsb\n"
		"3:\n\t" EXTABLE_FIXUP(4, "leaq (%[tail], %[quads], 8), %[quads]", 2b)
			EXTABLE_ENTRY(1b, 4b) EXTABLE_ENTRY(2b, 3b)
		: "+D"(dst), "+S"(src), [quads] "+c"(quads)
		: [tail] "r"(tail)
		: "memory");
	user_access_close();
	return quads;
}

/* Where each access of copy_user_nocache_raw continues when it faults. */
/* clang-format off */
#define NOCACHE_EXTABLE                                                         \
	EXTABLE_ENTRY(1b, 9b)   EXTABLE_ENTRY(2b, 9b)                           \
	EXTABLE_ENTRY(30b, 7b)  EXTABLE_ENTRY(31b, 7b)  EXTABLE_ENTRY(32b, 7b)  \
	EXTABLE_ENTRY(33b, 7b)  EXTABLE_ENTRY(34b, 7b)  EXTABLE_ENTRY(35b, 7b)  \
	EXTABLE_ENTRY(36b, 7b)  EXTABLE_ENTRY(37b, 7b)                          \
	EXTABLE_ENTRY(40b, 7b)  EXTABLE_ENTRY(41b, 7b)  EXTABLE_ENTRY(42b, 7b)  \
	EXTABLE_ENTRY(43b, 7b)  EXTABLE_ENTRY(44b, 7b)  EXTABLE_ENTRY(45b, 7b)  \
	EXTABLE_ENTRY(46b, 7b)  EXTABLE_ENTRY(47b, 7b)                          \
	EXTABLE_ENTRY(50b, 7b)  EXTABLE_ENTRY(51b, 7b)                          \
	EXTABLE_ENTRY(70b, 9b)  EXTABLE_ENTRY(71b, 9b)
/* clang-format on */

/*
 * The same copy with non-temporal stores, as Linux's __copy_user_nocache
 * (arch/x86/lib/copy_user_nocache_64.S, 2008 form): under 8 bytes, bytes
 * only; else byte moves until the destination is 8-aligned, then 64-byte
 * blocks of eight loads and eight movnti, then movnti quadwords, then the
 * byte tail with ordinary stores, and an sfence so that the write-combined
 * lines are globally visible before the caller publishes them (i_size,
 * the dirty bit). rcx counts the bytes left at every instruction that may
 * fault: a block's stores come after all its loads, so a faulting block or
 * quadword continues at the byte loop (label 7), which stops at the exact
 * faulting byte (label 9, still through the sfence).
 */
size_t
copy_user_nocache_raw(void *dst, const void *src, size_t n)
{
	u64 t0, t1, t2, t3, t4, t5, t6, t7;

	user_access_open();
	__asm__ __volatile__(
		"	cmpq $8, %%rcx\n"
		"	jb 7f\n"
		"	movl %%edi, %k[t1]\n" /* t1 = bytes up to 8-alignment */
		"	negl %k[t1]\n"
		"	andl $7, %k[t1]\n"
		"	jz 3f\n"
		"1:	movb (%%rsi), %b[t0]\n"
		"2:	movb %b[t0], (%%rdi)\n"
		"	incq %%rsi\n"
		"	incq %%rdi\n"
		"	decq %%rcx\n"
		"	decl %k[t1]\n"
		"	jnz 1b\n"
		"3:	cmpq $64, %%rcx\n"
		"	jb 5f\n"
		"30:	movq 0(%%rsi), %[t0]\n"
		"31:	movq 8(%%rsi), %[t1]\n"
		"32:	movq 16(%%rsi), %[t2]\n"
		"33:	movq 24(%%rsi), %[t3]\n"
		"34:	movq 32(%%rsi), %[t4]\n"
		"35:	movq 40(%%rsi), %[t5]\n"
		"36:	movq 48(%%rsi), %[t6]\n"
		"37:	movq 56(%%rsi), %[t7]\n"
		"40:	movnti %[t0], 0(%%rdi)\n"
		"41:	movnti %[t1], 8(%%rdi)\n"
		"42:	movnti %[t2], 16(%%rdi)\n"
		"43:	movnti %[t3], 24(%%rdi)\n"
		"44:	movnti %[t4], 32(%%rdi)\n"
		"45:	movnti %[t5], 40(%%rdi)\n"
		"46:	movnti %[t6], 48(%%rdi)\n"
		"47:	movnti %[t7], 56(%%rdi)\n"
		"	addq $64, %%rsi\n"
		"	addq $64, %%rdi\n"
		"	subq $64, %%rcx\n"
		"	jmp 3b\n"
		"5:	cmpq $8, %%rcx\n"
		"	jb 7f\n"
		"50:	movq (%%rsi), %[t0]\n"
		"51:	movnti %[t0], (%%rdi)\n"
		"	addq $8, %%rsi\n"
		"	addq $8, %%rdi\n"
		"	subq $8, %%rcx\n"
		"	jmp 5b\n"
		"7:	testq %%rcx, %%rcx\n"
		"	jz 9f\n"
		"70:	movb (%%rsi), %b[t0]\n"
		"71:	movb %b[t0], (%%rdi)\n"
		"	incq %%rsi\n"
		"	incq %%rdi\n"
		"	decq %%rcx\n"
		"	jmp 7b\n"
		"9:	sfence\n\t" NOCACHE_EXTABLE
		: "+D"(dst), "+S"(src), "+c"(n), [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2),
		  [t3] "=&r"(t3), [t4] "=&r"(t4), [t5] "=&r"(t5), [t6] "=&r"(t6), [t7] "=&r"(t7)
		:
		: "memory", "cc");
	user_access_close();
	return n;
}

int
copy_from_user(void *dst, const void __user *src, size_t n)
{
	if (!access_ok(src, n))
		return -EFAULT;
	return copy_user_raw(dst, src, n) ? -EFAULT : 0;
}

int
copy_to_user(void __user *dst, const void *src, size_t n)
{
	if (!access_ok(dst, n))
		return -EFAULT;
	return copy_user_raw(dst, src, n) ? -EFAULT : 0;
}

size_t
copy_from_user_partial(void *dst, const void __user *src, size_t n)
{
	return access_ok(src, n) ? copy_user_raw(dst, src, n) : n;
}

size_t
copy_from_user_nocache(void *dst, const void __user *src, size_t n)
{
	return access_ok(src, n) ? copy_user_nocache_raw(dst, src, n) : n;
}

int
clear_user(void __user *dst, size_t n)
{
	if (!access_ok(dst, n))
		return -EFAULT;
	user_access_open();
	__asm__ __volatile__(
		"1:	rep stosb\n"
		"2:\n\t" EXTABLE_ENTRY(1b, 2b)
		: "+D"(dst), "+c"(n)
		: "a"(0)
		: "memory");
	user_access_close();
	return n ? -EFAULT : 0;
}

/* Copies page by page, so that a string ending just before an unmapped page is fine. */
long
strncpy_from_user(char *dst, const char __user *src, size_t max)
{
	size_t done = 0;

	while (done < max) {
		u64 addr = (u64)(uintptr_t)src + done;
		size_t chunk = MIN(max - done, PAGE_SIZE - (addr & (PAGE_SIZE - 1)));
		if (!access_ok((const void *)addr, chunk) ||
		    copy_user_raw(dst + done, (const void *)addr, chunk))
			return -EFAULT;
		for (size_t i = 0; i < chunk; i++)
			if (dst[done + i] == '\0')
				return (long)(done + i);
		done += chunk;
	}
	return -ENAMETOOLONG;
}

/* pagefault_disabled makes kernel/x86/traps.c leave the fault to the fixup (3:). */
int
get_user_u32_nofault(u32 *out, const u32 __user *p)
{
	int err = 0;
	u32 v = 0;

	if (!access_ok(p, sizeof(*p)))
		return -EFAULT;
	this_cpu()->pagefault_disabled++;
	user_access_open();
	__asm__ __volatile__(
		"1:	movl (%[p]), %[v]\n"
		"2:\n\t" EXTABLE_FIXUP(3, "movl %[efault], %[err]", 2b) EXTABLE_ENTRY(1b, 3b)
		: [v] "+r"(v), [err] "+r"(err)
		: [p] "r"(p), [efault] "i"(-EFAULT)
		: "memory");
	user_access_close();
	this_cpu()->pagefault_disabled--;
	*out = v;
	return err;
}

int
cmpxchg_user_u32(u32 __user *p, u32 *expected, u32 new)
{
	int err = 0;
	u32 seen = *expected;

	if (!access_ok(p, sizeof(*p)) || !IS_ALIGNED((u64)(uintptr_t)p, sizeof(*p)))
		return -EFAULT;
	user_access_open();
	__asm__ __volatile__(
		"1:	lock cmpxchgl %[new], (%[p])\n"
		"2:\n\t" EXTABLE_FIXUP(3, "movl %[efault], %[err]", 2b) EXTABLE_ENTRY(1b, 3b)
		: "+a"(seen), [err] "+r"(err)
		: [new] "r"(new), [p] "r"(p), [efault] "i"(-EFAULT)
		: "memory");
	user_access_close();
	*expected = seen;
	return err;
}

void
uaccess_init_cpu(void)
{
	struct cpuid_regs r = cpuid(0, 0).eax >= 7 ? cpuid(7, 0) : (struct cpuid_regs){ 0 };
	bool smep = r.ebx & (1u << 7), smap = r.ebx & (1u << 20);

	write_cr4(read_cr4() | (smep ? CR4_SMEP : 0) | (smap ? CR4_SMAP : 0));
	uaccess_smap = smap;
	if (this_cpu_is_boot())
		pr_info("uaccess: SMEP %s, SMAP %s\n", smep ? "on" : "absent",
			smap ? "on" : "absent");
}
