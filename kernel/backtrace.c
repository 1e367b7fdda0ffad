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
#include "mm/vmap.h"

extern const char _text[], _etext[];

static bool
is_kernel_text(u64 addr)
{
	return addr >= (u64)_text && addr < (u64)_etext;
}

/*
 * A trap at a function's first instruction, or just after its "push %rbp",
 * comes before the function has a frame of its own: rbp still belongs to
 * the caller, and the return address into it is on top of the stack. So is
 * it after a call through a bad pointer (rip outside kernel text).
 */
static u64
return_address_before_frame(u64 rip, u64 rsp)
{
	u64 off = 0, ret = 0;

	if (!rsp)
		return 0;
	if (!ksym_lookup(rip, &off, NULL) || off == 0)
		probe_read_u64((void *)rsp, &ret);
	else if (off == 1 && *(const u8 *)(rip - 1) == 0x55) /* push %rbp */
		probe_read_u64((void *)(rsp + 8), &ret);
	return is_kernel_text(ret) ? ret : 0;
}

/*
 * Follows the chain from rbp, appending return addresses to pcs[n..max),
 * while each frame lies in [lo, hi), moves up the stack and returns into
 * kernel text. Returns the new n.
 */
static int
walk_frames(u64 rbp, u64 lo, u64 hi, u64 *pcs, int n, int max)
{
	while (n < max && rbp && IS_ALIGNED(rbp, 8) && rbp >= lo && rbp <= hi - 16) {
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

int
backtrace_collect(u64 rip, u64 rsp, u64 rbp, u64 *pcs, int max)
{
	int n = 0;

	if (n < max)
		pcs[n++] = rip;
	u64 caller = return_address_before_frame(rip, rsp);
	if (caller && n < max)
		pcs[n++] = caller;
	return walk_frames(rbp, DIRECT_MAP_BASE, ~0ul, pcs, n, max);
}

int
backtrace_collect_bounded(u64 rip, u64 rsp, u64 rbp, u64 *pcs, int max)
{
	u64 lo, hi, off = 0, ret = 0;
	int n = 0;

	if (n < max)
		pcs[n++] = rip;
	if (!is_kernel_text(rip) || !kstack_bounds(rsp, &lo, &hi) || rsp + 16 > hi)
		return n;
	/* As return_address_before_frame, within the stack. */
	if (ksym_lookup(rip, &off, NULL) && off <= 1) {
		u64 at = off == 0 ? rsp : rsp + 8;
		if ((off == 0 || *(const u8 *)(rip - 1) == 0x55) &&
		    !probe_read_u64((void *)at, &ret) && is_kernel_text(ret) && n < max)
			pcs[n++] = ret;
	}
	return walk_frames(rbp, lo, hi, pcs, n, max);
}

void
backtrace_print(u64 rip, u64 rsp, u64 rbp)
{
	u64 pcs[BACKTRACE_MAX];
	int n = backtrace_collect(rip, rsp, rbp, pcs, BACKTRACE_MAX);

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
