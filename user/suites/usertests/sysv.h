/*
 * sysv.h - what the System V IPC tests (sysv_*.c) share: the calls through
 * syscall() with uapi/ipc.h's structures (libc's headers would clash with
 * it, and musl's and glibc's differ in field names), a key of the test's
 * own, and a look for a line in a /proc file.
 */
#ifndef USERTESTS_SYSV_H
#define USERTESTS_SYSV_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "uapi/ipc.h"

#define sysv_shmget(key, size, flags)	  syscall(SYS_shmget, (key), (size_t)(size), (flags))
#define sysv_shmat(id, addr, flags)	  syscall(SYS_shmat, (id), (addr), (flags))
#define sysv_shmdt(addr)		  syscall(SYS_shmdt, (addr))
#define sysv_shmctl(id, cmd, buf)	  syscall(SYS_shmctl, (id), (cmd), (buf))
#define sysv_msgget(key, flags)		  syscall(SYS_msgget, (key), (flags))
#define sysv_msgsnd(id, msg, size, flags) syscall(SYS_msgsnd, (id), (msg), (size_t)(size), (flags))
#define sysv_msgrcv(id, msg, size, type, flags) \
	syscall(SYS_msgrcv, (id), (msg), (size_t)(size), (long)(type), (flags))
#define sysv_msgctl(id, cmd, buf)	syscall(SYS_msgctl, (id), (cmd), (buf))
#define sysv_semget(key, nsems, flags)	syscall(SYS_semget, (key), (nsems), (flags))
#define sysv_semop(id, ops, n)		syscall(SYS_semop, (id), (ops), (size_t)(n))
#define sysv_semtimedop(id, ops, n, ts) syscall(SYS_semtimedop, (id), (ops), (size_t)(n), (ts))
#define sysv_semctl(id, num, cmd, arg)	syscall(SYS_semctl, (id), (num), (cmd), (arg))

/* A key no other test uses at the same time: the process id and a letter for the test. */
int sysv_test_key(char which);
/* Whether a line of the file at path contains text. */
bool file_has_line_with(const char *path, const char *text);
/*
 * Changes a system-wide limit only in a System V namespace of the test's
 * own on Linux (unshare CLONE_NEWIPC), so that the host's other programs
 * never see it; rewind is a machine of the test's own. false: not possible.
 */
bool sysv_private_namespace(void);

#endif
