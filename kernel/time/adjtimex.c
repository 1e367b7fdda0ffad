/*
 * adjtimex.c - adjtimex and clock_adjtime: the NTP interface to the system
 * clock. The checks and privileges are here; the state, the slewing and
 * the leap second are kernel/time/ntp.c, applied under the clocks' lock by
 * kernel/time/timekeeping.c. Only CLOCK_REALTIME is adjustable, as on
 * Linux without PTP devices.
 */
#include "kernel/process/cred.h"
#include "kernel/syscall/syscall.h"
#include "kernel/time/clock.h"
#include "kernel/time/ntp.h"
#include "kernel/time/timekeeping.h"
#include "uapi/errno.h"
#include "uapi/param.h"
#include "uapi/time.h"
#include "kernel/time/time64.h"

#define PPM_SCALE (1000ll << 16) /* a freq of 1 ppm, as the kernel scales it */

/* Linux's timekeeping_validate_timex: the errnos a request gets before anything changes. */
static long
validate(const struct kernel_timex *tx)
{
	if (tx->modes & ADJ_ADJTIME) {
		/* Within the kernel, adjtime(3)'s single-shot offset is the low bit. */
		if (!(tx->modes & ADJ_OFFSET))
			return -EINVAL;
		if (!(tx->modes & ADJ_OFFSET_READONLY) && !capable(CAP_SYS_TIME))
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

/* ADJ_SETOFFSET: steps the clock by tx->time, as clock_settime would. */
static long
set_offset(const struct kernel_timex *tx)
{
	s64 frac = tx->modes & ADJ_NANO ? tx->time.tv_usec : tx->time.tv_usec * NSEC_PER_USEC;

	if (tx->time.tv_sec > (s64)KTIME_SEC_MAX || tx->time.tv_sec < -(s64)KTIME_SEC_MAX)
		return -EINVAL;
	return timekeeping_inject_offset(tx->time.tv_sec * NSEC_PER_SEC + frac);
}

static long
adjtimex_user(int clock, struct kernel_timex __user *utx)
{
	struct kernel_timex tx;

	if (copy_from_user(&tx, utx, sizeof(tx)))
		return -EFAULT;
	long ret = adjustable(clock);
	if (!ret)
		ret = validate(&tx);
	if (!ret && (tx.modes & ADJ_SETOFFSET))
		ret = set_offset(&tx);
	if (ret)
		return ret;
	ret = timekeeping_adjtimex(&tx);
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
