/*
 * test_locks.c - self-tests of the lock instrumentation: lockstat counts a
 * spinlock's acquisitions and holds, and the contentions of a mutex and of
 * an rwsem (a reader behind a writer, a writer behind a reader) between two
 * kernel threads; lockdebug records a spinlock's holder CPU and place, and
 * an rwlock's readers and writer as held where a task may not sleep. A
 * last test prints what a spinlock round trip costs with each knob.
 *
 * Spinlock contention needs two CPUs spinning at once: the SMP tests
 * (test_smp.c) make it. Each test here switches on the knob it needs and
 * puts it back, and counts a lock class of its own, so that what the rest
 * of the kernel does meanwhile does not mix in.
 */
#include "kernel/ksyms.h"
#include "kernel/ktest.h"
#include "kernel/x86/percpu.h"
#include "kernel/sched/sched.h"
#include "kernel/lib/string.h"
#include "kernel/time/tsc.h"
#include "locking/lockdebug.h"
#include "locking/mutex.h"
#include "locking/rwlock.h"
#include "locking/rwsem.h"
#include "locking/spinlock.h"
#include "mm/kmalloc.h"

/* A class's counters now (times in ns); all zero if it has none. */
static struct lockstat_counters
class_counts(const char *name)
{
	struct lockstat_row *rows = kmalloc(LOCKSTAT_ROWS * sizeof(*rows));
	struct lockstat_counters c = { 0 };

	CHECK(rows != NULL);
	if (!rows)
		return c;
	size_t n = lockstat_snapshot(rows);
	for (size_t i = 0; i < n; i++)
		if (strcmp(rows[i].name, name) == 0)
			c = rows[i].c;
	kfree(rows);
	return c;
}

KTEST(lockstat_counts_spinlock_acquisitions_and_holds)
{
	static struct spinlock l = SPINLOCK_INIT("ktest_spin");
	int was = READ_ONCE(lock_knobs.stat);

	WRITE_ONCE(lock_knobs.stat, 1);
	struct lockstat_counters before = class_counts("ktest_spin");
	for (int i = 0; i < 3; i++) {
		spin_lock(&l);
		spin_unlock(&l);
	}
	CHECK(spin_trylock(&l));
	spin_unlock(&l);
	struct lockstat_counters after = class_counts("ktest_spin");
	WRITE_ONCE(lock_knobs.stat, was);

	CHECK_EQ(after.acquisitions - before.acquisitions, 4);
	CHECK_EQ(after.contentions - before.contentions, 0);
	CHECK(after.hold > before.hold);
}

/* ---- a sleeping lock contended by two kernel threads ----------------------------------- */

enum scenario { MUTEX, RWSEM_WRITER_HOLDS, RWSEM_READER_HOLDS };

struct contention {
	enum scenario s;
	struct mutex mutex;
	struct rwsem rwsem;
	int held; /* the holder has the lock */
	int done; /* threads finished */
};

/* Whether the holder (or else the contender) of the scenario's rwsem writes. */
static bool
writes(const struct contention *c, bool holder)
{
	return c->s == RWSEM_WRITER_HOLDS ? holder : !holder;
}

static void
take(struct contention *c, bool holder)
{
	if (c->s == MUTEX)
		mutex_lock(&c->mutex);
	else if (writes(c, holder))
		down_write(&c->rwsem);
	else
		down_read(&c->rwsem);
}

static void
release(struct contention *c, bool holder)
{
	if (c->s == MUTEX)
		mutex_unlock(&c->mutex);
	else if (writes(c, holder))
		up_write(&c->rwsem);
	else
		up_read(&c->rwsem);
}

static bool
contender_queued(const struct contention *c)
{
	const struct list_head *q = c->s == MUTEX ? &c->mutex.wait_list : &c->rwsem.wait_list;

	return READ_ONCE(q->next) != q;
}

