/*
 * report.c - sysfuzz: the sealed word in which a worker reports its call
 * count to the parent (sysfuzz.h says why it is sealed).
 *
 * The seal is the high half of a multiply-xorshift hash of the count and
 * the worker's key: a fuzzed call that writes bytes of its own choosing
 * (the worker's random scratch contents, zeros, a path) over the word
 * matches it once in 2^32 tries, and it cannot compute one, since the key
 * is nowhere in what it writes.
 */
#include "sysfuzz.h"

static uint32_t
seal_of(uint32_t calls, uint64_t key)
{
	uint64_t h = (calls ^ key) * 0x9e3779b97f4a7c15ull;

	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ull;
	return (uint32_t)(h >> 32);
}

uint64_t
seal_report(uint32_t calls, uint64_t key)
{
	return (uint64_t)seal_of(calls, key) << 32 | calls;
}

int64_t
open_report(uint64_t report, uint64_t key)
{
	uint32_t calls = (uint32_t)report;

	return (uint32_t)(report >> 32) == seal_of(calls, key) ? (int64_t)calls : -1;
}
