/*
 * backtrace.c - frame-pointer stack walks; see backtrace.h.
 *
 * The walk trusts nothing: every frame is read with a fault-tolerant probe,
 * and it stops at a NULL or misaligned rbp, at a frame that does not move up
 * the stack, or at a return address outside kernel text (the entry code
 * starts each stack with rbp = 0).
 */
#include "kernel/backtrace.h"
#include "kernel/ksyms.h"
#include "kernel/printk.h"
#include "mm/extable.h"
#include "mm/layout.h"

extern const char _text[], _etext[];

static bool
is_kernel_text(u64 addr)
{
	return addr >= (u64)_text && addr < (u64)_etext;
}

int
backtrace_collect(u64 rip, u64 rbp, u64 *pcs, int max)
{
	int n = 0;

	if (n < max)
		pcs[n++] = rip;
	while (n < max && rbp && IS_ALIGNED(rbp, 8) && rbp >= DIRECT_MAP_BASE) {
		u64 next, ret;
		if (probe_read_u64((void *)rbp, &next) || probe_read_u64((void *)(rbp + 8), &ret))
			break;
		if (!is_kernel_text(ret))
			break;
		pcs[n++] = ret;
		if (next <= rbp)
			break;
		rbp = next;
	}
	return n;
}

void
backtrace_print(u64 rip, u64 rbp)
{
	u64 pcs[BACKTRACE_MAX];
	int n = backtrace_collect(rip, rbp, pcs, BACKTRACE_MAX);

	pr_emerg("  backtrace:\n");
	for (int i = 0; i < n; i++) {
		/*
		 * A return address points after its call, which may be past the
		 * end of the calling function (a call to a noreturn function):
		 * name the function that holds the call itself.
		 */
		u64 look = i ? pcs[i] - 1 : pcs[i], off, size;
		const char *name = ksym_lookup(look, &off, &size);
		if (name)
			pr_emerg("    #%d 0x%016lx %s+0x%lx/0x%lx\n", i, pcs[i], name,
				 off + (pcs[i] - look), size);
		else
			pr_emerg("    #%d 0x%016lx ?\n", i, pcs[i]);
	}
}
