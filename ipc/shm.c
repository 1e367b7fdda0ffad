/*
 * shm.c - System V shared memory: shmget, shmat, shmdt, shmctl (Linux's
 * ipc/shm.c).
 *
 * A segment's memory is a nameless file of the RAM file system, as shared
 * anonymous memory's (fs/shmem.c): its dentry is named "SYSV<key>" and
 * marked deleted, so /proc/<pid>/maps shows "/SYSV0000abcd (deleted)" as
 * Linux does. Each shmat opens a file of its own on it (Linux's
 * shm_file_data), whose release tells the segment that the attachment is
 * gone: the areas of one attachment, split or copied by fork, all hold it.
 * shm_nattch is the number of areas mapping the segment (mm/i_mmap.c),
 * which follows fork, exec, exit and munmap by itself, as Linux's counts
 * its areas' opens and closes.
 *
 * A segment removed while attached stays (SHM_DEST, its key private) until
 * its last attachment goes; one never attached goes at once.
 */
#include "ipc/util.h"
#include "fs/vfs.h"
#include "kernel/process/cred.h"
#include "kernel/process/rlimit.h"
#include "kernel/process/task.h"
#include "kernel/syscall/syscall.h"
#include "kernel/lib/vsprintf.h"
#include "fs/proc/text.h"
#include "kernel/lib/string.h"
#include "mm/i_mmap.h"
#include "mm/kmalloc.h"
#include "mm/uaccess.h"
#include "mm/vm.h"
#include "uapi/errno.h"
#include "uapi/fcntl.h"
#include "uapi/resource.h"
#include "uapi/stat.h"

#define SHMMIN 1

struct shm_segment {
	struct ipc_object perm;
	struct dentry *dentry; /* the memory */
	u64 size;
	long atime, dtime, ctime;
	int cpid, lpid;
	unsigned attaches;  /* attach files alive (shmat's, in progress too) */
	unsigned attaching; /* shmats between their attach file and their area */
};

static struct ipc_object *shm_create(struct ipc_ids *ids, int key, int flags, unsigned long size,
				     int *err);
static int shm_fits(struct ipc_object *obj, unsigned long size);
static void shm_free(struct ipc_object *obj);

unsigned long shm_ctlmax = ~0ul - (1ul << 24), shm_ctlall = ~0ul - (1ul << 24), shm_ctlmni = 4096;
static u64 shm_tot; /* pages of every segment, against shmall; under shm_ids.lock */

static unsigned long
shm_mni(void)
{
	return READ_ONCE(shm_ctlmni);
}

static const struct ipc_kind shm_kind = {
	.name = "shm", .create = shm_create, .fits = shm_fits, .free = shm_free
};
static struct ipc_ids shm_ids = IPC_IDS_INIT(shm_ids, &shm_kind, "shm_ids", shm_mni);

static struct shm_segment *
to_seg(struct ipc_object *obj)
{
	return container_of(obj, struct shm_segment, perm);
}

static u64
seg_pages(const struct shm_segment *seg)
{
	return ALIGN_UP(seg->size, PAGE_SIZE) >> PAGE_SHIFT;
}

static struct dentry *
shm_memory(int key, u64 size)
{
	char name[16];
	struct inode *inode = ramfs_new_inode(root_sb, S_IFREG | 0777);

	if (!inode)
		return NULL;
	int len = ksnprintf(name, sizeof(name), "SYSV%08x", (unsigned)key);
	struct dentry *d = dentry_alloc_child(vfs_root, name, (size_t)len, inode);
	if (!d)
		return NULL;
	d->deleted = true; /* no directory lists it */
	mutex_lock(&inode->lock);
	int err = inode->iops->setsize(inode, size);
	mutex_unlock(&inode->lock);
	if (err) {
		dput(d);
		return NULL;
	}
	return d;
}

static struct ipc_object *
shm_create(struct ipc_ids *ids, int key, int flags, unsigned long size, int *err)
{
	u64 pages = ALIGN_UP(size, PAGE_SIZE) >> PAGE_SHIFT;

	*err = -EINVAL;
	if (size < SHMMIN || size > READ_ONCE(shm_ctlmax))
		return NULL;
	*err = -ENOSPC;
	if (shm_tot + pages < shm_tot || shm_tot + pages > READ_ONCE(shm_ctlall))
		return NULL;
	*err = -ENOMEM;
	struct shm_segment *seg = kzalloc(sizeof(*seg));
	if (!seg)
		return NULL;
	seg->dentry = shm_memory(key, size);
	if (!seg->dentry) {
		kfree(seg);
		return NULL;
	}
	seg->size = size;
	seg->ctime = ipc_now();
	seg->cpid = ipc_pid();
	shm_tot += pages;
	return &seg->perm;
}

