/*
 * test_uaccess.c - host tests of the user-copy routines of mm/uaccess.c,
 * the cached (rep movs) and the non-temporal (movnti) one, run on this
 * CPU: every size from 0 to a few hundred bytes and the sizes around the
 * 64-byte blocks and pages, at every alignment of source and destination
 * mod 8, against memcpy; and real faults. A PROT_NONE page stands for the
 * bad user page: the SIGSEGV handler below does what kernel/x86/traps.c
 * does, moving rip to the fixup that mm/extable.c finds for it, so a
 * fault part-way must leave exactly the bytes before the bad page copied,
 * nothing after them touched, and return the count of the rest.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <sys/mman.h>
#include <ucontext.h>
#include "tests/unit/unit.h"
#include "mm/uaccess.c"
#include "mm/extable.c"

/* The host linker names the table's ends after its section; the kernel's linker.ld otherwise. */
__asm__(".globl __start_ex_table\n.set __start_ex_table, __start___ex_table\n"
	".globl __stop_ex_table\n.set __stop_ex_table, __stop___ex_table\n");

#define PAGE 4096

typedef size_t (*copy_fn)(void *dst, const void *src, size_t n);

static const struct {
	const char *name;
	copy_fn copy;
} routines[] = {
	{ "rep movs", copy_user_raw },
	{ "movnti", copy_user_nocache_raw },
};

static int fixups; /* faults the handler sent to a fixup */

static void
on_segv(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;
	struct trap_frame f = { .rip = (u64)uc->uc_mcontext.gregs[REG_RIP] };

	if (!extable_fixup(&f))
		abort(); /* a fault outside the table: the kernel would die here */
	uc->uc_mcontext.gregs[REG_RIP] = (greg_t)f.rip;
	fixups++;
}

static void
catch_faults(void)
{
	struct sigaction sa = { .sa_sigaction = on_segv, .sa_flags = SA_SIGINFO };

	sigaction(SIGSEGV, &sa, NULL);
}

/* Three pages: two good, the third PROT_NONE. */
static u8 *
good_then_bad(void)
{
	u8 *p = mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED || mprotect(p + 2 * PAGE, PAGE, PROT_NONE))
		abort();
	return p;
}

static void
fill(u8 *p, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (u8)(i * 31 + seed * 7 + (i >> 8));
}

static bool
all_bytes_are(const u8 *p, u8 c, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != c)
			return false;
	return true;
}

static u8 src_buf[3 * PAGE + 64], dst_buf[3 * PAGE + 64], want[3 * PAGE + 64];

/* One copy of n bytes at the given alignments; the bytes around dst must stay. */
static bool
copies_like_memcpy(copy_fn copy, size_t n, size_t src_off, size_t dst_off)
{
	fill(src_buf, sizeof(src_buf), (unsigned)n);
	memset(dst_buf, 0xa5, sizeof(dst_buf));
	memcpy(want, dst_buf, sizeof(want));
	memcpy(want + dst_off, src_buf + src_off, n);
	return copy(dst_buf + dst_off, src_buf + src_off, n) == 0 &&
	       memcmp(dst_buf, want, sizeof(want)) == 0;
}

UNIT_TEST(copies_every_small_size_at_every_alignment)
{
	for (size_t r = 0; r < ARRAY_SIZE(routines); r++)
		for (size_t n = 0; n <= 300; n++)
			for (size_t s = 0; s < 8; s++)
				for (size_t d = 0; d < 8; d++)
					if (!copies_like_memcpy(routines[r].copy, n, s, d)) {
						printf("    %s: n %zu src+%zu dst+%zu\n",
						       routines[r].name, n, s, d);
						CHECK(false);
						return;
					}
}

UNIT_TEST(copies_pages_and_block_edges)
{
	static const size_t sizes[] = { 63,  64,   65,	 127,  128,  129,  511,
					512, 4095, 4096, 4097, 8191, 8192, 3 * PAGE };

	for (size_t r = 0; r < ARRAY_SIZE(routines); r++)
		for (size_t i = 0; i < ARRAY_SIZE(sizes); i++)
			for (size_t s = 0; s < 16; s += 3)
				for (size_t d = 0; d < 16; d += 5) {
					size_t n = MIN(sizes[i], sizeof(src_buf) - 16);
					CHECK(copies_like_memcpy(routines[r].copy, n, s, d));
				}
}

/*
 * Reading from p + start, len bytes, where the bad page begins at 2 * PAGE:
 * the bytes before it arrive, nothing after them is written, and the
 * count of the rest comes back.
 */
static bool
stops_at_the_fault(copy_fn copy, u8 *p, size_t start, size_t len, size_t dst_off)
{
	size_t good = 2 * PAGE - start;

	memset(dst_buf, 0x5a, sizeof(dst_buf));
	size_t left = copy(dst_buf + dst_off, p + start, len);
	return left == len - good && memcmp(dst_buf + dst_off, p + start, good) == 0 &&
	       all_bytes_are(dst_buf + dst_off + good, 0x5a, len - good) &&
	       all_bytes_are(dst_buf, 0x5a, dst_off);
}

UNIT_TEST(a_fault_part_way_returns_what_was_not_copied)
{
	u8 *p = good_then_bad();

	fill(p, 2 * PAGE, 3);
	catch_faults();
	for (size_t r = 0; r < ARRAY_SIZE(routines); r++) {
		int before = fixups;
		/* The fault in the byte loop, the quadwords, the blocks, the alignment bytes. */
		for (size_t good = 0; good <= 200; good++)
			for (size_t d = 0; d < 8; d++)
				if (!stops_at_the_fault(routines[r].copy, p, 2 * PAGE - good,
							good + 300, d)) {
					printf("    %s: %zu good bytes, dst+%zu\n",
					       routines[r].name, good, d);
					CHECK(false);
					goto next;
				}
		CHECK(stops_at_the_fault(routines[r].copy, p, 0, 3 * PAGE, 0));
		CHECK(stops_at_the_fault(routines[r].copy, p, 5, 2 * PAGE, 3));
		CHECK(fixups > before);
	next:;
	}
}

UNIT_TEST(a_bad_destination_faults_too)
{
	u8 *p = good_then_bad();

	fill(src_buf, sizeof(src_buf), 9);
	catch_faults();
	for (size_t r = 0; r < ARRAY_SIZE(routines); r++)
		for (size_t good = 0; good < 80; good += 7) {
			memset(p, 0, 2 * PAGE);
			CHECK_EQ(routines[r].copy(p + 2 * PAGE - good, src_buf, 500), 500 - good);
			CHECK(memcmp(p + 2 * PAGE - good, src_buf, good) == 0);
		}
}

UNIT_TEST(the_checked_entries_refuse_kernel_addresses)
{
	u8 buf[16];

	CHECK_EQ(copy_from_user_partial(buf, (const void *)(USER_TOP - 4), 16), 16);
	CHECK_EQ(copy_from_user_nocache(buf, (const void *)(USER_TOP - 4), 16), 16);
	CHECK_EQ(copy_from_user_nocache(buf, (const void *)~0ul, 1), 1);
	fill(src_buf, 16, 1);
	CHECK_EQ(copy_from_user_nocache(buf, src_buf, 16), 0);
	CHECK(memcmp(buf, src_buf, 16) == 0);
}
