/*
 * test_timekeeping.c - host tests of the timekeeping arithmetic: the
 * cycles-to-ns factors (kernel/time/clocksource.c), the timekeeper's
 * accumulation across counter wraps, many ticks and a change of counter
 * (kernel/time/timekeeper.c), and the RTC's decoding and calendar
 * (drivers/rtc.c), checked against exact 128-bit arithmetic and the host
 * C library's timegm(); and NTP's slewed rate and leap second
 * (kernel/time/ntp.c).
 */
#define _GNU_SOURCE
#include <time.h>
#include "tests/unit/unit.h"
#include "kernel/time/clocksource.c"
#include "kernel/time/timekeeper.c"
#include "drivers/rtc.c"
#include "kernel/time/ntp.c"

struct acpi_info acpi; /* rtc.c reads the century register's index from it */

static const u64 rates[] = {
	3579545,       /* ACPI PM timer */
	14318180,      /* HPET on many chipsets */
	100000000,     /* QEMU's HPET */
	1000000000,    /* kvm-clock (ns) */
	2445406000ull, /* a TSC */
	4999999999ull, /* a fast TSC */
};

/* The exact ns of cycles at hz, for comparison. */
static u64
exact_ns(u64 cycles, u64 hz)
{
	return (u64)((unsigned __int128)cycles * NSEC_PER_SEC / hz);
}

static u64
ppm_off(u64 got, u64 want)
{
	u64 diff = got > want ? got - want : want - got;
	return (u64)((unsigned __int128)diff * 1000000000 / want); /* in parts per 10^9 */
}

UNIT_TEST(mult_shift_converts_one_second_within_a_ppm)
{
	for (size_t i = 0; i < ARRAY_SIZE(rates); i++) {
		u64 hz = rates[i];
		u64 mask = hz == 3579545 ? 0xffffff : ~0ull;
		u64 max = clocksource_max_cycles(hz, mask);
		u32 mult, shift;

		clocks_calc_mult_shift(&mult, &shift, hz, NSEC_PER_SEC, max);
		CHECK(mult > 0);
		/* the largest delta times mult leaves a spare bit below 2^64 */
		CHECK((unsigned __int128)max * mult < ((unsigned __int128)1 << 63));
		u64 cycles = hz < max ? hz : max;
		CHECK(ppm_off(clocksource_cyc2ns(cycles, mult, shift), exact_ns(cycles, hz)) <
		      1000);
		/* and the largest delta converts without overflow */
		CHECK(ppm_off(clocksource_cyc2ns(max, mult, shift), exact_ns(max, hz)) < 1000);
	}
}

UNIT_TEST(mult_shift_is_exact_for_whole_ns_periods)
{
	u32 mult, shift;

	clocks_calc_mult_shift(&mult, &shift, 100000000, NSEC_PER_SEC, 0xffffffff);
	CHECK_EQ(clocksource_cyc2ns(123456789, mult, shift), 1234567890);
	clocks_calc_mult_shift(&mult, &shift, NSEC_PER_SEC, NSEC_PER_SEC, 600 * NSEC_PER_SEC);
	CHECK_EQ(clocksource_cyc2ns(987654321, mult, shift), 987654321);
}

UNIT_TEST(delta_ignores_a_read_behind_the_last)
{
	CHECK_EQ(clocksource_delta(1000, 900, ~0ull), 100);
	CHECK_EQ(clocksource_delta(900, 1000, ~0ull), 0); /* another CPU's TSC, a little behind */
	CHECK_EQ(clocksource_delta(5, 0xfffffa, 0xffffff), 11); /* a 24-bit wrap */
	CHECK_EQ(clocksource_delta(0xfffffa, 5, 0xffffff), 0);
}

static struct timekeeper
counter_timekeeper(u64 hz, u64 mask, u64 start)
{
	struct timekeeper tk;
	u32 mult, shift;

	clocks_calc_mult_shift(&mult, &shift, hz, NSEC_PER_SEC, clocksource_max_cycles(hz, mask));
	timekeeper_start(&tk, start, mask, mult, shift, 5 * NSEC_PER_SEC,
			 1700000000 * NSEC_PER_SEC);
	return tk;
}

