/*
 * clocksource.c - the list of registered clocksources, choosing the best,
 * and the cycles-to-nanoseconds factors; see clocksource.h.
 *
 * Sources register at boot, on the boot CPU, before anything reads the
 * list; afterwards only their `rating`/`unstable` fields change (a TSC found
 * to warp), each with one store, read by the timekeeping tick.
 */
#include "kernel/time/clocksource.h"
#include "kernel/printk.h"
#include "kernel/lib/string.h"
#include "kernel/lib/vsprintf.h"

#define MAX_CLOCKSOURCES 8

static struct clocksource *sources[MAX_CLOCKSOURCES];
static int nsources;

static unsigned
bit_width(u64 v)
{
	return v ? 64 - (unsigned)__builtin_clzll(v) : 0;
}

/*
 * From the largest shift down: the first mult that fits 32 bits and keeps
 * max_cycles * mult within 63 bits. Rounded to nearest, so the error is at
 * most half a unit of mult (under 0.3 ppm for a GHz TSC).
 */
void
clocks_calc_mult_shift(u32 *mult, u32 *shift, u64 from_hz, u64 to_hz, u64 max_cycles)
{
	unsigned room = 63 - bit_width(max_cycles);
	u32 sh;
	u64 m = 0;

	for (sh = 32; sh > 0; sh--) {
		m = ((to_hz << sh) + from_hz / 2) / from_hz; /* to_hz < 2^32: no overflow */
		if (m <= 0xffffffffull && bit_width(m) <= room)
			break;
	}
	*mult = (u32)m;
	*shift = sh;
}

static void
print_source(const struct clocksource *cs)
{
	pr_info("clocksource: %s, %lu.%06lu MHz, %u-bit, rating %d, mult %u shift %u\n", cs->name,
		cs->hz / 1000000, cs->hz % 1000000, bit_width(cs->mask), cs->rating, cs->mult,
		cs->shift);
}

void
clocksource_register(struct clocksource *cs)
{
	if (nsources == MAX_CLOCKSOURCES) {
		pr_warn("clocksource: no room for %s\n", cs->name);
		return;
	}
	clocks_calc_mult_shift(&cs->mult, &cs->shift, cs->hz, NSEC_PER_SEC,
			       clocksource_max_cycles(cs->hz, cs->mask));
	sources[nsources++] = cs;
	print_source(cs);
}

struct clocksource *
clocksource_best(void)
{
	struct clocksource *best = NULL;

	for (int i = 0; i < nsources; i++) {
		struct clocksource *cs = sources[i];
		if (!READ_ONCE(cs->unstable) && (!best || READ_ONCE(cs->rating) > best->rating))
			best = cs;
	}
	return best;
}

struct clocksource *
clocksource_find(const char *name)
{
	for (int i = 0; i < nsources; i++)
		if (strcmp(sources[i]->name, name) == 0 && !READ_ONCE(sources[i]->unstable))
			return sources[i];
	return NULL;
}

void
clocksource_mark_unstable(struct clocksource *cs, const char *why)
{
	WRITE_ONCE(cs->rating, RATING_UNSTABLE);
	WRITE_ONCE(cs->unstable, true);
	pr_warn("clocksource: %s marked unstable (%s); the clocks move to another source\n",
		cs->name, why);
}

void
clocksource_list_usable(char *buf, size_t size)
{
	size_t n = 0;

	if (size)
		buf[0] = '\0';
	for (int i = 0; i < nsources; i++)
		if (!READ_ONCE(sources[i]->unstable))
			n += kscnprintf(buf + n, size - n, "%s%s", n ? ", " : "", sources[i]->name);
}
