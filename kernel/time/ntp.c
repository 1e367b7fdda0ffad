/*
 * ntp.c - the NTP clock model: what adjtimex sets, how it slews the clock
 * a second at a time, and the leap second; see ntp.h.
 *
 * The clock's rate is the length of the coming second: nominally
 * tick * USER_HZ microseconds (ADJ_TICK), plus the frequency correction
 * (ADJ_FREQUENCY, or what the PLL/FLL learnt from ADJ_OFFSET), plus a
 * slice of the remaining phase offset (offset >> (SHIFT_PLL + constant)
 * each second, so an offset decays exponentially), plus up to 500 us of
 * adjtime(3)'s pending slew. All in ns << NTP_SCALE_SHIFT. Linux keeps
 * this per tick; rewind per second, which is the same total: the
 * timekeeper runs the whole second at that rate (kernel/time/timekeeper.c).
 */
#include "kernel/time/ntp.h"
#include "kernel/printk.h"
#include "kernel/time/time64.h"
#include "uapi/param.h"
#include "uapi/time.h"

#define NTP_SCALE_SHIFT	    32
#define SHIFT_PLL	    2	       /* the PLL's gain */
#define SHIFT_FLL	    2	       /* the FLL's gain */
#define MAXTC		    10	       /* the largest time constant */
#define MINSEC		    256	       /* s: an FLL update needs this long since the last one */
#define MAXSEC		    2048       /* s: past this, FLL even without STA_FLL */
#define MAXPHASE	    500000000l /* ns: the largest offset taken */
#define MAXFREQ		    500000l    /* ns/s: the largest frequency correction, 500 ppm */
#define MAXFREQ_SCALED	    ((s64)MAXFREQ << NTP_SCALE_SHIFT)
#define NTP_PHASE_LIMIT	    ((MAXPHASE / 1000) << 5) /* us: where maxerror means unsynchronized */
#define PPM_SCALE	    ((s64)1000 << (NTP_SCALE_SHIFT - 16)) /* ppm << 16 to ns/s << 32 */
#define PPM_SCALE_INV_SHIFT 19
#define PPM_SCALE_INV	    ((1ll << (PPM_SCALE_INV_SHIFT + NTP_SCALE_SHIFT)) / PPM_SCALE + 1)
#define MAX_TICKADJ	    500l /* us: adjtime(3) slews at most this much a second */
#define MAX_TAI_OFFSET	    100000
#define SECS_PER_DAY	    86400
#define NO_LEAP		    __LONG_LONG_MAX__

static int time_state = TIME_OK;
static int time_status = STA_UNSYNC;
static s64 time_offset;			     /* ns << 32: the phase offset still to slew */
static long time_constant = 2;		     /* the PLL's time constant */
static long time_maxerror = NTP_PHASE_LIMIT; /* us */
static long time_esterror = NTP_PHASE_LIMIT; /* us */
static s64 time_freq;			     /* ns/s << 32: the frequency correction */
static s64 time_reftime;		     /* s: when ADJ_OFFSET last updated */
static long time_adjust;		     /* us: adjtime(3)'s slew still to do */
static long tick_usec = USEC_PER_SEC / USER_HZ;
static int time_tai;
static s64 next_leap_sec = NO_LEAP; /* the second a pending leap takes effect at */
static u64 second_length_base = (u64)NSEC_PER_SEC << NTP_SCALE_SHIFT; /* without the slews */
static u64 second_length = (u64)NSEC_PER_SEC << NTP_SCALE_SHIFT;      /* the coming second */

/* An arithmetic shift that rounds toward zero, as Linux's shift_right. */
static s64
shift_right(s64 v, int s)
{
	return v < 0 ? -((-v) >> s) : v >> s;
}

