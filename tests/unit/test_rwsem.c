/*
 * test_rwsem.c - host tests of the rwsem state machine (locking/rwsem*.c),
 * the optimistic spin queue (locking/osq.c) and the mutex
 * (locking/mutex.c), on the fake scheduler of rwsem_host.h: the count
 * values each fast path leaves in both layouts, who gets the lock in what
 * order under each policy (3.15's leading-reader batch, 5.3's all-reader
 * wake, a spinning writer losing its place), lock stealing, the osq's
 * queue and its leaving from the middle, and a random stress under every
 * policy that checks exclusion and that nobody sleeps forever.
 */
#include "tests/unit/rwsem_host.h"
/* The code under test spins with cpu_relax(): here that lets the other tasks run. */
#define cpu_relax() fake_relax()
#include "locking/lockstat.c"
#include "locking/osq.c"
#include "locking/rwsem.c"
#include "locking/rwsem_xadd.c"
#include "locking/rwsem_bits.c"
#include "locking/mutex.c"

static struct rwsem sem;
static int policy;

/* A fresh lock made under policy p (which fixes its layout), p in force. */
static void
fresh(int p)
{
	policy = p;
	rwsem_spin = p;
	rwsem_init(&sem, "test");
	fake_clock_ns = 0;
	fake_tick = 64;
	memset(stats, 0, sizeof(stats));
	lock_knobs.any = 0;
	lock_knobs.stat = 1;
}

static int
queued(void)
{
	int n = 0;
	struct list_head *pos;

	list_for_each(pos, &sem.wait_list)
		n++;
	return n;
}

/* ---- fast paths ------------------------------------------------------------------------ */

static void
xadd_counts(int id)
{
	down_read(&sem);
	CHECK_EQ(sem.count, 1);
	CHECK(down_read_trylock(&sem));
	CHECK_EQ(sem.count, 2);
	CHECK(!down_write_trylock(&sem));
	up_read(&sem);
	up_read(&sem);
	CHECK_EQ(sem.count, 0);
	down_write(&sem);
	CHECK_EQ(sem.count, RWSEM_ACTIVE_WRITE_BIAS);
	CHECK_EQ(sem.owner, (unsigned long)current());
	CHECK(!down_read_trylock(&sem));
	CHECK(!down_write_trylock(&sem));
	downgrade_write(&sem);
	CHECK_EQ(sem.count, 1);
	up_read(&sem);
	CHECK_EQ(sem.count, 0);
	CHECK(down_write_trylock(&sem));
	up_write(&sem);
	CHECK_EQ(sem.count, 0);
	CHECK_EQ(sem.owner, 0);
}

UNIT_TEST(xadd_fast_paths_leave_the_biases)
{
	void (*fns[])(int) = { xadd_counts };

	fresh(RWSEM_SPIN_OFF);
	CHECK_EQ(sem.layout, RWSEM_LAYOUT_XADD);
	CHECK(fake_run(fns, 1));
	CHECK_EQ(RWSEM_ACTIVE_WRITE_BIAS, -0xffffffffl);
}

static void
bits_counts(int id)
{
	down_read(&sem);
	CHECK_EQ(sem.count, RWSEM_READER_BIAS);
	CHECK_EQ(sem.owner, (unsigned long)current() | RWSEM_BITS_READER_OWNED);
	CHECK(down_read_trylock(&sem));
	CHECK_EQ(sem.count, 2 * RWSEM_READER_BIAS);
	CHECK(!down_write_trylock(&sem));
	up_read(&sem);
	up_read(&sem);
	CHECK_EQ(sem.count, 0);
	down_write(&sem);
	CHECK_EQ(sem.count, RWSEM_WRITER_LOCKED);
	CHECK_EQ(sem.owner, (unsigned long)current());
	downgrade_write(&sem);
	CHECK_EQ(sem.count, RWSEM_READER_BIAS);
	up_read(&sem);
	CHECK_EQ(sem.count, 0);
}

UNIT_TEST(bits_fast_paths_leave_the_bits)
{
	void (*fns[])(int) = { bits_counts };

	fresh(RWSEM_SPIN_HANDOFF);
	CHECK_EQ(sem.layout, RWSEM_LAYOUT_BITS);
	CHECK(fake_run(fns, 1));
}

static void
reader_owned_marks(int id)
{
	down_read(&sem);
	CHECK_EQ(sem.owner, RWSEM_XADD_READER_OWNED);
	up_read(&sem);
	CHECK_EQ(sem.owner, RWSEM_XADD_READER_OWNED); /* readers never clear it */
	down_write(&sem);
	CHECK_EQ(sem.owner, (unsigned long)current());
	up_write(&sem);
	rwsem_spin = RWSEM_SPIN_OSQ; /* switched: readers leave the owner alone again */
	down_read(&sem);
	CHECK_EQ(sem.owner, 0);
	up_read(&sem);
}

