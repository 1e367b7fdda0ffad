/*
 * capability.h - capget(2)'s header and data, Linux's
 * (linux/capability.h). libc has none of these: user code takes them from
 * <linux/capability.h> or <sys/capability.h> (libcap).
 */
#ifndef REWIND_UAPI_CAPABILITY_H
#define REWIND_UAPI_CAPABILITY_H

#define _LINUX_CAPABILITY_VERSION_1 0x19980330 /* one set of 32 capabilities */
#define _LINUX_CAPABILITY_VERSION_2 0x20071026 /* two (deprecated, read as 3) */
#define _LINUX_CAPABILITY_VERSION_3 0x20080522 /* two sets: capabilities 0-31, 32-63 */
#define CAP_LAST_CAP		    40	       /* CAP_CHECKPOINT_RESTORE, Linux 6.1's last */

struct kernel_cap_header {
	unsigned int version;
	int pid;
};

struct kernel_cap_data {
	unsigned int effective, permitted, inheritable;
};

#endif
