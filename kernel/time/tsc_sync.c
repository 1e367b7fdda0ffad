/*
 * tsc_sync.c - the TSC warp check at AP start-up; see tsc_sync.h.
 *
 * In each round one side publishes a stamp (its TSC) and the round's
 * number; the other, once it sees that number, reads its own TSC, which
 * must not be below the stamp, and acknowledges by storing the number as
 * checked; the publisher waits for that before the next round, in which
 * the two swap roles. The boot CPU checks every AP in turn through the same
 * three words, so rounds are numbered from the AP's id (AP n has rounds
 * n * TSC_SYNC_ROUNDS onwards) and no state needs resetting between APs.
 *
 * Who waits last matters. The side that publishes a round waits for the
 * other's acknowledgement. If the AP published the last round, the boot
 * CPU would store that acknowledgement and go on to start the next AP,
 * whose first round overwrites "checked": had the AP not yet looked (its
 * host thread descheduled, which a loaded host does for milliseconds), it
 * would wait for a number that is gone - for ever, with interrupts off
 * and already online, so the boot CPU's next call to all CPUs would wait
 * for ever too. Boots with 3 or more CPUs hung that way (2 of 116 in a
 * loop on a host at a load of 20-30). So the boot CPU publishes the last
 * round: the AP's last act is its acknowledgement, which the boot CPU
 * waits for, and after that the AP reads nothing shared.
 */
#include "kernel/time/tsc_sync.h"
#include "kernel/x86/x86.h"

_Static_assert(TSC_SYNC_ROUNDS % 2 == 0, "the source must publish the last round");

static u64 sync_stamp;
static s64 sync_published = -1, sync_checked = -1;
static u64 sync_worst_warp;

void
tsc_sync_begin(struct tsc_sync *s, unsigned cpu, bool source, u64 (*read_tsc)(void))
{
	s64 first = (s64)cpu * TSC_SYNC_ROUNDS;

	*s = (struct tsc_sync){ first, first, first + TSC_SYNC_ROUNDS, source, false, read_tsc };
	if (source)
		__atomic_store_n(&sync_worst_warp, 0, __ATOMIC_RELAXED);
}

/* The AP publishes the even rounds (counted from its first), the boot CPU the odd ones. */
static bool
publishes(const struct tsc_sync *s)
{
	return ((s->round - s->first) & 1) == (s64)s->source;
}

static enum tsc_sync_progress
next_round(struct tsc_sync *s)
{
	return ++s->round == s->end ? TSC_SYNC_DONE : TSC_SYNC_MOVED;
}

/* The publisher's step: out with the stamp, then wait for the acknowledgement. */
static enum tsc_sync_progress
publish(struct tsc_sync *s)
{
	if (!s->stamp_out) {
		WRITE_ONCE(sync_stamp, s->read_tsc());
		__atomic_store_n(&sync_published, s->round, __ATOMIC_RELEASE);
		s->stamp_out = true;
		return TSC_SYNC_MOVED;
	}
	if (__atomic_load_n(&sync_checked, __ATOMIC_ACQUIRE) != s->round)
		return TSC_SYNC_WAITING;
	s->stamp_out = false;
	return next_round(s);
}

/* The checker's step: once the stamp is out, read the TSC, compare, acknowledge. */
static enum tsc_sync_progress
check(struct tsc_sync *s)
{
	if (__atomic_load_n(&sync_published, __ATOMIC_ACQUIRE) != s->round)
		return TSC_SYNC_WAITING;
	u64 now = s->read_tsc(), stamp = READ_ONCE(sync_stamp);
	if (now < stamp && stamp - now > sync_worst_warp)
		__atomic_store_n(&sync_worst_warp, stamp - now, __ATOMIC_RELAXED);
	__atomic_store_n(&sync_checked, s->round, __ATOMIC_RELEASE);
	return next_round(s);
}

enum tsc_sync_progress
tsc_sync_step(struct tsc_sync *s)
{
	if (s->round == s->end)
		return TSC_SYNC_DONE;
	return publishes(s) ? publish(s) : check(s);
}

void
tsc_sync_run(struct tsc_sync *s)
{
	enum tsc_sync_progress p;

	while ((p = tsc_sync_step(s)) != TSC_SYNC_DONE)
		if (p == TSC_SYNC_WAITING)
			cpu_relax();
}

u64
tsc_sync_worst_warp(void)
{
	/* The AP's checks are visible: it stored sync_checked after each, and the source saw the last. */
	return __atomic_load_n(&sync_worst_warp, __ATOMIC_ACQUIRE);
}
