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
 * SYSCALL_FRAME(name, nargs, SYSCALL_ARG(type, name)...) instead hands the
 * whole register frame to calls that need it (fork, clone, sigreturn). The
 * entry keeps each argument's type and name as written, for the tracer.
 */
#ifndef REWIND_SYSCALL_H
#define REWIND_SYSCALL_H

#include "kernel/x86/traps.h"
#include "kernel/lib/types.h"
#include "mm/uaccess.h"
#include "uapi/unistd.h"

#define NR_SYSCALLS 512 /* table size: every number below it is looked up */

typedef long (*syscall_fn)(struct trap_frame *f);

/* An argument as the definition spells it: its C type and name ("const char __user *", "path"). */
struct syscall_arg {
	const char *type;
	const char *name;
};

/* What the table and the tracer (strace.c) know of a call. */
struct syscall_entry {
	unsigned nr;
	unsigned nargs;
	const char *name;
	syscall_fn fn;
	struct syscall_arg args[6];
};

/* clang-format off */
#define SYSCALL_ARG(t, a) { #t, #a }
/* clang-format on */

#define SYSCALL_REGISTER(name_, nargs_, ...)                                          \
	static const struct syscall_entry syscall_entry_##name_ __section("syscalls") \
		__used __aligned(                                                     \
			8) = { __NR_##name_, nargs_, #name_, sys_##name_, { __VA_ARGS__ } }

/* The call gets the whole frame; its nargs_ arguments are described with SYSCALL_ARG for the tracer. */
#define SYSCALL_FRAME(name_, nargs_, ...)              \
	static long sys_##name_(struct trap_frame *f); \
	SYSCALL_REGISTER(name_, nargs_, __VA_ARGS__);  \
	static long sys_##name_(struct trap_frame *f)

#define SYSCALL_DEFINE_(name_, decl, call, nargs_, ...) \
	static long do_sys_##name_ decl;                \
	static long sys_##name_(struct trap_frame *f)   \
	{                                               \
		return do_sys_##name_ call;             \
	}                                               \
	SYSCALL_REGISTER(name_, nargs_, __VA_ARGS__);   \
	static long do_sys_##name_ decl

#define SYSCALL0(n)	    SYSCALL_DEFINE_(n, (void), (), 0)
#define SYSCALL1(n, t1, a1) SYSCALL_DEFINE_(n, (t1 a1), ((t1)f->rdi), 1, SYSCALL_ARG(t1, a1))
#define SYSCALL2(n, t1, a1, t2, a2)                                                          \
	SYSCALL_DEFINE_(n, (t1 a1, t2 a2), ((t1)f->rdi, (t2)f->rsi), 2, SYSCALL_ARG(t1, a1), \
			SYSCALL_ARG(t2, a2))
#define SYSCALL3(n, t1, a1, t2, a2, t3, a3)                                                \
	SYSCALL_DEFINE_(n, (t1 a1, t2 a2, t3 a3), ((t1)f->rdi, (t2)f->rsi, (t3)f->rdx), 3, \
			SYSCALL_ARG(t1, a1), SYSCALL_ARG(t2, a2), SYSCALL_ARG(t3, a3))
#define SYSCALL4(n, t1, a1, t2, a2, t3, a3, t4, a4)                                               \
	SYSCALL_DEFINE_(n, (t1 a1, t2 a2, t3 a3, t4 a4),                                          \
			((t1)f->rdi, (t2)f->rsi, (t3)f->rdx, (t4)f->r10), 4, SYSCALL_ARG(t1, a1), \
			SYSCALL_ARG(t2, a2), SYSCALL_ARG(t3, a3), SYSCALL_ARG(t4, a4))
#define SYSCALL5(n, t1, a1, t2, a2, t3, a3, t4, a4, t5, a5)                             \
	SYSCALL_DEFINE_(n, (t1 a1, t2 a2, t3 a3, t4 a4, t5 a5),                         \
			((t1)f->rdi, (t2)f->rsi, (t3)f->rdx, (t4)f->r10, (t5)f->r8), 5, \
			SYSCALL_ARG(t1, a1), SYSCALL_ARG(t2, a2), SYSCALL_ARG(t3, a3),  \
			SYSCALL_ARG(t4, a4), SYSCALL_ARG(t5, a5))
#define SYSCALL6(n, t1, a1, t2, a2, t3, a3, t4, a4, t5, a5, t6, a6)                                \
	SYSCALL_DEFINE_(n, (t1 a1, t2 a2, t3 a3, t4 a4, t5 a5, t6 a6),                             \
			((t1)f->rdi, (t2)f->rsi, (t3)f->rdx, (t4)f->r10, (t5)f->r8, (t6)f->r9), 6, \
			SYSCALL_ARG(t1, a1), SYSCALL_ARG(t2, a2), SYSCALL_ARG(t3, a3),             \
			SYSCALL_ARG(t4, a4), SYSCALL_ARG(t5, a5), SYSCALL_ARG(t6, a6))

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
/* Runs the call in f->rax with f's arguments and puts the result in f->rax (traced if asked). */
void syscall_dispatch(struct trap_frame *f);
/* The same, never traced: for the tracer itself. */
void syscall_run(struct trap_frame *f);
/* The registered entry of call nr, or NULL if rewind does not implement it. */
const struct syscall_entry *syscall_lookup(u64 nr);
/* Linux's name of call nr ("openat"), implemented or not; NULL for a number Linux does not use. */
const char *syscall_name(u64 nr);

#endif
