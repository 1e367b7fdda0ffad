/*
 * sendfile.c - sendfile(2) and copy_file_range(2): file-to-file transfers
 * with Linux 6.1's checks and offset rules (a NULL offset moves the file
 * position; a given one is read, advanced and written back, the position
 * untouched).
 *
 * The bytes pass through a scratch anonymous mapping in the caller's own
 * address space (transfer_buffer_get, which splice.c shares), so that every file's ordinary read and write operations
 * (page cache, pipe, AF_UNIX socket) carry them with no second copy path:
 * their write sides copy only from user memory. Linux's iov_iter source for
 * its write paths would remove the mapping; it is not built here yet.
 */
#include "fs/vfs.h"
#include "fs/fs.h"
#include "uapi/errno.h"
#include "uapi/fcntl.h"
#include "uapi/mman.h"
#include "kernel/syscall/syscall.h"
#include "kernel/process/task.h"
#include "kernel/signal/signal.h"
#include "mm/vm.h"

char __user *
transfer_buffer_get(void)
{
	long addr = vm_mmap(current()->mm, 0, TRANSFER_CHUNK, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, NULL, 0);

	return addr < 0 ? NULL : (char __user *)addr;
}

void
transfer_buffer_put(char __user *buf)
{
	vm_munmap(current()->mm, (u64)buf, TRANSFER_CHUNK);
}

/*
 * Moves up to count bytes from in at *in_pos to out at *out_pos, chunk by
 * chunk, until a short read (end of file), a short write, an error or a
 * signal: the bytes moved, or -errno when none were.
 */
static long
transfer(struct file *in, u64 *in_pos, struct file *out, u64 *out_pos, size_t count)
{
	char __user *buf = transfer_buffer_get();
	if (!buf)
		return -ENOMEM;
	long done = 0, err = 0;

	while ((size_t)done < count) {
		if (done && signal_pending())
			break;
		long got = vfs_read(in, buf, MIN(TRANSFER_CHUNK, count - (size_t)done), in_pos);
		if (got <= 0) {
			err = got;
			break;
		}
		long put = vfs_write(out, buf, (size_t)got, out_pos);
		if (put < got) /* what was read but not written stays unread */
			*in_pos -= (u64)(got - (put > 0 ? put : 0));
		if (put <= 0) {
			err = put;
			break;
		}
		done += put;
		if (put < got)
			break;
	}
	transfer_buffer_put(buf);
	return done ? done : err;
}

long
transfer_offset_import(struct file *f, const s64 __user *uoff, u64 *pos)
{
	*pos = f->pos;
	return uoff && copy_from_user(pos, uoff, sizeof(*pos)) ? -EFAULT : 0;
}

long
transfer_offset_export(struct file *f, s64 __user *uoff, u64 pos)
{
	if (!uoff) {
		f->pos = pos;
		return 0;
	}
	return copy_to_user(uoff, &pos, sizeof(pos)) ? -EFAULT : 0;
}

/* The transfer from the imported positions, which it then exports. */
static long
transfer_at(struct file *in, s64 __user *uin, u64 in_at, struct file *out, s64 __user *uout,
	    u64 out_at, size_t count)
{
	long ret = transfer(in, &in_at, out, &out_at, count);
	if (transfer_offset_export(in, uin, in_at) || transfer_offset_export(out, uout, out_at))
		return -EFAULT;
	return ret;
}

/* sendfile's checks, as Linux 6.1's do_sendfile: 0 or -errno. */
static long
sendfile_check(struct file *in, const s64 __user *uoff, struct file *out)
{
	if (!(in->fmode & FMODE_READ) || !(out->fmode & FMODE_WRITE))
		return -EBADF;
	if (uoff && !in->ops->llseek)
		return -ESPIPE;
	if (S_ISDIR(in->inode->mode) || !in->ops->read || !out->ops->write)
		return -EINVAL;
	if (file_flags(out) & O_APPEND)
		return -EINVAL;
	return 0;
}

SYSCALL4(sendfile, int, out_fd, int, in_fd, s64 __user *, offset, size_t, count)
{
	struct fd in = fdget(in_fd), out = fdget(out_fd);
	long ret = (in.file && out.file) ? sendfile_check(in.file, offset, out.file) : -EBADF;

	u64 in_at, out_at;

	if (!ret)
		ret = transfer_offset_import(in.file, offset, &in_at);
	if (!ret && (s64)in_at < 0)
		ret = -EINVAL;
	if (!ret && count) {
		out_at = out.file->pos;
		ret = transfer_at(in.file, offset, in_at, out.file, NULL, out_at,
				  MIN(count, MAX_RW_COUNT));
	}
	fdput(out);
	fdput(in);
	return ret;
}

/* Whether [a, a + n) and [b, b + n) meet. */
static bool
ranges_overlap(u64 a, u64 b, size_t n)
{
	return a < b + n && b < a + n;
}

/*
 * copy_file_range's checks at the imported positions, as Linux 6.1's
 * generic_copy_file_checks: 0 or -errno. A negative offset overflows the
 * unsigned sum; the overlap test uses the count cut at the source's end.
 */
static long
copy_range_check(struct file *in, u64 in_at, struct file *out, u64 out_at, size_t len,
		 unsigned int flags)
{
	if (flags)
		return -EINVAL;
	if (!(in->fmode & FMODE_READ) || !(out->fmode & FMODE_WRITE) ||
	    (file_flags(out) & O_APPEND))
		return -EBADF;
	if (S_ISDIR(in->inode->mode) || S_ISDIR(out->inode->mode))
		return -EISDIR;
	if (!S_ISREG(in->inode->mode) || !S_ISREG(out->inode->mode))
		return -EINVAL;
	if (in_at + len < in_at || out_at + len < out_at)
		return -EOVERFLOW;
	u64 size = in->inode->size;
	size_t count = in_at >= size ? 0 : MIN(len, size - in_at);
	if (in->inode == out->inode && ranges_overlap(in_at, out_at, count))
		return -EINVAL;
	return 0;
}

/* Linux names the descriptors fd_in and fd_out; in_fd and out_fd tell sysfuzz they are fds. */
SYSCALL6(copy_file_range, int, in_fd, s64 __user *, off_in, int, out_fd, s64 __user *, off_out,
	 size_t, len, unsigned int, flags)
{
	struct fd in = fdget(in_fd), out = fdget(out_fd);
	u64 in_at, out_at;
	long ret = (in.file && out.file) ? 0 : -EBADF;

	if (!ret)
		ret = transfer_offset_import(in.file, off_in, &in_at);
	if (!ret)
		ret = transfer_offset_import(out.file, off_out, &out_at);
	if (!ret)
		ret = copy_range_check(in.file, in_at, out.file, out_at, len, flags);
	if (!ret && len)
		ret = transfer_at(in.file, off_in, in_at, out.file, off_out, out_at,
				  MIN(len, MAX_RW_COUNT));
	fdput(out);
	fdput(in);
	return ret;
}