/* Advances tk by `steps` updates `step` counter cycles apart, the counter wrapping at mask. */
static u64
run_counter(struct timekeeper *tk, u64 start, u64 steps, u64 step)
{
	u64 now = start;

	for (u64 i = 0; i < steps; i++) {
		now = (now + step) & tk->mask;
		timekeeper_advance(tk, now);
	}
	return now;
}

static void
check_wraps(u64 mask)
{
	const u64 hz = 3579545;
	u64 start = mask - 1000;
	struct timekeeper tk = counter_timekeeper(hz, mask, start);
	u64 mono0 = tk_base_ns(&tk.mono, tk.shift), real0 = tk_base_ns(&tk.real, tk.shift);
	u64 step = 86413, steps = 3 * (mask + 1) / step + 1; /* three wraps and a bit */
	u64 cycles = steps * step;

	u64 now = run_counter(&tk, start, steps, step);
	CHECK(now < start); /* it did wrap */
	u64 elapsed = tk_base_ns(&tk.mono, tk.shift) - mono0;
	CHECK(ppm_off(elapsed, exact_ns(cycles, hz)) < 1000);
	CHECK_EQ(tk_base_ns(&tk.real, tk.shift) - real0, elapsed);
	/* a reading between updates, across the wrap */
	tk = counter_timekeeper(hz, mask, mask - 700);
	u64 read = timekeeper_read(&tk, &tk.mono, 800) - tk_base_ns(&tk.mono, tk.shift);
	CHECK_EQ(read, clocksource_cyc2ns(1501, tk.mult, tk.shift));
}

UNIT_TEST(accumulation_wraps_a_24_bit_counter)
{
	check_wraps(0xffffff);
}

UNIT_TEST(accumulation_wraps_a_32_bit_counter)
{
	check_wraps(0xffffffff);
}

/* A day of 1 ms ticks with jitter: the clocks stay within 1 ppm of the counter. */
UNIT_TEST(accumulation_over_many_ticks_does_not_drift)
{
	for (size_t i = 0; i < ARRAY_SIZE(rates); i++) {
		u64 hz = rates[i];
		u64 mask = hz == 3579545 ? 0xffffff : hz == 100000000 ? 0xffffffff : ~0ull;
		struct timekeeper tk = counter_timekeeper(hz, mask, 0);
		u64 mono0 = tk_base_ns(&tk.mono, tk.shift);
		u64 now = 0, total = 0;

		for (int tick = 0; tick < 2000000; tick++) {
			u64 step = hz / 1000 + rng() % 97; /* interrupt latency varies */
			total += step;
			now = (now + step) & mask;
			timekeeper_advance(&tk, now);
		}
		u64 got = tk_base_ns(&tk.mono, tk.shift) - mono0;
		CHECK(ppm_off(got, exact_ns(total, hz)) < 1000);
	}
}

UNIT_TEST(changing_counter_keeps_time_continuous)
{
	struct timekeeper tk = counter_timekeeper(3579545, 0xffffff, 100);
	u32 mult, shift;

	run_counter(&tk, 100, 1000, 3579); /* about a second on the PM timer */
	u64 before = timekeeper_read(&tk, &tk.mono, tk.cycle_last);
	clocks_calc_mult_shift(&mult, &shift, 2445406000ull, NSEC_PER_SEC,
			       clocksource_max_cycles(2445406000ull, ~0ull));
	timekeeper_change_counter(&tk, 777777777777ull, ~0ull, mult, shift);
	u64 after = timekeeper_read(&tk, &tk.mono, 777777777777ull);
	CHECK(after <= before && before - after <= 1); /* at most the dropped sub-ns */
	CHECK(timekeeper_read(&tk, &tk.mono, 777777777777ull + 2445406) > after + 999000);
}

UNIT_TEST(setting_realtime_leaves_monotonic_alone)
{
	struct timekeeper tk = counter_timekeeper(100000000, 0xffffffff, 0);

	timekeeper_advance(&tk, 100000000);
	u64 mono = tk_base_ns(&tk.mono, tk.shift);
	timekeeper_set_real(&tk, 42 * NSEC_PER_SEC + 7);
	CHECK_EQ(tk_base_ns(&tk.real, tk.shift), 42 * NSEC_PER_SEC + 7);
	CHECK_EQ(tk_base_ns(&tk.mono, tk.shift), mono);
	timekeeper_advance(&tk, 150000000);
	CHECK_EQ(timekeeper_read(&tk, &tk.real, 150000000), 42 * NSEC_PER_SEC + 7 + 500000000);
}

