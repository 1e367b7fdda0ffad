/*
 * cpio.h - reading a cpio "newc" archive (the initrd format, as Linux's
 * initramfs), one entry at a time, from a byte buffer.
 *
 * Every field is checked before it is trusted: the magic, each 8-digit hex
 * field, the name's size and terminating NUL, the 4-byte padding, the
 * file data staying inside the archive, the checksum of "070702" archives,
 * and the TRAILER!!! entry that ends the archive. On a bad entry
 * cpio_next() stops with a message naming the entry (by number, offset
 * and, when it could be read, name) and what is wrong with it.
 *
 * What it is not for: creating files. fs/initrd.c decides what each entry
 * becomes. Hardware-free: tests/unit/test_cpio.c runs it unchanged.
 */
#ifndef REWIND_CPIO_H
#define REWIND_CPIO_H

#include "kernel/lib/types.h"

#define CPIO_HEADER_SIZE 110
#define CPIO_NAME_MAX	 4096 /* PATH_MAX, NUL included */
#define CPIO_TRAILER	 "TRAILER!!!"

struct cpio_entry {
	const char *name; /* NUL-terminated, inside the archive */
	size_t namelen;	  /* without the NUL */
	u32 ino, mode, uid, gid, nlink, mtime;
	u32 devmajor, devminor, rdevmajor, rdevminor;
	const u8 *data; /* inside the archive */
	u64 size;
};

struct cpio_reader {
	const u8 *buf;
	size_t size;
	size_t off;	  /* of the next header */
	unsigned entries; /* read so far, the trailer not counted */
	char error[192];  /* why cpio_next() returned CPIO_ERROR */
};

enum cpio_status {
	CPIO_ENTRY, /* *e describes the next entry */
	CPIO_END,   /* the trailer: the archive is complete */
	CPIO_ERROR, /* r->error says what is wrong; stop here */
};

void cpio_init(struct cpio_reader *r, const void *buf, size_t size);
enum cpio_status cpio_next(struct cpio_reader *r, struct cpio_entry *e);

#endif
