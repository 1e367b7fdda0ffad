/*
 * scheduling.c - usertests: nice values (getpriority, setpriority, nice
 * and their permission rules), the scheduling policies (sched_setscheduler
 * and its kin, sched_setattr's sizes), I/O priorities, and that the
 * scheduler honours them: a FIFO task runs before a normal one on its
 * CPU, RT throttling still lets the normal one run, nice weights share
 * a CPU, a task back from RT or from yielding does not starve it, and a
 * child started on another CPU than its parent's shares it. The shares
 * are checked by progress counters and wide ratios, never by time
 * windows: the machine is loaded. The FIFO and privilege tests need root
 * (on the host: run as root). musl answers
 * ENOSYS for sched_setscheduler and its kin without asking the kernel
 * (POSIX means the process, Linux the thread), so these make the calls.
 */
#define _GNU_SOURCE
#include "usertests.h"
#include "uapi/ioprio.h"
#include "uapi/sched_attr.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static int
sched_setattr_call(pid_t pid, struct kernel_sched_attr *a, unsigned flags)
{
	return syscall(SYS_sched_setattr, pid, a, flags);
}

static int
sched_getattr_call(pid_t pid, struct kernel_sched_attr *a, unsigned size, unsigned flags)
{
	return syscall(SYS_sched_getattr, pid, a, size, flags);
}

static int
ioprio_set(int which, int who, int ioprio)
{
	return syscall(SYS_ioprio_set, which, who, ioprio);
}

static int
ioprio_get(int which, int who)
{
	return syscall(SYS_ioprio_get, which, who);
}

static void
need_root(void)
{
	if (geteuid() != 0)
		skip("needs root (RT policies, lowering nice)");
}

static int
setscheduler(pid_t pid, int policy, const struct sched_param *p)
{
	return syscall(SYS_sched_setscheduler, pid, policy, p);
}

static int
set_policy(pid_t pid, int policy, int priority)
{
	struct sched_param p = { .sched_priority = priority };

	return setscheduler(pid, policy, &p);
}

static int
getscheduler(pid_t pid)
{
	return syscall(SYS_sched_getscheduler, pid);
}

static int
getparam(pid_t pid, struct sched_param *p)
{
	return syscall(SYS_sched_getparam, pid, p);
}

/* Raises a limit's hard value too, or skips: the host's root may lack CAP_SYS_RESOURCE. */
static void
raise_limit(int resource, rlim_t soft, rlim_t hard)
{
	struct rlimit rl = { soft, hard };

	if (setrlimit(resource, &rl) < 0 && errno == EPERM && !on_rewind())
		skip("this host's root may not raise a hard limit (no CAP_SYS_RESOURCE)");
	CHECK_OK(setrlimit(resource, &rl));
}

/* The calling process and its future children run on the CPUs in set. */
static void
run_on(const cpu_set_t *set)
{
	CHECK_OK(sched_setaffinity(0, sizeof(*set), set));
}

/* The calling process and its future children run on cpu only. */
static void
run_on_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	run_on(&set);
}

/* The n-th (from 0) CPU the calling process may use, or -1 when it may use fewer. */
static int
allowed_cpu(int n)
{
	cpu_set_t set;

	CHECK_OK(sched_getaffinity(0, sizeof(set), &set));
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &set) && n-- == 0)
			return cpu;
	return -1;
}

/* The calling process and its future children run on one CPU only (the first it may use). */
static void
pin_to_one_cpu(void)
{
	run_on_cpu(allowed_cpu(0));
}

/* Field n (1-based, Linux's numbering) of /proc/self/stat. */
static long
stat_field(int n)
{
	char buf[1024];
	FILE *f = fopen("/proc/self/stat", "r");

	CHECK(f != NULL);
	CHECK(fgets(buf, sizeof(buf), f) != NULL);
	fclose(f);
	char *p = strrchr(buf, ')'); /* the comm may hold spaces: count after it */
	CHECK(p != NULL);
	p += 2;
	for (int field = 3; field < n; field++) {
		p = strchr(p, ' ');
		CHECK(p != NULL);
		p++;
	}
	return strtol(p, NULL, 10);
}

