/*
 * qemu_exit.c - see qemu_exit.h. Without isa-debug-exit, success powers
 * the machine off through ACPI (S5) where the tables allow it; a failure,
 * or a machine that cannot power off, halts with interrupts off, so that
 * the report stays on the screen.
 */
#include "drivers/qemu_exit.h"
#include "drivers/acpi.h"
#include "kernel/x86/paravirt.h"
#include "kernel/printk.h"
#include "kernel/x86/x86.h"

#define DEBUG_EXIT_PORT 0xf4

__noreturn void
machine_exit(bool success)
{
	outb(DEBUG_EXIT_PORT, success ? EXIT_SUCCESS_CODE : EXIT_FAILURE_CODE);
	/* Still here: no isa-debug-exit device. */
	if (success)
		acpi_power_off();
	pr_emerg("machine halted (%s); it is safe to switch it off\n",
		 success ? "success" : "failure");
	for (;;) {
		local_irq_disable();
		halt();
	}
}
