/*
 * test_tsc_sync.c - host tests of the TSC warp check's handshake
 * (kernel/time/tsc_sync.c): the boot CPU's side and an AP's side stepped
 * in chosen and in random interleavings, on simulated TSCs. The point is
 * the end of a check: once the boot CPU's side is done, the AP's must need
 * nothing more from it, even if the boot CPU goes on to check the next AP
 * before the first AP has taken another step (a loaded host descheduling
 * it) - the boot hang of Dec 4.
 */
#include "tests/unit/unit.h"
#include "kernel/time/tsc_sync.c"

/* One time line; each read advances it. An AP's TSC reads it off by ap_offset. */
static u64 now_ticks;
static s64 ap_offset;

static u64
boot_tsc(void)
{
	return now_ticks += 10;
}

static u64
ap_tsc(void)
{
	return (now_ticks += 10) + (u64)ap_offset;
}

static void
clocks_reset(s64 offset)
{
	now_ticks = 1000000;
	ap_offset = offset;
}

#define STEP_LIMIT (40 * TSC_SYNC_ROUNDS) /* far more than a check takes */

/* Steps whichever of the two it picks (1 in pick_ap_one_in for the AP) until the source is done. */
static bool
run_until_source_done(struct tsc_sync *src, struct tsc_sync *ap, unsigned pick_ap_one_in)
{
	for (int i = 0; i < STEP_LIMIT; i++) {
		bool ap_turn = pick_ap_one_in && rng() % pick_ap_one_in == 0;
		if (ap_turn || tsc_sync_step(src) == TSC_SYNC_WAITING)
			tsc_sync_step(ap);
		if (src->round == src->end)
			return true;
	}
	return false;
}

/* Steps the AP alone; whether it finishes without ever waiting. */
static bool
ap_finishes_alone(struct tsc_sync *ap)
{
	for (int i = 0; i < STEP_LIMIT; i++) {
		enum tsc_sync_progress p = tsc_sync_step(ap);
		if (p == TSC_SYNC_DONE)
			return true;
		if (p == TSC_SYNC_WAITING)
			return false;
	}
	return false;
}

/* A whole check of AP cpu, the two sides alternating. */
static void
full_check(unsigned cpu)
{
	struct tsc_sync src, ap;

	tsc_sync_begin(&src, cpu, true, boot_tsc);
	tsc_sync_begin(&ap, cpu, false, ap_tsc);
	CHECK(run_until_source_done(&src, &ap, 2));
	CHECK(ap_finishes_alone(&ap));
}

UNIT_TEST(the_boot_cpu_publishes_the_last_round)
{
	struct tsc_sync s;

	tsc_sync_begin(&s, 3, true, boot_tsc);
	s.round = s.end - 1;
	CHECK(publishes(&s));
	tsc_sync_begin(&s, 3, false, ap_tsc);
	s.round = s.end - 1;
	CHECK(!publishes(&s));
}

/*
 * The schedule that hung boots: the boot CPU runs whenever it can, the AP
 * only when the boot CPU waits for it; when the boot CPU is done it checks
 * AP 2 at once, and only then does AP 1 step again. AP 1 must finish alone.
 */
UNIT_TEST(an_ap_descheduled_at_the_end_finishes_after_the_next_ap_is_checked)
{
	struct tsc_sync src, ap;

	clocks_reset(0);
	tsc_sync_begin(&src, 1, true, boot_tsc);
	tsc_sync_begin(&ap, 1, false, ap_tsc);
	CHECK(run_until_source_done(&src, &ap, 0));
	full_check(2);
	full_check(3);
	CHECK(ap_finishes_alone(&ap));
	CHECK_EQ(tsc_sync_worst_warp(), 0);
}

/* The same property for random interleavings, the AP stepped 1 time in 2 to 1 in 5. */
UNIT_TEST(in_any_interleaving_the_ap_needs_nothing_once_the_source_is_done)
{
	for (int trial = 0; trial < 2000; trial++) {
		struct tsc_sync src, ap;
		unsigned cpu = 1 + trial % 7;

		clocks_reset(0);
		tsc_sync_begin(&src, cpu, true, boot_tsc);
		tsc_sync_begin(&ap, cpu, false, ap_tsc);
		CHECK(run_until_source_done(&src, &ap, 2 + trial % 4));
		if (trial % 2)
			full_check(cpu + 1);
		CHECK(ap_finishes_alone(&ap));
	}
}

UNIT_TEST(a_tsc_behind_or_ahead_is_reported_as_a_warp)
{
	/* Behind: the AP reads 1000 below the boot CPU's stamp, 10 ticks after it. */
	clocks_reset(-1000);
	full_check(1);
	CHECK_EQ(tsc_sync_worst_warp(), 990);
	/* Ahead: the boot CPU reads below the AP's stamp. */
	clocks_reset(1000);
	full_check(2);
	CHECK_EQ(tsc_sync_worst_warp(), 990);
	/* In step: nothing, and the last AP's warp is forgotten. */
	clocks_reset(0);
	full_check(3);
	CHECK_EQ(tsc_sync_worst_warp(), 0);
}
