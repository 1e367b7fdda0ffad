/*
 * strace.h - the system-call tracer: the run-time knobs strace= (off, all,
 * failed) and strace_pid= (0: every process), and the traced way through
 * syscall_dispatch. See strace.c for the format.
 */
#ifndef REWIND_STRACE_H
#define REWIND_STRACE_H

struct trap_frame;

enum strace_mode { STRACE_OFF, STRACE_ALL, STRACE_FAILED };

/* The knob, read once per call by syscall_dispatch. */
extern int strace_mode;

/* Runs the call in f (syscall_run) and prints it, if this process is traced. */
void strace_syscall(struct trap_frame *f);

#endif