static int
shm_fits(struct ipc_object *obj, unsigned long size)
{
	return size > to_seg(obj)->size ? -EINVAL : 0;
}

static void
shm_free(struct ipc_object *obj)
{
	struct shm_segment *seg = to_seg(obj);

	shm_tot -= seg_pages(seg);
	dput(seg->dentry);
	kfree(seg);
}

SYSCALL3(shmget, int, key, u64, size, int, flags)
{
	return ipc_get(&shm_ids, key, flags, size);
}

/* The segment goes once nobody is attached (shm_ids.lock held). */
static void
shm_destroy_if_unused(struct shm_segment *seg)
{
	if ((seg->perm.mode & SHM_DEST) && !seg->attaches)
		ipc_remove(&shm_ids, &seg->perm);
}

/* ---- attach files ------------------------------------------------------------- */

static struct page *
shm_get_page(struct file *f, u64 index)
{
	return ramfs_file_fops.get_page(f, index);
}

static unsigned
shm_get_cached_pages(struct file *f, u64 first, unsigned n, struct page **pages)
{
	return ramfs_file_fops.get_cached_pages(f, first, n, pages);
}

/*
 * A new area of the segment (shmat's, or remap_file_pages over one): as
 * Linux's shm_mmap, refused once the segment is gone there - removed
 * (IPC_RMID) with no area mapping it and no shmat under way - though an
 * attach file still holds it here (remap_file_pages's own reference).
 */
static int
shm_mmap(struct file *f)
{
	struct shm_segment *seg = f->private;

	mutex_lock(&shm_ids.lock);
	bool gone =
		(seg->perm.mode & SHM_DEST) && !seg->attaching && !i_mmap_count(seg->dentry->inode);
	mutex_unlock(&shm_ids.lock);
	return gone ? -EINVAL : 0;
}

/* The attachment's last area is gone (shmdt, munmap, exit, exec). */
static void
shm_release(struct file *f)
{
	struct shm_segment *seg = f->private;

	mutex_lock(&shm_ids.lock);
	seg->attaches--;
	seg->dtime = ipc_now();
	seg->lpid = ipc_pid();
	shm_destroy_if_unused(seg);
	ipc_drop(&shm_ids, &seg->perm);
	mutex_unlock(&shm_ids.lock);
}

static const struct file_operations shm_file_ops = {
	.release = shm_release,
	.mmap = shm_mmap,
	.get_page = shm_get_page,
	.get_cached_pages = shm_get_cached_pages,
};

/* An attach file for seg (shm_ids.lock held): 0 or -errno. */
static int
shm_attach_file(struct shm_segment *seg, bool rdonly, struct file **out)
{
	int err = file_open_dentry(seg->dentry, rdonly ? O_RDONLY : O_RDWR, true, out);

	if (err)
		return err;
	(*out)->ops = &shm_file_ops;
	(*out)->private = seg;
	seg->attaches++;
	ipc_hold(&seg->perm); /* the attachment's: shm_release drops it */
	return 0;
}

/*
 * Where shmat maps: *addr checked and rounded as Linux's do_shmat, 0 or
 * -EINVAL. Any other address goes on to the mapping, which refuses one
 * outside user space with ENOMEM and one below vm.mmap_min_addr with EPERM,
 * as Linux's does. An address SHM_RND rounds down to 0 stays fixed there
 * (Linux's do_shmat asks MAP_FIXED for any address given).
 */
static int
shmat_address(u64 *addr, int flags)
{
	if (!*addr)
		return flags & SHM_REMAP ? -EINVAL : 0;
	if (*addr & (SHMLBA - 1)) {
		if (!(flags & SHM_RND))
			return -EINVAL;
		*addr &= ~(u64)(SHMLBA - 1);
		if (!*addr && (flags & SHM_REMAP))
			return -EINVAL;
	}
	return 0;
}

