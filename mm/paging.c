/*
 * paging.c - the kernel's page tables; see paging.h.
 *
 * paging_init() replaces the boot tables (boot/entry.asm) with:
 *   - a direct map of every RAM range in the loader's map (1 GiB, 2 MiB or
 *     4 KiB pages, whichever fits; never past the range, so no large page
 *     ever covers MMIO), read-write and no-execute;
 *   - the kernel image in 4 KiB pages with W^X: text RX, rodata and the
 *     symbol table R, data and bss RW, each static stack's guard page absent;
 *   - the top-level entries of the vmap region, so that the kernel half of
 *     the PML4 is complete from boot on (see paging.h).
 * Until those tables are live the boot identity map is in use, so page-table
 * pages come from memblock below 4 GiB, where phys_to_virt() is the identity.
 */
#include "mm/paging.h"
#include "kernel/objcount.h"
#include "mm/memblock.h"
#include "mm/mm.h"
#include "mm/page_alloc.h"
#include "mm/kstack_static.h"
#include "kernel/boot.h"
#include "uapi/errno.h"
#include "kernel/panic.h"
#include "kernel/x86/percpu.h"
#include "locking/spinlock.h"
#include "kernel/printk.h"
#include "kernel/lib/string.h"
#include "kernel/x86/x86.h"

#define MSR_PAT 0x277
/* PA0 WB, PA1 WC, PA2 UC-, PA3 UC, PA4 WB, PA5 WP, PA6 UC-, PA7 WT (as Linux). */
#define PAT_VALUE 0x0407050600070106ul

#define PGD_INDEX(va) (((va) >> 39) & 511)
#define PUD_INDEX(va) (((va) >> 30) & 511)
#define PMD_INDEX(va) (((va) >> 21) & 511)
#define PTE_INDEX(va) (((va) >> 12) & 511)
#define SIZE_1G	      (1ul << 30)
#define SIZE_2M	      (1ul << 21)
#define FOUR_GIB      (4ul << 30)
#define TABLE_FLAGS   (PTE_PRESENT | PTE_WRITE)

u64 direct_map_base;
pgd_t *kernel_pgd;
static bool kernel_half_frozen; /* no new top-level kernel entries after boot */
static bool gb_pages;

extern const char _text[], _etext[], _rodata[], _erodata[], _data[], _edata[];
extern const char _kernel_end[];
extern struct static_stack __start_static_stacks[], __stop_static_stacks[];

static void *
table_of(u64 entry)
{
	return phys_to_virt(entry & PTE_ADDR_MASK);
}

/*
 * A zeroed page-table page, as the bits of an entry pointing to it; 0 when
 * out of memory. Tables on the way to user addresses carry the user bit
 * (the CPU ANDs the permissions of every level).
 */
static u64
new_table_entry(u64 va)
{
	void *t;

	if (direct_map_base && page_alloc_ready()) {
		t = alloc_zeroed_page();
		if (t && va >= USER_TOP)
			__atomic_fetch_add(&kernel_page_table_pages, 1, __ATOMIC_RELAXED);
	} else {
		u64 limit = direct_map_base ? ~0ul : FOUR_GIB;
		u64 pa = memblock_alloc(&memblock, PAGE_SIZE, PAGE_SIZE, limit);
		t = pa ? phys_to_virt(pa) : NULL;
		if (t)
			memset(t, 0, PAGE_SIZE);
	}
	if (!t)
		return 0;
	return virt_to_phys(t) | TABLE_FLAGS | (va < USER_TOP ? PTE_USER : 0);
}

static pud_t *
pud_offset(pgd_t *pgd, u64 va, bool alloc)
{
	pgd_t *e = &pgd[PGD_INDEX(va)];

	if (!(pgd_val(*e) & PTE_PRESENT)) {
		if (!alloc)
			return NULL;
		BUG_ON(kernel_half_frozen && va >= DIRECT_MAP_BASE);
		u64 t = new_table_entry(va);
		if (!t)
			return NULL;
		set_pgd(e, make_pgd(t));
	}
	return (pud_t *)table_of(pgd_val(*e)) + PUD_INDEX(va);
}

