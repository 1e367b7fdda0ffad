/*
 * power.c - switching the machine off from user space; see power.h.
 */
#include "lib/power.h"

#include <sys/reboot.h>
#include <unistd.h>

int
power_off(void)
{
	/* reboot() does not flush anything itself: a disk-backed kernel would lose data. */
	sync();
	return reboot(RB_POWER_OFF);
}
