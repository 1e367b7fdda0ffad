/*
 * pipe.c - pipes: a 64 KiB ring buffer (Linux's default pipe capacity)
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
 * Named pipes (FIFOs) are the same pipe behind a name on the RAM file
 * system: their inode has fifo_fops, whose open makes the pipe and waits
 * for the other end as Linux does (fifo_open below).
 *
 * The mutex serializes readers and writers (they copy from and to user
 * memory, which may fault and sleep); sleepers wait on two queues without
 * it, testing the counters with single reads. O_DIRECT (packet mode) is
 * not supported: pipe2 refuses it.
 */
#include "fs/vfs.h"
#include "uapi/errno.h"
#include "uapi/magic.h"
#include "kernel/lib/vsprintf.h"
#include "kernel/process/cred.h"
#include "kernel/signal/signal.h"
#include "kernel/syscall/syscall.h"
#include "mm/kmalloc.h"
#include "mm/page_alloc.h"

#define PIPE_SIZE (16 * PAGE_SIZE) /* Linux: 16 pipe buffers of a page */

struct pipe {
	struct mutex lock;
	char *buf;		   /* PIPE_SIZE bytes, a ring */
	u32 head, tail;		   /* bytes ever written and read (mod 2^32) */
	u32 readers, writers;	   /* open ends */
	u32 r_counter, w_counter;  /* opens ever of each end (FIFOs wait for them to move) */
	struct wait_queue rd_wait; /* readers wait for data or no writers */
	struct wait_queue wr_wait; /* writers wait for room or no readers */
};

BUILD_BUG_ON(PIPE_BUF > PIPE_SIZE);

static u32
pipe_used(struct pipe *p)
{
	return READ_ONCE(p->head) - READ_ONCE(p->tail);
}

static u32
pipe_room(struct pipe *p)
{
	return PIPE_SIZE - pipe_used(p);
}

/* Copies n (<= used) bytes out of the ring: 0 or -EFAULT; the lock is held. */
static int
ring_read(struct pipe *p, char __user *buf, u32 n)
{
	u32 at = p->tail % PIPE_SIZE, first = MIN(n, PIPE_SIZE - at);

	if (copy_to_user(buf, p->buf + at, first) || copy_to_user(buf + first, p->buf, n - first))
		return -EFAULT;
	WRITE_ONCE(p->tail, p->tail + n);
	return 0;
}

/* Copies n (<= room) bytes into the ring: 0 or -EFAULT; the lock is held. */
static int
ring_write(struct pipe *p, const char __user *buf, u32 n)
{
	u32 at = p->head % PIPE_SIZE, first = MIN(n, PIPE_SIZE - at);

	if (copy_from_user(p->buf + at, buf, first) ||
	    copy_from_user(p->buf, buf + first, n - first))
		return -EFAULT;
	WRITE_ONCE(p->head, p->head + n);
	return 0;
}

static long
pipe_read(struct file *f, char __user *buf, size_t n, u64 *pos)
{
	struct pipe *p = f->inode->private;
	long ret;

	if (n == 0)
		return 0;
	mutex_lock(&p->lock);
	for (;;) {
		u32 used = p->head - p->tail;
		if (used) {
			u32 take = (u32)MIN(n, used);
			ret = ring_read(p, buf, take) ? -EFAULT : (long)take;
			break;
		}
		if (!p->writers) {
			ret = 0;
			break;
		}
		if (READ_ONCE(f->flags) & O_NONBLOCK) {
			ret = -EAGAIN;
			break;
		}
		mutex_unlock(&p->lock);
		ret = wait_event_interruptible(&p->rd_wait, pipe_used(p) || !READ_ONCE(p->writers));
		if (ret)
			return ret;
		mutex_lock(&p->lock);
	}
	mutex_unlock(&p->lock);
	if (ret > 0)
		wake_up_all(&p->wr_wait);
	return ret;
}

