/*
 * vm_usage.h - what /proc reports of an address space: its size, its
 * resident pages by kind, and the program layout exec recorded. Plain
 * figures, so that the /proc formatters (and their host tests) need no mm.
 */
#ifndef REWIND_VM_USAGE_H
#define REWIND_VM_USAGE_H

#include "kernel/lib/types.h"

struct mm;

struct vm_usage {
	u64 total_pages;  /* every area (VmSize) */
	u64 locked_pages; /* VM_LOCKED areas: mlock, MAP_LOCKED, mlockall (VmLck) */
	u64 rss_anon, rss_file,
		rss_shmem;	  /* resident pages: private, page cache, shared anonymous */
	u64 data_pages;		  /* private writable areas but the stack (VmData) */
	u64 stack_pages;	  /* the [stack] area (VmStk) */
	u64 exec_pages;		  /* executable, unwritable areas (VmExe + VmLib) */
	u64 pgtable_pages;	  /* user page-table pages (VmPTE) */
	u64 start_code, end_code; /* and the rest as struct mm names them */
	u64 start_data, end_data;
	u64 start_brk, brk, start_stack;
	u64 arg_start, arg_end, env_start, env_end, auxv_start, auxv_end;
};

/* Fills u from mm; takes mm's mmap lock for reading (sleeps). */
void vm_usage(struct mm *mm, struct vm_usage *u);

#endif
