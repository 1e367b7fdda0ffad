/*
 * uaccess.c - user-memory access; see uaccess.h.
 *
 * Every load and store of user memory is an instruction listed in the
 * exception table (mm/extable.c), between stac and clac when SMAP is on:
 *
 *   copy_user_raw()   copy_from_user, copy_to_user and strncpy_from_user:
 *                     "rep movsq" for the quadwords, then "rep movsb" for
 *                     the tail; returns the bytes not copied
 *   clear_user()      "rep stosb"
 *   get_user_u32_nofault()  one aligned load, for callers that may not
 *                     sleep (under a spinlock: futexes)
 *
 * A fault on a user page that is merely not present yet is first resolved
 * by the page-fault handler (kernel/x86/traps.c) and the instruction runs
 * again; a fault that cannot be resolved goes to the instruction's fixup,
 * which leaves the count of what was not done, so the caller returns
 * -EFAULT (or a short count) instead of the kernel dying.
 */
#include "mm/uaccess.h"
#include "mm/extable.h"
#include "uapi/errno.h"
#include "kernel/x86/percpu.h"
#include "kernel/printk.h"
#include "kernel/x86/x86.h"

bool uaccess_smap;

static inline void
user_open(void)
{
	if (uaccess_smap)
		__asm__ __volatile__("stac" ::: "memory");
}

static inline void
user_close(void)
{
	if (uaccess_smap)
		__asm__ __volatile__("clac" ::: "memory");
}

/*
 * Copies n bytes where either side may be user memory; returns the bytes
 * not copied. Quadwords first, then the tail (see kernel/lib/string.c for why
 * not "rep movsb" alone). A fault in the quadword part leaves rcx quadwords
 * to go: the fixup turns that into bytes and skips the tail.
 */
static size_t
copy_user_raw(void *dst, const void *src, size_t n)
{
	size_t quads = n / 8, tail = n % 8;

	user_open();
	__asm__ __volatile__(
		"1:	rep movsq\n"
		"	movq %[tail], %[quads]\n"
		"2:	rep movsb\n"
		"3:\n\t"
		".pushsection .text.fixup, \"ax\"\n"
		"4:	leaq (%[tail], %[quads], 8), %[quads]\n"
		"	jmp 3b\n\t"
		".popsection\n\t" EXTABLE_ENTRY(1b, 4b) EXTABLE_ENTRY(2b, 3b)
		: "+D"(dst), "+S"(src), [quads] "+c"(quads)
		: [tail] "r"(tail)
		: "memory");
	user_close();
	return quads;
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

int
clear_user(void __user *dst, size_t n)
{
	if (!access_ok(dst, n))
		return -EFAULT;
	user_open();
	__asm__ __volatile__(
		"1:	rep stosb\n"
		"2:\n\t" EXTABLE_ENTRY(1b, 2b)
		: "+D"(dst), "+c"(n)
		: "a"(0)
		: "memory");
	user_close();
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
	user_open();
	__asm__ __volatile__(
		"1:	movl (%[p]), %[v]\n"
		"2:\n\t"
		".pushsection .text.fixup, \"ax\"\n"
		"3:	movl %[efault], %[err]\n"
		"	jmp 2b\n\t"
		".popsection\n\t" EXTABLE_ENTRY(1b, 3b)
		: [v] "+r"(v), [err] "+r"(err)
		: [p] "r"(p), [efault] "i"(-EFAULT)
		: "memory");
	user_close();
	this_cpu()->pagefault_disabled--;
	*out = v;
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
