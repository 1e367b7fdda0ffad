/*
 * robust_futex.c - usertests: robust futex lists. When a thread dies
 * holding a robust mutex, the kernel marks the mutex's word
 * FUTEX_OWNER_DIED and wakes a waiter, so that the next locker gets
 * EOWNERDEAD instead of waiting forever; get_robust_list reads the list
 * head back, for whoever may inspect the thread (docs/robustness.md, review 2 row 18).
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "uapi/futex.h" /* struct robust_list_head: musl has no <linux/futex.h> */

static void *
shared_page(void)
{
	void *p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	CHECK(p != MAP_FAILED);
	return p;
}

/* A process-shared robust mutex in memory shared with the children forked later. */
static pthread_mutex_t *
shared_robust_mutex(void)
{
	pthread_mutex_t *m = shared_page();
	pthread_mutexattr_t a;

	CHECK_EQ(pthread_mutexattr_init(&a), 0);
	CHECK_EQ(pthread_mutexattr_setpshared(&a, PTHREAD_PROCESS_SHARED), 0);
	CHECK_EQ(pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST), 0);
	CHECK_EQ(pthread_mutex_init(m, &a), 0);
	return m;
}

/* A child that takes m, says so on ready, holds it for ms and exits without unlocking. */
static pid_t
owner_that_dies(pthread_mutex_t *m, int ready, int ms)
{
	pid_t pid = xfork();

	if (pid == 0) {
		struct timespec hold = { 0, (long)ms * 1000000 };
		if (pthread_mutex_lock(m) != 0 || write(ready, "l", 1) != 1)
			_exit(2);
		nanosleep(&hold, NULL);
		_exit(0); /* no unlock: only the kernel can tell the waiter */
	}
	return pid;
}

TEST(robust_mutex_owner_dies)
{
	pthread_mutex_t *m = shared_robust_mutex();
	int ready[2];
	char c;

	CHECK_OK(pipe(ready));
	/* A waiter asleep when the owner dies is woken with EOWNERDEAD. */
	pid_t owner = owner_that_dies(m, ready[1], 200);
	CHECK_EQ(read(ready[0], &c, 1), 1);
	struct timespec limit;
	clock_gettime(CLOCK_REALTIME, &limit);
	limit.tv_sec += 10;
	int r = pthread_mutex_timedlock(m, &limit);
	if (r != EOWNERDEAD)
		fail("waiting on a dead owner's robust mutex: %s, want EOWNERDEAD", errname(r));
	expect_exit(owner, 0, "the owner");
	CHECK_EQ(pthread_mutex_consistent(m), 0);
	CHECK_EQ(pthread_mutex_unlock(m), 0);

	/* Taken after the owner died: EOWNERDEAD at once. */
	owner = owner_that_dies(m, ready[1], 0);
	expect_exit(owner, 0, "the second owner");
	CHECK_EQ(pthread_mutex_lock(m), EOWNERDEAD);
	CHECK_EQ(pthread_mutex_consistent(m), 0);
	CHECK_EQ(pthread_mutex_unlock(m), 0);
}

/* A robust list built by hand in shared memory: mutexes of a link and a word, as libc's. */
struct hand_mutex {
	struct robust_list link;
	uint32_t word;
};

struct hand_list {
	struct robust_list_head head;
	struct hand_mutex m[4];
};

static long
set_list(struct robust_list_head *head)
{
	return syscall(SYS_set_robust_list, head, sizeof(*head));
}

/* Links entries 0..n-1 after the head (the last back to the head). */
static void
link_entries(struct hand_list *l, int n)
{
	l->head.futex_offset = offsetof(struct hand_mutex, word);
	l->head.list.next = n ? &l->m[0].link : &l->head.list;
	for (int i = 0; i < n; i++)
		l->m[i].link.next = i + 1 < n ? &l->m[i + 1].link : &l->head.list;
}

/*
 * What the kernel does with each word at a raw exit (no libc walk): its
 * own words get FUTEX_OWNER_DIED (FUTEX_WAITERS kept), another thread's
 * stay, and list_op_pending is handled as well.
 */
TEST(robust_list_walked_at_exit)
{
	struct hand_list *l = shared_page();
	pid_t pid = xfork();

	if (pid == 0) {
		uint32_t tid = (uint32_t)getpid();
		link_entries(l, 3);
		l->m[0].word = tid | FUTEX_WAITERS;
		l->m[1].word = tid + 1; /* someone else's */
		l->m[2].word = tid;
		l->m[3].word = tid; /* entry 3: being locked, not yet listed */
		l->head.list_op_pending = &l->m[3].link;
		if (set_list(&l->head))
			_exit(2);
		struct robust_list_head *got;
		size_t len;
		if (syscall(SYS_get_robust_list, 0, &got, &len) || got != &l->head ||
		    len != sizeof(*got))
			_exit(3);
		syscall(SYS_exit, 0);
	}
	expect_exit(pid, 0, "the owner");
	CHECK(l->m[0].word == (FUTEX_WAITERS | FUTEX_OWNER_DIED));
	CHECK(l->m[1].word == (uint32_t)pid + 1);
	CHECK(l->m[2].word == FUTEX_OWNER_DIED);
	CHECK(l->m[3].word == FUTEX_OWNER_DIED);
}

/* Lists that are not lists: the walk is bounded, faults stop it, and the thread still exits. */
TEST(robust_list_hostile)
{
	struct hand_list *l = shared_page();
	uint32_t *readonly = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	static const int cases = 3;

	CHECK(readonly != MAP_FAILED);
	for (int i = 0; i < cases; i++) {
		pid_t pid = xfork();
		if (pid == 0) {
			uint32_t tid = (uint32_t)getpid();
			link_entries(l, 1);
			l->m[0].word = tid;
			if (i == 0)
				l->m[0].link.next = &l->m[0].link; /* a cycle */
			if (i == 1)
				l->m[0].link.next = (struct robust_list *)8; /* a bad pointer */
			if (i == 2) /* a word it may not write */
				l->head.futex_offset =
					(long)((char *)readonly - (char *)&l->m[0].link);
			if (set_list(&l->head))
				_exit(2);
			syscall(SYS_exit, 0);
		}
		expect_exit(pid, 0, "an owner with a hostile robust list");
		if (i < 2)
			CHECK(l->m[0].word == FUTEX_OWNER_DIED);
	}
	CHECK_EQ(*readonly, 0);
}

static void
robust_list_of_init(const char *unused)
{
	struct robust_list_head *head;
	size_t len;

	(void)unused;
	CHECK_ERR(EPERM, syscall(SYS_get_robust_list, 1, &head, &len));
}

TEST(get_robust_list_errors)
{
	struct robust_list_head *head;
	size_t len;

	CHECK_ERR(EINVAL, syscall(SYS_set_robust_list, NULL, sizeof(*head) + 1));
	CHECK_ERR(ESRCH, syscall(SYS_get_robust_list, 0x3fffffff, &head, &len));
	CHECK_ERR(EFAULT, syscall(SYS_get_robust_list, 0, (void *)8, &len));
	CHECK_ERR(EFAULT, syscall(SYS_get_robust_list, 0, &head, (void *)8));
	CHECK_OK(syscall(SYS_get_robust_list, getpid(), &head, &len));
	CHECK_EQ(len, sizeof(*head));
	as_nobody(robust_list_of_init, NULL);
}
