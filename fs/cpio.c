/*
 * cpio.c - the cpio newc reader; see cpio.h.
 *
 * An entry is a 110-byte header of ASCII ("070701", then thirteen 8-digit
 * hex fields), the name with its NUL, padding to a multiple of 4, the file
 * data, padding to a multiple of 4. Offsets are checked against the size
 * before every step, in an order where each check relies only on what the
 * previous ones proved, and with arithmetic that cannot overflow (sizes are
 * compared with what is left, never added to an offset first). The bytes
 * come from the source in order, each exactly once: a header and a name
 * are read into the reader, the data straight to where the caller wants it.
 */
#include "fs/cpio.h"
#include "kernel/lib/string.h"
#include "kernel/lib/vsprintf.h"

enum {
	F_INO,
	F_MODE,
	F_UID,
	F_GID,
	F_NLINK,
	F_MTIME,
	F_FILESIZE,
	F_DEVMAJOR,
	F_DEVMINOR,
	F_RDEVMAJOR,
	F_RDEVMINOR,
	F_NAMESIZE,
	F_CHECK,
	NFIELDS
};

static const char *const field_names[NFIELDS] = {
	"ino",	    "mode",	"uid",	     "gid",	  "nlink",    "mtime", "filesize",
	"devmajor", "devminor", "rdevmajor", "rdevminor", "namesize", "check",
};

static size_t
memory_read(struct cpio_source *src, void *buf, size_t n)
{
	struct cpio_memory *m = (struct cpio_memory *)src;

	memcpy(buf, m->buf + m->off, n);
	m->off += n;
	return n;
}

struct cpio_source *
cpio_memory_source(struct cpio_memory *m, const void *buf, size_t size)
{
	*m = (struct cpio_memory){ .src = { .read = memory_read, .size = size }, .buf = buf };
	return &m->src;
}

void
cpio_init(struct cpio_reader *r, struct cpio_source *src)
{
	r->src = src;
	r->pos = 0;
	r->off = 0;
	r->data_left = 0;
	r->number = 0;
	r->entries = 0;
	r->error[0] = '\0';
}

/* Records why the entry at r->off is bad; name is NULL until it has been validated. */
static enum cpio_status __printf(3, 4)
	fail(struct cpio_reader *r, const char *name, const char *fmt, ...)
{
	int n;
	va_list ap;

	if (name)
		n = ksnprintf(r->error, sizeof(r->error),
			      "entry %u '%.64s' at offset %zu: ", r->number, name, r->off);
	else
		n = ksnprintf(r->error, sizeof(r->error), "entry %u at offset %zu: ", r->number,
			      r->off);
	if ((size_t)n < sizeof(r->error)) {
		va_start(ap, fmt);
		kvsnprintf(r->error + n, sizeof(r->error) - n, fmt, ap);
		va_end(ap);
	}
	return CPIO_ERROR;
}

