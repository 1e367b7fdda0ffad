/*
 * test_cpio.c - host tests for the cpio newc reader (fs/cpio.c).
 *
 * A small builder writes archives the way `cpio -H newc` does (header,
 * name, padding, data, padding, TRAILER!!!); every archive is handed to the
 * reader as a malloc'd copy of exactly its size, so ASan catches any read
 * past the end, and twice: through the memory source, and through a source
 * that gives its bytes in odd small pieces (as a device read through a
 * buffer may), with the data asked for in odd pieces too; both readings
 * must agree. Besides well-formed archives, every truncation point of one
 * archive, each kind of garbled header, random byte flips and a source
 * that fails part-way are tried: the reader must stop with a message
 * naming the entry and the problem, after returning only entries whose
 * header, name and data size were intact (a 070702 entry's checksum is
 * only known once its data has streamed by: that error comes after it).
 */
#include <ctype.h>
#include "kernel/lib/types.h"
#include "tests/unit/unit.h"
#include "fs/cpio.c"

static u8 arc[1 << 16];
static size_t arc_len;
static u8 *copy;
static size_t data_end; /* of the entry added last, before its padding */

static void
begin(void)
{
	memset(arc, 0, sizeof(arc));
	arc_len = 0;
}

static void
pad4(void)
{
	while (arc_len & 3)
		arc[arc_len++] = 0;
}

/* Appends one entry; magic "070701" or "070702" (then with the right checksum). */
static size_t
add_magic(const char *magic, const char *name, u32 mode, const void *data, size_t size)
{
	size_t start = arc_len;
	u32 sum = 0;

	for (size_t i = 0; i < size; i++)
		sum += ((const u8 *)data)[i];
	arc_len += snprintf((char *)arc + arc_len, sizeof(arc) - arc_len,
			    "%s%08X%08X%08X%08X%08X%08X%08zX%08X%08X%08X%08X%08zX%08X", magic, 7u,
			    mode, 0u, 0u, 1u, 1700000000u, size, 0u, 0u, 0u, 0u, strlen(name) + 1,
			    magic[5] == '2' ? sum : 0u);
	memcpy(arc + arc_len, name, strlen(name) + 1);
	arc_len += strlen(name) + 1;
	pad4();
	memcpy(arc + arc_len, data, size);
	arc_len += size;
	data_end = arc_len;
	pad4();
	return start;
}

static size_t
add(const char *name, u32 mode, const char *data)
{
	return add_magic("070701", name, mode, data, strlen(data));
}

static void
trailer(void)
{
	add("TRAILER!!!", 0, "");
}

static struct cpio_reader r;

/* A source giving the archive 1, 2, 3, ... 7 bytes at a time, and failing at fail_at. */
struct piece_source {
	struct cpio_source src;
	const u8 *buf;
	size_t off, fail_at;
	unsigned calls;
};

static size_t
piece_read(struct cpio_source *src, void *buf, size_t n)
{
	struct piece_source *p = (struct piece_source *)src;
	size_t piece = 1 + p->calls++ % 7;
	size_t give = MIN(n, piece);

	if (p->off + give > p->fail_at)
		return 0;
	memcpy(buf, p->buf + p->off, give);
	p->off += give;
	return give;
}

/* Reads every entry, its data in odd-sized requests; the entries read before the end or error. */
static unsigned
read_from(struct cpio_source *src, enum cpio_status *last)
{
	struct cpio_entry e;
	enum cpio_status st;
	u8 data[64];

	cpio_init(&r, src);
	while ((st = cpio_next(&r, &e)) == CPIO_ENTRY) {
		for (size_t ask = 3; r.data_left; ask = ask % 11 + 2)
			if (cpio_read_data(&r, data, ask) == CPIO_ERROR)
				break;
	}
	*last = st;
	return r.entries;
}

