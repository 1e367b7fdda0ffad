/*
 * free.c - memory use from /proc/meminfo, in KiB, laid out like `free -k`.
 *
 * used = total - free - buffers - cached; "available" is the kernel's
 * MemAvailable when it has one, else free. Swap is shown if the kernel
 * reports it.
 */
#include <err.h>
#include <stdio.h>

#include "lib/procfile.h"

static unsigned long long
kib(const char *text, const char *key, unsigned long long fallback)
{
	unsigned long long v;

	return field_ull(text, key, &v) == 0 ? v : fallback;
}

int
main(void)
{
	char text[8192];
	unsigned long long total, mfree, buffers, cached, shared, avail, used;

	if (read_text_file("/proc/meminfo", text, sizeof(text)) < 0)
		err(1, "/proc/meminfo");
	if (field_ull(text, "MemTotal", &total) < 0)
		errx(1, "/proc/meminfo has no MemTotal line");
	mfree = kib(text, "MemFree", 0);
	buffers = kib(text, "Buffers", 0);
	cached = kib(text, "Cached", 0);
	shared = kib(text, "Shmem", 0);
	avail = kib(text, "MemAvailable", mfree);
	used = total - mfree - buffers - cached;
	if (mfree + buffers + cached > total)
		used = 0;
	printf("%-7s %12s %12s %12s %12s %12s %12s\n", "", "total", "used", "free", "shared",
	       "buff/cache", "available");
	printf("%-7s %12llu %12llu %12llu %12llu %12llu %12llu\n", "Mem:", total, used, mfree,
	       shared, buffers + cached, avail);
	if (find_field(text, "SwapTotal")) {
		unsigned long long st = kib(text, "SwapTotal", 0), sf = kib(text, "SwapFree", 0);

		printf("%-7s %12llu %12llu %12llu\n", "Swap:", st, st - sf, sf);
	}
	return 0;
}
