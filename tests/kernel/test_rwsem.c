/*
 * test_rwsem.c - the rwsem torture test: two kernel threads per CPU
 * hammer one rwsem with a mix of down_read, down_write, the trylocks and
 * downgrade_write, under every rwsem_spin policy, and once while another
 * thread switches the policy every millisecond.
 *
 * What is checked is exclusion, never speed: a writer increments a plain
 * counter with a read, a pause and a write (so two writers at once would
 * lose an update), and the threads count their own increments - the sum
 * must equal the counter ("lost updates", which must be 0). Writers and
 * readers also count who is inside: a writer must find nobody, a reader
 * no writer, and a reader must see the counter unchanged across its
 * section. Each run stops at a deadline or an iteration cap, whichever
 * comes first, so it takes a bounded time on a slow guest; the figures
 * printed are for reading, not asserted.
 */
#include "kernel/ktest.h"
#include "kernel/x86/percpu.h"
#include "kernel/sched/sched.h"
#include "kernel/time/tsc.h"
#include "locking/rwsem.h"
#include "locking/rwsem_policy.h"

extern int rwsem_spin;

#define THREADS_PER_CPU 2
#define MAX_THREADS	(2 * MAX_CPUS)
#define MAX_ROUNDS	4000 /* per thread */
#define RUN_MS		120  /* per policy, at most */

struct torture {
	struct rwsem sem;
	u64 counter; /* written under the write lock only */
	int writers_inside, readers_inside;
	u64 violations;
	u64 writes[MAX_THREADS], sections[MAX_THREADS];
	u64 deadline;
	int running;
	bool switching; /* a thread flips rwsem_spin meanwhile */
};

static struct torture tt;

