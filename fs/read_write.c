/*
 * read_write.c - read, write, pread64, pwrite64, readv, writev, preadv,
 * pwritev, preadv2, pwritev2 and lseek:
 * the checks Linux makes before a file's own operation runs (access mode,
 * user buffer, count clamped to MAX_RW_COUNT, seekability), and the file
 * offset, which one mutex per regular file or directory keeps consistent
 * when threads or forked processes share the open file - and only then,
 * as Linux since 3.14: an unshared file's read, write or lseek takes no
 * lock of its own (one write() takes inode->lock and the page index's
 * spinlock, nothing else; docs/regressions/nocache.md counts them).
 *
 * readv/writev run the iovec one segment after another through the same
 * path, stopping at the first short transfer, as Linux does for files
 * without vectored operations. Not here: what the transfer does (each
 * file's read/write operation).
 */
#include "fs/notify.h"
#include "fs/vfs.h"
#include "uapi/errno.h"
#include "kernel/syscall/syscall.h"
#include "mm/kmalloc.h"

long
vfs_read(struct file *f, char __user *buf, size_t n, u64 *pos)
{
	if (!(f->fmode & FMODE_READ))
		return -EBADF;
	if (!f->ops->read)
		return S_ISDIR(f->inode->mode) ? -EISDIR : -EINVAL;
	if (!access_ok(buf, n))
		return -EFAULT;
	long ret = notify_perm(f, FAN_ACCESS_PERM); /* Linux's fsnotify_file_perm */
	if (ret)
		return ret;
	ret = f->ops->read(f, buf, MIN(n, MAX_RW_COUNT), pos);
	if (ret > 0)
		notify_file(f, IN_ACCESS);
	return ret;
}

long
vfs_write(struct file *f, const char __user *buf, size_t n, u64 *pos)
{
	if (!(f->fmode & FMODE_WRITE))
		return -EBADF;
	if (!f->ops->write)
		return -EINVAL;
	if (!access_ok(buf, n))
		return -EFAULT;
	long ret = f->ops->write(f, buf, MIN(n, MAX_RW_COUNT), pos);
	if (ret > 0)
		notify_file(f, IN_MODIFY);
	return ret;
}

static long
vfs_rw(struct file *f, bool write, char __user *buf, size_t n, u64 *pos)
{
	return write ? vfs_write(f, buf, n, pos) : vfs_read(f, buf, n, pos);
}

/* Whether f was opened for writing (write) or for reading. */
static bool
file_open_for(const struct file *f, bool write)
{
	return f->fmode & (write ? FMODE_WRITE : FMODE_READ);
}

/* Whether f has an offset that concurrent readers and writers must not tear. */
static bool
file_has_pos_lock(const struct file *f)
{
	return S_ISREG(f->inode->mode) || S_ISDIR(f->inode->mode);
}

/*
 * The fd for a call that moves the offset, as Linux's fdget_pos (3.14+):
 * the offset's lock only when the open file is shared (dup, fork, a thread
 * sharing the table), for nobody else can move it otherwise. A count of 1
 * cannot rise meanwhile: only this task reaches the file, and it is here.
 */
struct fd_pos {
	struct fd fd;
	bool locked;
};

static struct fd_pos
fdget_pos(int fd)
{
	struct fd_pos p = { fdget(fd), false };

	if (p.fd.file && file_has_pos_lock(p.fd.file) &&
	    __atomic_load_n(&p.fd.file->refcount, __ATOMIC_ACQUIRE) > 1) {
		mutex_lock(&p.fd.file->pos_lock);
		p.locked = true;
	}
	return p;
}

static void
fdput_pos(struct fd_pos p)
{
	if (p.locked)
		mutex_unlock(&p.fd.file->pos_lock);
	fdput(p.fd);
}

