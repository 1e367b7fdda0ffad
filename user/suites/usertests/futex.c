/*
 * futex.c - usertests: futexes across processes through shared memory
 * (no threads; pthreadtests has those): values, timeouts, wake-ups,
 * bitsets, requeues, and the errors.
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "uapi/futex.h" /* musl has no <linux/futex.h> */

#define WAITER_LIMIT_NS (10 * 1000000000LL) /* far longer than any wake-up here takes */

static long
futex(uint32_t *word, int op, uint32_t val, const struct timespec *timeout, uint32_t val3)
{
	return syscall(SYS_futex, word, op, val, timeout, NULL, val3);
}

/* The requeues take a count where the waits take a timeout. */
static long
futex_requeue(uint32_t *from, int op, int nr_wake, long nr_requeue, uint32_t *to, uint32_t val3)
{
	return syscall(SYS_futex, from, op, nr_wake, nr_requeue, to, val3);
}

/* Words that this process and its children share: the page is faulted in before any fork. */
static uint32_t *
shared_words(void)
{
	uint32_t *p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		fail("mmap of a shared anonymous page failed with %s", errname(errno));
	memset(p, 0, PAGE);
	return p;
}

/* The first page of the file at path, mapped on its own by the calling process. */
static uint32_t *
file_words(const char *path, int prot, int flags)
{
	int fd = CHECK_OK(open(path, O_RDWR));
	uint32_t *p = mmap(NULL, PAGE, prot, flags, fd, 0);

	if (p == MAP_FAILED)
		fail("mmap of %s failed with %s", path, errname(errno));
	close(fd);
	return p;
}

/* The time ns from now on clock, as an absolute timespec. */
static struct timespec
time_in(clockid_t clock, long long ns)
{
	struct timespec ts;

	CHECK_OK(clock_gettime(clock, &ts));
	ns += ts.tv_sec * 1000000000LL + ts.tv_nsec;
	return (struct timespec){ ns / 1000000000LL, ns % 1000000000LL };
}

/*
 * A forked child's wait on *word (which holds 0): it must end with a
 * wake-up (0), not the long time limit, or the child fails.
 */
static void __attribute__((noreturn)) wait_to_be_woken(uint32_t *word, int op, uint32_t bitset)
{
	struct timespec rel = { WAITER_LIMIT_NS / 1000000000LL, 0 };
	struct timespec abs = time_in(CLOCK_MONOTONIC, WAITER_LIMIT_NS);
	long r = futex(word, op, 0, op == FUTEX_WAIT ? &rel : &abs, bitset);

	if (r != 0)
		fail("waiter: futex op %d returned %ld (%s), want 0 (woken)", op, r,
		     r < 0 ? errname(errno) : "?");
	_exit(0);
}

/*
 * How many wait on the futex at word, waking none: requeueing them onto
 * the same futex leaves them where they are and counts them (Linux refuses
 * that only for PI futexes). Unlike a sleeping state in /proc, this cannot
 * mistake some other sleep on the way to the wait for the wait itself.
 */
static long
futex_waiters(uint32_t *word)
{
	return CHECK_OK(futex_requeue(word, FUTEX_REQUEUE, 0, INT_MAX, word, 0));
}

/* Returns once n forked waiters are queued on the futex at word. */
static void
wait_for_waiters(uint32_t *word, long n)
{
	long long give_up = mono_ns() + WAITER_LIMIT_NS;

	while (futex_waiters(word) != n) {
		if (mono_ns() > give_up)
			fail("the futex has %ld waiters, want %ld", futex_waiters(word), n);
		nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
	}
}

