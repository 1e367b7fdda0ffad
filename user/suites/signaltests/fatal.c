/*
 * fatal.c - signaltests: signals that end the process: a fault in any
 * thread, a fault whose signal is blocked, handled or ignored, signal
 * frames that cannot be written or read, and a return to a non-canonical
 * address.
 */
#define _GNU_SOURCE
#include "signaltests.h"

#include <pthread.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static void *
fault_in_thread(void *arg)
{
	(void)arg;
	usleep(10000);
	*(volatile int *)0 = 1;
	return NULL;
}

static void
thread_faults(void)
{
	pthread_t t;

	pthread_create(&t, NULL, fault_in_thread, NULL);
	sleep_forever();
}

TEST(segv_in_thread_kills_process)
{
	expect_signaled(run_child(thread_faults), SIGSEGV, "a thread wrote to NULL");
}

static void
fault_while_blocked(void)
{
	set_handler(SIGSEGV, count, 0);
	mask_signal(SIG_BLOCK, SIGSEGV);
	*(volatile int *)0 = 1;
}

static void
fault_in_own_handler(int sig, siginfo_t *info, void *uc)
{
	(void)sig, (void)info, (void)uc;
	*(volatile int *)0 = 2; /* SIGSEGV is blocked in here */
}

static void
fault_while_handling(void)
{
	set_handler(SIGSEGV, fault_in_own_handler, 0);
	*(volatile int *)0 = 1;
}

static void
fault_while_ignored(void)
{
	set_disposition(SIGSEGV, SIG_IGN);
	*(volatile int *)0 = 1;
}

TEST(fault_signal_cannot_be_refused)
{
	expect_signaled(run_child(fault_while_blocked), SIGSEGV, "fault with SIGSEGV blocked");
	expect_signaled(run_child(fault_while_handling), SIGSEGV, "fault in the SIGSEGV handler");
	expect_signaled(run_child(fault_while_ignored), SIGSEGV, "fault with SIGSEGV ignored");
}

/* rt_sigreturn with rsp at an unmapped page: the frame cannot be read. */
static void
bad_sigreturn(void)
{
	__asm__ volatile("mov $16, %%rsp; mov %0, %%eax; syscall" : : "i"(SYS_rt_sigreturn));
}

/* A handler whose frame cannot be written: the stack pointer is garbage when the signal comes. */
static void
bad_frame_delivery(void)
{
	set_handler(SIGUSR1, count, 0);
	__asm__ volatile("mov %%rsp, %%r12; mov $4096, %%rsp; syscall; mov %%r12, %%rsp"
			 :
			 : "a"(SYS_tkill), "D"(gettid()), "S"(SIGUSR1)
			 : "r12", "rcx", "r11", "memory");
}

TEST(bad_signal_frames_kill)
{
	expect_signaled(run_child(bad_sigreturn), SIGSEGV, "rt_sigreturn with a bad frame");
	expect_signaled(run_child(bad_frame_delivery), SIGSEGV, "a signal frame on a bad stack");
}

/* A handler that returns to a non-canonical rip or rsp: the process dies, not the kernel. */
static void
noncanonical_rip(int sig, siginfo_t *info, void *ucv)
{
	(void)sig, (void)info;
	((ucontext_t *)ucv)->uc_mcontext.gregs[REG_RIP] = (greg_t)0x8000000000000000ul;
}

static void
noncanonical_rsp(int sig, siginfo_t *info, void *ucv)
{
	(void)sig, (void)info;
	((ucontext_t *)ucv)->uc_mcontext.gregs[REG_RSP] = (greg_t)0x8000000000000000ul;
}

static void
return_to_noncanonical_rip(void)
{
	set_handler(SIGUSR1, noncanonical_rip, 0);
	raise(SIGUSR1);
}

static void
return_to_noncanonical_rsp(void)
{
	set_handler(SIGUSR1, noncanonical_rsp, 0);
	raise(SIGUSR1);
}

static void
expect_segv_or_bus(int status, const char *what)
{
	if (WIFSIGNALED(status) && (WTERMSIG(status) == SIGSEGV || WTERMSIG(status) == SIGBUS))
		return;
	char how[64];
	describe_status(status, how, sizeof(how));
	fail("%s: child %s, want killed by SIGSEGV or SIGBUS", what, how);
}

TEST(sigreturn_to_noncanonical_kills)
{
	expect_segv_or_bus(run_child(return_to_noncanonical_rip), "rip 0x8000000000000000");
	expect_segv_or_bus(run_child(return_to_noncanonical_rsp), "rsp 0x8000000000000000");
}
