/*
 * kernel_log.c - syslog(2) over the kernel's log (what dmesg reads), its
 * console level shared with /proc/sys/kernel/printk, and who may do what
 * under kernel.dmesg_restrict. Settings changed are put back.
 */
#include "usertests.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

enum {
	ACTION_READ = 2,
	ACTION_READ_ALL = 3,
	ACTION_CLEAR = 5,
	ACTION_CONSOLE_OFF = 6,
	ACTION_CONSOLE_ON = 7,
	ACTION_CONSOLE_LEVEL = 8,
	ACTION_SIZE_UNREAD = 9,
	ACTION_SIZE_BUFFER = 10,
};

static long
klog(int action, char *buf, int len)
{
	return syscall(SYS_syslog, action, buf, len);
}

static void
need_root_here(void)
{
	if (geteuid())
		skip("needs root");
}

/* The four numbers of /proc/sys/kernel/printk. */
static void
read_levels(int l[4])
{
	FILE *f = fopen("/proc/sys/kernel/printk", "r");
	CHECK(f != NULL);
	CHECK_EQ(fscanf(f, "%d %d %d %d", &l[0], &l[1], &l[2], &l[3]), 4);
	fclose(f);
}

static void
write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	CHECK(f != NULL);
	CHECK(fputs(text, f) >= 0);
	CHECK_OK(fclose(f));
}

static void
write_levels(const int l[4])
{
	char text[64];
	snprintf(text, sizeof(text), "%d %d %d %d\n", l[0], l[1], l[2], l[3]);
	write_file("/proc/sys/kernel/printk", text);
}

/* Bad actions, buffers, lengths and levels are EINVAL; the buffer's size is known. */
TEST(syslog_invalid_requests)
{
	need_root_here();
	char buf[64];
	CHECK_ERR(EINVAL, klog(100, buf, sizeof(buf)));
	CHECK_ERR(EINVAL, klog(ACTION_READ, NULL, 10));
	CHECK_ERR(EINVAL, klog(ACTION_READ_ALL, buf, -1));
	CHECK_ERR(EINVAL, klog(ACTION_CONSOLE_LEVEL, NULL, 0));
	CHECK_ERR(EINVAL, klog(ACTION_CONSOLE_LEVEL, NULL, 9));
	CHECK_EQ(klog(ACTION_READ_ALL, buf, 0), 0);
	CHECK(klog(ACTION_SIZE_BUFFER, NULL, 0) >= 4096);
	CHECK(klog(ACTION_SIZE_UNREAD, NULL, 0) >= 0);
}

/* READ_ALL gives the newest whole lines that fit, without consuming them. */
TEST(syslog_read_all_gives_lines)
{
	need_root_here();
	long size = klog(ACTION_SIZE_BUFFER, NULL, 0);
	char *buf = malloc((size_t)size);
	CHECK(buf != NULL);
	long n = CHECK_OK(klog(ACTION_READ_ALL, buf, (int)size));
	if (n == 0)
		skip("the kernel log is empty (cleared)");
	CHECK_EQ(buf[n - 1], '\n');
	char small[2048];
	long m = CHECK_OK(klog(ACTION_READ_ALL, small, sizeof(small)));
	CHECK(m <= (long)sizeof(small) && m > 0);
	CHECK_EQ(small[m - 1], '\n');
	CHECK(memcmp(small, buf + n - m, (size_t)m) == 0); /* the tail of the whole */
	free(buf);
}

/* The console level is one: syslog sets it, /proc/sys/kernel/printk shows and sets it. */
TEST(syslog_console_level_is_printk)
{
	need_root_here();
	int saved[4], l[4];
	read_levels(saved);
	CHECK_OK(klog(ACTION_CONSOLE_LEVEL, NULL, 5));
	read_levels(l);
	CHECK_EQ(l[0], 5);
	CHECK_OK(klog(ACTION_CONSOLE_OFF, NULL, 0));
	read_levels(l);
	CHECK_EQ(l[0], l[2]); /* off: only what the minimum lets through */
	CHECK_OK(klog(ACTION_CONSOLE_ON, NULL, 0));
	read_levels(l);
	CHECK_EQ(l[0], 5);
	int set[4] = { 3, saved[1], saved[2], saved[3] };
	write_levels(set);
	read_levels(l);
	CHECK(l[0] == 3 && l[1] == saved[1] && l[2] == saved[2] && l[3] == saved[3]);
	write_levels(saved);
}

/* As nobody: reading the whole log and its size are everyone's unless restricted. */
static void
unprivileged_log_checks(const char *restricted)
{
	char buf[256];
	if (strcmp(restricted, "1") == 0) {
		CHECK_ERR(EPERM, klog(ACTION_READ_ALL, buf, sizeof(buf)));
		CHECK_ERR(EPERM, klog(ACTION_SIZE_BUFFER, NULL, 0));
	} else {
		CHECK_OK(klog(ACTION_READ_ALL, buf, sizeof(buf)));
		CHECK(klog(ACTION_SIZE_BUFFER, NULL, 0) > 0);
	}
	CHECK_ERR(EPERM, klog(ACTION_READ, buf, sizeof(buf)));
	CHECK_ERR(EPERM, klog(ACTION_CLEAR, NULL, 0));
	CHECK_ERR(EPERM, klog(ACTION_CONSOLE_LEVEL, NULL, 7));
	CHECK_ERR(EPERM, klog(ACTION_CONSOLE_OFF, NULL, 0));
	CHECK_ERR(EPERM, klog(ACTION_SIZE_UNREAD, NULL, 0));
}

TEST(syslog_permissions_follow_dmesg_restrict)
{
	need_root_here();
	int saved[1];
	FILE *f = fopen("/proc/sys/kernel/dmesg_restrict", "r");
	CHECK(f != NULL);
	CHECK_EQ(fscanf(f, "%d", &saved[0]), 1);
	fclose(f);
	write_file("/proc/sys/kernel/dmesg_restrict", "0\n");
	as_nobody(unprivileged_log_checks, "0");
	write_file("/proc/sys/kernel/dmesg_restrict", "1\n");
	as_nobody(unprivileged_log_checks, "1");
	write_file("/proc/sys/kernel/dmesg_restrict", saved[0] ? "1\n" : "0\n");
}
