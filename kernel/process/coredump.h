/*
 * coredump.h - core files: what a process killed by SIGSEGV, SIGABRT and the
 * other core signals leaves behind for a debugger (core(5)), and the
 * /proc/sys/kernel settings that name it (coredump.c).
 */
#ifndef REWIND_COREDUMP_H
#define REWIND_COREDUMP_H

#include "kernel/lib/types.h"

struct kernel_siginfo;

/* The wait status's WCOREDUMP bit: the signal's default action wrote a core. */
#define WAIT_CORE_DUMPED 0x80
/*
 * /proc/<pid>/coredump_filter's bits, as Linux's: which areas' contents a
 * core holds. Inherited at fork, kept across execve.
 */
#define COREDUMP_ANON_PRIVATE	0x01
#define COREDUMP_ANON_SHARED	0x02
#define COREDUMP_FILE_PRIVATE	0x04
#define COREDUMP_FILE_SHARED	0x08
#define COREDUMP_ELF_HEADERS	0x10 /* of a private file area: the first page, if an ELF header */
#define COREDUMP_HUGE_PRIVATE	0x20 /* huge-page areas (mm/hugetlb.h), private */
#define COREDUMP_HUGE_SHARED	0x40 /* and shared */
#define COREDUMP_FILTER_DEFAULT 0x33 /* the anonymous areas and ELF headers (0x20: huge pages) */
#define COREDUMP_FILTER_MASK	0x1ff
/* core_pattern's room, as Linux's CORENAME_MAX_SIZE. */
#define CORE_PATTERN_MAX 128

/* Whether sig's default action is to dump core (signal(7)'s "Core"). */
bool sig_dumps_core(int sig);
/*
 * Writes the current process's core for the fatal signal info (its other
 * threads gone): 0 when a core file was written, -errno when none was (the
 * limit RLIMIT_CORE is 0, the process is not dumpable, the file could not
 * be made).
 */
int coredump_write(const struct kernel_siginfo *info);

/* /proc/sys/kernel/core_pattern and core_uses_pid (fs/proc/sysctl.c). */
void core_pattern_get(char out[CORE_PATTERN_MAX]);
int core_pattern_set(const char *value);
extern int core_uses_pid;

#endif
