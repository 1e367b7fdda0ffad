/*
 * printk.h - the kernel log.
 *
 * Every line is stamped with the time since boot (from the TSC) and stored
 * in a ring buffer; lines at or below the `loglevel` knob also go to every
 * registered console. A console registered late (the framebuffer, after
 * paging is up) is first replayed what the ring still holds.
 */
#ifndef REWIND_PRINTK_H
#define REWIND_PRINTK_H

#include "kernel/lib/types.h"

enum log_level {
	LOG_EMERG,
	LOG_ALERT,
	LOG_CRIT,
	LOG_ERR,
	LOG_WARNING,
	LOG_NOTICE,
	LOG_INFO,
	LOG_DEBUG,
};

struct console {
	const char *name;
	void (*write)(const char *s, size_t n);
	struct console *next;
};

void printk(int level, const char *fmt, ...) __printf(2, 3);
void vprintk(int level, const char *fmt, va_list ap);
void register_console(struct console *c);

/*
 * At most one message per 100 ms from one call site, so that a program
 * repeating a bad call cannot flood the console. Unlocked: two CPUs may
 * both print at the edge, which is harmless.
 */
struct ratelimit {
	u64 last_tsc;
	unsigned suppressed;
};
/* Whether to print now; if so, *dropped is how many were suppressed since the last one. */
bool ratelimit_allow(struct ratelimit *rl, unsigned *dropped);

/* ratelimit_allow's decision at TSC time now, interval cycles apart (host-tested). */
static inline bool
ratelimit_allow_at(struct ratelimit *rl, u64 now, u64 interval, unsigned *dropped)
{
	if (rl->last_tsc && now - rl->last_tsc < interval) {
		rl->suppressed++;
		return false;
	}
	rl->last_tsc = now;
	*dropped = rl->suppressed;
	rl->suppressed = 0;
	return true;
}
/*
 * Raw bytes to every console, as one piece among the log lines: no
 * timestamp, not kept in the log, shown whatever the loglevel. The
 * terminal's output and echo (drivers/tty.c) go this way.
 */
void console_write_all(const char *s, size_t n);
/*
 * The ring for syslog(2) (kernel/syslog.c), in positions counted in bytes
 * since boot: copies up to n bytes from *pos on into dst, first moving
 * *pos up to the oldest byte still held; returns the head (the end).
 */
u64 printk_log_copy(u64 *pos, char *dst, size_t n);
u64 printk_log_head(void);
#define PRINTK_LOG_SIZE (64 * 1024)
/*
 * The console level as Linux counts it (lines below it reach the
 * console: the `loglevel` knob plus one), set within 1..8; and with it
 * the three other numbers of /proc/sys/kernel/printk.
 */
int printk_console_level(void);
void printk_set_console_level(int level);
void printk_levels(int levels[4]);
void printk_set_levels(const int *levels, int n);
/* kernel.dmesg_restrict: 1 if even reading the log needs CAP_SYSLOG (kernel/syslog.c). */
extern int dmesg_restrict;
/* From now on printk must not wait for a lock another (stopped) CPU holds. */
void printk_enter_panic(void);

/*
 * printk at most once per 100 ms from this call site (struct ratelimit),
 * after a line counting what was dropped: for every message a user
 * program can cause (a bad knob value, a bad executable, a fault), so that
 * repeating the cause cannot flood the console or slow the kernel down.
 */
#define printk_ratelimited(level, ...)                                                         \
	do {                                                                                   \
		static struct ratelimit rl_;                                                   \
		unsigned dropped_;                                                             \
		if (ratelimit_allow(&rl_, &dropped_)) {                                        \
			if (dropped_)                                                          \
				printk(level, "(%u similar messages suppressed)\n", dropped_); \
			printk(level, __VA_ARGS__);                                            \
		}                                                                              \
	} while (0)

#define pr_emerg(...)		   printk(LOG_EMERG, __VA_ARGS__)
#define pr_err(...)		   printk(LOG_ERR, __VA_ARGS__)
#define pr_warn(...)		   printk(LOG_WARNING, __VA_ARGS__)
#define pr_notice(...)		   printk(LOG_NOTICE, __VA_ARGS__)
#define pr_info(...)		   printk(LOG_INFO, __VA_ARGS__)
#define pr_debug(...)		   printk(LOG_DEBUG, __VA_ARGS__)
#define pr_warn_ratelimited(...)   printk_ratelimited(LOG_WARNING, __VA_ARGS__)
#define pr_notice_ratelimited(...) printk_ratelimited(LOG_NOTICE, __VA_ARGS__)
#define pr_info_ratelimited(...)   printk_ratelimited(LOG_INFO, __VA_ARGS__)

#endif