static int
hex_digit(u8 c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Parses the eight hex digits at s; false if any is not a hex digit. */
static bool
parse_hex8(const u8 *s, u32 *out)
{
	u32 v = 0;

	for (int i = 0; i < 8; i++) {
		int d = hex_digit(s[i]);
		if (d < 0)
			return false;
		v = v << 4 | (u32)d;
	}
	*out = v;
	return true;
}

/* n bytes of header as printable text, for the message about a bad field. */
static void
printable(const u8 *s, size_t n, char *out)
{
	for (size_t i = 0; i < n; i++)
		out[i] = s[i] >= 0x20 && s[i] < 0x7f ? (char)s[i] : '?';
	out[n] = '\0';
}

/* Takes the next n bytes (inside the archive: the callers checked) from the source. */
static enum cpio_status
take(struct cpio_reader *r, void *buf, size_t n)
{
	u8 *p = buf;

	while (n) {
		size_t got = r->src->read(r->src, p, n);
		if (!got || got > n)
			return fail(r, r->name[0] ? r->name : NULL,
				    "the archive could not be read at offset %zu", r->pos);
		r->pos += got;
		p += got;
		n -= got;
	}
	return CPIO_ENTRY;
}

enum cpio_status
cpio_read_data(struct cpio_reader *r, void *buf, size_t n)
{
	const u8 *p = buf;

	n = (size_t)MIN((u64)n, r->data_left);
	if (take(r, buf, n) == CPIO_ERROR)
		return CPIO_ERROR;
	r->data_left -= n;
	for (size_t i = 0; r->has_checksum && i < n; i++) /* a byte loop: only when needed */
		r->sum += p[i];
	if (!r->data_left && r->has_checksum && r->sum != r->check)
		return fail(r, r->name, "checksum %#x does not match the data's %#x", r->check,
			    r->sum);
	return CPIO_ENTRY;
}

/* Reads past what is left of the current entry's data (checking it) and its padding. */
static enum cpio_status
finish_entry(struct cpio_reader *r)
{
	u8 scratch[256];

	while (r->data_left)
		if (cpio_read_data(r, scratch, sizeof(scratch)) == CPIO_ERROR)
			return CPIO_ERROR;
	return take(r, scratch, MIN(-r->pos & 3, r->src->size - r->pos));
}

/* Checks the header at r->off and parses its fields: CPIO_ENTRY, or CPIO_ERROR. */
static enum cpio_status
read_header(struct cpio_reader *r, u32 *f)
{
	u8 h[CPIO_HEADER_SIZE];
	size_t left = r->src->size - r->off;
	char text[9];

	if (left < CPIO_HEADER_SIZE)
		return fail(r, NULL, "header truncated (%zu of %d bytes)", left, CPIO_HEADER_SIZE);
	if (take(r, h, CPIO_HEADER_SIZE) == CPIO_ERROR)
		return CPIO_ERROR;
	if (memcmp(h, "070701", 6) != 0 && memcmp(h, "070702", 6) != 0) {
		printable(h, 6, text);
		return fail(r, NULL, "bad magic '%s' (expected 070701 or 070702)", text);
	}
	r->has_checksum = h[5] == '2';
	for (int i = 0; i < NFIELDS; i++) {
		if (!parse_hex8(h + 6 + 8 * i, &f[i])) {
			printable(h + 6 + 8 * i, 8, text);
			return fail(r, NULL, "field %s is '%s', not 8 hex digits", field_names[i],
				    text);
		}
	}
	return CPIO_ENTRY;
}

/* Reads the name and its padding into r->name: CPIO_ENTRY, or CPIO_ERROR. */
static enum cpio_status
read_name(struct cpio_reader *r, u32 namesize)
{
	size_t left = r->src->size - r->pos;
	u8 pad[3];

	if (namesize == 0)
		return fail(r, NULL, "name size is 0");
	if (namesize > CPIO_NAME_MAX)
		return fail(r, NULL, "name size %u exceeds %d", namesize, CPIO_NAME_MAX);
	if (namesize > left)
		return fail(r, NULL,
			    "name (%u bytes) runs past the end of the archive (%zu bytes left)",
			    namesize, left);
	if (take(r, r->name, namesize) == CPIO_ERROR)
		return CPIO_ERROR;
	if (r->name[namesize - 1] != '\0' || strnlen(r->name, namesize) != namesize - 1) {
		r->name[0] = '\0';
		return fail(r, NULL, "name is not a string of %u bytes ending in NUL",
			    namesize - 1);
	}
	/* The data starts after padding the header and name to 4 bytes, inside the archive. */
	size_t padding = -r->pos & 3;
	if (padding > r->src->size - r->pos)
		return fail(r, r->name, "padding after the name runs past the end of the archive");
	return take(r, pad, padding);
}

enum cpio_status
cpio_next(struct cpio_reader *r, struct cpio_entry *e)
{
	u32 f[NFIELDS];

	if (r->error[0] || finish_entry(r) == CPIO_ERROR)
		return CPIO_ERROR;
	r->off = r->pos;
	r->number = r->entries + 1;
	r->name[0] = '\0';
	if (r->off >= r->src->size)
		return fail(r, NULL, "the archive ends (after %u entries) without %s", r->entries,
			    CPIO_TRAILER);
	if (read_header(r, f) == CPIO_ERROR || read_name(r, f[F_NAMESIZE]) == CPIO_ERROR)
		return CPIO_ERROR;

	size_t left = r->src->size - r->pos;
	u64 size = f[F_FILESIZE];
	if (size > left)
		return fail(
			r, r->name,
			"file data (%lu bytes) runs past the end of the archive (%zu bytes left)",
			(unsigned long)size, left);
	r->data_left = size;
	r->sum = 0;
	r->check = f[F_CHECK];

	if (strcmp(r->name, CPIO_TRAILER) == 0)
		return finish_entry(r) == CPIO_ERROR ? CPIO_ERROR : CPIO_END;
	*e = (struct cpio_entry){
		.name = r->name,
		.namelen = f[F_NAMESIZE] - 1,
		.ino = f[F_INO],
		.mode = f[F_MODE],
		.uid = f[F_UID],
		.gid = f[F_GID],
		.nlink = f[F_NLINK],
		.mtime = f[F_MTIME],
		.devmajor = f[F_DEVMAJOR],
		.devminor = f[F_DEVMINOR],
		.rdevmajor = f[F_RDEVMAJOR],
		.rdevminor = f[F_RDEVMINOR],
		.size = size,
	};
	r->entries++;
	return CPIO_ENTRY;
}
