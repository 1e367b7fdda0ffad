/*
 * syscall.c - the system-call table, and the MSRs of the syscall instruction.
 *
 * The table is built at boot from the `syscalls` linker section (see
 * syscall.h). `syscall` enters through syscall_entry (entry_64.asm), `int
 * $0x80` through the IDT; both reach syscall_dispatch() with the same
 * frame, between kernel/x86/entry.c's enter_from_user and exit_to_user.
 * Each call's name comes from the header of the numbers, so that even an
 * unimplemented call is named in the -ENOSYS line (docs/userspace.md,
 * "Entering and leaving the kernel").
 */
#include "kernel/syscall/syscall.h"
#include "kernel/x86/entry.h"
#include "uapi/errno.h"
#include "kernel/panic.h"
#include "kernel/x86/percpu.h"
#include "kernel/printk.h"
#include "kernel/process/task.h"
#include "kernel/process/ptrace.h"
#include "kernel/lib/string.h"
#include "kernel/syscall/strace.h"
#include "kernel/x86/x86.h"

#define EFER_SCE (1ul << 0)
/* Cleared on syscall entry: interrupts until the stack is switched, single-step, direction, alignment checks, nested task. */
#define FMASK_BITS ((1ul << 9) | (1ul << 8) | (1ul << 10) | (1ul << 18) | (1ul << 14))

extern const struct syscall_entry __start_syscalls[], __stop_syscalls[];
extern void syscall_entry(void);

static syscall_fn table[NR_SYSCALLS];
static const struct syscall_entry *entries[NR_SYSCALLS]; /* for the tracer, off the fast path */

#include "syscall_names.h" /* generated from the numbers' header by tools/gennames */

const char *
syscall_name(u64 nr)
{
	return nr < ARRAY_SIZE(syscall_names) ? syscall_names[nr] : NULL;
}

const struct syscall_entry *
syscall_lookup(u64 nr)
{
	return nr < NR_SYSCALLS ? entries[nr] : NULL;
}

/* Out of line, as a cold call: inlined it would cost the hot path a saved register. */
static __attribute__((noinline)) void
warn_unknown(struct trap_frame *f)
{
	static struct ratelimit rl;
	unsigned dropped;
	const char *name = syscall_name(f->rax);

	if (ratelimit_allow(&rl, &dropped))
		pr_notice(
			"syscall: %s (pid %d) called unimplemented system call %lu (%s); returning -ENOSYS%s\n",
			current()->comm, current()->pid, f->rax,
			name ? name : "not a Linux x86-64 call",
			dropped ? " (more suppressed)" : "");
}

/* Inline in syscall_dispatch: the untraced path keeps the call it always had, no more. */
static inline void
run(struct trap_frame *f)
{
	u64 nr = f->rax;

	if (likely(nr < NR_SYSCALLS && table[nr])) {
		f->rax = (u64)table[nr](f);
		return;
	}
	warn_unknown(f);
	f->rax = (u64)-ENOSYS;
}

void
syscall_run(struct trap_frame *f)
{
	run(f);
}

/* A traced call: ptrace's stops (kernel/process/ptrace.c) come before strace='s line. */
static __attribute__((noinline)) void
observed(struct trap_frame *f)
{
	if (ptrace_traces_syscalls())
		ptrace_syscall(f);
	else if (READ_ONCE(strace_mode) != STRACE_OFF)
		strace_syscall(f);
	else
		run(f);
}

/*
 * With strace= off and no task traced this costs two loads, an or and a
 * branch that always goes the same way.
 */
__entry_text void
syscall_dispatch(struct trap_frame *f)
{
	f->error = f->rax; /* for a restart (syscall_restartable) */
	if (unlikely(READ_ONCE(strace_mode) | READ_ONCE(ptrace_tracee_count)))
		observed(f);
	else
		run(f);
}

void
syscall_init(void)
{
	for (const struct syscall_entry *e = __start_syscalls; e < __stop_syscalls; e++) {
		const char *linux_name = syscall_name(e->nr);
		if (e->nr >= NR_SYSCALLS || table[e->nr])
			panic("syscall: %s has a bad or duplicate number %u", e->name, e->nr);
		if (!linux_name || strcmp(linux_name, e->name) != 0)
			panic("syscall: %s is number %u, which Linux calls %s", e->name, e->nr,
			      linux_name ? linux_name : "nothing");
		table[e->nr] = e->fn;
		entries[e->nr] = e;
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
