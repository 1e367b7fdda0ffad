/*
 * test_sysfuzz_report.c - sysfuzz's sealed call counts (user/suites/sysfuzz/report.c)
 * on the host: a worker's report opens to its count with its own key only,
 * and what a fuzzed call could write over it - zeros, one bit changed, the
 * random bytes of the worker's scratch memory (the garbage of issue 24's
 * round 4) - does not open.
 */
#include "tests/unit/unit.h"
#include "user/suites/sysfuzz/report.c"

/* The worker's scratch filler (user/suites/sysfuzz/args.c's rng_next), for garbage. */
static uint64_t
scratch_word(uint64_t *state)
{
	*state ^= *state >> 12;
	*state ^= *state << 25;
	*state ^= *state >> 27;
	return *state * 0x2545f4914f6cdd1dull;
}

static const uint64_t keys[] = { 1, 0x6b6579736b657973ull, 0xd7662833586976cfull, ~0ull };
#define NKEYS (sizeof(keys) / sizeof(keys[0]))

UNIT_TEST(a_report_opens_to_its_count_with_its_key)
{
	static const uint32_t counts[] = { 0, 1, 2, 4095, 100000, 5000000, UINT32_MAX - 1 };

	for (unsigned k = 0; k < NKEYS; k++)
		for (unsigned i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
			uint64_t r = seal_report(counts[i], keys[k]);
			CHECK_EQ(open_report(r, keys[k]), (int64_t)counts[i]);
			CHECK_EQ(open_report(r, keys[(k + 1) % NKEYS]), -1);
		}
}

UNIT_TEST(a_report_with_one_bit_changed_does_not_open)
{
	for (unsigned k = 0; k < NKEYS; k++) {
		uint64_t r = seal_report(12345, keys[k]);
		for (unsigned bit = 0; bit < 64; bit++)
			CHECK_EQ(open_report(r ^ (1ull << bit), keys[k]), -1);
	}
}

UNIT_TEST(zeros_and_scratch_bytes_do_not_open)
{
	uint64_t state = 0xd7662833586976cfull | 1;
	unsigned opened = 0;

	for (unsigned k = 0; k < NKEYS; k++) {
		CHECK_EQ(open_report(0, keys[k]), -1);
		CHECK_EQ(open_report(6099362119053488894ull, keys[k]), -1); /* round 4's count */
		for (unsigned i = 0; i < 200000; i++)
			opened += open_report(scratch_word(&state), keys[k]) >= 0;
	}
	CHECK_EQ(opened, 0u); /* 800,000 tries at 2^-32 each */
}