/* Holds the lock until the contender is queued on it. */
static void
holder_thread(void *arg)
{
	struct contention *c = arg;

	take(c, true);
	WRITE_ONCE(c->held, 1);
	while (!contender_queued(c))
		sleep_ns(50000);
	release(c, true);
	__atomic_fetch_add(&c->done, 1, __ATOMIC_RELEASE);
}

static void
contender_thread(void *arg)
{
	struct contention *c = arg;

	while (!READ_ONCE(c->held))
		sleep_ns(50000);
	take(c, false);
	release(c, false);
	__atomic_fetch_add(&c->done, 1, __ATOMIC_RELEASE);
}

/*
 * Runs the scenario on a lock of class name; returns the class's counts it
 * added. Both threads run on this CPU, where a kernel thread is never
 * preempted: the contender's try and its sleep cannot be split by the
 * holder's release, so it really waits. The deadline only guards against
 * a hang: an overloaded host has stalled a 4-vCPU guest's threads for more
 * than 10 s here. Each scenario has its own state, so that threads a
 * tripped guard left behind cannot disturb the next scenario's counts.
 */
static struct lockstat_counters
contend(enum scenario s, const char *name)
{
	static struct contention scenarios[RWSEM_READER_HOLDS + 1];
	struct contention *c = &scenarios[s];
	int was = READ_ONCE(lock_knobs.stat);
	u64 here = 1ul << this_cpu()->id, deadline = rdtsc() + 60 * tsc_hz;

	*c = (struct contention){ .s = s };
	mutex_init(&c->mutex, name);
	rwsem_init(&c->rwsem, name);
	WRITE_ONCE(lock_knobs.stat, 1);
	struct lockstat_counters before = class_counts(name);
	CHECK(kthread_start_on("lock_holder", holder_thread, c, here) != NULL);
	CHECK(kthread_start_on("lock_contender", contender_thread, c, here) != NULL);
	while (__atomic_load_n(&c->done, __ATOMIC_ACQUIRE) < 2 && rdtsc() < deadline)
		schedule(); /* let this CPU's threads run */
	struct lockstat_counters after = class_counts(name);
	WRITE_ONCE(lock_knobs.stat, was);

	CHECK_EQ(c->done, 2);
#define DELTA(field, how) after.field -= before.field;
	LOCKSTAT_COUNTERS(DELTA)
#undef DELTA
	return after;
}

KTEST(lockstat_counts_a_contended_mutex)
{
	struct lockstat_counters d = contend(MUTEX, "ktest_mutex");

	CHECK_EQ(d.acquisitions, 2);
	CHECK_EQ(d.contentions, 1);
	CHECK_EQ(d.read_contentions, 0);
	CHECK(d.wait > 0);
	CHECK(d.hold > 0);
}

KTEST(lockstat_counts_a_reader_behind_a_writer)
{
	struct lockstat_counters d = contend(RWSEM_WRITER_HOLDS, "ktest_rwsem_w");

	CHECK_EQ(d.acquisitions, 2);
	CHECK_EQ(d.contentions, 0);
	CHECK_EQ(d.read_contentions, 1);
	CHECK(d.wait > 0);
	CHECK(d.hold > 0); /* the writer's */
}

KTEST(lockstat_counts_a_writer_behind_a_reader)
{
	struct lockstat_counters d = contend(RWSEM_READER_HOLDS, "ktest_rwsem_r");

	CHECK_EQ(d.acquisitions, 2);
	CHECK_EQ(d.contentions, 1);
	CHECK_EQ(d.read_contentions, 0);
	CHECK(d.wait > 0);
	CHECK(d.hold > 0); /* the writer's, after its wait */
}

/* ---- lockdebug ---------------------------------------------------------------------------- */

static struct spinlock debug_lock = SPINLOCK_INIT("ktest_debug");

static __attribute__((noinline)) void
take_debug_lock(void)
{
	spin_lock(&debug_lock);
}