/* ---- the calendar and the RTC ---------------------------------------------------- */

/* A rate of 1 + 500 ppm makes a second of every counter 500 us longer, within a ppm (mult's grain). */
UNIT_TEST(a_slewed_rate_stretches_the_second)
{
	for (size_t i = 0; i < ARRAY_SIZE(rates); i++) {
		struct timekeeper tk = counter_timekeeper(rates[i], ~0ull, 0);
		u64 mono0 = tk_base_ns(&tk.mono, tk.shift);
		timekeeper_set_rate(&tk, (s64)((500ll << 32) / 1000000));
		run_counter(&tk, 0, 100, rates[i] / 100);
		u64 elapsed = tk_base_ns(&tk.mono, tk.shift) - mono0;
		u64 want = exact_ns(100 * (rates[i] / 100), rates[i]);
		CHECK(ppm_off(elapsed, want + want / 2000) < 1000);
	}
}

/* STA_INS: the next midnight repeats its last second, then TIME_OOP, TIME_WAIT, TIME_OK. */
UNIT_TEST(ntp_inserts_a_leap_second_at_midnight)
{
	struct kernel_timex tx = { .modes = ADJ_STATUS | ADJ_MAXERROR,
				   .status = STA_PLL | STA_INS };
	s64 midnight = 86400 * 20000;

	CHECK_EQ(ntp_adjtimex(&tx, midnight - 3, 0), TIME_OK);
	CHECK_EQ(ntp_second_overflow(midnight - 2), 0);
	tx.modes = 0;
	CHECK_EQ(ntp_adjtimex(&tx, midnight - 2, 0), TIME_INS);
	CHECK_EQ(ntp_second_overflow(midnight - 1), 0);
	CHECK_EQ(ntp_adjtimex(&tx, midnight, 5), TIME_OOP); /* before the tick takes it */
	CHECK_EQ(tx.time.tv_sec, midnight - 1);
	CHECK_EQ(ntp_second_overflow(midnight), -1);
	CHECK_EQ(ntp_adjtimex(&tx, midnight - 1, 0), TIME_OOP);
	CHECK_EQ(ntp_tai_offset(), 1);
	CHECK_EQ(ntp_second_overflow(midnight), 0);
	CHECK_EQ(ntp_adjtimex(&tx, midnight, 0), TIME_WAIT);
	tx = (struct kernel_timex){ .modes = ADJ_STATUS, .status = STA_PLL };
	ntp_adjtimex(&tx, midnight, 0);
	CHECK_EQ(ntp_second_overflow(midnight + 1), 0);
	CHECK_EQ(ntp_adjtimex(&tx, midnight + 1, 0), TIME_OK);
}

UNIT_TEST(days_from_civil_known_dates)
{
	CHECK_EQ(days_from_civil(1970, 1, 1), 0);
	CHECK_EQ(days_from_civil(1969, 12, 31), -1);
	CHECK_EQ(days_from_civil(1972, 2, 29), 789);
	CHECK_EQ(days_from_civil(2000, 2, 29), 11016); /* 2000 is a leap year (÷400) */
	CHECK_EQ(days_from_civil(2000, 3, 1), 11017);
	CHECK_EQ(days_from_civil(2038, 1, 19), 24855);
	CHECK_EQ(days_from_civil(2100, 2, 28), 47540);
	CHECK_EQ(days_from_civil(2100, 3, 1), 47541); /* 2100 is not (÷100) */
	CHECK_EQ(days_from_civil(2400, 2, 29), 157113);
}

