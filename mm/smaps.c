/*
 * smaps.c - /proc/<pid>/smaps and smaps_rollup: how much of each area is
 * resident and how it is shared, counted from the page tables when read,
 * in Linux 6.1's fields, order and format (Linux's fs/proc/task_mmu.c).
 *
 * A page is shared when more than one mapping holds it (page_map_count,
 * mm/vm_internal.h). A shared page adds its size divided by that count to
 * Pss, so that the Pss of all processes sums to the memory they use. The
 * shared zero page is not resident, as on Linux, where it is no "normal"
 * page. Huge pages (mm/hugetlb.h) are not in Rss but in Shared_Hugetlb and
 * Private_Hugetlb, as Linux's. rewind never swaps and has no transparent
 * huge pages: those fields are 0.
 */
#include "kernel/lib/vsprintf.h"
#include "kernel/vdso/vsyscall.h"
#include "mm/hugetlb.h"
#include "mm/page_alloc.h"
#include "mm/paging.h"
#include "mm/vm_internal.h"
#include "mm/zero_page.h"

#define PSS_SHIFT 12 /* Pss's fraction bits, as Linux, so that divided pages add up */

/* Bytes by kind (pss_*: << PSS_SHIFT), of one area or, summed, of all. */
struct smaps_counts {
	u64 rss, pss, pss_dirty, pss_anon, pss_file;
	u64 shared_clean, shared_dirty, private_clean, private_dirty;
	u64 referenced, anonymous, pss_locked;
	u64 shared_hugetlb, private_hugetlb;
	bool locked;
};

static void
count_page(pte_t *pte, u64 va, void *arg)
{
	struct smaps_counts *c = arg;
	u64 val = pte_val(*pte);
	struct page *p = pte_page(val);
	(void)va;

	if (is_zero_page(p))
		return;
	u32 maps = page_map_count(p);
	u64 pss = ((u64)PAGE_SIZE << PSS_SHIFT) / maps;
	/*
	 * Dirty as Linux: written through this entry, or newer than any backing
	 * store. An anonymous page has none, and on Linux always comes in
	 * dirty; here exec fills some through the direct map, leaving no mark.
	 */
	bool dirty = (val & PTE_DIRTY) || !p->mapping ||
		     (__atomic_load_n(&p->flags, __ATOMIC_RELAXED) & PG_DIRTY);

	c->rss += PAGE_SIZE;
	c->pss += pss;
	if (val & PTE_ACCESSED)
		c->referenced += PAGE_SIZE;
	if (p->mapping) {
		c->pss_file += pss;
	} else {
		c->anonymous += PAGE_SIZE;
		c->pss_anon += pss;
	}
	if (dirty)
		c->pss_dirty += pss;
	if (maps > 1)
		*(dirty ? &c->shared_dirty : &c->shared_clean) += PAGE_SIZE;
	else
		*(dirty ? &c->private_dirty : &c->private_clean) += PAGE_SIZE;
	if (c->locked)
		c->pss_locked += pss;
}

/* Adds v's resident pages to c; mmap_lock held. */
static void
count_area(struct mm *mm, const struct vma *v, struct smaps_counts *c)
{
	if (v->special) /* fixed kernel pages, not counted as resident (vm.h) */
		return;
	c->locked = v->flags & VM_LOCKED;
	if (is_vm_hugetlb(v)) {
		u64 shared, private;
		hugetlb_usage(mm, v, &shared, &private);
		c->shared_hugetlb += shared;
		c->private_hugetlb += private;
		return;
	}
	spin_lock(&mm->pt_lock);
	walk_present_ptes(mm->pgd, v->start, v->end, count_page, c);
	spin_unlock(&mm->pt_lock);
}

/* Appends to buf at *n what fits, counting the rest (the caller's buffer then grows). */
#define PUT(buf, size, n, ...) \
	(*(n) += (size_t)ksnprintf((buf) + MIN(*(n), size), (size)-MIN(*(n), size), __VA_ARGS__))

/* A maps line of no file at offset 0. */
#define PUT_LINE(buf, size, n, start, end, perms, name)                                        \
	(*(n) += vm_show_map_line((buf) + MIN(*(n), size), (size)-MIN(*(n), size), start, end, \
				  perms, 0, name))

static void
put_kb(char *buf, size_t size, size_t *n, const char *name, u64 bytes)
{
	PUT(buf, size, n, "%-16s%8lu kB\n", name, bytes >> 10);
}

