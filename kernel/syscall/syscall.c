/*
 * syscall.c - the system-call table and the C side of both entry paths.
 *
 * The table is built at boot from the `syscalls` linker section (see
 * syscall.h). `syscall` enters through syscall_entry (entry.asm), `int
 * $0x80` through the IDT; both end in syscall_dispatch() with the same
 * frame. The syscall path may leave through sysret instead of iretq when
 * the frame allows it; the conditions are in sysret_allowed().
 */
#include "kernel/syscall/syscall.h"
#include "kernel/time/cputime.h"
#include "kernel/errno.h"
#include "kernel/panic.h"
#include "kernel/x86/percpu.h"
#include "kernel/printk.h"
#include "kernel/sched/sched.h"
#include "kernel/process/task.h"
#include "kernel/time/tsc.h"
#include "kernel/vdso/vvar.h"
#include "mm/layout.h"
#include "kernel/x86/x86.h"

#define EFER_SCE	(1ul << 0)
/* Cleared on syscall entry: interrupts until the stack is switched, single-step, direction, alignment checks, nested task. */
#define FMASK_BITS	((1ul << 9) | (1ul << 8) | (1ul << 10) | (1ul << 18) | (1ul << 14))
#define RFLAGS_TF	(1ul << 8)
#define RFLAGS_RF	(1ul << 16)
/* The highest rip sysret may return to: canonical, and not the last page below the hole. */
#define SYSRET_RIP_MAX	0x00007ffffffff000ul

extern const struct syscall_entry __start_syscalls[], __stop_syscalls[];
extern void syscall_entry(void);

static syscall_fn table[NR_SYSCALLS];

static void
warn_unknown(struct trap_frame *f)
{
	static struct ratelimit rl;
	unsigned dropped;

	if (ratelimit_allow(&rl, &dropped))
		pr_notice("syscall: %s (pid %d) called unimplemented system call %lu; returning -ENOSYS%s\n",
			  current()->comm, current()->pid, f->rax, dropped ? " (more suppressed)" : "");
}

void
syscall_dispatch(struct trap_frame *f)
{
	u64 nr = f->rax;

	f->error = nr;		/* for a restart (syscall_restartable) */
	if (nr < NR_SYSCALLS && table[nr]) {
		f->rax = (u64)table[nr](f);
		return;
	}
	warn_unknown(f);
	f->rax = (u64)-ENOSYS;
}

/*
 * sysret loads rip from rcx and rflags from r11 and cannot restore either
 * register, so it is only a faithful return when the frame says rcx == rip
 * and r11 == rflags (true unless the call rewrote the frame: execve,
 * sigreturn). rip must be canonical: an Intel CPU would take the #GP for a
 * non-canonical rip in ring 0 on the user stack. The one user page above
 * the hole, the vsyscall page, is canonical too: Linux 3.1's native
 * vsyscall stubs returned there by sysret, and so does vsyscall=native.
 * TF and RF would be restored too early or lost, so those frames also
 * take iretq.
 */
bool
sysret_allowed(const struct trap_frame *f)
{
	bool canonical = f->rip < SYSRET_RIP_MAX || (f->rip & PAGE_MASK) == VSYSCALL_ADDR;

	return f->rcx == f->rip && f->r11 == f->rflags && canonical &&
	       f->cs == USER_CS && f->ss == USER_DS && !(f->rflags & (RFLAGS_TF | RFLAGS_RF));
}

/* Called by syscall_entry with interrupts off; returns whether to leave by sysret. */
int syscall_from_user(struct trap_frame *f);

int
syscall_from_user(struct trap_frame *f)
{
	struct task *t = current();

	cputime_enter_kernel(t);
	local_irq_enable();
	syscall_dispatch(f);
	prepare_return_to_user();
	cputime_exit_kernel(t);
	return sysret_allowed(f);
}

void
syscall_init(void)
{
	for (const struct syscall_entry *e = __start_syscalls; e < __stop_syscalls; e++) {
		if (e->nr >= NR_SYSCALLS || table[e->nr])
			panic("syscall: %s has a bad or duplicate number %u", e->name, e->nr);
		table[e->nr] = e->fn;
	}
	syscall_init_cpu();
	pr_info("syscall: %ld system calls\n", (long)(__stop_syscalls - __start_syscalls));
}

void
syscall_init_cpu(void)
{
	wrmsr(MSR_EFER, rdmsr(MSR_EFER) | EFER_SCE);
	/* sysret: CS = STAR[63:48] + 16, SS = + 8 (user); syscall: CS = STAR[47:32], SS = + 8. */
	wrmsr(MSR_STAR, ((u64)(USER_DS - 8 - 3) << 48) | ((u64)KERNEL_CS << 32));
	wrmsr(MSR_LSTAR, (u64)syscall_entry);
	wrmsr(MSR_FMASK, FMASK_BITS);
}
