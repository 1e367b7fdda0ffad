/*
 * statx.h - statx(2)'s structure and request bits, Linux's x86-64 layout
 * (linux/stat.h). musl 1.2.3 has no statx; glibc's <sys/stat.h> has it
 * under _GNU_SOURCE, so a user file that includes this one leaves that out.
 */
#ifndef REWIND_UAPI_STATX_H
#define REWIND_UAPI_STATX_H

/* What the caller asks for (mask) and what the answer holds (stx_mask). */
#define STATX_TYPE	  0x00000001U
#define STATX_MODE	  0x00000002U
#define STATX_NLINK	  0x00000004U
#define STATX_UID	  0x00000008U
#define STATX_GID	  0x00000010U
#define STATX_ATIME	  0x00000020U
#define STATX_MTIME	  0x00000040U
#define STATX_CTIME	  0x00000080U
#define STATX_INO	  0x00000100U
#define STATX_SIZE	  0x00000200U
#define STATX_BLOCKS	  0x00000400U
#define STATX_BASIC_STATS 0x000007ffU /* everything struct stat has */
#define STATX_BTIME	  0x00000800U
#define STATX__RESERVED	  0x80000000U /* must be clear: EINVAL */

/* statx's flags besides the AT_* path ones: how fresh the answer must be. */
#define AT_STATX_SYNC_TYPE  0x6000
#define AT_STATX_FORCE_SYNC 0x2000
#define AT_STATX_DONT_SYNC  0x4000

struct kernel_statx_timestamp {
	long long tv_sec;
	unsigned int tv_nsec;
	int __reserved;
};

struct kernel_statx {
	unsigned int stx_mask;
	unsigned int stx_blksize;
	unsigned long long stx_attributes;
	unsigned int stx_nlink;
	unsigned int stx_uid;
	unsigned int stx_gid;
	unsigned short stx_mode;
	unsigned short __spare0;
	unsigned long long stx_ino;
	unsigned long long stx_size;
	unsigned long long stx_blocks;
	unsigned long long stx_attributes_mask;
	struct kernel_statx_timestamp stx_atime, stx_btime, stx_ctime, stx_mtime;
	unsigned int stx_rdev_major, stx_rdev_minor;
	unsigned int stx_dev_major, stx_dev_minor;
	unsigned long long stx_mnt_id;
	unsigned int stx_dio_mem_align, stx_dio_offset_align;
	unsigned long long __spare3[12];
};

#endif
