/*
 * replay.c - runs a fuzz target's LLVMFuzzerTestOneInput over files, for a
 * build without libFuzzer (gcc, ASan and UBSan): make test replays each
 * target's seed corpus this way, so that the targets always build and the
 * seeds always pass, and `make fuzz-host` fuzzes with clang's libFuzzer.
 *
 *	replay FILE...     last line: "N passed, N failed" (a crash is a failure by itself)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
main(int argc, char **argv)
{
	int passed = 0, failed = 0;

	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		uint8_t *data = NULL;
		size_t size = 0, cap = 0, n;
		if (!f) {
			printf("  replay: cannot read %s\n", argv[i]);
			failed++;
			continue;
		}
		do {
			if (size == cap)
				data = realloc(data, cap = cap ? 2 * cap : 4096);
			n = fread(data + size, 1, cap - size, f);
			size += n;
		} while (n);
		fclose(f);
		LLVMFuzzerTestOneInput(data, size);
		free(data);
		passed++;
	}
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
