/*
 * signal.h - signals as Linux x86-64 user space sees them: the numbers,
 * the sigaction flags and dispositions, rt_sigprocmask's how, the
 * sigaltstack flags, the si_code values, and the structures rt_sigaction,
 * sigaltstack and a handler's frame carry (asm/signal.h,
 * asm-generic/signal-defs.h, asm-generic/siginfo.h, asm/sigcontext.h,
 * asm/ucontext.h). The structures are struct kernel_*: libc has its own
 * sigaction, siginfo_t, stack_t and ucontext_t, laid out differently
 * (sigaction) or with other member names. Every macro here is one libc's
 * <signal.h> defines too, often with another value (_NSIG is 65 there,
 * one more than the highest signal): user code includes <signal.h>, never
 * this.
 */
#ifndef REWIND_UAPI_SIGNAL_H
#define REWIND_UAPI_SIGNAL_H

#define SIGHUP	  1
#define SIGINT	  2
#define SIGQUIT	  3
#define SIGILL	  4
#define SIGTRAP	  5
#define SIGABRT	  6
#define SIGBUS	  7
#define SIGFPE	  8
#define SIGKILL	  9
#define SIGUSR1	  10
#define SIGSEGV	  11
#define SIGUSR2	  12
#define SIGPIPE	  13
#define SIGALRM	  14
#define SIGTERM	  15
#define SIGSTKFLT 16
#define SIGCHLD	  17
#define SIGCONT	  18
#define SIGSTOP	  19
#define SIGTSTP	  20
#define SIGTTIN	  21
#define SIGTTOU	  22
#define SIGURG	  23
#define SIGXCPU	  24
#define SIGXFSZ	  25
#define SIGVTALRM 26
#define SIGPROF	  27
#define SIGWINCH  28
#define SIGIO	  29
#define SIGPWR	  30
#define SIGSYS	  31
#define SIGRTMIN  32
#define _NSIG	  64 /* the highest signal; a sigset_t is 64 bits */

/* Dispositions (sa_handler) and sigaction flags. */
#define SIG_DFL	     0
#define SIG_IGN	     1
#define SA_NOCLDSTOP 0x00000001ul
#define SA_NOCLDWAIT 0x00000002ul
#define SA_SIGINFO   0x00000004ul
#define SA_RESTORER  0x04000000ul
#define SA_ONSTACK   0x08000000ul
#define SA_RESTART   0x10000000ul
#define SA_NODEFER   0x40000000ul
#define SA_RESETHAND 0x80000000ul

/* rt_sigprocmask's how. */
#define SIG_BLOCK   0
#define SIG_UNBLOCK 1
#define SIG_SETMASK 2

/* sigaltstack: ss_flags, and the smallest stack it accepts. */
#define SS_ONSTACK    1
#define SS_DISABLE    2
#define SS_AUTODISARM (1u << 31)
#define MINSIGSTKSZ   2048

/* si_code: who sent it, or what the fault was. */
#define SI_USER	      0
#define SI_KERNEL     0x80
#define SI_QUEUE      (-1)
#define SI_TIMER      (-2)
#define SI_MESGQ      (-3) /* a message reached an empty POSIX queue (mq_notify) */
#define SI_TKILL      (-6)
#define ILL_ILLOPN    2
#define FPE_INTDIV    1
#define FPE_FLTDIV    3
#define FPE_FLTOVF    4
#define FPE_FLTUND    5
#define FPE_FLTRES    6
#define FPE_FLTINV    7
#define SEGV_MAPERR   1
#define SEGV_ACCERR   2
#define BUS_ADRALN    1
#define BUS_ADRERR    2
#define BUS_MCEERR_AR 4 /* a poisoned page was accessed (memory failure) */
#define TRAP_BRKPT    1
#define TRAP_TRACE    2
#define TRAP_HWBKPT   4
#define CLD_EXITED    1
#define CLD_KILLED    2
#define CLD_DUMPED    3
#define CLD_TRAPPED   4
#define CLD_STOPPED   5
#define CLD_CONTINUED 6
/* SIGIO's si_code (with si_band and si_fd) when F_SETSIG chose the signal: why it came. */
#define POLL_IN	 1 /* input ready */
#define POLL_OUT 2 /* room for output */
#define POLL_MSG 3 /* a message: a lease break, a directory change (dnotify) */
#define POLL_ERR 4
#define POLL_PRI 5
#define POLL_HUP 6