TEST(futex_value)
{
	uint32_t word = 1, *shared = shared_words();
	/* Pages not there yet: the word is read (0) after faulting them in. */
	uint32_t *fresh = map_anon(PAGE, PROT_READ | PROT_WRITE);
	uint32_t *fresh_shared =
		mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	CHECK(fresh_shared != MAP_FAILED);
	CHECK_ERR(EAGAIN, futex(&word, FUTEX_WAIT, 0, NULL, 0));
	CHECK_ERR(EAGAIN, futex(&word, FUTEX_WAIT | FUTEX_PRIVATE_FLAG, 0, NULL, 0));
	CHECK_ERR(EAGAIN, futex(&word, FUTEX_WAIT_BITSET, 0, NULL, FUTEX_BITSET_MATCH_ANY));
	CHECK_ERR(EAGAIN, futex(shared, FUTEX_WAIT, 1, NULL, 0));
	CHECK_ERR(EAGAIN, futex(fresh, FUTEX_WAIT | FUTEX_PRIVATE_FLAG, 1, NULL, 0));
	CHECK_ERR(EAGAIN, futex(fresh + 1, FUTEX_WAIT, 1, NULL, 0));
	CHECK_ERR(EAGAIN, futex(fresh_shared, FUTEX_WAIT, 1, NULL, 0));
	/* An empty bitset matches nobody. */
	CHECK_ERR(EINVAL, futex(&word, FUTEX_WAIT_BITSET, 1, NULL, 0));
	CHECK_ERR(EINVAL, futex(&word, FUTEX_WAKE_BITSET, 1, NULL, 0));
}

TEST(futex_timeout)
{
	uint32_t word = 0;
	struct timespec rel = { 0, 50 * 1000000 }, abs;
	long long t0 = mono_ns();

	/* FUTEX_WAIT's timeout is relative: it lasts at least about that long (no upper bound). */
	CHECK_ERR(ETIMEDOUT, futex(&word, FUTEX_WAIT | FUTEX_PRIVATE_FLAG, 0, &rel, 0));
	CHECK(mono_ns() - t0 >= 40 * 1000000LL);
	/* FUTEX_WAIT_BITSET's is an absolute time, on CLOCK_MONOTONIC or CLOCK_REALTIME. */
	t0 = mono_ns();
	abs = time_in(CLOCK_MONOTONIC, 30 * 1000000LL);
	CHECK_ERR(ETIMEDOUT, futex(&word, FUTEX_WAIT_BITSET, 0, &abs, FUTEX_BITSET_MATCH_ANY));
	CHECK(mono_ns() - t0 >= 20 * 1000000LL);
	t0 = mono_ns();
	abs = time_in(CLOCK_REALTIME, 30 * 1000000LL);
	CHECK_ERR(ETIMEDOUT, futex(&word, FUTEX_WAIT_BITSET | FUTEX_CLOCK_REALTIME, 0, &abs, 1));
	CHECK(mono_ns() - t0 >= 20 * 1000000LL);
	/* A time already past ends the wait at once, but the value is compared first. */
	abs = time_in(CLOCK_MONOTONIC, 0);
	CHECK_ERR(ETIMEDOUT, futex(&word, FUTEX_WAIT_BITSET, 0, &abs, 1));
	CHECK_ERR(EAGAIN, futex(&word, FUTEX_WAIT_BITSET, 1, &abs, 1));
	CHECK_ERR(ETIMEDOUT, futex(&word, FUTEX_WAIT, 0, &(struct timespec){ 0, 0 }, 0));
	/* A malformed or unreadable timeout. */
	CHECK_ERR(EINVAL, futex(&word, FUTEX_WAIT, 0, &(struct timespec){ 0, 1000000000 }, 0));
	CHECK_ERR(EINVAL, futex(&word, FUTEX_WAIT_BITSET, 0, &(struct timespec){ -1, 0 }, 1));
	for (unsigned i = 0; i < NBAD; i++)
		CHECK_ERR(EFAULT, syscall(SYS_futex, &word, FUTEX_WAIT, 0, bad_addrs[i], NULL, 0));
}

TEST(futex_wake_none)
{
	uint32_t words[2] = { 0, 0 }, *shared = shared_words();

	CHECK_EQ(futex(words, FUTEX_WAKE | FUTEX_PRIVATE_FLAG, 1, NULL, 0), 0);
	CHECK_EQ(futex(words, FUTEX_WAKE, INT_MAX, NULL, 0), 0);
	CHECK_EQ(futex(shared, FUTEX_WAKE, 1, NULL, 0), 0);
	CHECK_EQ(futex(shared, FUTEX_WAKE_BITSET, 1, NULL, 0xff), 0);
	CHECK_EQ(futex_requeue(words, FUTEX_REQUEUE, 1, 1, shared, 0), 0);
	CHECK_EQ(futex_requeue(words, FUTEX_CMP_REQUEUE | FUTEX_PRIVATE_FLAG, 1, 1, &words[1], 0),
		 0);
	CHECK_ERR(EAGAIN, futex_requeue(words, FUTEX_CMP_REQUEUE, 1, 1, &words[1], 5));
	CHECK_ERR(EINVAL, futex_requeue(words, FUTEX_REQUEUE, -1, 1, &words[1], 0));
	CHECK_ERR(EINVAL, futex_requeue(words, FUTEX_CMP_REQUEUE, 1, -1, &words[1], 0));
}

