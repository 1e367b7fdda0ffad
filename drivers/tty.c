/*
 * tty.c - the console terminal; see tty.h. The editing rules are in
 * ldisc.c; here are the locking, sleeping and user copies around them.
 *
 * One spinlock, taken with interrupts off, covers the line discipline:
 * input arrives in interrupt handlers, which also echo (to the consoles,
 * under printk's lock, which never takes this one). User memory is never
 * touched under it, since a user copy may fault and sleep: reads go
 * through a kernel bounce buffer.
 *
 * Output is written at once (polled serial, the screen), so nothing is
 * ever queued: TCSETSW has no output to wait for, and POLLOUT is always
 * set. Output is not translated either: the consoles already end a line
 * with a carriage return (serial.c sends "\r\n", the screen's '\n' returns
 * the carriage), which is what OPOST|ONLCR asks for; clearing those bits
 * does not turn that off.
 */
#include "drivers/tty.h"
#include "drivers/ldisc.h"
#include "drivers/ps2kbd.h"
#include "drivers/serial.h"
#include "fs/vfs.h"
#include "uapi/errno.h"
#include "kernel/printk.h"
#include "mm/kmalloc.h"
#include "uapi/ioctls.h"
#include "kernel/sched/sched.h"
#include "kernel/signal/signal.h"

#define WRITE_CHUNK 256 /* bytes copied from user memory per console write */

static struct {
	struct spinlock lock; /* ld, winsize */
	struct ldisc ld;
	struct kernel_winsize winsize; /* only stored: nothing here draws by it */
	int pgrp;		       /* the foreground process group, as set */
	struct wait_queue readers;     /* woken when input may have become readable */
	struct mutex write_lock;       /* one write(2) reaches the screen in one piece */
} tty = {
	.lock = SPINLOCK_INIT("tty"),
	.winsize = { .ws_row = 24, .ws_col = 80 },
	.pgrp = 1, /* init's, until sessions exist */
	.readers = WAIT_QUEUE_INIT(tty.readers),
	.write_lock = MUTEX_INIT(tty.write_lock, "tty_write"),
};

static void
echo_to_consoles(void *unused, const char *s, size_t n)
{
	console_write_all(s, n);
}

void
tty_receive(char c)
{
	u64 flags = spin_lock_irqsave(&tty.lock);
	bool readable = ldisc_receive(&tty.ld, (u8)c);
	spin_unlock_irqrestore(&tty.lock, flags);

	if (readable)
		wake_up_all(&tty.readers);
}

/* ---- read ------------------------------------------------------------------ */

static bool
read_ready(size_t n)
{
	u64 flags = spin_lock_irqsave(&tty.lock);
	bool ready = ldisc_read_ready(&tty.ld, n);
	spin_unlock_irqrestore(&tty.lock, flags);
	return ready;
}

/* Takes up to n bytes into buf if a read would return now; false if it must wait. */
static bool
try_read(char *buf, size_t n, size_t *got)
{
	u64 flags = spin_lock_irqsave(&tty.lock);
	bool ready = ldisc_read_ready(&tty.ld, n);
	if (ready)
		*got = ldisc_read(&tty.ld, buf, n);
	spin_unlock_irqrestore(&tty.lock, flags);
	return ready;
}

/*
 * The count, 0 at end of file, or -errno. Readiness is tested again under
 * the lock when taking the input, as another reader may have been first.
 */
static long
wait_and_read(struct file *f, char *buf, size_t n)
{
	size_t got;

	while (!try_read(buf, n, &got)) {
		if (READ_ONCE(f->flags) & O_NONBLOCK)
			return -EAGAIN;
		long err = wait_event_interruptible(&tty.readers, read_ready(n));
		if (err)
			return err;
	}
	return (long)got;
}

/* Input that cannot be copied out (a bad buffer) is lost, as it is already taken. */
static long
tty_read(struct file *f, char __user *buf, size_t n, u64 *pos)
{
	if (n == 0)
		return 0;
	n = MIN(n, (size_t)LDISC_BUF_SIZE); /* more is never readable at once */
	char *bounce = kmalloc(n);
	if (!bounce)
		return -ENOMEM;
	long ret = wait_and_read(f, bounce, n);
	if (ret > 0 && copy_to_user(buf, bounce, (size_t)ret))
		ret = -EFAULT;
	kfree(bounce);
	return ret;
}

/* ---- write and poll ---------------------------------------------------------- */

