/*
 * pipe.c - pipes: a ring buffer (64 KiB, Linux's default pipe capacity)
 * between a read end and a write end, with Linux's semantics.
 *
 *  - read returns what is there (at most what was asked), blocks while the
 *    pipe is empty and a writer exists, and returns 0 (EOF) once every
 *    write end is closed;
 *  - write blocks while the pipe is full; with every read end closed it
 *    fails with -EPIPE and the writer gets SIGPIPE;
 *  - a signal ends a wait: the call is restarted (SA_RESTART) or fails with
 *    EINTR, unless some data moved already (then that count);
 *  - a write of at most PIPE_BUF bytes goes in whole or not at all, so
 *    writers never interleave inside one; a larger write may be split;
 *  - O_NONBLOCK turns every wait into -EAGAIN;
 *  - poll: POLLIN with data, POLLHUP without writers, POLLOUT when a
 *    PIPE_BUF write would not block, POLLERR without readers.
 *
 * The buffer is charged to its creator's user (fs/pipe_accounting.c: a
 * user above pipe-user-pages-soft gets 8 KiB pipes, above -hard none, as
 * Linux's alloc_pipe_info) and to its creator's process, whose size the
 * OOM killer weighs (mm/oom_kill.c). F_SETPIPE_SZ resizes it (pipe_fcntl),
 * FIONREAD says how much it holds, and splice, tee and vmsplice reach the
 * ring through the primitives fs/pipe.h declares (fs/splice.c).
 *
 * Named pipes (FIFOs) are the same pipe behind a name on the RAM file
 * system: their inode has fifo_fops, whose open makes the pipe and waits
 * for the other end as Linux does (fifo_open below).
 *
 * The mutex serializes readers and writers (they copy from and to user
 * memory, which may fault and sleep); sleepers wait on two queues without
 * it, testing the counters with single reads.
 *
 * O_DIRECT on a writing end is Linux's packet mode (since 3.4): each write
 * of up to PIPE_BUF bytes becomes one packet (a longer write is cut in
 * PIPE_BUF packets), and a read that reaches a packet ends with it, what
 * did not fit in its buffer dropped. The ring stays a ring of bytes; the
 * packets' bounds are kept beside it (struct pipe_packets in fs/pipe.h).
 * pipe2 takes O_DIRECT and F_SETFL sets or clears it on either end.
 */
#include "fs/pipe.h"
#include "uapi/errno.h"
#include "uapi/ioctls.h"
#include "uapi/magic.h"
#include "kernel/lib/string.h"
#include "kernel/lib/vsprintf.h"
#include "kernel/process/cred.h"
#include "kernel/signal/signal.h"
#include "kernel/syscall/syscall.h"
#include "mm/kmalloc.h"
#include "mm/oom_kill.h"
#include "mm/page_alloc.h"

u32
pipe_used(struct pipe *p)
{
	return READ_ONCE(p->head) - READ_ONCE(p->tail);
}

u32
pipe_room(struct pipe *p)
{
	return READ_ONCE(p->size) - pipe_used(p);
}

int
pipe_peek_to_user(struct pipe *p, char __user *buf, u32 n)
{
	u32 at = p->tail % p->size, first = MIN(n, p->size - at);

	if (copy_to_user(buf, p->buf + at, first) || copy_to_user(buf + first, p->buf, n - first))
		return -EFAULT;
	return 0;
}

/* The oldest packet in p, or NULL. */
static struct pipe_packet *
first_packet(struct pipe *p)
{
	struct pipe_packets *pk = &p->packets;

	return pk->count ? &pk->ring[pk->first] : NULL;
}

void
pipe_consume(struct pipe *p, u32 n)
{
	struct pipe_packets *pk = &p->packets;
	struct pipe_packet *first;

	WRITE_ONCE(p->tail, p->tail + n);
	while ((first = first_packet(p)) && (s32)(first->end - p->tail) <= 0) {
		pk->first = (pk->first + 1) % pk->slots;
		pk->count--;
	}
}

/* Room for one more packet: the ring is made at the first (false if memory is short). */
static bool
packet_slot_free(struct pipe *p)
{
	struct pipe_packets *pk = &p->packets;

	if (!pk->ring) {
		pk->slots = p->size / PAGE_SIZE;
		pk->ring = kmalloc(pk->slots * sizeof(*pk->ring));
	}
	return pk->ring && pk->count < pk->slots;
}

