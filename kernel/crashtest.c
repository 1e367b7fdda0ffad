/*
 * crashtest.c - deliberate kernel crashes, chosen with the `crashtest`
 * knob, to prove that each kind of fatal error is reported in full rather
 * than lost in a triple fault (in the spirit of Linux's lkdtm). The boot
 * harness (tools/crash-test) checks each report.
 */
#include "kernel/crashtest.h"
#include "kernel/knobs.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/sched/sched.h"
#include "locking/mutex.h"
#include "locking/spinlock.h"

KNOB_ENUM(crashtest, "crashtest", 0, false,
	  "after boot, crash on purpose to exercise the fault report", "none", "panic", "null",
	  "nx", "ud2", "stack-overflow", "spin-recursion", "spin-bad-release", "sleep-in-atomic",
	  "schedule-in-atomic");

enum {
	CRASH_NONE,
	CRASH_PANIC,
	CRASH_NULL,
	CRASH_NX,
	CRASH_UD2,
	CRASH_STACK_OVERFLOW,
	CRASH_SPIN_RECURSION,
	CRASH_SPIN_BAD_RELEASE,
	CRASH_SLEEP_IN_ATOMIC,
	CRASH_SCHEDULE_IN_ATOMIC
};

static __attribute__((noinline)) u64
crash_null_dereference(volatile u64 *p)
{
	return *p;
}

/* Each level keeps a 1 KiB frame alive until the guard page is hit. */
static volatile u64 recursion_limit = ~0ul; /* volatile: the compiler may not see the end */

static __attribute__((noinline)) u64
crash_recurse(u64 depth)
{
	volatile u8 frame[1024];

	frame[0] = (u8)depth;
	if (depth >= recursion_limit)
		return frame[0];
	return crash_recurse(depth + 1) + frame[0];
}

static const u8 not_code[16] = { 0xc3 }; /* rodata: mapped NX */

/* The spinlock and atomic-context crashes are lockdebug's to catch: they switch it on themselves. */
static struct spinlock crash_lock = SPINLOCK_INIT("crashtest");

static __attribute__((noinline)) void
crash_spin_recursion(void)
{
	spin_lock(&crash_lock);
	spin_lock(&crash_lock);
}

static __attribute__((noinline)) void
crash_spin_bad_release(void)
{
	spin_unlock(&crash_lock);
}

/* A sleeping lock under a spinlock: might_sleep's report, even though the mutex is free. */
static __attribute__((noinline)) void
crash_sleep_in_atomic(void)
{
	static struct mutex m = MUTEX_INIT(m, "crashtest_mutex");

	spin_lock(&crash_lock);
	mutex_lock(&m);
	mutex_unlock(&m);
	spin_unlock(&crash_lock);
}

static __attribute__((noinline)) void
crash_schedule_in_atomic(void)
{
	spin_lock(&crash_lock);
	schedule();
	spin_unlock(&crash_lock);
}

void
crashtest_run(void)
{
	int what = READ_ONCE(crashtest);

	if (what == CRASH_NONE)
		return;
	pr_notice("crashtest: crashing on purpose (%s)\n", crashtest_names[what]);
	switch (what) {
	case CRASH_PANIC:
		panic("crashtest: deliberate panic");
	case CRASH_NULL:
		crash_null_dereference(NULL);
		break;
	case CRASH_NX:
		((void (*)(void))not_code)();
		break;
	case CRASH_UD2:
		__asm__ __volatile__("ud2");
		break;
	case CRASH_STACK_OVERFLOW:
		crash_recurse(0);
		break;
	case CRASH_SPIN_RECURSION:
		WRITE_ONCE(lock_knobs.debug, 1);
		crash_spin_recursion();
		break;
	case CRASH_SPIN_BAD_RELEASE:
		WRITE_ONCE(lock_knobs.debug, 1);
		crash_spin_bad_release();
		break;
	case CRASH_SLEEP_IN_ATOMIC:
		WRITE_ONCE(lock_knobs.debug, 1);
		crash_sleep_in_atomic();
		break;
	case CRASH_SCHEDULE_IN_ATOMIC:
		WRITE_ONCE(lock_knobs.debug, 1);
		crash_schedule_in_atomic();
		break;
	}
	panic("crashtest: survived '%s'", crashtest_names[what]);
}
