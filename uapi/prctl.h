/*
 * prctl.h - arch_prctl(2)'s codes, Linux x86-64's (asm/prctl.h), and the
 * prctl(2) options rewind implements (linux/prctl.h's numbers). musl has
 * no kernel headers, so user programs that call arch_prctl include this
 * header; musl's <sys/prctl.h> gives the prctl options the same values.
 */
#ifndef REWIND_UAPI_PRCTL_H
#define REWIND_UAPI_PRCTL_H

#define ARCH_SET_GS    0x1001
#define ARCH_SET_FS    0x1002
#define ARCH_GET_FS    0x1003
#define ARCH_GET_GS    0x1004
#define ARCH_GET_CPUID 0x1011
#define ARCH_SET_CPUID 0x1012

#define PR_SET_PDEATHSIG       1  /* the signal to get when the parent thread exits (0: none) */
#define PR_GET_PDEATHSIG       2  /* ...into an int */
#define PR_GET_DUMPABLE	       3  /* the return value: 1 dumpable, 0 not */
#define PR_SET_DUMPABLE	       4  /* 0 or 1 (Linux's SUID_DUMP_DISABLE, SUID_DUMP_USER) */
#define PR_SET_NAME	       15 /* the calling thread's name (comm), from a string */
#define PR_GET_NAME	       16 /* ...into a buffer of 16 bytes */
#define PR_SET_TIMERSLACK      29 /* the thread's timer slack in ns (0: back to its default) */
#define PR_GET_TIMERSLACK      30 /* ...as the return value */
#define PR_SET_CHILD_SUBREAPER 36 /* orphans below this process come to it, not to init */
#define PR_GET_CHILD_SUBREAPER 37 /* ...into an int */

#endif
