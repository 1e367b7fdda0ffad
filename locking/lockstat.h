/*
 * lockstat.h - lock statistics per lock class, a small Linux lockstat.
 *
 * A lock class is a lock's name: every lock initialised with the same name
 * counts together, as Linux's lockdep groups locks into classes by key.
 * Per class: acquisitions; contentions (a spinlock taker that had to spin,
 * a mutex or rwsem taker that had to sleep, rwsem readers counted apart);
 * the total and longest wait of the contended takers; the total and
 * longest hold. Only exclusive holds are timed (spinlocks, mutexes, rwsem
 * writers): readers share the lock, and a reader has nowhere of its own to
 * keep the time it came in.
 *
 * Collection is switched by the run-time knob `lockstat` (off by default).
 * Off, a lock pays one load and a branch that is not taken: spinlocks test
 * it inline (spinlock.h), mutexes and rwsems through the wrappers below.
 * A mutex or rwsem hold counted while on is timed to its end even if the
 * knob goes off meanwhile; a spinlock hold that the switch-off catches is
 * counted as an acquisition but not timed.
 *
 * /proc/lockstat shows the table, most contended first; writing "0" or
 * "reset" to it starts the counts again. How the counters are kept, per
 * CPU and without a lock: lockstat.c.
 */
#ifndef REWIND_LOCKSTAT_H
#define REWIND_LOCKSTAT_H

#include "kernel/x86/paravirt.h"
#include "kernel/lib/types.h"
#include "locking/rwsem_policy.h"

#define LOCKSTAT_CLASSES 256			/* named classes; later names count as "(other)" */
#define LOCKSTAT_ROWS	 (LOCKSTAT_CLASSES + 1) /* with "(other)" */

/*
 * The counters of one class, kept per CPU: X(name, fold), where fold says
 * how the CPUs' values combine when read. Times are TSC cycles.
 */
#define LOCKSTAT_COUNTERS(X)                                                     \
	X(acquisitions, sum)	 /* lock, successful trylock, read or write */   \
	X(contentions, sum)	 /* exclusive takers that spun or slept first */ \
	X(read_contentions, sum) /* rwsem readers that slept first */            \
	X(wait, sum)		 /* how long the contended takers waited */      \
	X(wait_max, max)	 /* the longest of those waits */                \
	X(hold, sum)		 /* how long exclusive holds lasted */           \
	X(hold_max, max)	 /* the longest of those holds */

struct lockstat_counters {
#define LOCKSTAT_FIELD(name, fold) u64 name;
	LOCKSTAT_COUNTERS(LOCKSTAT_FIELD)
#undef LOCKSTAT_FIELD
};

/*
 * The two knobs that switch lock instrumentation on, side by side so that
 * the spinlock fast path tests both with one load: `lockdebug` (boot time,
 * spinlock.c) and `lockstat` (run time, lockstat.c). Every lock operation
 * on every CPU reads them, so they have a cache line to themselves, which
 * only a knob change writes.
 */
union lock_knobs {
	struct {
		int debug;
		int stat;
	};
	u64 any;
	u8 line[64];
} __aligned(64);

extern union lock_knobs lock_knobs;

enum lock_mode { LOCK_EXCLUSIVE, LOCK_SHARED };

/* The class of a lock name, registered when first seen. */
u32 lockstat_class(const char *name);
/*
 * Counts an acquisition. waited_since is the TSC when the taker found the
 * lock busy and began to wait (lockstat_wait_start), or 0 if it did not
 * wait. Returns the TSC now: when the hold begins.
 */
u64 lockstat_acquire(u32 class, enum lock_mode mode, u64 waited_since);
/* Counts the end of an exclusive hold that began at held_since. */
void lockstat_release(u32 class, u64 held_since);

static inline bool
lockstat_on(void)
{
	return unlikely(READ_ONCE(lock_knobs.stat) != 0);
}

/* The start of a wait when counting, else 0 (the wait is not counted). */
static inline u64
lockstat_wait_start(void)
{
	return lockstat_on() ? rdtsc() : 0;
}

/*
 * Sleeping locks (mutex, rwsem) keep their statistics in the lock; a
 * spinlock's are kept by the CPU that holds it (spinlock.c).
 */
struct lock_track {
	u64 held_since; /* TSC when a counted exclusive hold began; 0: none */
	u32 class;	/* 1 + the class; 0: not looked up yet */
};

void lock_track_acquire(struct lock_track *t, const char *name, enum lock_mode mode,
			u64 waited_since);
void lock_track_release(struct lock_track *t, const char *name);

/* Counts the acquisition if collecting; waited_since as for lockstat_acquire. */
static inline void
lock_acquired(struct lock_track *t, const char *name, enum lock_mode mode, u64 waited_since)
{
	if (lockstat_on())
		lock_track_acquire(t, name, mode, waited_since);
}

/* By the holder, just before an exclusive release: ends a counted hold. */
static inline void
lock_released(struct lock_track *t, const char *name)
{
	if (unlikely(t->held_since != 0))
		lock_track_release(t, name);
}

/*
 * The rwsem slow paths' figures per `rwsem_spin` policy (locking/rwsem*.c),
 * counted while `lockstat` is on, per CPU like the class counters: what
 * the policies differ in, beside the per-class contention counts.
 */
enum lockstat_rwsem_event {
	RWSEM_EV_SPIN,	      /* time writers spent spinning, osq wait included (cycles; ns read) */
	RWSEM_EV_SPIN_WON,    /* spins that ended with the lock */
	RWSEM_EV_SPIN_FAILED, /* spins that gave up: the writer queued */
	RWSEM_EV_SLEEPS,      /* times a waiter (reader or writer) went to sleep */
	RWSEM_EV_HANDOFFS,    /* hand-off requests: 5.3's bit set by a starved waiter */
	RWSEM_EVENTS
};

struct lockstat_rwsem {
	u64 ev[RWSEM_EVENTS];
};

/* Adds n to an event of a policy; the caller checks lockstat_on(). */
void lockstat_rwsem_add(unsigned policy, enum lockstat_rwsem_event e, u64 n);

/* ---- reading --------------------------------------------------------------------- */

/* One class's counters summed over the CPUs; wait and hold times in ns. */
struct lockstat_row {
	const char *name;
	struct lockstat_counters c;
};

/*
 * Fills rows (LOCKSTAT_ROWS of them) with every class counted since the
 * last reset, most contended first; returns how many.
 */
size_t lockstat_snapshot(struct lockstat_row *rows);
/* rows[p] (RWSEM_SPIN_POLICIES of them): policy p's events since the last reset, spin in ns. */
void lockstat_rwsem_snapshot(struct lockstat_rwsem *rows);
/* Starts every count again from zero. */
void lockstat_reset(void);

#endif
