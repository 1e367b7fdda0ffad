/*
 * pid_mem.c - /proc/<pid>/mem: a process's address space as a file,
 * the offset its address, as Linux's fs/proc/base.c mem_rw. gdb reads and
 * writes a stopped tracee's memory through it in one call per range
 * instead of PTRACE_PEEKTEXT's word at a time.
 *
 * Opening it asks the same inspection check as maps and environ; the
 * address space is taken then and kept by the open file, so a later
 * execve by the process does not hand the opener the new program's
 * memory. Writes go in as a debugger's do (FOLL_FORCE): into read-only
 * text too. A range that starts unmapped is -EIO; one that ends so is a
 * short count.
 */
#include "fs/proc/internal.h"
#include "fs/vfs.h"
#include "kernel/process/process.h"
#include "mm/kmalloc.h"
#include "mm/vm.h"
#include "uapi/errno.h"

#define MEM_CHUNK PAGE_SIZE /* bytes copied through the kernel at a time */

static int
mem_open(struct inode *inode, struct file *f)
{
	int pid = proc_inode_arg(inode).pid;

	if (!proc_pid_may_inspect(pid))
		return -EACCES;
	u64 flags = spin_lock_irqsave(&tasks_lock);
	struct task *t = task_find(pid);
	struct mm *mm = t && t->tgid == pid ? get_task_mm(t) : NULL;
	spin_unlock_irqrestore(&tasks_lock, flags);
	if (!mm)
		return -ESRCH;
	f->private = mm;
	return 0;
}

/* Copies n bytes between the process at *pos and buf, a chunk at a time. */
static long
mem_rw(struct file *f, char __user *buf, size_t n, u64 *pos, bool write)
{
	struct mm *mm = f->private;
	char *chunk = kmalloc(MEM_CHUNK);
	size_t done = 0;
	long err = 0;

	if (!chunk)
		return -ENOMEM;
	while (done < n) {
		size_t want = MIN(n - done, (size_t)MEM_CHUNK), got;
		if (write) {
			if (copy_from_user(chunk, buf + done, want)) {
				err = -EFAULT;
				break;
			}
			got = access_remote_vm_write(mm, *pos + done, chunk, want, true);
		} else {
			got = access_remote_vm(mm, *pos + done, chunk, want);
			if (got && copy_to_user(buf + done, chunk, got)) {
				err = -EFAULT;
				break;
			}
		}
		done += got;
		if (got < want)
			break;
	}
	kfree(chunk);
	*pos += done;
	if (done)
		return (long)done;
	return err ? err : (n ? -EIO : 0);
}

static long
mem_read(struct file *f, char __user *buf, size_t n, u64 *pos)
{
	return mem_rw(f, buf, n, pos, false);
}

static long
mem_write(struct file *f, const char __user *buf, size_t n, u64 *pos)
{
	return mem_rw(f, (char __user *)buf, n, pos, true);
}

static void
mem_release(struct file *f)
{
	mm_put(f->private);
}

const struct file_operations proc_mem_fops = {
	.open = mem_open,
	.read = mem_read,
	.write = mem_write,
	.llseek = generic_file_llseek,
	.release = mem_release,
};
