/*
 * qemu_exit.c - see qemu_exit.h. ACPI S5 power-off joins this path when
 * the ACPI tables are parsed (SMP issue); until then a machine without
 * isa-debug-exit halts with interrupts off.
 */
#include "drivers/qemu_exit.h"
#include "kernel/paravirt.h"
#include "kernel/printk.h"
#include "kernel/x86.h"

#define DEBUG_EXIT_PORT 0xf4

__noreturn void
machine_exit(bool success)
{
	outb(DEBUG_EXIT_PORT, success ? EXIT_SUCCESS_CODE : EXIT_FAILURE_CODE);
	/* Still here: no isa-debug-exit device. */
	pr_emerg("machine halted (%s); it is safe to switch it off\n",
		 success ? "success" : "failure");
	for (;;) {
		local_irq_disable();
		halt();
	}
}