/* read(2) and write(2): at the file offset. */
static long
rw_fd(int fd, bool write, char __user *buf, size_t n)
{
	struct fd_pos p = fdget_pos(fd);

	if (!p.fd.file)
		return -EBADF;
	long ret = vfs_rw(p.fd.file, write, buf, n, &p.fd.file->pos);
	fdput_pos(p);
	return ret;
}

SYSCALL3(read, int, fd, char __user *, buf, size_t, n)
{
	return rw_fd(fd, false, buf, n);
}

SYSCALL3(write, int, fd, const char __user *, buf, size_t, n)
{
	return rw_fd(fd, true, (char __user *)buf, n);
}

/* pread64 and pwrite64: at pos, leaving the file offset alone. */
static long
prw_fd(int fd, bool write, char __user *buf, size_t n, s64 pos)
{
	if (pos < 0)
		return -EINVAL;
	struct fd f = fdget(fd);
	if (!f.file)
		return -EBADF;
	u64 at = (u64)pos;
	long ret = f.file->ops->llseek ? vfs_rw(f.file, write, buf, n, &at) : -ESPIPE;
	fdput(f);
	return ret;
}

SYSCALL4(pread64, int, fd, char __user *, buf, size_t, n, s64, pos)
{
	return prw_fd(fd, false, buf, n, pos);
}

SYSCALL4(pwrite64, int, fd, const char __user *, buf, size_t, n, s64, pos)
{
	return prw_fd(fd, true, (char __user *)buf, n, pos);
}

long
iovec_import(const struct kernel_iovec __user *uiov, int cnt, struct kernel_iovec **out)
{
	if (cnt < 0 || cnt > UIO_MAXIOV)
		return -EINVAL;
	if (cnt == 0)
		return 0;
	struct kernel_iovec *iov = kmalloc((size_t)cnt * sizeof(*iov));
	if (!iov)
		return -ENOMEM;
	if (copy_from_user(iov, uiov, (size_t)cnt * sizeof(*iov))) {
		kfree(iov);
		return -EFAULT;
	}
	u64 total = 0;
	for (int i = 0; i < cnt; i++) {
		if (iov[i].iov_len > (u64)INT64_MAX - total) {
			kfree(iov);
			return -EINVAL;
		}
		total += iov[i].iov_len;
	}
	*out = iov;
	return (long)MIN(total, MAX_RW_COUNT);
}

/* readv and writev: segment by segment, at *pos, until one falls short. */
static long
rwv(struct file *f, bool write, const struct kernel_iovec *iov, int cnt, long total, u64 *pos)
{
	long done = 0;

	for (int i = 0; i < cnt && done < total; i++) {
		size_t want = MIN(iov[i].iov_len, (u64)(total - done));
		if (want == 0)
			continue;
		long ret = vfs_rw(f, write, iov[i].iov_base, want, pos);
		if (ret < 0)
			return done ? done : ret;
		done += ret;
		if ((size_t)ret < want)
			break;
	}
	return done;
}

long
vfs_rw_iov_at(struct file *f, bool write, const struct kernel_iovec *iov, int cnt, long total,
	      s64 off)
{
	if (!file_open_for(f, write))
		return -EBADF;
	if (off != -1 && f->ops->llseek) {
		if (off < 0)
			return -EINVAL;
		u64 at = (u64)off;
		return rwv(f, write, iov, cnt, total, &at);
	}
	bool locked = file_has_pos_lock(f);
	if (locked)
		mutex_lock(&f->pos_lock);
	long ret = rwv(f, write, iov, cnt, total, &f->pos);
	if (locked)
		mutex_unlock(&f->pos_lock);
	return ret;
}

/* The user's segments imported and done at *pos, once the file is known open for the direction. */
static long
rwv_user(struct file *f, bool write, const struct kernel_iovec __user *uiov, int cnt, u64 *pos)
{
	struct kernel_iovec *iov = NULL;

	if (!file_open_for(f, write))
		return -EBADF;
	long ret = iovec_import(uiov, cnt, &iov);
	if (ret > 0)
		ret = rwv(f, write, iov, cnt, ret, pos);
	kfree(iov);
	return ret;
}