TEST(nice_values)
{
	CHECK_EQ(getpriority(PRIO_PROCESS, 0), 0);
	CHECK_OK(setpriority(PRIO_PROCESS, 0, 5));
	CHECK_EQ(getpriority(PRIO_PROCESS, 0), 5);
	CHECK_EQ(getpriority(PRIO_PROCESS, getpid()), 5);
	CHECK_EQ(nice(2), 7);
	CHECK_EQ(stat_field(18), 27); /* priority: 20 + nice */
	CHECK_EQ(stat_field(19), 7);
	/* The raw call answers 20 - nice, so that no success is negative. */
	CHECK_EQ(syscall(SYS_getpriority, PRIO_PROCESS, 0), 13);
	pid_t pid = xfork();
	if (pid == 0) {
		_exit(getpriority(PRIO_PROCESS, 0) == 7 ? 0 : 1); /* inherited */
	}
	expect_exited(wait_status(pid), 0, "the child at the parent's nice");
	CHECK_OK(setpriority(PRIO_PROCESS, 0, 100)); /* clamped */
	CHECK_EQ(getpriority(PRIO_PROCESS, 0), 19);
	CHECK_ERR(EINVAL, setpriority(3, 0, 0));
	CHECK_ERR(EINVAL, getpriority(-1, 0));
	CHECK_ERR(ESRCH, getpriority(PRIO_PROCESS, 4194304));
	CHECK_ERR(ESRCH, setpriority(PRIO_PROCESS, 4194304, 0));
}

/* The number on /proc/self/sched's line for key ("policy   :   0"), or fails. */
static long
sched_file_value(const char *key)
{
	char line[256];
	FILE *f = fopen("/proc/self/sched", "r");
	long value = -1;

	if (!f && !on_rewind())
		skip("no /proc/<pid>/sched: this host's Linux is built without CONFIG_SCHED_DEBUG");
	CHECK(f != NULL);
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, key, strlen(key)) == 0 && line[strlen(key)] == ' ')
			value = strtol(strchr(line, ':') + 1, NULL, 10);
	fclose(f);
	if (value < 0)
		fail("no \"%s\" line in /proc/self/sched", key);
	return value;
}

TEST(proc_sched_file)
{
	CHECK_OK(setpriority(PRIO_PROCESS, 0, 5));
	CHECK_EQ(sched_file_value("prio"), 125); /* Linux's 120 + nice */
	CHECK_EQ(sched_file_value("policy"), SCHED_OTHER);
	CHECK_EQ(sched_file_value("se.load.weight"), 335 << 10); /* nice 5's weight, scaled */
}

TEST(nice_of_groups_and_users)
{
	int p[2];
	CHECK_OK(pipe(p));
	pid_t pid = xfork();
	if (pid == 0) {
		char c;
		close(p[1]);
		CHECK_OK(setpgid(0, 0));
		read(p[0], &c, 1);
		_exit(getpriority(PRIO_PROCESS, 0));
	}
	close(p[0]);
	while (getpgid(pid) != pid)
		sched_yield();
	CHECK_OK(setpriority(PRIO_PGRP, pid, 11));
	CHECK_EQ(getpriority(PRIO_PGRP, pid), 11);
	CHECK_EQ(getpriority(PRIO_PROCESS, 0), 0); /* not in that group */
	close(p[1]);
	expect_exited(wait_status(pid), 11, "the group's member");
	/* PRIO_USER: the best (lowest) nice of the user's tasks. */
	CHECK_EQ(getpriority(PRIO_USER, 0), getpriority(PRIO_USER, getuid()));
	CHECK_ERR(ESRCH, getpriority(PRIO_PGRP, 4194304));
}

static void
nice_checks_as_nobody(const char *roots_pid)
{
	struct rlimit rl = { 0, 0 };

	CHECK_OK(setrlimit(RLIMIT_NICE, &rl));
	CHECK_OK(setpriority(PRIO_PROCESS, 0, 10));
	CHECK_ERR(EACCES, setpriority(PRIO_PROCESS, 0, 5)); /* RLIMIT_NICE 0: no lowering */
	CHECK_ERR(EPERM, setpriority(PRIO_PROCESS, atoi(roots_pid), 10));
}

TEST(nice_permissions)
{
	char pid[16];

	need_root();
	snprintf(pid, sizeof(pid), "%d", getpid());
	CHECK_OK(setpriority(PRIO_PROCESS, 0, -3)); /* root may */
	CHECK_EQ(getpriority(PRIO_PROCESS, 0), -3);
	CHECK_OK(setpriority(PRIO_PROCESS, 0, 0));
	as_nobody(nice_checks_as_nobody, pid);
}

