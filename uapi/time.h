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
#define CLOCK_REALTIME_ALARM	 8
#define CLOCK_BOOTTIME_ALARM	 9
#define CLOCK_TAI		 11 /* REALTIME plus the TAI offset (0: rewind keeps no leap seconds) */

/* clock_nanosleep(2), timer_settime(2): the time is absolute. */
#define TIMER_ABSTIME 1

/* setitimer(2), getitimer(2): which of a process's interval timers. */
#define ITIMER_REAL    0 /* wall-clock time, SIGALRM */
#define ITIMER_VIRTUAL 1 /* the process's user CPU time, SIGVTALRM */
#define ITIMER_PROF    2 /* its user and system CPU time, SIGPROF */

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

/* adjtimex(2), clock_adjtime(2): the modes (what to change) and the status bits. */
#define ADJ_OFFSET	      0x0001
#define ADJ_FREQUENCY	      0x0002
#define ADJ_MAXERROR	      0x0004
#define ADJ_ESTERROR	      0x0008
#define ADJ_STATUS	      0x0010
#define ADJ_TIMECONST	      0x0020
#define ADJ_TAI		      0x0080
#define ADJ_SETOFFSET	      0x0100
#define ADJ_MICRO	      0x1000
#define ADJ_NANO	      0x2000
#define ADJ_TICK	      0x4000
#define ADJ_OFFSET_SINGLESHOT 0x8001 /* adjtime(3)'s old-style offset */
#define ADJ_OFFSET_SS_READ    0xa001 /* adjtime(3) reading what is left of one */
#define STA_PLL		      0x0001 /* phase-locked loop: ADJ_OFFSET steers the clock */
#define STA_PPSFREQ	      0x0002
#define STA_PPSTIME	      0x0004
#define STA_FLL		      0x0008 /* frequency-locked loop instead */
#define STA_INS		      0x0010 /* insert a leap second at the coming midnight UTC */
#define STA_DEL		      0x0020 /* delete one */
#define STA_UNSYNC	      0x0040 /* the clock is not synchronized (no NTP daemon ever said so) */
#define STA_FREQHOLD	      0x0080
#define STA_PPSSIGNAL	      0x0100 /* read-only from here on */
#define STA_PPSJITTER	      0x0200
#define STA_PPSWANDER	      0x0400
#define STA_PPSERROR	      0x0800
#define STA_CLOCKERR	      0x1000
#define STA_NANO	      0x2000 /* time.tv_usec and offset are in ns */
#define STA_MODE	      0x4000 /* the last offset was taken in FLL mode */
#define STA_CLK		      0x8000
#define STA_RONLY                                                                                 \
	(STA_PPSSIGNAL | STA_PPSJITTER | STA_PPSWANDER | STA_PPSERROR | STA_CLOCKERR | STA_NANO | \
	 STA_MODE | STA_CLK)
#define TIME_OK	   0 /* adjtimex's result: the clock's state */
#define TIME_INS   1 /* a leap second will be inserted at midnight */
#define TIME_DEL   2 /* ... deleted */
#define TIME_OOP   3 /* the inserted second is running */
#define TIME_WAIT  4 /* a leap second has been, and STA_INS/STA_DEL are still set */
#define TIME_ERROR 5 /* ... not synchronized */

/* timer_settime(2), timer_gettime(2): the period, and the time to (or of) the next expiry. */
struct kernel_itimerspec {
	struct kernel_timespec it_interval;
	struct kernel_timespec it_value;
};

/* adjtimex(2)'s struct timex, 208 bytes (linux/timex.h's struct __kernel_timex). */
struct kernel_timex {
	unsigned int modes;
	int pad0;
	long long offset, freq, maxerror, esterror;
	int status;
	int pad1;
	long long constant, precision, tolerance;
	struct {
		long long tv_sec, tv_usec; /* tv_usec holds ns under STA_NANO */
	} time;
	long long tick, ppsfreq, jitter;
	int shift;
	int pad2;
	long long stabil, jitcnt, calcnt, errcnt, stbcnt;
	int tai;
	int reserved[11];
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
