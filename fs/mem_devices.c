/*
 * mem_devices.c - Linux's memory devices (major 1), with its device
 * numbers and its quirk that seeking always lands at 0:
 *   /dev/null     reads end at once, writes vanish
 *   /dev/zero     reads give zeros, writes vanish
 *   /dev/full     reads give zeros, writes fail with ENOSPC
 *   /dev/random, /dev/urandom  reads give getrandom's bytes (kernel/random.c);
 *                 writes are mixed into the generator, uncredited, as
 *                 Linux's; the RND* ioctls (kernel/random.c); always ready
 *                 for poll and epoll, as Linux's since 5.18
 * Mapping /dev/zero
 * is the memory manager's business (it is anonymous memory), so neither
 * has a get_page operation.
 */
#include "fs/vfs.h"
#include "uapi/errno.h"
#include "kernel/random.h"
#include "kernel/sched/sched.h"

static long
null_read(struct file *f, char __user *buf, size_t n, u64 *pos)
{
	return 0;
}

static long
null_write(struct file *f, const char __user *buf, size_t n, u64 *pos)
{
	return (long)n;
}

static s64
null_llseek(struct file *f, s64 off, int whence)
{
	f->pos = 0;
	return 0;
}

/* Page by page: a read of gigabytes stops for a signal with what it cleared (Linux's read_zero). */
static long
zero_read(struct file *f, char __user *buf, size_t n, u64 *pos)
{
	size_t done = 0;

	while (done < n) {
		size_t chunk =
			MIN(n - done, PAGE_SIZE - (((uintptr_t)buf + done) & (PAGE_SIZE - 1)));
		if (clear_user(buf + done, chunk))
			return done ? (long)done : -EFAULT;
		done += chunk;
		if (done < n) {
			if (task_interrupted()) /* a signal pending */
				return (long)done;
			cond_resched();
		}
	}
	return (long)done;
}

static long
full_write(struct file *f, const char __user *buf, size_t n, u64 *pos)
{
	return -ENOSPC;
}

static long
random_read(struct file *f, char __user *buf, size_t n, u64 *pos)
{
	return random_read_user(buf, MIN(n, (size_t)MAX_RW_COUNT));
}

/* Linux mixes what is written in without crediting it. */
static long
random_write(struct file *f, const char __user *buf, size_t n, u64 *pos)
{
	return random_write_user(buf, MIN(n, (size_t)MAX_RW_COUNT));
}

static long
random_ioctl_file(struct file *f, unsigned cmd, unsigned long arg)
{
	return random_ioctl(cmd, arg);
}

static unsigned
random_poll(struct file *f, struct poll_table *pt)
{
	return POLLIN | POLLRDNORM | POLLOUT | POLLWRNORM;
}

static const struct file_operations null_fops = {
	.read = null_read,
	.write = null_write,
	.llseek = null_llseek,
};

static const struct file_operations zero_fops = {
	.read = zero_read,
	.write = null_write,
	.llseek = null_llseek,
};

static const struct file_operations full_fops = {
	.read = zero_read,
	.write = full_write,
	.llseek = null_llseek,
};

static const struct file_operations random_fops = {
	.read = random_read,
	.write = random_write,
	.llseek = null_llseek,
	.poll = random_poll,
	.ioctl = random_ioctl_file,
};

void
mem_devices_init(void)
{
	devfs_register("null", MKDEV(1, 3), &null_fops, NULL);
	devfs_register("zero", MKDEV(1, 5), &zero_fops, NULL);
	devfs_register("full", MKDEV(1, 7), &full_fops, NULL);
	devfs_register("random", MKDEV(1, 8), &random_fops, NULL);
	devfs_register("urandom", MKDEV(1, 9), &random_fops, NULL);
}
