/*
 * handlers.c - signaltests: installing handlers: the siginfo and
 * ucontext a handler gets, its stack alignment, SA_NODEFER, SA_RESETHAND
 * and sa_mask; and the errors of sigaction and sigprocmask, which cannot
 * block SIGKILL or SIGSTOP.
 */
#define _GNU_SOURCE
#include "signaltests.h"

#include <errno.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

#define SIGSET_SIZE 8 /* the kernel's sigset_t */

TEST(handler_siginfo_from_kill)
{
	set_handler(SIGUSR1, record, 0);
	CHECK_OK(kill(getpid(), SIGUSR1));
	CHECK_EQ(handled, 1);
	CHECK_EQ(handled_sig, SIGUSR1);
	CHECK_EQ(last_info.si_signo, SIGUSR1);
	CHECK_EQ(last_info.si_code, SI_USER);
	CHECK_EQ(last_info.si_pid, getpid());
	CHECK(sig_was_blocked_inside);			   /* no SA_NODEFER */
	CHECK(!sigismember(&last_uc.uc_sigmask, SIGUSR1)); /* the mask before */
	CHECK(!is_blocked(SIGUSR1));			   /* restored by rt_sigreturn */
}

/* As a user other than root when it can: si_uid is the sender's real user. */
TEST(handler_siginfo_from_tkill)
{
	if (getuid() == 0)
		CHECK_OK(setuid(4324));
	set_handler(SIGUSR2, record, 0);
	CHECK_OK(syscall(SYS_tgkill, getpid(), gettid(), SIGUSR2));
	CHECK_EQ(handled, 1);
	CHECK_EQ(last_info.si_code, SI_TKILL);
	CHECK_EQ(last_info.si_pid, getpid());
	CHECK_EQ(last_info.si_uid, getuid());
}

/* The handler's first instruction: where is rsp? (rsp + 8) % 16 == 0, as after a call. */
static volatile uintptr_t entry_rsp;
void rsp_probe(int, siginfo_t *, void *);
__asm__(".text\n"
	"rsp_probe:\n"
	"	mov %rsp, entry_rsp(%rip)\n"
	"	ret\n");

TEST(handler_stack_alignment)
{
	set_handler(SIGUSR1, rsp_probe, 0);
	raise(SIGUSR1);
	CHECK(entry_rsp != 0);
	if ((entry_rsp + 8) % 16 != 0)
		fail("rsp at handler entry %#lx: (rsp + 8) %% 16 != 0", (unsigned long)entry_rsp);
}

/* SA_NODEFER leaves the signal unblocked; sa_mask adds to the mask; SA_RESETHAND runs once. */
TEST(handler_flags)
{
	struct sigaction sa = { .sa_sigaction = record,
				.sa_flags = SA_SIGINFO | SA_NODEFER | SA_RESETHAND };
	struct sigaction now;

	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGUSR2);
	CHECK_OK(sigaction(SIGUSR1, &sa, NULL));
	raise(SIGUSR1);
	CHECK_EQ(handled, 1);
	CHECK(!sig_was_blocked_inside);
	CHECK_OK(sigaction(SIGUSR1, NULL, &now));
	CHECK_EQ(now.sa_handler, SIG_DFL);

	sa.sa_flags = SA_SIGINFO;
	CHECK_OK(sigaction(SIGUSR1, &sa, NULL));
	raise(SIGUSR1);
	CHECK_EQ(handled, 2);
	CHECK(sig_was_blocked_inside);
}

/* A handler may fail the test from inside, so this one checks sa_mask itself. */
static void
check_usr2_blocked(int sig, siginfo_t *info, void *uc)
{
	(void)sig, (void)info, (void)uc;
	if (!is_blocked(SIGUSR2))
		fail("sa_mask's SIGUSR2 is not blocked in the handler");
	handled++;
}

TEST(handler_sa_mask)
{
	struct sigaction sa = { .sa_sigaction = check_usr2_blocked, .sa_flags = SA_SIGINFO };

	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGUSR2);
	CHECK_OK(sigaction(SIGUSR1, &sa, NULL));
	raise(SIGUSR1);
	CHECK_EQ(handled, 1);
	CHECK(!is_blocked(SIGUSR2));
}

/* === bad arguments ================================================================== */

TEST(sigaction_errors)
{
	struct sigaction sa = { .sa_handler = SIG_IGN }, old;

	CHECK_ERR(EINVAL, sigaction(0, &sa, NULL));
	CHECK_ERR(EINVAL, syscall(SYS_rt_sigaction, 65, NULL, &old, SIGSET_SIZE));
	CHECK_ERR(EINVAL, sigaction(SIGKILL, &sa, NULL));
	CHECK_ERR(EINVAL, sigaction(SIGSTOP, &sa, NULL));
	CHECK_OK(sigaction(SIGKILL, NULL, &old)); /* reading is allowed */
	CHECK_ERR(EINVAL, syscall(SYS_rt_sigaction, SIGUSR1, NULL, &old, 4));
	CHECK_ERR(EFAULT, syscall(SYS_rt_sigaction, SIGUSR1, (void *)1, NULL, SIGSET_SIZE));
	CHECK_ERR(EFAULT, syscall(SYS_rt_sigaction, SIGUSR1, NULL, (void *)1, SIGSET_SIZE));
	CHECK_ERR(EINVAL, syscall(SYS_rt_sigprocmask, 7, &old.sa_mask, NULL, SIGSET_SIZE));
	CHECK_ERR(EFAULT, syscall(SYS_rt_sigprocmask, SIG_BLOCK, (void *)1, NULL, SIGSET_SIZE));
	CHECK_ERR(EINVAL, syscall(SYS_rt_sigprocmask, SIG_BLOCK, NULL, NULL, 4));
	CHECK_ERR(EFAULT, syscall(SYS_rt_sigpending, (void *)1, SIGSET_SIZE));
	CHECK_ERR(EFAULT, syscall(SYS_rt_sigsuspend, (void *)1, SIGSET_SIZE));
}

/* SIGKILL and SIGSTOP cannot be blocked: the kernel takes them out of any mask. */
TEST(sigkill_cannot_be_blocked)
{
	sigset_t all, now;

	sigfillset(&all);
	CHECK_OK(syscall(SYS_rt_sigprocmask, SIG_BLOCK, &all, NULL, SIGSET_SIZE));
	CHECK_OK(sigprocmask(SIG_BLOCK, NULL, &now));
	CHECK(!sigismember(&now, SIGKILL));
	CHECK(!sigismember(&now, SIGSTOP));
	CHECK(sigismember(&now, SIGTERM));
}
