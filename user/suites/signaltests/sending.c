/*
 * sending.c - signaltests: sending signals to processes, threads and
 * children: kill and its wait status, SIGKILL through any mask, tgkill to
 * one thread, rt_tgsigqueueinfo's siginfo to one thread and who may claim
 * which sender, a process signal to a thread that takes it, SIGCHLD (and
 * no zombies for a parent that ignores it),
 * signals ignored by default, and SIGPIPE.
 */
#define _GNU_SOURCE
#include "signaltests.h"

#include <errno.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

TEST(kill_child_wait_status)
{
	pid_t pid = xfork();

	if (pid == 0)
		sleep_forever();
	CHECK_OK(kill(pid, SIGTERM));
	int status = wait_status(pid);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
	CHECK_EQ(status, SIGTERM); /* no core bit */

	pid = xfork();
	if (pid == 0)
		sleep_forever();
	CHECK_OK(kill(pid, SIGABRT)); /* a core signal: no core file either */
	status = wait_status(pid);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
}

TEST(sigkill_sleeping_child_that_blocks_all)
{
	int p[2];
	char c;

	CHECK_OK(pipe(p));
	pid_t pid = xfork();
	if (pid == 0) {
		sigset_t all;
		sigfillset(&all);
		sigprocmask(SIG_BLOCK, &all, NULL);
		close(p[1]);
		read(p[0], &c, 1); /* never returns: the parent keeps its end */
		_exit(1);
	}
	close(p[0]);
	usleep(20000);
	CHECK_OK(kill(pid, SIGKILL));
	int status = wait_status(pid);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	close(p[1]);
}

TEST(kill_errors)
{
	CHECK_ERR(EINVAL, kill(getpid(), 65));
	CHECK_ERR(EINVAL, kill(getpid(), -1));
	CHECK_OK(kill(getpid(), 0));
	pid_t pid = xfork();
	if (pid == 0)
		_exit(0);
	wait_status(pid);
	CHECK_ERR(ESRCH, kill(pid, 0)); /* reaped: gone */
	CHECK_ERR(EINVAL, syscall(SYS_tgkill, getpid(), 0, SIGUSR1));
	CHECK_ERR(EINVAL, syscall(SYS_tgkill, 0, gettid(), SIGUSR1));
	CHECK_ERR(ESRCH, syscall(SYS_tgkill, getpid() + 100000, gettid(), SIGUSR1));
	CHECK_ERR(EINVAL, syscall(SYS_tkill, gettid(), 99));
}

static volatile pid_t thread_tid, handler_tid;
static volatile int handler_code, handler_value;
static volatile bool thread_may_exit;

static void
record_tid(int sig, siginfo_t *info, void *uc)
{
	(void)sig, (void)uc;
	handler_tid = gettid();
	handler_code = info->si_code;
	handler_value = info->si_value.sival_int;
	handled++;
}

static void *
idle_thread(void *arg)
{
	(void)arg;
	thread_tid = gettid();
	while (!thread_may_exit)
		usleep(1000);
	return NULL;
}

/* A thread that idles until thread_may_exit, with SIGUSR1 recorded by record_tid; its id is thread_tid. */
static void
start_idle_thread(pthread_t *t)
{
	set_handler(SIGUSR1, record_tid, 0);
	if (pthread_create(t, NULL, idle_thread, NULL))
		fail("pthread_create failed");
	while (!thread_tid)
		usleep(1000);
}

TEST(tgkill_reaches_that_thread)
{
	pthread_t t;

	start_idle_thread(&t);
	CHECK(thread_tid != gettid());
	CHECK_OK(syscall(SYS_tgkill, getpid(), thread_tid, SIGUSR1));
	wait_handled(1, "tgkill");
	CHECK_EQ(handler_tid, thread_tid);
	CHECK_OK(pthread_kill(pthread_self(), SIGUSR1));
	CHECK_EQ(handled, 2);
	CHECK_EQ(handler_tid, gettid());
	thread_may_exit = true;
	pthread_join(t, NULL);
}

static long
tgsigqueueinfo(pid_t tgid, pid_t tid, int sig, int code, int value)
{
	siginfo_t info = { .si_signo = sig, .si_code = code };

	info.si_value.sival_int = value;
	info.si_pid = getpid();
	info.si_uid = getuid();
	return syscall(SYS_rt_tgsigqueueinfo, tgid, tid, sig, &info);
}

/*
 * rt_tgsigqueueinfo: the caller's siginfo to one thread. Only to itself may
 * a thread claim a kernel or kill() sender (si_code >= 0, or SI_TKILL).
 */
