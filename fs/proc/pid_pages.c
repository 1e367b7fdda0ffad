/*
 * pid_pages.c - where a process's pages are: /proc/<pid>/smaps and
 * smaps_rollup, the resident pages of each area and of all (mm/smaps.c),
 * and /proc/<pid>/pagemap, its page table as a file of 8-byte entries,
 * the one at offset va / 4096 * 8 saying what maps the page at va
 * (mm/pagemap.c), as Linux's fs/proc/task_mmu.c pagemap_read.
 *
 * Opening pagemap asks the same inspection check as maps; whether the entries
 * show page frame numbers is the opener's CAP_SYS_ADMIN then, as Linux
 * asks the file's credentials, so that a descriptor handed on shows no
 * more than its opener could see. Reads must be whole entries (EINVAL
 * otherwise, as Linux); at the end of user space they return 0.
 */
#include "fs/proc/internal.h"
#include "kernel/process/cred.h"
#include "kernel/process/process.h"
#include "mm/kmalloc.h"
#include "mm/layout.h"
#include "mm/vm.h"
#include "uapi/errno.h"

#define ENTRY_BYTES   sizeof(u64)
#define CHUNK_ENTRIES (PAGE_SIZE / ENTRY_BYTES) /* entries made and copied at a time */

int
proc_show_smaps(struct procbuf *b, union proc_arg arg)
{
	return proc_show_areas(b, arg.pid, vm_show_smaps);
}

int
proc_show_rollup(struct procbuf *b, union proc_arg arg)
{
	return proc_show_areas(b, arg.pid, vm_show_smaps_rollup);
}

struct pagemap_file {
	struct mm *mm;
	bool show_pfn;
};

static int
pagemap_open(struct inode *inode, struct file *f)
{
	int pid = proc_inode_arg(inode).pid;

	if (!proc_pid_may_inspect(pid))
		return -EACCES;
	struct pagemap_file *pf = kmalloc(sizeof(*pf));
	if (!pf)
		return -ENOMEM;
	u64 flags = spin_lock_irqsave(&tasks_lock);
	struct task *t = task_find(pid);
	pf->mm = t && t->tgid == pid ? get_task_mm(t) : NULL;
	spin_unlock_irqrestore(&tasks_lock, flags);
	if (!pf->mm) {
		kfree(pf);
		return -ESRCH;
	}
	pf->show_pfn = capable(CAP_SYS_ADMIN);
	f->private = pf;
	return 0;
}

static long
pagemap_read(struct file *f, char __user *buf, size_t n, u64 *pos)
{
	struct pagemap_file *pf = f->private;
	/* Entries of user space, the top page left out as Linux's TASK_SIZE_MAX leaves it. */
	const u64 last = USER_TOP / PAGE_SIZE - 1;

	if (*pos % ENTRY_BYTES || n % ENTRY_BYTES)
		return -EINVAL;
	u64 first = *pos / ENTRY_BYTES;
	if (first >= last)
		return 0;
	n = MIN(n / ENTRY_BYTES, last - first);
	u64 *chunk = kmalloc(CHUNK_ENTRIES * ENTRY_BYTES);
	if (!chunk)
		return -ENOMEM;
	size_t done = 0;
	long err = 0;
	while (done < n) {
		size_t want = MIN(n - done, (size_t)CHUNK_ENTRIES);
		vm_pagemap(pf->mm, (first + done) * PAGE_SIZE, want, chunk, pf->show_pfn);
		if (copy_to_user(buf + done * ENTRY_BYTES, chunk, want * ENTRY_BYTES)) {
			err = -EFAULT;
			break;
		}
		done += want;
	}
	kfree(chunk);
	*pos += done * ENTRY_BYTES;
	return done ? (long)(done * ENTRY_BYTES) : err;
}

static void
pagemap_release(struct file *f)
{
	struct pagemap_file *pf = f->private;

	mm_put(pf->mm);
	kfree(pf);
}

const struct file_operations proc_pagemap_fops = {
	.open = pagemap_open,
	.read = pagemap_read,
	.llseek = generic_file_llseek,
	.release = pagemap_release,
};
