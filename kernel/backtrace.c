/*
 * backtrace.c - frame-pointer stack walks; see backtrace.h.
 *
 * The walk trusts nothing: every frame is read with a fault-tolerant probe,
 * and it stops at a NULL or misaligned rbp, at a frame that does not move up
 * the stack, or at a return address outside kernel text (the entry code
 * starts each stack with rbp = 0). The bounded walk (the profiler's, in NMI
 * context) reads nothing outside the kernel stack that holds rsp: the
 * frameless-caller test once read the frame at a user rbp, and the page
 * fault it took inside the NMI crashed the kernel (docs/profiler.md,
 * "Faults in the NMI").
 */
#include "kernel/backtrace.h"
#include "kernel/ksyms.h"
#include "kernel/lib/string.h"
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
 * The function that the call returning to ret called, as the call's own
 * bytes give it: "call rel32", or "call *disp32(%rip)" (a paravirt site,
 * its slot read). 0 for any other call (through a register) or none.
 */
static u64
call_target(u64 ret)
{
	const u8 *p = (const u8 *)ret;
	u64 target;
	s32 rel;

	if (!is_kernel_text(ret - 6) || !is_kernel_text(ret))
		return 0;
	memcpy(&rel, p - 4, sizeof(rel));
	if (p[-5] == 0xe8)
		return ret + (u64)(s64)rel;
	if (p[-6] == 0xff && p[-5] == 0x15 &&
	    !probe_read_u64((const void *)(ret + (u64)(s64)rel), &target))
		return target;
	return 0;
}

#define FRAMELESS_SCAN_WORDS 8 /* the return address and what a frameless prologue pushes */

/*
 * The return address into the caller when rip's function has no frame of
 * its own at rip, so that rbp still belongs to the caller and a walk from
 * it would skip the caller; 0 when it has one (or cannot tell). Its
 * return address is then on the stack between rsp and rbp:
 *  - at rsp at its first instruction, or after a call through a bad
 *    pointer (rip outside any function);
 *  - at rsp + 8 just after its "push %rbp";
 *  - anywhere in a leaf, or in a fast path gcc shrink-wrapped (it sets up
 *    rbp only on the paths that need it: osq_lock spins frameless), at
 *    rsp or above the registers the function pushed. A word there counts
 *    only if it returns from a call to this very function, and not if the
 *    frame at rbp holds the same address (the function has its frame and
 *    keeps a copy of its return address, as the spinlock debugging does).
 * Reads only [rsp, hi), and the frame at rbp only when it lies in [lo, hi):
 * an NMI may land where rbp still holds the user's frame pointer (the entry
 * and exit paths), and a read of user memory from NMI context is the fault
 * docs/profiler.md's "Faults in the NMI" tells of.
 */
static u64
caller_before_frame(u64 rip, u64 rsp, u64 rbp, u64 lo, u64 hi)
{
	u64 off = 0, ret = 0, framed_ret = 0;

	if (!rsp || rsp + 8 > hi)
		return 0;
	if (!ksym_lookup(rip, &off, NULL) || off == 0) {
		probe_read_u64((void *)rsp, &ret);
		return is_kernel_text(ret) ? ret : 0;
	}
	if (off == 1 && *(const u8 *)(rip - 1) == 0x55) { /* push %rbp */
		if (rsp + 16 <= hi)
			probe_read_u64((void *)(rsp + 8), &ret);
		return is_kernel_text(ret) ? ret : 0;
	}
	u64 end = rsp + 8 * FRAMELESS_SCAN_WORDS;
	if (rbp > rsp && rbp < end)
		end = rbp;
	if (end > hi)
		end = hi;
	for (u64 at = rsp; at + 8 <= end; at += 8) {
		if (probe_read_u64((void *)at, &ret) || call_target(ret) != rip - off)
			continue;
		if (rbp >= lo && rbp + 16 <= hi &&
		    !probe_read_u64((void *)(rbp + 8), &framed_ret) && framed_ret == ret)
			return 0;
		return ret;
	}
	return 0;
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
	u64 caller = caller_before_frame(rip, rsp, rbp, 0, ~0ul - 16);
	if (caller && n < max)
		pcs[n++] = caller;
	return walk_frames(rbp, DIRECT_MAP_BASE, ~0ul, pcs, n, max);
}

int
backtrace_collect_bounded(u64 rip, u64 rsp, u64 rbp, u64 *pcs, int max)
{
	u64 lo, hi;
	int n = 0;

	if (n < max)
		pcs[n++] = rip;
	if (!is_kernel_text(rip) || !kstack_bounds(rsp, &lo, &hi) || rsp + 16 > hi)
		return n;
	u64 caller = caller_before_frame(rip, rsp, rbp, lo, hi);
	if (caller && n < max)
		pcs[n++] = caller;
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