static pmd_t *
pmd_offset(pud_t *pud, u64 va, bool alloc)
{
	if (!(pud_val(*pud) & PTE_PRESENT)) {
		u64 t = alloc ? new_table_entry(va) : 0;
		if (!t)
			return NULL;
		set_pud(pud, make_pud(t));
	}
	BUG_ON(pud_val(*pud) & PTE_HUGE);
	return (pmd_t *)table_of(pud_val(*pud)) + PMD_INDEX(va);
}

static pte_t *
pte_offset(pmd_t *pmd, u64 va, bool alloc)
{
	if (!(pmd_val(*pmd) & PTE_PRESENT)) {
		u64 t = alloc ? new_table_entry(va) : 0;
		if (!t)
			return NULL;
		set_pmd(pmd, make_pmd(t));
	}
	if (pmd_val(*pmd) & PTE_HUGE)
		return NULL; /* a 2 MiB page (mm/hugetlb.c) has no 4 KiB entries */
	return (pte_t *)table_of(pmd_val(*pmd)) + PTE_INDEX(va);
}

/* Maps one page of 4 KiB, 2 MiB or 1 GiB at va. */
static int
map_one(pgd_t *pgd, u64 va, phys_addr_t pa, u64 size, u64 flags)
{
	pud_t *pud = pud_offset(pgd, va, true);
	if (!pud)
		return -ENOMEM;
	if (size == SIZE_1G) {
		set_pud(pud, make_pud(pa | flags | PTE_HUGE));
		return 0;
	}
	pmd_t *pmd = pmd_offset(pud, va, true);
	if (!pmd)
		return -ENOMEM;
	if (size == SIZE_2M) {
		set_pmd(pmd, make_pmd(pa | flags | PTE_HUGE));
		return 0;
	}
	pte_t *pte = pte_offset(pmd, va, true);
	if (!pte)
		return -ENOMEM;
	set_pte(pte, make_pte(pa | flags));
	return 0;
}

/* The largest page size that is aligned at both addresses and fits in [pa, end). */
static u64
best_page_size(u64 va, phys_addr_t pa, phys_addr_t end)
{
	if (gb_pages && IS_ALIGNED(va | pa, SIZE_1G) && end - pa >= SIZE_1G)
		return SIZE_1G;
	if (IS_ALIGNED(va | pa, SIZE_2M) && end - pa >= SIZE_2M)
		return SIZE_2M;
	return PAGE_SIZE;
}

static void
map_range(pgd_t *pgd, u64 va, phys_addr_t pa, phys_addr_t end, u64 flags, bool large)
{
	while (pa < end) {
		u64 size = large ? best_page_size(va, pa, end) : PAGE_SIZE;
		if (map_one(pgd, va, pa, size, flags))
			panic("paging: out of memory for page tables while mapping %#lx", va);
		va += size;
		pa += size;
	}
}

static bool
is_ram_type(u32 type)
{
	return type == MMAP_AVAILABLE || type == MMAP_ACPI_RECLAIMABLE || type == MMAP_ACPI_NVS;
}

static void
map_direct(pgd_t *pgd)
{
	for (int i = 0; i < boot_info.nmmap; i++) {
		const struct boot_mmap_entry *e = &boot_info.mmap[i];
		u64 start = ALIGN_DOWN(e->base, PAGE_SIZE);
		u64 end = ALIGN_UP(e->base + e->len, PAGE_SIZE);
		if (!is_ram_type(e->type) || end > DIRECT_MAP_SIZE)
			continue;
		map_range(pgd, DIRECT_MAP_BASE + start, start, end, PAGE_KERNEL_RW, true);
	}
}

static bool
is_static_stack_guard(u64 va)
{
	for (struct static_stack *s = __start_static_stacks; s < __stop_static_stacks; s++)
		if (va == (u64)s->guard)
			return true;
	return false;
}

