/*
 * mem_devices.c - /dev/null (reads end at once, writes vanish) and
 * /dev/zero (reads give zeros, writes vanish), with Linux's device numbers
 * and its quirk that seeking either always lands at 0. Mapping /dev/zero
 * is the memory manager's business (it is anonymous memory), so neither
 * has a get_page operation.
 */
#include "fs/vfs.h"
#include "uapi/errno.h"
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

void
mem_devices_init(void)
{
	devfs_register("null", MKDEV(1, 3), &null_fops, NULL);
	devfs_register("zero", MKDEV(1, 5), &zero_fops, NULL);
}
