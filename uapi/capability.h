/*
 * capability.h - capget(2) and capset(2)'s header and data, the
 * capability numbers and the securebits, Linux's (linux/capability.h,
 * linux/securebits.h). libc has none of these: user code takes them from
 * <linux/capability.h> or <sys/capability.h> (libcap).
 */
#ifndef REWIND_UAPI_CAPABILITY_H
#define REWIND_UAPI_CAPABILITY_H

#define _LINUX_CAPABILITY_VERSION_1 0x19980330 /* one set of 32 capabilities */
#define _LINUX_CAPABILITY_VERSION_2 0x20071026 /* two (deprecated, read as 3) */
#define _LINUX_CAPABILITY_VERSION_3 0x20080522 /* two sets: capabilities 0-31, 32-63 */

struct kernel_cap_header {
	unsigned int version;
	int pid;
};

struct kernel_cap_data {
	unsigned int effective, permitted, inheritable;
};

#define CAP_CHOWN	       0
#define CAP_DAC_OVERRIDE       1
#define CAP_DAC_READ_SEARCH    2
#define CAP_FOWNER	       3
#define CAP_FSETID	       4
#define CAP_KILL	       5
#define CAP_SETGID	       6
#define CAP_SETUID	       7
#define CAP_SETPCAP	       8
#define CAP_LINUX_IMMUTABLE    9
#define CAP_NET_BIND_SERVICE   10
#define CAP_NET_BROADCAST      11
#define CAP_NET_ADMIN	       12
#define CAP_NET_RAW	       13
#define CAP_IPC_LOCK	       14
#define CAP_IPC_OWNER	       15
#define CAP_SYS_MODULE	       16
#define CAP_SYS_RAWIO	       17
#define CAP_SYS_CHROOT	       18
#define CAP_SYS_PTRACE	       19
#define CAP_SYS_PACCT	       20
#define CAP_SYS_ADMIN	       21
#define CAP_SYS_BOOT	       22
#define CAP_SYS_NICE	       23
#define CAP_SYS_RESOURCE       24
#define CAP_SYS_TIME	       25
#define CAP_SYS_TTY_CONFIG     26
#define CAP_MKNOD	       27
#define CAP_LEASE	       28
#define CAP_AUDIT_WRITE	       29
#define CAP_AUDIT_CONTROL      30
#define CAP_SETFCAP	       31
#define CAP_MAC_OVERRIDE       32
#define CAP_MAC_ADMIN	       33
#define CAP_SYSLOG	       34
#define CAP_WAKE_ALARM	       35
#define CAP_BLOCK_SUSPEND      36
#define CAP_AUDIT_READ	       37
#define CAP_PERFMON	       38
#define CAP_BPF		       39
#define CAP_CHECKPOINT_RESTORE 40
#define CAP_LAST_CAP	       40 /* Linux 6.1's last */

/* The securebits (PR_GET_SECUREBITS): each behaviour bit has a lock bit above it. */
#define SECBIT_NOROOT			   (1 << 0) /* execve by root grants no capabilities */
#define SECBIT_NOROOT_LOCKED		   (1 << 1)
#define SECBIT_NO_SETUID_FIXUP		   (1 << 2) /* uid changes leave the capabilities alone */
#define SECBIT_NO_SETUID_FIXUP_LOCKED	   (1 << 3)
#define SECBIT_KEEP_CAPS		   (1 << 4) /* leaving uid 0 keeps the permitted set */
#define SECBIT_KEEP_CAPS_LOCKED		   (1 << 5)
#define SECBIT_NO_CAP_AMBIENT_RAISE	   (1 << 6) /* PR_CAP_AMBIENT_RAISE is refused */
#define SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED (1 << 7)
#define SECURE_ALL_BITS \
	(SECBIT_NOROOT | SECBIT_NO_SETUID_FIXUP | SECBIT_KEEP_CAPS | SECBIT_NO_CAP_AMBIENT_RAISE)
#define SECURE_ALL_LOCKS (SECURE_ALL_BITS << 1)

#endif