KTEST(lockdebug_records_holder_cpu_and_place)
{
	int was = READ_ONCE(lock_knobs.debug);
	u32 cpu = ~0u, cpu_after;
	u64 pc = 0, pc_after, off;

	WRITE_ONCE(lock_knobs.debug, 1);
	take_debug_lock();
	bool recorded = spin_lock_holder(&debug_lock, &cpu, &pc);
	spin_unlock(&debug_lock);
	bool recorded_after = spin_lock_holder(&debug_lock, &cpu_after, &pc_after);
	WRITE_ONCE(lock_knobs.debug, was);

	CHECK(recorded);
	CHECK_EQ(cpu, this_cpu()->id);
	const char *where = ksym_lookup(pc, &off, NULL);
	CHECK(where && strcmp(where, "take_debug_lock") == 0);
	CHECK(!recorded_after);
}

/*
 * The context checks (lockdebug.h) report through lockdebug_sleep_forbidden,
 * which says what it would panic about; the panics themselves are
 * crashtests (kernel/crashtest.c): they end the boot.
 */
static bool
reason_names(const char *why, const char *lock, const char *place)
{
	return strstr(why, lock) && strstr(why, place);
}

KTEST(lockdebug_forbids_sleep_under_a_spinlock)
{
	static struct spinlock other = SPINLOCK_INIT("ktest_other");
	int was = READ_ONCE(lock_knobs.debug);
	char held[LOCKDEBUG_WHY] = "", besides[LOCKDEBUG_WHY] = "", alone[LOCKDEBUG_WHY] = "";

	WRITE_ONCE(lock_knobs.debug, 1);
	bool before = lockdebug_sleep_forbidden(NULL, held, sizeof(held));
	take_debug_lock();
	bool under = lockdebug_sleep_forbidden(NULL, held, sizeof(held));
	spin_lock(&other);
	/* schedule()'s form: its runqueue lock is allowed, any other is not */
	bool under_two = lockdebug_sleep_forbidden(&debug_lock, besides, sizeof(besides));
	spin_unlock(&other);
	bool except_only = lockdebug_sleep_forbidden(&debug_lock, alone, sizeof(alone));
	spin_unlock(&debug_lock);
	bool after = lockdebug_sleep_forbidden(NULL, alone, sizeof(alone));
	WRITE_ONCE(lock_knobs.debug, was);

	CHECK(!before);
	CHECK(under);
	CHECK(reason_names(held, "spinlock ktest_debug", "take_debug_lock+"));
	CHECK(under_two);
	CHECK(strstr(besides, "spinlock ktest_other") != NULL);
	CHECK(!except_only);
	CHECK(!after);
}

static struct rwlock debug_rwlock;

static __attribute__((noinline)) void
take_debug_read_lock(void)
{
	read_lock(&debug_rwlock);
}

/* A read hold is a shared record on the CPU's stack; a write hold is wait_lock's own. */
KTEST(lockdebug_forbids_sleep_under_an_rwlock)
{
	int was = READ_ONCE(lock_knobs.debug);
	char reading[LOCKDEBUG_WHY] = "", writing[LOCKDEBUG_WHY] = "", after[LOCKDEBUG_WHY] = "";

	rwlock_init(&debug_rwlock, "ktest_rwlock");
	WRITE_ONCE(lock_knobs.debug, 1);
	take_debug_read_lock();
	bool under_read = lockdebug_sleep_forbidden(NULL, reading, sizeof(reading));
	bool shared = spin_holds_shared(&debug_rwlock.wait_lock);
	read_unlock(&debug_rwlock);
	bool shared_after = spin_holds_shared(&debug_rwlock.wait_lock);
	write_lock(&debug_rwlock);
	bool under_write = lockdebug_sleep_forbidden(NULL, writing, sizeof(writing));
	write_unlock(&debug_rwlock);
	bool free_after = lockdebug_sleep_forbidden(NULL, after, sizeof(after));
	WRITE_ONCE(lock_knobs.debug, was);

	CHECK(under_read);
	CHECK(reason_names(reading, "spinlock ktest_rwlock", "take_debug_read_lock+"));
	CHECK(shared);
	CHECK(!shared_after);
	CHECK(under_write);
	CHECK(strstr(writing, "spinlock ktest_rwlock") != NULL);
	CHECK(!free_after);
	CHECK_EQ(debug_rwlock.cnts, 0);
}

