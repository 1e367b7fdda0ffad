/*
 * memfd.c - memfd_create(2), a file in RAM that no directory names, and
 * the seals fcntl's F_ADD_SEALS puts on it (Linux's mm/memfd.c).
 *
 * The file is a regular file of the root RAM file system, as shared
 * anonymous memory's is (fs/shmem.c): its page cache, read, write and mmap
 * are ramfs's. Its dentry hangs under the root without being linked there,
 * named "memfd:NAME" and marked deleted, so /proc/<pid>/fd shows
 * "/memfd:NAME (deleted)" as Linux's pseudo dentry does. With MFD_HUGETLB
 * it is a file of huge pages instead (fs/hugetlbfs.c), on an instance of
 * hugetlbfs's own.
 *
 * A seal forbids one kind of change for the rest of the file's life, to
 * every holder: whoever receives the fd can rely on the file not shrinking
 * under its mapping (SIGBUS), not growing, or not changing at all. Only
 * memfds take seals; one made without MFD_ALLOW_SEALING is born with
 * F_SEAL_SEAL, so that none can be added. Seals are added with the inode's
 * lock and pages_lock held: write and truncate check them under the lock
 * (ramfs.c, truncate.c), a new mapping under pages_lock as it joins the
 * file's areas (mm/i_mmap.c), so nothing slips in while F_SEAL_WRITE goes on.
 */
#include "fs/vfs.h"
#include "fs/hugetlbfs.h"
#include "mm/hugetlb.h"
#include "kernel/syscall/syscall.h"
#include "kernel/lib/string.h"
#include "mm/i_mmap.h"
#include "uapi/memfd.h"

#define MEMFD_PREFIX	 "memfd:"
#define MEMFD_PREFIX_LEN (sizeof(MEMFD_PREFIX) - 1)
/* The longest name a caller may give: what leaves room for the prefix in NAME_MAX. */
#define MEMFD_NAME_MAX (NAME_MAX - MEMFD_PREFIX_LEN)

#define ALL_SEALS   (F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_FUTURE_WRITE)
#define WRITE_SEALS (F_SEAL_WRITE | F_SEAL_FUTURE_WRITE)

int
nameless_file_open(struct inode *inode, const char *name, size_t len, struct file **out)
{
	struct dentry *d = dentry_alloc_child(vfs_root, name, len, inode);

	if (!d)
		return -ENOMEM;
	d->deleted = true; /* no other thread can see it yet */
	int err = file_open_dentry(d, O_RDWR | O_LARGEFILE, true, out);
	dput(d);
	return err;
}

/*
 * The memfd's file on a new nameless inode, open read-write: a RAM file,
 * or with MFD_HUGETLB one of huge pages (fs/hugetlbfs.c), of the size
 * MFD_HUGE_MASK names if any: ENODEV for a size there is no pool of, as
 * Linux's hugetlb_file_setup. 0 or -errno.
 */
static int
memfd_open(const char *name, size_t len, unsigned flags, struct file **out)
{
	unsigned huge_shift = (flags >> MFD_HUGE_SHIFT) & MFD_HUGE_MASK;

	if ((flags & MFD_HUGETLB) && huge_shift && huge_shift != HPAGE_SHIFT)
		return -ENODEV;
	struct inode *inode = flags & MFD_HUGETLB ? hugetlbfs_nameless_inode(0)
						  : ramfs_new_inode(root_sb, S_IFREG | 0777);
	if (!inode)
		return -ENOMEM;
	inode->sealable = true;
	inode->seals = flags & MFD_ALLOW_SEALING ? 0 : F_SEAL_SEAL;
	return nameless_file_open(inode, name, len, out);
}

SYSCALL2(memfd_create, const char __user *, uname, unsigned, flags)
{
	char name[MEMFD_PREFIX_LEN + MEMFD_NAME_MAX + 1];
	struct file *f;
	/* A huge page size may be asked for with MFD_HUGETLB (Linux's MFD_HUGE_*). */
	unsigned allowed = MFD_CLOEXEC | MFD_ALLOW_SEALING | MFD_HUGETLB |
			   (flags & MFD_HUGETLB ? MFD_HUGE_MASK << MFD_HUGE_SHIFT : 0);

	if (flags & ~allowed)
		return -EINVAL;
	memcpy(name, MEMFD_PREFIX, MEMFD_PREFIX_LEN);
	long len = strncpy_from_user(name + MEMFD_PREFIX_LEN, uname, MEMFD_NAME_MAX + 1);
	if (len < 0)
		return len == -ENAMETOOLONG ? -EINVAL : len;
	int err = memfd_open(name, MEMFD_PREFIX_LEN + (size_t)len, flags, &f);
	if (err)
		return err;
	return fd_install_new(f, flags & MFD_CLOEXEC);
}

/* Linux's memfd_add_seals: seals are never taken away, and F_SEAL_SEAL ends the adding. */
static long
add_seals(struct file *f, unsigned seals)
{
	struct inode *inode = f->inode;
	long err = 0;

	if (!(f->fmode & FMODE_WRITE))
		return -EPERM;
	if (seals & ~ALL_SEALS)
		return -EINVAL;
	mutex_lock(&inode->lock);
	write_lock(&inode->pages_lock);
	if (inode->seals & F_SEAL_SEAL)
		err = -EPERM;
	else if ((seals & F_SEAL_WRITE) && i_mmap_writable(inode))
		err = -EBUSY; /* a shared mapping could still write: the seal would be a lie */
	else
		WRITE_ONCE(inode->seals, inode->seals | seals);
	write_unlock(&inode->pages_lock);
	mutex_unlock(&inode->lock);
	return err;
}

long
memfd_fcntl(struct file *f, int cmd, unsigned long arg)
{
	if (!f->inode->sealable)
		return -EINVAL; /* as Linux for a file that is not shmem's */
	if (cmd == F_GET_SEALS)
		return READ_ONCE(f->inode->seals);
	return add_seals(f, (unsigned)arg);
}

long
seals_allow_write(struct inode *inode, u64 pos, size_t n)
{
	u64 size = i_size_read(inode);

	if (inode->seals & WRITE_SEALS)
		return -EPERM;
	if (!(inode->seals & F_SEAL_GROW) || pos + n <= size)
		return (long)n;
	/* Linux checks each page it writes: a sealed file takes the pages that end within it. */
	u64 end = ALIGN_DOWN(size, PAGE_SIZE);
	return end > pos ? (long)(end - pos) : -EPERM;
}

int
seals_allow_resize(struct inode *inode, u64 size)
{
	u64 old = i_size_read(inode);

	if ((size < old && (inode->seals & F_SEAL_SHRINK)) ||
	    (size > old && (inode->seals & F_SEAL_GROW)))
		return -EPERM;
	return 0;
}

bool
file_write_sealed(struct file *f)
{
	return READ_ONCE(f->inode->seals) & WRITE_SEALS;
}