TEST(futex_wake_child)
{
	uint32_t *shared = shared_words();
	char page[PAGE] = { 0 };
	pid_t pid = xfork();

	if (pid == 0)
		wait_to_be_woken(shared, FUTEX_WAIT, 0);
	wait_for_waiters(shared, 1);
	/* A private futex is this address space's own: the child's is another one. */
	CHECK_EQ(futex(shared, FUTEX_WAKE | FUTEX_PRIVATE_FLAG, 1, NULL, 0), 0);
	CHECK_EQ(futex(shared, FUTEX_WAKE, 1, NULL, 0), 1);
	expect_exit(pid, 0, "waiter on a shared anonymous page");

	/* A file page is one futex for every process that maps it, shared or privately. */
	make_file("f", page, sizeof(page));
	uint32_t *mine = file_words("f", PROT_READ | PROT_WRITE, MAP_SHARED);

	for (int flags = MAP_SHARED; flags <= MAP_PRIVATE; flags++) {
		pid = xfork();
		if (pid == 0)
			wait_to_be_woken(file_words("f", PROT_READ, flags), FUTEX_WAIT, 0);
		wait_for_waiters(mine, 1);
		CHECK_EQ(futex(mine, FUTEX_WAKE, 1, NULL, 0), 1);
		expect_exit(pid, 0,
			    flags == MAP_SHARED ? "waiter on a MAP_SHARED file"
						: "waiter on a MAP_PRIVATE file");
	}
}

TEST(futex_wake_bitset)
{
	uint32_t *shared = shared_words();
	pid_t pid = xfork();

	if (pid == 0)
		wait_to_be_woken(shared, FUTEX_WAIT_BITSET, 0x1);
	wait_for_waiters(shared, 1);
	CHECK_EQ(futex(shared, FUTEX_WAKE_BITSET, 1, NULL, 0x6), 0); /* no bit in common */
	CHECK_EQ(futex(shared, FUTEX_WAKE_BITSET, 1, NULL, 0x3), 1);
	expect_exit(pid, 0, "waiter");
}

TEST(futex_requeue)
{
	uint32_t *w = shared_words();
	pid_t pids[2];

	for (int i = 0; i < 2; i++) {
		pids[i] = xfork();
		if (pids[i] == 0)
			wait_to_be_woken(&w[0], FUTEX_WAIT, 0);
	}
	wait_for_waiters(&w[0], 2);
	/* CMP_REQUEUE acts only while the word holds val3; it counts woken and moved. */
	CHECK_ERR(EAGAIN, futex_requeue(&w[0], FUTEX_CMP_REQUEUE, 1, 1, &w[1], 1));
	CHECK_EQ(futex_requeue(&w[0], FUTEX_CMP_REQUEUE, 1, 1, &w[1], 0), 2);
	CHECK_EQ(futex(&w[0], FUTEX_WAKE, 1, NULL, 0), 0);
	CHECK_EQ(futex_requeue(&w[1], FUTEX_REQUEUE, 0, 1, &w[2], 0), 1);
	CHECK_EQ(futex(&w[1], FUTEX_WAKE, 1, NULL, 0), 0);
	CHECK_EQ(futex(&w[2], FUTEX_WAKE, INT_MAX, NULL, 0), 1);
	expect_exit(pids[0], 0, "first waiter");
	expect_exit(pids[1], 0, "second waiter");
}

/*
 * Takes the turns numbered mine, mine + 2, ... on *turn: waits for the
 * other side to pass it, passes it back and wakes the other side. A lost
 * wake-up shows as a wait that runs into the long time limit.
 */