TEST(tgsigqueueinfo_reaches_that_thread)
{
	pthread_t t;

	start_idle_thread(&t);
	CHECK_OK(tgsigqueueinfo(getpid(), thread_tid, SIGUSR1, SI_QUEUE, 42));
	wait_handled(1, "rt_tgsigqueueinfo");
	CHECK_EQ(handler_tid, thread_tid);
	CHECK_EQ(handler_code, SI_QUEUE);
	CHECK_EQ(handler_value, 42);
	CHECK_ERR(EPERM, tgsigqueueinfo(getpid(), thread_tid, SIGUSR1, SI_USER, 0));
	CHECK_ERR(EPERM, tgsigqueueinfo(getpid(), thread_tid, SIGUSR1, SI_TKILL, 0));
	CHECK_OK(tgsigqueueinfo(getpid(), gettid(), SIGUSR1, SI_USER, 7)); /* to itself: any code */
	CHECK_EQ(handled, 2);
	CHECK_EQ(handler_tid, gettid());
	CHECK_EQ(handler_code, SI_USER);
	CHECK_OK(tgsigqueueinfo(getpid(), thread_tid, 0, SI_QUEUE, 0)); /* 0: the check alone */
	CHECK_ERR(EINVAL, tgsigqueueinfo(0, thread_tid, SIGUSR1, SI_QUEUE, 0));
	CHECK_ERR(EINVAL, tgsigqueueinfo(getpid(), 0, SIGUSR1, SI_QUEUE, 0));
	CHECK_ERR(EINVAL, tgsigqueueinfo(getpid(), thread_tid, 65, SI_QUEUE, 0));
	CHECK_ERR(ESRCH, tgsigqueueinfo(getpid() + 100000, thread_tid, SIGUSR1, SI_QUEUE, 0));
	CHECK_ERR(EFAULT, syscall(SYS_rt_tgsigqueueinfo, getpid(), thread_tid, SIGUSR1, (void *)8));
	thread_may_exit = true;
	pthread_join(t, NULL);
}

/* A process signal goes to a thread that does not block it. */
TEST(process_signal_to_unblocking_thread)
{
	pthread_t t;

	start_idle_thread(&t);
	mask_signal(SIG_BLOCK, SIGUSR1);
	CHECK_OK(kill(getpid(), SIGUSR1));
	wait_handled(1, "kill with the main thread blocking");
	CHECK_EQ(handler_tid, thread_tid);
	thread_may_exit = true;
	pthread_join(t, NULL);
}

static volatile pid_t child_pid_seen;
static volatile int child_code_seen, child_status_seen;

static void
record_child(int sig, siginfo_t *info, void *uc)
{
	(void)sig, (void)uc;
	child_pid_seen = info->si_pid;
	child_code_seen = info->si_code;
	child_status_seen = info->si_status;
	handled++;
}

TEST(sigchld_handler)
{
	sigset_t empty;

	set_handler(SIGCHLD, record_child, 0);
	mask_signal(SIG_BLOCK, SIGCHLD);
	pid_t pid = xfork();
	if (pid == 0)
		_exit(7);
	sigemptyset(&empty);
	while (!handled)
		sigsuspend(&empty);
	CHECK_EQ(child_pid_seen, pid);
	CHECK_EQ(child_code_seen, CLD_EXITED);
	CHECK_EQ(child_status_seen, 7);
	expect_exit(pid, 7, "the child");

	handled = 0;
	pid = xfork();
	if (pid == 0)
		sleep_forever();
	kill(pid, SIGTERM);
	while (!handled)
		sigsuspend(&empty);
	CHECK_EQ(child_code_seen, CLD_KILLED);
	CHECK_EQ(child_status_seen, SIGTERM);
	wait_status(pid);
}

/*
 * A parent that ignores SIGCHLD, or sets SA_NOCLDWAIT, wants no zombies:
 * its children vanish when they end, and wait4 says ECHILD once none is left.
 */
TEST(sigchld_ignored_leaves_no_zombie)
{
	struct sigaction nocldwait = { .sa_handler = SIG_DFL, .sa_flags = SA_NOCLDWAIT };
	int status;

	signal(SIGCHLD, SIG_IGN);
	pid_t pid = xfork();
	if (pid == 0)
		_exit(3);
	CHECK_ERR(ECHILD, waitpid(pid, &status, 0));

	sigaction(SIGCHLD, &nocldwait, NULL);
	pid = xfork();
	if (pid == 0)
		_exit(4);
	CHECK_ERR(ECHILD, waitpid(-1, &status, 0));
}

/* Ignored by default: the process goes on (no job control: the stopping ones are not tried). */
TEST(default_ignored_signals)
{
	static const int sigs[] = { SIGCHLD, SIGURG, SIGWINCH, SIGCONT };

	for (unsigned i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		CHECK_OK(kill(getpid(), sigs[i]));
	set_disposition(SIGUSR1, SIG_IGN);
	CHECK_OK(raise(SIGUSR1));
	/* Blocked and then ignored: the pending one is thrown away. */
	mask_signal(SIG_BLOCK, SIGUSR2);
	raise(SIGUSR2);
	set_disposition(SIGUSR2, SIG_IGN);
	sigset_t pending;
	sigpending(&pending);
	CHECK(!sigismember(&pending, SIGUSR2));
}

static void
write_to_closed_pipe(void)
{
	int p[2];

	pipe(p);
	close(p[0]);
	write(p[1], "x", 1);
}

TEST(sigpipe)
{
	expect_signaled(run_child(write_to_closed_pipe), SIGPIPE,
			"write to a pipe without readers");
	int p[2];
	CHECK_OK(pipe(p));
	close(p[0]);
	set_disposition(SIGPIPE, SIG_IGN);
	CHECK_ERR(EPIPE, write(p[1], "x", 1));
}