/* The n bytes just appended to p are a packet (a slot is free). */
static void
packet_add(struct pipe *p, u32 n)
{
	struct pipe_packets *pk = &p->packets;

	pk->ring[(pk->first + pk->count) % pk->slots] =
		(struct pipe_packet){ .start = p->head - n, .end = p->head };
	pk->count++;
}

/*
 * A read that would take *take bytes of p and reaches its first packet
 * ends with it: the whole packet leaves the pipe (*drop), the part past
 * *take dropped. One that stops short of it leaves it.
 */
static void
packet_bound(struct pipe *p, u32 *take, u32 *drop)
{
	struct pipe_packet *first = first_packet(p);
	s32 before = (s32)(first->start - p->tail); /* stream bytes ahead of it */

	if ((s32)*take > before) {
		*drop = first->end - p->tail;
		*take = MIN(*take, *drop);
	}
}

int
pipe_append_from_user(struct pipe *p, const char __user *buf, u32 n)
{
	u32 at = p->head % p->size, first = MIN(n, p->size - at);

	if (copy_from_user(p->buf + at, buf, first) ||
	    copy_from_user(p->buf, buf + first, n - first))
		return -EFAULT;
	WRITE_ONCE(p->head, p->head + n);
	return 0;
}

void
pipe_copy_data(struct pipe *from, struct pipe *to, u32 n)
{
	for (u32 done = 0; done < n;) {
		u32 src = (from->tail + done) % from->size, dst = to->head % to->size;
		u32 part = MIN(n - done, MIN(from->size - src, to->size - dst));
		memcpy(to->buf + dst, from->buf + src, part);
		WRITE_ONCE(to->head, to->head + part);
		done += part;
	}
}

int
pipe_wait_readable(struct pipe *p, bool nonblock)
{
	while (p->head == p->tail && p->writers) {
		if (nonblock)
			return -EAGAIN;
		mutex_unlock(&p->lock);
		int err = wait_event_interruptible(&p->rd_wait,
						   pipe_used(p) || !READ_ONCE(p->writers));
		mutex_lock(&p->lock);
		if (err)
			return err;
	}
	return 0;
}

int
pipe_wait_writable(struct pipe *p, u32 need, bool packet, bool nonblock)
{
	for (;;) {
		if (!p->readers) {
			signal_send_self(SIGPIPE); /* even after a partial write, as Linux */
			return -EPIPE;
		}
		if (p->size - (p->head - p->tail) >= need && (!packet || packet_slot_free(p)))
			return 0;
		if (packet && !p->packets.ring)
			return -ENOMEM;
		if (nonblock)
			return -EAGAIN;
		mutex_unlock(&p->lock);
		wake_up(&p->rd_wait); /* let them drain what is in */
		int err = wait_event_interruptible(
			&p->wr_wait,
			(pipe_room(p) >= need &&
			 (!packet || READ_ONCE(p->packets.count) < p->packets.slots)) ||
				!READ_ONCE(p->readers));
		mutex_lock(&p->lock);
		if (err)
			return err;
	}
}

static long
pipe_read(struct file *f, char __user *buf, size_t n, u64 *pos)
{
	struct pipe *p = f->inode->private;

	if (n == 0)
		return 0;
	mutex_lock(&p->lock);
	long ret = pipe_wait_readable(p, READ_ONCE(f->flags) & O_NONBLOCK);
	u32 take = (u32)MIN(n, (size_t)(p->head - p->tail)), drop = take;
	if (p->packets.count)
		packet_bound(p, &take, &drop);
	if (!ret && take) {
		ret = pipe_peek_to_user(p, buf, take);
		if (!ret) {
			pipe_consume(p, drop);
			ret = take;
		}
	}
	mutex_unlock(&p->lock);
	if (ret > 0)
		pipe_wake_writers(p);
	return ret;
}

/* An O_DIRECT write: packets of up to PIPE_BUF bytes, each waiting for room and a slot whole. */
static long
packet_write(struct pipe *p, const char __user *buf, size_t n, bool nonblock)
{
	size_t done = 0;
	long err = 0;

	mutex_lock(&p->lock);
	while (done < n) {
		u32 put = (u32)MIN(n - done, PIPE_BUF);
		err = pipe_wait_writable(p, put, true, nonblock);
		if (!err)
			err = pipe_append_from_user(p, buf + done, put);
		if (err)
			break;
		packet_add(p, put);
		done += put;
	}
	mutex_unlock(&p->lock);
	if (done)
		pipe_wake_readers(p);
	return done ? (long)done : err;
}

