/*
 * test_ratelimit.c - the decision behind printk_ratelimited on the host,
 * with explicit times instead of the TSC: the first message passes, those
 * within the interval are counted and dropped, the next one after it passes
 * and reports how many were dropped.
 */
#include "tests/unit/unit.h"

UNIT_TEST(first_message_passes_then_interval_suppresses)
{
	struct ratelimit rl = { 0 };
	unsigned dropped = 99;

	CHECK(ratelimit_allow_at(&rl, 1000, 100, &dropped));
	CHECK_EQ(dropped, 0);
	for (u64 t = 1000; t < 1100; t += 10)
		CHECK(!ratelimit_allow_at(&rl, t, 100, &dropped));
	CHECK_EQ(rl.suppressed, 10);
	CHECK(ratelimit_allow_at(&rl, 1100, 100, &dropped));
	CHECK_EQ(dropped, 10); /* reported once, with the message that passes */
	CHECK_EQ(rl.suppressed, 0);
	CHECK(!ratelimit_allow_at(&rl, 1199, 100, &dropped));
	CHECK(ratelimit_allow_at(&rl, 5000, 100, &dropped));
	CHECK_EQ(dropped, 1);
}

UNIT_TEST(a_flood_of_a_million_prints_one_per_interval)
{
	struct ratelimit rl = { 0 };
	unsigned dropped, printed = 0;

	for (u64 t = 1; t <= 1000000; t++) /* one attempt per cycle, interval 1000 cycles */
		printed += ratelimit_allow_at(&rl, t, 1000, &dropped);
	CHECK_EQ(printed, 1000);
}