UNIT_TEST(reader_owned_marks_and_a_switch_away)
{
	void (*fns[])(int) = { reader_owned_marks };

	fresh(RWSEM_SPIN_READER_OWNED);
	CHECK(fake_run(fns, 1));
}

UNIT_TEST(a_lock_keeps_its_layout_across_a_switch)
{
	fresh(RWSEM_SPIN_OSQ);
	rwsem_spin = RWSEM_SPIN_HANDOFF;
	CHECK_EQ(sem.layout, RWSEM_LAYOUT_XADD);
	CHECK_EQ(rwsem_xadd_policy(), RWSEM_SPIN_READER_OWNED);
	rwsem_spin = RWSEM_SPIN_OSQ;
}

/* ---- who gets it in what order ------------------------------------------------------------ */

static char order[16];
static int norder, readers_in, max_readers_in;

static void
log_in(char c)
{
	order[norder++] = c;
}

static void
holder(int id)
{
	down_write(&sem);
	log_in('A');
	fake_yield(30); /* the others queue (or spin) meanwhile */
	if (policy == RWSEM_SPIN_OFF)
		CHECK_EQ(sem.count, RWSEM_ACTIVE_WRITE_BIAS + RWSEM_WAITING_BIAS);
	CHECK_EQ(queued(), policy == RWSEM_SPIN_OFF ? 4 : 3); /* a spinning D is not queued */
	up_write(&sem);
}

static void
reader(int id)
{
	down_read(&sem);
	log_in((char)('A' + id));
	readers_in++;
	max_readers_in = MAX(max_readers_in, readers_in);
	fake_yield(3);
	readers_in--;
	up_read(&sem);
}

static void
writer(int id)
{
	down_write(&sem);
	log_in((char)('A' + id));
	fake_yield(3);
	up_write(&sem);
}

/* A writer holds it; B and C read, D writes, E reads: all arrive while A holds it. */
static void
run_order(int p)
{
	void (*fns[])(int) = { holder, reader, reader, writer, reader };

	fresh(p);
	norder = readers_in = max_readers_in = 0;
	memset(order, 0, sizeof(order));
	CHECK(fake_run(fns, 5));
	CHECK_EQ(sem.count, 0);
	CHECK_EQ(queued(), 0);
}

UNIT_TEST(off_grants_the_leading_readers_then_the_writer)
{
	run_order(RWSEM_SPIN_OFF);
	CHECK_STR(order, "ABCDE");
	CHECK_EQ(max_readers_in, 2); /* B and C together */
}

UNIT_TEST(osq_writer_spins_and_loses_its_place_to_readers)
{
	run_order(RWSEM_SPIN_OSQ);
	CHECK_STR(order, "ABCED"); /* D spun instead of queueing: E came out before it */
	CHECK_EQ(max_readers_in, 3);
	struct lockstat_rwsem pol[RWSEM_SPIN_POLICIES];
	lockstat_rwsem_snapshot(pol);
	CHECK_EQ(pol[RWSEM_SPIN_OSQ].ev[RWSEM_EV_SPIN_WON] +
			 pol[RWSEM_SPIN_OSQ].ev[RWSEM_EV_SPIN_FAILED],
		 1);
	CHECK(pol[RWSEM_SPIN_OSQ].ev[RWSEM_EV_SPIN] > 0);
}

UNIT_TEST(handoff_wakes_every_queued_reader_at_once)
{
	run_order(RWSEM_SPIN_HANDOFF);
	CHECK_STR(order, "ABCED"); /* 5.3 grants B, C and E, skipping the queued writer */
	CHECK_EQ(max_readers_in, 3);
}

/* ---- 5.3's bounded spin on readers ---------------------------------------------------------- */

static bool saw_nonspinnable;

/* Reads, and holds on until the writer has given up spinning on it and queued. */
static void
long_reader(int id)
{
	down_read(&sem);
	CHECK_EQ(sem.owner, (unsigned long)current() | RWSEM_BITS_READER_OWNED);
	while (queued() == 0)
		fake_yield(1);
	saw_nonspinnable = sem.owner & RWSEM_BITS_NONSPINNABLE;
	CHECK(sem.count & RWSEM_FLAG_WAITERS);
	up_read(&sem);
}

static void
late_writer(int id)
{
	down_write(&sem);
	CHECK_EQ(sem.owner, (unsigned long)current()); /* its own: the flag went with the readers */
	up_write(&sem);
}

/*
 * No tick, so need_resched never ends the spin: the writer facing a
 * reader-owned lock spins until its time limit (the fake clock moves 1 us
 * a relax), marks the readers non-spinnable, queues and sleeps; lockstat
 * charges the spin to handoff.
 */
