/*
 * dirent.h - the record getdents64(2) writes: Linux's struct
 * linux_dirent64, here struct kernel_dirent64. libc shows directories
 * through its own struct dirent (a fixed-size d_name): a user program
 * that reads the raw records includes this header. The d_type values are
 * in uapi/stat.h (libc: <dirent.h>).
 */
#ifndef REWIND_UAPI_DIRENT_H
#define REWIND_UAPI_DIRENT_H

/* One record per entry, 8-byte aligned; d_reclen is the whole record. */
struct kernel_dirent64 {
	unsigned long d_ino;
	long d_off; /* position of the next entry */
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

#endif
