/*
 * prctl.h - arch_prctl(2)'s codes, Linux x86-64's (asm/prctl.h), and the
 * prctl(2) options rewind has (linux/prctl.h). musl has no kernel headers,
 * so user programs that call arch_prctl include this header; libc's
 * <sys/prctl.h> has the PR_* ones, with the same values.
 */
#ifndef REWIND_UAPI_PRCTL_H
#define REWIND_UAPI_PRCTL_H

#define ARCH_SET_GS 0x1001
#define ARCH_SET_FS 0x1002
#define ARCH_GET_FS 0x1003
#define ARCH_GET_GS 0x1004

#define PR_SET_NAME 15 /* the calling thread's name (comm), at most 15 bytes kept */
#define PR_GET_NAME 16

#endif
