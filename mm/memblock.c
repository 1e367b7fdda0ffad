/*
 * memblock.c - boot-time free-range bookkeeping; see memblock.h.
 *
 * Invariant: free[] is sorted by address, ranges are page-aligned, non-empty
 * and do not touch (adjacent ones are merged). Allocation takes the highest
 * fitting address below the limit, which keeps low memory (needed for DMA
 * and the AP trampoline) for last.
 */
#include "mm/memblock.h"
#include "mm/layout.h"

struct memblock memblock;

void
memblock_reset(struct memblock *mb)
{
	mb->nfree = 0;
	mb->ram_end = 0;
	mb->ram_total = 0;
	mb->overflow = false;
}

static void
remove_at(struct memblock *mb, int i)
{
	for (int j = i; j + 1 < mb->nfree; j++)
		mb->free[j] = mb->free[j + 1];
	mb->nfree--;
}

static bool
insert_at(struct memblock *mb, int i, u64 start, u64 end)
{
	if (mb->nfree == MEMBLOCK_MAX_RANGES) {
		mb->overflow = true;
		return false;
	}
	for (int j = mb->nfree; j > i; j--)
		mb->free[j] = mb->free[j - 1];
	mb->free[i] = (struct mem_range){ start, end };
	mb->nfree++;
	return true;
}

/* Merges range i with its neighbours where they touch or overlap. */
static void
merge_around(struct memblock *mb, int i)
{
	if (i + 1 < mb->nfree && mb->free[i].end >= mb->free[i + 1].start) {
		mb->free[i].end = MAX(mb->free[i].end, mb->free[i + 1].end);
		remove_at(mb, i + 1);
		/*
		 * The call also merges with i - 1, which may leave i past the
		 * end; checking i - 1 again here would remove a stale slot.
		 */
		merge_around(mb, i);
		return;
	}
	if (i > 0 && mb->free[i - 1].end >= mb->free[i].start) {
		mb->free[i - 1].end = MAX(mb->free[i - 1].end, mb->free[i].end);
		remove_at(mb, i);
	}
}

void
memblock_add(struct memblock *mb, u64 start, u64 end)
{
	start = ALIGN_UP(start, PAGE_SIZE);
	end = ALIGN_DOWN(end, PAGE_SIZE);
	if (start >= end)
		return;
	int i = 0;
	while (i < mb->nfree && mb->free[i].start < start)
		i++;
	if (!insert_at(mb, i, start, end))
		return;
	merge_around(mb, i);
	mb->ram_end = MAX(mb->ram_end, end);
	mb->ram_total += end - start;
}

void
memblock_reserve(struct memblock *mb, u64 start, u64 end)
{
	start = ALIGN_DOWN(start, PAGE_SIZE);
	end = ALIGN_UP(end, PAGE_SIZE);
	for (int i = 0; i < mb->nfree && start < end; i++) {
		struct mem_range *r = &mb->free[i];
		if (r->end <= start || r->start >= end)
			continue;
		if (r->start >= start && r->end <= end) { /* swallowed whole */
			remove_at(mb, i--);
		} else if (r->start < start && r->end > end) { /* hole in the middle */
			u64 tail = r->end;
			r->end = start;
			insert_at(mb, i + 1, end, tail);
			return;
		} else if (r->start < start) { /* tail cut off */
			r->end = start;
		} else { /* head cut off */
			r->start = end;
		}
	}
}

u64
memblock_alloc(struct memblock *mb, u64 size, u64 align, u64 limit)
{
	size = ALIGN_UP(size, PAGE_SIZE);
	if (align < PAGE_SIZE)
		align = PAGE_SIZE;
	for (int i = mb->nfree - 1; i >= 0; i--) {
		struct mem_range *r = &mb->free[i];
		u64 top = MIN(r->end, limit);
		if (top < r->start + size)
			continue;
		u64 start = ALIGN_DOWN(top - size, align);
		if (start < r->start)
			continue;
		memblock_reserve(mb, start, start + size);
		return start;
	}
	return 0;
}

u64
memblock_free_bytes(const struct memblock *mb)
{
	u64 total = 0;

	for (int i = 0; i < mb->nfree; i++)
		total += mb->free[i].end - mb->free[i].start;
	return total;
}