/* A limit of 20 - n allows nice n, set by root before it dropped its ids. */
static void
nice_within_limit_as_nobody(const char *unused)
{
	(void)unused;
	CHECK_OK(setpriority(PRIO_PROCESS, 0, -5));
	CHECK_ERR(EACCES, setpriority(PRIO_PROCESS, 0, -6));
}

TEST(nice_within_rlimit_nice)
{
	need_root();
	raise_limit(RLIMIT_NICE, 25, 25);
	as_nobody(nice_within_limit_as_nobody, NULL);
}

TEST(policy_calls)
{
	struct sched_param p = { 0 };

	CHECK_EQ(getscheduler(0), SCHED_OTHER);
	CHECK_OK(getparam(0, &p));
	CHECK_EQ(p.sched_priority, 0);
	CHECK_EQ(syscall(SYS_sched_get_priority_max, SCHED_FIFO), 99);
	CHECK_EQ(syscall(SYS_sched_get_priority_min, SCHED_RR), 1);
	CHECK_EQ(syscall(SYS_sched_get_priority_max, SCHED_OTHER), 0);
	CHECK_EQ(syscall(SYS_sched_get_priority_min, SCHED_IDLE), 0);
	CHECK_ERR(EINVAL, syscall(SYS_sched_get_priority_max, 1000));
	CHECK_ERR(EINVAL, set_policy(0, 1000, 0));
	CHECK_ERR(EINVAL, set_policy(0, SCHED_OTHER, 1)); /* normal policies have priority 0 */
	CHECK_ERR(EINVAL, set_policy(0, SCHED_FIFO, 100));
	CHECK_ERR(EINVAL, set_policy(-1, SCHED_OTHER, 0));
	CHECK_ERR(ESRCH, set_policy(4194304, SCHED_OTHER, 0));
	CHECK_ERR(EFAULT, setscheduler(0, SCHED_OTHER, (struct sched_param *)8));
	CHECK_ERR(EINVAL, syscall(SYS_sched_getparam, 0, NULL));
	CHECK_ERR(ESRCH, getscheduler(4194304));
	CHECK_OK(set_policy(0, SCHED_BATCH, 0));
	CHECK_EQ(getscheduler(0), SCHED_BATCH);
	CHECK_OK(set_policy(0, SCHED_IDLE, 0));
	CHECK_EQ(getscheduler(0), SCHED_IDLE);
	struct timespec ts;
	CHECK_OK(syscall(SYS_sched_rr_get_interval, 0, &ts));
	CHECK_EQ(ts.tv_sec, 0); /* a normal task's slice: Linux 6.6+ (EEVDF) may say 0 */
}

TEST(rt_policies)
{
	struct sched_param p = { 0 };
	struct timespec ts;

	need_root();
	pin_to_one_cpu(); /* a FIFO task that spun would take only this one */
	CHECK_OK(set_policy(0, SCHED_RR, 10));
	CHECK_EQ(getscheduler(0), SCHED_RR);
	CHECK_OK(getparam(0, &p));
	CHECK_EQ(p.sched_priority, 10);
	CHECK_EQ(stat_field(18), -11); /* -1 - RT priority */
	CHECK_EQ(stat_field(40), 10);
	CHECK_EQ(stat_field(41), SCHED_RR);
	CHECK_OK(syscall(SYS_sched_rr_get_interval, 0, &ts));
	CHECK_EQ(ts.tv_sec, 0);
	CHECK_EQ(ts.tv_nsec, 100 * 1000000); /* Linux's sched_rr_timeslice_ms default */
	p.sched_priority = 20;
	CHECK_OK(syscall(SYS_sched_setparam, 0, &p));
	CHECK_OK(set_policy(0, SCHED_FIFO | SCHED_RESET_ON_FORK, 5));
	CHECK_EQ(getscheduler(0), SCHED_FIFO | SCHED_RESET_ON_FORK);
	CHECK_OK(syscall(SYS_sched_rr_get_interval, 0, &ts));
	CHECK(ts.tv_sec == 0 && ts.tv_nsec == 0); /* FIFO has no slice */
	pid_t pid = xfork();
	if (pid == 0)
		_exit(getscheduler(0) == SCHED_OTHER ? 0 : 1);
	expect_exited(wait_status(pid), 0, "a SCHED_RESET_ON_FORK child, normal");
	CHECK_OK(set_policy(0, SCHED_OTHER, 0));
}

