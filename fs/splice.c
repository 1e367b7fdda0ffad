/*
 * splice.c - splice(2), tee(2) and vmsplice(2): data into, out of and
 * between pipes without passing through the caller's buffers, with Linux
 * 6.1's checks and offset rules (its fs/splice.c).
 *
 *  - splice moves up to len bytes between a pipe and a file or socket, or
 *    between two pipes; with no pipe at either end it is EINVAL. An offset
 *    given for a pipe is ESPIPE, for a file that cannot seek EINVAL; a
 *    given offset is read, advanced and written back with the file
 *    position untouched, a NULL one moves the position (as sendfile).
 *  - tee copies up to len bytes from one pipe to another, leaving them in
 *    the first: both must be pipes, and different ones.
 *  - vmsplice appends user memory to a pipe open for writing, or fills it
 *    from a pipe open for reading.
 *
 * Reading from a pipe waits until it holds data (0 once no writer is
 * left: end of file), writing into one until it has room (EPIPE and
 * SIGPIPE once no reader is left); SPLICE_F_NONBLOCK, or O_NONBLOCK on the
 * pipe, turns those waits into EAGAIN. A file's own reads and writes may
 * still wait (a socket), as Linux's.
 *
 * Linux moves page references into and out of a pipe; rewind copies the
 * bytes, which no reader can tell apart (the pages handed to vmsplice may
 * change afterwards either way; Linux keeps them shared, rewind took a
 * copy). A file's side goes through transfer_buffer_get's scratch mapping,
 * so that its ordinary read or write operation carries the bytes.
 */
#include "fs/pipe.h"
#include "uapi/errno.h"
#include "uapi/fcntl.h"
#include "kernel/syscall/syscall.h"
#include "mm/kmalloc.h"

#define SPLICE_F_ALL (SPLICE_F_MOVE | SPLICE_F_NONBLOCK | SPLICE_F_MORE | SPLICE_F_GIFT)

/*
 * Whether f's end of a splice is EINVAL: the anonymous-inode files
 * (eventfd, epoll, timerfd, signalfd, inotify) have no splice_read or
 * splice_write in Linux, so their bytes never enter or leave a pipe.
 */
static bool
splice_unsupported(struct file *f)
{
	return f->inode->sb == anon_inode_sb;
}

/*
 * From pipe p to out at *pos: what p holds, up to len, waiting only while
 * nothing has moved yet (Linux's splice_from_pipe_next).
 */
static long
splice_from_pipe(struct pipe *p, struct file *out, u64 *pos, size_t len, bool nonblock)
{
	if (splice_unsupported(out))
		return -EINVAL;
	char __user *buf = transfer_buffer_get();
	size_t done = 0;
	long err = 0;

	if (!buf)
		return -ENOMEM;
	mutex_lock(&p->lock);
	while (done < len && (!done || pipe_used(p))) {
		err = pipe_wait_readable(p, nonblock);
		u32 n = (u32)MIN(len - done, MIN(p->head - p->tail, TRANSFER_CHUNK));
		if (err || !n)
			break;
		err = pipe_peek_to_user(p, buf, n);
		long put = err ? err : vfs_write(out, buf, n, pos);
		if (put <= 0) {
			err = put;
			break;
		}
		pipe_consume(p, (u32)put); /* what the file did not take stays in the pipe */
		done += (size_t)put;
		if (put < n)
			break;
	}
	mutex_unlock(&p->lock);
	transfer_buffer_put(buf);
	if (done)
		pipe_wake_writers(p);
	return done ? (long)done : err;
}

/*
 * From in at *pos into pipe p: as much as p has room for, up to len, once
 * it has any. A regular file is read until that is met or it ends; any
 * other file gives what one read does (a socket, one receive's worth).
 */
static long
splice_to_pipe(struct file *in, u64 *pos, struct pipe *p, size_t len, bool nonblock)
{
	char __user *buf = transfer_buffer_get();
	size_t done = 0;

	if (!buf)
		return -ENOMEM;
	mutex_lock(&p->lock);
	long err = pipe_wait_writable(p, 1, false, nonblock);
	if (!err && splice_unsupported(in))
		err = -EINVAL;
	if (!err)
		len = MIN(len, p->size - (p->head - p->tail));
	while (!err && done < len) {
		u32 want = (u32)MIN(len - done, TRANSFER_CHUNK);
		long got = vfs_read(in, buf, want, pos);
		if (got <= 0) {
			err = got;
			break;
		}
		err = pipe_append_from_user(p, buf, (u32)got);
		if (!err)
			done += (size_t)got;
		if (got < want || !S_ISREG(in->inode->mode))
			break;
	}
	mutex_unlock(&p->lock);
	transfer_buffer_put(buf);
	if (done)
		pipe_wake_readers(p);
	return done ? (long)done : err;
}

