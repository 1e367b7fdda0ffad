/*
 * tsc_mode.c - PR_SET_TSC and PR_GET_TSC; see tsc_mode.h.
 */
#include "kernel/x86/tsc_mode.h"
#include "kernel/x86/paravirt.h"
#include "kernel/x86/x86.h"
#include "mm/uaccess.h"
#include "uapi/errno.h"
#include "uapi/prctl.h"

void
tsc_mode_load(struct cpu *c, bool tsc_sigsegv)
{
	u64 cr4 = read_cr4();

	write_cr4(tsc_sigsegv ? cr4 | CR4_TSD : cr4 & ~CR4_TSD);
	c->tsd = tsc_sigsegv;
}

long
tsc_mode_set(unsigned long mode)
{
	if (mode != PR_TSC_ENABLE && mode != PR_TSC_SIGSEGV)
		return -EINVAL;
	/* The flag and this CPU's CR4 change together: no switch in between. */
	u64 flags = local_irq_save();
	current()->tsc_sigsegv = mode == PR_TSC_SIGSEGV;
	tsc_mode_switch(this_cpu(), current());
	local_irq_restore(flags);
	return 0;
}

long
tsc_mode_get(int __user *out)
{
	int mode = READ_ONCE(current()->tsc_sigsegv) ? PR_TSC_SIGSEGV : PR_TSC_ENABLE;

	return copy_to_user(out, &mode, sizeof(mode)) ? -EFAULT : 0;
}
