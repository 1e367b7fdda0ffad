/*
 * wait.h - wait4(2)'s and waitid(2)'s options and waitid's id types,
 * Linux's values (linux/wait.h). libc's <sys/wait.h> has the same: user
 * code includes that.
 */
#ifndef REWIND_UAPI_WAIT_H
#define REWIND_UAPI_WAIT_H

#define WNOHANG	    1
#define WUNTRACED   2
#define WSTOPPED    WUNTRACED
#define WEXITED	    4
#define WCONTINUED  8
#define WNOWAIT	    0x01000000
#define __WNOTHREAD 0x20000000
#define __WALL	    0x40000000
#define __WCLONE    0x80000000

/* waitid's idtype */
#define P_ALL	0
#define P_PID	1
#define P_PGID	2
#define P_PIDFD 3

#endif
