/*
 * vmap.c - kernel stacks with guard pages, and MMIO mappings; see vmap.h.
 *
 * The vmap region is split in two halves:
 *   - stack slots: slot i spans KSTACK_SLOT bytes at VMAP_BASE + i * KSTACK_SLOT,
 *     its first page never mapped (the guard) and the stack above it;
 *   - MMIO and vmalloc: handed out upwards by one bump pointer, with an
 *     unmapped page between areas. MMIO is never taken back (devices live
 *     as long as the machine); vfree returns the pages but not the
 *     addresses, which is fine for the few boot-time buffers that use it.
 *
 * Freeing a stack (Linux's cached stacks, NR_CACHED_STACKS in
 * kernel/fork.c, and its lazy vmap purge): unmapping a stack at once costs
 * a TLB shootdown on every CPU, an IPI round each thread's end waits for.
 * So a freed stack goes one of two ways instead:
 *   - into the cache, while it has room: the stack stays mapped in its
 *     slot, and the next kstack_alloc zeroes it and hands it out - no page
 *     allocated, nothing mapped, nothing flushed. Its guard page was never
 *     mapped, so an overflow of a reused stack faults like a new one's.
 *   - into the lazy batch: its pages are unmapped now (this CPU's TLB
 *     forgets them) but other CPUs may keep stale entries for them. Such an
 *     entry is harmless while nothing it points at is reused: its task is
 *     dead and off its CPU, so nobody touches the addresses, and neither
 *     the slot (the addresses) nor the pages go back until the flush. When
 *     KSTACK_LAZY stacks wait, one shootdown covers them all; then their
 *     pages go back to the page allocator and their slots are free.
 * A kstack_alloc that finds no slot or no page purges both and tries once
 * more, so the stacks kept are never what runs the machine out.
 */
#include "mm/vmap.h"
#include "mm/kstack_static.h"
#include "mm/page_alloc.h"
#include "mm/paging.h"
#include "kernel/printk.h"
#include "kernel/x86/smp.h"
#include "kernel/lib/string.h"
#include "locking/spinlock.h"

#define KSTACK_PAGES  ((int)(KSTACK_SIZE / PAGE_SIZE))
#define KSTACK_SLOT   (KSTACK_SIZE + PAGE_SIZE)
#define MMIO_BASE     (VMAP_BASE + VMAP_SIZE / 2)
#define KSTACK_CACHED 16 /* freed stacks kept mapped for the next ones */
#define KSTACK_LAZY   32 /* unmapped stacks that wait for one shootdown */

/* A stack unmapped but perhaps still in other CPUs' TLBs: what it held until the flush. */
struct lazy_stack {
	int slot;
	phys_addr_t pages[KSTACK_PAGES]; /* 0: was not mapped */
};

static u64 slot_used[KSTACK_SLOTS / 64];
static struct spinlock kstack_lock = SPINLOCK_INIT("kstack");
static u64 cached_stacks[KSTACK_CACHED]; /* tops; kstack_lock */
static int nr_cached;
static struct lazy_stack lazy_stacks[KSTACK_LAZY]; /* kstack_lock */
static int nr_lazy;
static u64 mmio_next = MMIO_BASE;
static struct spinlock mmio_lock = SPINLOCK_INIT("vmap-area");

extern struct static_stack __start_static_stacks[], __stop_static_stacks[];

static int
slot_claim(void)
{
	u64 flags = spin_lock_irqsave(&kstack_lock);
	for (int w = 0; w < KSTACK_SLOTS / 64; w++) {
		if (slot_used[w] == ~0ul)
			continue;
		int bit = __builtin_ctzl(~slot_used[w]);
		slot_used[w] |= 1ul << bit;
		spin_unlock_irqrestore(&kstack_lock, flags);
		return w * 64 + bit;
	}
	spin_unlock_irqrestore(&kstack_lock, flags);
	return -1;
}

static void
slot_release(int slot)
{
	u64 flags = spin_lock_irqsave(&kstack_lock);
	slot_used[slot / 64] &= ~(1ul << (slot % 64));
	spin_unlock_irqrestore(&kstack_lock, flags);
}

static u64
slot_stack_bottom(int slot)
{
	return VMAP_BASE + (u64)slot * KSTACK_SLOT + PAGE_SIZE;
}