static void
rt_checks_as_nobody(const char *unused)
{
	struct rlimit rl = { 0, 0 };

	(void)unused;
	CHECK_OK(setrlimit(RLIMIT_RTPRIO, &rl));
	CHECK_ERR(EPERM, set_policy(0, SCHED_FIFO, 1));	 /* RLIMIT_RTPRIO 0 */
	CHECK_ERR(EPERM, set_policy(1, SCHED_OTHER, 0)); /* init is root's */
	CHECK_OK(set_policy(0, SCHED_BATCH, 0));
}

TEST(rt_permissions)
{
	need_root();
	as_nobody(rt_checks_as_nobody, NULL);
}

/* RLIMIT_RTPRIO 5, set by root before it dropped its ids: priorities up to 5. */
static void
rt_within_limit_as_nobody(const char *unused)
{
	(void)unused;
	CHECK_ERR(EPERM, set_policy(0, SCHED_FIFO, 6));
	CHECK_OK(set_policy(0, SCHED_FIFO, 5));
	CHECK_OK(set_policy(0, SCHED_OTHER, 0));
}

TEST(rt_within_rlimit_rtprio)
{
	need_root();
	pin_to_one_cpu();
	raise_limit(RLIMIT_RTPRIO, 5, 5);
	as_nobody(rt_within_limit_as_nobody, NULL);
}

TEST(sched_attr_sizes)
{
	struct {
		struct kernel_sched_attr a;
		char tail[8];
	} big;
	struct kernel_sched_attr a;

	memset(&big, 0, sizeof(big));
	big.a.size = sizeof(big);
	big.a.sched_policy = SCHED_BATCH;
	big.a.sched_nice = 3;
	CHECK_OK(sched_setattr_call(0, &big.a, 0)); /* a longer structure, its tail zero */
	CHECK_EQ(getscheduler(0), SCHED_BATCH);
	CHECK_EQ(getpriority(PRIO_PROCESS, 0), 3);
	big.tail[3] = 1;
	CHECK_ERR(E2BIG, sched_setattr_call(0, &big.a, 0));
	CHECK_EQ(big.a.size, SCHED_ATTR_SIZE_VER1); /* the size the kernel knows, written back */
	memset(&a, 0, sizeof(a));
	a.size = SCHED_ATTR_SIZE_VER0 - 1;
	CHECK_ERR(E2BIG, sched_setattr_call(0, &a, 0));
	a.size = 0; /* the first version's */
	a.sched_policy = SCHED_OTHER;
	CHECK_OK(sched_setattr_call(0, &a, 0));
	CHECK_ERR(EINVAL, sched_setattr_call(0, &a, 1));
	CHECK_ERR(EINVAL, sched_setattr_call(-1, &a, 0));
	CHECK_ERR(ESRCH, sched_setattr_call(4194304, &a, 0));
	CHECK_ERR(EFAULT, sched_setattr_call(0, (void *)8, 0));

	memset(&a, 0xff, sizeof(a));
	CHECK_OK(sched_getattr_call(0, &a, SCHED_ATTR_SIZE_VER0, 0));
	CHECK_EQ(a.size, SCHED_ATTR_SIZE_VER0);
	CHECK_EQ(a.sched_policy, SCHED_OTHER);
	CHECK_EQ(a.sched_nice, 0);
	CHECK_EQ(a.sched_util_min, 0xffffffffu); /* past the size asked: untouched */
	CHECK_ERR(EINVAL, sched_getattr_call(0, &a, SCHED_ATTR_SIZE_VER0 - 1, 0));
	CHECK_ERR(EINVAL, sched_getattr_call(0, &a, sizeof(a), 1));
	CHECK_ERR(ESRCH, sched_getattr_call(4194304, &a, sizeof(a), 0));
}

