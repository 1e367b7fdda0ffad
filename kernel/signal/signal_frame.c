/*
 * signal_frame.c - delivering a signal on the way back to user mode: the
 * default action or a handler's frame on the user stack, the restart of an
 * interrupted system call, rt_sigreturn, and the alternate signal stack.
 *
 * The frame is Linux's x86-64 rt_sigframe, so that unmodified programs
 * (musl's sa_restorer, debuggers, siglongjmp) find everything where they
 * expect it. From the new rsp up:
 *
 *	return address (sa_restorer, which calls rt_sigreturn)
 *	struct ucontext: flags, link, uc_stack, sigcontext, uc_sigmask
 *	siginfo (128 bytes)
 *	... padding ...
 *	FPU image (signal_fpstate.c: XSAVE or FXSAVE, 64-byte aligned), sigcontext.fpstate
 *	points here
 *	(the interrupted stack's 128-byte red zone, which is skipped)
 *
 * rsp is 16-byte aligned minus 8, as after a call instruction. The handler
 * gets rdi = signal, rsi = &siginfo, rdx = &ucontext and a fresh FPU state.
 * rt_sigreturn takes it all back: every general register, the flags a user
 * may change, rip, rsp, the FPU image (checked by signal_fpstate.c: what
 * would make XRSTOR fault in the kernel is refused), the mask and the alternate stack
 * setting; it leaves through iretq since rcx and r11 hold user values.
 */
#include "kernel/signal/signal_internal.h"
#include "kernel/time/posix_timer.h"
#include "uapi/errno.h"
#include "kernel/x86/fpu.h"
#include "kernel/x86/xstate.h"
#include "kernel/process/process.h"
#include "kernel/lib/string.h"
#include "kernel/syscall/syscall.h"
#include "kernel/vdso/vsyscall.h"

#define RED_ZONE 128

/* Cleared for the handler, as Linux does: single-step, direction, resume. */
#define RFLAGS_HANDLER_CLEAR (0x100ul | 0x400ul | 0x10000ul)
#define NONCANONICAL_LOW     0x0000800000000000ul

struct rt_sigframe {
	u64 pretcode;
	struct kernel_ucontext uc;
	struct kernel_siginfo info;
};

BUILD_BUG_ON(sizeof(struct kernel_sigcontext) != 256);
BUILD_BUG_ON(offsetof(struct rt_sigframe, uc.uc_mcontext) != 48);
BUILD_BUG_ON(offsetof(struct rt_sigframe, uc.uc_sigmask) != 304);
BUILD_BUG_ON(offsetof(struct rt_sigframe, info) != 312);

/* ---- the alternate signal stack ---------------------------------------------------- */

/* Whether sp is in the alternate stack: (base, base + size], as Linux tests it. */
static bool
within_altstack(const struct task *t, u64 sp)
{
	return sp > t->altstack.sp && sp - t->altstack.sp <= t->altstack.size;
}

/* Running on it, as far as sigaltstack cares: never with SS_AUTODISARM (the handler owns it). */
static bool
on_altstack(const struct task *t, u64 sp)
{
	return !(t->altstack.flags & SS_AUTODISARM) && within_altstack(t, sp);
}

/* SS_DISABLE, SS_ONSTACK, or 0 when a handler may switch to it. */
static int
altstack_mode(const struct task *t, u64 sp)
{
	return !t->altstack.size ? SS_DISABLE : on_altstack(t, sp) ? SS_ONSTACK : 0;
}

static long
set_altstack(const struct kernel_stack *ss, u64 sp)
{
	struct task *t = current();
	u32 mode = (u32)ss->ss_flags & ~SS_AUTODISARM;

	if (on_altstack(t, sp))
		return -EPERM; /* not while running on it */
	if (mode != 0 && mode != SS_ONSTACK && mode != SS_DISABLE)
		return -EINVAL;
	if (mode == SS_DISABLE) {
		t->altstack = (struct altstack){ .flags = (u32)ss->ss_flags };
		return 0;
	}
	if (ss->ss_size < MINSIGSTKSZ)
		return -ENOMEM;
	t->altstack = (struct altstack){ .sp = ss->ss_sp,
					 .size = ss->ss_size,
					 .flags = (u32)ss->ss_flags };
	return 0;
}