static long
do_shmat(int id, u64 addr, int flags)
{
	int prot = flags & SHM_RDONLY ? PROT_READ : PROT_READ | PROT_WRITE;
	int acc = flags & SHM_RDONLY ? 0444 : 0666;
	bool fixed = addr != 0;

	if (shmat_address(&addr, flags) || id < 0)
		return -EINVAL;
	if (flags & SHM_EXEC) {
		prot |= PROT_EXEC;
		acc |= 0111;
	}
	mutex_lock(&shm_ids.lock);
	struct ipc_object *obj = ipc_find(&shm_ids, id);
	long err = !obj ? -EINVAL : !ipc_may(obj, acc) ? -EACCES : 0;
	struct file *f = NULL;
	struct shm_segment *seg = obj ? to_seg(obj) : NULL;
	if (!err)
		err = shm_attach_file(seg, flags & SHM_RDONLY, &f);
	if (!err) {
		seg->atime = ipc_now();
		seg->lpid = ipc_pid();
		seg->attaching++;
	}
	u64 size = seg ? seg->size : 0;
	mutex_unlock(&shm_ids.lock);
	if (err)
		return err;
	/* Not under shm_ids.lock: unmapping takes it after the mmap lock (shm_release). */
	int mflags =
		MAP_SHARED | (fixed ? (flags & SHM_REMAP ? MAP_FIXED : MAP_FIXED_NOREPLACE) : 0);
	/* Linux's do_shmat refuses a range that wraps itself, before the mapping's ENOMEM. */
	bool wraps = fixed && !(flags & SHM_REMAP) && addr + size < addr;
	long ret = wraps ? -EINVAL : vm_mmap(current()->mm, addr, size, prot, mflags, f, 0);
	mutex_lock(&shm_ids.lock);
	seg->attaching--;
	mutex_unlock(&shm_ids.lock);
	file_put(f);
	return ret == -EEXIST ? -EINVAL : ret; /* something is there and SHM_REMAP was not asked */
}

SYSCALL3(shmat, int, id, u64, addr, int, flags)
{
	return do_shmat(id, addr, flags);
}

/* The segment an area shows, if it is a shmat's at its start. */
static bool
is_attach_start(const struct vma *v, u64 addr)
{
	return v->file && v->file->ops == &shm_file_ops && v->start == addr && v->pgoff == 0;
}

SYSCALL1(shmdt, u64, addr)
{
	struct mm *mm = current()->mm;
	struct file *f = NULL;
	u64 size = 0;

	if (addr & (PAGE_SIZE - 1))
		return -EINVAL;
	down_read(&mm->mmap_lock);
	struct vma *v = vma_find(mm, addr);
	if (v && is_attach_start(v, addr)) {
		f = file_get(v->file);
		size = ALIGN_UP(i_size_read(f->inode), PAGE_SIZE);
	}
	up_read(&mm->mmap_lock);
	if (!f)
		return -EINVAL;
	struct shm_segment *seg = f->private;
	mutex_lock(&shm_ids.lock);
	seg->dtime = ipc_now();
	seg->lpid = ipc_pid();
	mutex_unlock(&shm_ids.lock);
	int n = vm_unmap_file(mm, addr, addr + size, f);
	file_put(f);
	return n < 0 ? n : 0;
}

/* ---- shmctl ------------------------------------------------------------------- */

static void
shm_fill(struct shm_segment *seg, struct kernel_shmid64_ds *ds)
{
	memset(ds, 0, sizeof(*ds));
	ipc_fill_perm(&seg->perm, &ds->shm_perm);
	ds->shm_segsz = seg->size;
	ds->shm_atime = seg->atime;
	ds->shm_dtime = seg->dtime;
	ds->shm_ctime = seg->ctime;
	ds->shm_cpid = seg->cpid;
	ds->shm_lpid = seg->lpid;
	ds->shm_nattch = i_mmap_count(seg->dentry->inode);
}

/*
 * What shmctl's reading commands copy out: filled under shm_ids.lock and
 * copied after it, since a fault on the buffer takes the mmap lock, which
 * is taken before shm_ids.lock when a detach releases its file.
 */
union shm_answer {
	struct kernel_shmid64_ds ds;
	struct kernel_shminfo64 info;
	struct kernel_shm_info used;
};

static long
shm_info(int cmd, union shm_answer *a, size_t *size)
{
	if (cmd == IPC_INFO) {
		a->info = (struct kernel_shminfo64){
			.shmmax = READ_ONCE(shm_ctlmax),
			.shmmin = SHMMIN,
			.shmmni = READ_ONCE(shm_ctlmni),
			.shmseg = READ_ONCE(shm_ctlmni),
			.shmall = READ_ONCE(shm_ctlall),
		};
		*size = sizeof(a->info);
		return ipc_max_idx(&shm_ids);
	}
	a->used = (struct kernel_shm_info){ .used_ids = shm_ids.in_use };
	for (int i = 0; i <= shm_ids.max_idx; i++) {
		struct ipc_object *obj = shm_ids.slots[i];
		if (obj) {
			a->used.shm_tot += seg_pages(to_seg(obj));
			a->used.shm_rss += READ_ONCE(to_seg(obj)->dentry->inode->pages.nrpages);
		}
	}
	*size = sizeof(a->used);
	return ipc_max_idx(&shm_ids);
}

