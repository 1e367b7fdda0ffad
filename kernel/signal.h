/*
 * signal.h - per-task signal state across fork and execve; see signal.c.
 */
#ifndef REWIND_SIGNAL_H
#define REWIND_SIGNAL_H

#include "kernel/types.h"

struct task;

/* What a synchronous fault reports to the faulting thread's signal handler. */
struct fault_report {
	int sig;		/* SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP */
	int code;		/* si_code: SEGV_MAPERR, SEGV_ACCERR, BUS_ADRERR ... */
	u64 addr;		/* si_addr, and the sigcontext's cr2 */
	u64 trapno, error;	/* the sigcontext's trapno and err */
	const char *why;	/* for the kernel log line if the signal kills */
};

/*
 * Sends a fault's signal to the current thread. It cannot be blocked or
 * ignored away (then the default action, death, applies); a handler runs
 * on the way back to user mode. Returns.
 */
void force_sig_fault(const struct fault_report *r);

/* fork: the child inherits the mask and the dispositions. */
void signal_fork(struct task *child, const struct task *parent);
/* execve: handlers reset to the default (ignored signals stay ignored); the mask is kept. */
void signal_exec(struct task *t);

#endif
