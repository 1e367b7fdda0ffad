/*
 * clock_routes.c - see clock_routes.h.
 */
#include "lib/clock_routes.h"
#include "lib/procfile.h"
#include "lib/vdso.h"

#include <string.h>
#include <sys/syscall.h>

#define VSYSCALL_PAGE 0xffffffffff600000ul

static long
raw_syscall3(long nr, long a, long b, long c)
{
	long ret;

	__asm__ __volatile__("syscall"
			     : "=a"(ret)
			     : "a"(nr), "D"(a), "S"(b), "d"(c)
			     : "rcx", "r11", "memory");
	return ret;
}

static int
syscall_gettimeofday(struct timeval *tv, void *tz)
{
	return (int)raw_syscall3(SYS_gettimeofday, (long)tv, (long)tz, 0);
}

static time_t
syscall_time(time_t *t)
{
	return raw_syscall3(SYS_time, (long)t, 0, 0);
}

static long
syscall_getcpu(unsigned *cpu, unsigned *node, void *cache)
{
	return raw_syscall3(SYS_getcpu, (long)cpu, (long)node, (long)cache);
}

static int
syscall_clock_gettime(clockid_t id, struct timespec *ts)
{
	return (int)raw_syscall3(SYS_clock_gettime, id, (long)ts, 0);
}

/*
 * Linux's mode from the page's line in /proc/self/maps: --x is xonly, and
 * r-x or r-- emulate (the Linux column is 6.1: native mode went in 4.20,
 * and the emulated page has been listed r-x since).
 */
static const char *
linux_vsyscall_mode(void)
{
	static const char page[] = "ffffffffff600000-ffffffffff601000 ";
	static char maps[16384];
	const char *line;

	if (read_text_file("/proc/self/maps", maps, sizeof(maps)) <= 0 ||
	    !(line = strstr(maps, page)))
		return NULL;
	line += strlen(page);
	return line[0] == 'r' ? "emulate" : "xonly";
}

const char *
vsyscall_mode_now(void)
{
	static char knob[64];

	if (knob_read("vsyscall", knob, sizeof(knob)) != 0)
		return linux_vsyscall_mode();
	return strcmp(knob, "none") == 0 ? NULL : knob;
}

struct clock_routes
clock_routes_get(enum clock_route r)
{
	struct clock_routes c = { 0 };

	switch (r) {
	case ROUTE_SYSCALL:
		c.gettimeofday = syscall_gettimeofday;
		c.time = syscall_time;
		c.getcpu = syscall_getcpu;
		c.clock_gettime = syscall_clock_gettime;
		break;
	case ROUTE_VDSO:
		c.gettimeofday = (gettimeofday_fn)vdso_sym("__vdso_gettimeofday");
		c.time = (time_fn)vdso_sym("__vdso_time");
		c.getcpu = (getcpu_fn)vdso_sym("__vdso_getcpu");
		c.clock_gettime = (clock_gettime_fn)vdso_sym("__vdso_clock_gettime");
		break;
	case ROUTE_VSYSCALL:
		if (!vsyscall_mode_now())
			break;
		c.gettimeofday = (gettimeofday_fn)(VSYSCALL_PAGE + 0x000);
		c.time = (time_fn)(VSYSCALL_PAGE + 0x400);
		c.getcpu = (getcpu_fn)(VSYSCALL_PAGE + 0x800);
		break;
	default:
		break;
	}
	return c;
}

const char *
clock_route_name(enum clock_route r)
{
	static const char *const names[NROUTES] = { "syscall", "vdso", "vsyscall" };

	return r < NROUTES ? names[r] : "?";
}
