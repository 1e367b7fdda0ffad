/*
 * magic.h - the file-system types statfs(2) reports in f_type, with
 * Linux's values (linux/magic.h). A header of its own: libc has no such
 * names, so user programs may include it next to <sys/vfs.h>.
 */
#ifndef REWIND_UAPI_MAGIC_H
#define REWIND_UAPI_MAGIC_H

#define MQUEUE_MAGIC	    0x19800202 /* the POSIX message queues' file system */
#define TMPFS_MAGIC	    0x01021994 /* tmpfs, and Linux's rootfs and devtmpfs */
#define PROC_SUPER_MAGIC    0x9fa0
#define SYSFS_MAGIC	    0x62656572
#define HUGETLBFS_MAGIC	    0x958458f6 /* hugetlbfs (fs/hugetlbfs.c) */
#define PIPEFS_MAGIC	    0x50495045
#define SOCKFS_MAGIC	    0x534f434b
#define NSFS_MAGIC	    0x6e736673
#define RAMFS_MAGIC	    0x858458f6
#define ANON_INODE_FS_MAGIC 0x09041934

#endif
