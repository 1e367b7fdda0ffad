/*
 * power.h - switching the machine off from user space.
 */
#ifndef USER_POWER_H
#define USER_POWER_H

/*
 * Flushes file data, then asks the kernel to power off. Returns only on
 * failure, with -1 and errno (EPERM without the privilege, ENOSYS ...).
 */
int power_off(void);

#endif
