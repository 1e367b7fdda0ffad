/*
 * test_kvm_steal.c - drivers/kvm_steal.h on the host: the steal-time
 * area's layout, its version protocol, and how much steal each tick takes
 * out of the time it charges.
 */
#include "tests/unit/unit.h"
#include "drivers/kvm_steal.h"

#include <stddef.h>

UNIT_TEST(area_layout_is_the_abis)
{
	CHECK_EQ(sizeof(struct kvm_steal_time), 64);
	CHECK_EQ(offsetof(struct kvm_steal_time, steal), 0);
	CHECK_EQ(offsetof(struct kvm_steal_time, version), 8);
	CHECK_EQ(offsetof(struct kvm_steal_time, flags), 12);
	CHECK_EQ(offsetof(struct kvm_steal_time, preempted), 16);
}

UNIT_TEST(an_even_version_reads_an_odd_one_is_a_write_in_progress)
{
	struct kvm_steal_time st = { .steal = 123456, .version = 4 };
	u64 ns = 0;

	CHECK(kvm_steal_read_once(&st, &ns));
	CHECK_EQ(ns, 123456);
	st.version = 5; /* the host is writing */
	CHECK(!kvm_steal_read_once(&st, &ns));
	st.version = 6;
	st.steal = 200000;
	CHECK(kvm_steal_read_once(&st, &ns));
	CHECK_EQ(ns, 200000);
}

UNIT_TEST(a_tick_takes_the_steal_grown_since_the_last)
{
	u64 accounted = 0;

	CHECK_EQ(kvm_steal_take(&accounted, 0, 1000000), 0); /* no clock, or no steal */
	CHECK_EQ(kvm_steal_take(&accounted, 250000, 1000000), 250000);
	CHECK_EQ(accounted, 250000);
	CHECK_EQ(kvm_steal_take(&accounted, 250000, 1000000), 0); /* no growth, nothing */
	CHECK_EQ(kvm_steal_take(&accounted, 400000, 1000000), 150000);
}

UNIT_TEST(steal_beyond_a_tick_waits_for_the_next_ticks)
{
	u64 accounted = 0;

	/* 2.5 ms stolen at once: three 1 ms ticks take 1, 1 and 0.5 */
	CHECK_EQ(kvm_steal_take(&accounted, 2500000, 1000000), 1000000);
	CHECK_EQ(kvm_steal_take(&accounted, 2500000, 1000000), 1000000);
	CHECK_EQ(kvm_steal_take(&accounted, 2500000, 1000000), 500000);
	CHECK_EQ(kvm_steal_take(&accounted, 2500000, 1000000), 0);
	CHECK_EQ(accounted, 2500000);
}

UNIT_TEST(a_clock_that_went_back_starts_over)
{
	u64 accounted = 5000000;

	CHECK_EQ(kvm_steal_take(&accounted, 1000, 1000000), 0);
	CHECK_EQ(accounted, 1000);
	CHECK_EQ(kvm_steal_take(&accounted, 3000, 1000000), 2000);
}
