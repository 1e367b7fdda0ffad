/*
 * test_lockstat.c - host tests for the lock statistics bookkeeping
 * (locking/lockstat.c) and the text of /proc/lockstat (fs/proc/text.c):
 * class registration by name, the "(other)" overflow class, folding the
 * CPUs' counters together, reset by generation, the order of the table
 * and its format.
 *
 * Several CPUs are played by pointing the GS base (arch_prctl) at one
 * struct cpu or another, as fs_host.h does for one. Cycles become ns at
 * 2 ns per cycle here, so a test can tell that times were converted.
 */
/* vsprintf.c (through unit.h) and knobs.c each have a static parse_int. */
#define parse_int vsprintf_parse_int
#include <asm/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "kernel/lib/types.h"
#include "tests/unit/unit.h"
#undef parse_int
#include "kernel/lib/cmdline.c"
#include "kernel/knobs.c"
#include "fs/proc/text.c"
#include "locking/lockstat.c"

u64
tsc_cycles_to_ns(u64 cycles)
{
	return cycles * 2;
}

static struct cpu test_cpus[3];
static struct lockstat_row rows[LOCKSTAT_ROWS];
static char text[8192];

static void
run_on_cpu(u32 id)
{
	test_cpus[id].self = &test_cpus[id];
	test_cpus[id].id = id;
	if (syscall(SYS_arch_prctl, ARCH_SET_GS, &test_cpus[id]) != 0)
		abort();
}

/* No classes, no counts, on CPU 0: tests run in any order. */
static void
fresh(void)
{
	memset(class_names, 0, sizeof(class_names));
	class_names[CLASS_OTHER] = "(other)";
	memset(stats, 0, sizeof(stats));
	generation = 0;
	lock_knobs.any = 0;
	run_on_cpu(0);
}

static const struct lockstat_row *
find_row(size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(rows[i].name, name) == 0)
			return &rows[i];
	return NULL;
}

/* A contended exclusive acquisition of the named class that waited `waited` cycles. */
static void
contend(const char *name, u64 waited)
{
	count_acquire(lockstat_class(name), LOCK_EXCLUSIVE, true, waited);
}

/* ---- classes ------------------------------------------------------------------------ */

UNIT_TEST(a_name_is_one_class_whatever_its_pointer)
{
	char copy[] = "inode";

	fresh();
	u32 a = lockstat_class("inode");
	CHECK(a < LOCKSTAT_CLASSES);
	CHECK_EQ(lockstat_class(copy), a);
	CHECK_STR(class_names[a], "inode");
	CHECK(lockstat_class("dentry") != a);
	CHECK(lockstat_class("dentry") < LOCKSTAT_CLASSES);
}

UNIT_TEST(a_sleeping_lock_caches_its_class)
{
	struct lock_track t = { 0 };

	fresh();
	u32 c = track_class(&t, "pipe");
	CHECK_EQ(t.class, c + 1);
	CHECK_EQ(track_class(&t, "pipe"), c);
	CHECK_EQ(lockstat_class("pipe"), c);
}

UNIT_TEST(a_lock_without_a_name_counts_as_unnamed)
{
	struct lock_track t = { 0 };

	fresh();
	CHECK_STR(class_names[track_class(&t, NULL)], "(unnamed)");
}

UNIT_TEST(names_past_the_table_count_as_other)
{
	static char names[LOCKSTAT_CLASSES + 2][16];
	bool seen[LOCKSTAT_CLASSES] = { false };

	fresh();
	for (unsigned i = 0; i < LOCKSTAT_CLASSES; i++) {
		snprintf(names[i], sizeof(names[i]), "lock%u", i);
		u32 c = lockstat_class(names[i]);
		CHECK(c < LOCKSTAT_CLASSES);
		if (c < LOCKSTAT_CLASSES) {
			CHECK(!seen[c]);
			seen[c] = true;
		}
	}
	CHECK_EQ(lockstat_class("lock7"), lockstat_class(names[7]));
	strcpy(names[LOCKSTAT_CLASSES], "one_more");
	strcpy(names[LOCKSTAT_CLASSES + 1], "and_another");
	CHECK_EQ(lockstat_class(names[LOCKSTAT_CLASSES]), CLASS_OTHER);
	contend(names[LOCKSTAT_CLASSES], 10);
	contend(names[LOCKSTAT_CLASSES + 1], 30);

	size_t n = lockstat_snapshot(rows);
	const struct lockstat_row *other = find_row(n, "(other)");
	CHECK_EQ(n, 1);
	CHECK(other != NULL);
	if (other) {
		CHECK_EQ(other->c.acquisitions, 2);
		CHECK_EQ(other->c.wait, 80);
	}
}

/* ---- counting and reading ------------------------------------------------------------- */

