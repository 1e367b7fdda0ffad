/*
 * fuzz_cpio.c - the initrd's archive reader (fs/cpio.c) on arbitrary
 * bytes: every entry it hands out must lie inside the archive, and it must
 * end (an entry always moves the cursor forward).
 */
#include "tests/fuzz/fuzz_host.h"
#include "kernel/lib/vsprintf.c"
#include "fs/cpio.c"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *copy = fuzz_copy(data, size);
	struct cpio_reader r;
	struct cpio_entry e;

	cpio_init(&r, copy, size);
	while (cpio_next(&r, &e) == CPIO_ENTRY) {
		const uint8_t *name = (const uint8_t *)e.name, *body = (const uint8_t *)e.data;
		if (name < copy || name > copy + size ||
		    (e.size && (body < copy || body + e.size > copy + size)))
			abort(); /* an entry outside the archive */
	}
	free(copy);
	return 0;
}