static long
rwv_fd(int fd, bool write, const struct kernel_iovec __user *uiov, int cnt)
{
	struct fd_pos p = fdget_pos(fd);

	if (!p.fd.file)
		return -EBADF;
	long ret = rwv_user(p.fd.file, write, uiov, cnt, &p.fd.file->pos);
	fdput_pos(p);
	return ret;
}

SYSCALL3(readv, int, fd, const struct kernel_iovec __user *, iov, int, cnt)
{
	return rwv_fd(fd, false, iov, cnt);
}

SYSCALL3(writev, int, fd, const struct kernel_iovec __user *, iov, int, cnt)
{
	return rwv_fd(fd, true, iov, cnt);
}

/* preadv and pwritev: the segments at pos, leaving the file offset alone (as pread64). */
static long
prwv_fd(int fd, bool write, const struct kernel_iovec __user *uiov, int cnt, s64 pos)
{
	if (pos < 0)
		return -EINVAL;
	struct fd fdp = fdget(fd);
	if (!fdp.file)
		return -EBADF;
	u64 at = (u64)pos;
	/* Seekability first, then the access mode, as Linux's do_preadv and vfs_readv ask. */
	long ret = fdp.file->ops->llseek ? rwv_user(fdp.file, write, uiov, cnt, &at) : -ESPIPE;
	fdput(fdp);
	return ret;
}

/*
 * The position comes in two longs for 32-bit callers' sake; on x86-64 the
 * low one holds all of it (Linux's pos_from_hilo).
 */
SYSCALL5(preadv, int, fd, const struct kernel_iovec __user *, iov, int, cnt, unsigned long, pos_l,
	 unsigned long, pos_h)
{
	return prwv_fd(fd, false, iov, cnt, (s64)pos_l);
}

SYSCALL5(pwritev, int, fd, const struct kernel_iovec __user *, iov, int, cnt, unsigned long, pos_l,
	 unsigned long, pos_h)
{
	return prwv_fd(fd, true, iov, cnt, (s64)pos_l);
}

/*
 * preadv2 and pwritev2: a position of -1 means the file offset (readv,
 * writev). Of the flags, the synchronous and polling hints change nothing
 * on files kept in memory; RWF_NOWAIT and RWF_APPEND are not supported
 * (EOPNOTSUPP, Linux's answer for a flag a file does not support).
 */
static long
prwv2_fd(int fd, bool write, const struct kernel_iovec __user *iov, int cnt, s64 pos, int flags)
{
	if (flags & ~(RWF_HIPRI | RWF_DSYNC | RWF_SYNC))
		return -EOPNOTSUPP;
	return pos == -1 ? rwv_fd(fd, write, iov, cnt) : prwv_fd(fd, write, iov, cnt, pos);
}

SYSCALL6(preadv2, int, fd, const struct kernel_iovec __user *, iov, int, cnt, unsigned long, pos_l,
	 unsigned long, pos_h, int, flags)
{
	return prwv2_fd(fd, false, iov, cnt, (s64)pos_l, flags);
}

SYSCALL6(pwritev2, int, fd, const struct kernel_iovec __user *, iov, int, cnt, unsigned long, pos_l,
	 unsigned long, pos_h, int, flags)
{
	return prwv2_fd(fd, true, iov, cnt, (s64)pos_l, flags);
}

SYSCALL3(lseek, int, fd, s64, off, unsigned, whence)
{
	struct fd_pos p = fdget_pos(fd);
	struct file *f = p.fd.file;

	if (!f)
		return -EBADF;
	long ret;
	if (!f->ops->llseek)
		ret = -ESPIPE;
	else if (whence > SEEK_HOLE)
		ret = -EINVAL;
	else
		ret = f->ops->llseek(f, off, (int)whence);
	fdput_pos(p);
	return ret;
}
