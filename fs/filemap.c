/*
 * filemap.c - the page cache: where a regular file's data lives, page by
 * page, and the read and write loops over it.
 *
 * Each cached page is a shared page (mm/page_alloc.h) with page->mapping
 * and page->index naming its place; the inode's index holds one reference,
 * every user (a read in progress, a user mapping) another. A page missing
 * from the index is a hole and reads as zeros.
 *
 * One invariant keeps holes, truncation and failed writes simple: every
 * byte of a cached page at or beyond i_size is zero. Truncation zeroes the
 * tail of the new last page; a write that fails part-way zeroes what it
 * may have copied past i_size. Growing a file then only moves i_size.
 *
 * generic_perform_write() is the write loop of Linux's
 * mm/filemap.c:generic_perform_write, and its one user copy is the one
 * place user data enters the page cache: the knob copy_nocache switches
 * exactly that call between cached and non-temporal stores (regression 4,
 * Linux 2.6.29, docs/seeds.md's seed 004, docs/regressions/nocache.md). Reads and every
 * other user copy stay cached under every policy.
 *
 * Each instance counts its cached pages against its size (super.c: the
 * root's is the ramfs_size knob, a tmpfs mount's its size=): a new page
 * beyond it is refused, and a write fails with ENOSPC.
 *
 * The index and pages_lock. pages_lock (a reader-writer spinlock,
 * locking/rwlock.h) is taken to read by what only looks pages up (reads,
 * faults, fault-around, SEEK_DATA/SEEK_HOLE) and to write by what changes
 * the index (inserting, removing, truncating) or i_mmap (mm/i_mmap.c):
 * the threads of one program pread'ing one file no longer wait for each
 * other (docs/regressions/rwsem.md: xfs_repair at 4 CPUs spent most of
 * its kernel time spinning here). Why a reader may use what it finds:
 *   - the index's nodes and slots change only under the write lock, so a
 *     reader walks a tree nobody changes and frees beneath it;
 *   - a reader takes its page reference before it unlocks, and a page
 *     leaves the index only under the write lock and loses the index's
 *     reference only after that: a page found has a reference besides the
 *     reader's until the reader has its own, so it cannot be freed and
 *     reused meanwhile;
 *   - drop_unused_page reads the count under the write lock, when no
 *     reader is between finding a page and referencing it: a count of one
 *     there is the index's alone, and stays so.
 *
 * Not here: O_APPEND, file offsets and size limits (ramfs.c), locking of
 * writers against each other (the caller holds inode->lock).
 */
#include "fs/vfs.h"
#include "kernel/knobs.h"
#include "kernel/process/task.h" /* fatal_signal_pending */
#include "uapi/errno.h"
#include "kernel/lib/string.h"
#include "mm/page_alloc.h"
#include "mm/i_mmap.h"

static inline u64
pages_for(u64 size)
{
	return (size >> PAGE_SHIFT) + ((size & (PAGE_SIZE - 1)) != 0);
}

/*
 * never:  cached copies, as every Linux since f1800536 (2.6.29)
 * large:  non-temporal only for copies of at least a page (3255aa2, seed 004's patch)
 * always: non-temporal for every size (0812a579: the regression)
 */
KNOB_ENUM(copy_policy, "copy_nocache", COPY_NOCACHE_NEVER, true,
	  "non-temporal user copies in write()", "never", "large", "always");

/* Copies one page chunk of a write: the bytes not copied, as copy_from_user_partial. */
static size_t
write_copy(void *dst, const char __user *src, size_t n)
{
	int policy = READ_ONCE(copy_policy); /* one read: a change is atomic for this call */

	/* lab nocache: begin */
	if (policy == COPY_NOCACHE_ALWAYS || (policy == COPY_NOCACHE_LARGE && n >= PAGE_SIZE))
		return copy_from_user_nocache(dst, src, n);
	/* lab nocache: end */
	return copy_from_user_partial(dst, src, n);
}

/*
 * Whether index may be looked up or given a page: with within_size, only
 * below i_size (checked under pages_lock, so a truncation either sees the
 * new page or the page fault sees the new size).
 */
static bool
index_allowed(struct inode *inode, u64 index, bool within_size)
{
	return !within_size || index < pages_for(i_size_read(inode));
}

/* The page at index, referenced, or NULL: a reader of pages_lock. */
static struct page *
index_find(struct inode *inode, u64 index, bool within_size)
{
	struct page *page = NULL;

	read_lock(&inode->pages_lock);
	if (index_allowed(inode, index, within_size)) {
		page = page_index_lookup(&inode->pages, index);
		if (page)
			get_page(page);
	}
	read_unlock(&inode->pages_lock);
	return page;
}