SYSCALL2(sigaltstack, const struct kernel_stack __user *, uss, struct kernel_stack __user *, uoss)
{
	struct task *t = current();
	u64 sp = task_user_frame(t)->rsp;
	int state = altstack_mode(t, sp) | (int)(t->altstack.flags & SS_AUTODISARM);
	struct kernel_stack old = { t->altstack.sp, state, 0, t->altstack.size }, ss;

	if (uss) {
		if (copy_from_user(&ss, uss, sizeof(ss)))
			return -EFAULT;
		long err = set_altstack(&ss, sp);
		if (err)
			return err;
	}
	if (uoss && copy_to_user(uoss, &old, sizeof(old)))
		return -EFAULT;
	return 0;
}

/* ---- the handler's frame ------------------------------------------------------------- */

static void
save_registers(struct kernel_sigcontext *sc, const struct trap_frame *f)
{
	*sc = (struct kernel_sigcontext){
		.r8 = f->r8,
		.r9 = f->r9,
		.r10 = f->r10,
		.r11 = f->r11,
		.r12 = f->r12,
		.r13 = f->r13,
		.r14 = f->r14,
		.r15 = f->r15,
		.rdi = f->rdi,
		.rsi = f->rsi,
		.rbp = f->rbp,
		.rbx = f->rbx,
		.rdx = f->rdx,
		.rax = f->rax,
		.rcx = f->rcx,
		.rsp = f->rsp,
		.rip = f->rip,
		.eflags = f->rflags,
		.cs = (u16)f->cs,
		.ss = (u16)f->ss,
	};
}

/* The FPU image, 64-aligned, under the frame, 16-aligned minus 8: setup_frame's layout. */
u64
signal_frame_max_size(void)
{
	u64 worst = signal_fpstate_size() + 63 + sizeof(struct rt_sigframe) + 15 + 8;

	return ALIGN_UP(worst, 16);
}

/*
 * Writes the frame for sig and points f at the handler; false if it cannot
 * (no SA_RESTORER, a bad handler address, an unwritable stack, an
 * alternate stack overflowed).
 */
static bool
setup_frame(struct trap_frame *f, const struct kernel_siginfo *info,
	    const struct kernel_sigaction *act, u64 old_mask)
{
	struct task *t = current();
	bool nested = on_altstack(t, f->rsp);
	bool entering = (act->flags & SA_ONSTACK) && altstack_mode(t, f->rsp) == 0;
	u64 top = entering ? t->altstack.sp + t->altstack.size : f->rsp - RED_ZONE;
	u64 fx = ALIGN_DOWN(top - signal_fpstate_size(), 64);
	u64 addr = ALIGN_DOWN(fx - sizeof(struct rt_sigframe), 16) - 8;
	struct rt_sigframe frame = {
		.pretcode = act->restorer,
		.uc.uc_flags = (xstate_size() ? UC_FP_XSTATE : 0) | UC_SIGCONTEXT_SS |
			       UC_STRICT_RESTORE_SS,
		.uc.uc_stack = { t->altstack.sp, (s32)t->altstack.flags, 0, t->altstack.size },
		.uc.uc_sigmask = old_mask,
		.info = *info,
	};

	if (!(act->flags & SA_RESTORER) || act->handler >= NONCANONICAL_LOW)
		return false;
	/* Running off the bottom of the alternate stack would overwrite whatever lies below. */
	if ((nested || entering) && !within_altstack(t, addr))
		return false;
	vsyscall_leave_page(f);
	save_registers(&frame.uc.uc_mcontext, f);
	frame.uc.uc_mcontext.err = t->fault.error;
	frame.uc.uc_mcontext.trapno = t->fault.trapno;
	frame.uc.uc_mcontext.cr2 = t->fault.cr2;
	frame.uc.uc_mcontext.oldmask = old_mask;
	frame.uc.uc_mcontext.fpstate = fx;
	if (!signal_fpstate_save(fx) || copy_to_user((void __user *)addr, &frame, sizeof(frame)))
		return false;
	if (t->altstack.flags & SS_AUTODISARM)
		t->altstack = (struct altstack){ .flags = SS_DISABLE };
	fpu_restore_initial(xstate_features());
	f->rdi = (u64)info->signo;
	f->rsi = addr + offsetof(struct rt_sigframe, info);
	f->rdx = addr + offsetof(struct rt_sigframe, uc);
	f->rax = 0;
	f->rsp = addr;
	f->rip = act->handler;
	f->rflags &= ~RFLAGS_HANDLER_CLEAR;
	f->cs = USER_CS;
	f->ss = USER_DS;
	return true;
}