/* Reads the first len bytes of the archive both ways, which must agree. */
static unsigned
read_all(size_t len, enum cpio_status *last)
{
	static char first_error[sizeof(r.error)];
	struct cpio_memory m;
	struct piece_source p;
	enum cpio_status st;

	free(copy);
	copy = malloc(len ? len : 1);
	memcpy(copy, arc, len);
	p = (struct piece_source){ .src = { .read = piece_read, .size = len },
				   .buf = copy,
				   .fail_at = SIZE_MAX };
	unsigned pieces = read_from(&p.src, &st);
	memcpy(first_error, r.error, sizeof(first_error));
	unsigned whole = read_from(cpio_memory_source(&m, copy, len), last);
	if (pieces != whole || st != *last || strcmp(first_error, r.error) != 0)
		printf("    in pieces: %u entries, '%s'\n    whole:     %u entries, '%s'\n", pieces,
		       first_error, whole, r.error);
	CHECK_EQ(pieces, whole);
	CHECK_EQ(st, *last);
	return whole;
}

static bool
says(const char *what)
{
	if (strstr(r.error, what))
		return true;
	printf("    error was: %s\n    expected:  %s\n", r.error, what);
	return false;
}

UNIT_TEST(well_formed_archive_reads_back)
{
	struct cpio_entry e;

	begin();
	add(".", 040755, "");
	add("bin", 040755, "");
	add("bin/sh", 0100755, "#!not really a shell\n");
	add("etc/motd", 0100644, "hello\n");
	add("empty", 0100600, "");
	trailer();

	struct cpio_memory m;
	char data[32];
	cpio_init(&r, cpio_memory_source(&m, arc, arc_len));
	CHECK_EQ(cpio_next(&r, &e), CPIO_ENTRY);
	CHECK_STR(e.name, ".");
	CHECK_EQ(e.mode, 040755);
	CHECK_EQ(cpio_next(&r, &e), CPIO_ENTRY);
	CHECK_STR(e.name, "bin");
	CHECK_EQ(e.namelen, 3);
	CHECK_EQ(cpio_next(&r, &e), CPIO_ENTRY);
	CHECK_STR(e.name, "bin/sh");
	CHECK_EQ(e.mode, 0100755);
	CHECK_EQ(e.size, 21);
	CHECK_EQ(cpio_read_data(&r, data, 5), CPIO_ENTRY);
	CHECK_EQ(cpio_read_data(&r, data + 5, sizeof(data)), CPIO_ENTRY); /* no further than 21 */
	CHECK(memcmp(data, "#!not really a shell\n", 21) == 0);
	CHECK_EQ(r.data_left, 0);
	CHECK_EQ(e.mtime, 1700000000u);
	CHECK_EQ(e.ino, 7);
	CHECK_EQ(e.nlink, 1);
	CHECK_EQ(cpio_next(&r, &e), CPIO_ENTRY);
	CHECK_STR(e.name, "etc/motd");
	CHECK_EQ(e.size, 6); /* its data left unread: the next entry reads past it */
	CHECK_EQ(cpio_next(&r, &e), CPIO_ENTRY);
	CHECK_STR(e.name, "empty");
	CHECK_EQ(e.size, 0);
	CHECK_EQ(cpio_next(&r, &e), CPIO_END);
	CHECK_EQ(r.entries, 5);
}

UNIT_TEST(every_name_and_data_length_pads_correctly)
{
	static const char letters[] = "abcdefghijklmnopqrstuvwxyz";
	enum cpio_status st;
	char name[16];

	begin();
	for (int n = 1; n <= 9; n++) {
		for (int d = 0; d <= 9; d++) {
			snprintf(name, sizeof(name), "%.*s", n, letters);
			add_magic("070701", name, 0100644, letters, d);
		}
	}
	trailer();
	CHECK_EQ(read_all(arc_len, &st), 90);
	CHECK_EQ(st, CPIO_END);
	/* Hex digits may be in either case. */
	for (size_t i = 6; i < CPIO_HEADER_SIZE; i++)
		arc[i] = (u8)tolower(arc[i]);
	CHECK_EQ(read_all(arc_len, &st), 90);
	CHECK_EQ(st, CPIO_END);
}

