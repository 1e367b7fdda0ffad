/*
 * cpio.h - reading a cpio "newc" archive (the initrd format, as Linux's
 * initramfs), one entry at a time, from a byte source: a memory buffer (a
 * boot module) or a device read in order (fw_cfg, fs/initrd_fw_cfg.c).
 *
 * The archive is read once, front to back, never held whole: cpio_next()
 * reads a header and name, cpio_read_data() then hands the entry's data to
 * where it belongs (page-cache pages), piece by piece; what the caller
 * leaves unread, the next cpio_next() reads past.
 *
 * Every field is checked before it is trusted: the magic, each 8-digit hex
 * field, the name's size and terminating NUL, the 4-byte padding, the
 * file data staying inside the archive (its size is known up front), the
 * checksum of "070702" archives (summed as the data goes by, compared at
 * its last byte), and the TRAILER!!! entry that ends the archive. On a bad
 * entry the reader stops with a message naming the entry (by number,
 * offset and, when it could be read, name) and what is wrong with it.
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

/* Where the archive's bytes come from, in order. */
struct cpio_source {
	/* Copies 1 to n (> 0) of the next bytes to buf: how many, or 0 if it failed. */
	size_t (*read)(struct cpio_source *src, void *buf, size_t n);
	size_t size; /* of the whole archive: the reader never asks past it */
};

/* A source over an archive in memory. */
struct cpio_memory {
	struct cpio_source src;
	const u8 *buf;
	size_t off;
};

struct cpio_entry {
	const char *name; /* NUL-terminated, in the reader: valid until cpio_next() */
	size_t namelen;	  /* without the NUL */
	u32 ino, mode, uid, gid, nlink, mtime;
	u32 devmajor, devminor, rdevmajor, rdevminor;
	u64 size; /* of the data, read by cpio_read_data() */
};

struct cpio_reader {
	struct cpio_source *src;
	size_t pos;    /* bytes taken from the source */
	size_t off;    /* of the current entry's header */
	u64 data_left; /* of the current entry's data, not read yet */
	bool has_checksum;
	u32 sum, check;	  /* of the data read so far; what the header says */
	unsigned number;  /* of the current entry, from 1 */
	unsigned entries; /* read so far, the trailer not counted */
	char name[CPIO_NAME_MAX];
	char error[192]; /* why the reader failed; empty until it does */
};

enum cpio_status {
	CPIO_ENTRY, /* *e describes the next entry */
	CPIO_END,   /* the trailer: the archive is complete */
	CPIO_ERROR, /* r->error says what is wrong; stop here */
};

struct cpio_source *cpio_memory_source(struct cpio_memory *m, const void *buf, size_t size);
void cpio_init(struct cpio_reader *r, struct cpio_source *src);
enum cpio_status cpio_next(struct cpio_reader *r, struct cpio_entry *e);
/*
 * Reads the next n bytes (at most what is left) of the current entry's data
 * into buf: CPIO_ENTRY, or CPIO_ERROR when the source fails or, at the last
 * byte of a 070702 entry, the checksum does not match.
 */
enum cpio_status cpio_read_data(struct cpio_reader *r, void *buf, size_t n);

#endif