TEST(io_priorities)
{
	int be3 = IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, 3);

	CHECK_OK(ioprio_get(IOPRIO_WHO_PROCESS, 0));
	CHECK_OK(ioprio_set(IOPRIO_WHO_PROCESS, 0, be3));
	CHECK_EQ(ioprio_get(IOPRIO_WHO_PROCESS, 0), be3);
	CHECK_EQ(ioprio_get(IOPRIO_WHO_PROCESS, getpid()), be3);
	pid_t pid = xfork();
	if (pid == 0)
		_exit(ioprio_get(IOPRIO_WHO_PROCESS, 0) == be3 ? 0 : 1);
	expect_exited(wait_status(pid), 0, "the child at the parent's I/O priority");
	CHECK_ERR(EINVAL, ioprio_set(IOPRIO_WHO_PROCESS, 0, IOPRIO_PRIO_VALUE(4, 0)));
	CHECK_ERR(EINVAL,
		  ioprio_set(IOPRIO_WHO_PROCESS, 0, IOPRIO_PRIO_VALUE(IOPRIO_CLASS_NONE, 1)));
	CHECK_ERR(EINVAL, ioprio_set(0, 0, be3));
	CHECK_ERR(EINVAL, ioprio_get(4, 0));
	CHECK_ERR(ESRCH, ioprio_get(IOPRIO_WHO_PROCESS, 4194304));
	CHECK_OK(ioprio_set(IOPRIO_WHO_PROCESS, 0, IOPRIO_PRIO_VALUE(IOPRIO_CLASS_IDLE, 0)));
	CHECK_EQ(IOPRIO_PRIO_CLASS(ioprio_get(IOPRIO_WHO_PROCESS, 0)), IOPRIO_CLASS_IDLE);
}

static void
ioprio_checks_as_nobody(const char *roots_pid)
{
	CHECK_ERR(EPERM, ioprio_set(IOPRIO_WHO_PROCESS, 0, IOPRIO_PRIO_VALUE(IOPRIO_CLASS_RT, 0)));
	CHECK_OK(ioprio_set(IOPRIO_WHO_PROCESS, 0, IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, 7)));
	CHECK_ERR(EPERM, ioprio_set(IOPRIO_WHO_PROCESS, atoi(roots_pid),
				    IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, 7)));
}

TEST(io_priority_permissions)
{
	char pid[16];

	need_root();
	snprintf(pid, sizeof(pid), "%d", getpid());
	CHECK_OK(ioprio_set(IOPRIO_WHO_PROCESS, 0, IOPRIO_PRIO_VALUE(IOPRIO_CLASS_RT, 2)));
	as_nobody(ioprio_checks_as_nobody, pid);
}

/* Counters the spinning children share with the test. */
struct progress {
	volatile long normal, other, bystander;
	volatile int stop;
};