static long
pipe_write(struct file *f, const char __user *buf, size_t n, u64 *pos)
{
	struct pipe *p = f->inode->private;
	u32 flags = READ_ONCE(f->flags);
	u32 need = n <= PIPE_BUF ? (u32)n : 1; /* room that must be free to go on */
	size_t done = 0;
	long err = 0;

	if (flags & O_DIRECT)
		return packet_write(p, buf, n, flags & O_NONBLOCK);
	mutex_lock(&p->lock);
	while (done < n) {
		err = pipe_wait_writable(p, need, false, flags & O_NONBLOCK);
		if (err)
			break;
		u32 put = (u32)MIN(p->size - (p->head - p->tail), n - done);
		err = pipe_append_from_user(p, buf + done, put);
		if (err)
			break;
		done += put;
	}
	mutex_unlock(&p->lock);
	if (done)
		pipe_wake_readers(p);
	return done ? (long)done : err;
}

void
pipe_wake_readers(struct pipe *p)
{
	wake_up(&p->rd_wait);
	kill_fasync(&p->fasync_readers, POLL_IN);
}

void
pipe_wake_writers(struct pipe *p)
{
	wake_up(&p->wr_wait);
	kill_fasync(&p->fasync_writers, POLL_OUT);
}

static unsigned
pipe_poll(struct file *f, struct poll_table *pt)
{
	struct pipe *p = f->inode->private;
	unsigned mask = 0;

	if (f->fmode & FMODE_READ) {
		poll_wait(f, &p->rd_wait, pt);
		if (pipe_used(p))
			mask |= POLLIN | POLLRDNORM;
		if (!READ_ONCE(p->writers))
			mask |= POLLHUP;
	}
	if (f->fmode & FMODE_WRITE) {
		poll_wait(f, &p->wr_wait, pt);
		if (pipe_room(p) >= PIPE_BUF)
			mask |= POLLOUT | POLLWRNORM;
		if (!READ_ONCE(p->readers))
			mask |= POLLERR;
	}
	return mask;
}

/* FIONREAD: the bytes a read could take now (Linux's pipe_ioctl). */
static long
pipe_ioctl(struct file *f, unsigned cmd, unsigned long arg)
{
	struct pipe *p = f->inode->private;

	if (cmd != FIONREAD)
		return -ENOTTY;
	int used = (int)pipe_used(p);
	return copy_to_user((int __user *)arg, &used, sizeof(used)) ? -EFAULT : 0;
}

static void
pipe_release(struct file *f)
{
	struct pipe *p = f->inode->private;

	mutex_lock(&p->lock);
	if (f->fmode & FMODE_READ)
		p->readers--;
	if (f->fmode & FMODE_WRITE)
		p->writers--;
	if (!p->readers && !p->writers)
		pipe_consume(p, p->head - p->tail); /* a FIFO reopened later starts empty */
	mutex_unlock(&p->lock);
	pipe_wake_readers(p);
	pipe_wake_writers(p);
}

/* O_ASYNC on an end: the reading side joins the readers' list, the writing side the writers'. */
static int
pipe_fasync(int fd, struct file *f, bool on)
{
	struct pipe *p = f->inode->private;
	int err = 0;

	if (f->fmode & FMODE_READ)
		err = fasync_helper(fd, f, on, &p->fasync_readers);
	if (!err && (f->fmode & FMODE_WRITE))
		err = fasync_helper(fd, f, on, &p->fasync_writers);
	if (err && (f->fmode & FMODE_READ))
		fasync_helper(fd, f, false, &p->fasync_readers);
	return err;
}

/* Moves pages more (or fewer) of p's buffer onto its user's and its process's counts. */
static void
pipe_charge(struct pipe *p, long pages)
{
	pipe_account_add(&p->account, pages);
	if (p->charge)
		mem_charge_add(p->charge, pages);
}

