/*
 * text_poke.c - rewriting kernel text without a writable text mapping;
 * see text_poke.h.
 *
 * The kernel image's text stays read-only at its own address. To change a
 * few bytes, the one or two physical pages holding them are mapped
 * writable (and no-execute) at two reserved pages of the vmap region, the
 * bytes are written there, and the alias is unmapped and flushed from this
 * CPU's TLB, so that no writable mapping of text outlives the write (as
 * Linux's text_poke). The page tables under the alias are built once at
 * boot: a poke runs while other CPUs are parked, perhaps holding the page
 * allocator's lock, so it must not allocate.
 */
#include "kernel/x86/text_poke.h"
#include "kernel/lib/string.h"
#include "kernel/panic.h"
#include "kernel/x86/paravirt.h"
#include "kernel/x86/x86.h"
#include "mm/layout.h"
#include "mm/paging.h"
#include "mm/vmap.h"

extern const char _text[], _etext[];

static u64 alias_va;

void
text_poke_init(void)
{
	alias_va = vmap_reserve(2 * PAGE_SIZE);
	if (!alias_va)
		panic("text_poke: no addresses for the text alias");
	for (int i = 0; i < 2; i++) {
		u64 va = alias_va + i * PAGE_SIZE;
		if (map_kernel_page(va, kernel_image_to_phys(_text), PAGE_KERNEL_RO))
			panic("text_poke: no memory for the alias's page tables");
		unmap_kernel_page(va);
	}
}

void
text_poke(void *addr, const void *src, size_t len)
{
	u64 start = (u64)addr, first = ALIGN_DOWN(start, PAGE_SIZE);
	u64 npages = (ALIGN_UP(start + len, PAGE_SIZE) - first) / PAGE_SIZE;

	BUG_ON(irqs_enabled() || !alias_va);
	BUG_ON(start < (u64)_text || start + len > (u64)_etext || npages > 2);
	for (u64 i = 0; i < npages; i++)
		if (map_kernel_page(alias_va + i * PAGE_SIZE,
				    kernel_image_to_phys((void *)(first + i * PAGE_SIZE)),
				    PAGE_KERNEL_RW))
			panic("text_poke: cannot map the alias");
	memcpy((void *)(alias_va + (start - first)), src, len);
	for (u64 i = 0; i < npages; i++)
		unmap_kernel_page(alias_va + i * PAGE_SIZE);
	cpuid(0, 0); /* serializing: this CPU runs the new bytes from here on */
}
