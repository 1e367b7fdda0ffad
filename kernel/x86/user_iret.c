/*
 * user_iret.c - see user_iret.h. Linux 6.1 on the same QEMU takes the
 * fault as a kernel SMAP violation and oopses, killing the program; on a
 * CPU the iretq works, and this does what the CPU does.
 */
#include "kernel/x86/user_iret.h"
#include "kernel/x86/percpu.h"
#include "kernel/x86/x86.h"
#include "mm/uaccess.h"

struct iret_frame {
	u64 rip, cs, rflags, rsp, ss;
};

bool
user_iretq_emulated(struct trap_frame *f)
{
	static const u8 iretq[2] = { 0x48, 0xcf }; /* REX.W IRET */
	u8 insn[2];
	struct iret_frame frame;

	if (copy_from_user(insn, (const void __user *)f->rip, sizeof(insn)) ||
	    insn[0] != iretq[0] || insn[1] != iretq[1])
		return false;
	if (copy_from_user(&frame, (const void __user *)f->rsp, sizeof(frame)) ||
	    frame.cs != USER_CS || frame.ss != USER_DS) /* else the CPU's #GP: SIGSEGV */
		return false;
	f->rip = frame.rip; /* a non-canonical one is SIGSEGV on the way out (entry.c) */
	f->rflags = (f->rflags & ~RFLAGS_USER_CHANGEABLE) | (frame.rflags & RFLAGS_USER_CHANGEABLE);
	f->rsp = frame.rsp;
	return true;
}
