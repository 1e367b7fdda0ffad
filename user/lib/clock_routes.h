/*
 * clock_routes.h - the three ways a program can ask the time (or its CPU):
 * the system call, the vDSO function, and the legacy vsyscall page's fixed
 * entry, each as a plain function pointer so that a benchmark or a test
 * can call every route through the same code.
 *
 * The vDSO route is found through AT_SYSINFO_EHDR (lib/vdso.h); the
 * vsyscall route is the address an old static glibc called directly
 * (0xffffffffff600000 + 0x400 * entry). A route that the running kernel
 * does not offer comes back NULL.
 */
#ifndef USER_CLOCK_ROUTES_H
#define USER_CLOCK_ROUTES_H

#include <sys/time.h>
#include <time.h>

enum clock_route { ROUTE_SYSCALL, ROUTE_VDSO, ROUTE_VSYSCALL, NROUTES };

typedef int (*gettimeofday_fn)(struct timeval *, void *);
typedef time_t (*time_fn)(time_t *);
typedef long (*getcpu_fn)(unsigned *, unsigned *, void *);
typedef int (*clock_gettime_fn)(clockid_t, struct timespec *);

struct clock_routes {
	gettimeofday_fn gettimeofday;
	time_fn time;
	getcpu_fn getcpu;
	clock_gettime_fn clock_gettime; /* the vsyscall page has none */
};

/* The functions of one route; members are NULL where the route lacks them. */
struct clock_routes clock_routes_get(enum clock_route r);
const char *clock_route_name(enum clock_route r);
/*
 * The vsyscall mode in force: rewind's knob, or on Linux what the page's
 * permissions in /proc/self/maps tell (emulate or xonly).
 * NULL when the page cannot be called at all (none). The buffer is static.
 */
const char *vsyscall_mode_now(void);

#endif
