/*
 * entry.c - the C side of every way into the kernel from user mode, and the
 * one way back (entry.h).
 *
 * Three doors lead in: the syscall instruction (syscall_from_user), an
 * interrupt gate - int $0x80, int $0xcc, each exception and interrupt -
 * taken in user mode (user_trap, from traps.c's trap_dispatch), and a new
 * task that has never been in user mode (first_return_to_user). Each runs
 *
 *	enter_from_user(f)		user time charged, interrupts on
 *	  the work: a system call, a fault, a signal to raise, an interrupt
 *	exit_to_user(f, sysret_wanted)	the return-to-user loop, kernel time
 *					charged, iretq or sysret chosen
 *
 * and entry_64.asm leaves by the way exit_to_user chose. Nothing else in
 * the kernel returns to user mode, so what must happen on every return -
 * a kill, a reschedule, a signal, the canonical-rip check - is written here
 * once, and so is the choice between iretq and sysret.
 *
 * The return-to-user loop ends only after it found nothing to do with
 * interrupts off: a signal, kill or reschedule that comes meanwhile
 * interrupts user mode at once instead of waiting for the next entry.
 */
#include "kernel/x86/entry.h"
#include "kernel/process/process.h"
#include "kernel/process/task.h"
#include "kernel/sched/sched.h"
#include "kernel/signal/return_work.h"
#include "kernel/signal/signal.h"
#include "kernel/syscall/syscall.h"
#include "kernel/time/cputime.h"
#include "kernel/vdso/vsyscall.h"
#include "kernel/x86/irq.h"
#include "kernel/x86/percpu.h"
#include "kernel/x86/traps.h"
#include "kernel/x86/x86.h"
#include "locking/lockdebug.h"
#include "mm/layout.h"

/* Interrupt gates and the syscall instruction enter with interrupts off. */
static inline void
enter(bool interrupts_on)
{
	cputime_enter_kernel(current());
	if (interrupts_on)
		local_irq_enable();
}

/* All but a hardware interrupt run with interrupts on. */
static bool
runs_with_interrupts_on(const struct trap_frame *f)
{
	return f->vector < NUM_EXCEPTIONS || f->vector == VEC_SYSCALL_INT80 ||
	       f->vector == VEC_SYSCALL_INSN || f->vector == VSYSCALL_VECTOR;
}

__entry_text void
enter_from_user(struct trap_frame *f)
{
	enter(runs_with_interrupts_on(f));
}

static void
reschedule_and_deliver(struct trap_frame *f)
{
	do {
		exit_if_killed();
		while (READ_ONCE(this_cpu()->need_resched))
			schedule();
	} while (signal_deliver(f)); /* a handler's frame, or a default action: look again */
}

/*
 * iretq to a non-canonical rip takes its #GP in ring 0, after the user's
 * GS is back (Intel SDM, IRET): no frame may get that far. A return
 * address read from user memory - the vsyscall emulation's `ret` - can be
 * anything; as Linux's bad_iret fixup makes that fault the user's, it is
 * SIGSEGV. A handler's address is checked when it is installed, so the
 * frame signal delivery builds is canonical.
 */
static void
leave_only_at_canonical_rip(struct trap_frame *f)
{
	if (is_canonical_address(f->rip))
		return;
	struct fault_report r = {
		.sig = SIGSEGV,
		.code = SI_KERNEL,
		.trapno = VEC_GENERAL_PROTECTION,
		.why = "return to a non-canonical address",
	};
	force_sig_fault(&r);
	reschedule_and_deliver(f);
}

/*
 * sysret loads rip from rcx and rflags from r11 and cannot restore either
 * register, so it is only a faithful return when the frame says rcx == rip
 * and r11 == rflags (true after a system call unless the call rewrote the
 * frame: execve, sigreturn, a signal handler to enter). rip must be
 * below USER_TOP (user space's end, mm/layout.h): an Intel CPU takes the
 * #GP for a non-canonical rip in ring 0, on the user stack. The one user page above the hole, the vsyscall
 * page, is canonical too: Linux 3.1's native vsyscall stubs returned there
 * by sysret, and so does vsyscall=native. TF and RF would be restored too
 * early or lost, so those frames also take iretq.
 */
static inline bool
sysret_allowed(const struct trap_frame *f)
{
	bool rip_sysret_safe = f->rip < USER_TOP || (f->rip & PAGE_MASK) == VSYSCALL_ADDR;

	return f->rcx == f->rip && f->r11 == f->rflags && rip_sysret_safe && f->cs == USER_CS &&
	       f->ss == USER_DS && !(f->rflags & (RFLAGS_TF | RFLAGS_RF));
}

/*
 * Whether anything is left to do before user mode; interrupts off.
 * exit_work is need_resched and, under lockdebug, whether this CPU holds
 * a spinlock (percpu.h), in one test: lockdebug's check costs the fast
 * return nothing.
 */
static inline bool
work_before_user(const struct trap_frame *f)
{
	return READ_ONCE(this_cpu()->exit_work) || !is_canonical_address(f->rip) ||
	       signal_work_on_return(current(), f);
}

/* The slow part of the return, apart so that the fast one keeps a small frame. */
static __attribute__((noinline)) void
do_work_before_user(struct trap_frame *f)
{
	do {
		if (READ_ONCE(this_cpu()->spinlocks_recorded))
			lockdebug_user_return(f->rip, f->vector);
		local_irq_enable();
		reschedule_and_deliver(f);
		leave_only_at_canonical_rip(f);
		local_irq_disable();
	} while (work_before_user(f));
}

/*
 * Nearly every return finds nothing to do: that test is kept to a few
 * loads (under TCG each call and return is a lookup of the next block of
 * translated code).
 */
__entry_text bool
exit_to_user(struct trap_frame *f, bool sysret_wanted)
{
	local_irq_disable();
	if (unlikely(work_before_user(f)))
		do_work_before_user(f);
	cputime_exit_kernel(current());
	return sysret_wanted && sysret_allowed(f);
}

/* The C side of the syscall instruction (entry_64.asm); returns 1 to leave by sysret. */
int syscall_from_user(struct trap_frame *f);

__entry_text int
syscall_from_user(struct trap_frame *f)
{
	enter(true);
	syscall_dispatch(f);
	return exit_to_user(f, true);
}

__entry_text int
user_trap(struct trap_frame *f)
{
	u64 cr2 = f->vector == VEC_PAGE_FAULT ? read_cr2()
					      : 0; /* before another fault can change it */
	bool sysret = false;

	enter_from_user(f);
	if (f->vector == VEC_SYSCALL_INT80)
		syscall_dispatch(f);
	else if (f->vector == VSYSCALL_VECTOR)
		sysret = vsyscall_trap(f);
	else if (f->vector >= NUM_EXCEPTIONS)
		irq_dispatch(f);
	else
		user_exception(f, cr2);
	return exit_to_user(f, sysret);
}

/* entry_64.asm: unwinds to user mode through f, by sysret or by iretq. */
extern __noreturn void return_to_user(struct trap_frame *f, bool by_sysret);

/*
 * A forked child's frame is its parent's system call frame (rcx == rip
 * still holds), so it may leave by sysret as the parent will; a frame that
 * execve built has rcx == 0 and takes iretq.
 */
__noreturn void
first_return_to_user(struct task *t)
{
	struct trap_frame *f = task_user_frame(t);

	return_to_user(f, exit_to_user(f, f->vector == VEC_SYSCALL_INSN));
}
