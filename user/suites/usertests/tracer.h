/*
 * tracer.h - what the ptrace tests (ptrace.c, ptrace_stops.c) share: the
 * request itself, waiting for a tracee's stops, and the children they trace.
 */
#ifndef USERTESTS_TRACER_H
#define USERTESTS_TRACER_H

#include <sys/types.h>

/* The wait status of a stop with `what` (a signal, with an event above it) in bits 8-23. */
#define STOPPED_WITH(what) (((what) << 8) | 0x7f)

long trace(int request, pid_t pid, unsigned long addr, unsigned long data);
/* pid's next wait status (__WALL). */
int wait_traced(pid_t pid);
/* Waits for pid's next stop and fails the test unless its status is STOPPED_WITH(what). */
void expect_stop(pid_t pid, int what);
/* A child that asks to be traced and stops itself with SIGSTOP, then runs body and exits 0. */
pid_t traced_child(void (*body)(void));
void __attribute__((noreturn)) sleep_forever(void);
/* Ends a child that would sleep forever, and reaps it. */
void kill_and_reap(pid_t pid);

#endif