KTEST(lockdebug_forbids_sleep_with_interrupts_off)
{
	int was = READ_ONCE(lock_knobs.debug);
	char why[LOCKDEBUG_WHY] = "";

	WRITE_ONCE(lock_knobs.debug, 1);
	u64 flags = local_irq_save();
	bool off = lockdebug_sleep_forbidden(NULL, why, sizeof(why));
	local_irq_restore(flags);
	bool on = lockdebug_sleep_forbidden(NULL, why + 64, sizeof(why) - 64);
	WRITE_ONCE(lock_knobs.debug, was);

	CHECK(off);
	CHECK(strcmp(why, "interrupts are off") == 0);
	CHECK(!on);
}

/*
 * A return to user mode holding a spinlock is caught because the lock
 * marks its CPU's exit_work, the one word exit_to_user tests before it
 * leaves (kernel/x86/entry.c): that mark is what is checked here.
 */
KTEST(lockdebug_marks_a_held_spinlock_for_the_return_to_user)
{
	int was = READ_ONCE(lock_knobs.debug);
	u64 flags = local_irq_save(); /* nothing else takes a lock on this CPU meanwhile */

	WRITE_ONCE(lock_knobs.debug, 1);
	take_debug_lock();
	bool marked = READ_ONCE(this_cpu()->spinlocks_recorded);
	u16 work = READ_ONCE(this_cpu()->exit_work);
	spin_unlock(&debug_lock);
	bool cleared = !READ_ONCE(this_cpu()->spinlocks_recorded);
	WRITE_ONCE(lock_knobs.debug, was);
	local_irq_restore(flags);

	CHECK(marked);
	CHECK(work != 0);
	CHECK(cleared);
}

/* ---- what the instrumentation costs ------------------------------------------------------ */

#define COST_ROUNDS 20000

/* TSC cycles per uncontended spin_lock + spin_unlock with the given knobs, interrupts off. */
static u64
round_trip_cycles(struct spinlock *l, int debug, int stat)
{
	union lock_knobs was = { .any = READ_ONCE(lock_knobs.any) };
	u64 flags = local_irq_save();

	WRITE_ONCE(lock_knobs.debug, debug);
	WRITE_ONCE(lock_knobs.stat, stat);
	u64 t0 = rdtsc();
	for (int i = 0; i < COST_ROUNDS; i++) {
		spin_lock(l);
		spin_unlock(l);
	}
	u64 cycles = (rdtsc() - t0) / COST_ROUNDS;
	WRITE_ONCE(lock_knobs.debug, was.debug);
	WRITE_ONCE(lock_knobs.stat, was.stat);
	local_irq_restore(flags);
	return cycles;
}

KTEST(spinlock_round_trip_cost_per_knob)
{
	static struct spinlock l = SPINLOCK_INIT("ktest_cost");
	u64 before = class_counts("ktest_cost").acquisitions;
	u64 off = round_trip_cycles(&l, 0, 0);
	u64 stat = round_trip_cycles(&l, 0, 1);
	u64 debug = round_trip_cycles(&l, 1, 0);

	CHECK_EQ(class_counts("ktest_cost").acquisitions - before, COST_ROUNDS);
	CHECK(!spin_is_locked(&l));
	pr_info("ktest:     spin_lock+spin_unlock: %lu cycles with no knob, %lu with lockstat, "
		"%lu with lockdebug\n",
		off, stat, debug);
}