static void
map_image_section(pgd_t *pgd, const char *start, const char *end, u64 flags)
{
	for (u64 va = (u64)start; va < (u64)end; va += PAGE_SIZE)
		if (!is_static_stack_guard(va))
			map_range(pgd, va, kernel_image_to_phys((void *)va),
				  kernel_image_to_phys((void *)va) + PAGE_SIZE, flags, false);
}

static void
map_kernel_image(pgd_t *pgd)
{
	map_image_section(pgd, _text, _etext, PAGE_KERNEL_RX);
	map_image_section(pgd, _rodata, _erodata, PAGE_KERNEL_RO);
	map_image_section(pgd, _data, _edata, PAGE_KERNEL_RW);
	map_image_section(pgd, _edata, _kernel_end, PAGE_KERNEL_RO); /* .ksyms */
}

void
paging_init_cpu(void)
{
	if (cpuid(1, 0).edx & (1u << 16))
		wrmsr(MSR_PAT, PAT_VALUE);
	else if (this_cpu_is_boot())
		pr_warn("paging: no PAT; write-combining mappings fall back to write-through\n");
	write_cr4(read_cr4() | CR4_PGE);
	gb_pages = cpuid(0x80000001, 0).edx & (1u << 26);
}

void
paging_init(void)
{
	paging_init_cpu();
	u64 t = new_table_entry(KERNEL_VMA);
	if (!t)
		panic("paging: no memory below 4 GiB for the kernel page tables");
	pgd_t *pgd = table_of(t);

	map_direct(pgd);
	map_kernel_image(pgd);
	for (u64 va = VMAP_BASE; va < VMAP_BASE + VMAP_SIZE; va += 1ul << 39)
		if (!pud_offset(pgd, va, true))
			panic("paging: out of memory for the vmap tables");

	write_cr3(virt_to_phys(pgd));
	WRITE_ONCE(direct_map_base, DIRECT_MAP_BASE);
	kernel_pgd = phys_to_virt(t & PTE_ADDR_MASK);
	kernel_half_frozen = true;
	pr_info("paging: direct map at %#lx (%s pages), kernel image W^X, PCID off\n",
		DIRECT_MAP_BASE, gb_pages ? "1 GiB" : "2 MiB");
}

/* Kernel page tables below the boot-time top level change only under this lock. */
static struct spinlock kernel_pt_lock = SPINLOCK_INIT("kernel_page_tables");

int
map_kernel_page(u64 va, phys_addr_t pa, u64 flags)
{
	u64 irq = spin_lock_irqsave(&kernel_pt_lock);
	int err = map_one(kernel_pgd, va, pa, PAGE_SIZE, flags);
	spin_unlock_irqrestore(&kernel_pt_lock, irq);
	return err;
}

static pte_t
unmap_kernel_page_locked(u64 va)
{
	pud_t *pud = pud_offset(kernel_pgd, va, false);
	pte_t old = make_pte(0);

	if (!pud || !(pud_val(*pud) & PTE_PRESENT) || (pud_val(*pud) & PTE_HUGE))
		return old;
	pmd_t *pmd = pmd_offset(pud, va, false);
	if (!pmd || !(pmd_val(*pmd) & PTE_PRESENT) || (pmd_val(*pmd) & PTE_HUGE))
		return old;
	pte_t *pte = pte_offset(pmd, va, false);
	old = *pte;
	set_pte(pte, make_pte(0));
	return old;
}

pte_t
unmap_kernel_page(u64 va)
{
	u64 irq = spin_lock_irqsave(&kernel_pt_lock);
	pte_t old = unmap_kernel_page_locked(va);
	spin_unlock_irqrestore(&kernel_pt_lock, irq);
	flush_tlb_single(va); /* this CPU; the caller shoots the range down everywhere */
	return old;
}

pte_t *
kernel_user_pte(u64 va)
{
	pgd_t *pgd = &kernel_pgd[PGD_INDEX(va)];

	BUG_ON(va < KERNEL_VMA);
	u64 irq = spin_lock_irqsave(&kernel_pt_lock);
	pud_t *pud = pud_offset(kernel_pgd, va, true);
	pmd_t *pmd = pud ? pmd_offset(pud, va, true) : NULL;
	pte_t *pte = pmd ? pte_offset(pmd, va, true) : NULL;
	if (pte) {
		set_pgd(pgd, make_pgd(pgd_val(*pgd) | PTE_USER));
		set_pud(pud, make_pud(pud_val(*pud) | PTE_USER));
		set_pmd(pmd, make_pmd(pmd_val(*pmd) | PTE_USER));
	}
	spin_unlock_irqrestore(&kernel_pt_lock, irq);
	return pte;
}

