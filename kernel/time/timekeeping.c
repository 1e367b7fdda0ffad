/*
 * timekeeping.c - the kernel's one timekeeper: its lock, its tick, the
 * clocksource switch and the vvar page; see timekeeping.h. The arithmetic
 * is kernel/time/timekeeper.c.
 *
 * Writers (the tick's machine-wide duty, kernel/time/tick.c; settimeofday
 * and its timezone; adjtimex) take tk_lock with interrupts off and make
 * tk_seq odd while they change the state;
 * readers take no lock: they read the state between two even, equal
 * values of tk_seq, as the vDSO does with the vvar page's own counter.
 */
#include "kernel/time/timekeeping.h"
#include "kernel/boot.h"
#include "kernel/time/clocksource.h"
#include "kernel/lib/cmdline.h"
#include "kernel/lib/seqcount.h"
#include "kernel/knobs.h"
#include "kernel/panic.h"
#include "kernel/x86/percpu.h"
#include "kernel/printk.h"
#include "kernel/lib/string.h"
#include "kernel/time/clock.h"
#include "kernel/time/ntp.h"
#include "kernel/time/timekeeper.h"
#include "kernel/time/tsc.h"
#include "kernel/vdso/vvar.h"
#include "drivers/lapic.h"
#include "drivers/rtc.h"
#include "fs/fs.h" /* timerfd_clock_was_set */
#include "locking/spinlock.h"
#include "uapi/errno.h"
#include "uapi/time.h"

KNOB_ENUM(clocksource_choice, "clocksource", 0, true,
	  "the counter the clocks run on (default: the best-rated one present)", "tsc", "hpet",
	  "acpi_pm", "kvm-clock");

static struct spinlock tk_lock = SPINLOCK_INIT("timekeeping");
static u32 tk_seq;
static struct timekeeper tk;
static struct clocksource *tk_cs;
static u64 coarse_mono_ns, coarse_real_ns; /* as of the last tick */
static s64 ntp_second; /* the REALTIME second NTP's once-a-second work last ran for */
static int tz_minuteswest, tz_dsttime;
static int getcpu_mode; /* how user mode finds its CPU: asked of CPUID once, at boot */

/* ---- publishing to user mode ---------------------------------------------------------- */

static struct vvar_timestamp
stamp(const struct tk_base *b)
{
	return (struct vvar_timestamp){ b->sec, b->snsec };
}

static struct vvar_timestamp
coarse_stamp(u64 ns)
{
	return (struct vvar_timestamp){ ns / NSEC_PER_SEC, ns % NSEC_PER_SEC };
}

/*
 * tk_lock held, inside tk_seq's write section: copies the state into the
 * vvar page under its own counter. Inside, so that no system call can
 * return a time the vDSO does not show yet: a syscall reader waits out
 * tk_seq, by which time the page is new too (published after tk_seq, a
 * coarse clock read by syscall then by the vDSO went back one tick).
 */
static void
vvar_publish(void)
{
	struct vvar_data *v = vvar;

	seq_write_begin(&v->seq);
	v->vclock_mode = tk_cs->vclock_mode;
	v->cycle_last = tk.cycle_last;
	v->mask = tk.mask;
	v->mult = tk.mult;
	v->shift = tk.shift;
	v->base[VVAR_CLOCK_REALTIME] = stamp(&tk.real);
	v->base[VVAR_CLOCK_MONOTONIC] = stamp(&tk.mono);
	v->base[VVAR_CLOCK_MONOTONIC_RAW] = stamp(&tk.mono);
	v->base[VVAR_CLOCK_BOOTTIME] = stamp(&tk.mono);
	v->base[VVAR_CLOCK_REALTIME_COARSE] = coarse_stamp(coarse_real_ns);
	v->base[VVAR_CLOCK_MONOTONIC_COARSE] = coarse_stamp(coarse_mono_ns);
	v->tz_minuteswest = tz_minuteswest;
	v->tz_dsttime = tz_dsttime;
	v->hres_res_ns = 1;
	v->coarse_res_ns = timekeeping_tick_ns();
	v->getcpu_mode = getcpu_mode;
	seq_write_end(&v->seq);
}

/* ---- writers ------------------------------------------------------------------------------ */

/*
 * tk_seq odd, after timekeeper_advance: NTP's work for each second
 * REALTIME entered since (kernel/time/ntp.c): the leap second, and the
 * rate of the second to come. Returns whether a leap second stepped it.
 */
static bool
second_overflows(void)
{
	bool leapt = false;

	while ((s64)tk.real.sec > ntp_second) {
		int leap = ntp_second_overflow(++ntp_second);
		if (leap) {
			tk.real.sec += leap; /* MONOTONIC goes on: only the wall clock steps */
			ntp_second += leap;
			leapt = true;
		}
		timekeeper_set_rate(&tk, ntp_rate_excess());
	}
	return leapt;
}

/* tk_seq odd: counts the time up to now, and restarts the coarse clocks there. */
static bool
advance(void)
{
	timekeeper_advance(&tk, tk_cs->read());
	bool leapt = second_overflows();
	coarse_mono_ns = tk_base_ns(&tk.mono, tk.shift);
	coarse_real_ns = tk_base_ns(&tk.real, tk.shift);
	return leapt;
}