/* Unmaps [start, start + len), shoots the range down on every CPU, then frees the pages. */
static void
unmap_and_free(u64 start, u64 len)
{
	pte_t old[KSTACK_SIZE / PAGE_SIZE];
	u64 done = 0;

	while (done < len) { /* in batches, so the page list fits on the stack */
		u64 n = MIN((len - done) / PAGE_SIZE, (u64)ARRAY_SIZE(old));
		for (u64 i = 0; i < n; i++)
			old[i] = unmap_kernel_page(start + done + i * PAGE_SIZE);
		tlb_flush_kernel_range(start + done, start + done + n * PAGE_SIZE);
		for (u64 i = 0; i < n; i++)
			if (pte_val(old[i]) & PTE_PRESENT)
				free_page_virt(phys_to_virt(pte_val(old[i]) & PTE_ADDR_MASK));
		done += n * PAGE_SIZE;
	}
}

static int
stack_slot(u64 top)
{
	return (int)((top - KSTACK_SIZE - PAGE_SIZE - VMAP_BASE) / KSTACK_SLOT);
}

/* A fresh slot with newly allocated pages mapped in it: its top, or 0. */
static u64
map_new_stack(void)
{
	int slot = slot_claim();
	if (slot < 0)
		return 0;
	u64 bottom = slot_stack_bottom(slot);
	for (int i = 0; i < KSTACK_PAGES; i++) {
		void *page = alloc_zeroed_page();
		if (!page ||
		    map_kernel_page(bottom + i * PAGE_SIZE, virt_to_phys(page), PAGE_KERNEL_RW)) {
			if (page)
				free_page_virt(page);
			unmap_and_free(bottom, (u64)i * PAGE_SIZE);
			slot_release(slot);
			return 0;
		}
	}
	return bottom + KSTACK_SIZE;
}

/* Keeps a freed stack mapped for the next kstack_alloc, if the cache has room. */
static bool
cache_put(u64 top)
{
	u64 flags = spin_lock_irqsave(&kstack_lock);
	bool kept = nr_cached < KSTACK_CACHED;

	if (kept)
		cached_stacks[nr_cached++] = top;
	spin_unlock_irqrestore(&kstack_lock, flags);
	return kept;
}

/* The most recently cached stack (still mapped, not yet zeroed), or 0. */
static u64
cache_take(void)
{
	u64 flags = spin_lock_irqsave(&kstack_lock);
	u64 top = nr_cached ? cached_stacks[--nr_cached] : 0;

	spin_unlock_irqrestore(&kstack_lock, flags);
	return top;
}

/* Clears the stack's entries (this CPU's TLB only) and notes what it held in *l. */
static void
unmap_stack(u64 top, struct lazy_stack *l)
{
	u64 bottom = top - KSTACK_SIZE;

	l->slot = stack_slot(top);
	for (int i = 0; i < KSTACK_PAGES; i++) {
		pte_t old = unmap_kernel_page(bottom + i * PAGE_SIZE);
		l->pages[i] = pte_val(old) & PTE_PRESENT ? pte_val(old) & PTE_ADDR_MASK : 0;
	}
}

/*
 * Moves the lazy batch into batch, all of it, or only when full (the
 * caller then flushes it outside the lock): how many stacks it took.
 * kstack_lock held.
 */
static int
lazy_take(struct lazy_stack batch[KSTACK_LAZY], bool only_full)
{
	int n = 0;

	if (nr_lazy == KSTACK_LAZY || (!only_full && nr_lazy)) {
		n = nr_lazy;
		memcpy(batch, lazy_stacks, (size_t)n * sizeof(*batch));
		nr_lazy = 0;
	}
	return n;
}

/* Queues l for the next shootdown; a full batch moves to batch for the caller to flush. */
static int
lazy_add(const struct lazy_stack *l, struct lazy_stack batch[KSTACK_LAZY])
{
	u64 flags = spin_lock_irqsave(&kstack_lock);

	lazy_stacks[nr_lazy++] = *l;
	int n = lazy_take(batch, true);
	spin_unlock_irqrestore(&kstack_lock, flags);
	return n;
}

/* One shootdown on every CPU for the n stacks, then their pages and slots are free. */
static void
flush_lazy(const struct lazy_stack *batch, int n)
{
	if (n == 0)
		return;
	tlb_flush_kernel_range(VMAP_BASE, VMAP_BASE + (u64)KSTACK_SLOTS * KSTACK_SLOT);
	for (int s = 0; s < n; s++) {
		for (int i = 0; i < KSTACK_PAGES; i++)
			if (batch[s].pages[i])
				free_page_virt(phys_to_virt(batch[s].pages[i]));
		slot_release(batch[s].slot);
	}
}

/* Unmaps a stack lazily; the free that fills the batch flushes it. */
static void
retire_stack(u64 top)
{
	struct lazy_stack l, batch[KSTACK_LAZY];

	unmap_stack(top, &l);
	flush_lazy(batch, lazy_add(&l, batch));
}

