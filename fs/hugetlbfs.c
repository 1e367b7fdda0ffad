/*
 * hugetlbfs.c - a file system whose files' pages are huge pages from the
 * pool (mm/hugetlb.c), Linux's hugetlbfs: mount -t hugetlbfs shows a RAM
 * tree (fs/ramfs.c, fs/tmpfs.c) whose regular files are made here, and
 * MAP_HUGETLB, MFD_HUGETLB and SHM_HUGETLB make nameless ones on an
 * instance of its own.
 *
 * A file keeps its 2 MiB pages in an index of its own (the page cache's
 * radix tree, fs/page_index.h, by huge page number, under pages_lock),
 * not the inode's page cache, so that nothing that walks 4 KiB cache pages
 * ever meets one. Data gets in only through mappings (write(2) is EINVAL,
 * as Linux's) or fallocate; read(2) copies it out. Sizes are 2 MiB
 * multiples: truncate to anything else is EINVAL.
 *
 * Reservations: a shared mapping reserves the file's pages up to its end
 * (resv_end); each page below resv_end the file lacks holds one, which
 * the fault or fallocate that makes the page uses, and truncation or the
 * file's end gives back.
 */
#include "fs/hugetlbfs.h"
#include "fs/page_index.h"
#include "kernel/lib/string.h"
#include "kernel/panic.h"
#include "kernel/process/cred.h"
#include "mm/hugetlb.h"
#include "mm/i_mmap.h"
#include "mm/kmalloc.h"
#include "mm/page_alloc.h"
#include "mm/uaccess.h"
#include "uapi/errno.h"
#include "uapi/stat.h"

struct hugetlbfs_inode {
	struct page_index pages; /* huge page number -> head page, one reference each */
	u64 resv_end;		 /* the pages below it the file lacks are reserved */
};

static struct super_block *nameless_sb; /* the instance of the nameless files */

static struct hugetlbfs_inode *
info(const struct inode *inode)
{
	return inode->private;
}

u64
hugetlbfs_size_pages(struct inode *inode)
{
	return ALIGN_UP(i_size_read(inode), HPAGE_SIZE) >> HPAGE_SHIFT;
}

struct page *
hugetlbfs_find_page(struct inode *inode, u64 idx)
{
	read_lock(&inode->pages_lock);
	struct page *p = page_index_lookup(&info(inode)->pages, idx);
	if (p)
		get_huge_page(p);
	read_unlock(&inode->pages_lock);
	return p;
}

/* Gives idx a page if it has none (past the end too: fallocate's KEEP_SIZE); NULL without one. */
static struct page *
find_or_make_page(struct inode *inode, u64 idx)
{
	struct hugetlbfs_inode *hi = info(inode);
	struct page *p = hugetlbfs_find_page(inode, idx);

	if (p)
		return p;
	bool reserved = idx < READ_ONCE(hi->resv_end);
	struct page *fresh = alloc_huge_page(reserved);
	if (!fresh)
		return NULL;
	fresh->mapping = inode;
	fresh->index = idx;
	write_lock(&inode->pages_lock);
	p = page_index_lookup(&hi->pages, idx);
	if (!p && page_index_insert(&hi->pages, idx, fresh) == 0)
		p = fresh; /* the index's reference */
	if (p)
		get_huge_page(p);
	write_unlock(&inode->pages_lock);
	if (p != fresh) { /* another got there first, or no memory for the index */
		put_huge_page(fresh);
		if (reserved)
			(void)hugetlb_reserve(1); /* the slot's reservation stays */
	}
	return p;
}

enum fault_result
hugetlbfs_get_page(struct inode *inode, u64 idx, struct page **out)
{
	if (idx >= hugetlbfs_size_pages(inode))
		return FAULT_BUS;
	*out = find_or_make_page(inode, idx);
	return *out ? FAULT_OK : FAULT_BUS; /* the pool is out: Linux's -ENOSPC */
}

/* How many of the pages in [first, end) the file lacks. */
static u64
pages_missing(struct inode *inode, u64 first, u64 end)
{
	u64 missing = 0;

	read_lock(&inode->pages_lock);
	for (u64 i = first; i < end; i++)
		missing += page_index_lookup(&info(inode)->pages, i) == NULL;
	read_unlock(&inode->pages_lock);
	return missing;
}

/* Reserves the pages the file lacks below end: 0 or -ENOMEM. inode->lock held. */
static int
reserve_to(struct inode *inode, u64 end)
{
	struct hugetlbfs_inode *hi = info(inode);

	if (end <= hi->resv_end)
		return 0;
	int err = hugetlb_reserve(pages_missing(inode, hi->resv_end, end));
	if (!err)
		WRITE_ONCE(hi->resv_end, end);
	return err;
}

int
hugetlbfs_mmap_prepare(struct file *f, u64 pgoff, u64 len, u32 vmflags)
{
	struct inode *inode = f->inode;
	u64 end = (pgoff << PAGE_SHIFT) + len;
	int err;

	if (pgoff & ((HPAGE_SIZE >> PAGE_SHIFT) - 1))
		return -EINVAL;
	mutex_lock(&inode->lock);
	if (vmflags & VM_SHARED)
		err = reserve_to(inode, end >> HPAGE_SHIFT);
	else
		err = hugetlb_reserve(len >> HPAGE_SHIFT);
	if (!err && (vmflags & VM_WRITE) && i_size_read(inode) < end)
		i_size_write(inode, end);
	mutex_unlock(&inode->lock);
	return err;
}

