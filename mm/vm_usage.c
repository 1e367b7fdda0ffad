/*
 * vm_usage.c - an address space's sizes for /proc/<pid>/status, statm and
 * stat (see vm_usage.h), counted when asked rather than kept up to date on
 * every fault: only readers of those files pay for them.
 *
 * Areas are classed as Linux 6.1 classes them (mm/internal.h's
 * is_data_mapping, is_stack_mapping, is_exec_mapping); resident pages by
 * what the page is: a page-cache page (RssFile), a page of a shared
 * anonymous area (RssShmem), anything else (RssAnon: private copies,
 * zero-filled pages) but the shared zero page, which Linux does not count.
 */
#include "mm/vm_usage.h"
#include "mm/page_alloc.h"
#include "mm/paging.h"
#include "mm/vm.h"
#include "mm/zero_page.h"
#include "kernel/lib/string.h"

static bool
is_stack(const struct vma *v)
{
	return v->name && strcmp(v->name, "[stack]") == 0;
}

struct resident_count {
	struct vm_usage *u;
	bool shared_anon;
};

static void
count_resident(pte_t *pte, u64 va, void *arg)
{
	struct resident_count *c = arg;
	struct page *p = pte_page(pte_val(*pte));

	if (is_zero_page(p))
		return;
	if (p->mapping)
		c->u->rss_file++;
	else if (c->shared_anon)
		c->u->rss_shmem++;
	else
		c->u->rss_anon++;
}

static void
count_area(struct mm *mm, const struct vma *v, struct vm_usage *u)
{
	u64 pages = (v->end - v->start) >> PAGE_SHIFT;

	u->total_pages += pages;
	if (v->flags & VM_LOCKED)
		u->locked_pages += pages;
	if (is_stack(v))
		u->stack_pages += pages;
	else if ((v->flags & (VM_WRITE | VM_SHARED)) == VM_WRITE)
		u->data_pages += pages;
	else if ((v->flags & (VM_EXEC | VM_WRITE)) == VM_EXEC)
		u->exec_pages += pages;
	if (v->special) /* fixed kernel pages: never counted as resident (vm.h) */
		return;
	struct resident_count c = { .u = u, .shared_anon = !v->file && (v->flags & VM_SHARED) };
	spin_lock(&mm->pt_lock);
	walk_present_ptes(mm->pgd, v->start, v->end, count_resident, &c);
	spin_unlock(&mm->pt_lock);
}

void
vm_usage(struct mm *mm, struct vm_usage *u)
{
	struct list_head *pos;

	memset(u, 0, sizeof(*u));
	down_read(&mm->mmap_lock);
	list_for_each(pos, &mm->vmas)
		count_area(mm, list_entry(pos, struct vma, link), u);
	u->start_code = mm->start_code;
	u->end_code = mm->end_code;
	u->start_data = mm->start_data;
	u->end_data = mm->end_data;
	u->start_brk = mm->brk_start;
	u->brk = mm->brk;
	u->start_stack = mm->start_stack;
	u->arg_start = mm->arg_start;
	u->arg_end = mm->arg_end;
	u->env_start = mm->env_start;
	u->env_end = mm->env_end;
	u->auxv_start = mm->auxv_start;
	u->auxv_end = mm->auxv_end;
	u->pgtable_pages = __atomic_load_n(&mm->pgtables, __ATOMIC_RELAXED);
	up_read(&mm->mmap_lock);
}