static long
tty_write(struct file *f, const char __user *buf, size_t n, u64 *pos)
{
	char chunk[WRITE_CHUNK];
	size_t done = 0;

	long err = -EFAULT;

	mutex_lock(&tty.write_lock);
	while (done < n) {
		/*
		 * The serial line takes ~87 us a byte: a big write holds the lock
		 * for seconds, so a signal ends it with what is written (or a
		 * restart if nothing is), as Linux's n_tty_write does.
		 */
		if (signal_pending()) {
			err = -ERESTARTSYS;
			break;
		}
		size_t len = MIN(n - done, sizeof(chunk));
		if (copy_from_user(chunk, buf + done, len))
			break;
		console_write_all(chunk, len);
		done += len;
		cond_resched();
	}
	mutex_unlock(&tty.write_lock);
	return done || n == 0 ? (long)done : err;
}

static unsigned
tty_poll(struct file *f, struct poll_table *pt)
{
	poll_wait(f, &tty.readers, pt);
	u64 flags = spin_lock_irqsave(&tty.lock);
	bool in = ldisc_input_available(&tty.ld);
	spin_unlock_irqrestore(&tty.lock, flags);
	return POLLOUT | POLLWRNORM | (in ? POLLIN | POLLRDNORM : 0);
}

/* ---- ioctl ------------------------------------------------------------------- */

static long
get_termios(void __user *arg)
{
	u64 flags = spin_lock_irqsave(&tty.lock);
	struct kernel_termios t = tty.ld.termios;
	spin_unlock_irqrestore(&tty.lock, flags);
	return copy_to_user(arg, &t, sizeof(t));
}

/* TCSETS and TCSETSW; TCSETSF (flush) also discards the input not yet read. */
static long
set_termios(const void __user *arg, bool flush)
{
	struct kernel_termios t;

	if (copy_from_user(&t, arg, sizeof(t)))
		return -EFAULT;
	u64 flags = spin_lock_irqsave(&tty.lock);
	if (flush)
		ldisc_flush_input(&tty.ld);
	ldisc_set_termios(&tty.ld, &t);
	spin_unlock_irqrestore(&tty.lock, flags);
	/* Leaving canonical mode or lowering VMIN may let a sleeping reader go on. */
	wake_up_all(&tty.readers);
	return 0;
}

static long
get_winsize(void __user *arg)
{
	u64 flags = spin_lock_irqsave(&tty.lock);
	struct kernel_winsize ws = tty.winsize;
	spin_unlock_irqrestore(&tty.lock, flags);
	return copy_to_user(arg, &ws, sizeof(ws));
}

static long
set_winsize(const void __user *arg)
{
	struct kernel_winsize ws;

	if (copy_from_user(&ws, arg, sizeof(ws)))
		return -EFAULT;
	u64 flags = spin_lock_irqsave(&tty.lock);
	tty.winsize = ws;
	spin_unlock_irqrestore(&tty.lock, flags);
	return 0;
}

static long
set_pgrp(const void __user *arg)
{
	int pgrp;

	if (copy_from_user(&pgrp, arg, sizeof(pgrp)))
		return -EFAULT;
	if (pgrp < 0)
		return -EINVAL;
	WRITE_ONCE(tty.pgrp, pgrp);
	return 0;
}

static long
put_int(void __user *arg, int v)
{
	return copy_to_user(arg, &v, sizeof(v));
}

static int
readable_bytes(void)
{
	u64 flags = spin_lock_irqsave(&tty.lock);
	size_t n = ldisc_readable(&tty.ld);
	spin_unlock_irqrestore(&tty.lock, flags);
	return (int)n;
}

static long
tty_ioctl(struct file *f, unsigned cmd, unsigned long arg)
{
	void __user *p = (void __user *)arg;

	switch (cmd) {
	case TCGETS:
		return get_termios(p);
	case TCSETS:
	case TCSETSW:
		return set_termios(p, false);
	case TCSETSF:
		return set_termios(p, true);
	case TIOCGWINSZ:
		return get_winsize(p);
	case TIOCSWINSZ:
		return set_winsize(p);
	case TIOCGPGRP:
		return put_int(p, READ_ONCE(tty.pgrp));
	case TIOCSPGRP:
		return set_pgrp(p);
	case FIONREAD:
		return put_int(p, readable_bytes());
	default:
		return -ENOTTY;
	}
}

/* ---- start-up -------------------------------------------------------------- */

static const struct file_operations tty_fops = {
	.read = tty_read,
	.write = tty_write,
	.poll = tty_poll,
	.ioctl = tty_ioctl,
};

void
console_dev_init(void)
{
	ldisc_init(&tty.ld, echo_to_consoles, NULL);
	devfs_register("console", MKDEV(5, 1), &tty_fops, NULL);
	devfs_register("tty", MKDEV(5, 0), &tty_fops, NULL);
}

struct file *
console_open(void)
{
	struct file *f;

	return file_open_at(AT_FDCWD, "/dev/console", O_RDWR | O_NOCTTY, 0, &f) ? NULL : f;
}

void
tty_init(void)
{
	serial_enable_rx();
	ps2kbd_init();
}
