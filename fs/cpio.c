/*
 * cpio.c - the cpio newc reader; see cpio.h.
 *
 * An entry is a 110-byte header of ASCII ("070701", then thirteen 8-digit
 * hex fields), the name with its NUL, padding to a multiple of 4, the file
 * data, padding to a multiple of 4. Offsets are checked against the size
 * before every step, in an order where each check relies only on what the
 * previous ones proved, and with arithmetic that cannot overflow (sizes are
 * compared with what is left, never added to an offset first).
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

void
cpio_init(struct cpio_reader *r, const void *buf, size_t size)
{
	r->buf = buf;
	r->size = size;
	r->off = 0;
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
			      "entry %u '%.64s' at offset %zu: ", r->entries + 1, name, r->off);
	else
		n = ksnprintf(r->error, sizeof(r->error),
			      "entry %u at offset %zu: ", r->entries + 1, r->off);
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

static u32
byte_sum(const u8 *p, u64 n)
{
	u32 sum = 0;

	while (n--)
		sum += *p++;
	return sum;
}

/* Checks the header at r->off and parses its fields: CPIO_ENTRY, or CPIO_ERROR. */
static enum cpio_status
read_header(struct cpio_reader *r, u32 *f)
{
	const u8 *h = r->buf + r->off;
	size_t left = r->size - r->off;
	char text[9];

	if (left < CPIO_HEADER_SIZE)
		return fail(r, NULL, "header truncated (%zu of %d bytes)", left, CPIO_HEADER_SIZE);
	if (memcmp(h, "070701", 6) != 0 && memcmp(h, "070702", 6) != 0) {
		printable(h, 6, text);
		return fail(r, NULL, "bad magic '%s' (expected 070701 or 070702)", text);
	}
	for (int i = 0; i < NFIELDS; i++) {
		if (!parse_hex8(h + 6 + 8 * i, &f[i])) {
			printable(h + 6 + 8 * i, 8, text);
			return fail(r, NULL, "field %s is '%s', not 8 hex digits", field_names[i],
				    text);
		}
	}
	return CPIO_ENTRY;
}

enum cpio_status
cpio_next(struct cpio_reader *r, struct cpio_entry *e)
{
	u32 f[NFIELDS];

	if (r->off >= r->size)
		return fail(r, NULL, "the archive ends (after %u entries) without %s", r->entries,
			    CPIO_TRAILER);
	if (read_header(r, f) == CPIO_ERROR)
		return CPIO_ERROR;
	bool has_checksum = r->buf[r->off + 5] == '2'; /* "070702" */

	/* The name: inside the archive, NUL-terminated exactly at its stated size. */
	size_t name_off = r->off + CPIO_HEADER_SIZE;
	size_t left = r->size - name_off;
	u32 namesize = f[F_NAMESIZE];
	if (namesize == 0)
		return fail(r, NULL, "name size is 0");
	if (namesize > CPIO_NAME_MAX)
		return fail(r, NULL, "name size %u exceeds %d", namesize, CPIO_NAME_MAX);
	if (namesize > left)
		return fail(r, NULL,
			    "name (%u bytes) runs past the end of the archive (%zu bytes left)",
			    namesize, left);
	const char *name = (const char *)r->buf + name_off;
	if (name[namesize - 1] != '\0' || strnlen(name, namesize) != namesize - 1)
		return fail(r, NULL, "name is not a string of %u bytes ending in NUL",
			    namesize - 1);

	/* The data: after padding the header and name to 4 bytes, inside the archive. */
	size_t data_off = ALIGN_UP(name_off + namesize, 4);
	if (data_off > r->size)
		return fail(r, name, "padding after the name runs past the end of the archive");
	left = r->size - data_off;
	u64 size = f[F_FILESIZE];
	if (size > left)
		return fail(
			r, name,
			"file data (%lu bytes) runs past the end of the archive (%zu bytes left)",
			(unsigned long)size, left);
	const u8 *data = r->buf + data_off;
	u32 sum;
	if (has_checksum && (sum = byte_sum(data, size)) != f[F_CHECK])
		return fail(r, name, "checksum %#x does not match the data's %#x", f[F_CHECK], sum);

	if (strcmp(name, CPIO_TRAILER) == 0)
		return CPIO_END;
	*e = (struct cpio_entry){
		.name = name,
		.namelen = namesize - 1,
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
		.data = data,
		.size = size,
	};
	r->entries++;
	/* The next header follows the data's padding; past the end, the next call says so. */
	r->off = data_off + size + (-(data_off + size) & 3);
	return CPIO_ENTRY;
}
