/*
 * lockdebug.c - lockdebug's context assertions (lockdebug.h): where a task
 * may sleep, switch and return to user mode, checked against the CPU's
 * held-spinlock records (spinlock.c) and its interrupt flag.
 *
 * A task that sleeps holding a spinlock leaves it held while another task
 * runs on the CPU; one that takes it then spins forever (recursion, which
 * spinlock.c catches only when it happens). Returning to user mode holding
 * one is the same hold without an end. Sleeping with interrupts off is
 * harmless to the switch itself (flags are saved per task) but says the
 * caller meant to stay atomic: a spin_lock_irqsave section calling a
 * sleeping lock. Before the boot first enables interrupts nothing can
 * sleep anyway, and the boot's initialisation takes sleeping locks.
 */
#include "locking/lockdebug.h"
#include "kernel/ksyms.h"
#include "kernel/panic.h"
#include "kernel/lib/vsprintf.h"
#include "kernel/x86/paravirt.h"
#include "locking/spinlock.h"

#define SYM_TEXT 128 /* room for "function+0x1a/0x80" */

static bool irqs_checked; /* set once the boot CPU has enabled interrupts */

void
lockdebug_irqs_on_at_boot(void)
{
	WRITE_ONCE(irqs_checked, true);
}

/* "spinlock L (taken at f+0x10/0x40) held", and how many more. */
static bool
describe_held(const struct spinlock *except, char *why, size_t size)
{
	const struct spinlock *l = NULL;
	char where[SYM_TEXT] = "an unrecorded place";
	u64 pc = 0;
	u64 flags = local_irq_save();
	u32 n = spin_held_here(except, &l, &pc);

	local_irq_restore(flags);
	if (n == 0)
		return false;
	if (pc)
		ksym_format(pc, where, sizeof(where));
	ksnprintf(why, size, "spinlock %s (taken at %s) is held, %u in all", l->name, where, n);
	return true;
}

bool
lockdebug_sleep_forbidden(const struct spinlock *except, char *why, size_t size)
{
	if (describe_held(except, why, size))
		return true;
	if (READ_ONCE(irqs_checked) && !irqs_enabled()) {
		ksnprintf(why, size, "interrupts are off");
		return true;
	}
	return false;
}

void
lockdebug_might_sleep(const char *what, u64 pc)
{
	char why[LOCKDEBUG_WHY], here[SYM_TEXT];

	if (!lockdebug_sleep_forbidden(NULL, why, sizeof(why)))
		return;
	ksym_format(pc, here, sizeof(here));
	panic("lockdebug: %s may sleep, at %s, but %s", what, here, why);
}

void
lockdebug_schedule(const struct spinlock *rq_lock, u64 caller_flags, u64 pc)
{
	char why[LOCKDEBUG_WHY], here[SYM_TEXT];

	if (irqs_enabled())
		ksnprintf(why, sizeof(why), "interrupts are on under the runqueue lock");
	else if (READ_ONCE(irqs_checked) && !(caller_flags & RFLAGS_IF))
		ksnprintf(why, sizeof(why), "the caller had interrupts off");
	else if (!describe_held(rq_lock, why, sizeof(why)))
		return;
	ksym_format(pc, here, sizeof(here));
	panic("lockdebug: schedule() called from %s, but %s", here, why);
}

void
lockdebug_user_return(u64 rip, u64 vector)
{
	char why[LOCKDEBUG_WHY];

	if (READ_ONCE(lock_knobs.debug) && describe_held(NULL, why, sizeof(why)))
		panic("lockdebug: returning to user mode (rip %#lx, after vector %lu), but %s", rip,
		      vector, why);
	spin_held_forget_stale(); /* what is left is stale: spinlocks_recorded goes */
}
