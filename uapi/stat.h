/*
 * stat.h - what stat(2), fstat(2), lstat(2) and newfstatat(2) write, the
 * file types of st_mode and of getdents64's d_type, and utimensat's UTIME_*: Linux x86-64's
 * (arch/x86/include/uapi/asm/stat.h, linux/stat.h, linux/fs_types.h).
 * The structure is struct kernel_stat, not struct stat, so that it can sit
 * next to libc's; the S_IF* and DT_* macros are libc's too, so user code
 * takes them from <sys/stat.h> and <dirent.h>.
 */
#ifndef REWIND_UAPI_STAT_H
#define REWIND_UAPI_STAT_H

/* File types and permission bits of st_mode. */
#define S_IFMT	    0170000
#define S_IFSOCK    0140000
#define S_IFLNK	    0120000
#define S_IFREG	    0100000
#define S_IFBLK	    0060000
#define S_IFDIR	    0040000
#define S_IFCHR	    0020000
#define S_IFIFO	    0010000
#define S_ISREG(m)  (((m)&S_IFMT) == S_IFREG)
#define S_ISDIR(m)  (((m)&S_IFMT) == S_IFDIR)
#define S_ISCHR(m)  (((m)&S_IFMT) == S_IFCHR)
#define S_ISBLK(m)  (((m)&S_IFMT) == S_IFBLK)
#define S_ISFIFO(m) (((m)&S_IFMT) == S_IFIFO)
#define S_ISLNK(m)  (((m)&S_IFMT) == S_IFLNK)
#define S_ISSOCK(m) (((m)&S_IFMT) == S_IFSOCK)

/* The file type as getdents64 reports it in d_type (libc: <dirent.h>). */
#define DT_UNKNOWN 0
#define DT_FIFO	   1
#define DT_CHR	   2
#define DT_DIR	   4
#define DT_REG	   8
#define DT_LNK	   10

/* struct stat of x86-64 Linux: 144 bytes. */
struct kernel_stat {
	unsigned long st_dev;
	unsigned long st_ino;
	unsigned long st_nlink;
	unsigned int st_mode;
	unsigned int st_uid;
	unsigned int st_gid;
	unsigned int __pad0;
	unsigned long st_rdev;
	long st_size;
	long st_blksize;
	long st_blocks; /* 512-byte units */
	unsigned long st_atime, st_atime_nsec;
	unsigned long st_mtime, st_mtime_nsec;
	unsigned long st_ctime, st_ctime_nsec;
	long __unused[3];
};

/* The mode bits chown clears, and the write bits utimensat's "now" checks (linux/stat.h). */
#define S_ISUID 04000
#define S_ISGID 02000
#define S_ISVTX 01000
#define S_IXGRP 00010
#define S_IWUSR 00200
#define S_IWGRP 00020
#define S_IWOTH 00002

/* utimensat's special tv_nsec values (linux/stat.h). */
#define UTIME_NOW  ((1l << 30) - 1l)
#define UTIME_OMIT ((1l << 30) - 2l)

#endif
