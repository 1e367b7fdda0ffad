/*
 * ntp_clock.c - adjtimex's NTP clock model: the state set and read back,
 * the frequency, tick and adjtime(3) slews measured against the TSC,
 * ADJ_SETOFFSET's step, the leap second inserted at midnight, and a
 * relative CLOCK_REALTIME sleep that a clock step must not stretch.
 *
 * Everything that changes the clock runs only on rewind (never on the
 * shared host's clock) and puts the state back.
 */
#include "usertests.h"
#include <errno.h>
#include <stdlib.h>
#include <sys/timex.h>
#include <unistd.h>
#include <time.h>
#include <x86intrin.h>

#define ADJ_ADJTIME_ONLY 0x8000 /* adjtime(3)'s bit without its offset bit: invalid */

static void
need_rewind(void)
{
	if (!on_rewind())
		skip("changes the system clock: only on rewind");
}

/* Puts the NTP state back to what a clock nobody steered has. */
static void
reset_ntp(void)
{
	struct timex pll = { .modes = ADJ_STATUS | ADJ_OFFSET, .status = STA_PLL, .offset = 0 };
	CHECK_OK(adjtimex(&pll)); /* an offset is only taken (here: dropped) in PLL mode */
	struct timex tx = { .modes = ADJ_STATUS | ADJ_FREQUENCY | ADJ_TICK | ADJ_MAXERROR |
				     ADJ_ESTERROR | ADJ_TIMECONST | ADJ_MICRO,
			    .status = STA_UNSYNC,
			    .tick = 10000,
			    .maxerror = 16000000,
			    .esterror = 16000000,
			    .constant = -2 };
	CHECK_OK(adjtimex(&tx));
}