u64
lookup_kernel_mapping(u64 va, int *level)
{
	*level = 0;
	pud_t *pud = pud_offset(kernel_pgd, va, false);
	if (!pud || !(pud_val(*pud) & PTE_PRESENT))
		return 0;
	if (pud_val(*pud) & PTE_HUGE) {
		*level = 3;
		return pud_val(*pud);
	}
	pmd_t *pmd = pmd_offset(pud, va, false);
	if (!(pmd_val(*pmd) & PTE_PRESENT))
		return 0;
	if (pmd_val(*pmd) & PTE_HUGE) {
		*level = 2;
		return pmd_val(*pmd);
	}
	pte_t *pte = pte_offset(pmd, va, false);
	if (!(pte_val(*pte) & PTE_PRESENT))
		return 0;
	*level = 1;
	return pte_val(*pte);
}

phys_addr_t
kernel_virt_to_phys(const void *va)
{
	int level;
	u64 entry = lookup_kernel_mapping((u64)va, &level);
	u64 span = level == 3 ? 1ul << 30 : level == 2 ? 1ul << 21 : PAGE_SIZE;

	return (entry & PTE_ADDR_MASK & ~(span - 1)) | ((u64)va & (span - 1));
}

pte_t *
pte_walk(pgd_t *pgd, u64 va, bool alloc)
{
	pud_t *pud = pud_offset(pgd, va, alloc);
	if (!pud)
		return NULL;
	pmd_t *pmd = pmd_offset(pud, va, alloc);
	if (!pmd)
		return NULL;
	return pte_offset(pmd, va, alloc);
}

/* How many of the tables on the way from pgd to va's entry exist: the pud, pmd and pte tables. */
static int
tables_on_path(pgd_t *pgd, u64 va)
{
	pgd_t *g = &pgd[PGD_INDEX(va)];
	if (!(pgd_val(*g) & PTE_PRESENT))
		return 0;
	pud_t *u = (pud_t *)table_of(pgd_val(*g)) + PUD_INDEX(va);
	if (!(pud_val(*u) & PTE_PRESENT))
		return 1;
	pmd_t *m = (pmd_t *)table_of(pud_val(*u)) + PMD_INDEX(va);
	return pmd_val(*m) & PTE_PRESENT ? 3 : 2;
}

/* n user tables made (or, negative, unlinked): the mm's count and the machine's (PageTables). */
static void
count_tables(u64 *tables, long n)
{
	*tables += (u64)n;
	if (n)
		__atomic_fetch_add(&user_page_table_pages, (u64)n, __ATOMIC_RELAXED);
}

pmd_t *
pmd_alloc(pgd_t *pgd, u64 va, u64 *tables)
{
	int before = tables_on_path(pgd, va);
	pud_t *pud = pud_offset(pgd, va, true);
	pmd_t *pmd = pud ? pmd_offset(pud, va, true) : NULL;

	count_tables(tables, tables_on_path(pgd, va) - before);
	return pmd;
}

pmd_t *
pmd_lookup(pgd_t *pgd, u64 va)
{
	pud_t *pud = pud_offset(pgd, va, false);

	return pud ? pmd_offset(pud, va, false) : NULL;
}

pte_t *
pte_alloc(pgd_t *pgd, u64 va, u64 *tables)
{
	pte_t *pte = pte_walk(pgd, va, false);

	if (pte) /* the common case: every table is there, nothing to count */
		return pte;
	int before = tables_on_path(pgd, va);
	pte = pte_walk(pgd, va, true);
	count_tables(tables, tables_on_path(pgd, va) - before);
	return pte;
}

