/*
 * i_mmap.h - the areas mapping each file (Linux's address_space i_mmap),
 * so that shrinking a file takes its pages out of every address space.
 * See mm/i_mmap.c.
 */
#ifndef REWIND_I_MMAP_H
#define REWIND_I_MMAP_H

#include "mm/vm.h"

struct inode;
struct page;

/*
 * Adds v (a file area: v->file set) to its file's list; vma_new calls it.
 * -EPERM when v could write a file sealed against writes (fs/memfd.c), a
 * seal that came after mmap checked for it.
 */
int i_mmap_link(struct vma *v);
/* Takes v off its file's list; vma_free calls it. */
void i_mmap_unlink(struct vma *v);
/*
 * Whether a shared area that may write maps inode (pages_lock held, either way):
 * F_SEAL_WRITE cannot go on while one does (Linux's mapping_writably_mapped).
 */
bool i_mmap_writable(struct inode *inode);
/* How many areas map inode now (SysV shm's shm_nattch: every attachment, split or forked). */
unsigned i_mmap_count(struct inode *inode);
/*
 * Held by anything that copies or moves the page entries of a file area
 * (fork, mremap), so that a truncation sees them either before or after,
 * never half-way. No-ops for anonymous areas.
 */
void i_mmap_lock(const struct vma *v);
void i_mmap_unlock(const struct vma *v);
/*
 * Whether page, taken from v's file by a fault, is still that file's page
 * (a truncation has not dropped it meanwhile): checked under the page-table
 * lock before the page is mapped.
 */
bool i_mmap_page_current(const struct vma *v, const struct page *page);
/*
 * Takes the file's pages from index first on out of every area mapping it
 * (private copies too, as Linux's unmap_mapping_range with even_cows): an
 * access there faults again, and finds the file's page or SIGBUS past its
 * end. The caller holds inode->lock and has already dropped the pages from
 * the cache.
 */
void unmap_mapping_pages(struct inode *inode, u64 first);

#endif