void
hugetlbfs_mmap_abandon(u64 len, u32 vmflags)
{
	if (!(vmflags & VM_SHARED))
		hugetlb_unreserve(len >> HPAGE_SHIFT);
}

/* Drops the pages from first on and the reservations of those the file lacked. */
static void
drop_pages_from(struct inode *inode, u64 first)
{
	struct hugetlbfs_inode *hi = info(inode);

	if (hi->resv_end > first) {
		hugetlb_unreserve(pages_missing(inode, first, hi->resv_end));
		WRITE_ONCE(hi->resv_end, first);
	}
	for (;;) {
		u64 idx = first;
		write_lock(&inode->pages_lock);
		struct page *p = page_index_next(&hi->pages, &idx);
		if (p)
			page_index_remove(&hi->pages, idx);
		write_unlock(&inode->pages_lock);
		if (!p)
			break;
		p->mapping = NULL;
		put_huge_page(p);
	}
}

/* truncate: 2 MiB multiples only (Linux's hugetlbfs_setattr); inode->lock held. */
static int
hugetlbfs_setsize(struct inode *inode, u64 size)
{
	u64 old = i_size_read(inode);

	if (size & ~HPAGE_MASK)
		return -EINVAL;
	i_size_write(inode, size);
	if (size < old) {
		unmap_mapping_pages(inode, size >> PAGE_SHIFT);
		drop_pages_from(inode, size >> HPAGE_SHIFT);
	}
	return 0;
}

/* fallocate: pages for [start, end), rounded out to huge pages (Linux's hugetlbfs_fallocate). */
static int
hugetlbfs_allocate(struct inode *inode, u64 start, u64 end, bool keep_size)
{
	for (u64 idx = start >> HPAGE_SHIFT; idx < ALIGN_UP(end, HPAGE_SIZE) >> HPAGE_SHIFT;
	     idx++) {
		struct page *p = find_or_make_page(inode, idx);
		if (!p)
			return -ENOSPC;
		put_huge_page(p);
	}
	if (!keep_size && end > i_size_read(inode))
		i_size_write(inode, end);
	return 0;
}

static void
hugetlbfs_evict(struct inode *inode)
{
	drop_pages_from(inode, 0);
	kfree(inode->private);
}

/* read(2) copies from the pages; what the file lacks reads as zeros. */
static long
hugetlbfs_read(struct file *f, char __user *buf, size_t n, u64 *pos)
{
	struct inode *inode = f->inode;
	u64 size = i_size_read(inode), at = *pos;
	size_t done = 0;

	while (done < n && at < size) {
		size_t off = at & ~HPAGE_MASK,
		       chunk = MIN(n - done, MIN(HPAGE_SIZE - off, size - at));
		struct page *p = hugetlbfs_find_page(inode, at >> HPAGE_SHIFT);
		int err = p ? copy_to_user(buf + done, (char *)page_address(p) + off, chunk)
			    : clear_user(buf + done, chunk);
		if (p)
			put_huge_page(p);
		if (err)
			return done ? (long)done : -EFAULT;
		done += chunk;
		at += chunk;
	}
	*pos = at;
	return (long)done;
}

static long
hugetlbfs_write(struct file *f, const char __user *buf, size_t n, u64 *pos)
{
	return -EINVAL; /* Linux's hugetlbfs has no write_iter */
}

static const struct inode_operations hugetlbfs_file_iops = {
	.setsize = hugetlbfs_setsize,
	.allocate = hugetlbfs_allocate,
	.evict = hugetlbfs_evict,
};

static const struct file_operations hugetlbfs_file_fops = {
	.read = hugetlbfs_read,
	.write = hugetlbfs_write,
	.llseek = generic_file_llseek,
};

bool
is_hugetlbfs_inode(const struct inode *inode)
{
	return inode->fops == &hugetlbfs_file_fops;
}

struct inode *
hugetlbfs_new_inode(struct super_block *sb, u32 mode)
{
	struct hugetlbfs_inode *hi = kzalloc(sizeof(*hi));

	if (!hi)
		return NULL;
	page_index_init(&hi->pages);
	struct inode *inode = inode_alloc(sb, mode, &hugetlbfs_file_iops, &hugetlbfs_file_fops);
	if (!inode) {
		kfree(hi);
		return NULL;
	}
	inode->private = hi;
	return inode;
}

struct inode *
hugetlbfs_nameless_inode(u64 size)
{
	struct inode *inode = hugetlbfs_new_inode(nameless_sb, S_IFREG | 0600);

	if (inode) {
		inode->uid = current_fsuid();
		inode->gid = current_fsgid();
		i_size_write(inode, size);
	}
	return inode;
}

int
hugetlbfs_file_setup(const char *name, size_t len, u64 size, struct file **out)
{
	struct inode *inode = hugetlbfs_nameless_inode(size);

	return inode ? nameless_file_open(inode, name, len, out) : -ENOMEM;
}

void
hugetlbfs_init(void)
{
	register_filesystem(&hugetlbfs_type);
	nameless_sb = sb_alloc(&hugetlbfs_type);
	if (!nameless_sb)
		panic("hugetlbfs: no memory for the nameless files' instance");
}