static void
pipe_free(struct pipe *p)
{
	pipe_charge(p, -(long)p->account.pages);
	if (p->charge)
		mem_charge_put(p->charge);
	kfree(p->packets.ring);
	kfree(p->buf);
	kfree(p);
}

static void
pipe_evict(struct inode *inode)
{
	pipe_free(inode->private);
}

static const struct inode_operations pipe_iops = {
	.evict = pipe_evict,
};

static int fifo_open(struct inode *inode, struct file *f);

static const struct file_operations pipe_fops = {
	.open = fifo_open, /* opened again through /proc/<pid>/fd/N: pipe_dentry */
	.read = pipe_read,
	.write = pipe_write,
	.poll = pipe_poll,
	.ioctl = pipe_ioctl,
	.fasync = pipe_fasync,
	.release = pipe_release,
};

struct pipe *
pipe_of(struct file *f)
{
	const struct file_operations *ops = f->inode->fops;

	return ops == &pipe_fops || ops == &fifo_fops ? f->inode->private : NULL;
}

/*
 * How many pages a new pipe gets, charged to its user's count (Linux's
 * alloc_pipe_info): 16, fewer if pipe-max-size is smaller, 2 for a user
 * above the soft limit; 0 (nothing charged) above the hard limit. A user
 * with CAP_SYS_RESOURCE or CAP_SYS_ADMIN is not limited.
 */
static unsigned long
charge_new_pipe(struct pipe_account *a)
{
	bool limited = pipe_user_unprivileged();
	unsigned long pages = PIPE_DEF_PAGES;

	if (limited && pages * PAGE_SIZE > READ_ONCE(pipe_max_size))
		pages = READ_ONCE(pipe_max_size) / PAGE_SIZE;
	unsigned long total = pipe_account_add(a, (long)pages);
	if (limited && pipe_user_over_soft(total)) {
		total = pipe_account_add(a, PIPE_MIN_DEF_PAGES - (long)pages);
		pages = PIPE_MIN_DEF_PAGES;
	}
	if (limited && pipe_user_over_hard(total)) {
		pipe_account_add(a, -(long)pages);
		return 0;
	}
	return pages;
}

/* A pipe's buffer and queues in *out: 0, -ENFILE above the user's hard limit, or -ENOMEM. */
static int
pipe_alloc(struct pipe **out)
{
	struct pipe *p = kzalloc(sizeof(*p));

	if (!p)
		return -ENOMEM;
	p->account = (struct pipe_account){ .user = USER_CHARGE(current_uids().real) };
	unsigned long pages = charge_new_pipe(&p->account);
	if (!pages) {
		kfree(p);
		return -ENFILE;
	}
	p->size = (u32)(pages * PAGE_SIZE);
	p->charge = mem_charge_current();
	if (p->charge)
		mem_charge_add(p->charge, (long)pages);
	if (!p->charge || !(p->buf = kmalloc(p->size))) {
		pipe_free(p);
		return -ENOMEM;
	}
	mutex_init(&p->lock, "pipe");
	wait_queue_init(&p->rd_wait);
	wait_queue_init(&p->wr_wait);
	list_init(&p->fasync_readers);
	list_init(&p->fasync_writers);
	*out = p;
	return 0;
}

/*
 * Moves pk's packets, counted from base on, to a new ring of slots (no
 * fewer than they are), oldest first: 0 or -ENOMEM.
 */
static int
packets_resize(struct pipe_packets *pk, u32 slots, u32 base)
{
	if (!pk->ring)
		return 0; /* made at the first packet, with the size then */
	struct pipe_packet *ring = kmalloc(slots * sizeof(*ring));
	if (!ring)
		return -ENOMEM;
	for (u32 i = 0; i < pk->count; i++) {
		struct pipe_packet *from = &pk->ring[(pk->first + i) % pk->slots];
		ring[i] = (struct pipe_packet){ from->start - base, from->end - base };
	}
	kfree(pk->ring);
	*pk = (struct pipe_packets){ .ring = ring, .slots = slots, .first = 0, .count = pk->count };
	return 0;
}

/*
 * F_SETPIPE_SZ (Linux's pipe_set_size): the buffer becomes bytes rounded up
 * to a power of two of pages, with what it holds; its new size, -EINVAL
 * for over 2 GiB, -EPERM to grow past pipe-max-size or a user limit
 * without privilege, -EBUSY below what it holds (bytes, or packets: one
 * a page). The lock is held.
 */
