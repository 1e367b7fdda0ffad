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

#define ROUNDS	     300
#define TOGGLERS     3
#define SLEEPERS     2
#define HANG_WAIT_MS 60000 /* a hang guard only: the mechanism is what is checked */

static unsigned char taken[ROUNDS]; /* how often each round's queued value was delivered */
static int taken_total;
static int sleepers_wake[2]; /* a pipe the sleepers read, written once at the end */
static pthread_barrier_t round_start, round_end;

static void
count_signal(int sig, siginfo_t *info, void *uc)
{
	(void)sig;
	(void)uc;
	int value = info->si_value.sival_int;

	if (value >= 0 && value < ROUNDS)
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

/* Once a round: unblocks the signal and at once blocks it again, then waits blocked. */
static void *
toggle_each_round(void *arg)
{
	(void)arg;
	for (int r = 0; r < ROUNDS; r++) {
		pthread_barrier_wait(&round_start);
		set_blocked(SIG_UNBLOCK, SIGRTMIN);
		set_blocked(SIG_BLOCK, SIGRTMIN);
		pthread_barrier_wait(&round_end);
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
 * The main thread keeps SIGRTMIN blocked; two threads sleep with it
 * unblocked. Each round three threads unblock it and block it again while
 * the main thread queues one value to its own process with sigqueue: the
 * kernel may choose a thread that is about to block it, which must then
 * hand the signal on to a sleeper, for once the round is over every thread
 * but the sleepers blocks it, and a signal left with the chosen thread
 * would wait for ever. Each value must be taken once, nothing be left.
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
	CHECK_EQ(pthread_barrier_init(&round_start, NULL, TOGGLERS + 1), 0);
	CHECK_EQ(pthread_barrier_init(&round_end, NULL, TOGGLERS + 1), 0);
	set_blocked(SIG_BLOCK, SIGRTMIN); /* new threads start blocked: they inherit the mask */
	for (int i = 0; i < TOGGLERS; i++)
		CHECK_EQ(pthread_create(&togglers[i], NULL, toggle_each_round, NULL), 0);
	for (int i = 0; i < SLEEPERS; i++)
		CHECK_EQ(pthread_create(&sleepers[i], NULL, sleep_unblocked, NULL), 0);
	for (int r = 0; r < ROUNDS; r++) {
		pthread_barrier_wait(&round_start);
		CHECK_OK(sigqueue(getpid(), SIGRTMIN, (union sigval){ .sival_int = r }));
		pthread_barrier_wait(&round_end);
		if (!wait_taken(r + 1))
			fail("round %d: %d signals taken of %d, the rest pending with a thread that "
			     "blocks it while two sleep unblocked",
			     r, taken_total, r + 1);
	}
	for (int i = 0; i < TOGGLERS; i++)
		CHECK_EQ(pthread_join(togglers[i], NULL), 0);
	CHECK_EQ(write(sleepers_wake[1], "ss", SLEEPERS), SLEEPERS);
	for (int i = 0; i < SLEEPERS; i++)
		CHECK_EQ(pthread_join(sleepers[i], NULL), 0);
	sigset_t pending;
	CHECK_OK(sigpending(&pending));
	CHECK(!sigismember(&pending, SIGRTMIN));
	CHECK_EQ(taken_total, ROUNDS);
	for (int r = 0; r < ROUNDS; r++)
		if (taken[r] != 1)
			fail("value %d was taken %d times", r, taken[r]);
}

/* Unblocks and blocks the signal until the process is killed. */
static void *
toggle_mask(void *arg)
{
	for (;;) {
		set_blocked(SIG_UNBLOCK, SIGRTMIN);
		sched_yield();
		set_blocked(SIG_BLOCK, SIGRTMIN);
	}
	return arg;
}

static void
toggle_until_killed(void)
{
	pthread_t togglers[TOGGLERS];

	set_blocked(SIG_BLOCK, SIGRTMIN);
	for (int i = 0; i < TOGGLERS; i++)
		CHECK_EQ(pthread_create(&togglers[i], NULL, toggle_mask, NULL), 0);
	toggle_mask(NULL);
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