/* The page at index, referenced: the one there, or else fresh, put there. NULL if neither. */
static struct page *
index_add(struct inode *inode, u64 index, struct page *fresh, bool within_size)
{
	struct page *page = NULL;

	write_lock(&inode->pages_lock);
	if (index_allowed(inode, index, within_size)) {
		page = page_index_lookup(&inode->pages, index);
		if (!page && page_index_insert(&inode->pages, index, fresh) == 0)
			page = fresh;
		if (page)
			get_page(page);
	}
	write_unlock(&inode->pages_lock);
	return page;
}

struct page *
filemap_get_page(struct inode *inode, u64 index, unsigned how)
{
	struct page *page = index_find(inode, index, how & FGP_WITHIN_SIZE);

	if (page || !(how & FGP_CREATE) || !sb_charge_page(inode->sb))
		return page;
	/* Allocated outside the lock; if another thread won the race, theirs is used. */
	struct page *fresh = alloc_shared_page();
	if (!fresh) {
		sb_uncharge_page(inode->sb);
		return NULL;
	}
	fresh->mapping = inode;
	fresh->index = index;
	page = index_add(inode, index, fresh, how & FGP_WITHIN_SIZE);
	if (page != fresh) {
		fresh->mapping = NULL;
		put_page(fresh);
		sb_uncharge_page(inode->sb);
	}
	return page;
}

/*
 * One lock for the whole run: pages past i_size are not given, so a
 * truncation either took them out first or will unmap what the caller maps
 * (mm/i_mmap.c). A cached page is always up to date here (no backing store
 * to read from), which is what Linux's filemap_map_pages also asks.
 */
unsigned
filemap_get_cached_pages(struct inode *inode, u64 first, unsigned n, struct page **pages)
{
	unsigned found = 0;

	read_lock(&inode->pages_lock);
	u64 below = pages_for(i_size_read(inode));
	for (unsigned i = 0; i < n; i++) {
		pages[i] = first + i < below ? page_index_lookup(&inode->pages, first + i) : NULL;
		if (pages[i]) {
			get_page(pages[i]);
			found++;
		}
	}
	read_unlock(&inode->pages_lock);
	return found;
}

/* Why a new cache page could not be had: the file system is full, or memory is. */
long
filemap_no_page_error(struct inode *inode)
{
	struct super_block *sb = inode->sb;

	return __atomic_load_n(&sb->nr_pages, __ATOMIC_RELAXED) >= sb_max_pages(sb) ? -ENOSPC
										    : -ENOMEM;
}

/* Copies n bytes of a page (or zeros, for a hole: src NULL) to dst + done. */
static int
copy_out(struct read_dest dst, size_t done, const void *src, size_t n)
{
	if (dst.kernel) {
		if (src)
			memcpy(dst.p + done, src, n);
		else
			memset(dst.p + done, 0, n);
		return 0;
	}
	return src ? copy_to_user(dst.p + done, src, n) : clear_user(dst.p + done, n);
}

long
filemap_read(struct inode *inode, struct read_dest dst, size_t n, u64 pos)
{
	u64 size = i_size_read(inode);
	size_t done = 0;

	if (pos >= size)
		return 0;
	n = MIN(n, size - pos);
	while (done < n) {
		u64 at = pos + done;
		size_t offset = at & (PAGE_SIZE - 1);
		size_t chunk = MIN(PAGE_SIZE - offset, n - done);
		struct page *page = filemap_get_page(inode, at >> PAGE_SHIFT, 0);
		int err = copy_out(dst, done, page ? (char *)page_address(page) + offset : NULL,
				   chunk);
		if (page)
			put_page(page);
		if (err)
			return done ? (long)done : err;
		done += chunk;
		if (done < n && fatal_signal_pending())
			return (long)
				done; /* dying: nobody reads the rest (Linux: -EINTR if none) */
	}
	return (long)done;
}

/* After a short copy into [pos, pos + n) of page kaddr: re-zeroes what lies past i_size. */
static void
zero_past_size(struct inode *inode, char *kaddr, u64 pos, size_t n)
{
	u64 size = i_size_read(inode);
	size_t offset = pos & (PAGE_SIZE - 1);

	if (pos + n <= size)
		return;
	size_t skip = pos >= size ? 0 : (size_t)(size - pos);
	memset(kaddr + offset + skip, 0, n - skip);
}

/*
 * A copy that faults part-way keeps what it copied (the copies stop at the
 * exact byte) and ends the write there: a short count, or -EFAULT if not
 * even the first byte came, as Linux's generic_perform_write.
 */
long
generic_perform_write(struct inode *inode, const char __user *buf, size_t n, u64 pos)
{
	size_t done = 0;
	long err = 0;

	while (done < n) {
		size_t offset = pos & (PAGE_SIZE - 1);
		size_t bytes = MIN(PAGE_SIZE - offset, n - done);
		struct page *page = filemap_get_page(inode, pos >> PAGE_SHIFT, FGP_CREATE);
		if (!page) {
			err = filemap_no_page_error(inode);
			break;
		}
		char *kaddr = page_address(page);
		size_t copied = bytes - write_copy(kaddr + offset, buf + done, bytes);
		if (copied < bytes) {
			zero_past_size(inode, kaddr, pos + copied, bytes - copied);
			err = -EFAULT;
		}
		if (copied)
			set_page_dirty(page);
		put_page(page);
		done += copied;
		pos += copied;
		if (pos > i_size_read(inode))
			i_size_write(inode, pos); /* after the data: lockless readers see both */
		if (err)
			break;
		if (done < n && fatal_signal_pending()) {
			err = -EINTR; /* a short write if something was written, as Linux's */
			break;
		}
	}
	if (done)
		inode_touch(inode);
	return done ? (long)done : err;
}

