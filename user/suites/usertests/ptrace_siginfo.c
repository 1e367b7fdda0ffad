/*
 * ptrace_siginfo.c - usertests: what a tracer sees of a stopped tracee's
 * signals beyond the one it stops for: the siginfos still queued
 * (PTRACE_PEEKSIGINFO, gdb's and CRIU's view of pending signals) and its
 * blocked mask (PTRACE_GETSIGMASK, PTRACE_SETSIGMASK).
 */
#define _GNU_SOURCE
#include "usertests.h"
#include "tracer.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* A sigset_t as the kernel has it: bit sig - 1. */
#define KERNEL_SIGBIT(sig) (1ull << ((sig)-1))

/* PTRACE_PEEKSIGINFO's argument as Linux has it (libcs name the struct differently). */
struct peek_args {
	uint64_t off;
	uint32_t flags;
	int32_t nr;
};

/* The value SIGUSR1 is queued with. */
#define QUEUED_VALUE 11

/*
 * A traced child that blocks SIGUSR1 and SIGUSR2, queues SIGUSR1 to its
 * process (sigqueue) and SIGUSR2 to itself (tgkill), then stops with a
 * bare SIGSTOP (libc's raise would block every signal around its kill),
 * and exits 0 once resumed. Returned in that stop.
 */
static pid_t
child_with_blocked_signals_queued(void)
{
	pid_t pid = xfork();

	if (pid == 0) {
		sigset_t set;
		sigemptyset(&set);
		sigaddset(&set, SIGUSR1);
		sigaddset(&set, SIGUSR2);
		if (ptrace(PTRACE_TRACEME, 0, 0, 0) != 0 ||
		    sigprocmask(SIG_BLOCK, &set, NULL) != 0 ||
		    sigqueue(getpid(), SIGUSR1, (union sigval){ .sival_int = QUEUED_VALUE }) != 0 ||
		    syscall(SYS_tgkill, getpid(), gettid(), SIGUSR2) != 0)
			_exit(90);
		syscall(SYS_tgkill, getpid(), gettid(), SIGSTOP);
		_exit(0);
	}
	expect_stop(pid, SIGSTOP);
	return pid;
}

static long
peek_siginfo(pid_t pid, unsigned long off, unsigned flags, int nr, siginfo_t *out)
{
	struct peek_args args = { .off = off, .flags = flags, .nr = nr };

	return trace(PTRACE_PEEKSIGINFO, pid, (unsigned long)&args, (unsigned long)out);
}

static void
resume_and_expect_exit_0(pid_t pid)
{
	CHECK_OK(trace(PTRACE_CONT, pid, 0, 0));
	int status = wait_traced(pid);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		fail("pid %d: wait status %#x, want an exit with 0", pid, status);
}

TEST(ptrace_peeksiginfo_reads_the_thread_and_the_process_queues)
{
	pid_t pid = child_with_blocked_signals_queued();
	siginfo_t si[2];

	CHECK_EQ(CHECK_OK(peek_siginfo(pid, 0, 0, 2, si)), 1);
	CHECK_EQ(si[0].si_signo, SIGUSR2);
	CHECK_EQ(si[0].si_code, SI_TKILL);
	CHECK_EQ(CHECK_OK(peek_siginfo(pid, 0, PTRACE_PEEKSIGINFO_SHARED, 2, si)), 1);
	CHECK_EQ(si[0].si_signo, SIGUSR1);
	CHECK_EQ(si[0].si_code, SI_QUEUE);
	CHECK_EQ(si[0].si_value.sival_int, QUEUED_VALUE);
	CHECK_EQ(CHECK_OK(peek_siginfo(pid, 1, 0, 2, si)), 0); /* past the queue's end */
	CHECK_EQ(CHECK_OK(peek_siginfo(pid, 0, 0, 0, si)), 0);
	/* Peeking takes nothing: both are still there to be peeked again. */
	CHECK_EQ(CHECK_OK(peek_siginfo(pid, 0, 0, 1, si)), 1);
	resume_and_expect_exit_0(pid);
}

TEST(ptrace_peeksiginfo_refuses_bad_arguments)
{
	pid_t pid = child_with_blocked_signals_queued();
	siginfo_t si;

	CHECK_ERR(EINVAL, peek_siginfo(pid, 0, 2, 1, &si));  /* an unknown flag */
	CHECK_ERR(EINVAL, peek_siginfo(pid, 0, 0, -1, &si)); /* a negative count */
	CHECK_ERR(EFAULT, peek_siginfo(pid, 0, 0, 1, (siginfo_t *)8));
	CHECK_ERR(EFAULT, trace(PTRACE_PEEKSIGINFO, pid, 8, (unsigned long)&si));
	resume_and_expect_exit_0(pid);
	CHECK_ERR(ESRCH, peek_siginfo(pid, 0, 0, 1, &si)); /* reaped */
}

TEST(ptrace_getsigmask_and_setsigmask_read_and_change_the_blocked_mask)
{
	pid_t pid = child_with_blocked_signals_queued();
	uint64_t mask = 0;

	CHECK_OK(trace(PTRACE_GETSIGMASK, pid, sizeof(mask), (unsigned long)&mask));
	CHECK_EQ(mask, KERNEL_SIGBIT(SIGUSR1) | KERNEL_SIGBIT(SIGUSR2));
	CHECK_ERR(EINVAL, trace(PTRACE_GETSIGMASK, pid, 4, (unsigned long)&mask));
	CHECK_ERR(EINVAL, trace(PTRACE_SETSIGMASK, pid, 16, (unsigned long)&mask));
	CHECK_ERR(EFAULT, trace(PTRACE_GETSIGMASK, pid, sizeof(mask), 8));
	/* SIGKILL and SIGSTOP cannot be blocked, through ptrace either. */
	mask = ~0ull;
	CHECK_OK(trace(PTRACE_SETSIGMASK, pid, sizeof(mask), (unsigned long)&mask));
	CHECK_OK(trace(PTRACE_GETSIGMASK, pid, sizeof(mask), (unsigned long)&mask));
	CHECK_EQ(mask, ~(KERNEL_SIGBIT(SIGKILL) | KERNEL_SIGBIT(SIGSTOP)));
	/* Unblocking SIGUSR2 lets it in: its signal-delivery-stop comes once resumed. */
	mask = KERNEL_SIGBIT(SIGUSR1);
	CHECK_OK(trace(PTRACE_SETSIGMASK, pid, sizeof(mask), (unsigned long)&mask));
	CHECK_OK(trace(PTRACE_CONT, pid, 0, 0));
	expect_stop(pid, SIGUSR2);
	resume_and_expect_exit_0(pid); /* SIGUSR2 dropped; SIGUSR1 stays blocked to the end */
}
