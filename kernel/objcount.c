/*
 * objcount.c - the counters of objcount.h and their names, as /proc/objects
 * prints them.
 */
#include "kernel/objcount.h"

u64 objcount[NR_OBJ_KINDS];
u64 kernel_page_table_pages;
u64 user_page_table_pages;

const char *const objcount_names[NR_OBJ_KINDS] = {
	[OBJ_TASK] = "tasks", [OBJ_MM] = "mms",	      [OBJ_VMA] = "vmas",
	[OBJ_FILE] = "files", [OBJ_INODE] = "inodes", [OBJ_DENTRY] = "dentries",
};