static long
pipe_write(struct file *f, const char __user *buf, size_t n, u64 *pos)
{
	struct pipe *p = f->inode->private;
	u32 need = n <= PIPE_BUF ? (u32)n : 1; /* room that must be free to go on */
	size_t done = 0;
	long err = 0;

	mutex_lock(&p->lock);
	while (done < n) {
		if (!p->readers) {
			signal_send_self(SIGPIPE); /* even after a partial write, as Linux */
			err = -EPIPE;
			break;
		}
		u32 room = PIPE_SIZE - (p->head - p->tail);
		if (room >= need) {
			u32 put = (u32)MIN(room, n - done);
			if (ring_write(p, buf + done, put)) {
				err = -EFAULT;
				break;
			}
			done += put;
			continue;
		}
		if (READ_ONCE(f->flags) & O_NONBLOCK) {
			err = -EAGAIN;
			break;
		}
		mutex_unlock(&p->lock);
		if (done)
			wake_up_all(&p->rd_wait); /* let them drain what is in */
		err = wait_event_interruptible(&p->wr_wait,
					       pipe_room(p) >= need || !READ_ONCE(p->readers));
		mutex_lock(&p->lock);
		if (err)
			break;
	}
	mutex_unlock(&p->lock);
	if (done)
		wake_up_all(&p->rd_wait);
	return done ? (long)done : err;
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
		p->tail = p->head; /* a FIFO reopened later starts empty */
	mutex_unlock(&p->lock);
	wake_up_all(&p->rd_wait);
	wake_up_all(&p->wr_wait);
}

static void
pipe_evict(struct inode *inode)
{
	struct pipe *p = inode->private;

	kfree(p->buf);
	kfree(p);
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
	.release = pipe_release,
};

/* A pipe's buffer and queues, or NULL. */
static struct pipe *
pipe_alloc(void)
{
	struct pipe *p = kzalloc(sizeof(*p));

	if (p && !(p->buf = kmalloc(PIPE_SIZE))) {
		kfree(p);
		return NULL;
	}
	if (p) {
		mutex_init(&p->lock, "pipe");
		wait_queue_init(&p->rd_wait);
		wait_queue_init(&p->wr_wait);
	}
	return p;
}

/* The instance every pipe is on: never mounted, it only gives st_dev and statfs's f_type. */
struct fs_type pipefs_type = { .name = "pipefs", .magic = PIPEFS_MAGIC };

/* A pipe inode with its buffer: one reference, or NULL. */
static struct inode *
pipe_inode_new(void)
{
	struct pipe *p = pipe_alloc();
	struct inode *inode =
		p ? inode_alloc(pipefs_sb, S_IFIFO | 0600, &pipe_iops, &pipe_fops) : NULL;

	if (!inode) {
		if (p)
			kfree(p->buf);
		kfree(p);
		return NULL;
	}
	inode->private = p;
	/* Its creator's, as Linux's pipes (fstat shows it). */
	inode->uid = current_fsuid();
	inode->gid = current_fsgid();
	return inode;
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
	if (!p)
		p = inode->private = pipe_alloc();
	mutex_unlock(&inode->lock);
	if (!p)
		return -ENOMEM;
	bool nonblock = f->flags & O_NONBLOCK;
	int err = 0;
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
	.release = pipe_release,
};

/* Both ends of a new pipe: 0 or -ENOMEM. */
static int
pipe_create(u32 flags, struct file **rd, struct file **wr)
{
	struct inode *inode = pipe_inode_new();

	if (!inode)
		return -ENOMEM;
	struct pipe *p = inode->private;
	*rd = file_alloc(inode, NULL, O_RDONLY | (flags & O_NONBLOCK));
	*wr = file_alloc(inode, NULL, O_WRONLY | (flags & O_NONBLOCK));
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

	if (flags & ~(O_CLOEXEC | O_NONBLOCK))
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
