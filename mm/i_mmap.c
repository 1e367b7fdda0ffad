/*
 * i_mmap.c - the areas mapping each file (Linux's address_space i_mmap).
 *
 * A page-cache file keeps the list of every area, in every address space,
 * that maps it (inode->i_mmap, changed under inode->pages_lock's write
 * side, walked under either). Truncation walks
 * it to take the pages past the new end out of each mapping: without it a
 * shared mapping would keep the dropped pages, reading the old data and
 * writing where the file no longer looks (docs/robustness.md, review 2 row 7).
 *
 * Races with the page-table writers that do not hold pages_lock:
 *   - a fault took its page before the truncation dropped it: it checks,
 *     under the page-table lock, that the page is still the file's
 *     (i_mmap_page_current) - either the check sees page->mapping cleared,
 *     or the zap, which takes the same lock after clearing it, removes the
 *     entry the fault installed;
 *   - fork and mremap copy or move existing entries: they hold pages_lock
 *     to read meanwhile (i_mmap_lock; they change neither the list nor the
 *     index, and need only keep the truncation's walk, a writer, before or
 *     after), so forks of one file's mappers do not wait for each other.
 * An area's range may change under the walk (split, merge, growth), but
 * always so that every page stays covered by some listed area: a split
 * lists the new upper part before the lower one shrinks, a merge grows one
 * area before the other leaves the list.
 */
#include "mm/i_mmap.h"
#include "fs/vfs.h"
#include "mm/page_alloc.h"
#include "mm/vm_internal.h"

static struct inode *
area_inode(const struct vma *v)
{
	return v->file ? v->file->inode : NULL;
}

static bool
shared_may_write(const struct vma *v)
{
	return (v->flags & (VM_SHARED | VM_MAYWRITE)) == (VM_SHARED | VM_MAYWRITE);
}

int
i_mmap_link(struct vma *v)
{
	struct inode *inode = area_inode(v);
	int err = 0;

	write_lock(&inode->pages_lock);
	if (shared_may_write(v) && (inode->seals & F_SEAL_WRITE))
		err = -EPERM;
	else
		hlist_add_head(&v->shared, &inode->i_mmap);
	write_unlock(&inode->pages_lock);
	return err;
}

bool
i_mmap_writable(struct inode *inode)
{
	struct hlist_node *pos;

	hlist_for_each(pos, &inode->i_mmap)
	{
		if (shared_may_write(container_of(pos, struct vma, shared)))
			return true;
	}
	return false;
}

unsigned
i_mmap_count(struct inode *inode)
{
	struct hlist_node *pos;
	unsigned n = 0;

	read_lock(&inode->pages_lock);
	hlist_for_each(pos, &inode->i_mmap) n++;
	read_unlock(&inode->pages_lock);
	return n;
}

void
i_mmap_unlink(struct vma *v)
{
	struct inode *inode = area_inode(v);

	write_lock(&inode->pages_lock);
	hlist_del(&v->shared);
	write_unlock(&inode->pages_lock);
}

void
i_mmap_lock(const struct vma *v)
{
	if (v->file)
		read_lock(&area_inode(v)->pages_lock);
}

void
i_mmap_unlock(const struct vma *v)
{
	if (v->file)
		read_unlock(&area_inode(v)->pages_lock);
}

bool
i_mmap_page_current(const struct vma *v, const struct page *page)
{
	return READ_ONCE(page->mapping) == area_inode(v);
}

/* The part of v showing file pages first and beyond, zapped. */
static void
zap_pages_from(struct vma *v, u64 first)
{
	u64 npages = (v->end - v->start) >> PAGE_SHIFT;
	u64 skip = first > v->pgoff ? first - v->pgoff : 0;

	if (skip < npages)
		zap_range(v->mm, v, v->start + (skip << PAGE_SHIFT), v->end);
}

void
unmap_mapping_pages(struct inode *inode, u64 first)
{
	struct hlist_node *pos;

	write_lock(&inode->pages_lock);
	hlist_for_each(pos, &inode->i_mmap)
		zap_pages_from(container_of(pos, struct vma, shared), first);
	write_unlock(&inode->pages_lock);
}
