/*
 * objcount.h - how many of each long-lived kernel object exist: tasks,
 * address spaces, VMAs, open files, inodes and dentries. Each is counted
 * where it is allocated and freed, so that a test can take the counts
 * before some work and check that they come back afterwards - the leak
 * check of make test (/proc/objects, user/bin/leakcheck.c), which names
 * the kind of object that leaked instead of a number of bytes.
 */
#ifndef REWIND_OBJCOUNT_H
#define REWIND_OBJCOUNT_H

#include "kernel/lib/types.h"

enum obj_kind { OBJ_TASK, OBJ_MM, OBJ_VMA, OBJ_FILE, OBJ_INODE, OBJ_DENTRY, NR_OBJ_KINDS };

/*
 * Page-table pages of the kernel half (vmap'd stacks, the kmap area), made
 * when an address there is first mapped and kept for the next mapping, as
 * Linux keeps them: a high-water mark, not a leak. /proc/objects leaves
 * them out of its page count.
 */
extern u64 kernel_page_table_pages;
/*
 * Page-table pages of every user address space below its top level (the
 * sum of their VmPTE, mm->pgtables): /proc/meminfo's PageTables.
 */
extern u64 user_page_table_pages;

extern u64 objcount[NR_OBJ_KINDS];
extern const char *const objcount_names[NR_OBJ_KINDS];

static inline void
objcount_created(enum obj_kind k)
{
	__atomic_fetch_add(&objcount[k], 1, __ATOMIC_RELAXED);
}

static inline void
objcount_freed(enum obj_kind k)
{
	__atomic_fetch_sub(&objcount[k], 1, __ATOMIC_RELAXED);
}

#endif
