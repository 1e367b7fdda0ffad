/*
 * stop.c - pthreadtests: a stop signal stops every thread of the process
 * (the group stop), not only the one that takes it, and SIGCONT lets them
 * all go on. The stop is judged by what the kernel reports: once wait4
 * says the process stopped, no thread may run - a spinning thread's
 * counter stays where it was and a reader leaves a written byte unread -
 * until the SIGCONT, after which both move again.
 */
#define _GNU_SOURCE
#include "pthreadtests.h"

#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

struct stop_shared {
	atomic_ulong spins; /* the spinning thread's count */
	atomic_ulong reads; /* bytes the reading thread took */
	int data[2];	    /* written by the test, read by the reading thread */
};

static void *
spinner(void *arg)
{
	struct stop_shared *s = arg;

	for (;;)
		atomic_fetch_add(&s->spins, 1);
	return NULL;
}

static void *
reader(void *arg)
{
	struct stop_shared *s = arg;
	char c;

	while (read(s->data[0], &c, 1) == 1)
		atomic_fetch_add(&s->reads, 1);
	return NULL;
}

TEST(stop_signal_stops_every_thread)
{
	struct stop_shared *s =
		mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	CHECK(s != MAP_FAILED);
	CHECK_OK(pipe(s->data));
	pid_t pid = xfork();
	if (pid == 0) {
		setpgid(0, 0); /* a group its parent holds: not orphaned, whatever ours is */
		start_thread(spinner, s);
		start_thread(reader, s);
		for (;;)
			pause();
	}
	setpgid(pid, pid);
	await_count(&s->spins, 1, "the spinning thread starts");
	CHECK_EQ(write(s->data[1], "a", 1), 1);
	await_count(&s->reads, 1, "the reading thread reads");

	CHECK_OK(kill(pid, SIGTSTP));
	int status;
	CHECK_EQ(waitpid(pid, &status, WUNTRACED), pid);
	CHECK(WIFSTOPPED(status) && WSTOPSIG(status) == SIGTSTP);
	unsigned long spins = atomic_load(&s->spins);
	CHECK_EQ(write(s->data[1], "b", 1), 1);
	for (int i = 0; i < 1000; i++)
		sched_yield();
	struct pollfd unread = { .fd = s->data[0], .events = POLLIN };
	CHECK_EQ(poll(&unread, 1, 0), 1); /* still in the pipe */
	CHECK_EQ(atomic_load(&s->reads), 1);
	CHECK_EQ(atomic_load(&s->spins), spins);

	CHECK_OK(kill(pid, SIGCONT));
	await_count(&s->reads, 2, "the reading thread reads after SIGCONT");
	await_count(&s->spins, spins + 1, "the spinning thread spins after SIGCONT");
	kill(pid, SIGKILL);
	CHECK(waitpid(pid, &status, 0) == pid && WIFSIGNALED(status));
}
