/*
 * syscall.h - defining system calls.
 *
 * Each subsystem defines its own calls where the code lives:
 *
 *	SYSCALL3(read, int, fd, void __user *, buf, size_t, count)
 *	{
 *		...
 *	}
 *
 * registers sys_read under __NR_read (uapi/unistd.h, Linux's x86-64
 * numbers) in the `syscalls` linker section; syscall_init() turns the
 * section into the table that the `syscall` instruction and `int $0x80`
 * both dispatch through. Arguments arrive as in Linux: rdi, rsi, rdx, r10,
 * r8, r9; the result goes back in rax (negative errno on failure).
 * SYSCALL_FRAME(name) instead hands the whole register frame to calls
 * that need it (fork, execve, sigreturn).
 */
#ifndef REWIND_SYSCALL_H
#define REWIND_SYSCALL_H

#include "kernel/x86/traps.h"
#include "kernel/lib/types.h"
#include "mm/uaccess.h"
#include "uapi/unistd.h"

#define NR_SYSCALLS		512	/* table size: every number below it is looked up */

typedef long (*syscall_fn)(struct trap_frame *f);

struct syscall_entry {
	unsigned nr;
	const char *name;
	syscall_fn fn;
};

#define SYSCALL_REGISTER(name_)						\
	static const struct syscall_entry syscall_entry_##name_		\
	__section("syscalls") __used __aligned(8) = { __NR_##name_, #name_, sys_##name_ }

#define SYSCALL_FRAME(name_)						\
	static long sys_##name_(struct trap_frame *f);			\
	SYSCALL_REGISTER(name_);					\
	static long sys_##name_(struct trap_frame *f)

#define SYSCALL_DEFINE_(name_, decl, call)				\
	static long do_sys_##name_ decl;				\
	static long sys_##name_(struct trap_frame *f) { return do_sys_##name_ call; } \
	SYSCALL_REGISTER(name_);					\
	static long do_sys_##name_ decl

#define SYSCALL0(n) SYSCALL_DEFINE_(n, (void), ())
#define SYSCALL1(n, t1, a1) SYSCALL_DEFINE_(n, (t1 a1), ((t1)f->rdi))
#define SYSCALL2(n, t1, a1, t2, a2) \
	SYSCALL_DEFINE_(n, (t1 a1, t2 a2), ((t1)f->rdi, (t2)f->rsi))
#define SYSCALL3(n, t1, a1, t2, a2, t3, a3) \
	SYSCALL_DEFINE_(n, (t1 a1, t2 a2, t3 a3), ((t1)f->rdi, (t2)f->rsi, (t3)f->rdx))
#define SYSCALL4(n, t1, a1, t2, a2, t3, a3, t4, a4) \
	SYSCALL_DEFINE_(n, (t1 a1, t2 a2, t3 a3, t4 a4), \
			((t1)f->rdi, (t2)f->rsi, (t3)f->rdx, (t4)f->r10))
#define SYSCALL5(n, t1, a1, t2, a2, t3, a3, t4, a4, t5, a5) \
	SYSCALL_DEFINE_(n, (t1 a1, t2 a2, t3 a3, t4 a4, t5 a5), \
			((t1)f->rdi, (t2)f->rsi, (t3)f->rdx, (t4)f->r10, (t5)f->r8))
#define SYSCALL6(n, t1, a1, t2, a2, t3, a3, t4, a4, t5, a5, t6, a6) \
	SYSCALL_DEFINE_(n, (t1 a1, t2 a2, t3 a3, t4 a4, t5 a5, t6 a6), \
			((t1)f->rdi, (t2)f->rsi, (t3)f->rdx, (t4)f->r10, (t5)f->r8, (t6)f->r9))

/*
 * While a call runs, its frame keeps the call's number in `error` (rax
 * receives the result), as Linux keeps orig_ax, so that signal delivery can
 * restart an interrupted call (kernel/signal/signal_frame.c). SYSCALL_SETTLED
 * there means nothing is left to restart: rt_sigreturn, or already decided.
 */
#define SYSCALL_SETTLED ((u64)-1)

static inline bool
syscall_restartable(const struct trap_frame *f)
{
	return (f->vector == VEC_SYSCALL_INSN || f->vector == VEC_SYSCALL_INT80) &&
	       f->error != SYSCALL_SETTLED;
}

/* Builds the table, then syscall_init_cpu() for the boot CPU. */
void syscall_init(void);
/* This CPU's syscall MSRs (EFER.SCE, STAR, LSTAR, FMASK). */
void syscall_init_cpu(void);
/* Runs the call in f->rax with f's arguments and puts the result in f->rax. */
void syscall_dispatch(struct trap_frame *f);

#endif
