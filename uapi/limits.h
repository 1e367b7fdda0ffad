/*
 * limits.h - sizes user space sees, Linux's values (linux/limits.h). libc's <limits.h> has the same names: user code includes
 * that.
 */
#ifndef REWIND_UAPI_LIMITS_H
#define REWIND_UAPI_LIMITS_H

#define NR_OPEN	 1024 /* fds per process: Linux's default RLIMIT_NOFILE */
#define NAME_MAX 255  /* bytes in one path component */
#define PATH_MAX 4096 /* bytes in a path, NUL included */
#define PIPE_BUF 4096 /* writes up to this size to a pipe are atomic */

#endif