/* tk_seq odd, the time counted up to now with the old source. */
static void
change_clocksource(struct clocksource *cs)
{
	timekeeper_change_counter(&tk, cs->read(), cs->mask, cs->mult, cs->shift);
	tk_cs = cs;
}

static int
choice_of(const struct clocksource *cs)
{
	for (int i = 0; i < (int)ARRAY_SIZE(clocksource_choice_names); i++)
		if (strcmp(clocksource_choice_names[i], cs->name) == 0)
			return i;
	return 0;
}

/*
 * What the knob asks for, from the tick's duty (kernel/time/tick.c: one
 * CPU at a time, the only code that changes tk_cs). An unusable choice is refused once, with a warning, by setting
 * the knob back; an unstable current source gives way to the best one.
 */
static struct clocksource *
wanted_clocksource(void)
{
	struct clocksource *cur = tk_cs;
	int want = READ_ONCE(clocksource_choice);

	if (READ_ONCE(cur->unstable)) {
		struct clocksource *best = clocksource_best();
		if (best)
			WRITE_ONCE(clocksource_choice, choice_of(best));
		return best ? best : cur;
	}
	if (want == choice_of(cur))
		return cur;
	struct clocksource *cs = clocksource_find(clocksource_choice_names[want]);
	if (!cs) {
		char usable[64];
		clocksource_list_usable(usable, sizeof(usable));
		pr_warn_ratelimited(
			"timekeeping: clocksource %s is not available (available: %s); keeping %s\n",
			clocksource_choice_names[want], usable, cur->name);
		WRITE_ONCE(clocksource_choice, choice_of(cur));
	}
	return cs ? cs : cur;
}

void
timekeeping_tick(void)
{
	struct clocksource *old = tk_cs, *next = wanted_clocksource();
	u64 flags = spin_lock_irqsave(&tk_lock);

	seq_write_begin(&tk_seq);
	bool leapt = advance();
	if (next != old)
		change_clocksource(next);
	vvar_publish();
	seq_write_end(&tk_seq);
	spin_unlock_irqrestore(&tk_lock, flags);
	if (leapt)
		timerfd_clock_was_set();
	if (next != old)
		pr_info_ratelimited("timekeeping: clocksource switched from %s to %s\n", old->name,
				    next->name);
}

/* tk_lock held, tk_seq odd, advanced: steps REALTIME to ns (NTP's seconds go on from there). */
static void
step_realtime(u64 ns)
{
	timekeeper_set_real(&tk, ns);
	coarse_real_ns = ns;
	ntp_second = (s64)tk.real.sec;
}

void
timekeeping_set_realtime(u64 ns)
{
	u64 flags = spin_lock_irqsave(&tk_lock);

	seq_write_begin(&tk_seq);
	advance();
	step_realtime(ns);
	vvar_publish();
	seq_write_end(&tk_seq);
	spin_unlock_irqrestore(&tk_lock, flags);
	timerfd_clock_was_set();
}

long
timekeeping_inject_offset(s64 delta_ns)
{
	u64 flags = spin_lock_irqsave(&tk_lock);
	long err = 0;

	seq_write_begin(&tk_seq);
	advance();
	s64 real = (s64)tk_base_ns(&tk.real, tk.shift);
	s64 mono = (s64)tk_base_ns(&tk.mono, tk.shift);
	/* As Linux: REALTIME may not go below MONOTONIC (before the boot). */
	if (real + delta_ns < mono || delta_ns > (s64)KTIME_SEC_MAX * NSEC_PER_SEC - real)
		err = -EINVAL;
	else
		step_realtime((u64)(real + delta_ns));
	vvar_publish();
	seq_write_end(&tk_seq);
	spin_unlock_irqrestore(&tk_lock, flags);
	if (!err)
		timerfd_clock_was_set();
	return err;
}

int
timekeeping_adjtimex(struct kernel_timex *tx)
{
	u64 flags = spin_lock_irqsave(&tk_lock);

	seq_write_begin(&tk_seq);
	advance();
	u64 real = tk_base_ns(&tk.real, tk.shift);
	int state = ntp_adjtimex(tx, (s64)(real / NSEC_PER_SEC), (long)(real % NSEC_PER_SEC));
	timekeeper_set_rate(&tk, ntp_rate_excess());
	vvar_publish();
	seq_write_end(&tk_seq);
	spin_unlock_irqrestore(&tk_lock, flags);
	return state;
}

void
timekeeping_set_tz(int minuteswest, int dsttime)
{
	u64 flags = spin_lock_irqsave(&tk_lock);

	seq_write_begin(&tk_seq);
	tz_minuteswest = minuteswest;
	tz_dsttime = dsttime;
	vvar_publish();
	seq_write_end(&tk_seq);
	spin_unlock_irqrestore(&tk_lock, flags);
}

/* ---- readers ------------------------------------------------------------------------------- */

