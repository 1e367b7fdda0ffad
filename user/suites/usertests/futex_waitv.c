/*
 * futex_waitv.c - usertests: futex_waitv(2), a wait on several futex
 * words at once: the index of the one woken, a changed word (EAGAIN), an
 * absolute deadline on either clock (ETIMEDOUT), and the errnos of bad
 * waiters.
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "uapi/futex.h"

#ifndef SYS_futex_waitv
#define SYS_futex_waitv 449
#endif

typedef struct kernel_futex_waitv waiter_t;

static long
futex_waitv(waiter_t *ws, unsigned n, struct timespec *deadline, int clock)
{
	return syscall(SYS_futex_waitv, ws, n, 0, deadline, clock);
}

static struct timespec
deadline_in_ms(int clock, long ms)
{
	struct timespec t;

	clock_gettime(clock, &t);
	t.tv_nsec += ms * 1000000;
	t.tv_sec += t.tv_nsec / 1000000000;
	t.tv_nsec %= 1000000000;
	return t;
}

static void
set_waiters(waiter_t *ws, uint32_t *words, unsigned n, uint32_t flags)
{
	for (unsigned i = 0; i < n; i++)
		ws[i] = (waiter_t){ .val = words[i],
				    .uaddr = (uintptr_t)&words[i],
				    .flags = FUTEX_32 | flags };
}

TEST(futex_waitv_errors)
{
	static uint32_t words[129];
	static waiter_t ws[129];
	struct timespec past = { 0, 0 };

	set_waiters(ws, words, 129, FUTEX_PRIVATE_FLAG);
	CHECK_ERR(EINVAL, futex_waitv(ws, 129, &past, CLOCK_MONOTONIC)); /* over 128 */
	CHECK_ERR(EINVAL, futex_waitv(ws, 0, &past, CLOCK_MONOTONIC));
	CHECK_ERR(EINVAL, futex_waitv(NULL, 1, &past, CLOCK_MONOTONIC));
	CHECK_ERR(EINVAL, futex_waitv(ws, 1, &past, CLOCK_TAI));
	CHECK_ERR(EINVAL, syscall(SYS_futex_waitv, ws, 1, 1, &past, CLOCK_MONOTONIC));
	ws[0].flags = FUTEX_PRIVATE_FLAG; /* no size */
	CHECK_ERR(EINVAL, futex_waitv(ws, 1, &past, CLOCK_MONOTONIC));
	ws[0].flags = FUTEX_32;
	ws[0].uaddr = 1; /* unaligned */
	CHECK_ERR(EINVAL, futex_waitv(ws, 1, &past, CLOCK_MONOTONIC));
	ws[0].uaddr = 0;
	CHECK_ERR(EFAULT, futex_waitv(ws, 1, &past, CLOCK_MONOTONIC));
	CHECK_ERR(EFAULT, futex_waitv((waiter_t *)1, 1, &past, CLOCK_MONOTONIC));
	set_waiters(ws, words, 2, 0);
	ws[1].val = 1; /* the word holds 0 */
	CHECK_ERR(EAGAIN, futex_waitv(ws, 2, &past, CLOCK_MONOTONIC));
}

TEST(futex_waitv_deadline)
{
	uint32_t words[3] = { 0, 0, 0 };
	waiter_t ws[3];
	struct timespec mono = deadline_in_ms(CLOCK_MONOTONIC, 20);
	struct timespec real = deadline_in_ms(CLOCK_REALTIME, 20);

	set_waiters(ws, words, 3, FUTEX_PRIVATE_FLAG);
	CHECK_ERR(ETIMEDOUT, futex_waitv(ws, 3, &mono, CLOCK_MONOTONIC));
	CHECK_ERR(ETIMEDOUT, futex_waitv(ws, 3, &real, CLOCK_REALTIME));
}

/* A child waits on three shared words; a wake of the third gives its index, 2. */
TEST(futex_waitv_wakes_index)
{
	uint32_t *words =
		mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	CHECK(words != MAP_FAILED);
	memset(words, 0, 4096);
	pid_t child = CHECK_OK(fork());
	if (child == 0) {
		waiter_t ws[3];
		set_waiters(ws, words, 3, 0);
		long woken = futex_waitv(ws, 3, NULL, 0);
		_exit(woken == 2 ? 0 : 10 + (int)woken);
	}
	wait_until_asleep(child);
	/* Wake until it is gone: a wake that comes before it queued itself finds no one. */
	while (syscall(SYS_futex, &words[2], FUTEX_WAKE, 1, NULL, NULL, 0) == 0)
		wait_until_asleep(child);
	expect_exit(child, 0, "the waiter");
}
