/*
 * panic.c - stopping the machine; see panic.h.
 *
 * Only the first CPU to panic reports: the others that panic or fault
 * meanwhile halt, and the rest are stopped with an NMI (which they take even
 * with interrupts off). The report ends with the command line and every
 * knob's value, so a log alone says what configuration failed.
 */
#include "kernel/panic.h"
#include "kernel/backtrace.h"
#include "kernel/knobs.h"
#include "kernel/x86/paravirt.h"
#include "kernel/x86/percpu.h"
#include "kernel/printk.h"
#include "kernel/lib/vsprintf.h"
#include "kernel/boot.h"
#include "drivers/lapic.h"
#include "drivers/qemu_exit.h"

KNOB_BOOL(panic_exit, "panic_exit", 0, true,
	  "on panic, end QEMU with a failure status instead of halting (implied by ktest)");

static int panicking; /* 0, then the id + 1 of the CPU that reports */

bool
panic_in_progress(void)
{
	return READ_ONCE(panicking) != 0;
}

bool
panic_on_this_cpu(void)
{
	return READ_ONCE(panicking) == (int)this_cpu()->id + 1;
}

static __noreturn void
halt_forever(void)
{
	for (;;) {
		local_irq_disable();
		halt();
	}
}

void
panic_begin(void)
{
	int expected = 0;

	local_irq_disable();
	if (!__atomic_compare_exchange_n(&panicking, &expected, (int)this_cpu()->id + 1, false,
					 __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
		halt_forever(); /* someone else is already reporting */
	printk_enter_panic();
	lapic_stop_other_cpus();
}

__noreturn void
panic_stop(void)
{
	pr_emerg("  command line: %s\n", boot_cmdline());
	knobs_print_state(LOG_EMERG);
	if (READ_ONCE(panic_exit) || boot_ktest_mode()) {
		pr_emerg("panic: ending QEMU with a failure status\n");
		machine_exit(false);
	}
	pr_emerg("panic: system halted\n");
	halt_forever();
}

__noreturn void
panic(const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	kvsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	panic_begin();
	pr_emerg("PANIC on CPU %u: %s\n", this_cpu()->id, msg);
	backtrace_print((u64)__builtin_return_address(0), 0, *(u64 *)__builtin_frame_address(0));
	panic_stop();
}