static long
shm_stat(int cmd, int id, union shm_answer *a, size_t *size)
{
	long err;
	struct ipc_object *obj =
		ipc_find_stat(&shm_ids, id, cmd != IPC_STAT, cmd == SHM_STAT_ANY, &err);

	if (!obj)
		return err;
	shm_fill(to_seg(obj), &a->ds);
	*size = sizeof(a->ds);
	return cmd == IPC_STAT ? 0 : obj->id;
}

static long
shm_control(int cmd, struct shm_segment *seg, const struct kernel_shmid64_ds *ds)
{
	switch (cmd) {
	case IPC_RMID:
		seg->perm.mode |= SHM_DEST;
		ipc_make_private(&seg->perm);
		shm_destroy_if_unused(seg);
		return 0;
	case IPC_SET:
		ipc_set_perm(&seg->perm, &ds->shm_perm);
		seg->ctime = ipc_now();
		return 0;
	case SHM_LOCK:
		seg->perm.mode |= SHM_LOCKED;
		return 0;
	default: /* SHM_UNLOCK */
		seg->perm.mode &= ~SHM_LOCKED;
		return 0;
	}
}

/* Linux's checks: the owner or CAP_SYS_ADMIN changes and removes; locking, without
 * CAP_IPC_LOCK, asks a memlock limit too. */
static long
shm_may_control(int cmd, struct ipc_object *obj)
{
	if (cmd == SHM_LOCK || cmd == SHM_UNLOCK) {
		if (capable(CAP_IPC_LOCK))
			return 0;
		if (!ipc_may_control(obj) || (cmd == SHM_LOCK && !rlimit(RLIMIT_MEMLOCK)))
			return -EPERM;
		return 0;
	}
	return ipc_may_control(obj) ? 0 : -EPERM;
}

static long
do_shmctl(int id, int cmd, void __user *buf)
{
	struct kernel_shmid64_ds ds;
	union shm_answer answer;
	size_t size = 0;
	long err;

	cmd &= ~IPC_64;
	if (id < 0 || cmd < 0)
		return -EINVAL;
	if (cmd == IPC_SET && copy_from_user(&ds, buf, sizeof(ds)))
		return -EFAULT;
	mutex_lock(&shm_ids.lock);
	switch (cmd) {
	case IPC_INFO:
	case SHM_INFO:
		err = shm_info(cmd, &answer, &size);
		break;
	case IPC_STAT:
	case SHM_STAT:
	case SHM_STAT_ANY:
		err = shm_stat(cmd, id, &answer, &size);
		break;
	case IPC_RMID:
	case IPC_SET:
	case SHM_LOCK:
	case SHM_UNLOCK: {
		struct ipc_object *obj = ipc_find(&shm_ids, id);
		err = !obj ? -EINVAL : shm_may_control(cmd, obj);
		if (!err)
			err = shm_control(cmd, to_seg(obj), &ds);
		break;
	}
	default:
		err = -EINVAL;
	}
	mutex_unlock(&shm_ids.lock);
	if (err >= 0 && size && copy_to_user(buf, &answer, size))
		return -EFAULT;
	return err;
}

SYSCALL3(shmctl, int, id, int, cmd, void __user *, buf)
{
	return do_shmctl(id, cmd, buf);
}

/* ---- /proc/sysvipc/shm --------------------------------------------------------- */

static void
shm_proc_line(struct ipc_object *obj, void *arg)
{
	struct shm_segment *seg = to_seg(obj);

	procbuf_printf(
		arg,
		"%10d %10d  %4o %21lu %5u %5u  %5u %5u %5u %5u %5u %10ld %10ld %10ld %21lu %21lu\n",
		obj->key, obj->id, obj->mode, (unsigned long)seg->size, seg->cpid, seg->lpid,
		i_mmap_count(seg->dentry->inode), obj->uid, obj->gid, obj->cuid, obj->cgid,
		seg->atime, seg->dtime, seg->ctime,
		(unsigned long)READ_ONCE(seg->dentry->inode->pages.nrpages) << PAGE_SHIFT, 0ul);
}

void
shm_proc_show(struct procbuf *b)
{
	procbuf_printf(
		b,
		"       key      shmid perms                  size  cpid  lpid nattch   uid   gid  cuid  cgid      atime      dtime      ctime                   rss                  swap\n");
	ipc_for_each(&shm_ids, shm_proc_line, b);
}
