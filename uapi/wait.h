/*
 * wait.h - wait4(2)'s options, Linux's values (linux/wait.h). libc's
 * <sys/wait.h> has the same: user code includes that.
 */
#ifndef REWIND_UAPI_WAIT_H
#define REWIND_UAPI_WAIT_H

#define WNOHANG	  1
#define WUNTRACED 2
#define __WALL	  0x40000000
#define __WCLONE  0x80000000

#endif