/* ---- system-call restart -------------------------------------------------------------- */

/* Both syscall and int $0x80 are two bytes long: back up over the instruction. */
static void
restart_syscall(struct trap_frame *f)
{
	f->rax = f->error;
	f->rip -= 2;
}

/* A handler is about to run: the interrupted call fails with EINTR unless it may restart. */
static void
settle_syscall_for_handler(struct trap_frame *f, const struct kernel_sigaction *act)
{
	if (!syscall_restartable(f))
		return;
	long ret = (long)f->rax;
	if (ret == -ERESTARTNOHAND || (ret == -ERESTARTSYS && !(act->flags & SA_RESTART)))
		f->rax = (u64)-EINTR;
	else if (ret == -ERESTARTSYS)
		restart_syscall(f);
	f->error = SYSCALL_SETTLED;
}

/* No handler runs: an interrupted call starts again, unseen, and sigsuspend's mask goes back. */
static void
settle_without_handler(struct trap_frame *f, struct task *t)
{
	if (syscall_restartable(f)) {
		long ret = (long)f->rax;
		if (ret == -ERESTARTSYS || ret == -ERESTARTNOHAND)
			restart_syscall(f);
		f->error = SYSCALL_SETTLED;
	}
	if (t->sig_restore_mask) {
		t->sig_restore_mask = false;
		set_current_blocked(t->sig_saved_mask);
	}
}

/* ---- delivery ------------------------------------------------------------------------ */

static void
run_handler(struct trap_frame *f, const struct kernel_siginfo *info,
	    const struct kernel_sigaction *act)
{
	struct task *t = current();
	int sig = info->signo;
	u64 old_mask = t->sig_restore_mask ? t->sig_saved_mask : t->sig_blocked;

	settle_syscall_for_handler(f, act);
	if (!setup_frame(f, info, act, old_mask)) {
		if (sig == SIGSEGV) { /* or the same failure would come back for ever */
			u64 flags = sighand_lock(t);
			sig_action(t, SIGSEGV)->handler = SIG_DFL;
			sighand_unlock(t, flags);
		}
		force_sigsegv("cannot write the signal frame");
		return;
	}
	t->sig_restore_mask = false;
	u64 mask = t->sig_blocked | act->mask;
	if (!(act->flags & SA_NODEFER))
		mask |= sigmask(sig);
	set_current_blocked(mask);
}

/* What sig's disposition says now; a handler with SA_RESETHAND runs only this once. */
static void
take_action(struct task *t, int sig, struct kernel_sigaction *act)
{
	u64 flags = sighand_lock(t);

	*act = *sig_action(t, sig);
	if (act->handler > SIG_IGN && (act->flags & SA_RESETHAND))
		sig_action(t, sig)->handler = SIG_DFL;
	sighand_unlock(t, flags);
}

