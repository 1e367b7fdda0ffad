/*
 * fuzz_cpio.c - the initrd's archive reader (fs/cpio.c) on arbitrary
 * bytes, fed a few bytes at a time as the fw_cfg stream feeds it: it must
 * never ask its source for bytes past the archive, every entry's data must
 * fit in what is left of it, each name must be a NUL-terminated string of
 * its stated length, and it must end (every entry moves it forward).
 */
#include "tests/fuzz/fuzz_host.h"
#include "kernel/lib/vsprintf.c"
#include "fs/cpio.c"

/* A memory source that hands out at most 7 bytes a read and aborts on a read past the end. */
struct piecewise {
	struct cpio_source src;
	const uint8_t *buf;
	size_t off;
};

static size_t
piecewise_read(struct cpio_source *src, void *buf, size_t n)
{
	struct piecewise *p = (struct piecewise *)src;

	if (n == 0 || p->off + n > p->src.size)
		abort(); /* the reader asked for nothing, or past the archive */
	n = n < 7 ? n : 7;
	memcpy(buf, p->buf + p->off, n);
	p->off += n;
	return n;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *copy = fuzz_copy(data, size);
	struct piecewise p = { { piecewise_read, size }, copy, 0 };
	struct cpio_reader r;
	struct cpio_entry e;
	uint8_t chunk[13];

	cpio_init(&r, &p.src);
	while (cpio_next(&r, &e) == CPIO_ENTRY) {
		if (strlen(e.name) != e.namelen || e.size > size - p.off)
			abort(); /* a name not as stated, or data beyond the archive */
		for (u64 left = e.size; left;) {
			size_t n = left < sizeof(chunk) ? (size_t)left : sizeof(chunk);
			if (cpio_read_data(&r, chunk, n) != CPIO_ENTRY)
				break;
			left -= n;
		}
	}
	free(copy);
	return 0;
}
