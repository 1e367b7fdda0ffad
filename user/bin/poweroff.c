/*
 * poweroff.c - flushes data and switches the machine off at once.
 *
 * There is no service manager to stop first: this is `poweroff -f`.
 */
#include <err.h>

#include "lib/power.h"

int
main(void)
{
	if (power_off() < 0)
		err(1, "reboot(RB_POWER_OFF)");
	return 0;
}
