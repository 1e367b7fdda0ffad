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

#define PR_SET_PDEATHSIG	 1  /* the signal to get when the parent thread exits (0: none) */
#define PR_GET_PDEATHSIG	 2  /* ...into an int */
#define PR_GET_DUMPABLE		 3  /* the return value: 1 dumpable, 0 not */
#define PR_SET_DUMPABLE		 4  /* 0 or 1 (Linux's SUID_DUMP_DISABLE, SUID_DUMP_USER) */
#define PR_GET_KEEPCAPS		 7  /* whether leaving uid 0 keeps the permitted capabilities */
#define PR_SET_KEEPCAPS		 8  /* ...0 or 1 (SECBIT_KEEP_CAPS) */
#define PR_SET_NAME		 15 /* the calling thread's name (comm), from a string */
#define PR_GET_NAME		 16 /* ...into a buffer of 16 bytes */
#define PR_CAPBSET_READ		 23 /* whether a capability is in the bounding set */
#define PR_CAPBSET_DROP		 24 /* ...takes it out (CAP_SETPCAP) */
#define PR_GET_TSC		 25 /* into an int: PR_TSC_ENABLE or PR_TSC_SIGSEGV */
#define PR_SET_TSC		 26 /* whether the thread's rdtsc works or raises SIGSEGV: */
#define PR_TSC_ENABLE		 1
#define PR_TSC_SIGSEGV		 2
#define PR_GET_SECUREBITS	 27
#define PR_SET_SECUREBITS	 28 /* CAP_SETPCAP; locked bits stay */
#define PR_SET_TIMERSLACK	 29 /* the thread's timer slack in ns (0: back to its default) */
#define PR_GET_TIMERSLACK	 30 /* ...as the return value */
#define PR_SET_CHILD_SUBREAPER	 36 /* orphans below this process come to it, not to init */
#define PR_GET_CHILD_SUBREAPER	 37 /* ...into an int */
#define PR_SET_NO_NEW_PRIVS	 38 /* 1: execve grants nothing new, for good (arg2 1, the rest 0) */
#define PR_GET_NO_NEW_PRIVS	 39 /* ...as the return value */
#define PR_CAP_AMBIENT		 47 /* the ambient set, by the sub-operation in arg2: */
#define PR_CAP_AMBIENT_IS_SET	 1
#define PR_CAP_AMBIENT_RAISE	 2 /* the capability must be permitted and inheritable */
#define PR_CAP_AMBIENT_LOWER	 3
#define PR_CAP_AMBIENT_CLEAR_ALL 4

#endif