static u64
xorshift(u64 *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void
hold_a_while(u64 r)
{
	for (u64 i = r % 64; i; i--)
		cpu_relax();
}

static void
violation(void)
{
	__atomic_fetch_add(&tt.violations, 1, __ATOMIC_RELAXED);
}

/* Inside the lock as a reader: no writer, and the counter holds still. */
static void
read_section(u64 r)
{
	__atomic_fetch_add(&tt.readers_inside, 1, __ATOMIC_ACQ_REL);
	if (__atomic_load_n(&tt.writers_inside, __ATOMIC_ACQUIRE))
		violation();
	u64 before = READ_ONCE(tt.counter);
	hold_a_while(r);
	if (READ_ONCE(tt.counter) != before)
		violation();
	__atomic_fetch_sub(&tt.readers_inside, 1, __ATOMIC_ACQ_REL);
}

/* Inside as the writer: nobody else, and an increment that a second writer would break. */
static void
write_section(u64 r, int me)
{
	if (__atomic_fetch_add(&tt.writers_inside, 1, __ATOMIC_ACQ_REL) != 0 ||
	    __atomic_load_n(&tt.readers_inside, __ATOMIC_ACQUIRE))
		violation();
	u64 c = READ_ONCE(tt.counter);
	hold_a_while(r);
	WRITE_ONCE(tt.counter, c + 1);
	tt.writes[me]++;
	__atomic_fetch_sub(&tt.writers_inside, 1, __ATOMIC_ACQ_REL);
}

static void
torture_thread(void *arg)
{
	int me = (int)(long)arg;
	u64 seed = 0x9e3779b97f4a7c15ull * (u64)(me + 1);

	for (int i = 0; i < MAX_ROUNDS && rdtsc() < tt.deadline; i++) {
		u64 r = xorshift(&seed);
		unsigned kind = (unsigned)(r >> 40) % 16;
		if (kind < 9) {
			down_read(&tt.sem);
			read_section(r);
			up_read(&tt.sem);
		} else if (kind == 9) {
			if (down_read_trylock(&tt.sem)) {
				read_section(r);
				up_read(&tt.sem);
			}
		} else if (kind == 10) {
			if (down_write_trylock(&tt.sem)) {
				write_section(r, me);
				up_write(&tt.sem);
			}
		} else if (kind == 11) {
			down_write(&tt.sem);
			write_section(r, me);
			downgrade_write(&tt.sem);
			read_section(r);
			up_read(&tt.sem);
		} else {
			down_write(&tt.sem);
			write_section(r, me);
			up_write(&tt.sem);
		}
		tt.sections[me]++;
		if (READ_ONCE(this_cpu()->need_resched))
			schedule(); /* kernel threads are never preempted: give the CPU up */
	}
	__atomic_fetch_sub(&tt.running, 1, __ATOMIC_RELEASE);
}

static void
switcher_thread(void *arg)
{
	int p = 0;

	while (__atomic_load_n(&tt.running, __ATOMIC_ACQUIRE) > 1) {
		WRITE_ONCE(rwsem_spin, p);
		p = (p + 1) % RWSEM_SPIN_POLICIES;
		sleep_ns(1000000);
	}
	__atomic_fetch_sub(&tt.running, 1, __ATOMIC_RELEASE);
}

/* One run; returns the lost updates. The caller has set the policy the lock is made under. */
static u64
torture(const char *what, bool switching)
{
	int threads = (int)MIN(ncpus * THREADS_PER_CPU, (unsigned)MAX_THREADS);
	u64 writes = 0, sections = 0, t0 = rdtsc();

	tt = (struct torture){ .switching = switching };
	rwsem_init(&tt.sem, "ktest_torture");
	tt.deadline = t0 + tsc_hz / 1000 * RUN_MS;
	tt.running = threads + (switching ? 1 : 0);
	for (int i = 0; i < threads; i++)
		if (!kthread_start_on("rwsem_torture", torture_thread, (void *)(long)i,
				      1ul << (i % ncpus)))
			__atomic_fetch_sub(&tt.running, 1, __ATOMIC_RELEASE);
	if (switching && !kthread_start("rwsem_switch", switcher_thread, NULL))
		__atomic_fetch_sub(&tt.running, 1, __ATOMIC_RELEASE);
	while (__atomic_load_n(&tt.running, __ATOMIC_ACQUIRE))
		schedule();
	for (int i = 0; i < threads; i++) {
		writes += tt.writes[i];
		sections += tt.sections[i];
	}
	u64 lost = writes - tt.counter;
	pr_info("ktest:     rwsem torture %-14s %d threads, %lu sections (%lu writes) in %lu ms, "
		"%lu lost updates, %lu violations\n",
		what, threads, sections, writes, tsc_cycles_to_ns(rdtsc() - t0) / 1000000, lost,
		tt.violations);
	CHECK_EQ(tt.violations, 0);
	CHECK(!rwsem_is_locked(&tt.sem));
	CHECK(list_empty(&tt.sem.wait_list));
	CHECK(!osq_is_locked(&tt.sem.osq));
	return lost;
}

KTEST(rwsem_torture_under_every_policy)
{
	int was = READ_ONCE(rwsem_spin);

	for (int p = 0; p < RWSEM_SPIN_POLICIES; p++) {
		WRITE_ONCE(rwsem_spin, p);
		CHECK_EQ(torture(rwsem_policy_name((unsigned)p), false), 0);
		CHECK_EQ(tt.sem.layout,
			 p == RWSEM_SPIN_HANDOFF ? RWSEM_LAYOUT_BITS : RWSEM_LAYOUT_XADD);
	}
	WRITE_ONCE(rwsem_spin, was);
}

KTEST(rwsem_torture_while_the_policy_switches)
{
	int was = READ_ONCE(rwsem_spin);

	WRITE_ONCE(rwsem_spin, RWSEM_SPIN_OFF); /* an xadd lock: every policy acts on it */
	CHECK_EQ(torture("(switching)", true), 0);
	WRITE_ONCE(rwsem_spin, was);
}