bool
kstack_purge(void)
{
	struct lazy_stack l, batch[KSTACK_LAZY];
	bool released = false;
	u64 top;

	while ((top = cache_take()) != 0) {
		unmap_stack(top, &l);
		flush_lazy(batch, lazy_add(&l, batch));
		released = true;
	}
	u64 flags = spin_lock_irqsave(&kstack_lock);
	int n = lazy_take(batch, false);
	spin_unlock_irqrestore(&kstack_lock, flags);
	flush_lazy(batch, n);
	return released || n > 0;
}

u64
kstack_alloc(void)
{
	u64 top = cache_take();

	if (top) {
		memset((void *)(top - KSTACK_SIZE), 0, KSTACK_SIZE);
		return top;
	}
	top = map_new_stack();
	if (!top && kstack_purge())
		top = map_new_stack();
	return top;
}

void
kstack_free(u64 top)
{
	if (!cache_put(top))
		retire_stack(top);
}

u64
kstack_kept_pages(void)
{
	u64 flags = spin_lock_irqsave(&kstack_lock);
	u64 stacks = (u64)(nr_cached + nr_lazy);

	spin_unlock_irqrestore(&kstack_lock, flags);
	return stacks * KSTACK_PAGES;
}

bool
kstack_bounds(u64 addr, u64 *lo, u64 *hi)
{
	if (addr >= VMAP_BASE && addr < VMAP_BASE + (u64)KSTACK_SLOTS * KSTACK_SLOT) {
		u64 bottom = VMAP_BASE + (addr - VMAP_BASE) / KSTACK_SLOT * KSTACK_SLOT + PAGE_SIZE;
		if (addr < bottom)
			return false;
		*lo = bottom;
		*hi = bottom + KSTACK_SIZE;
		return true;
	}
	for (struct static_stack *s = __start_static_stacks; s < __stop_static_stacks; s++) {
		if (addr >= (u64)s->stack && addr < static_stack_top(s)) {
			*lo = (u64)s->stack;
			*hi = static_stack_top(s);
			return true;
		}
	}
	return false;
}

bool
kstack_is_guard(u64 addr)
{
	if (addr >= VMAP_BASE && addr < VMAP_BASE + (u64)KSTACK_SLOTS * KSTACK_SLOT)
		return (addr - VMAP_BASE) % KSTACK_SLOT < PAGE_SIZE;
	for (struct static_stack *s = __start_static_stacks; s < __stop_static_stacks; s++)
		if (addr >= (u64)s->guard && addr < (u64)s->guard + PAGE_SIZE)
			return true;
	return false;
}

u64
vmap_reserve(u64 len)
{
	u64 irq = spin_lock_irqsave(&mmio_lock);
	u64 va = mmio_next;

	if (va + len > VMAP_BASE + VMAP_SIZE - 64 * PAGE_SIZE) { /* the top is the self-tests' */
		spin_unlock_irqrestore(&mmio_lock, irq);
		return 0;
	}
	mmio_next += len + PAGE_SIZE; /* an unmapped page between areas */
	spin_unlock_irqrestore(&mmio_lock, irq);
	return va;
}

void *
vmalloc(size_t size)
{
	u64 len = ALIGN_UP(size, PAGE_SIZE);
	u64 va = len ? vmap_reserve(len) : 0;

	if (!va)
		return NULL;
	for (u64 off = 0; off < len; off += PAGE_SIZE) {
		void *page = alloc_zeroed_page();
		if (!page || map_kernel_page(va + off, virt_to_phys(page), PAGE_KERNEL_RW)) {
			if (page)
				free_page_virt(page);
			vfree((void *)va, off);
			return NULL;
		}
	}
	return (void *)va;
}

void
vfree(void *p, size_t size)
{
	unmap_and_free((u64)p, ALIGN_UP(size, PAGE_SIZE));
}

void *
ioremap(phys_addr_t phys, size_t size, enum iomap_cache cache)
{
	u64 offset = phys & (PAGE_SIZE - 1);
	u64 len = ALIGN_UP(offset + size, PAGE_SIZE);
	u64 flags = PAGE_KERNEL_RW | (cache == IOMAP_WRITE_COMBINING ? PTE_CACHE_WC : PTE_CACHE_UC);
	u64 va = vmap_reserve(len);

	if (!va)
		return NULL;
	for (u64 off = 0; off < len; off += PAGE_SIZE)
		if (map_kernel_page(va + off, (phys & PAGE_MASK) + off, flags))
			return NULL;
	return (void *)(va + offset);
}