UNIT_TEST(crc_archives_are_checked)
{
	enum cpio_status st;

	begin();
	add_magic("070702", "a", 0100644, "payload", 7);
	trailer();
	CHECK_EQ(read_all(arc_len, &st), 1);
	CHECK_EQ(st, CPIO_END);
	arc[CPIO_HEADER_SIZE + 4 + 2] ^= 1;  /* a data byte */
	CHECK_EQ(read_all(arc_len, &st), 1); /* known bad once its data went by */
	CHECK_EQ(st, CPIO_ERROR);
	CHECK(says("entry 1 'a' at offset 0: checksum"));

	/* Read by the caller, the last piece of data says so; left unread, the next entry does. */
	struct cpio_memory m;
	struct cpio_entry e;
	char data[7];
	cpio_init(&r, cpio_memory_source(&m, arc, arc_len));
	CHECK_EQ(cpio_next(&r, &e), CPIO_ENTRY);
	CHECK_EQ(cpio_read_data(&r, data, 6), CPIO_ENTRY);
	CHECK_EQ(cpio_read_data(&r, data + 6, 1), CPIO_ERROR);
	CHECK(says("entry 1 'a' at offset 0: checksum"));
	CHECK_EQ(cpio_next(&r, &e), CPIO_ERROR); /* and it stays stopped */

	/* The trailer's data is summed too. */
	begin();
	add_magic("070702", "a", 0100644, "payload", 7);
	add_magic("070702", "TRAILER!!!", 0, "x", 1);
	arc[arc_len - 4] = 'y';
	CHECK_EQ(read_all(arc_len, &st), 1);
	CHECK(says("entry 2 'TRAILER!!!' at offset 120: checksum"));
}

UNIT_TEST(a_source_that_fails_stops_the_reader)
{
	struct piece_source p;
	enum cpio_status st;

	begin();
	add("dir", 040755, "");
	add("dir/file", 0100644, "some contents here");
	trailer();
	for (size_t at = 0; at < arc_len; at++) {
		p = (struct piece_source){ .src = { .read = piece_read, .size = arc_len },
					   .buf = arc,
					   .fail_at = at };
		read_from(&p.src, &st);
		CHECK_EQ(st, CPIO_ERROR);
		CHECK(strstr(r.error, "the archive could not be read at offset") != NULL);
		if (unit_failures_in_test) {
			printf("    failing at %zu: '%s'\n", at, r.error);
			break;
		}
	}
	p = (struct piece_source){ .src = { .read = piece_read, .size = arc_len },
				   .buf = arc,
				   .fail_at = 116 + CPIO_HEADER_SIZE + 12 + 4 };
	read_from(&p.src, &st);
	CHECK(says("entry 2 'dir/file' at offset 116: the archive could not be read at offset"));
}

UNIT_TEST(every_truncation_stops_with_an_error)
{
	enum cpio_status st;
	size_t ends[4];

	begin();
	add("dir", 040755, "");
	ends[0] = data_end;
	add("dir/file", 0100644, "some contents here");
	ends[1] = data_end;
	add("x", 0100644, "y");
	ends[2] = data_end;
	trailer();
	ends[3] = data_end;

	for (size_t len = 0; len < arc_len; len++) {
		unsigned expect = len >= ends[2] ? 3 : len >= ends[1] ? 2 : len >= ends[0] ? 1 : 0;
		unsigned got = read_all(len, &st);
		/* An entry whose data is whole counts (only its padding may be cut off). */
		CHECK_EQ(got, expect);
		CHECK_EQ(st, len >= ends[3] ? CPIO_END : CPIO_ERROR);
		CHECK(r.error[0] != '\0');
		if (unit_failures_in_test) {
			printf("    at length %zu\n", len);
			break;
		}
	}
	CHECK_EQ(read_all(ends[3], &st), 3);
	CHECK_EQ(st, CPIO_END);

	read_all(0, &st);
	CHECK(says("entry 1 at offset 0: the archive ends (after 0 entries) without TRAILER!!!"));
	read_all(50, &st);
	CHECK(says("entry 1 at offset 0: header truncated (50 of 110 bytes)"));
	read_all(116 + CPIO_HEADER_SIZE + 3, &st);
	CHECK(says("entry 2 at offset 116: name (9 bytes) runs past the end"));
	read_all(116 + CPIO_HEADER_SIZE + 10 + 5, &st);
	CHECK(says(
		"entry 2 'dir/file' at offset 116: file data (18 bytes) runs past the end of the archive (5 bytes left)"));
	read_all(ends[2], &st);
	CHECK(says("the archive ends (after 3 entries) without TRAILER!!!"));
}