UNIT_TEST(unix_seconds_match_timegm)
{
	for (int i = 0; i < 100000; i++) {
		struct rtc_time t = {
			.year = 1970 + (unsigned)(rng() % 430),
			.month = 1 + (unsigned)(rng() % 12),
			.day = 1 + (unsigned)(rng() % 28),
			.hour = (unsigned)(rng() % 24),
			.min = (unsigned)(rng() % 60),
			.sec = (unsigned)(rng() % 60),
		};
		struct tm tm = { .tm_year = (int)t.year - 1900,
				 .tm_mon = (int)t.month - 1,
				 .tm_mday = (int)t.day,
				 .tm_hour = (int)t.hour,
				 .tm_min = (int)t.min,
				 .tm_sec = (int)t.sec };
		if ((u64)timegm(&tm) != rtc_time_to_unix(&t)) {
			CHECK_EQ(rtc_time_to_unix(&t), timegm(&tm));
			break;
		}
	}
}

UNIT_TEST(bcd_decodes)
{
	CHECK_EQ(rtc_bcd_to_bin(0x00), 0);
	CHECK_EQ(rtc_bcd_to_bin(0x09), 9);
	CHECK_EQ(rtc_bcd_to_bin(0x10), 10);
	CHECK_EQ(rtc_bcd_to_bin(0x59), 59);
	CHECK_EQ(rtc_bcd_to_bin(0x99), 99);
}

#define BCD_24H	   0x02
#define BINARY_24H 0x06
#define BCD_12H	   0x00

UNIT_TEST(rtc_registers_decode_bcd_binary_and_12_hour)
{
	struct rtc_time t;
	struct rtc_registers r = { .sec = 0x45,
				   .min = 0x30,
				   .hour = 0x23,
				   .day = 0x31,
				   .month = 0x12,
				   .year = 0x99,
				   .century = 0x19,
				   .status_b = BCD_24H };

	CHECK(rtc_decode(&r, &t));
	CHECK_EQ(t.year, 1999);
	CHECK_EQ(t.month, 12);
	CHECK_EQ(t.day, 31);
	CHECK_EQ(t.hour, 23);
	CHECK_EQ(t.min, 30);
	CHECK_EQ(t.sec, 45);
	CHECK_EQ(rtc_time_to_unix(&t), 946683045);

	r = (struct rtc_registers){ .sec = 1,
				    .min = 2,
				    .hour = 3,
				    .day = 29,
				    .month = 2,
				    .year = 24,
				    .status_b = BINARY_24H };
	CHECK(rtc_decode(&r, &t));
	CHECK_EQ(t.year, 2024); /* no century register: 20xx */
	CHECK_EQ(t.day, 29);

	r = (struct rtc_registers){
		.hour = 0x12, .day = 1, .month = 1, .year = 0x25, .status_b = BCD_12H
	};
	CHECK(rtc_decode(&r, &t));
	CHECK_EQ(t.hour, 0); /* 12 AM */
	r.hour = 0x80 | 0x12;
	CHECK(rtc_decode(&r, &t));
	CHECK_EQ(t.hour, 12); /* 12 PM */
	r.hour = 0x80 | 0x01;
	CHECK(rtc_decode(&r, &t));
	CHECK_EQ(t.hour, 13);
	r.hour = 0x11;
	CHECK(rtc_decode(&r, &t));
	CHECK_EQ(t.hour, 11);
}

UNIT_TEST(rtc_rejects_impossible_dates)
{
	struct rtc_time t;
	struct rtc_registers r = { .hour = 0x10,
				   .day = 0x29,
				   .month = 0x02,
				   .year = 0x00,
				   .century = 0x21,
				   .status_b = BCD_24H };

	CHECK(!rtc_decode(&r, &t)); /* 2100-02-29 */
	r.century = 0x20;
	CHECK(rtc_decode(&r, &t)); /* 2000-02-29 */
	r.day = 0x30;
	CHECK(!rtc_decode(&r, &t));
	r = (struct rtc_registers){ .hour = 0x24, .day = 1, .month = 1, .status_b = BCD_24H };
	CHECK(!rtc_decode(&r, &t));
	r = (struct rtc_registers){ .hour = 0x13, .day = 1, .month = 1, .status_b = BCD_12H };
	CHECK(!rtc_decode(&r, &t));
	r = (struct rtc_registers){ .day = 1, .month = 0x13, .status_b = BCD_24H };
	CHECK(!rtc_decode(&r, &t));
}
