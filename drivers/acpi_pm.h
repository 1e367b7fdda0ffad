/*
 * acpi_pm.h - the ACPI power-management timer as a clocksource: a 24- or
 * 32-bit counter at 3.579545 MHz in an I/O port the FADT names.
 */
#ifndef REWIND_ACPI_PM_H
#define REWIND_ACPI_PM_H

#include "kernel/lib/types.h"

/* Registers the PM timer ("acpi_pm") if the FADT has one that counts; false if not. */
bool acpi_pm_init(void);

#endif