static long
pipe_set_size(struct pipe *p, unsigned long bytes)
{
	unsigned long size = pipe_round_size(bytes), pages = size / PAGE_SIZE;
	unsigned long old = p->account.pages;
	bool limited = pipe_user_unprivileged();

	if (!pages)
		return -EINVAL;
	if (size > p->size && size > READ_ONCE(pipe_max_size) && !capable(CAP_SYS_RESOURCE))
		return -EPERM;
	unsigned long total = pipe_account_add(&p->account, (long)pages - (long)old);
	long err = 0;
	if (pages > old && limited && (pipe_user_over_hard(total) || pipe_user_over_soft(total)))
		err = -EPERM;
	else if (p->head - p->tail > size || p->packets.count > pages)
		err = -EBUSY;
	char *buf = err ? NULL : kmalloc(size);
	if (!err && (!buf || packets_resize(&p->packets, (u32)pages, p->tail))) {
		kfree(buf);
		err = -ENOMEM;
	}
	pipe_account_add(&p->account, (long)old - (long)pages); /* pipe_charge does both counts */
	if (err)
		return err;
	u32 used = p->head - p->tail, at = p->tail % p->size, first = MIN(used, p->size - at);
	memcpy(buf, p->buf + at, first);
	memcpy(buf + first, p->buf, used - first);
	kfree(p->buf);
	p->buf = buf;
	p->tail = 0;
	p->head = used;
	WRITE_ONCE(p->size, (u32)size);
	pipe_charge(p, (long)pages - (long)old);
	return (long)size;
}

long
pipe_fcntl(struct file *f, int cmd, unsigned long arg)
{
	struct pipe *p = pipe_of(f);
	if (!p)
		return -EBADF;
	mutex_lock(&p->lock);
	long ret = cmd == F_GETPIPE_SZ ? (long)p->size : pipe_set_size(p, arg);
	mutex_unlock(&p->lock);
	if (ret > 0)
		wake_up_all(&p->wr_wait); /* more room, perhaps */
	return ret;
}

/* The instance every pipe is on: never mounted, it only gives st_dev and statfs's f_type. */
struct fs_type pipefs_type = { .name = "pipefs", .magic = PIPEFS_MAGIC };

/* A pipe inode with its buffer: one reference, or NULL. */
static int
pipe_inode_new(struct inode **out)
{
	struct pipe *p;
	int err = pipe_alloc(&p);

	if (err)
		return err;
	struct inode *inode = inode_alloc(pipefs_sb, S_IFIFO | 0600, &pipe_iops, &pipe_fops);
	if (!inode) {
		pipe_free(p);
		return -ENOMEM;
	}
	inode->private = p;
	/* Its creator's, as Linux's pipes (fstat shows it). */
	inode->uid = current_fsuid();
	inode->gid = current_fsgid();
	*out = inode;
	return 0;
}

struct dentry *
pipe_dentry(struct inode *inode)
{
	char name[32];
	int len = ksnprintf(name, sizeof(name), "pipe:[%lu]", (unsigned long)inode->ino);

	/*
	 * Never linked into the root's children, so no walk finds it; the
	 * root is only a parent to hold (a pipe is no directory: no walk
	 * goes on from it to "..").
	 */
	return dentry_alloc_child(vfs_root, name, (size_t)len, inode_get(inode));
}

/* ---- named pipes (FIFOs: mknod S_IFIFO) ---------------------------------------- */

/*
 * Waits, without the pipe's lock, until *counter moves past seen (a
 * partner opened): 0, or -ERESTARTSYS for a signal.
 */
static int
fifo_wait_partner(struct pipe *p, struct wait_queue *q, u32 *counter, u32 seen)
{
	mutex_unlock(&p->lock);
	int err = wait_event_interruptible(q, READ_ONCE(*counter) != seen);
	mutex_lock(&p->lock);
	return err ? -ERESTARTSYS : 0;
}

/*
 * Opening a FIFO, as Linux's fifo_open: the pipe is made at the first open
 * and kept with the inode. A read-only open waits for a writer and a
 * write-only open for a reader (unless O_NONBLOCK: a reader goes on, a
 * writer fails with ENXIO); O_RDWR never waits. Once the last end closes
 * the data left is dropped, as Linux frees the pipe.
 */
