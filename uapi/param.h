/*
 * param.h - the unit of clock_t that user space sees: in times(2), the
 * siginfo of SIGCHLD, /proc/<pid>/stat and the auxiliary vector's
 * AT_CLKTCK. Linux's value; its user-space <asm/param.h> calls it HZ,
 * libc reports it as sysconf(_SC_CLK_TCK). Whatever the kernel's tick
 * rate (the hz knob), this stays 100.
 */
#ifndef REWIND_UAPI_PARAM_H
#define REWIND_UAPI_PARAM_H

#define USER_HZ 100

#endif
