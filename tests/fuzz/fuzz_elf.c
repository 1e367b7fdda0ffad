/*
 * fuzz_elf.c - the ELF checker (kernel/process/elf.c) on arbitrary bytes:
 * it must never read outside the buffer, and whatever it accepts must
 * describe segments inside the file and inside user space.
 */
#include "tests/fuzz/fuzz_host.h"
#include "kernel/process/elf.c"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *copy = fuzz_copy(data, size);
	struct elf_image img;
	const char *why = NULL;

	if (elf_parse(copy, size, size, &img, &why) == 0)
		for (int i = 0; i < img.nsegments; i++)
			if (img.segments[i].offset + img.segments[i].filesz > size)
				abort(); /* accepted a segment past the end of the file */
	free(copy);
	return 0;
}