UNIT_TEST(garbled_headers_are_named)
{
	static const struct {
		size_t at;
		const char *bytes;
		const char *says;
	} cases[] = {
		{ 0, "070707", "entry 2 at offset 124: bad magic '070707'" },
		{ 0,
		  "\x01\x02"
		  "0701",
		  "bad magic '??0701'" },
		{ 6, "0000000g", "field ino is '0000000g', not 8 hex digits" },
		{ 6 + 8 * 6, "-0000001", "field filesize is '-0000001'" },
		{ 6 + 8 * 11, "0000 009", "field namesize is '0000 009'" },
		{ 6 + 8 * 11, "00000000", "entry 2 at offset 124: name size is 0" },
		{ 6 + 8 * 11, "00001001", "name size 4097 exceeds 4096" },
		{ 6 + 8 * 11, "0000FFFF", "name size 65535 exceeds 4096" },
		{ 6 + 8 * 11, "00000008", "name is not a string of 7 bytes ending in NUL" },
		{ 6 + 8 * 11, "0000000A", "name is not a string of 9 bytes ending in NUL" },
		{ 6 + 8 * 6, "FFFFFFFF",
		  "entry 2 'dir/file' at offset 124: file data (4294967295 bytes) runs past" },
		{ CPIO_HEADER_SIZE + 3, "\0", "name is not a string of 8 bytes ending in NUL" },
	};
	enum cpio_status st;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		begin();
		add("first", 0100644, "1234567");
		size_t second = add("dir/file", 0100644, "x");
		trailer();
		memcpy(arc + second + cases[i].at, cases[i].bytes,
		       strlen(cases[i].bytes) ? strlen(cases[i].bytes) : 1);
		CHECK_EQ(read_all(arc_len, &st), 1);
		CHECK_EQ(st, CPIO_ERROR);
		CHECK(says(cases[i].says));
	}
}

UNIT_TEST(data_past_the_end_of_a_tiny_archive)
{
	enum cpio_status st;

	/* The name's padding itself is missing: the header ends the buffer but for the name. */
	begin();
	add("ab", 0100644, "");
	CHECK_EQ(read_all(CPIO_HEADER_SIZE + 3, &st), 0);
	CHECK(says("entry 1 'ab' at offset 0: padding after the name runs past the end"));
}

UNIT_TEST(random_corruption_never_reads_outside_the_archive)
{
	static u8 good[4096];
	size_t good_len;
	enum cpio_status st;

	begin();
	add(".", 040755, "");
	add("usr", 040755, "");
	add("usr/bin", 040755, "");
	add("usr/bin/tool", 0100755,
	    "\x7f"
	    "ELF and then some bytes of a program");
	add("readme", 0100644, "read me\n");
	trailer();
	good_len = arc_len;
	memcpy(good, arc, good_len);

	rng_state = 0x123456789abcdeful;
	int errors = 0;
	for (int round = 0; round < 5000; round++) {
		memcpy(arc, good, good_len);
		for (int flips = 1 + (int)(rng() % 4); flips > 0; flips--) {
			size_t at = rng() % good_len;
			arc[at] = rng() % 2 ? (u8)rng() : "0123456789ABCDEFabcdef"[rng() % 22];
		}
		size_t len = rng() % 8 ? good_len : rng() % good_len;
		read_all(len, &st);
		if (st == CPIO_ERROR) {
			errors++;
			CHECK(strstr(r.error, "entry ") == r.error);
		}
	}
	CHECK(errors > 0);
}
