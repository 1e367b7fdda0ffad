/*
 * adjtimex.c - adjtimex and clock_adjtime: the NTP interface to the system
 * clock, as far as rewind has it.
 *
 * rewind never steers its clocks: no NTP daemon runs, the kernel keeps no
 * phase-locked loop, leap seconds or PPS discipline. So the answer is the
 * one Linux gives on a machine where nothing ever synchronized the clock:
 * status STA_UNSYNC, result TIME_ERROR, zero offset and frequency, the
 * maximum and estimated errors at Linux's ceiling (NTP_PHASE_LIMIT, which
 * an unsynchronized clock reaches after 16 s), time constant 2, tolerance
 * 500 ppm, tick 10000 us, and the time itself. Read-only queries (modes 0,
 * and adjtime(3)'s ADJ_OFFSET_SS_READ) are answered that way. Requests to
 * change something get Linux's checks (EPERM without privilege, EINVAL for
 * a bad tick, time or frequency) and then EOPNOTSUPP: rewind does not
 * pretend to have applied an adjustment it has no means to apply.
 */
#include "kernel/process/cred.h"
#include "kernel/syscall/syscall.h"
#include "kernel/time/timekeeping.h"
#include "uapi/errno.h"
#include "uapi/param.h"
#include "uapi/time.h"
#include "kernel/time/time64.h"

#define NTP_PHASE_LIMIT	  16000000ll	/* us: the error an unsynchronized clock reports */
#define NTP_TOLERANCE	  (500ll << 16) /* 500 ppm, in ppm << 16 */
#define NTP_TIME_CONSTANT 2
#define PPM_SCALE	  (1000ll << 16) /* a freq of 1 ppm, as the kernel scales it */
#define ADJ_ADJTIME	  0x8000	 /* the bits adjtime(3)'s modes are told apart by */
#define ADJ_OFFSET_RDONLY 0x2000
#define TICK_USEC	  (USEC_PER_SEC / USER_HZ)

/* Linux's timekeeping_validate_timex: the errnos a request gets before anything changes. */
static long
validate(const struct kernel_timex *tx)
{
	if (tx->modes & ADJ_ADJTIME) {
		if (!(tx->modes & ADJ_OFFSET_SINGLESHOT))
			return -EINVAL;
		if (!(tx->modes & ADJ_OFFSET_RDONLY) && !capable(CAP_SYS_TIME))
			return -EPERM;
	} else {
		if (tx->modes && !capable(CAP_SYS_TIME))
			return -EPERM;
		/* A tick more than 10% off would mean a broken crystal. */
		if ((tx->modes & ADJ_TICK) &&
		    (tx->tick < 900000 / USER_HZ || tx->tick > 1100000 / USER_HZ))
			return -EINVAL;
	}
	if (tx->modes & ADJ_SETOFFSET) {
		if (!capable(CAP_SYS_TIME))
			return -EPERM;
		long long limit = tx->modes & ADJ_NANO ? NSEC_PER_SEC : USEC_PER_SEC;
		if (tx->time.tv_usec < 0 || tx->time.tv_usec >= limit)
			return -EINVAL;
	}
	if ((tx->modes & ADJ_FREQUENCY) &&
	    (tx->freq < __LONG_LONG_MAX__ / -PPM_SCALE || tx->freq > __LONG_LONG_MAX__ / PPM_SCALE))
		return -EINVAL;
	return 0;
}

/* Whether the request only reads: modes 0, or adjtime(3)'s query. */
static bool
read_only(const struct kernel_timex *tx)
{
	return tx->modes == 0 || tx->modes == ADJ_OFFSET_SS_READ;
}

/* The state of a clock nothing ever synchronized; the result adjtimex returns. */
static long
report(struct kernel_timex *tx)
{
	u64 now = timekeeping_read_ns(CLOCK_REALTIME);
	unsigned modes = tx->modes;

	*tx = (struct kernel_timex){ .modes = modes,
				     .maxerror = NTP_PHASE_LIMIT,
				     .esterror = NTP_PHASE_LIMIT,
				     .status = STA_UNSYNC,
				     .constant = NTP_TIME_CONSTANT,
				     .precision = 1,
				     .tolerance = NTP_TOLERANCE,
				     .time = { (long long)(now / NSEC_PER_SEC),
					       (long long)(now % NSEC_PER_SEC / 1000) },
				     .tick = TICK_USEC };
	return TIME_ERROR;
}

/*
 * The clock ids Linux knows (0..11 but 10, and the CPU-time ones) have no
 * adjustment but REALTIME's: EOPNOTSUPP; any other id is EINVAL, as are
 * the ids of a device file's clock (PTP), which rewind has none of.
 */
static long
adjustable(int clock)
{
	if (clock == CLOCK_REALTIME)
		return 0;
	bool known = clock < 0 ? (clock & 7) != 3 : clock <= CLOCK_TAI && clock != 10;
	return known ? -EOPNOTSUPP : -EINVAL;
}

static long
adjtimex_user(int clock, struct kernel_timex __user *utx)
{
	struct kernel_timex tx;

	if (copy_from_user(&tx, utx, sizeof(tx)))
		return -EFAULT;
	long ret = adjustable(clock);
	if (ret)
		return ret;
	ret = validate(&tx);
	if (ret)
		return ret;
	if (!read_only(&tx))
		return -EOPNOTSUPP;
	ret = report(&tx);
	return copy_to_user(utx, &tx, sizeof(tx)) ? -EFAULT : ret;
}

SYSCALL1(adjtimex, struct kernel_timex __user *, utx)
{
	return adjtimex_user(CLOCK_REALTIME, utx);
}

SYSCALL2(clock_adjtime, int, clock, struct kernel_timex __user *, utx)
{
	return adjtimex_user(clock, utx);
}
