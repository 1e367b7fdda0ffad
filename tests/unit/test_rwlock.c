/*
 * test_rwlock.c - host tests of the reader-writer spinlock
 * (locking/rwlock.h, locking/rwlock.c) on real host threads: readers
 * share it (two readers each wait inside for the other), a writer excludes
 * everyone, a writer waiting for a reader bars the readers that come after
 * it (fair to writers), and a stress of readers and writers that checks
 * exclusion. The waits here are on what the other thread did, never on
 * time. The instrumented reader paths (lockstat, lockdebug) are
 * spinlock.c's and need a kernel's per-CPU records: a boot with
 * lockdebug=1 runs them.
 */
#include <pthread.h>
#include "tests/unit/unit.h"
#include "locking/rwlock.c"

static struct rwlock lock;
static int step; /* how far the scripted threads got */

static void
wait_step(int at_least)
{
	while (__atomic_load_n(&step, __ATOMIC_ACQUIRE) < at_least)
		cpu_relax();
}

static void
next_step(void)
{
	__atomic_add_fetch(&step, 1, __ATOMIC_RELEASE);
}

static void
run_two(void *(*a)(void *), void *(*b)(void *))
{
	pthread_t ta, tb;

	rwlock_init(&lock, "test");
	step = 0;
	pthread_create(&ta, NULL, a, NULL);
	pthread_create(&tb, NULL, b, NULL);
	pthread_join(ta, NULL);
	pthread_join(tb, NULL);
	CHECK_EQ(lock.cnts, 0);
	CHECK(!spin_is_locked(&lock.wait_lock));
}

/* Each reader enters, then waits inside until the other is in too. */
static void *
sharing_reader(void *arg)
{
	(void)arg;
	read_lock(&lock);
	next_step();
	wait_step(2);
	read_unlock(&lock);
	return NULL;
}

UNIT_TEST(two_readers_hold_it_at_once)
{
	run_two(sharing_reader, sharing_reader);
	CHECK_EQ(step, 2);
}

static int order[3], norder;

static void
log_in(int who)
{
	order[__atomic_fetch_add(&norder, 1, __ATOMIC_SEQ_CST)] = who;
}

static void *
late_reader(void *arg)
{
	(void)arg;
	wait_step(1); /* the writer waits for the first reader */
	read_lock(&lock);
	log_in(2);
	read_unlock(&lock);
	return NULL;
}

static void *
waiting_writer(void *arg)
{
	(void)arg;
	write_lock(&lock);
	log_in(1);
	write_unlock(&lock);
	return NULL;
}

/*
 * Reader 0 holds the lock; a writer comes and waits for it; then reader 2
 * comes. Reader 2 must queue behind the writer, not join reader 0: a
 * stream of overlapping readers would otherwise starve the writer.
 */
UNIT_TEST(a_waiting_writer_bars_later_readers)
{
	pthread_t writer, reader;

	rwlock_init(&lock, "test");
	step = norder = 0;
	read_lock(&lock);
	pthread_create(&writer, NULL, waiting_writer, NULL);
	while (!(__atomic_load_n(&lock.cnts, __ATOMIC_ACQUIRE) & RW_WRITER))
		cpu_relax();
	pthread_create(&reader, NULL, late_reader, NULL);
	next_step();
	/* Reader 2 has queued on wait_lock behind the writer's ticket. */
	while (__atomic_load_n(&lock.wait_lock.next, __ATOMIC_ACQUIRE) - lock.wait_lock.owner < 2)
		cpu_relax();
	CHECK_EQ(__atomic_load_n(&norder, __ATOMIC_SEQ_CST), 0);
	log_in(0);
	read_unlock(&lock);
	pthread_join(writer, NULL);
	pthread_join(reader, NULL);
	CHECK_EQ(norder, 3);
	CHECK_EQ(order[0], 0);
	CHECK_EQ(order[1], 1);
	CHECK_EQ(order[2], 2);
	CHECK_EQ(lock.cnts, 0);
}

static void *
reader_behind_writer(void *arg)
{
	(void)arg;
	wait_step(1);
	read_lock(&lock);
	CHECK_EQ(step, 2); /* the writer was done first */
	read_unlock(&lock);
	return NULL;
}

static void *
writer_first(void *arg)
{
	(void)arg;
	write_lock(&lock);
	next_step();
	/* The reader gets to the lock, sees the writer bit and queues. */
	while (__atomic_load_n(&lock.wait_lock.next, __ATOMIC_ACQUIRE) - lock.wait_lock.owner < 2)
		cpu_relax();
	next_step();
	write_unlock(&lock);
	return NULL;
}

UNIT_TEST(a_reader_waits_for_the_writer_in)
{
	run_two(reader_behind_writer, writer_first);
}

/* ---- stress: exclusion under random mixes ---------------------------------------------- */

#define STRESS_THREADS 4
#define STRESS_ROUNDS  20000

static int readers_in, writers_in, broken;
static u64 shared_a, shared_b; /* a writer keeps them equal; readers check */

static void *
stress(void *arg)
{
	u64 seed = (u64)(uintptr_t)arg * 0x9e3779b97f4a7c15ull + 1;

	for (int i = 0; i < STRESS_ROUNDS; i++) {
		seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
		if (seed % 8 == 0) {
			write_lock(&lock);
			if (__atomic_add_fetch(&writers_in, 1, __ATOMIC_SEQ_CST) != 1 ||
			    __atomic_load_n(&readers_in, __ATOMIC_SEQ_CST) != 0)
				__atomic_add_fetch(&broken, 1, __ATOMIC_SEQ_CST);
			shared_a++;
			shared_b++;
			__atomic_sub_fetch(&writers_in, 1, __ATOMIC_SEQ_CST);
			write_unlock(&lock);
		} else {
			read_lock(&lock);
			__atomic_add_fetch(&readers_in, 1, __ATOMIC_SEQ_CST);
			if (__atomic_load_n(&writers_in, __ATOMIC_SEQ_CST) != 0 ||
			    READ_ONCE(shared_a) != READ_ONCE(shared_b))
				__atomic_add_fetch(&broken, 1, __ATOMIC_SEQ_CST);
			__atomic_sub_fetch(&readers_in, 1, __ATOMIC_SEQ_CST);
			read_unlock(&lock);
		}
	}
	return NULL;
}

UNIT_TEST(stress_keeps_writers_alone)
{
	pthread_t t[STRESS_THREADS];

	rwlock_init(&lock, "test");
	for (uintptr_t i = 0; i < STRESS_THREADS; i++)
		pthread_create(&t[i], NULL, stress, (void *)i);
	for (int i = 0; i < STRESS_THREADS; i++)
		pthread_join(t[i], NULL);
	CHECK_EQ(broken, 0);
	CHECK_EQ(shared_a, shared_b);
	CHECK(shared_a > 0);
	CHECK_EQ(lock.cnts, 0);
	CHECK(!spin_is_locked(&lock.wait_lock));
}
