/*
 * fuzz_multiboot2.c - the boot-information parser (kernel/multiboot2.c) on
 * arbitrary bytes, as a loader could hand them over: the structure's own
 * total_size is made the input's size (a loader states it; the kernel
 * cannot check it against anything), and the parser must stay inside it.
 */
#include "tests/fuzz/fuzz_host.h"
#include "kernel/multiboot2.c"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct boot_info info;
	uint32_t total = (uint32_t)size;

	if (size < 8)
		return 0;
	uint8_t *copy = fuzz_copy(data, size);
	memcpy(copy, &total, sizeof(total));
	(void)mb2_parse(copy, 0x100000, &info);
	free(copy);
	return 0;
}