int
filemap_allocate(struct inode *inode, u64 start, u64 end)
{
	for (u64 index = start >> PAGE_SHIFT; index < pages_for(end); index++) {
		struct page *page = filemap_get_page(inode, index, FGP_CREATE);
		if (!page)
			return (int)filemap_no_page_error(inode);
		put_page(page);
		if (fatal_signal_pending())
			return -EINTR;
	}
	return 0;
}

/*
 * Takes page index out of the cache if only the cache holds it (under
 * pages_lock's write side nobody can take a new reference): true if none is left there.
 * A page mapped or being read stays.
 */
static bool
drop_unused_page(struct inode *inode, u64 index)
{
	write_lock(&inode->pages_lock);
	struct page *page = page_index_lookup(&inode->pages, index);
	bool drop = page && page_refcount(page) == 1;
	if (drop) {
		page_index_remove(&inode->pages, index);
		sb_uncharge_page(inode->sb);
	}
	write_unlock(&inode->pages_lock);
	if (drop) {
		page->mapping = NULL;
		put_page(page);
	}
	return !page || drop;
}

void
filemap_punch_hole(struct inode *inode, u64 start, u64 end)
{
	end = MIN(end, i_size_read(inode)); /* past i_size every cached byte is zero already */
	for (u64 at = start; at < end;) {
		size_t offset = at & (PAGE_SIZE - 1);
		size_t chunk = (size_t)MIN(PAGE_SIZE - offset, end - at);
		if (chunk == PAGE_SIZE && drop_unused_page(inode, at >> PAGE_SHIFT)) {
			at += chunk;
			continue;
		}
		struct page *page = filemap_get_page(inode, at >> PAGE_SHIFT, 0);
		if (page) { /* a hole reads as zeros already */
			memset((char *)page_address(page) + offset, 0, chunk);
			set_page_dirty(page);
			put_page(page);
		}
		at += chunk;
	}
}

/* The index of the first page at or after index the cache lacks (pages_lock held, either way). */
static u64
first_absent_page(struct inode *inode, u64 index)
{
	for (u64 next = index; page_index_next(&inode->pages, &next) && next == index;)
		next = ++index;
	return index;
}

s64
filemap_seek_hole_data(struct inode *inode, s64 off, int whence)
{
	u64 size = i_size_read(inode), index = (u64)off >> PAGE_SHIFT, found = index;
	bool any = true;

	if (off < 0 || (u64)off >= size)
		return -ENXIO;
	read_lock(&inode->pages_lock);
	if (whence == SEEK_DATA)
		any = page_index_next(&inode->pages, &found) != NULL;
	else
		found = first_absent_page(inode, index);
	read_unlock(&inode->pages_lock);
	u64 at = found == index ? (u64)off
				: found << PAGE_SHIFT; /* off's own page, or a later one */
	if (whence == SEEK_DATA)
		return any && at < size ? (s64)at : -ENXIO;
	return (s64)MIN(at, size); /* the end of the file is a hole */
}

/* Drops every page at index >= first from the cache. */
static void
drop_pages_from(struct inode *inode, u64 first)
{
	for (;;) {
		u64 index = first;
		write_lock(&inode->pages_lock);
		struct page *page = page_index_next(&inode->pages, &index);
		if (page) {
			page_index_remove(&inode->pages, index);
			sb_uncharge_page(inode->sb);
		}
		write_unlock(&inode->pages_lock);
		if (!page)
			return;
		page->mapping = NULL; /* still mapped somewhere: no longer the file's */
		put_page(page);
		first = index + 1;
	}
}

void
filemap_set_size(struct inode *inode, u64 size)
{
	u64 old = i_size_read(inode);
	size_t tail = size & (PAGE_SIZE - 1);

	i_size_write(inode, size);
	if (size >= old)
		return; /* what lies past the old size is zero already */
	if (tail) {
		struct page *page = filemap_get_page(inode, size >> PAGE_SHIFT, 0);
		if (page) {
			memset((char *)page_address(page) + tail, 0, PAGE_SIZE - tail);
			put_page(page);
		}
	}
	drop_pages_from(inode, pages_for(size));
	unmap_mapping_pages(inode,
			    pages_for(size)); /* mappings drop them too (SIGBUS past the end) */
}

void
filemap_evict(struct inode *inode)
{
	drop_pages_from(inode, 0);
}
