/*
 * process_vm.c - process_vm_readv and process_vm_writev: copying between
 * the caller's memory and another process's, without stopping it (strace
 * reads its tracees' strings so, gdb its memory).
 *
 * The caller must be allowed to inspect the target as ptrace attaches
 * (kernel/process/cred.h's task_may_inspect: its own user's dumpable
 * process, or root). The bytes go through a page-sized bounce buffer,
 * the remote areas in order filling (or drained from) the local ones in
 * order. As Linux, the count copied is returned, short at the first
 * remote address that cannot be read (or written); nothing copied and a
 * bad address is -EFAULT.
 */
#include "fs/vfs.h"
#include "kernel/process/cred.h"
#include "kernel/process/task.h"
#include "kernel/syscall/syscall.h"
#include "mm/kmalloc.h"
#include "mm/layout.h"
#include "mm/vm.h"
#include "uapi/errno.h"

/* The address space of process pid, referenced, or NULL with *err. */
static struct mm *
target_mm(int pid, long *err)
{
	struct mm *mm = NULL;
	u64 flags = spin_lock_irqsave(&tasks_lock);
	struct task *t = task_find(pid);

	if (!t)
		*err = -ESRCH;
	else if (!task_may_inspect(t))
		*err = -EPERM;
	else if (!(mm = get_task_mm(t)))
		*err = -ESRCH;
	spin_unlock_irqrestore(&tasks_lock, flags);
	return mm;
}

/* Where the copy is in an iovec array. */
struct iov_cursor {
	const struct kernel_iovec *iov;
	unsigned long cnt, i;
	u64 off; /* within iov[i] */
};

/* The bytes left in the current segment, moving past empty ones; 0 at the end. */
static u64
cursor_room(struct iov_cursor *c)
{
	while (c->i < c->cnt && c->off == c->iov[c->i].iov_len) {
		c->i++;
		c->off = 0;
	}
	return c->i < c->cnt ? c->iov[c->i].iov_len - c->off : 0;
}

static u64
cursor_addr(const struct iov_cursor *c)
{
	return (u64)c->iov[c->i].iov_base + c->off;
}

/* Moves one chunk of at most a page between the cursors; the bytes moved, *fault if short. */
static u64
copy_chunk(struct mm *mm, struct iov_cursor *local, struct iov_cursor *remote, void *bounce,
	   bool write, bool *fault)
{
	u64 n = MIN(MIN(cursor_room(local), cursor_room(remote)), PAGE_SIZE);
	void __user *mine = (void __user *)cursor_addr(local);
	u64 theirs = cursor_addr(remote);
	size_t done;

	*fault = true;
	if (write) {
		if (copy_from_user(bounce, mine, n))
			return 0;
		done = access_remote_vm_write(mm, theirs, bounce, n, false);
	} else {
		done = access_remote_vm(mm, theirs, bounce, n);
		if (copy_to_user(mine, bounce, done))
			return 0;
	}
	*fault = done < n;
	local->off += done;
	remote->off += done;
	return done;
}

/* Copies between the two iovec arrays of the caller and of mm; the bytes, or -EFAULT. */
static long
copy_iovecs(struct mm *mm, struct iov_cursor *l, struct iov_cursor *r, bool write)
{
	void *bounce = kmalloc(PAGE_SIZE);
	bool fault = false;
	long done = 0;

	if (!bounce)
		return -ENOMEM;
	while (!fault && done < (long)MAX_RW_COUNT && cursor_room(l) && cursor_room(r))
		done += (long)copy_chunk(mm, l, r, bounce, write, &fault);
	kfree(bounce);
	return fault && !done ? -EFAULT : done;
}

static long
process_vm_rw(int pid, const struct kernel_iovec __user *ulocal, unsigned long liovcnt,
	      const struct kernel_iovec __user *uremote, unsigned long riovcnt, unsigned long flags,
	      bool write)
{
	struct kernel_iovec *local = NULL, *remote = NULL;
	long ret;

	if (flags || liovcnt > UIO_MAXIOV || riovcnt > UIO_MAXIOV)
		return -EINVAL;
	if ((ret = iovec_import(ulocal, (int)liovcnt, &local)) >= 0 &&
	    (ret = iovec_import(uremote, (int)riovcnt, &remote)) >= 0) {
		struct mm *mm = target_mm(pid, &ret);
		struct iov_cursor l = { local, liovcnt, 0, 0 }, r = { remote, riovcnt, 0, 0 };
		if (mm) {
			ret = copy_iovecs(mm, &l, &r, write);
			mm_put(mm);
		}
	}
	kfree(local);
	kfree(remote);
	return ret;
}

SYSCALL6(process_vm_readv, int, pid, const struct kernel_iovec __user *, local_iov, unsigned long,
	 liovcnt, const struct kernel_iovec __user *, remote_iov, unsigned long, riovcnt,
	 unsigned long, flags)
{
	return process_vm_rw(pid, local_iov, liovcnt, remote_iov, riovcnt, flags, false);
}

SYSCALL6(process_vm_writev, int, pid, const struct kernel_iovec __user *, local_iov, unsigned long,
	 liovcnt, const struct kernel_iovec __user *, remote_iov, unsigned long, riovcnt,
	 unsigned long, flags)
{
	return process_vm_rw(pid, local_iov, liovcnt, remote_iov, riovcnt, flags, true);
}
