/*
 * statfs.h - what statfs(2) and fstatfs(2) write: Linux x86-64's struct
 * statfs (asm-generic/statfs.h, with long words), as struct kernel_statfs
 * so that it can sit next to libc's <sys/vfs.h>, and the ST_* bits of its
 * f_flags (linux/statfs.h; ST_VALID says the field is filled in).
 */
#ifndef REWIND_UAPI_STATFS_H
#define REWIND_UAPI_STATFS_H

struct kernel_statfs {
	long f_type; /* TMPFS_MAGIC ... (uapi/magic.h) */
	long f_bsize;
	unsigned long f_blocks, f_bfree, f_bavail; /* in f_frsize units */
	unsigned long f_files, f_ffree;
	struct {
		int val[2];
	} f_fsid;
	long f_namelen;
	long f_frsize;
	long f_flags; /* ST_* */
	long f_spare[4];
};

#define ST_RDONLY   0x0001
#define ST_NOSUID   0x0002
#define ST_NODEV    0x0004
#define ST_NOEXEC   0x0008
#define ST_VALID    0x0020
#define ST_NOATIME  0x0400
#define ST_RELATIME 0x1000

#endif