static int
fifo_open(struct inode *inode, struct file *f)
{
	mutex_lock(&inode->lock);
	struct pipe *p = inode->private;
	int err = p ? 0 : pipe_alloc(&p);
	if (!err)
		inode->private = p;
	mutex_unlock(&inode->lock);
	if (err)
		return err == -ENFILE ? -ENOMEM : err; /* Linux's fifo_open: ENOMEM either way */
	bool nonblock = f->flags & O_NONBLOCK;
	mutex_lock(&p->lock);
	switch (f->fmode & (FMODE_READ | FMODE_WRITE)) {
	case FMODE_READ:
		p->readers++;
		p->r_counter++;
		wake_up_all(&p->wr_wait);
		if (!p->writers && !nonblock)
			err = fifo_wait_partner(p, &p->rd_wait, &p->w_counter, p->w_counter);
		if (err)
			p->readers--;
		break;
	case FMODE_WRITE:
		if (!p->readers && nonblock) {
			err = -ENXIO;
			break;
		}
		p->writers++;
		p->w_counter++;
		wake_up_all(&p->rd_wait);
		if (!p->readers)
			err = fifo_wait_partner(p, &p->wr_wait, &p->r_counter, p->r_counter);
		if (err)
			p->writers--;
		break;
	default: /* O_RDWR: both ends at once */
		p->readers++;
		p->writers++;
		p->r_counter++;
		p->w_counter++;
		wake_up_all(&p->rd_wait);
		wake_up_all(&p->wr_wait);
		break;
	}
	mutex_unlock(&p->lock);
	if (err) { /* the partner that was waited for may be waiting on us */
		wake_up_all(&p->rd_wait);
		wake_up_all(&p->wr_wait);
	}
	return err;
}

static void
fifo_evict(struct inode *inode)
{
	if (inode->private)
		pipe_evict(inode);
}

const struct inode_operations fifo_iops = {
	.evict = fifo_evict,
};

const struct file_operations fifo_fops = {
	.open = fifo_open,
	.read = pipe_read,
	.write = pipe_write,
	.poll = pipe_poll,
	.ioctl = pipe_ioctl,
	.fasync = pipe_fasync,
	.release = pipe_release,
};

/* Both ends of a new pipe: 0 or -ENOMEM. */
static int
pipe_create(u32 flags, struct file **rd, struct file **wr)
{
	struct inode *inode;
	int err = pipe_inode_new(&inode);

	if (err)
		return err;
	struct pipe *p = inode->private;
	/* Packet mode is a writer's (Linux's create_pipe_files gives O_DIRECT only to it). */
	*rd = file_alloc(inode, NULL, O_RDONLY | (flags & O_NONBLOCK));
	*wr = file_alloc(inode, NULL, O_WRONLY | (flags & (O_NONBLOCK | O_DIRECT)));
	p->readers = *rd ? 1 : 0;
	p->writers = *wr ? 1 : 0;
	inode_put(inode); /* the files hold it now */
	if (*rd && *wr)
		return 0;
	if (*rd)
		file_put(*rd);
	if (*wr)
		file_put(*wr);
	return -ENOMEM;
}

static long
do_pipe2(int __user *ufds, int flags)
{
	struct file *rd, *wr;
	int fds[2];

	if (flags & ~(O_CLOEXEC | O_NONBLOCK | O_DIRECT))
		return -EINVAL;
	int err = pipe_create((u32)flags, &rd, &wr);
	if (err)
		return err;
	fds[0] = fd_alloc(rd, 0, flags & O_CLOEXEC);
	if (fds[0] < 0) {
		file_put(rd);
		file_put(wr);
		return fds[0];
	}
	fds[1] = fd_alloc(wr, 0, flags & O_CLOEXEC);
	if (fds[1] < 0) {
		fd_close(fds[0]);
		file_put(wr);
		return fds[1];
	}
	if (copy_to_user(ufds, fds, sizeof(fds))) {
		fd_close(fds[0]);
		fd_close(fds[1]);
		return -EFAULT;
	}
	return 0;
}

SYSCALL1(pipe, int __user *, fds)
{
	return do_pipe2(fds, 0);
}

SYSCALL2(pipe2, int __user *, fds, int, flags)
{
	return do_pipe2(fds, flags);
}