u64
timekeeping_read_ns(int clock)
{
	u64 ns;
	u32 s;

	do {
		s = seq_read_begin(&tk_seq);
		switch (clock) {
		case VVAR_CLOCK_REALTIME:
			ns = timekeeper_read(&tk, &tk.real, tk_cs->read());
			break;
		case CLOCK_TAI:
			ns = timekeeper_read(&tk, &tk.real, tk_cs->read()) +
			     (u64)ntp_tai_offset() * NSEC_PER_SEC;
			break;
		case VVAR_CLOCK_MONOTONIC:
		case VVAR_CLOCK_MONOTONIC_RAW:
		case VVAR_CLOCK_BOOTTIME:
			ns = timekeeper_read(&tk, &tk.mono, tk_cs->read());
			break;
		case VVAR_CLOCK_REALTIME_COARSE:
			ns = coarse_real_ns;
			break;
		case VVAR_CLOCK_MONOTONIC_COARSE:
			ns = coarse_mono_ns;
			break;
		default:
			return ~0ull;
		}
	} while (seq_read_retry(&tk_seq, s));
	return ns;
}

s64
timekeeping_realtime_offset_ns(void)
{
	s64 offset;
	u32 s;

	do {
		s = seq_read_begin(&tk_seq);
		offset = (s64)(tk_base_ns(&tk.real, tk.shift) - tk_base_ns(&tk.mono, tk.shift));
	} while (seq_read_retry(&tk_seq, s));
	return offset;
}

u64
timekeeping_tick_ns(void)
{
	return NSEC_PER_SEC / (u64)READ_ONCE(hz);
}

/*
 * Half the counter's wrap (clocksource_delta reads a longer stretch as
 * none) and at most the conversion's cap, less an eighth for the time an
 * interrupt takes to come: 2 s on the 24-bit PM timer, 18 s on a 32-bit
 * HPET, 525 s on the TSC.
 */
u64
timekeeping_max_idle_ns(void)
{
	struct clocksource *cs = READ_ONCE(tk_cs);
	u64 cycles = clocksource_max_cycles(cs->hz, cs->mask >> 1);

	return clocksource_cyc2ns(cycles, cs->mult, cs->shift) / 8 * 7;
}

void
timekeeping_get_tz(int *minuteswest, int *dsttime)
{
	u32 s;

	do {
		s = seq_read_begin(&tk_seq);
		*minuteswest = tz_minuteswest;
		*dsttime = tz_dsttime;
	} while (seq_read_retry(&tk_seq, s));
}

const char *
timekeeping_clocksource_name(void)
{
	return READ_ONCE(tk_cs)->name;
}

/* ---- start ---------------------------------------------------------------------------------- */

/* Whether the command line sets the clocksource knob (else the best-rated source wins). */
static bool
cmdline_chooses_clocksource(void)
{
	const char *cursor = boot_cmdline();
	char word[64];

	while (cmdline_next_word(&cursor, word, sizeof(word)) >= 0) {
		cmdline_split_value(word);
		if (strcmp(word, "clocksource") == 0)
			return true;
	}
	return false;
}

static struct clocksource *
boot_clocksource(void)
{
	struct clocksource *best = clocksource_best();

	if (!cmdline_chooses_clocksource())
		return best;
	struct clocksource *cs = clocksource_find(clocksource_choice_names[clocksource_choice]);
	if (!cs) {
		char usable[64];
		clocksource_list_usable(usable, sizeof(usable));
		pr_warn("timekeeping: clocksource=%s is not available (available: %s); using %s\n",
			clocksource_choice_names[clocksource_choice], usable, best->name);
	}
	return cs ? cs : best;
}

/* The RTC's time in Unix seconds, printed; 0 (1970) if it holds nothing valid. */
static u64
rtc_seconds(void)
{
	struct rtc_time t;

	if (!rtc_read(&t)) {
		pr_warn("timekeeping: the RTC holds no valid date; CLOCK_REALTIME starts at 1970\n");
		return 0;
	}
	pr_info("rtc: %04u-%02u-%02u %02u:%02u:%02u UTC\n", t.year, t.month, t.day, t.hour, t.min,
		t.sec);
	return rtc_time_to_unix(&t);
}

void
timekeeping_init(void)
{
	struct clocksource *cs = boot_clocksource();

	if (!cs)
		panic("timekeeping: no clocksource at all");
	u64 real_ns = rtc_seconds() * NSEC_PER_SEC;
	getcpu_mode = cpu_vgetcpu_mode();
	u64 flags = spin_lock_irqsave(&tk_lock);
	seq_write_begin(&tk_seq);
	tk_cs = cs;
	timekeeper_start(&tk, cs->read(), cs->mask, cs->mult, cs->shift, ns_since_boot(), real_ns);
	ntp_second = (s64)tk.real.sec;
	advance();
	vvar_publish();
	seq_write_end(&tk_seq);
	spin_unlock_irqrestore(&tk_lock, flags);
	WRITE_ONCE(clocksource_choice, choice_of(cs));
	pr_info("timekeeping: clocksource %s selected (rating %d)\n", cs->name, cs->rating);
}
