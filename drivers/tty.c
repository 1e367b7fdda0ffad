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
 * set (and O_ASYNC's owner hears only of input, POLL_IN with each line
 * readable, never POLL_OUT). Output is not translated either: the consoles already end a line
 * with a carriage return (serial.c sends "\r\n", the screen's '\n' returns
 * the carriage), which is what OPOST|ONLCR asks for; clearing those bits
 * does not turn that off.
 *
 * Job control: the terminal belongs to at most one session (its
 * controlling terminal), which a session leader takes with TIOCSCTTY and
 * gives up with TIOCNOTTY or by exiting; opening it never takes it, as
 * Linux's /dev/console and /dev/tty never do. Of that session, one process
 * group is in the foreground (TIOCSPGRP): ^C, ^\ and ^Z signal it, and a
 * background group that reads gets SIGTTIN, one that writes under TOSTOP
 * or changes the settings gets SIGTTOU (Linux's __tty_check_change).
 * vhangup(2) takes the terminal from its session as a dropped line would.
 */
#include "drivers/tty.h"
#include "kernel/process/cred.h"
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
#include "kernel/process/session.h"
#include "kernel/syscall/syscall.h"

#define WRITE_CHUNK   256 /* bytes copied from user memory per console write */
#define TTY_MAJOR     5	  /* Linux's: /dev/tty is 5:0, /dev/console 5:1 */
#define CONSOLE_MINOR 1
/* A device number as /proc/<pid>/stat's tty_nr encodes it (Linux's new_encode_dev). */
#define TTY_NR(major, minor) (((minor)&0xff) | ((major) << 8) | (((minor) & ~0xff) << 12))

static struct {
	struct spinlock lock; /* ld, winsize */
	struct ldisc ld;
	struct kernel_winsize winsize; /* only stored: nothing here draws by it */
	int session;		       /* whose controlling terminal it is; 0: nobody's */
	int pgrp;		       /* that session's foreground process group; 0: none */
	struct wait_queue readers;     /* woken when input may have become readable */
	struct list_head fasync;       /* its files in O_ASYNC mode: POLL_IN with each line */
	struct mutex write_lock;       /* one write(2) reaches the screen in one piece */
} tty = {
	.lock = SPINLOCK_INIT("tty"),
	.winsize = { .ws_row = 24, .ws_col = 80 },
	.readers = WAIT_QUEUE_INIT(tty.readers),
	.fasync = LIST_HEAD_INIT(tty.fasync),
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
	int sig = ldisc_take_signal(&tty.ld), pgrp = tty.pgrp;
	spin_unlock_irqrestore(&tty.lock, flags);

	if (readable) {
		wake_up_all(&tty.readers);
		kill_fasync(&tty.fasync, POLL_IN);
	}
	if (sig && pgrp)
		session_signal_group(pgrp, sig); /* tasks_lock is taken outside the tty's */
}

/* ---- job control ------------------------------------------------------------ */

/* The session and foreground group, read together. */
static void
owner(int *session, int *pgrp)
{
	u64 flags = spin_lock_irqsave(&tty.lock);
	*session = tty.session;
	*pgrp = tty.pgrp;
	spin_unlock_irqrestore(&tty.lock, flags);
}

/* Whether the terminal is the caller's controlling terminal. */
static bool
is_controlling(const struct session_ids *me, int session)
{
	return session && me->sid == session && !me->tty_detached;
}

/*
 * Whether the caller may read (sig SIGTTIN) or write and change settings
 * (SIGTTOU) now: 0 if so; -ERESTARTSYS after sending sig to its group,
 * which stops it until the shell brings it to the foreground; -EIO when
 * nobody could (an orphaned group), or SIGTTIN is ignored or blocked. A
 * blocked or ignored SIGTTOU lets the caller through, as in Linux.
 */
static long
background_check(int sig)
{
	struct session_ids me = session_current();
	int session, pgrp;

	owner(&session, &pgrp);
	if (!is_controlling(&me, session) || !pgrp || me.pgid == pgrp)
		return 0;
	if (signal_ignored_or_blocked(sig))
		return sig == SIGTTIN ? -EIO : 0;
	if (session_is_orphaned(me.pgid))
		return -EIO;
	session_signal_group(me.pgid, sig);
	return -ERESTARTSYS;
}

int
tty_session_ended(int sid)
{
	u64 flags = spin_lock_irqsave(&tty.lock);
	int fg = 0;

	if (tty.session == sid) {
		fg = tty.pgrp;
		tty.session = tty.pgrp = 0;
	}
	spin_unlock_irqrestore(&tty.lock, flags);
	return fg;
}

int
tty_nr_for(int sid, bool tty_detached, int *fg)
{
	int session, pgrp;

	owner(&session, &pgrp);
	if (!session || session != sid || tty_detached) {
		*fg = -1;
		return 0;
	}
	*fg = pgrp ? pgrp : -1;
	return TTY_NR(TTY_MAJOR, CONSOLE_MINOR); /* the console is the only terminal */
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

	for (;;) {
		long err = background_check(SIGTTIN);
		if (err)
			return err;
		if (try_read(buf, n, &got))
			break;
		if (READ_ONCE(f->flags) & O_NONBLOCK)
			return -EAGAIN;
		err = wait_event_interruptible(&tty.readers, read_ready(n));
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

static bool
tostop(void)
{
	u64 flags = spin_lock_irqsave(&tty.lock);
	bool on = tty.ld.termios.c_lflag & TOSTOP;
	spin_unlock_irqrestore(&tty.lock, flags);
	return on;
}

static long
tty_write(struct file *f, const char __user *buf, size_t n, u64 *pos)
{
	char chunk[WRITE_CHUNK];
	size_t done = 0;

	long err = -EFAULT;

	if (tostop()) {
		err = background_check(SIGTTOU);
		if (err)
			return err;
		err = -EFAULT;
	}
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
put_int(void __user *arg, int v)
{
	return copy_to_user(arg, &v, sizeof(v));
}

/* TIOCSPGRP: a group of the caller's session into the foreground. */
static long
set_pgrp(const void __user *arg)
{
	struct session_ids me = session_current();
	int pgrp, session, old;
	long err = background_check(SIGTTOU);

	if (err)
		return err == -EIO ? -ENOTTY : err;
	owner(&session, &old);
	if (!is_controlling(&me, session))
		return -ENOTTY;
	if (copy_from_user(&pgrp, arg, sizeof(pgrp)))
		return -EFAULT;
	if (pgrp < 0)
		return -EINVAL;
	err = session_check_foreground(pgrp, me.sid);
	if (err)
		return err;
	u64 flags = spin_lock_irqsave(&tty.lock);
	if (tty.session == session)
		tty.pgrp = pgrp;
	spin_unlock_irqrestore(&tty.lock, flags);
	return 0;
}

/* TIOCGPGRP and TIOCGSID: only of the caller's own controlling terminal. */
static long
get_owner(void __user *arg, bool want_session)
{
	struct session_ids me = session_current();
	int session, pgrp;

	owner(&session, &pgrp);
	if (!is_controlling(&me, session))
		return -ENOTTY;
	return put_int(arg, want_session ? session : pgrp);
}

/*
 * TIOCSCTTY: a session leader without a terminal takes this one. One that
 * belongs to another session is taken from it only with arg 1 by root
 * (CAP_SYS_ADMIN), as in Linux.
 */
static long
set_controlling(unsigned long arg)
{
	struct session_ids me = session_current();
	u64 flags = spin_lock_irqsave(&tty.lock);
	long err = 0;

	if (me.session_leader && tty.session == me.sid)
		goto out; /* already its own */
	if (!me.session_leader)
		err = -EPERM;
	else if (tty.session && (arg != 1 || !capable(CAP_SYS_ADMIN)))
		err = -EPERM;
	else {
		tty.session = me.sid;
		tty.pgrp = me.pgid;
	}
out:
	spin_unlock_irqrestore(&tty.lock, flags);
	return err;
}

/*
 * TIOCNOTTY: the session leader lets the terminal go, and its foreground
 * group gets SIGHUP and SIGCONT; any other process only stops using it.
 */
static long
give_up_controlling(void)
{
	struct session_ids me = session_current();
	int session, pgrp;

	owner(&session, &pgrp);
	if (!is_controlling(&me, session))
		return -ENOTTY;
	if (!me.session_leader) {
		session_detach_tty();
		return 0;
	}
	int fg = tty_session_ended(me.sid);
	if (fg) {
		session_signal_group(fg, SIGHUP);
		session_signal_group(fg, SIGCONT);
	}
	return 0;
}

/*
 * vhangup(2): the caller's controlling terminal hangs up as if its line
 * dropped (Linux's tty_vhangup_self): the session loses it, and the
 * session leader gets SIGHUP and SIGCONT (its foreground group gets its
 * own when the leader exits). Without a controlling terminal nothing
 * happens. Left out: Linux also makes the terminal's open descriptors
 * read end-of-file and fail writes with EIO; here they keep working.
 */
SYSCALL0(vhangup)
{
	struct session_ids me = session_current();
	int session, pgrp;

	if (!capable(CAP_SYS_TTY_CONFIG))
		return -EPERM;
	owner(&session, &pgrp);
	if (!is_controlling(&me, session))
		return 0;
	tty_session_ended(session);
	session_signal_leader(session, SIGHUP);
	session_signal_leader(session, SIGCONT);
	return 0;
}

/*
 * TIOCSTI: a byte pushed into the input as if typed - into one's own
 * controlling terminal, or by root (CAP_SYS_ADMIN): else anyone who can
 * open the console could type commands into root's shell (Linux's tiocsti).
 */
static long
simulate_input(const void __user *arg)
{
	struct session_ids me = session_current();
	int session, pgrp;
	char c;

	owner(&session, &pgrp);
	if (!capable(CAP_SYS_ADMIN) && !is_controlling(&me, session))
		return -EPERM;
	if (copy_from_user(&c, arg, 1))
		return -EFAULT;
	tty_receive(c);
	return 0;
}

/* TCFLSH: there is no output queue, so only the input is ever discarded. */
static long
flush_queues(unsigned long which)
{
	if (which != TCIFLUSH && which != TCOFLUSH && which != TCIOFLUSH)
		return -EINVAL;
	if (which == TCOFLUSH)
		return 0;
	u64 flags = spin_lock_irqsave(&tty.lock);
	ldisc_flush_input(&tty.ld);
	spin_unlock_irqrestore(&tty.lock, flags);
	return 0;
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

	long err;

	switch (cmd) {
	case TCSETS:
	case TCSETSW:
	case TCSETSF:
	case TCFLSH:
		err = background_check(SIGTTOU);
		if (err)
			return err;
		break;
	}
	switch (cmd) {
	case TCGETS:
		return get_termios(p);
	case TCSETS:
	case TCSETSW:
		return set_termios(p, false);
	case TCSETSF:
		return set_termios(p, true);
	case TCFLSH:
		return flush_queues(arg);
	case TIOCGWINSZ:
		return get_winsize(p);
	case TIOCSWINSZ:
		return set_winsize(p);
	case TIOCGPGRP:
		return get_owner(p, false);
	case TIOCGSID:
		return get_owner(p, true);
	case TIOCSPGRP:
		return set_pgrp(p);
	case TIOCSCTTY:
		return set_controlling(arg);
	case TIOCNOTTY:
		return give_up_controlling();
	case TIOCSTI:
		return simulate_input(p);
	case FIONREAD:
		return put_int(p, readable_bytes());
	default:
		return -ENOTTY;
	}
}

/* O_ASYNC: the owner hears of input as readers are woken for it (fs/fasync.c). */
static int
tty_fasync(int fd, struct file *f, bool on)
{
	return fasync_helper(fd, f, on, &tty.fasync);
}

/* ---- start-up -------------------------------------------------------------- */

static const struct file_operations tty_fops = {
	.read = tty_read,
	.write = tty_write,
	.poll = tty_poll,
	.ioctl = tty_ioctl,
	.fasync = tty_fasync,
};

/* /dev/tty is the caller's controlling terminal: none, and there is nothing to open. */
static int
open_own_terminal(struct inode *inode, struct file *f)
{
	struct session_ids me = session_current();
	int session, pgrp;

	owner(&session, &pgrp);
	return is_controlling(&me, session) ? 0 : -ENXIO;
}

static const struct file_operations own_tty_fops = {
	.open = open_own_terminal,
	.read = tty_read,
	.write = tty_write,
	.poll = tty_poll,
	.ioctl = tty_ioctl,
	.fasync = tty_fasync,
};

void
console_dev_init(void)
{
	ldisc_init(&tty.ld, echo_to_consoles, NULL);
	devfs_register("console", MKDEV(TTY_MAJOR, CONSOLE_MINOR), &tty_fops, NULL);
	devfs_register("tty", MKDEV(TTY_MAJOR, 0), &own_tty_fops, NULL);
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
