/*
 * ptrace.h - ptrace(2)'s requests, options, events and the structures it
 * copies, Linux x86-64's values and layouts (linux/ptrace.h,
 * asm/ptrace.h, sys/user.h). Named kernel_* where libc has its own.
 */
#ifndef REWIND_UAPI_PTRACE_H
#define REWIND_UAPI_PTRACE_H

#define PTRACE_TRACEME	  0
#define PTRACE_PEEKTEXT	  1
#define PTRACE_PEEKDATA	  2
#define PTRACE_PEEKUSR	  3
#define PTRACE_POKETEXT	  4
#define PTRACE_POKEDATA	  5
#define PTRACE_POKEUSR	  6
#define PTRACE_CONT	  7
#define PTRACE_KILL	  8
#define PTRACE_SINGLESTEP 9
#define PTRACE_GETREGS	  12
#define PTRACE_SETREGS	  13
#define PTRACE_GETFPREGS  14
#define PTRACE_SETFPREGS  15
#define PTRACE_ATTACH	  16
#define PTRACE_DETACH	  17
#define PTRACE_SYSCALL	  24

#define PTRACE_SETOPTIONS	0x4200
#define PTRACE_GETEVENTMSG	0x4201
#define PTRACE_GETSIGINFO	0x4202
#define PTRACE_SETSIGINFO	0x4203
#define PTRACE_GETREGSET	0x4204
#define PTRACE_SETREGSET	0x4205
#define PTRACE_SEIZE		0x4206
#define PTRACE_INTERRUPT	0x4207
#define PTRACE_LISTEN		0x4208
#define PTRACE_PEEKSIGINFO	0x4209
#define PTRACE_GETSIGMASK	0x420a
#define PTRACE_SETSIGMASK	0x420b
#define PTRACE_GET_SYSCALL_INFO 0x420e

/* PTRACE_SETOPTIONS: PTRACE_O_TRACE<event> is 1 << PTRACE_EVENT_<event>. */
#define PTRACE_O_TRACESYSGOOD	 0x1
#define PTRACE_O_TRACEFORK	 0x2
#define PTRACE_O_TRACEVFORK	 0x4
#define PTRACE_O_TRACECLONE	 0x8
#define PTRACE_O_TRACEEXEC	 0x10
#define PTRACE_O_TRACEVFORKDONE	 0x20
#define PTRACE_O_TRACEEXIT	 0x40
#define PTRACE_O_TRACESECCOMP	 0x80
#define PTRACE_O_EXITKILL	 0x100000
#define PTRACE_O_SUSPEND_SECCOMP 0x200000
#define PTRACE_O_MASK		 0x3000ff

/* The stops' events: a wait status's bits 16-23 (status >> 16). */
#define PTRACE_EVENT_FORK	1
#define PTRACE_EVENT_VFORK	2
#define PTRACE_EVENT_CLONE	3
#define PTRACE_EVENT_EXEC	4
#define PTRACE_EVENT_VFORK_DONE 5
#define PTRACE_EVENT_EXIT	6
#define PTRACE_EVENT_SECCOMP	7
#define PTRACE_EVENT_STOP	128

/* PTRACE_GETREGSET's notes (elf.h) */
#define NT_PRSTATUS   1
#define NT_PRFPREG    2
#define NT_X86_XSTATE 0x202 /* the XSAVE standard format (kernel/x86/xstate.h) */

/* PTRACE_GET_SYSCALL_INFO's op */
#define PTRACE_SYSCALL_INFO_NONE  0
#define PTRACE_SYSCALL_INFO_ENTRY 1
#define PTRACE_SYSCALL_INFO_EXIT  2

/* struct user_regs_struct of sys/user.h: GETREGS, NT_PRSTATUS, and the start of struct user. */
struct kernel_user_regs {
	unsigned long r15, r14, r13, r12, rbp, rbx, r11, r10, r9, r8;
	unsigned long rax, rcx, rdx, rsi, rdi, orig_rax;
	unsigned long rip, cs, eflags, rsp, ss;
	unsigned long fs_base, gs_base, ds, es, fs, gs;
};

/* PEEKUSER/POKEUSER offsets in struct user: the registers first, u_debugreg[8] at 848. */
#define USER_DEBUGREG 848
#define USER_AREA_END (USER_DEBUGREG + 8 * 8)

/* struct ptrace_syscall_info (linux/ptrace.h), 88 bytes as Linux 6.1 fills it. */
struct kernel_ptrace_syscall_info {
	unsigned char op;
	unsigned char pad[3];
	unsigned int arch;
	unsigned long instruction_pointer;
	unsigned long stack_pointer;
	union {
		struct {
			unsigned long nr;
			unsigned long args[6];
		} entry;
		struct {
			long rval;
			unsigned char is_error;
		} exit;
	};
};

/* PTRACE_PEEKSIGINFO's argument (linux/ptrace.h): nr siginfos from the off-th pending one. */
struct kernel_ptrace_peeksiginfo_args {
	unsigned long off;
	unsigned int flags;
	int nr;
};

#define PTRACE_PEEKSIGINFO_SHARED 1 /* the process's queue, not the thread's */

#define AUDIT_ARCH_X86_64 0xc000003e

#endif