static s64
clamp64(s64 v, s64 lo, s64 hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* The nominal second with ADJ_TICK and the frequency; the slews of this second follow it. */
static void
update_frequency(void)
{
	u64 base = ((u64)tick_usec * 1000 * USER_HZ << NTP_SCALE_SHIFT) + (u64)time_freq;

	second_length += base - second_length_base;
	second_length_base = base;
}

/* A frequency correction from an offset, in FLL mode (long or STA_FLL intervals); else 0. */
static s64
offset_fll(s64 offset, s64 secs)
{
	time_status &= ~STA_MODE;
	if (secs < MINSEC)
		return 0;
	if (!(time_status & STA_FLL) && secs <= MAXSEC)
		return 0;
	time_status |= STA_MODE;
	return (offset << (NTP_SCALE_SHIFT - SHIFT_FLL)) / secs;
}

/* ADJ_OFFSET: under STA_PLL, a new phase offset to slew, and what it says of the frequency. */
static void
update_offset(long long offset, s64 now_sec)
{
	if (!(time_status & STA_PLL))
		return;
	if (!(time_status & STA_NANO))
		offset = clamp64(offset, -USEC_PER_SEC, USEC_PER_SEC) * 1000;
	offset = clamp64(offset, -MAXPHASE, MAXPHASE);

	s64 secs = now_sec - time_reftime;
	if (time_status & STA_FREQHOLD)
		secs = 0;
	time_reftime = now_sec;
	s64 freq_adj = offset_fll(offset, secs);
	/* A long gap since the last sample would give the PLL too much gain. */
	if (secs > 1 << (SHIFT_PLL + 1 + time_constant))
		secs = 1 << (SHIFT_PLL + 1 + time_constant);
	if (secs > 0)
		freq_adj += (offset * secs)
			    << (NTP_SCALE_SHIFT - 2 * (SHIFT_PLL + 2 + time_constant));
	time_freq = clamp64(freq_adj + time_freq, -MAXFREQ_SCALED, MAXFREQ_SCALED);
	time_offset = offset << NTP_SCALE_SHIFT;
}

/* ADJ_STATUS: leaving PLL mode resets the state; the read-only bits stay. */
static void
update_status(int status, s64 now_sec)
{
	if ((time_status & STA_PLL) && !(status & STA_PLL)) {
		time_state = TIME_OK;
		time_status = STA_UNSYNC;
		next_leap_sec = NO_LEAP;
	}
	if (!(time_status & STA_PLL) && (status & STA_PLL))
		time_reftime = now_sec;
	time_status = (time_status & STA_RONLY) | (status & ~STA_RONLY);
}

static void
apply_modes(const struct kernel_timex *tx, s64 now_sec)
{
	if (tx->modes & ADJ_STATUS)
		update_status(tx->status, now_sec);
	if (tx->modes & ADJ_NANO)
		time_status |= STA_NANO;
	if (tx->modes & ADJ_MICRO)
		time_status &= ~STA_NANO;
	if (tx->modes & ADJ_FREQUENCY)
		time_freq = clamp64(tx->freq * PPM_SCALE, -MAXFREQ_SCALED, MAXFREQ_SCALED);
	if (tx->modes & ADJ_MAXERROR)
		time_maxerror = clamp64(tx->maxerror, 0, NTP_PHASE_LIMIT);
	if (tx->modes & ADJ_ESTERROR)
		time_esterror = clamp64(tx->esterror, 0, NTP_PHASE_LIMIT);
	if (tx->modes & ADJ_TIMECONST) {
		s64 constant = tx->constant + (time_status & STA_NANO ? 0 : 4);
		time_constant = clamp64(constant, 0, MAXTC);
	}
	if ((tx->modes & ADJ_TAI) && tx->constant >= 0 && tx->constant <= MAX_TAI_OFFSET)
		time_tai = (int)tx->constant;
	if (tx->modes & ADJ_OFFSET)
		update_offset(tx->offset, now_sec);
	if (tx->modes & ADJ_TICK)
		tick_usec = tx->tick;
	if (tx->modes & (ADJ_TICK | ADJ_FREQUENCY | ADJ_OFFSET))
		update_frequency();
}

/* Linux's is_error_status: unsynchronized, or a PPS mode without its signal. */
static bool
status_is_error(int s)
{
	return (s & (STA_UNSYNC | STA_CLOCKERR)) ||
	       ((s & (STA_PPSFREQ | STA_PPSTIME)) && !(s & STA_PPSSIGNAL)) ||
	       ((s & (STA_PPSTIME | STA_PPSJITTER)) == (STA_PPSTIME | STA_PPSJITTER)) ||
	       ((s & STA_PPSFREQ) && (s & (STA_PPSWANDER | STA_CLOCKERR)));
}

int
ntp_adjtimex(struct kernel_timex *tx, s64 now_sec, long now_ns)
{
	long long offset;

	if (tx->modes & ADJ_ADJTIME) {
		offset = time_adjust;
		if (!(tx->modes & ADJ_OFFSET_READONLY)) {
			time_adjust = tx->offset;
			update_frequency();
		}
	} else {
		apply_modes(tx, now_sec);
		offset = shift_right(time_offset, NTP_SCALE_SHIFT);
		if (!(time_status & STA_NANO))
			offset /= 1000;
	}
	int result = status_is_error(time_status) ? TIME_ERROR : time_state;
	unsigned modes = tx->modes;
	*tx = (struct kernel_timex){
		.modes = modes,
		.offset = offset,
		.freq = shift_right((time_freq >> PPM_SCALE_INV_SHIFT) * PPM_SCALE_INV,
				    NTP_SCALE_SHIFT),
		.maxerror = time_maxerror,
		.esterror = time_esterror,
		.status = time_status,
		.constant = time_constant,
		.precision = 1,
		.tolerance = MAXFREQ_SCALED / PPM_SCALE,
		.time = { now_sec, time_status & STA_NANO ? now_ns : now_ns / 1000 },
		.tick = tick_usec,
		.tai = time_tai,
	};
	/* Between the leap's instant and the tick that takes it, say what the tick will do. */
	if (now_sec >= next_leap_sec) {
		if (time_state == TIME_INS && (time_status & STA_INS)) {
			result = TIME_OOP;
			tx->tai++;
			tx->time.tv_sec--;
		}
		if (time_state == TIME_DEL && (time_status & STA_DEL)) {
			result = TIME_WAIT;
			tx->tai--;
			tx->time.tv_sec++;
		}
		if (time_state == TIME_OOP && now_sec == next_leap_sec)
			result = TIME_WAIT;
	}
	return result;
}

/* The leap-second state machine at the start of second secs; returns the step. */
static int
leap_second(s64 secs)
{
	int leap = 0;

	switch (time_state) {
	case TIME_OK:
		if (time_status & (STA_INS | STA_DEL)) {
			time_state = time_status & STA_INS ? TIME_INS : TIME_DEL;
			next_leap_sec = secs + SECS_PER_DAY - secs % SECS_PER_DAY;
		}
		break;
	case TIME_INS:
	case TIME_DEL: {
		int flag = time_state == TIME_INS ? STA_INS : STA_DEL;
		if (!(time_status & flag)) {
			next_leap_sec = NO_LEAP;
			time_state = TIME_OK;
		} else if (secs == next_leap_sec) {
			leap = time_state == TIME_INS ? -1 : 1;
			pr_notice("Clock: %s leap second 23:59:%s UTC\n",
				  leap < 0 ? "inserting" : "deleting", leap < 0 ? "60" : "59");
			if (leap > 0)
				next_leap_sec = NO_LEAP;
			time_state = leap < 0 ? TIME_OOP : TIME_WAIT;
		}
		break;
	}
	case TIME_OOP:
		next_leap_sec = NO_LEAP;
		time_state = TIME_WAIT;
		break;
	case TIME_WAIT:
		if (!(time_status & (STA_INS | STA_DEL)))
			time_state = TIME_OK;
		break;
	}
	time_tai -= leap;
	return leap;
}

/* The coming second's length: a slice of the phase offset and of adjtime's slew. */
static void
next_second_length(void)
{
	s64 chunk = shift_right(time_offset, SHIFT_PLL + (int)time_constant);

	time_offset -= chunk;
	second_length = second_length_base + (u64)chunk;
	long step = (long)clamp64(time_adjust, -MAX_TICKADJ, MAX_TICKADJ);
	time_adjust -= step;
	second_length += (u64)((s64)step * 1000 << NTP_SCALE_SHIFT);
}

int
ntp_second_overflow(s64 secs)
{
	int leap = leap_second(secs);

	/* Unsteered, the error bound grows by the tolerance each second. */
	time_maxerror += MAXFREQ / 1000;
	if (time_maxerror > NTP_PHASE_LIMIT) {
		time_maxerror = NTP_PHASE_LIMIT;
		time_status |= STA_UNSYNC;
	}
	next_second_length();
	return leap;
}

s64
ntp_rate_excess(void)
{
	return (s64)(second_length - ((u64)NSEC_PER_SEC << NTP_SCALE_SHIFT)) / (s64)NSEC_PER_SEC;
}

int
ntp_tai_offset(void)
{
	return time_tai;
}