UNIT_TEST(handoff_writer_spins_on_readers_for_a_while_then_sleeps)
{
	void (*fns[])(int) = { long_reader, late_writer };
	struct lockstat_rwsem pol[RWSEM_SPIN_POLICIES];

	fresh(RWSEM_SPIN_HANDOFF);
	fake_tick = 0;
	saw_nonspinnable = false;
	CHECK(fake_run(fns, 2));
	CHECK(saw_nonspinnable);
	lockstat_rwsem_snapshot(pol);
	CHECK(pol[RWSEM_SPIN_HANDOFF].ev[RWSEM_EV_SPIN] > 0);
	CHECK_EQ(pol[RWSEM_SPIN_HANDOFF].ev[RWSEM_EV_SPIN_FAILED], 1);
	CHECK_EQ(pol[RWSEM_SPIN_HANDOFF].ev[RWSEM_EV_SPIN_WON], 0);
	CHECK(pol[RWSEM_SPIN_HANDOFF].ev[RWSEM_EV_SLEEPS] >= 1);
	for (int p = 0; p < RWSEM_SPIN_HANDOFF; p++)
		CHECK_EQ(pol[p].ev[RWSEM_EV_SPIN], 0);
	CHECK_EQ(sem.count, 0);
	CHECK_EQ(sem.owner, 0);
}

/* ---- a writer behind readers: 37e9562's owner-NULL test ---------------------------------- */

static void
slow_reader(int id)
{
	down_read(&sem);
	fake_yield(40); /* the writer arrives meanwhile, finds no owner stored */
	up_read(&sem);
}

static void
writer_after_reader(int id)
{
	fake_yield(2);
	down_write(&sem);
	up_write(&sem);
}

/* What the writer's arrival behind a reader cost under policy p: spin time and sleeps. */
static void
writer_behind_a_reader(int p, u64 *spin, u64 *sleeps)
{
	void (*fns[])(int) = { slow_reader, writer_after_reader };
	struct lockstat_rwsem pol[RWSEM_SPIN_POLICIES];

	fresh(p);
	CHECK(fake_run(fns, 2));
	CHECK_EQ(sem.count, 0);
	lockstat_rwsem_snapshot(pol);
	*spin = pol[p].ev[RWSEM_EV_SPIN];
	*sleeps = pol[p].ev[RWSEM_EV_SLEEPS];
}

/*
 * Readers never store themselves as the owner, so a writer arriving while
 * they hold the lock finds owner == NULL. 3.16-rc1 (osq) took that for "a
 * writer about to store itself" and spun until the tick; 37e9562 sleeps.
 */
UNIT_TEST(owner_null_fix_writer_sleeps_behind_readers)
{
	u64 spin, sleeps;

	writer_behind_a_reader(RWSEM_SPIN_OSQ, &spin, &sleeps);
	CHECK(spin > 0); /* the regression: spinning on readers */
	writer_behind_a_reader(RWSEM_SPIN_OWNER_NULL_FIX, &spin, &sleeps);
	CHECK_EQ(spin, 0);
	CHECK_EQ(sleeps, 1);
}

/* ---- stealing ------------------------------------------------------------------------------- */

static void
stealer(int id)
{
	down_write(&sem);
	fake_yield(5); /* task 1 queues */
	CHECK_EQ(queued(), 1);
	up_write(&sem); /* wakes task 1, which has not run yet */
	down_write(&sem);
	log_in('S'); /* took it back ahead of the woken writer */
	CHECK_EQ(sem.count, RWSEM_ACTIVE_WRITE_BIAS + RWSEM_WAITING_BIAS);
	up_write(&sem);
}

static void
queued_writer(int id)
{
	down_write(&sem);
	log_in('Q');
	up_write(&sem);
}

UNIT_TEST(off_lets_a_writer_steal_from_the_queue)
{
	void (*fns[])(int) = { stealer, queued_writer };

	fresh(RWSEM_SPIN_OFF);
	norder = 0;
	memset(order, 0, sizeof(order));
	CHECK(fake_run(fns, 2));
	CHECK_STR(order, "SQ");
	CHECK_EQ(sem.count, 0);
}

/* ---- the osq ---------------------------------------------------------------------------------- */

static struct osq q;
static int osq_log[8], nosq;

static void
osq_head(int id)
{
	CHECK(osq_lock(&q));
	CHECK_EQ(q.tail, 1);
	fake_yield(10); /* 1 and 2 queue behind; 1 leaves */
	CHECK_EQ(q.tail, 3);
	CHECK(osq_nodes[0].next == &osq_nodes[2]); /* 1 unlinked itself from the middle */
	osq_unlock(&q);
}

static void
osq_leaver(int id)
{
	fake_yield(1);
	this_cpu()->need_resched = true; /* it must reschedule while queued */
	CHECK(!osq_lock(&q));
	osq_log[nosq++] = id;
}

