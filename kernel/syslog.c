/*
 * syslog.c - syslog(2) (glibc's klogctl, what dmesg and klogd call): the
 * kernel log ring read by user space, cleared, and the console level set,
 * with Linux's permission rules; and kernel.dmesg_restrict.
 *
 * Two positions into the ring (kernel/printk.c, counted in bytes since
 * boot): where SYSLOG_ACTION_READ goes on from (it consumes), and where
 * SYSLOG_ACTION_CLEAR last drew the line (READ_ALL starts there). A READ
 * with nothing unread waits for the next line, looking again every 50 ms
 * rather than being woken: printk runs in any context, even under the
 * scheduler's locks, so it wakes nobody.
 */
#include "kernel/printk.h"
#include "kernel/process/cred.h"
#include "kernel/sched/sched.h"
#include "kernel/signal/signal.h"
#include "kernel/syscall/syscall.h"
#include "locking/spinlock.h"
#include "uapi/errno.h"

enum syslog_action {
	SYSLOG_ACTION_CLOSE,
	SYSLOG_ACTION_OPEN,
	SYSLOG_ACTION_READ,
	SYSLOG_ACTION_READ_ALL,
	SYSLOG_ACTION_READ_CLEAR,
	SYSLOG_ACTION_CLEAR,
	SYSLOG_ACTION_CONSOLE_OFF,
	SYSLOG_ACTION_CONSOLE_ON,
	SYSLOG_ACTION_CONSOLE_LEVEL,
	SYSLOG_ACTION_SIZE_UNREAD,
	SYSLOG_ACTION_SIZE_BUFFER,
};

#define READ_POLL_NS 50000000ull
#define CHUNK	     512

int dmesg_restrict;

static struct spinlock syslog_lock = SPINLOCK_INIT("syslog");
static u64 read_pos;		     /* SYSLOG_ACTION_READ's */
static u64 clear_pos;		     /* SYSLOG_ACTION_CLEAR's line */
static int saved_console_level = -1; /* CONSOLE_OFF's, for CONSOLE_ON; -1: none */

/* Linux's check_syslog_permissions: all but two actions, or all under dmesg_restrict, are privileged. */
static long
allowed(int action)
{
	bool open_to_all = !READ_ONCE(dmesg_restrict) && (action == SYSLOG_ACTION_READ_ALL ||
							  action == SYSLOG_ACTION_SIZE_BUFFER);

	return open_to_all || capable(CAP_SYSLOG) || capable(CAP_SYS_ADMIN) ? 0 : -EPERM;
}

/* Copies the ring from *pos on (moved up to the oldest byte held) to ubuf; advances *pos. */
static long
copy_log(u64 *pos, char __user *ubuf, size_t len)
{
	char chunk[CHUNK];
	size_t done = 0;

	while (done < len) {
		u64 at = *pos;
		u64 head = printk_log_copy(&at, chunk, MIN(len - done, sizeof(chunk)));
		size_t n = (size_t)MIN(head - at, (u64)MIN(len - done, sizeof(chunk)));
		if (!n)
			break;
		if (copy_to_user(ubuf + done, chunk, n))
			return -EFAULT;
		*pos = at + n;
		done += n;
	}
	return (long)done;
}

/* SYSLOG_ACTION_READ: waits for something unread, then consumes up to len bytes of it. */
static long
read_new(char __user *ubuf, size_t len)
{
	while (printk_log_head() <= READ_ONCE(read_pos)) {
		if (signal_pending())
			return -EINTR;
		sleep_ns(READ_POLL_NS);
	}
	u64 flags = spin_lock_irqsave(&syslog_lock);
	u64 pos = read_pos;
	spin_unlock_irqrestore(&syslog_lock, flags);
	long n = copy_log(&pos, ubuf, len);
	flags = spin_lock_irqsave(&syslog_lock);
	if (n > 0 && pos > read_pos)
		read_pos = pos;
	spin_unlock_irqrestore(&syslog_lock, flags);
	return n;
}

/* READ_ALL: the newest whole lines since the last clear that fit in len. */
static long
read_all(char __user *ubuf, size_t len, bool clear)
{
	u64 head = printk_log_head();
	u64 start = MAX(READ_ONCE(clear_pos), head > PRINTK_LOG_SIZE ? head - PRINTK_LOG_SIZE : 0);

	if (head - start > len) {
		/* Start after a line's end, so the first line is whole. */
		char c = 0;
		start = head - len;
		while (start < head && c != '\n') {
			u64 at = start - 1;
			printk_log_copy(&at, &c, 1);
			if (c != '\n')
				start++;
		}
	}
	long n = copy_log(&start, ubuf, MIN(len, (size_t)(head - start)));
	if (n >= 0 && clear)
		WRITE_ONCE(clear_pos, head);
	return n;
}

static long
set_console_level(int level)
{
	int levels[4];

	if (level < 1 || level > 8)
		return -EINVAL;
	printk_levels(levels);
	printk_set_console_level(MAX(level, levels[2]));
	saved_console_level = -1;
	return 0;
}

static long
console_off(bool off)
{
	int levels[4];

	printk_levels(levels);
	if (off) {
		if (saved_console_level < 0)
			saved_console_level = levels[0];
		printk_set_console_level(levels[2]);
	} else if (saved_console_level >= 0) {
		printk_set_console_level(saved_console_level);
		saved_console_level = -1;
	}
	return 0;
}

SYSCALL3(syslog, int, action, char __user *, ubuf, int, len)
{
	long err = allowed(action);

	if (err)
		return err;
	switch (action) {
	case SYSLOG_ACTION_CLOSE:
	case SYSLOG_ACTION_OPEN:
		return 0;
	case SYSLOG_ACTION_READ:
	case SYSLOG_ACTION_READ_ALL:
	case SYSLOG_ACTION_READ_CLEAR:
		if (!ubuf || len < 0)
			return -EINVAL;
		if (!len)
			return 0;
		if (action == SYSLOG_ACTION_READ)
			return read_new(ubuf, (size_t)len);
		return read_all(ubuf, (size_t)len, action == SYSLOG_ACTION_READ_CLEAR);
	case SYSLOG_ACTION_CLEAR:
		WRITE_ONCE(clear_pos, printk_log_head());
		return 0;
	case SYSLOG_ACTION_CONSOLE_OFF:
	case SYSLOG_ACTION_CONSOLE_ON:
		return console_off(action == SYSLOG_ACTION_CONSOLE_OFF);
	case SYSLOG_ACTION_CONSOLE_LEVEL:
		return set_console_level(len);
	case SYSLOG_ACTION_SIZE_UNREAD: {
		u64 head = printk_log_head();
		u64 oldest = head > PRINTK_LOG_SIZE ? head - PRINTK_LOG_SIZE : 0;
		return (long)(head - MAX(READ_ONCE(read_pos), oldest));
	}
	case SYSLOG_ACTION_SIZE_BUFFER:
		return PRINTK_LOG_SIZE;
	default:
		return -EINVAL;
	}
}
