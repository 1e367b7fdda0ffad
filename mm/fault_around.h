/*
 * fault_around.h - mapping the cached neighbours of a file page on a read
 * fault (Linux's fault-around). See mm/fault_around.c.
 */
#ifndef REWIND_FAULT_AROUND_H
#define REWIND_FAULT_AROUND_H

#include "mm/vm.h"

/*
 * On a read fault at va (page-aligned, its entry empty) in the file area
 * v: maps the pages of the fault_around_bytes window around va that the
 * file's cache already holds into the entries still empty. Whether va's
 * own page went in (else the ordinary fault brings it, or SIGBUS). mmap_lock
 * held for reading.
 */
bool fault_around(struct mm *mm, struct vma *v, u64 va);

#endif
