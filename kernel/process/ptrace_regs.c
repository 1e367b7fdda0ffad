/*
 * ptrace_regs.c - a stopped tracee's registers as ptrace shows them:
 * struct user_regs_struct (GETREGS, NT_PRSTATUS, PEEKUSER's first 216
 * bytes) made from the register frame of its last entry to the kernel,
 * the FXSAVE image (GETFPREGS, NT_PRFPREG) and its XSAVE form
 * (NT_X86_XSTATE, kernel/x86/xstate.c). PEEKUSER and POKEUSER
 * also reach the debug registers, u_debugreg[8] (kernel/x86/debugreg.c);
 * the rest of struct user reads 0 and takes no writes.
 *
 * What a tracer may write is what user mode could reach itself: flags
 * only in RFLAGS_USER_CHANGEABLE, the user code and stack segments, an
 * fs base below USER_TOP (as arch_prctl); a non-canonical rip is the
 * tracee's SIGSEGV on its return (entry.c). rewind keeps no gs base and
 * no data segment selectors for user mode: they read 0 and only 0 may
 * be written (-EIO otherwise, as Linux refuses a bad selector).
 */
#include "kernel/process/ptrace_internal.h"
#include "kernel/lib/string.h"
#include "kernel/x86/debugreg.h"
#include "kernel/x86/fpu.h"
#include "kernel/x86/traps.h"
#include "kernel/x86/x86.h"
#include "kernel/x86/xstate.h"
#include "uapi/errno.h"

void
ptrace_get_regs(struct task *t, struct kernel_user_regs *r)
{
	const struct trap_frame *f = task_user_frame(t);

	*r = (struct kernel_user_regs){
		.r15 = f->r15,
		.r14 = f->r14,
		.r13 = f->r13,
		.r12 = f->r12,
		.rbp = f->rbp,
		.rbx = f->rbx,
		.r11 = f->r11,
		.r10 = f->r10,
		.r9 = f->r9,
		.r8 = f->r8,
		.rax = f->rax,
		.rcx = f->rcx,
		.rdx = f->rdx,
		.rsi = f->rsi,
		.rdi = f->rdi,
		.orig_rax = f->error,
		.rip = f->rip,
		.cs = f->cs,
		.eflags = f->rflags &
			  ~(t->ptrace.forced_tf ? RFLAGS_TF : 0), /* the tracer's TF hidden */
		.rsp = f->rsp,
		.ss = f->ss,
		.fs_base = t->fs_base,
	};
}

/*
 * The flags a tracer writes, as Linux's set_flags: TF written is the
 * program's own from now on; TF left out while the tracer's own step is
 * set stays, as the step still needs it.
 */
static u64
tracee_flags(struct task *t, u64 eflags)
{
	if (eflags & RFLAGS_TF)
		t->ptrace.forced_tf = false;
	else if (t->ptrace.forced_tf)
		eflags |= RFLAGS_TF;
	return eflags;
}

int
ptrace_set_regs(struct task *t, const struct kernel_user_regs *r)
{
	struct trap_frame *f = task_user_frame(t);

	if (r->cs != USER_CS || r->ss != USER_DS || r->gs_base || r->ds || r->es || r->fs ||
	    r->gs || !fs_base_allowed(r->fs_base))
		return -EIO;
	f->r15 = r->r15;
	f->r14 = r->r14;
	f->r13 = r->r13;
	f->r12 = r->r12;
	f->rbp = r->rbp;
	f->rbx = r->rbx;
	f->r11 = r->r11;
	f->r10 = r->r10;
	f->r9 = r->r9;
	f->r8 = r->r8;
	f->rax = r->rax;
	f->rcx = r->rcx;
	f->rdx = r->rdx;
	f->rsi = r->rsi;
	f->rdi = r->rdi;
	f->error = r->orig_rax;
	f->rip = r->rip;
	f->rflags = (f->rflags & ~RFLAGS_USER_CHANGEABLE) |
		    (tracee_flags(t, r->eflags) & RFLAGS_USER_CHANGEABLE);
	f->rsp = r->rsp;
	t->fs_base = r->fs_base;
	return 0;
}

int
ptrace_peek_user(struct task *t, u64 off, u64 *value)
{
	struct kernel_user_regs r;

	if ((off & 7) || off >= USER_AREA_END)
		return -EIO;
	if (off >= USER_DEBUGREG)
		return debugreg_read(t, (off - USER_DEBUGREG) / 8, value);
	*value = 0;
	if (off < sizeof(r)) {
		ptrace_get_regs(t, &r);
		memcpy(value, (const char *)&r + off, sizeof(*value));
	}
	return 0;
}

int
ptrace_poke_user(struct task *t, u64 off, u64 value)
{
	struct kernel_user_regs r;

	if ((off & 7) || off >= USER_AREA_END)
		return -EIO;
	if (off >= USER_DEBUGREG)
		return debugreg_write(t, (off - USER_DEBUGREG) / 8, value);
	if (off >= sizeof(r))
		return -EIO;
	ptrace_get_regs(t, &r);
	memcpy((char *)&r + off, &value, sizeof(value));
	return ptrace_set_regs(t, &r);
}

/* The region as the registers hold it: XSAVE may leave a component in its initial state unwritten. */
void
ptrace_get_fpregs(struct task *t, struct fpu_state *fx)
{
	xstate_materialize(&t->fpu);
	memcpy(fx->bytes, t->fpu.bytes, FXSAVE_SIZE);
}

/* Materialized first, so that the header keeps x87 and SSE marked in use: XRSTOR loads them. */
void
ptrace_set_fpregs(struct task *t, const struct fpu_state *fx)
{
	xstate_materialize(&t->fpu);
	memcpy(t->fpu.bytes, fx->bytes, XSTATE_SW_BYTES);
	fpu_sanitize(&t->fpu);
}

void
ptrace_get_xstate(struct task *t, struct fpu_state *x)
{
	xstate_export(&t->fpu, x);
}

int
ptrace_set_xstate(struct task *t, const struct fpu_state *x)
{
	return xstate_import(x, &t->fpu);
}
