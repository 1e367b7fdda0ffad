/*
 * lockstat.c - the class table and the per-CPU counters behind lockstat.h.
 *
 * Classes. The table is open-addressed by a hash of the name's text, so the
 * same name reached through two pointers (one string literal in two files)
 * is one class; a probe compares the pointer first and the text only when
 * the pointers differ. A free slot is claimed with one compare-and-swap:
 * registration takes no lock, so it can run inside any lock's slow path,
 * the locks of printk and of the allocators included. Slots are never
 * freed; once all are taken, new names count as "(other)". A mutex or
 * rwsem caches its class (struct lock_track) and searches the table once;
 * a spinlock, which has no room for it, searches on every counted
 * acquisition: one hash of a short name and, nearly always, one pointer
 * comparison.
 *
 * Counters. Each CPU has its own counters per class and only that CPU
 * writes them, with single read-modify-write instructions that an
 * interrupt on the same CPU cannot split, so counting writes no cache line
 * that another CPU writes. Readers fold the CPUs together (lockstat.h says
 * how, per counter). A maximum is a compare and a store: an interrupt
 * landing between the two with a larger value of the same class may be
 * lost, which can make a maximum lower by that one event.
 *
 * Reset. Zeroing another CPU's counters would race with its unlocked
 * read-modify-writes: an increment in flight would bring the old total
 * back. So a reset only advances the generation. Counters belong to the
 * generation in which their CPU last zeroed them; readers skip those of an
 * older one, and each CPU zeroes its own the next time it counts.
 */
#include "locking/lockstat.h"
#include "kernel/knobs.h"
#include "kernel/x86/percpu.h"
#include "kernel/lib/string.h"
#include "kernel/time/tsc.h"

#define CLASS_OTHER LOCKSTAT_CLASSES /* the index of "(other)" */

union lock_knobs lock_knobs;

KNOB_BOOL_AT(lockstat, lock_knobs.stat, "lockstat", 0, true,
	     "collect lock statistics per lock class, shown in /proc/lockstat");

static const char *class_names[LOCKSTAT_ROWS] = { [CLASS_OTHER] = "(other)" };

struct lockstat_cpu {
	u64 generation; /* the reset generation the counters count in */
	struct lockstat_counters classes[LOCKSTAT_ROWS];
	struct lockstat_rwsem rwsem[RWSEM_SPIN_POLICIES];
} __aligned(64);

static struct lockstat_cpu stats[MAX_CPUS];
static u64 generation;

/* ---- classes ------------------------------------------------------------------------ */

/* FNV-1a of the text. */
static u32
name_hash(const char *s)
{
	u32 h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (u8)*s) * 16777619u;
	return h;
}

u32
lockstat_class(const char *name)
{
	u32 h;

	if (!name)
		name = "(unnamed)";
	h = name_hash(name);

	for (u32 i = 0; i < LOCKSTAT_CLASSES; i++) {
		const char **slot = &class_names[(h + i) % LOCKSTAT_CLASSES];
		const char *n = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
		if (!n && __atomic_compare_exchange_n(slot, &n, name, false, __ATOMIC_ACQ_REL,
						      __ATOMIC_ACQUIRE))
			return (u32)(slot - class_names);
		/* n is the slot's name, perhaps one another CPU just put there. */
		if (n == name || strcmp(n, name) == 0)
			return (u32)(slot - class_names);
	}
	return CLASS_OTHER;
}

/* A sleeping lock's class, looked up once and kept in the lock. */
static u32
track_class(struct lock_track *t, const char *name)
{
	u32 c = READ_ONCE(t->class);

	if (unlikely(!c)) {
		c = lockstat_class(name) + 1;
		WRITE_ONCE(t->class, c);
	}
	return c - 1;
}

/* ---- counting -------------------------------------------------------------------------- */

/* *p += v in one instruction: whole with respect to interrupts here (no lock prefix). */
static inline void
local_add(u64 *p, u64 v)
{
	__asm__ __volatile__("addq %1, %0" : "+m"(*p) : "er"(v) : "cc");
}

static inline void
local_max(u64 *p, u64 v)
{
	if (v > READ_ONCE(*p))
		WRITE_ONCE(*p, v);
}

/* Zeroes this CPU's counters into generation gen; no interrupt counts meanwhile. */
static void
restart(struct lockstat_cpu *s, u64 gen)
{
	u64 flags = local_irq_save();

	if (s->generation != gen) {
		memset(s->classes, 0, sizeof(s->classes));
		memset(s->rwsem, 0, sizeof(s->rwsem));
		__atomic_store_n(&s->generation, gen, __ATOMIC_RELEASE);
	}
	local_irq_restore(flags);
}

/* This CPU's counters, in the current generation. */
static struct lockstat_cpu *
stats_here(void)
{
	struct lockstat_cpu *s = &stats[this_cpu()->id];
	u64 gen = READ_ONCE(generation);

	if (unlikely(s->generation != gen))
		restart(s, gen);
	return s;
}

static struct lockstat_counters *
counters_here(u32 class)
{
	return &stats_here()->classes[class];
}

void
lockstat_rwsem_add(unsigned policy, enum lockstat_rwsem_event e, u64 n)
{
	if (policy < RWSEM_SPIN_POLICIES && e < RWSEM_EVENTS)
		local_add(&stats_here()->rwsem[policy].ev[e], n);
}

static void
count_acquire(u32 class, enum lock_mode mode, bool contended, u64 waited)
{
	struct lockstat_counters *c = counters_here(class);

	local_add(&c->acquisitions, 1);
	if (!contended)
		return;
	local_add(mode == LOCK_SHARED ? &c->read_contentions : &c->contentions, 1);
	local_add(&c->wait, waited);
	local_max(&c->wait_max, waited);
}

