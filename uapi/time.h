/*
 * time.h - clock ids and the time structures of the clock, timer and
 * sleep calls, Linux x86-64's (linux/time.h, linux/time_types.h). The
 * structures carry a kernel_ prefix (struct kernel_timespec ...) so that
 * they can sit next to libc's struct timespec; the CLOCK_* macros are
 * libc's too (<time.h>), so user code takes them from there.
 */
#ifndef REWIND_UAPI_TIME_H
#define REWIND_UAPI_TIME_H

#define CLOCK_REALTIME		 0
#define CLOCK_MONOTONIC		 1
#define CLOCK_PROCESS_CPUTIME_ID 2
#define CLOCK_THREAD_CPUTIME_ID	 3
#define CLOCK_MONOTONIC_RAW	 4
#define CLOCK_REALTIME_COARSE	 5
#define CLOCK_MONOTONIC_COARSE	 6
#define CLOCK_BOOTTIME		 7

/* clock_nanosleep(2), timer_settime(2): the time is absolute. */
#define TIMER_ABSTIME 1

/* setitimer(2), getitimer(2): the one timer rewind has. */
#define ITIMER_REAL 0

/* struct sigevent's sigev_notify (timer_create(2)): how an expiry is announced. */
#define SIGEV_SIGNAL	0 /* sigev_signo to the process */
#define SIGEV_NONE	1 /* nothing: the timer is only read (timer_gettime) */
#define SIGEV_THREAD	2 /* libc's business; the kernel treats it as SIGEV_SIGNAL */
#define SIGEV_THREAD_ID 4 /* with SIGEV_SIGNAL: sigev_signo to the thread sigev_tid */

struct kernel_timespec {
	long tv_sec;
	long tv_nsec;
};

struct kernel_timeval {
	long tv_sec;
	long tv_usec;
};

struct kernel_timezone {
	int tz_minuteswest;
	int tz_dsttime;
};

struct kernel_itimerval {
	struct kernel_timeval it_interval;
	struct kernel_timeval it_value;
};

/* timer_settime(2), timer_gettime(2): the period, and the time to (or of) the next expiry. */
struct kernel_itimerspec {
	struct kernel_timespec it_interval;
	struct kernel_timespec it_value;
};

/* timer_create(2)'s struct sigevent, 64 bytes (asm-generic/siginfo.h). */
struct kernel_sigevent {
	unsigned long sigev_value; /* union sigval: si_value of the signal */
	int sigev_signo;
	int sigev_notify;
	union {
		int pad[12];
		int tid; /* SIGEV_THREAD_ID's thread */
	};
};

#endif
