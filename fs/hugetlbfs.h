/*
 * hugetlbfs.h - files whose pages are huge pages (fs/hugetlbfs.c): the
 * files of mount -t hugetlbfs, and the nameless ones behind MAP_HUGETLB,
 * memfd_create's MFD_HUGETLB and shmget's SHM_HUGETLB. mm/hugetlb.c maps
 * them; the calls here are the file's side of a mapping.
 */
#ifndef REWIND_HUGETLBFS_H
#define REWIND_HUGETLBFS_H

#include "fs/vfs.h"

extern struct fs_type hugetlbfs_type;

/* Registers the type and makes the nameless files' instance (vfs_init). */
void hugetlbfs_init(void);

/* A new regular file of a hugetlbfs instance (ramfs_new_inode makes its files so); NULL. */
struct inode *hugetlbfs_new_inode(struct super_block *sb, u32 mode);
bool is_hugetlbfs_inode(const struct inode *inode);
/* A new regular file of size bytes on the nameless files' instance, the caller's; NULL. */
struct inode *hugetlbfs_nameless_inode(u64 size);
/*
 * A nameless file of huge pages, size bytes (a multiple of 2 MiB), open
 * read-write: its dentry is named name and marked deleted, as memfd's.
 * 0 or -errno.
 */
int hugetlbfs_file_setup(const char *name, size_t len, u64 size, struct file **out);
/*
 * A new mapping of len bytes (2 MiB multiples) of f from page pgoff: the
 * checks and the reservations of Linux's hugetlbfs_file_mmap (a shared
 * mapping's go to the file, a private one's to its area: VM_HUGE_RESV),
 * and a writable mapping grows the file to its end. 0, -EINVAL for an
 * offset that is no 2 MiB multiple, -ENOMEM when the pool cannot back it.
 * hugetlbfs_mmap_abandon gives a private one's back if the area is not
 * made after all.
 */
int hugetlbfs_mmap_prepare(struct file *f, u64 pgoff, u64 len, u32 vmflags);
void hugetlbfs_mmap_abandon(u64 len, u32 vmflags);
/* The file's size in huge pages, rounded up. */
u64 hugetlbfs_size_pages(struct inode *inode);
/*
 * Huge page idx of the file with a reference, made (zeroed) if the file
 * has none yet: FAULT_OK, or FAULT_BUS past its end or with no pool page to take.
 */
enum fault_result hugetlbfs_get_page(struct inode *inode, u64 idx, struct page **out);
/* Huge page idx if the file has it, referenced; else NULL. */
struct page *hugetlbfs_find_page(struct inode *inode, u64 idx);

#endif