static void
count_release(u32 class, u64 held)
{
	struct lockstat_counters *c = counters_here(class);

	local_add(&c->hold, held);
	local_max(&c->hold_max, held);
}

/* Cycles from then to now; 0 if now is earlier (TSCs of two CPUs a little apart). */
static u64
cycles_between(u64 then, u64 now)
{
	return now > then ? now - then : 0;
}

u64
lockstat_acquire(u32 class, enum lock_mode mode, u64 waited_since)
{
	u64 now = rdtsc();

	count_acquire(class, mode, waited_since != 0, cycles_between(waited_since, now));
	return now;
}

void
lockstat_release(u32 class, u64 held_since)
{
	count_release(class, cycles_between(held_since, rdtsc()));
}

void
lock_track_acquire(struct lock_track *t, const char *name, enum lock_mode mode, u64 waited_since)
{
	u64 now = lockstat_acquire(track_class(t, name), mode, waited_since);

	if (mode == LOCK_EXCLUSIVE)
		t->held_since = now;
}

void
lock_track_release(struct lock_track *t, const char *name)
{
	u64 since = t->held_since;

	t->held_since = 0;
	lockstat_release(track_class(t, name), since);
}

/* ---- reading ----------------------------------------------------------------------------- */

#define FOLD_sum(total, v) ((total) + (v))
#define FOLD_max(total, v) MAX(total, v)

static void
fold(struct lockstat_counters *total, const struct lockstat_counters *c)
{
#define FOLD_FIELD(name, how) total->name = FOLD_##how(total->name, READ_ONCE(c->name));
	LOCKSTAT_COUNTERS(FOLD_FIELD)
#undef FOLD_FIELD
}

/*
 * rows[i]: class i summed over the CPUs of the current generation. The
 * names are read after the counters: a class's name is published (the
 * claiming compare-and-swap) before anything counts in it, so a row with
 * counts always finds its name, even for a class another CPU registered
 * while this one was folding.
 */
static void
sum_classes(struct lockstat_row *rows)
{
	u64 gen = READ_ONCE(generation);

	for (u32 i = 0; i < LOCKSTAT_ROWS; i++)
		rows[i] = (struct lockstat_row){ 0 };
	for (u32 cpu = 0; cpu < MAX_CPUS; cpu++) {
		if (__atomic_load_n(&stats[cpu].generation, __ATOMIC_ACQUIRE) != gen)
			continue;
		for (u32 i = 0; i < LOCKSTAT_ROWS; i++)
			fold(&rows[i].c, &stats[cpu].classes[i]);
	}
	__atomic_thread_fence(__ATOMIC_ACQUIRE); /* x86 keeps the claimer's stores in order */
	for (u32 i = 0; i < LOCKSTAT_ROWS; i++)
		rows[i].name = __atomic_load_n(&class_names[i], __ATOMIC_ACQUIRE);
}

static void
cycles_to_ns(struct lockstat_counters *c)
{
	c->wait = tsc_cycles_to_ns(c->wait);
	c->wait_max = tsc_cycles_to_ns(c->wait_max);
	c->hold = tsc_cycles_to_ns(c->hold);
	c->hold_max = tsc_cycles_to_ns(c->hold_max);
}

/* The order of /proc/lockstat: most contentions, then most waiting, most acquisitions, name. */
static bool
row_before(const struct lockstat_row *a, const struct lockstat_row *b)
{
	u64 ca = a->c.contentions + a->c.read_contentions;
	u64 cb = b->c.contentions + b->c.read_contentions;

	if (ca != cb)
		return ca > cb;
	if (a->c.wait != b->c.wait)
		return a->c.wait > b->c.wait;
	if (a->c.acquisitions != b->c.acquisitions)
		return a->c.acquisitions > b->c.acquisitions;
	return strcmp(a->name, b->name) < 0;
}

/* Insertion sort: a few hundred rows at most, and no allocation. */
static void
sort_rows(struct lockstat_row *rows, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		struct lockstat_row r = rows[i];
		size_t j = i;
		for (; j > 0 && row_before(&r, &rows[j - 1]); j--)
			rows[j] = rows[j - 1];
		rows[j] = r;
	}
}

size_t
lockstat_snapshot(struct lockstat_row *rows)
{
	size_t n = 0;

	sum_classes(rows);
	for (u32 i = 0; i < LOCKSTAT_ROWS; i++) {
		if (!rows[i].c.acquisitions && !rows[i].c.hold)
			continue;
		rows[n] = rows[i];
		cycles_to_ns(&rows[n].c);
		n++;
	}
	sort_rows(rows, n);
	return n;
}

void
lockstat_rwsem_snapshot(struct lockstat_rwsem *rows)
{
	u64 gen = READ_ONCE(generation);

	for (u32 p = 0; p < RWSEM_SPIN_POLICIES; p++)
		rows[p] = (struct lockstat_rwsem){ 0 };
	for (u32 cpu = 0; cpu < MAX_CPUS; cpu++) {
		if (__atomic_load_n(&stats[cpu].generation, __ATOMIC_ACQUIRE) != gen)
			continue;
		for (u32 p = 0; p < RWSEM_SPIN_POLICIES; p++)
			for (u32 e = 0; e < RWSEM_EVENTS; e++)
				rows[p].ev[e] += READ_ONCE(stats[cpu].rwsem[p].ev[e]);
	}
	for (u32 p = 0; p < RWSEM_SPIN_POLICIES; p++)
		rows[p].ev[RWSEM_EV_SPIN] = tsc_cycles_to_ns(rows[p].ev[RWSEM_EV_SPIN]);
}

void
lockstat_reset(void)
{
	__atomic_fetch_add(&generation, 1, __ATOMIC_RELEASE);
}