UNIT_TEST(cpus_are_summed_and_maxima_taken_on_read)
{
	fresh();
	u32 c = lockstat_class("runqueue");
	count_acquire(c, LOCK_EXCLUSIVE, true, 100);
	count_release(c, 10);
	run_on_cpu(1);
	count_acquire(c, LOCK_EXCLUSIVE, true, 300);
	count_acquire(c, LOCK_SHARED, true, 50);
	count_acquire(c, LOCK_EXCLUSIVE, false, 0);
	count_release(c, 40);
	/* Each CPU wrote only its own counters. */
	CHECK_EQ(stats[0].classes[c].acquisitions, 1);
	CHECK_EQ(stats[1].classes[c].acquisitions, 3);

	size_t n = lockstat_snapshot(rows);
	CHECK_EQ(n, 1);
	CHECK_STR(rows[0].name, "runqueue");
	CHECK_EQ(rows[0].c.acquisitions, 4);
	CHECK_EQ(rows[0].c.contentions, 2);
	CHECK_EQ(rows[0].c.read_contentions, 1);
	CHECK_EQ(rows[0].c.wait, 2 * 450);
	CHECK_EQ(rows[0].c.wait_max, 2 * 300);
	CHECK_EQ(rows[0].c.hold, 2 * 50);
	CHECK_EQ(rows[0].c.hold_max, 2 * 40);
}

UNIT_TEST(acquire_and_release_time_a_hold)
{
	struct lock_track t = { 0 };

	fresh();
	lock_track_acquire(&t, "tty", LOCK_EXCLUSIVE, rdtsc() - 1000);
	CHECK(t.held_since != 0);
	lock_released(&t, "tty");
	CHECK_EQ(t.held_since, 0);
	lock_track_acquire(&t, "tty", LOCK_SHARED, 0);
	CHECK_EQ(t.held_since, 0); /* reads are not timed */
	lock_released(&t, "tty");  /* and so not counted as holds */

	size_t n = lockstat_snapshot(rows);
	CHECK_EQ(n, 1);
	CHECK_EQ(rows[0].c.acquisitions, 2);
	CHECK_EQ(rows[0].c.contentions, 1);
	CHECK_EQ(rows[0].c.read_contentions, 0);
	CHECK(rows[0].c.wait >= 2 * 1000);
	CHECK(rows[0].c.hold_max == rows[0].c.hold);
}

UNIT_TEST(collecting_follows_the_knob)
{
	struct lock_track t = { 0 };

	fresh();
	CHECK(!lockstat_on());
	CHECK_EQ(lockstat_wait_start(), 0);
	lock_acquired(&t, "file_pos", LOCK_EXCLUSIVE, 0);
	CHECK_EQ(lockstat_snapshot(rows), 0);
	CHECK_EQ(knob_set(knob_find("lockstat"), "1"), 0);
	CHECK(lockstat_on());
	CHECK(lock_knobs.any != 0);
	CHECK(lockstat_wait_start() != 0);
	lock_acquired(&t, "file_pos", LOCK_EXCLUSIVE, 0);
	CHECK_EQ(lockstat_snapshot(rows), 1);
	/* A hold counted while on is timed to its end, knob or not. */
	CHECK_EQ(knob_set(knob_find("lockstat"), "0"), 0);
	lock_released(&t, "file_pos");
	lockstat_snapshot(rows);
	CHECK(rows[0].c.hold > 0);
}

UNIT_TEST(reset_drops_every_cpus_counts)
{
	fresh();
	u32 c = lockstat_class("printk");
	contend("printk", 5);
	run_on_cpu(1);
	contend("printk", 7);
	lockstat_reset();
	CHECK_EQ(lockstat_snapshot(rows), 0);
	/* CPU 1 starts again the next time it counts; CPU 0's old counts stay ignored. */
	count_acquire(c, LOCK_EXCLUSIVE, false, 0);
	CHECK_EQ(stats[0].classes[c].acquisitions, 1);
	CHECK_EQ(lockstat_snapshot(rows), 1);
	CHECK_EQ(rows[0].c.acquisitions, 1);
	CHECK_EQ(rows[0].c.contentions, 0);
	/* The class stays registered. */
	CHECK_EQ(lockstat_class("printk"), c);
}

UNIT_TEST(a_hold_begun_before_a_reset_counts_after_it)
{
	fresh();
	u32 c = lockstat_class("page_alloc");
	count_acquire(c, LOCK_EXCLUSIVE, false, 0);
	lockstat_reset();
	count_release(c, 25);
	CHECK_EQ(lockstat_snapshot(rows), 1);
	CHECK_EQ(rows[0].c.acquisitions, 0);
	CHECK_EQ(rows[0].c.hold, 50);
}

