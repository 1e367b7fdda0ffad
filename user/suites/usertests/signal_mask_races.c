/*
 * signal_mask_races.c - usertests: threads changing their blocked masks
 * while process-directed signals arrive. A thread that blocks a signal
 * after the kernel chose it to take one must hand the signal on to a
 * thread that does not block it (Linux's retarget_shared_pending), and a
 * queued signal reaches exactly one thread, once; a whole-process kill
 * ends the process however its threads' masks are changing.
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#define SIGNALS	     4000
#define IN_FLIGHT    32 /* queued and not yet taken, well under RLIMIT_SIGPENDING */
#define TOGGLERS     3
#define SLEEPERS     2
#define HANG_WAIT_MS 60000 /* a hang guard only: the mechanism is what is checked */

static unsigned char taken[SIGNALS]; /* how often each queued value was delivered */
static int taken_total;
static int stop_toggling;
static int sleepers_wake[2]; /* a pipe the sleepers read, written once at the end */

static void
count_signal(int sig, siginfo_t *info, void *uc)
{
	(void)sig;
	(void)uc;
	int value = info->si_value.sival_int;

	if (value >= 0 && value < SIGNALS)
		__atomic_add_fetch(&taken[value], 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&taken_total, 1, __ATOMIC_RELEASE);
}

static void
set_blocked(int how, int sig)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, sig);
	CHECK_EQ(pthread_sigmask(how, &set, NULL), 0);
}

/* Unblocks and blocks the signal without pause; ends with it blocked. */
static void *
toggle_mask(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&stop_toggling, __ATOMIC_ACQUIRE)) {
		set_blocked(SIG_UNBLOCK, SIGRTMIN);
		set_blocked(SIG_BLOCK, SIGRTMIN);
	}
	return NULL;
}

/* Sleeps in read with the signal unblocked: a signal must wake it, nothing else does. */
static void *
sleep_unblocked(void *arg)
{
	char c;

	(void)arg;
	set_blocked(SIG_UNBLOCK, SIGRTMIN);
	CHECK_EQ(read(sleepers_wake[0], &c, 1), 1);
	return NULL;
}

/* Waits until count signals were taken; false if that does not happen before the hang guard. */
static bool
wait_taken(int count)
{
	long long give_up = mono_ns() + HANG_WAIT_MS * 1000000ll;

	while (__atomic_load_n(&taken_total, __ATOMIC_ACQUIRE) < count) {
		if (mono_ns() > give_up)
			return false;
		sched_yield();
	}
	return true;
}

/*
 * The main thread keeps SIGRTMIN blocked and queues values 0 .. SIGNALS-1
 * to its own process with sigqueue; three threads toggle their masks, two
 * sleep with it unblocked. After the togglers have stopped, every signal
 * must arrive: one chosen for a toggler that then blocked it was passed on
 * to a sleeper (otherwise it would wait, pending, for ever). Then each
 * value must have been taken once, and nothing be left pending.
 */
TEST(process_signals_reach_one_thread_while_masks_change)
{
	pthread_t togglers[TOGGLERS], sleepers[SLEEPERS];
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = count_signal;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	CHECK_OK(sigaction(SIGRTMIN, &sa, NULL));
	CHECK_OK(pipe(sleepers_wake));
	set_blocked(SIG_BLOCK, SIGRTMIN); /* new threads start blocked: they inherit the mask */
	for (int i = 0; i < TOGGLERS; i++)
		CHECK_EQ(pthread_create(&togglers[i], NULL, toggle_mask, NULL), 0);
	for (int i = 0; i < SLEEPERS; i++)
		CHECK_EQ(pthread_create(&sleepers[i], NULL, sleep_unblocked, NULL), 0);
	for (int i = 0; i < SIGNALS; i++) {
		if (i >= IN_FLIGHT && !wait_taken(i - IN_FLIGHT + 1))
			fail("only %d of %d signals taken while masks changed", taken_total,
			     i - IN_FLIGHT + 1);
		CHECK_OK(sigqueue(getpid(), SIGRTMIN, (union sigval){ .sival_int = i }));
	}
	__atomic_store_n(&stop_toggling, 1, __ATOMIC_RELEASE);
	for (int i = 0; i < TOGGLERS; i++)
		CHECK_EQ(pthread_join(togglers[i], NULL), 0);
	if (!wait_taken(SIGNALS))
		fail("%d of %d signals taken: the rest wait with the sleepers awake to take them",
		     taken_total, SIGNALS);
	CHECK_EQ(write(sleepers_wake[1], "ss", SLEEPERS), SLEEPERS);
	for (int i = 0; i < SLEEPERS; i++)
		CHECK_EQ(pthread_join(sleepers[i], NULL), 0);
	sigset_t pending;
	CHECK_OK(sigpending(&pending));
	CHECK(!sigismember(&pending, SIGRTMIN));
	CHECK_EQ(taken_total, SIGNALS);
	for (int i = 0; i < SIGNALS; i++)
		if (taken[i] != 1)
			fail("value %d was taken %d times", i, taken[i]);
}

static void
toggle_until_killed(void)
{
	pthread_t togglers[TOGGLERS];

	set_blocked(SIG_BLOCK, SIGRTMIN);
	for (int i = 0; i < TOGGLERS; i++)
		CHECK_EQ(pthread_create(&togglers[i], NULL, toggle_mask, NULL), 0);
	toggle_mask(NULL);
	_exit(1);
}

/* SIGKILL to a process whose threads all change their masks ends it, every thread. */
TEST(kill_ends_process_while_masks_change)
{
	pid_t pid = xfork();

	if (pid == 0)
		toggle_until_killed();
	usleep(20000);
	CHECK_OK(kill(pid, SIGKILL));
	expect_signaled(wait_status(pid), SIGKILL, "threads toggling their masks");
}
