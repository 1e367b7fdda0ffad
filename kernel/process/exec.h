/*
 * exec.h - replacing a process's program (execve), from user space or
 * from the kernel (the first process).
 */
#ifndef REWIND_EXEC_H
#define REWIND_EXEC_H

#include "kernel/lib/types.h"

struct trap_frame;

/*
 * Loads the program at path with the given NULL-terminated argument and
 * environment vectors (kernel pointers) into the current task: 0, after
 * which its user frame is ready to enter, or -errno with the task unchanged.
 */
long kernel_execve(const char *path, const char *const *argv, const char *const *envp);

#endif