/* A reading of clock and the TSC at (nearly) the same instant: retried until tightly bracketed. */
static void
sample(clockid_t clock, double *ns, double *cycles)
{
	for (int i = 0; i < 100; i++) {
		unsigned long long t0 = __rdtsc();
		struct timespec ts;
		CHECK_OK(clock_gettime(clock, &ts));
		unsigned long long t1 = __rdtsc();
		*ns = (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
		*cycles = ((double)t0 + (double)t1) / 2;
		if (t1 - t0 < 20000)
			return;
	}
}

/* Nanoseconds of clock per TSC cycle, over about ms milliseconds. */
static double
clock_per_cycle(clockid_t clock, int ms)
{
	double ns0, c0, ns1, c1;
	sample(clock, &ns0, &c0);
	struct timespec pause = { 0, ms * 1000000L };
	nanosleep(&pause, NULL);
	sample(clock, &ns1, &c1);
	return (ns1 - ns0) / (c1 - c0);
}

/* Requests are checked before anything changes: adjtime's bit alone, a tick out of range. */
TEST(adjtimex_invalid_modes)
{
	struct timex tx = { .modes = ADJ_ADJTIME_ONLY };

	CHECK_ERR(EINVAL, adjtimex(&tx));
	CHECK_EQ(tx.tai, 0); /* nothing written back */
	if (geteuid())
		skip("the tick's range is checked after the privilege");
	tx = (struct timex){ .modes = ADJ_TICK, .tick = 900000 / 100 - 1 };
	CHECK_ERR(EINVAL, adjtimex(&tx));
	tx.tick = 1100000 / 100 + 1;
	CHECK_ERR(EINVAL, adjtimex(&tx));
}

/* What is set reads back, in Linux's units; the frequency stops at 500 ppm. */
TEST(adjtimex_state_reads_back)
{
	need_rewind();
	struct timex tx = { .modes = ADJ_FREQUENCY | ADJ_MAXERROR | ADJ_ESTERROR | ADJ_TIMECONST,
			    .freq = 100 << 16,
			    .maxerror = 1234,
			    .esterror = 567,
			    .constant = 3 };
	CHECK_OK(adjtimex(&tx));
	struct timex rd = { 0 };
	CHECK_OK(adjtimex(&rd));
	CHECK_EQ(rd.freq, 100 << 16);
	CHECK(rd.maxerror >= 1234 && rd.maxerror < 1234 + 5000); /* grows 500 us a second */
	CHECK_EQ(rd.esterror, 567);
	CHECK_EQ(rd.constant, 3 + 4); /* microsecond mode adds 4, as Linux */
	tx = (struct timex){ .modes = ADJ_FREQUENCY, .freq = 100000L << 16 };
	CHECK_OK(adjtimex(&tx));
	CHECK_EQ(tx.freq, 500L << 16);
	/* The status keeps its read-only bits; without STA_UNSYNC the result is the state. */
	tx = (struct timex){ .modes = ADJ_STATUS, .status = STA_PLL | STA_NANO };
	CHECK_EQ(adjtimex(&tx), TIME_OK);
	CHECK_EQ(tx.status, STA_PLL);
	tx = (struct timex){ .modes = ADJ_STATUS, .status = STA_UNSYNC };
	CHECK_EQ(adjtimex(&tx), TIME_ERROR);
	CHECK_EQ(tx.status, STA_UNSYNC);
	/* ADJ_OFFSET under STA_PLL: the offset to slew reads back, in ns under ADJ_NANO. */
	tx = (struct timex){ .modes = ADJ_STATUS | ADJ_NANO, .status = STA_PLL };
	CHECK_OK(adjtimex(&tx));
	tx = (struct timex){ .modes = ADJ_OFFSET, .offset = 20000 };
	CHECK_OK(adjtimex(&tx));
	CHECK(tx.offset > 0 && tx.offset <= 20000);
	reset_ntp();
	CHECK_OK(adjtimex(&rd));
	CHECK(rd.freq == 0 && rd.tick == 10000 && rd.offset == 0);
}

/* The frequency and the tick change the rate of REALTIME and MONOTONIC alike. */
TEST(adjtimex_slews_the_rate)
{
	need_rewind();
	double nominal = clock_per_cycle(CLOCK_MONOTONIC, 200);
	struct timex tx = { .modes = ADJ_TICK, .tick = 11000 };
	CHECK_OK(adjtimex(&tx));
	double fast_mono = clock_per_cycle(CLOCK_MONOTONIC, 200);
	double fast_real = clock_per_cycle(CLOCK_REALTIME, 200);
	tx = (struct timex){ .modes = ADJ_TICK | ADJ_FREQUENCY,
			     .tick = 10000,
			     .freq = -(500 << 16) };
	CHECK_OK(adjtimex(&tx));
	double slow = clock_per_cycle(CLOCK_MONOTONIC, 400);
	reset_ntp();
	double again = clock_per_cycle(CLOCK_MONOTONIC, 200);
	CHECK(fast_mono / nominal > 1.095 && fast_mono / nominal < 1.105);
	CHECK(fast_real / nominal > 1.095 && fast_real / nominal < 1.105);
	CHECK(slow / nominal > 0.9994 && slow / nominal < 0.9996);
	CHECK(again / nominal > 0.9999 && again / nominal < 1.0001);
}

/* What adjtime(3)'s slew has left to do, as glibc's adjtime(NULL, &left) asks it. */
static long
adjtime_left(void)
{
	struct timex tx = { .modes = ADJ_OFFSET_SS_READ };
	CHECK_OK(adjtimex(&tx));
	return tx.offset;
}

/* adjtime(3)'s offset is slewed away at 500 us a second, REALTIME and MONOTONIC alike. */
TEST(adjtimex_adjtime_slews_offset)
{
	need_rewind();
	struct timespec r0, m0, r1, m1;
	CHECK_OK(clock_gettime(CLOCK_REALTIME, &r0));
	CHECK_OK(clock_gettime(CLOCK_MONOTONIC, &m0));
	struct timex tx = { .modes = ADJ_OFFSET_SINGLESHOT, .offset = 600 };
	CHECK_OK(adjtimex(&tx));
	CHECK_EQ(tx.offset, 0); /* what was left before */
	long left = adjtime_left();
	CHECK(left > 0 && left <= 600);
	struct timespec pause = { 2, 500000000 };
	nanosleep(&pause, NULL);
	CHECK_EQ(adjtime_left(), 0);
	CHECK_OK(clock_gettime(CLOCK_REALTIME, &r1));
	CHECK_OK(clock_gettime(CLOCK_MONOTONIC, &m1));
	/* Both clocks slewed together: their difference did not move by the offset. */
	long long d0 = (r0.tv_sec - m0.tv_sec) * 1000000000LL + r0.tv_nsec - m0.tv_nsec;
	long long d1 = (r1.tv_sec - m1.tv_sec) * 1000000000LL + r1.tv_nsec - m1.tv_nsec;
	CHECK(llabs(d1 - d0) < 100000);
	reset_ntp();
}

/* ADJ_SETOFFSET steps REALTIME alone, like clock_settime. */
TEST(adjtimex_setoffset_steps)
{
	need_rewind();
	struct timespec r0, m0, r1, m1;
	CHECK_OK(clock_gettime(CLOCK_REALTIME, &r0));
	CHECK_OK(clock_gettime(CLOCK_MONOTONIC, &m0));
	struct timex tx = { .modes = ADJ_SETOFFSET | ADJ_NANO, .time = { 100, 500000000 } };
	CHECK_OK(adjtimex(&tx));
	CHECK_OK(clock_gettime(CLOCK_REALTIME, &r1));
	CHECK_OK(clock_gettime(CLOCK_MONOTONIC, &m1));
	CHECK(r1.tv_sec - r0.tv_sec >= 100 && r1.tv_sec - r0.tv_sec <= 101);
	CHECK(m1.tv_sec - m0.tv_sec <= 1);
	tx = (struct timex){ .modes = ADJ_SETOFFSET | ADJ_NANO, .time = { -101, 500000000 } };
	CHECK_OK(adjtimex(&tx));
	tx = (struct timex){ .modes = ADJ_SETOFFSET, .time = { 0, 1000000 } };
	CHECK_ERR(EINVAL, adjtimex(&tx)); /* microseconds must be under a second */
	reset_ntp();
}

static double
seconds_of(const struct timespec *t)
{
	return (double)t->tv_sec + (double)t->tv_nsec / 1e9;
}

/*
 * CLOCK_REALTIME - CLOCK_MONOTONIC, read between two REALTIME readings at most
 * 20 ms apart, so a host that stops the guest between the readings cannot
 * make it wrong by more than that.
 */
static double
realtime_offset(void)
{
	struct timespec r0, m, r1;
	do {
		CHECK_OK(clock_gettime(CLOCK_REALTIME, &r0));
		CHECK_OK(clock_gettime(CLOCK_MONOTONIC, &m));
		CHECK_OK(clock_gettime(CLOCK_REALTIME, &r1));
	} while (seconds_of(&r1) - seconds_of(&r0) > 0.02);
	return seconds_of(&r0) - seconds_of(&m);
}

/*
 * STA_INS: at midnight UTC 23:59:59 repeats (TIME_OOP), then TIME_WAIT
 * until STA_INS is cleared; TAI - UTC grows by one. Set 2 s before
 * midnight, the wall clock falls one second behind the monotonic one. The
 * test asserts that second (REALTIME - MONOTONIC before and after), not how
 * long the wait took; TIME_INS and TIME_OOP, each visible for a second or
 * two, must be seen unless the guest was stopped for a second or more
 * between two looks (a loaded host).
 */
TEST(adjtimex_leap_second_inserted)
{
	need_rewind();
	struct timespec start, now, m0, m1, m_last;
	CHECK_OK(clock_gettime(CLOCK_REALTIME, &start));
	time_t midnight = start.tv_sec + 86400 - start.tv_sec % 86400;
	struct timespec before = { midnight - 2, 0 };
	CHECK_OK(clock_settime(CLOCK_REALTIME, &before));
	double offset0 = realtime_offset();
	CHECK_OK(clock_gettime(CLOCK_MONOTONIC, &m0));
	/* Synchronized (a small maxerror), so the result is the leap state, not TIME_ERROR. */
	struct timex tx = { .modes = ADJ_STATUS | ADJ_MAXERROR, .status = STA_PLL | STA_INS };
	int state = CHECK_OK(adjtimex(&tx));
	int tai0 = tx.tai;
	bool saw_ins = state == TIME_INS, saw_oop = false;
	double longest_gap = 0;
	m_last = m0;
	do {
		struct timex rd = { 0 };
		struct timespec pause = { 0, 10000000 };
		nanosleep(&pause, NULL);
		state = adjtimex(&rd);
		CHECK_OK(clock_gettime(CLOCK_REALTIME, &now));
		CHECK_OK(clock_gettime(CLOCK_MONOTONIC, &m1));
		if (seconds_of(&m1) - seconds_of(&m_last) > longest_gap)
			longest_gap = seconds_of(&m1) - seconds_of(&m_last);
		m_last = m1;
		saw_ins |= state == TIME_INS;
		saw_oop |= state == TIME_OOP;
	} while (now.tv_sec < midnight + 1 && seconds_of(&m1) - seconds_of(&m0) < 60);
	double took = seconds_of(&m1) - seconds_of(&m0);
	double leap = offset0 - realtime_offset();
	if ((!saw_ins || !saw_oop) && longest_gap < 1.0)
		fail("saw TIME_INS %d, TIME_OOP %d, polling at most %.3f s apart", saw_ins, saw_oop,
		     longest_gap);
	CHECK_EQ(state, TIME_WAIT);
	if (leap < 0.95 || leap > 1.05)
		fail("the wall clock fell %.3f s behind the monotonic one, not 1 s", leap);
	struct timex rd = { 0 };
	CHECK_OK(adjtimex(&rd));
	CHECK_EQ(rd.tai, tai0 + 1);
	tx = (struct timex){ .modes = ADJ_STATUS | ADJ_TAI, .status = STA_PLL, .constant = tai0 };
	CHECK_OK(adjtimex(&tx));
	reset_ntp();
	now.tv_sec = start.tv_sec + (time_t)took + 1;
	CHECK_OK(clock_settime(CLOCK_REALTIME, &now));
}

static void
step_clock_back(long seconds)
{
	struct timespec now;
	CHECK_OK(clock_gettime(CLOCK_REALTIME, &now));
	now.tv_sec -= seconds;
	CHECK_OK(clock_settime(CLOCK_REALTIME, &now));
}

/* A relative CLOCK_REALTIME sleep lasts its length, whatever the wall clock does meanwhile. */
TEST(realtime_relative_sleep_ignores_clock_steps)
{
	need_rewind();
	pid_t stepper = run_later(step_clock_back, 10);
	struct timespec m0, m1, len = { 0, 300000000 };
	CHECK_OK(clock_gettime(CLOCK_MONOTONIC, &m0));
	CHECK_OK(clock_nanosleep(CLOCK_REALTIME, 0, &len, NULL));
	CHECK_OK(clock_gettime(CLOCK_MONOTONIC, &m1));
	expect_exited(wait_status(stepper), 0, "the clock step");
	long long ms = (m1.tv_sec - m0.tv_sec) * 1000LL + (m1.tv_nsec - m0.tv_nsec) / 1000000;
	CHECK(ms >= 300 && ms < 10000); /* a sleep the 10 s step stretched would last 10.3 s */
	step_clock_back(-10);
}