/* Takes two pipes' locks in one order (by address), so that two callers cannot deadlock. */
static void
pipes_lock(struct pipe *a, struct pipe *b)
{
	if (a > b) {
		struct pipe *t = a;
		a = b;
		b = t;
	}
	mutex_lock(&a->lock);
	mutex_lock(&b->lock);
}

static void
pipes_unlock(struct pipe *a, struct pipe *b)
{
	mutex_unlock(&a->lock);
	mutex_unlock(&b->lock);
}

/* Waits, one pipe's lock at a time, until in has data (or no writer) and out has room. */
static int
pipes_wait(struct pipe *in, struct pipe *out, bool nonblock)
{
	mutex_lock(&in->lock);
	int err = pipe_wait_readable(in, nonblock);
	mutex_unlock(&in->lock);
	if (err)
		return err;
	mutex_lock(&out->lock);
	err = pipe_wait_writable(out, 1, false, nonblock);
	mutex_unlock(&out->lock);
	return err;
}

/*
 * Copies up to len bytes from pipe in to pipe out, taking them out of in
 * when consume (splice) or leaving them (tee): the count, 0 at in's end of
 * file, or -errno. Another reader or writer may have moved between the
 * waits and the locks: then it waits again.
 */
static long
pipe_to_pipe(struct pipe *in, struct pipe *out, size_t len, bool nonblock, bool consume)
{
	for (;;) {
		long ret = pipes_wait(in, out, nonblock);
		if (ret)
			return ret;
		pipes_lock(in, out);
		u32 n = (u32)MIN(len,
				 MIN(in->head - in->tail, out->size - (out->head - out->tail)));
		if (!out->readers) {
			signal_send_self(SIGPIPE);
			ret = -EPIPE;
		} else if (n) {
			pipe_copy_data(in, out, n);
			if (consume)
				pipe_consume(in, n);
			ret = n;
		}
		bool at_eof = in->head == in->tail && !in->writers;
		pipes_unlock(in, out);
		if (ret > 0) {
			pipe_wake_readers(out);
			if (consume)
				pipe_wake_writers(in);
		}
		if (ret || at_eof)
			return ret;
		if (nonblock)
			return -EAGAIN;
	}
}

/* Whether f is in O_NONBLOCK mode, or flags say SPLICE_F_NONBLOCK. */
static bool
splice_nonblock(struct file *f, unsigned flags)
{
	return (flags & SPLICE_F_NONBLOCK) || (READ_ONCE(f->flags) & O_NONBLOCK);
}

/*
 * The file position a file end of a splice starts at, in *pos: *uoff when
 * given (then the file must be able to seek: EINVAL; a negative one is
 * EINVAL too, as rw_verify_area), else f's position.
 */
static long
splice_offset_get(struct file *f, const s64 __user *uoff, u64 *pos)
{
	if (uoff && !f->ops->llseek)
		return -EINVAL;
	long err = transfer_offset_import(f, uoff, pos);
	return !err && (s64)*pos < 0 ? -EINVAL : err;
}

/* Linux 6.1's do_splice, both files referenced and checked open. */
static long
do_splice(struct file *in, s64 __user *off_in, struct file *out, s64 __user *off_out, size_t len,
	  unsigned flags)
{
	struct pipe *ipipe = pipe_of(in), *opipe = pipe_of(out);
	u64 pos;

	if ((ipipe && off_in) || (opipe && off_out))
		return -ESPIPE;
	if (!(in->fmode & FMODE_READ) || !(out->fmode & FMODE_WRITE))
		return -EBADF;
	if (ipipe && opipe) {
		if (ipipe == opipe)
			return -EINVAL;
		return pipe_to_pipe(ipipe, opipe, len,
				    splice_nonblock(in, flags) || splice_nonblock(out, flags),
				    true);
	}
	if (ipipe) {
		long err = splice_offset_get(out, off_out, &pos);
		if (!err && (file_flags(out) & O_APPEND))
			err = -EINVAL;
		if (err)
			return err;
		long ret = splice_from_pipe(ipipe, out, &pos, len, splice_nonblock(in, flags));
		err = transfer_offset_export(out, off_out, pos);
		return err ? err : ret;
	}
	if (opipe) {
		if (S_ISDIR(in->inode->mode))
			return -EINVAL; /* nothing to read: Linux's missing splice_read */
		long err = splice_offset_get(in, off_in, &pos);
		if (err)
			return err;
		long ret = splice_to_pipe(in, &pos, opipe, len, splice_nonblock(out, flags));
		err = transfer_offset_export(in, off_in, pos);
		return err ? err : ret;
	}
	return -EINVAL;
}