static struct progress *
shared_progress(void)
{
	struct progress *p =
		mmap(NULL, sizeof(*p), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	CHECK(p != MAP_FAILED);
	return p;
}

static __attribute__((noreturn)) void
spin(volatile long *counter, volatile int *stop)
{
	while (!*stop)
		(*counter)++;
	_exit(0);
}

static pid_t
spinner(volatile long *counter, volatile int *stop)
{
	pid_t pid = xfork();

	if (pid == 0)
		spin(counter, stop);
	return pid;
}

#define FIFO_WORK 20000000L

/*
 * On one CPU, a FIFO task that spins for FIFO_WORK steps leaves a normal
 * spinner at most the throttled share (5 %): without the RT class they
 * would split the CPU and the normal one would count about as much.
 */
TEST(fifo_runs_before_normal)
{
	need_root();
	pin_to_one_cpu();
	struct progress *p = shared_progress();
	pid_t normal = spinner(&p->normal, &p->stop);
	while (p->normal < 1000)
		usleep(1000);
	pid_t fifo = xfork();
	if (fifo == 0) {
		CHECK_OK(set_policy(0, SCHED_FIFO, 1));
		long before = p->normal;
		for (long i = 0; i < FIFO_WORK; i++)
			p->other++;
		_exit(p->normal - before < FIFO_WORK / 4 ? 0 : 1);
	}
	int status = wait_status(fifo);
	p->stop = 1;
	expect_exited(wait_status(normal), 0, "the normal spinner");
	expect_exited(status, 0, "the FIFO task that the normal one did not keep pace with");
}

/*
 * A FIFO task that never stops still leaves the normal tasks of its CPU
 * what RT throttling holds back (sched_rt_runtime_us of
 * sched_rt_period_us): the normal spinner gets to its count and stops it.
 */
TEST(rt_throttling_lets_normal_run)
{
	need_root();
	CHECK_EQ(read_number("/proc/sys/kernel/sched_rt_runtime_us"), 950000);
	CHECK_EQ(read_number("/proc/sys/kernel/sched_rt_period_us"), 1000000);
	pin_to_one_cpu();
	struct progress *p = shared_progress();
	pid_t fifo = xfork();
	if (fifo == 0) {
		CHECK_OK(set_policy(0, SCHED_FIFO, 1));
		spin(&p->other, &p->stop);
	}
	while (p->other == 0)
		usleep(1000);
	for (long i = 0; i < 1000000; i++)
		p->normal++;
	p->stop = 1;
	expect_exited(wait_status(fifo), 0, "the FIFO spinner");
}

#define FALL_BEHIND 60000000L /* the normal spinner's count while the other falls behind */
#define SHARED_WORK 30000000L /* the other's count once it competes again */

/*
 * Forks a task that falls behind the normal spinner of its CPU (while the
 * spinner counts FALL_BEHIND; fall_behind returns then), then counts
 * SHARED_WORK. Left with the virtual time it had, it would keep the CPU
 * from the spinner for as long as the spinner had run meanwhile: long
 * enough to count SHARED_WORK, half of FALL_BEHIND, alone. Returns its
 * status: 0 when the spinner counted at least an eighth of SHARED_WORK
 * meanwhile (a fair share is as much or half as much, with a third task;
 * Linux 6.18 gives the returning task a head start of about 10 ms, rewind
 * one slice).
 */
static int
shares_after_falling_behind(struct progress *p, void (*fall_behind)(struct progress *))
{
	pid_t returner = xfork();

	if (returner == 0) {
		fall_behind(p);
		long before = p->normal;
		for (long i = 0; i < SHARED_WORK; i++)
			p->other++;
		_exit(p->normal - before >= SHARED_WORK / 8 ? 0 : 1);
	}
	return wait_status(returner);
}

/* FIFO while the spinner counts (in what RT throttling leaves it), then normal again. */
static void
behind_as_fifo(struct progress *p)
{
	CHECK_OK(set_policy(0, SCHED_FIFO, 1));
	long start = p->normal;
	while (p->normal - start < FALL_BEHIND)
		;
	CHECK_OK(set_policy(0, SCHED_OTHER, 0));
}

/*
 * A task that was FIFO while a normal one ran beside it on their CPU, and
 * is normal again, shares the CPU from then on: it is placed among the
 * normal tasks as a waking one is, not left with the virtual time it had
 * when it went RT (a trinity child starved its CPU for hours that way).
 */
TEST(rt_task_back_to_normal_shares_its_cpu)
{
	need_root();
	pin_to_one_cpu();
	struct progress *p = shared_progress();
	pid_t normal = spinner(&p->normal, &p->stop);
	int status = shares_after_falling_behind(p, behind_as_fifo);
	p->stop = 1;
	expect_exited(wait_status(normal), 0, "the normal spinner");
	expect_exited(status, 0, "the task back from FIFO that the normal spinner kept pace with");
}

/* Yields while the spinners count: each time, the others run a slice and it runs next to none. */
static void
behind_by_yielding(struct progress *p)
{
	long start = p->normal;

	while (p->normal - start < FALL_BEHIND)
		sched_yield();
}

/*
 * A task that yielded again and again while two spinners ran on its CPU,
 * then spins, shares the CPU with them. rewind put a yielding task at the
 * tail of its queue, where the queue's least virtual time (read from the
 * head) passed it, and never raised it: every round of yields left it a
 * slice of each spinner further behind, and once it spun it kept the CPU
 * that long (one way a trinity child that held its CPU for minutes could
 * have fallen 340 s behind). Two spinners, not one: with one, the yielder is
 * the head while the other runs, and the least cannot pass it.
 */
TEST(yielding_task_shares_its_cpu)
{
	pin_to_one_cpu();
	struct progress *p = shared_progress();
	pid_t normal = spinner(&p->normal, &p->stop);
	pid_t bystander = spinner(&p->bystander, &p->stop);
	int status = shares_after_falling_behind(p, behind_by_yielding);
	p->stop = 1;
	expect_exited(wait_status(normal), 0, "the normal spinner");
	expect_exited(wait_status(bystander), 0, "the second spinner");
	expect_exited(status, 0, "the yielder that the normal spinner kept pace with");
}

#define FALL_AHEAD 30000000L /* the nice-19 spinner's count while its queue runs ahead */

/* A child that runs on cpu only, at nice, and spins. */
static pid_t
spinner_on(int cpu, int nice, volatile long *counter, volatile int *stop)
{
	pid_t pid = xfork();

	if (pid == 0) {
		run_on_cpu(cpu);
		CHECK_OK(setpriority(PRIO_PROCESS, 0, nice));
		spin(counter, stop);
	}
	return pid;
}

/*
 * A process forked on one CPU whose child starts on another shares that
 * CPU with the spinner there. A nice-19 spinner alone on the first CPU
 * (weight 15 against nice 0's 1024) makes that queue's virtual time run
 * about 68 times as fast as the second's, where a nice-0 spinner runs.
 * The parent waits on the second CPU (a task that wakes up on the first
 * is placed near its least and holds it back while queued), moves to the
 * first and may use both when it forks, so rewind starts the child on
 * the second, the shorter queue; the child then pins itself there
 * (Linux places it as it likes) and counts SHARED_WORK. The spinner there
 * must count less than 8 times that since the fork (a fair share is
 * about as much). rewind gave the child its parent's virtual time as it
 * was, about 67 times the first CPU's run time ahead of the second's
 * least, so the child waited behind the spinner that long (trinity's
 * main process waited minutes for such children); the child now carries
 * its lead over its parent's queue's least to its own queue.
 */
TEST(child_started_on_another_cpu_shares_it)
{
	int ahead = allowed_cpu(0), behind = allowed_cpu(1);

	if (behind < 0)
		skip("needs two CPUs");
	struct progress *p = shared_progress();
	pid_t there = spinner_on(behind, 0, &p->normal, &p->stop);
	pid_t fast = spinner_on(ahead, 19, &p->bystander, &p->stop);
	run_on_cpu(behind); /* waking up on the first CPU would hold its least back */
	while (p->bystander < FALL_AHEAD || p->normal == 0)
		usleep(1000);
	run_on_cpu(ahead);
	cpu_set_t both;
	CPU_ZERO(&both);
	CPU_SET(ahead, &both);
	CPU_SET(behind, &both);
	run_on(&both);
	long before = p->normal;
	pid_t child = xfork();
	if (child == 0) {
		run_on_cpu(behind);
		for (long i = 0; i < SHARED_WORK; i++)
			p->other++;
		_exit(p->normal - before < 8 * SHARED_WORK ? 0 : 1);
	}
	int status = wait_status(child);
	p->stop = 1;
	expect_exited(wait_status(there), 0, "the spinner on the second CPU");
	expect_exited(wait_status(fast), 0, "the nice-19 spinner");
	expect_exited(status, 0, "the child that the spinner on its CPU did not outrun");
}

/*
 * Nice 0 against nice 10 on one CPU: weights 1024 and 110, a share of
 * ~9:1. Checked as at least 3:1 once the nice-0 spinner has counted far.
 */
TEST(nice_weights_share_a_cpu)
{
	pin_to_one_cpu();
	struct progress *p = shared_progress();
	pid_t low = xfork();
	if (low == 0) {
		CHECK_OK(setpriority(PRIO_PROCESS, 0, 10));
		spin(&p->other, &p->stop);
	}
	pid_t normal = spinner(&p->normal, &p->stop);
	while (p->normal < 100000000L)
		usleep(10000);
	p->stop = 1;
	long ratio_x10 = p->normal * 10 / (p->other + 1);
	expect_exited(wait_status(low), 0, "the nice-10 spinner");
	expect_exited(wait_status(normal), 0, "the nice-0 spinner");
	if (ratio_x10 < 30)
		fail("nice 0 counted %ld, nice 10 %ld: a ratio of %ld.%ld, want at least 3",
		     p->normal, p->other, ratio_x10 / 10, ratio_x10 % 10);
}

TEST(rt_throttling_settings)
{
	need_root();
	long runtime = read_number("/proc/sys/kernel/sched_rt_runtime_us");
	CHECK(runtime <= (long)read_number("/proc/sys/kernel/sched_rt_period_us"));
	int fd = CHECK_OK(open("/proc/sys/kernel/sched_rt_runtime_us", O_WRONLY));
	CHECK_ERR(EINVAL, write(fd, "2000000000\n", 11)); /* above the period */
	close(fd);
	CHECK_EQ((long)read_number("/proc/sys/kernel/sched_rt_runtime_us"), runtime);
}