#define LEVEL_END(va, shift, end) MIN(ALIGN_DOWN((va), 1ul << (shift)) + (1ul << (shift)), (end))

void
walk_present_ptes(pgd_t *pgd, u64 start, u64 end, pte_visit_fn fn, void *arg)
{
	for (u64 va = start; va < end; va = LEVEL_END(va, 39, end)) {
		pgd_t *g = &pgd[PGD_INDEX(va)];
		if (!(pgd_val(*g) & PTE_PRESENT))
			continue;
		for (u64 v1 = va; v1 < LEVEL_END(va, 39, end); v1 = LEVEL_END(v1, 30, end)) {
			pud_t *u = (pud_t *)table_of(pgd_val(*g)) + PUD_INDEX(v1);
			if (!(pud_val(*u) & PTE_PRESENT))
				continue;
			for (u64 v2 = v1; v2 < LEVEL_END(v1, 30, end);
			     v2 = LEVEL_END(v2, 21, end)) {
				pmd_t *m = (pmd_t *)table_of(pud_val(*u)) + PMD_INDEX(v2);
				if (!(pmd_val(*m) & PTE_PRESENT) || (pmd_val(*m) & PTE_HUGE))
					continue; /* no table; a huge page's is mm/hugetlb.c's */
				for (u64 v3 = v2; v3 < LEVEL_END(v2, 21, end); v3 += PAGE_SIZE) {
					pte_t *p = (pte_t *)table_of(pmd_val(*m)) + PTE_INDEX(v3);
					if (pte_holds_page(pte_val(*p)))
						fn(p, v3, arg);
				}
			}
		}
	}
}

/* An entry pointing to a table, level 3 (the pgd) to 1 (a pmd), cleared through paravirt.h. */
static void
clear_table_entry(u64 *entry, int level)
{
	if (level == 3)
		set_pgd((pgd_t *)entry, make_pgd(0));
	else if (level == 2)
		set_pud((pud_t *)entry, make_pud(0));
	else
		set_pmd((pmd_t *)entry, make_pmd(0));
}

/*
 * In table (level 3: the pgd, whose entries each span 512 GiB, down to 1: a
 * pmd table, 2 MiB each), the tables that the entries [start, end) reaches
 * point to: the tables below each are looked into first, then it goes
 * itself if its whole span lies in [floor, ceiling). Only [start, end) is
 * looked at, as Linux's free_pgd_range: a table wholly in a gap is never
 * left behind (pgtable_free.c), so a table that goes has no table below it
 * outside the range just given up.
 */
static long
unlink_in_table(u64 *table, int level, u64 start, u64 end, u64 floor, u64 ceiling,
		struct list_head *unlinked)
{
	int shift = PAGE_SHIFT + 9 * level;
	u64 span = 1ul << shift;
	long n = 0;

	for (u64 base = ALIGN_DOWN(start, span); base < end; base += span) {
		u64 *e = &table[(base >> shift) & 511];
		u64 entry = *e;
		if (!(entry & PTE_PRESENT) || (entry & PTE_HUGE))
			continue;
		if (level > 1)
			n += unlink_in_table(table_of(entry), level - 1, MAX(start, base),
					     MIN(end, base + span), floor, ceiling, unlinked);
		if (base >= floor && base + span <= ceiling) {
			clear_table_entry(e, level);
			list_add(&virt_to_page(table_of(entry))->list, unlinked);
			n++;
		}
	}
	return n;
}

void
unlink_user_tables(pgd_t *pgd, u64 start, u64 end, u64 floor, u64 ceiling, u64 *tables,
		   struct list_head *unlinked)
{
	count_tables(tables, -unlink_in_table((u64 *)pgd, 3, start, end, floor, ceiling, unlinked));
}

void
free_unlinked_tables(struct list_head *unlinked)
{
	while (!list_empty(unlinked)) {
		struct page *t = list_entry(unlinked->next, struct page, list);
		list_del(&t->list);
		free_page_virt(page_address(t));
	}
}

struct page *
pte_page(u64 entry)
{
	return pfn_to_page((entry & PTE_ADDR_MASK) >> PAGE_SHIFT);
}
