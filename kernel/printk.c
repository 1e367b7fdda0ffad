/*
 * printk.c - the kernel log: timestamped lines into a ring buffer and out to
 * the consoles.
 *
 * One spinlock (interrupts off) serialises lines so that lines from several
 * CPUs never interleave. After printk_enter_panic() a CPU waits for that
 * lock only briefly and then prints anyway: the holder may be a CPU that
 * panic has already stopped.
 */
#include "kernel/printk.h"
#include "kernel/lib/vsprintf.h"
#include "kernel/knobs.h"
#include "kernel/time/tsc.h"
#include "locking/spinlock.h"

#define LOG_BUF_SIZE PRINTK_LOG_SIZE /* a power of two */
#define LINE_MAX     1024

static char log_buf[LOG_BUF_SIZE];
static u64 log_head; /* bytes ever written */
static struct console *consoles;
static struct spinlock log_lock = SPINLOCK_INIT("printk");
static bool panic_mode;

KNOB_INT(loglevel, "loglevel", LOG_INFO, LOG_EMERG, LOG_DEBUG, true,
	 "console verbosity: lines with a level at or below it are shown (0 emerg .. 7 debug)");

/* Linux's other three printk levels (/proc/sys/kernel/printk), kept for what reads them back. */
static int default_message_loglevel = LOG_WARNING;
static int minimum_console_loglevel = LOG_ALERT;
static int default_console_loglevel = LOG_INFO + 1;

static void
log_store(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		log_buf[(log_head + i) & (LOG_BUF_SIZE - 1)] = s[i];
	log_head += n;
}

static void
consoles_write(const char *s, size_t n)
{
	for (struct console *c = consoles; c; c = c->next)
		c->write(s, n);
}

/* Returns whether the lock is held; in panic mode it may not be. */
static bool
log_lock_acquire(u64 *flags)
{
	*flags = local_irq_save();
	if (!READ_ONCE(panic_mode)) {
		spin_lock(&log_lock);
		return true;
	}
	for (int i = 0; i < 1000000; i++) {
		if (spin_trylock(&log_lock))
			return true;
		cpu_relax();
	}
	return false;
}

static void
log_lock_release(bool held, u64 flags)
{
	if (held)
		spin_unlock(&log_lock);
	local_irq_restore(flags);
}

void
vprintk(int level, const char *fmt, va_list ap)
{
	char line[LINE_MAX];
	u64 ns = ns_since_boot();
	int n = ksnprintf(line, sizeof(line), "[%5lu.%06lu] ", (unsigned long)(ns / 1000000000),
			  (unsigned long)(ns / 1000 % 1000000));
	n += kvscnprintf(line + n, sizeof(line) - n, fmt, ap);
	if (n >= LINE_MAX - 1) {
		n = LINE_MAX - 2;
		line[n++] = '\n';
		line[n] = '\0';
	} else if (n == 0 || line[n - 1] != '\n') {
		line[n++] = '\n';
		line[n] = '\0';
	}

	u64 flags;
	bool held = log_lock_acquire(&flags);
	log_store(line, n);
	if (level <= READ_ONCE(loglevel))
		consoles_write(line, n);
	log_lock_release(held, flags);
}

void
printk(int level, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vprintk(level, fmt, ap);
	va_end(ap);
}

void
console_write_all(const char *s, size_t n)
{
	u64 flags;
	bool held = log_lock_acquire(&flags);
	consoles_write(s, n);
	log_lock_release(held, flags);
}

void
register_console(struct console *c)
{
	u64 flags;
	bool held = log_lock_acquire(&flags);
	u64 start = log_head > LOG_BUF_SIZE ? log_head - LOG_BUF_SIZE : 0;

	/* Replay what the ring holds, in at most two pieces around the wrap. */
	while (start < log_head) {
		size_t off = start & (LOG_BUF_SIZE - 1);
		size_t n = MIN(log_head - start, (u64)(LOG_BUF_SIZE - off));
		c->write(&log_buf[off], n);
		start += n;
	}
	c->next = consoles;
	consoles = c;
	log_lock_release(held, flags);
}

u64
printk_log_copy(u64 *pos, char *dst, size_t n)
{
	u64 flags;
	bool held = log_lock_acquire(&flags);
	u64 oldest = log_head > LOG_BUF_SIZE ? log_head - LOG_BUF_SIZE : 0;

	if (*pos < oldest)
		*pos = oldest;
	n = MIN(n, (size_t)(log_head - MIN(*pos, log_head)));
	for (size_t i = 0; i < n; i++)
		dst[i] = log_buf[(*pos + i) & (LOG_BUF_SIZE - 1)];
	u64 head = log_head;
	log_lock_release(held, flags);
	return head;
}

u64
printk_log_head(void)
{
	return READ_ONCE(log_head);
}

/* Linux's console_loglevel counts one more: a line shows if its level is below it. */
int
printk_console_level(void)
{
	return READ_ONCE(loglevel) + 1;
}

void
printk_set_console_level(int level)
{
	WRITE_ONCE(loglevel, MAX(LOG_EMERG, MIN(level - 1, LOG_DEBUG)));
}

void
printk_levels(int levels[4])
{
	levels[0] = printk_console_level();
	levels[1] = READ_ONCE(default_message_loglevel);
	levels[2] = READ_ONCE(minimum_console_loglevel);
	levels[3] = READ_ONCE(default_console_loglevel);
}

void
printk_set_levels(const int *levels, int n)
{
	int *const others[] = { &default_message_loglevel, &minimum_console_loglevel,
				&default_console_loglevel };

	if (n > 0)
		printk_set_console_level(levels[0]);
	for (int i = 1; i < n && i < 4; i++)
		WRITE_ONCE(*others[i - 1], levels[i]);
}

void
printk_enter_panic(void)
{
	WRITE_ONCE(panic_mode, true);
}

bool
ratelimit_allow(struct ratelimit *rl, unsigned *dropped)
{
	return ratelimit_allow_at(rl, rdtsc(), tsc_hz / 10, dropped);
}