UNIT_TEST(most_contended_first_then_waiting_acquisitions_name)
{
	fresh();
	for (int i = 0; i < 5; i++)
		contend("b_five", 1);
	count_acquire(lockstat_class("a_idle"), LOCK_EXCLUSIVE, false, 0);
	contend("c_two_short", 1);
	contend("c_two_short", 1);
	contend("d_two_long", 100);
	count_acquire(lockstat_class("d_two_long"), LOCK_SHARED, true, 100);
	count_acquire(lockstat_class("f_idle_busy"), LOCK_EXCLUSIVE, false, 0);
	count_acquire(lockstat_class("f_idle_busy"), LOCK_EXCLUSIVE, false, 0);
	count_acquire(lockstat_class("e_idle"), LOCK_EXCLUSIVE, false, 0);

	size_t n = lockstat_snapshot(rows);
	static const char *const order[] = {
		"b_five", "d_two_long", "c_two_short", "f_idle_busy", "a_idle", "e_idle",
	};
	CHECK_EQ(n, ARRAY_SIZE(order));
	for (size_t i = 0; i < ARRAY_SIZE(order) && i < n; i++)
		CHECK_STR(rows[i].name, order[i]);
}

/* ---- /proc/lockstat ------------------------------------------------------------------- */

UNIT_TEST(proc_lockstat_text)
{
	struct procbuf b = { .p = text, .size = sizeof(text) };

	fresh();
	contend("mmap_lock", 1500);
	count_acquire(lockstat_class("mmap_lock"), LOCK_SHARED, true, 500);
	count_release(lockstat_class("mmap_lock"), 4000);
	count_acquire(lockstat_class("a_very_long_lock_class_name"), LOCK_EXCLUSIVE, false, 0);
	procfs_format_lockstat(&b, rows, lockstat_snapshot(rows), true);
	CHECK(procbuf_fits(&b));
	CHECK_STR(text,
		  "# lockstat=1; counts since the last reset, most contended first; times in ns; "
		  "hold times of exclusive holds\n"
		  "class                acquisitions contentions read-contentions     wait-total"
		  "     wait-max     hold-total     hold-max\n"
		  "mmap_lock                       2           1                1           4000"
		  "         3000           8000         8000\n"
		  "a_very_long_lock_class_name            1           0                0"
		  "              0            0              0            0\n");
}

UNIT_TEST(proc_lockstat_text_when_empty_and_off)
{
	struct procbuf b = { .p = text, .size = sizeof(text) };

	fresh();
	procfs_format_lockstat(&b, rows, lockstat_snapshot(rows), false);
	CHECK_STR(text,
		  "# lockstat=0; counts since the last reset, most contended first; times in ns; "
		  "hold times of exclusive holds\n"
		  "class                acquisitions contentions read-contentions     wait-total"
		  "     wait-max     hold-total     hold-max\n");
}

UNIT_TEST(rwsem_policy_figures_fold_reset_and_print)
{
	struct lockstat_rwsem pol[RWSEM_SPIN_POLICIES];
	struct procbuf b = { .p = text, .size = sizeof(text) };

	fresh();
	lockstat_rwsem_add(RWSEM_SPIN_OSQ, RWSEM_EV_SPIN, 100);
	lockstat_rwsem_add(RWSEM_SPIN_OSQ, RWSEM_EV_SPIN_FAILED, 1);
	run_on_cpu(1);
	lockstat_rwsem_add(RWSEM_SPIN_OSQ, RWSEM_EV_SPIN, 50);
	lockstat_rwsem_add(RWSEM_SPIN_OSQ, RWSEM_EV_SPIN_WON, 1);
	lockstat_rwsem_add(RWSEM_SPIN_HANDOFF, RWSEM_EV_HANDOFFS, 2);
	lockstat_rwsem_add(RWSEM_SPIN_OFF, RWSEM_EV_SLEEPS, 3);
	lockstat_rwsem_add(RWSEM_SPIN_POLICIES, RWSEM_EV_SLEEPS, 9); /* out of range: ignored */
	lockstat_rwsem_snapshot(pol);
	CHECK_EQ(pol[RWSEM_SPIN_OSQ].ev[RWSEM_EV_SPIN], 300); /* 150 cycles, 2 ns each */
	CHECK_EQ(pol[RWSEM_SPIN_OSQ].ev[RWSEM_EV_SPIN_WON], 1);
	CHECK_EQ(pol[RWSEM_SPIN_OSQ].ev[RWSEM_EV_SPIN_FAILED], 1);
	CHECK_EQ(pol[RWSEM_SPIN_HANDOFF].ev[RWSEM_EV_HANDOFFS], 2);
	procfs_format_lockstat_rwsem(&b, pol);
	CHECK(procbuf_fits(&b));
	CHECK_STR(
		text,
		"\n# rwsem slow paths per rwsem_spin policy; spin time in ns, the osq wait "
		"included\n"
		"rwsem_spin            spin-time   spin-won  spin-failed     sleeps   handoffs\n"
		"off                           0          0            0          3          0\n"
		"osq                         300          1            1          0          0\n"
		"owner-null-fix                0          0            0          0          0\n"
		"deceive-fix                   0          0            0          0          0\n"
		"reader-owned                  0          0            0          0          0\n"
		"handoff                       0          0            0          0          2\n");
	lockstat_reset();
	lockstat_rwsem_snapshot(pol);
	CHECK_EQ(pol[RWSEM_SPIN_OFF].ev[RWSEM_EV_SLEEPS], 0);
}