/* siginfo_t as Linux x86-64 lays it out: 128 bytes, a union from offset 16. */
struct kernel_siginfo {
	int signo;
	int errno_;
	int code;
	int pad0;
	union {
		struct { /* kill, tkill, sigqueue (value), timers */
			int pid;
			unsigned int uid;
			unsigned long value;
		} kill;
		struct {		     /* POSIX timers (SI_TIMER) */
			int tid;	     /* the timer's id */
			int overrun;	     /* expiries the signal stands for, less one */
			unsigned long value; /* the sigevent's sigev_value */
		} timer;
		struct { /* SIGCHLD */
			int pid;
			unsigned int uid;
			int status;
			int pad;
			long utime, stime;
		} child;
		struct { /* SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP */
			unsigned long addr;
			short addr_lsb; /* BUS_MCEERR_*: log2 of the size lost there */
		} fault;
		struct {	   /* SIGIO or F_SETSIG's signal (si_code POLL_*) */
			long band; /* POLL* events */
			int fd;
		} poll;
		unsigned char bytes[112];
	};
};

/* struct sigaction as rt_sigaction passes it (the mask last, unlike libc's). */
struct kernel_sigaction {
	unsigned long handler;
	unsigned long flags;
	unsigned long restorer;
	unsigned long mask;
};

/* stack_t: sigaltstack's argument and a ucontext's uc_stack. */
struct kernel_stack {
	unsigned long ss_sp;
	int ss_flags;
	int __pad;
	unsigned long ss_size;
};

/* The registers a handler's frame holds, 256 bytes (asm/sigcontext.h). */
struct kernel_sigcontext {
	unsigned long r8, r9, r10, r11, r12, r13, r14, r15;
	unsigned long rdi, rsi, rbp, rbx, rdx, rax, rcx, rsp, rip, eflags;
	unsigned short cs, gs, fs, ss;
	unsigned long err, trapno, oldmask, cr2;
	unsigned long fpstate; /* the FXSAVE or XSAVE image's address, or 0 */
	unsigned long reserved1[8];
};

/* uc_flags */
#define UC_FP_XSTATE	     0x1 /* fpstate is an XSAVE image (asm/ucontext.h) */
#define UC_SIGCONTEXT_SS     0x2
#define UC_STRICT_RESTORE_SS 0x4

/*
 * An XSAVE image in a signal frame says so in its FXSAVE region's
 * software-reserved bytes (464..511), and is followed by FP_XSTATE_MAGIC2
 * (asm/sigcontext.h's struct _fpx_sw_bytes).
 */
#define FP_XSTATE_MAGIC1      0x46505853u
#define FP_XSTATE_MAGIC2      0x46505845u
#define FP_XSTATE_MAGIC2_SIZE 4
struct kernel_fpx_sw_bytes {
	unsigned int magic1;
	unsigned int extended_size; /* the image and FP_XSTATE_MAGIC2 */
	unsigned long long xfeatures;
	unsigned int xstate_size;
	unsigned int padding[7];
};

/* The ucontext a handler's third argument points at (asm/ucontext.h). */
struct kernel_ucontext {
	unsigned long uc_flags;
	unsigned long uc_link;
	struct kernel_stack uc_stack;
	struct kernel_sigcontext uc_mcontext;
	unsigned long uc_sigmask;
};

#endif