/* Linux names the descriptors fd_in and fd_out; in_fd and out_fd tell sysfuzz they are fds. */
SYSCALL6(splice, int, in_fd, s64 __user *, off_in, int, out_fd, s64 __user *, off_out, size_t, len,
	 unsigned int, flags)
{
	if (!len)
		return 0;
	if (flags & ~SPLICE_F_ALL)
		return -EINVAL;
	struct fd in = fdget(in_fd), out = fdget(out_fd);
	long ret = in.file && out.file ? do_splice(in.file, off_in, out.file, off_out,
						   MIN(len, MAX_RW_COUNT), flags)
				       : -EBADF;
	fdput(out);
	fdput(in);
	return ret;
}

SYSCALL4(tee, int, in_fd, int, out_fd, size_t, len, unsigned int, flags)
{
	if (flags & ~SPLICE_F_ALL)
		return -EINVAL;
	if (!len)
		return 0;
	struct fd in = fdget(in_fd), out = fdget(out_fd);
	long ret = -EBADF;
	if (in.file && out.file && (in.file->fmode & FMODE_READ) &&
	    (out.file->fmode & FMODE_WRITE)) {
		struct pipe *ipipe = pipe_of(in.file), *opipe = pipe_of(out.file);
		bool nonblock = splice_nonblock(in.file, flags) || splice_nonblock(out.file, flags);
		ret = ipipe && opipe && ipipe != opipe
			      ? pipe_to_pipe(ipipe, opipe, MIN(len, MAX_RW_COUNT), nonblock, false)
			      : -EINVAL;
	}
	fdput(out);
	fdput(in);
	return ret;
}

/*
 * vmsplice into a pipe: once it has room, the iovec's bytes that fit (a
 * full pipe ends the call short, as Linux's iter_to_pipe).
 */
static long
vmsplice_to_pipe(struct pipe *p, const struct kernel_iovec *iov, int cnt, bool nonblock)
{
	size_t done = 0;

	mutex_lock(&p->lock);
	long err = pipe_wait_writable(p, 1, false, nonblock);
	for (int i = 0; !err && i < cnt; i++) {
		u32 n = (u32)MIN(iov[i].iov_len, p->size - (p->head - p->tail));
		err = pipe_append_from_user(p, iov[i].iov_base, n);
		if (!err)
			done += n;
		if (n < iov[i].iov_len)
			break;
	}
	mutex_unlock(&p->lock);
	if (done)
		pipe_wake_readers(p);
	return done ? (long)done : err;
}

/* vmsplice out of a pipe: what it holds, into the iovec, once it holds anything. */
static long
vmsplice_from_pipe(struct pipe *p, const struct kernel_iovec *iov, int cnt, bool nonblock)
{
	size_t done = 0;

	mutex_lock(&p->lock);
	long err = pipe_wait_readable(p, nonblock);
	for (int i = 0; !err && i < cnt; i++) {
		u32 n = (u32)MIN(iov[i].iov_len, p->head - p->tail);
		err = pipe_peek_to_user(p, iov[i].iov_base, n);
		if (err)
			break;
		pipe_consume(p, n);
		done += n;
		if (n < iov[i].iov_len)
			break;
	}
	mutex_unlock(&p->lock);
	if (done)
		pipe_wake_writers(p);
	return done ? (long)done : err;
}

/*
 * Linux's vmsplice: the direction is the fd's (open for writing: into the
 * pipe; else for reading: out of it); only SPLICE_F_NONBLOCK makes it not
 * wait, not the pipe's O_NONBLOCK. A count of 0 bytes returns 0 at once.
 */
SYSCALL4(vmsplice, int, fd, const struct kernel_iovec __user *, uiov, unsigned long, nr_segs,
	 unsigned int, flags)
{
	if (flags & ~SPLICE_F_ALL)
		return -EINVAL;
	struct fd f = fdget(fd);
	if (!f.file || !(f.file->fmode & (FMODE_READ | FMODE_WRITE))) {
		fdput(f);
		return -EBADF;
	}
	struct kernel_iovec *iov = NULL;
	long ret = nr_segs > UIO_MAXIOV ? -EINVAL : iovec_import(uiov, (int)nr_segs, &iov);
	struct pipe *p = pipe_of(f.file);
	bool nonblock = flags & SPLICE_F_NONBLOCK;
	if (ret > 0 && !p)
		ret = -EBADF;
	else if (ret > 0 && (f.file->fmode & FMODE_WRITE))
		ret = vmsplice_to_pipe(p, iov, (int)nr_segs, nonblock);
	else if (ret > 0)
		ret = vmsplice_from_pipe(p, iov, (int)nr_segs, nonblock);
	kfree(iov);
	fdput(f);
	return ret;
}
