/*
 * pgtable_work.c - the page-table work of a page fault and of an unmap,
 * done by mm/paging.c itself over in-memory tables on the host, for
 * tests/hosted/paravirt_bench.c. Built three times: with -DCONFIG_PARAVIRT
 * (every entry access a paravirt call site, patched by the benchmark for
 * each mode), with -DCONFIG_PV_CALLEE_SAVE as well (2.6.30's callee-save
 * accessor sites; its table renamed pv_ops30) and without (the inline
 * natives of PARAVIRT=n), each copy's symbols made local but for its entry
 * point, PGTABLE_WORK, and its table (the Makefile).
 *
 * A round replays, per page, the entry calls of mm/fault.c's fault_in
 * (the walk down four levels, twice, the present test, building and
 * storing the new entry) and then, over the range, those of mm/vm.c's
 * zap_pte (the walk over present entries, the read of each, the store of
 * an empty one). The tables stay allocated from round to round, as a
 * process that maps the same range again finds them.
 *
 * "Physical" addresses here are host addresses less one page: paging.c
 * turns entries into pointers with phys_to_virt, and a non-zero
 * direct_map_base is also what tells it the page allocator is up.
 */
#include "mm/paging.c"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#define WORK_BASE 0x10000000ul /* the user range the work maps */

/* ---- what paging.c needs from the rest of the kernel --------------------------- */

struct boot_info boot_info;
struct memblock memblock;
u64 kernel_page_table_pages;
u64 user_page_table_pages;
struct static_stack __start_static_stacks[1], __stop_static_stacks[1];
const char _text[1], _etext[1], _rodata[1], _erodata[1], _data[1], _edata[1], _kernel_end[1];

bool
page_alloc_ready(void)
{
	return true;
}

void *
alloc_zeroed_page(void)
{
	void *p = aligned_alloc(PAGE_SIZE, PAGE_SIZE);

	return p ? memset(p, 0, PAGE_SIZE) : NULL;
}

void
free_page_virt(void *va)
{
	free(va);
}

struct page *
pfn_to_page(u64 pfn)
{
	return NULL; /* no mem_map: the work never asks which page an entry maps */
}

u64
page_to_pfn(const struct page *page)
{
	abort(); /* the work never frees a table (mm/paging.c's free_unlinked_tables) */
}

u64
memblock_alloc(struct memblock *mb, u64 size, u64 align, u64 limit)
{
	return 0; /* the page allocator is always up here */
}

void
printk(int level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

void
panic(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	abort();
}

#ifdef CONFIG_PARAVIRT
/*
 * The table the sites call through: the kernel's page-table natives (one
 * definition, paravirt.h), and for the ops the work never reaches,
 * stand-ins that a host process can run. The irq ones keep the
 * callee-save contract: they touch rax at most.
 */
PV_DEFINE_LEVEL_NATIVES(pgd)
PV_DEFINE_LEVEL_NATIVES(pud)
PV_DEFINE_LEVEL_NATIVES(pmd)
PV_DEFINE_LEVEL_NATIVES(pte)

u64 host_save_fl(void);
void host_irq_nop(void);
__asm__(".pushsection .text\n"
	"host_save_fl: movl $0x200, %eax\n\tret\n"
	"host_irq_nop: ret\n"
	".popsection");

static void
unreachable_op(void)
{
	abort();
}

#ifdef CONFIG_PV_CALLEE_SAVE /* 2.6.30's copy: the accessors behind the kernel's thunks */
PV_DEFINE_LEVEL_THUNKS(pgd);
PV_DEFINE_LEVEL_THUNKS(pud);
PV_DEFINE_LEVEL_THUNKS(pmd);
PV_DEFINE_LEVEL_THUNKS(pte);
#endif

__attribute__((visibility("default"))) struct paravirt_ops pv_ops = {
	.cpu = { .read_tsc = (void *)unreachable_op },
	.irq = { .save_fl = host_save_fl,
		 .restore_fl = (void *)host_irq_nop,
		 .irq_disable = host_irq_nop,
		 .irq_enable = host_irq_nop,
		 .safe_halt = unreachable_op,
		 .halt = unreachable_op },
	.time = { .sched_clock = (void *)unreachable_op },
	.mmu = { .read_cr2 = (void *)unreachable_op,
		 .read_cr3 = (void *)unreachable_op,
		 .write_cr3 = (void *)unreachable_op,
		 .flush_tlb_user = unreachable_op,
		 .flush_tlb_global = unreachable_op,
		 .flush_tlb_single = (void *)unreachable_op,
		 PV_LEVEL_SLOTS(pgd),
		 PV_LEVEL_SLOTS(pud),
		 PV_LEVEL_SLOTS(pmd),
		 PV_LEVEL_SLOTS(pte) },
	.lock = { .spin_lock_flags = (void *)unreachable_op },
};
#endif

/* ---- the work -------------------------------------------------------------------- */

static pgd_t *work_pgd;

/* mm/fault.c's fault_in, its page-table calls only. */
static void
fault_in_entry(u64 va, u64 phys)
{
	pte_t *pte = pte_walk(work_pgd, va, true);
	if (!pte || (pte_val(*pte) & PTE_PRESENT))
		abort();
	pte = pte_walk(work_pgd, va, true);
	set_pte(pte, make_pte(phys | PTE_PRESENT | PTE_WRITE | PTE_USER | PTE_NX));
}

/* mm/vm.c's zap_pte, its page-table calls only. */
static void
zap_entry(pte_t *pte, u64 va, void *arg)
{
	u64 *sum = arg;

	*sum += pte_val(*pte) & PTE_ADDR_MASK;
	set_pte(pte, make_pte(0));
}

/*
 * Faults in pages entries at WORK_BASE and zaps them, rounds times; returns a
 * checksum of the entries zapped (so that none of it is optimised away).
 */
__attribute__((visibility("default"))) u64
PGTABLE_WORK(u64 pages, u64 rounds)
{
	u64 sum = 0;

	if (!work_pgd) {
		direct_map_base = PAGE_SIZE;
		work_pgd = alloc_zeroed_page();
		if (!work_pgd)
			abort();
	}
	for (u64 r = 0; r < rounds; r++) {
		for (u64 i = 0; i < pages; i++)
			fault_in_entry(WORK_BASE + i * PAGE_SIZE, (i + 1) << PAGE_SHIFT);
		walk_present_ptes(work_pgd, WORK_BASE, WORK_BASE + pages * PAGE_SIZE, zap_entry,
				  &sum);
	}
	return sum;
}
