/*
 * usertests.h - what the files of usertests share: the page size, the
 * pointers no system call may accept, this program's own path, and small
 * helpers for files and byte patterns.
 */
#ifndef USERTESTS_H
#define USERTESTS_H

#include <fcntl.h> /* struct flock, for the record-lock helpers */
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/time.h>
#include <sys/types.h>

#include "lib/testing.h"

#define PAGE 4096

/* Addresses no user pointer may reach: low, non-canonical, kernel direct map, kernel text. */
#define NBAD 4
extern const unsigned long bad_addrs[NBAD];

/* This program, absolute, for execve; main sets it before anything runs. */
extern char self_path[PATH_MAX];
/* The program named name beside this one (/bin/NAME on rewind, build/user/bin/NAME on the host). */
void sibling(const char *name, char *path, size_t size);

/* Creates (or truncates) path holding data; returns it open for reading and writing. */
int create_file(const char *path, const void *data, size_t len, mode_t mode);
/* Creates (or truncates) path holding data, mode 0644. */
void make_file(const char *path, const void *data, size_t len);

/* "dir/name" in one of four buffers used in turn: four such paths live at a time. */
const char *path_under(const char *dir, const char *name);

/* A byte pattern that differs with seed, and with the offset within and across pages. */
void fill_pattern(unsigned char *p, size_t len, unsigned seed);
bool has_pattern(const unsigned char *p, size_t len, unsigned seed);
/* Whether all len bytes at p are c. */
bool all_bytes(const void *p, size_t len, unsigned char c);

/* A timeval in microseconds. */
long long tv_us(struct timeval tv);

/* A child that runs action(arg) 50 ms from now, to wake a waiting parent; its pid. */
pid_t run_later(void (*action)(long arg), long arg);
/* A child that writes "w" to fd 50 ms from now, to wake a waiting reader (pipes, epoll). */
pid_t write_later(int fd);

/* A number in a file such as a /proc/sys knob, read and written as text. */
unsigned long read_number(const char *path);
void write_number(const char *path, unsigned long n);

/*
 * Resident pages of the area at p (Linux: its smaps Rss, exact), or of the
 * whole process where there is no smaps (rewind: statm, exact too).
 */
long resident_pages(const void *p);

/* Touches anonymous memory 16 MiB at a time until the OOM killer ends it (exit 3: mmap failed). */
void __attribute__((noreturn)) hog_memory(void);

/* fcntl(fd, cmd, ...) on [start, start + len): a POSIX or OFD record lock of type. */
int record_lock(int fd, int cmd, short type, off_t start, off_t len);
/* What a GETLK (F_GETLK or F_OFD_GETLK, cmd) says of a lock of type on that range. */
struct flock record_lock_query(int fd, int cmd, short type, off_t start, off_t len);

/* A fresh empty directory under /tmp for a test that mounts there (skips unless root). */
void root_scratch_dir(char *dir, size_t size);
/* One byte of data over s with one SOL_SOCKET control message (MSG_NOSIGNAL): sendmsg's result. */
ssize_t send_control(int s, int type, const void *data, size_t len);
/* Sends fd over s with SCM_RIGHTS (send_control). */
ssize_t send_fd(int s, int fd);
/*
 * Receives one byte on s (CHECKed) and the fd that came with it (-1 if
 * none) into *fd, with controllen bytes of control room (at most room for
 * four fds): the msg_flags.
 */
int recv_fd(int s, int *fd, size_t controllen, int flags);

/*
 * The lines of /proc/locks about fd's file (at most max), each after its
 * "N: ", and the first one's number in *first (if not NULL): how many.
 */
int proc_locks_of(int fd, char lines[][128], int max, int *first);
/* The number of the first line of /proc/locks about fd's file. */
int proc_lock_number(int fd);
/* Waits until /proc/locks has the line want (a waiter shows once it is asleep). */
void wait_for_proc_locks_line(const char *want);

/* User and group nobody: what a test that needs an unprivileged process becomes. */
#define NOBODY_ID 65534
/* Runs check(arg) in a child that has become user and group nobody; it must exit 0. */
void as_nobody(void (*check)(const char *), const char *arg);

/*
 * rewind's count of one kind of kernel object in /proc/objects ("inodes",
 * "kmalloc" ...; kernel/objcount.h), -1 where there is none (Linux). With
 * read(2) into static memory, as leakcheck: a stdio stream's buffer would
 * grow this process between two readings.
 */
long kernel_objects(const char *kind);
/* A /proc/meminfo line's number (kB for sizes), or -1 if there is no such line. */
long meminfo(const char *key);

/* This program's executable, read whole (exec.c): a model to copy with other modes or bytes. */
unsigned char *read_self(size_t *len);

/* The capabilities' side of `usertests --helper caps HEX` (capabilities.c): 0 when both sets are HEX. */
int helper_caps(const char *want);
/* `usertests --helper own_child PID CODE` (wait_threads.c): 0 when __WNOTHREAD reaps PID's exit CODE. */
int helper_own_child(pid_t child, int code);
/* `usertests --helper landlocked PATH` (landlock.c): 0 when execve kept no_new_privs and the domain denying PATH's write. */
int helper_landlocked(const char *denied);
/*
 * `usertests --helper timerfd_sleeps N USEC [CPU]` (tickless.c): reads of a
 * periodic timerfd of USEC until N expiries came, pinned to CPU if given,
 * after a child ran on every CPU with the timer armed.
 */
int helper_timerfd_sleeps(int n, long usec, int cpu);
/* `usertests --helper alone PID` (exec_threads.c): 0 when this process is PID with one thread and default handlers. */
int helper_alone(const char *pid);
/* `usertests --helper [threaded_]chain N` (exec_threads.c): execs itself N times, then exits 42. */
int helper_chain(int n, bool threaded);
/* Execs this program as `usertests --helper ...` (argv[0] is replaced); failures reach the test (exec.c). */
void __attribute__((noreturn)) exec_helper(char *argv[]);

/* Adds sig to the blocked set, so that it waits to be taken (sigwaitinfo) or stays pending. */
void block_signal(int sig);

/* `usertests --helper NAME ARGS...`: what the exec tests run (exec.c); the exit status. */
int run_helper(int argc, char **argv);
/* The interpreter side of exec_interpreter_runs_first (interp.c). */
int helper_auxv(const char *entry, const char *execfn);

#endif
