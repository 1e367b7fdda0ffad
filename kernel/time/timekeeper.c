/*
 * timekeeper.c - advancing the clocks' bases with a counter; see timekeeper.h.
 */
#include "kernel/time/timekeeper.h"
#include "kernel/time/clocksource.h"

static struct tk_base
base_from_ns(u64 ns, u32 shift)
{
	return (struct tk_base){ ns / NSEC_PER_SEC, (ns % NSEC_PER_SEC) << shift };
}

u64
tk_base_ns(const struct tk_base *b, u32 shift)
{
	return b->sec * NSEC_PER_SEC + (b->snsec >> shift);
}

/* Adds shifted nanoseconds, carrying whole seconds out of snsec. */
static void
base_add(struct tk_base *b, u64 snsec, u32 shift)
{
	u64 second = (u64)NSEC_PER_SEC << shift;

	b->snsec += snsec;
	if (b->snsec >= second) {
		b->sec += b->snsec / second;
		b->snsec %= second;
	}
}

/* Re-expresses a base for another shift; the sub-nanosecond part below both is dropped. */
static void
base_reshift(struct tk_base *b, u32 from, u32 to)
{
	b->snsec = (b->snsec >> from) << to;
}

/*
 * Takes the counter's mult and shift, giving up a bit of precision when
 * mult is past 2^31, so that a slewed mult (up to +10% with ADJ_TICK)
 * still fits 32 bits.
 */
static void
set_counter_rate(struct timekeeper *tk, u32 mult, u32 shift)
{
	while (mult > 0x7fffffff && shift > 0) {
		mult = (mult + 1) >> 1;
		shift--;
	}
	tk->counter_mult = mult;
	tk->shift = shift;
	timekeeper_set_rate(tk, tk->rate_excess);
}

void
timekeeper_set_rate(struct timekeeper *tk, s64 excess)
{
	tk->rate_excess = excess;
	tk->mult = (u32)((s64)tk->counter_mult + (((s64)tk->counter_mult * excess) >> 32));
}

void
timekeeper_start(struct timekeeper *tk, u64 now, u64 mask, u32 mult, u32 shift, u64 mono_ns,
		 u64 real_ns)
{
	tk->cycle_last = now;
	tk->mask = mask;
	tk->rate_excess = 0;
	set_counter_rate(tk, mult, shift);
	tk->mono = base_from_ns(mono_ns, tk->shift);
	tk->real = base_from_ns(real_ns, tk->shift);
}

void
timekeeper_advance(struct timekeeper *tk, u64 now)
{
	u64 delta = clocksource_delta(now, tk->cycle_last, tk->mask);

	if (!delta) /* nothing new, or a read behind cycle_last: keep it */
		return;
	tk->cycle_last = now;
	base_add(&tk->mono, delta * tk->mult, tk->shift);
	base_add(&tk->real, delta * tk->mult, tk->shift);
}

void
timekeeper_change_counter(struct timekeeper *tk, u64 now, u64 mask, u32 mult, u32 shift)
{
	u32 old_shift = tk->shift;

	set_counter_rate(tk, mult, shift);
	base_reshift(&tk->mono, old_shift, tk->shift);
	base_reshift(&tk->real, old_shift, tk->shift);
	tk->cycle_last = now;
	tk->mask = mask;
}

u64
timekeeper_read(const struct timekeeper *tk, const struct tk_base *b, u64 now)
{
	u64 snsec = b->snsec + clocksource_delta(now, tk->cycle_last, tk->mask) * tk->mult;

	return b->sec * NSEC_PER_SEC + (snsec >> tk->shift);
}

void
timekeeper_set_real(struct timekeeper *tk, u64 real_ns)
{
	tk->real = base_from_ns(real_ns, tk->shift);
}