/* The fields smaps and smaps_rollup share before and after Pss's parts. */
static void
put_counts(char *buf, size_t size, size_t *n, const struct smaps_counts *c, bool rollup)
{
	put_kb(buf, size, n, "Rss:", c->rss);
	put_kb(buf, size, n, "Pss:", c->pss >> PSS_SHIFT);
	put_kb(buf, size, n, "Pss_Dirty:", c->pss_dirty >> PSS_SHIFT);
	if (rollup) {
		put_kb(buf, size, n, "Pss_Anon:", c->pss_anon >> PSS_SHIFT);
		put_kb(buf, size, n, "Pss_File:", c->pss_file >> PSS_SHIFT);
		put_kb(buf, size, n, "Pss_Shmem:", 0);
	}
	put_kb(buf, size, n, "Shared_Clean:", c->shared_clean);
	put_kb(buf, size, n, "Shared_Dirty:", c->shared_dirty);
	put_kb(buf, size, n, "Private_Clean:", c->private_clean);
	put_kb(buf, size, n, "Private_Dirty:", c->private_dirty);
	put_kb(buf, size, n, "Referenced:", c->referenced);
	put_kb(buf, size, n, "Anonymous:", c->anonymous);
	static const char *const none[] = { "LazyFree:", "AnonHugePages:", "ShmemPmdMapped:",
					    "FilePmdMapped:" };
	for (size_t i = 0; i < ARRAY_SIZE(none); i++)
		put_kb(buf, size, n, none[i], 0);
	put_kb(buf, size, n, "Shared_Hugetlb:", c->shared_hugetlb);
	put_kb(buf, size, n, "Private_Hugetlb:", c->private_hugetlb);
	put_kb(buf, size, n, "Swap:", 0);
	put_kb(buf, size, n, "SwapPss:", 0);
	put_kb(buf, size, n, "Locked:", c->pss_locked >> PSS_SHIFT);
}

/* VmFlags: Linux's two-letter names of the flags rewind has, each followed by a space. */
static void
put_vm_flags(char *buf, size_t size, size_t *n, u32 flags)
{
	static const struct {
		u32 flag;
		char name[3];
	} names[] = {
		{ VM_READ, "rd" },	 { VM_WRITE, "wr" },	  { VM_EXEC, "ex" },
		{ VM_SHARED, "sh" },	 { VM_GROWSDOWN, "gd" },  { VM_UFFD_MISSING, "um" },
		{ VM_LOCKED, "lo" },	 { VM_DONTCOPY, "dc" },	  { VM_DONTDUMP, "dd" },
		{ VM_WIPEONFORK, "wf" }, { VM_HUGEPAGE, "hg" },	  { VM_NOHUGEPAGE, "nh" },
		{ VM_MERGEABLE, "mg" },	 { VM_UFFD_MINOR, "ui" }, { VM_HUGETLB, "ht" },
	};

	PUT(buf, size, n, "VmFlags: ");
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (flags & names[i].flag)
			PUT(buf, size, n, "%s ", names[i].name);
	PUT(buf, size, n, "\n");
}

/* One area's smaps entry after its maps line. */
static void
put_area(char *buf, size_t size, size_t *n, u64 bytes, u32 flags, const struct smaps_counts *c)
{
	put_kb(buf, size, n, "Size:", bytes);
	u64 page_size = flags & VM_HUGETLB ? HPAGE_SIZE : PAGE_SIZE;

	put_kb(buf, size, n, "KernelPageSize:", page_size);
	put_kb(buf, size, n, "MMUPageSize:", page_size);
	put_counts(buf, size, n, c, false);
	PUT(buf, size, n, "%-16s%8u\n", "THPeligible:", 0);
	put_vm_flags(buf, size, n, flags);
}

/* The vsyscall page's entry: Linux's gate area, never resident. */
static void
put_vsyscall(char *buf, size_t size, size_t *n)
{
	const char *perms = vsyscall_maps_perms();
	struct smaps_counts none = { 0 };

	if (!perms)
		return;
	PUT_LINE(buf, size, n, VSYSCALL_ADDR, VSYSCALL_ADDR + PAGE_SIZE, perms, "[vsyscall]");
	put_area(buf, size, n, PAGE_SIZE, VM_EXEC | (perms[0] == 'r' ? VM_READ : 0), &none);
}

static size_t
show_smaps(struct mm *mm, char *buf, size_t size, bool rollup)
{
	struct smaps_counts sum = { 0 };
	struct list_head *pos;
	u64 first = 0, last = 0;
	size_t n = 0;

	down_read(&mm->mmap_lock);
	list_for_each(pos, &mm->vmas) {
		struct vma *v = list_entry(pos, struct vma, link);
		struct smaps_counts c = { 0 };
		if (rollup) { /* the counts add up */
			count_area(mm, v, &sum);
			first = first ? first : v->start;
			last = v->end;
			continue;
		}
		count_area(mm, v, &c);
		n += vm_show_area_line(v, buf + MIN(n, size), size - MIN(n, size));
		put_area(buf, size, &n, v->end - v->start, v->flags, &c);
	}
	up_read(&mm->mmap_lock);
	if (!rollup) {
		put_vsyscall(buf, size, &n);
	} else if (last) {
		/* One line naming the span of all areas, as Linux's [rollup]. */
		PUT_LINE(buf, size, &n, first, last, "---p", "[rollup]");
		put_counts(buf, size, &n, &sum, true);
	}
	return MIN(n, size);
}

size_t
vm_show_smaps(struct mm *mm, char *buf, size_t size)
{
	return show_smaps(mm, buf, size, false);
}

size_t
vm_show_smaps_rollup(struct mm *mm, char *buf, size_t size)
{
	return show_smaps(mm, buf, size, true);
}