bool
signal_deliver(struct trap_frame *f)
{
	struct task *t = current();
	struct kernel_siginfo info;
	struct kernel_sigaction act;
	int sig = 0;
	bool timer = false;

	if (READ_ONCE(t->stop_pending)) { /* a stop to take: its tracer's, or its group's */
		if (signal_take_trap())
			ptrace_trap_stop();
		else
			signal_stop_join();
		return true;
	}
	if (t->sighand && sig_deliverable(t)) {
		u64 flags = sighand_lock(t);
		sig = dequeue_signal(t, ~t->sig_blocked, &info, &timer);
		sighand_unlock(t, flags);
	}
	if (timer)
		posix_timer_delivered(&info);
	if (!sig) { /* nothing, or another thread took it first */
		settle_without_handler(f, t);
		return false;
	}
	/* A tracee's signal goes to its tracer first, which may change or drop it. */
	if (READ_ONCE(t->ptrace.tracer) && sig != SIGKILL &&
	    !(sig = ptrace_signal_stop(sig, &info)))
		return true;
	take_action(t, sig, &act);
	if (sig_handler_ignores(&act, sig))
		return true;
	/* A traced init's tracer passed on a default signal: dropped, as Linux's SIGNAL_UNKILLABLE. */
	if (act.handler == SIG_DFL && t->group_leader->pid == 1 && sig != SIGSTOP)
		return true;
	if (act.handler == SIG_DFL && sig_is_stop(sig)) {
		signal_stop(sig);
		return true;
	}
	if (act.handler == SIG_DFL) {
		info.signo = sig;	     /* the tracer's signal, if it changed it */
		group_exit_by_signal(&info); /* terminate, dumping core for the core signals */
	}
	run_handler(f, &info, &act);
	return true;
}

/* ---- rt_sigreturn ----------------------------------------------------------------------- */

static void
restore_registers(struct trap_frame *f, const struct kernel_sigcontext *sc)
{
	f->r8 = sc->r8;
	f->r9 = sc->r9;
	f->r10 = sc->r10;
	f->r11 = sc->r11;
	f->r12 = sc->r12;
	f->r13 = sc->r13;
	f->r14 = sc->r14;
	f->r15 = sc->r15;
	f->rdi = sc->rdi;
	f->rsi = sc->rsi;
	f->rbp = sc->rbp;
	f->rbx = sc->rbx;
	f->rdx = sc->rdx;
	f->rax = sc->rax;
	f->rcx = sc->rcx;
	f->rsp = sc->rsp;
	f->rip = sc->rip;
	f->rflags = (f->rflags & ~RFLAGS_USER_CHANGEABLE) | (sc->eflags & RFLAGS_USER_CHANGEABLE);
	f->cs = USER_CS; /* only 64-bit user code exists */
	f->ss = USER_DS;
}

/*
 * The handler returned into sa_restorer, whose `ret` popped the return
 * address: rsp points at the ucontext. A frame that cannot be read, or
 * that would make iretq fault in the kernel, gets SIGSEGV.
 */
SYSCALL_FRAME(rt_sigreturn, 0)
{
	struct kernel_ucontext uc;

	if (copy_from_user(&uc, (const void __user *)f->rsp, sizeof(uc)) ||
	    !is_canonical_address(uc.uc_mcontext.rip) ||
	    !signal_fpstate_restore(uc.uc_mcontext.fpstate)) {
		force_sigsegv("bad rt_sigreturn frame");
		return 0;
	}
	set_current_blocked(uc.uc_sigmask);
	restore_registers(f, &uc.uc_mcontext);
	struct kernel_stack ss = uc.uc_stack;
	set_altstack(&ss, f->rsp);  /* as Linux: refused while on it, which is the usual case */
	f->error = SYSCALL_SETTLED; /* rax is the interrupted code's, not a result */
	return (long)f->rax;
}
