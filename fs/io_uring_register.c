/*
 * io_uring_register.c - what a program registers with its ring ahead of
 * the requests that use it, as Linux 6.1's io_uring_register: buffers
 * (READ_FIXED, WRITE_FIXED name one by index), files (IOSQE_FIXED_FILE
 * names one by index; the ring holds a reference), an eventfd signalled
 * for each completion, and the probe saying which operations exist.
 *
 * Linux pins a registered buffer's pages; here the buffer is the range of
 * the registering process's memory, checked against each request and
 * reached through that memory, so unmapping it makes later fixed I/O fail
 * with EFAULT where Linux would still reach the pinned pages.
 */
#include "fs/io_uring.h"
#include "kernel/lib/string.h"
#include "mm/kmalloc.h"
#include "mm/uaccess.h"
#include "uapi/errno.h"

#define IORING_MAX_REG_BUFFERS (1u << 14)
#define IORING_MAX_FIXED_FILES (1u << 20)
#define BUFFER_MAX	       (1ull << 30) /* Linux's SZ_1G */

/* A buffer as Linux's io_buffer_validate takes it: 0, -EFAULT or -EOVERFLOW. */
static int
buffer_check(const struct kernel_iovec *iov)
{
	u64 base = (u64)iov->iov_base, end;

	if (!base)
		return iov->iov_len ? -EFAULT : 0;
	if (iov->iov_len > BUFFER_MAX)
		return -EFAULT;
	if (__builtin_add_overflow(base, iov->iov_len, &end))
		return -EOVERFLOW;
	return access_ok(iov->iov_base, iov->iov_len) ? 0 : -EFAULT;
}

static long
register_buffers(struct io_ring_ctx *ctx, const struct kernel_iovec __user *arg, unsigned nr)
{
	if (ctx->bufs)
		return -EBUSY;
	if (!nr || nr > IORING_MAX_REG_BUFFERS)
		return -EINVAL;
	struct kernel_iovec *bufs = kmalloc(nr * sizeof(*bufs));
	if (!bufs)
		return -ENOMEM;
	long err = copy_from_user(bufs, arg, nr * sizeof(*bufs)) ? -EFAULT : 0;
	for (unsigned i = 0; !err && i < nr; i++)
		err = buffer_check(&bufs[i]);
	if (err) {
		kfree(bufs);
		return err;
	}
	ctx->bufs = bufs;
	ctx->nr_bufs = nr;
	return 0;
}

static void
drop_buffers(struct io_ring_ctx *ctx)
{
	kfree(ctx->bufs);
	ctx->bufs = NULL;
	ctx->nr_bufs = 0;
}

static void
drop_files(struct io_ring_ctx *ctx)
{
	for (unsigned i = 0; i < ctx->nr_files; i++)
		if (ctx->files[i])
			file_put(ctx->files[i]);
	kfree(ctx->files);
	ctx->files = NULL;
	ctx->nr_files = 0;
}

/* The file for a registered slot: NULL for -1 (an empty slot), else referenced or -errno. */
static long
fixed_file_get(const int __user *ufd, struct file **out)
{
	int fd;

	*out = NULL;
	if (copy_from_user(&fd, ufd, sizeof(fd)))
		return -EFAULT;
	if (fd == -1)
		return 0;
	struct file *f = fd_get(fd);
	if (!f)
		return -EBADF;
	if (file_is_io_uring(f)) {
		file_put(f);
		return -EBADF;
	}
	*out = f;
	return 0;
}

static long
register_files(struct io_ring_ctx *ctx, const int __user *arg, unsigned nr)
{
	if (ctx->files)
		return -EBUSY;
	if (!nr)
		return -EINVAL;
	if (nr > IORING_MAX_FIXED_FILES || nr > fd_limit())
		return -EMFILE;
	ctx->files = kzalloc(nr * sizeof(*ctx->files));
	if (!ctx->files)
		return -ENOMEM;
	ctx->nr_files = nr;
	for (unsigned i = 0; i < nr; i++) {
		long err = fixed_file_get(&arg[i], &ctx->files[i]);
		if (err) {
			drop_files(ctx);
			return err;
		}
	}
	return 0;
}

static long
register_eventfd(struct io_ring_ctx *ctx, const int __user *arg, unsigned nr)
{
	int fd;

	if (nr != 1)
		return -EINVAL;
	if (ctx->eventfd)
		return -EBUSY;
	if (copy_from_user(&fd, arg, sizeof(fd)))
		return -EFAULT;
	struct file *f = fd_get(fd);
	if (!f)
		return -EBADF;
	if (!file_is_eventfd(f)) {
		file_put(f);
		return -EINVAL;
	}
	ctx->eventfd = f;
	return 0;
}

static void
drop_eventfd(struct io_ring_ctx *ctx)
{
	if (ctx->eventfd)
		file_put(ctx->eventfd);
	ctx->eventfd = NULL;
}

/* REGISTER_PROBE: the caller's zeroed record filled with the operations built. */
static long
register_probe(void __user *arg, unsigned nr)
{
	nr = MIN(nr, (unsigned)IORING_OP_LAST);
	size_t size = sizeof(struct io_uring_probe) + nr * sizeof(struct io_uring_probe_op);
	struct io_uring_probe *p = kzalloc(size);
	long ret = 0;

	if (!p)
		return -ENOMEM;
	if (copy_from_user(p, arg, size)) {
		ret = -EFAULT;
		goto out;
	}
	for (size_t i = 0; i < size; i++) {
		if (((const char *)p)[i]) {
			ret = -EINVAL;
			goto out;
		}
	}
	p->last_op = IORING_OP_LAST - 1;
	p->ops_len = (unsigned char)nr;
	for (unsigned i = 0; i < nr; i++) {
		p->ops[i].op = (unsigned char)i;
		if (io_op_supported(i))
			p->ops[i].flags = IO_URING_OP_SUPPORTED;
	}
	if (copy_to_user(arg, p, size))
		ret = -EFAULT;
out:
	kfree(p);
	return ret;
}

/* An UNREGISTER_*: takes no argument, -ENXIO when nothing is registered. */
static long
unregister(struct io_ring_ctx *ctx, bool registered, void (*drop)(struct io_ring_ctx *),
	   void __user *arg, unsigned nr)
{
	if (arg || nr)
		return -EINVAL;
	if (!registered)
		return -ENXIO;
	drop(ctx);
	return 0;
}

long
io_register(struct io_ring_ctx *ctx, unsigned opcode, void __user *arg, unsigned nr_args)
{
	switch (opcode) {
	case IORING_REGISTER_BUFFERS:
		return register_buffers(ctx, arg, nr_args);
	case IORING_UNREGISTER_BUFFERS:
		return unregister(ctx, ctx->bufs, drop_buffers, arg, nr_args);
	case IORING_REGISTER_FILES:
		return register_files(ctx, arg, nr_args);
	case IORING_UNREGISTER_FILES:
		return unregister(ctx, ctx->files, drop_files, arg, nr_args);
	case IORING_REGISTER_EVENTFD:
	case IORING_REGISTER_EVENTFD_ASYNC:
		return register_eventfd(ctx, arg, nr_args);
	case IORING_UNREGISTER_EVENTFD:
		return unregister(ctx, ctx->eventfd, drop_eventfd, arg, nr_args);
	case IORING_REGISTER_PROBE:
		return register_probe(arg, nr_args);
	}
	return -EINVAL;
}

void
io_unregister_all(struct io_ring_ctx *ctx)
{
	drop_buffers(ctx);
	drop_files(ctx);
	drop_eventfd(ctx);
}
