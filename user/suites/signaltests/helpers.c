/*
 * helpers.c - the helpers the files of signaltests share (see
 * signaltests.h).
 */
#define _GNU_SOURCE
#include "signaltests.h"

#include <errno.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

void
set_handler(int sig, sa_handler_fn fn, int flags)
{
	struct sigaction sa = { .sa_sigaction = fn, .sa_flags = SA_SIGINFO | flags };

	sigemptyset(&sa.sa_mask);
	if (sigaction(sig, &sa, NULL) < 0)
		fail("sigaction(%d) failed with %s", sig, errname(errno));
}

void
set_disposition(int sig, void (*fn)(int))
{
	struct sigaction sa = { .sa_handler = fn };

	sigemptyset(&sa.sa_mask);
	if (sigaction(sig, &sa, NULL) < 0)
		fail("sigaction(%d) failed with %s", sig, errname(errno));
}

void
mask_signal(int how, int sig)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, sig);
	if (sigprocmask(how, &set, NULL) < 0)
		fail("sigprocmask failed with %s", errname(errno));
}

bool
is_blocked(int sig)
{
	sigset_t set;

	sigprocmask(SIG_BLOCK, NULL, &set);
	return sigismember(&set, sig);
}

void
arm_timer_ms(long ms)
{
	struct timeval every = { ms / 1000, (ms % 1000) * 1000 };
	struct itimerval it = { .it_interval = every, .it_value = every };

	if (setitimer(ITIMER_REAL, &it, NULL) < 0)
		fail("setitimer failed with %s", errname(errno));
}

int
run_child(void (*fn)(void))
{
	pid_t pid = xfork();

	if (pid == 0) {
		fn();
		_exit(0);
	}
	return wait_status(pid);
}

volatile sig_atomic_t handled, handled_sig;
siginfo_t last_info;
ucontext_t last_uc;
volatile bool sig_was_blocked_inside;

void
record(int sig, siginfo_t *info, void *ucv)
{
	handled++;
	handled_sig = sig;
	last_info = *info;
	memcpy(&last_uc, ucv, sizeof(last_uc));
	sig_was_blocked_inside = is_blocked(sig);
}

void
count(int sig, siginfo_t *info, void *uc)
{
	(void)sig, (void)info, (void)uc;
	handled++;
}

void
wait_handled(int n, const char *what)
{
	long long deadline = mono_ns() + 10000 * MS;

	while (handled < n) {
		if (mono_ns() > deadline)
			fail("%s: handler ran %d times after 10 s, want %d", what, (int)handled, n);
		usleep(1000);
	}
}

void
sleep_forever(void)
{
	for (;;)
		pause();
}

sigjmp_buf recover;

void
record_and_jump(int sig, siginfo_t *info, void *uc)
{
	record(sig, info, uc);
	siglongjmp(recover, 1);
}
