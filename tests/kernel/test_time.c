/*
 * test_time.c - self-tests of the time sources: the TSC only moves
 * forward, and the LAPIC timer ticks at the rate `hz` asks for (measured
 * against the TSC, with margins wide enough for a busy emulator).
 */
#include "kernel/ktest.h"
#include "kernel/paravirt.h"
#include "kernel/percpu.h"
#include "kernel/tsc.h"
#include "drivers/lapic.h"

KTEST(tsc_is_monotonic)
{
	u64 prev = rdtsc(), backwards = 0;

	for (int i = 0; i < 100000; i++) {
		u64 now = rdtsc();
		if (now < prev)
			backwards++;
		prev = now;
	}
	KT_CHECK_EQ(backwards, 0);
	KT_CHECK(tsc_hz > 100000000ul);		/* slower than 100 MHz: calibration broke */
	KT_CHECK(ns_since_boot() > 0);
}

KTEST(timer_ticks_advance_at_hz)
{
	const u64 want = 50;
	u64 start_jiffies = READ_ONCE(jiffies), start_cpu_ticks = this_cpu()->ticks;
	u64 t0 = rdtsc(), deadline = t0 + 2 * tsc_hz;

	KT_CHECK(irqs_enabled());
	while (READ_ONCE(jiffies) - start_jiffies < want && rdtsc() < deadline)
		safe_halt();
	u64 ticks = READ_ONCE(jiffies) - start_jiffies;
	u64 us = tsc_cycles_to_ns(rdtsc() - t0) / 1000;

	KT_CHECK(ticks >= want);
	KT_CHECK(this_cpu()->ticks - start_cpu_ticks >= want);
	/* 50 ticks should take 50 ms at hz=1000; allow a loaded host 0.5x..4x. */
	u64 expect_us = want * 1000000 / (u64)hz;
	KT_CHECK(us >= expect_us / 2);
	KT_CHECK(us <= expect_us * 4);
	pr_info("ktest:     %lu ticks in %lu us (expected %lu us)\n", ticks, us, expect_us);
}