static void
take_turns(uint32_t *turn, uint32_t mine, uint32_t rounds)
{
	struct timespec limit = { WAITER_LIMIT_NS / 1000000000LL, 0 };

	for (uint32_t t = mine; t < 2 * rounds; t += 2) {
		uint32_t seen;

		while ((seen = __atomic_load_n(turn, __ATOMIC_ACQUIRE)) != t)
			if (futex(turn, FUTEX_WAIT, seen, &limit, 0) < 0 && errno != EAGAIN)
				fail("turn %u: futex wait failed with %s", t, errname(errno));
		__atomic_store_n(turn, t + 1, __ATOMIC_RELEASE);
		futex(turn, FUTEX_WAKE, 1, NULL, 0);
	}
}

TEST(futex_pingpong)
{
	uint32_t *turn = shared_words();
	pid_t pid = xfork();

	if (pid == 0) {
		take_turns(turn, 1, 2000);
		_exit(0);
	}
	take_turns(turn, 0, 2000);
	expect_exit(pid, 0, "the other player");
	CHECK_EQ(*turn, 4000);
}

TEST(futex_errors)
{
	uint32_t words[2] = { 0, 0 };
	uint32_t *odd = (uint32_t *)((char *)words + 1);
	uint32_t *gone = map_anon(PAGE, PROT_READ | PROT_WRITE);

	CHECK_OK(munmap(gone, PAGE));
	/* A futex word is 4-byte aligned. */
	CHECK_ERR(EINVAL, futex(odd, FUTEX_WAIT, 0, NULL, 0));
	CHECK_ERR(EINVAL, futex(odd, FUTEX_WAKE | FUTEX_PRIVATE_FLAG, 1, NULL, 0));
	CHECK_ERR(EINVAL, futex_requeue(words, FUTEX_REQUEUE, 1, 1, odd, 0));
	/* Memory that is not mapped, or not the user's. A private wake reads nothing. */
	CHECK_ERR(EFAULT, futex(gone, FUTEX_WAIT, 0, NULL, 0));
	CHECK_ERR(EFAULT, futex(gone, FUTEX_WAIT | FUTEX_PRIVATE_FLAG, 0, NULL, 0));
	CHECK_ERR(EFAULT, futex(gone, FUTEX_WAKE, 1, NULL, 0));
	CHECK_EQ(futex(gone, FUTEX_WAKE | FUTEX_PRIVATE_FLAG, 1, NULL, 0), 0);
	CHECK_ERR(EFAULT, futex_requeue(words, FUTEX_CMP_REQUEUE, 1, 1, gone, 0));
	/* A shared key needs the page, which PROT_NONE does not give (LTP futex_wake05). */
	uint32_t *none = map_anon(PAGE, PROT_NONE);
	CHECK_ERR(EFAULT, futex(none, FUTEX_WAKE, 1, NULL, 0));
	CHECK_ERR(EFAULT, futex_requeue(words, FUTEX_CMP_REQUEUE, 1, 1, none, 0));
	CHECK_EQ(futex(none, FUTEX_WAKE | FUTEX_PRIVATE_FLAG, 1, NULL, 0), 0);
	CHECK_OK(munmap(none, PAGE));
	for (unsigned i = 1; i < NBAD; i++) { /* bad_addrs[0] is odd */
		uint32_t *bad = (uint32_t *)bad_addrs[i];

		CHECK_ERR(EFAULT, futex(bad, FUTEX_WAIT | FUTEX_PRIVATE_FLAG, 0, NULL, 0));
		CHECK_ERR(EFAULT, futex(bad, FUTEX_WAKE | FUTEX_PRIVATE_FLAG, 1, NULL, 0));
		CHECK_ERR(EFAULT, futex_requeue(words, FUTEX_REQUEUE, 1, 1, bad, 0));
	}
	/* Operations that do not exist (2 was FUTEX_FD), or that take no clock. */
	CHECK_ERR(ENOSYS, futex(words, 2, 0, NULL, 0));
	CHECK_ERR(ENOSYS, futex(words, 99, 0, NULL, 0));
	CHECK_ERR(ENOSYS, futex(words, FUTEX_WAKE | FUTEX_CLOCK_REALTIME, 1, NULL, 0));
	CHECK_ERR(ENOSYS, futex(words, FUTEX_WAIT | FUTEX_CLOCK_REALTIME, 1, NULL, 0));
}
