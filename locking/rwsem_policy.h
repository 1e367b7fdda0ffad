/*
 * rwsem_policy.h - the values of the `rwsem_spin` knob (locking/rwsem.c),
 * in one list, for the knob, the rwsem code and /proc/lockstat's table of
 * rwsem slow-path figures per policy.
 *
 *   off             Linux 3.15 rwsem-xadd: a writer that finds the lock busy queues and sleeps
 *   osq             4fc828e (3.16-rc1): writers spin in the optimistic spin queue, also while
 *                   readers (who leave the owner NULL) hold the lock - the regression
 *   owner-null-fix  37e9562 (3.16): no spinning when the owner is NULL
 *   deceive-fix     4.1 (b3fd4f03, 1a99367, 9198f6e, 7a215f8): a NULL owner with active
 *                   lockers is readers; stop when the owner is off its CPU
 *   reader-owned    19c5d690: readers mark the owner field, writers never spin on them
 *   handoff         5.3: the bit-field count, time-bounded spinning on a reader-owned lock,
 *                   the hand-off bit against starvation
 */
#ifndef REWIND_RWSEM_POLICY_H
#define REWIND_RWSEM_POLICY_H

#define RWSEM_POLICIES(X)                              \
	X(RWSEM_SPIN_OFF, "off")                       \
	X(RWSEM_SPIN_OSQ, "osq")                       \
	X(RWSEM_SPIN_OWNER_NULL_FIX, "owner-null-fix") \
	X(RWSEM_SPIN_DECEIVE_FIX, "deceive-fix")       \
	X(RWSEM_SPIN_READER_OWNED, "reader-owned")     \
	X(RWSEM_SPIN_HANDOFF, "handoff")

#define RWSEM_POLICY_ENUM(id, name) id,
enum rwsem_spin_policy { RWSEM_POLICIES(RWSEM_POLICY_ENUM) RWSEM_SPIN_POLICIES };
#undef RWSEM_POLICY_ENUM

static inline const char *
rwsem_policy_name(unsigned p)
{
#define RWSEM_POLICY_NAME(id, name) name,
	static const char *const names[] = { RWSEM_POLICIES(RWSEM_POLICY_NAME) };
#undef RWSEM_POLICY_NAME
	return p < RWSEM_SPIN_POLICIES ? names[p] : "?";
}

#endif