static void
osq_waiter(int id)
{
	fake_yield(2);
	CHECK(osq_lock(&q));
	osq_log[nosq++] = id;
	osq_unlock(&q);
}

UNIT_TEST(osq_passes_the_head_on_and_lets_the_middle_leave)
{
	void (*fns[])(int) = { osq_head, osq_leaver, osq_waiter };

	fresh(RWSEM_SPIN_OFF);
	fake_tick = 0;
	osq_init(&q);
	nosq = 0;
	CHECK(fake_run(fns, 3));
	CHECK_EQ(nosq, 2);
	CHECK_EQ(osq_log[0], 1);
	CHECK_EQ(osq_log[1], 2);
	CHECK_EQ(q.tail, 0);
}

/* ---- random stress under every policy ------------------------------------------------------ */

static u64 counter, writes, violations;
static int writers_inside, readers_inside;

static void
stress(int id)
{
	u64 seed = 0x2545f4914f6cdd1dull * (u64)(id + 1);

	for (int i = 0; i < 150; i++) {
		seed ^= seed << 13;
		seed ^= seed >> 7;
		seed ^= seed << 17;
		unsigned kind = (unsigned)(seed >> 33) % 8;
		if (kind < 4) {
			down_read(&sem);
			readers_inside++;
			violations += writers_inside != 0;
			fake_yield((int)(seed & 3));
			readers_inside--;
			up_read(&sem);
		} else {
			down_write(&sem);
			violations += writers_inside++ != 0 || readers_inside != 0;
			u64 c = counter;
			fake_yield((int)(seed & 3));
			counter = c + 1;
			writes++;
			writers_inside--;
			if (kind == 7) {
				downgrade_write(&sem);
				violations += writers_inside != 0;
				up_read(&sem);
			} else {
				up_write(&sem);
			}
		}
		if (this_cpu()->need_resched)
			schedule();
	}
}

UNIT_TEST(stress_every_policy_no_lost_update_no_deadlock)
{
	void (*fns[])(int) = { stress, stress, stress, stress, stress, stress };

	for (int p = 0; p < RWSEM_SPIN_POLICIES; p++) {
		fresh(p);
		counter = writes = violations = 0;
		writers_inside = readers_inside = 0;
		CHECK(fake_run(fns, 6));
		CHECK_EQ(counter, writes);
		CHECK_EQ(violations, 0);
		CHECK_EQ(sem.count, 0);
		CHECK_EQ(queued(), 0);
		CHECK_EQ(sem.osq.tail, 0);
	}
}

UNIT_TEST(handoff_stress_asks_for_hand_offs)
{
	void (*fns[])(int) = { stress, stress, stress, stress, stress, stress };
	struct lockstat_rwsem pol[RWSEM_SPIN_POLICIES];

	fresh(RWSEM_SPIN_HANDOFF);
	counter = writes = violations = 0;
	CHECK(fake_run(fns, 6));
	lockstat_rwsem_snapshot(pol);
	CHECK(pol[RWSEM_SPIN_HANDOFF].ev[RWSEM_EV_HANDOFFS] > 0);
	CHECK(pol[RWSEM_SPIN_HANDOFF].ev[RWSEM_EV_SLEEPS] > 0);
	CHECK_EQ(counter, writes);
}

/* ---- the mutex ------------------------------------------------------------------------------ */

static struct mutex mtx;

static void
mutex_task(int id)
{
	for (int i = 0; i < 100; i++) {
		mutex_lock(&mtx);
		violations += writers_inside++ != 0;
		u64 c = counter;
		fake_yield(i % 3);
		counter = c + 1;
		writers_inside--;
		mutex_unlock(&mtx);
	}
}

static void
mutex_counts(int id)
{
	mutex_lock(&mtx);
	CHECK_EQ(mtx.count, 0);
	CHECK(mutex_is_held_by_me(&mtx));
	CHECK(!mutex_trylock(&mtx));
	mutex_unlock(&mtx);
	CHECK_EQ(mtx.count, 1);
	CHECK(mutex_trylock(&mtx));
	mutex_unlock(&mtx);
}

UNIT_TEST(mutex_uncontended_is_the_count_alone)
{
	void (*fns[])(int) = { mutex_counts };

	mutex_init(&mtx, "test_mutex");
	CHECK(fake_run(fns, 1));
}

UNIT_TEST(mutex_excludes_and_wakes)
{
	void (*fns[])(int) = { mutex_task, mutex_task, mutex_task, mutex_task };

	mutex_init(&mtx, "test_mutex");
	counter = violations = 0;
	writers_inside = 0;
	CHECK(fake_run(fns, 4));
	CHECK_EQ(counter, 400);
	CHECK_EQ(violations, 0);
	CHECK_EQ(mtx.count, 1);
	CHECK(list_empty(&mtx.wait_list));
}
