/*
 * fhandle.h - name_to_handle_at(2) and open_by_handle_at(2)'s handle:
 * Linux x86-64's struct file_handle (linux/fs.h) and the sizes and types
 * of linux/exportfs.h that user space meets.
 */
#ifndef REWIND_UAPI_FHANDLE_H
#define REWIND_UAPI_FHANDLE_H

/* The longest handle any file system gives (handle_bytes above it: EINVAL). */
#define MAX_HANDLE_SZ 128

/* handle_type values: what the file system's bytes mean. */
#define FILEID_INO32_GEN 1    /* an inode number and a generation (tmpfs's, with 64-bit numbers) */
#define FILEID_INVALID	 0xff /* no handle: it would not fit in handle_bytes */

struct kernel_file_handle {
	unsigned int handle_bytes; /* in: room in f_handle; out: the bytes used or needed */
	int handle_type;
	unsigned char f_handle[]; /* opaque to user space */
};

#endif
