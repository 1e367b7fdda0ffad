/*
 * mm_lifecycle.c - an address space's life: created for exec (mm_create),
 * shared by reference (mm_get, mm_put, get_task_mm), loaded on a CPU
 * (mm_activate: CR3 and the cpumask shootdowns aim at), and copied by fork
 * (mm_fork: every area, private pages shared read-only for copy-on-write,
 * the zero page as it is). The areas themselves are vm.c's; see vm.h.
 */
#include "mm/vm.h"
#include "mm/vm_internal.h"
#include "mm/hugetlb.h"
#include "mm/i_mmap.h"
#include "kernel/objcount.h"
#include "mm/kmalloc.h"
#include "mm/oom_kill.h"
#include "mm/page_alloc.h"
#include "mm/paging.h"
#include "mm/zero_page.h"
#include "fs/fs.h"
#include "kernel/panic.h"
#include "kernel/x86/smp.h"
#include "kernel/lib/string.h"
#include "kernel/process/task.h"

struct mm *
mm_create(void)
{
	struct mm *mm = kzalloc(sizeof(*mm));

	if (!mm)
		return NULL;
	mm->pgd = alloc_zeroed_page();
	if (!mm->pgd) {
		kfree(mm);
		return NULL;
	}
	/* The kernel half is shared by every address space (see paging.h). */
	for (int i = 256; i < 512; i++)
		set_pgd(&mm->pgd[i], kernel_pgd[i]);
	list_init(&mm->vmas);
	rwsem_init(&mm->mmap_lock, "mmap_lock");
	spin_lock_init(&mm->pt_lock, "page_table");
	mm->users = 1;
	objcount_created(OBJ_MM);
	return mm;
}

void
mm_get(struct mm *mm)
{
	__atomic_add_fetch(&mm->users, 1, __ATOMIC_RELAXED);
}

void
mm_put(struct mm *mm)
{
	if (__atomic_sub_fetch(&mm->users, 1, __ATOMIC_ACQ_REL))
		return;
	BUG_ON(read_cr3() == virt_to_phys(mm->pgd));
	unmap_range(mm, 0, USER_TOP); /* every page and, with the last area, every table */
	free_page_virt(mm->pgd);
	oom_forget_mm(mm);
	kfree(mm);
	objcount_freed(OBJ_MM);
}

struct mm *
get_task_mm(struct task *t)
{
	task_lock(t);
	struct mm *mm = t->mm;
	if (mm)
		mm_get(mm);
	task_unlock(t);
	return mm;
}

/*
 * The new mm's bit is set before CR3 changes, so a shootdown that starts
 * meanwhile includes this CPU; the old one's is cleared after, when this
 * CPU can no longer hold its translations.
 */
void
mm_activate(struct mm *mm)
{
	struct cpu *c = this_cpu();
	struct mm *old = c->active_mm;
	u64 bit = 1ul << c->id;

	if (old == mm)
		return;
	if (mm)
		__atomic_or_fetch(&mm->cpumask, bit, __ATOMIC_SEQ_CST);
	write_cr3(virt_to_phys(mm ? mm->pgd : kernel_pgd));
	if (old)
		__atomic_and_fetch(&old->cpumask, ~bit, __ATOMIC_SEQ_CST);
	c->active_mm = mm;
}

struct fork_copy {
	struct mm *child;
	const struct vma *vma;
	bool failed;
};

/*
 * Shares one page with the child; private writable pages become read-only
 * in both (COW). The zero page, never writable, just goes in uncounted.
 */
static void
copy_pte(pte_t *pte, u64 va, void *arg)
{
	struct fork_copy *c = arg;
	u64 val = pte_val(*pte);
	pte_t *dst = pte_alloc(c->child->pgd, va, &c->child->pgtables);

	if (!dst) {
		c->failed = true;
		return;
	}
	/* The same fixed page, never written: share it as is. */
	if (c->vma->special || is_zero_page(pte_page(val))) {
		set_pte(dst, make_pte(val));
		return;
	}
	if (!(c->vma->flags & VM_SHARED) && (val & PTE_WRITE)) {
		val &= ~PTE_WRITE;
		set_pte(pte, make_pte(val));
	}
	get_page(pte_page(val));
	set_pte(dst, make_pte(val));
	mm_rss_inc(c->child);
}

struct mm *
mm_fork(struct mm *old)
{
	struct mm *mm = mm_create();
	struct fork_copy c = { .child = mm };
	struct list_head *pos;

	if (!mm)
		return NULL;
	down_write(&old->mmap_lock);
	mm->brk_start = old->brk_start;
	mm->brk = old->brk;
	mm->start_stack = old->start_stack;
	mm->start_code = old->start_code;
	mm->end_code = old->end_code;
	mm->start_data = old->start_data;
	mm->end_data = old->end_data;
	mm->arg_start = old->arg_start;
	mm->arg_end = old->arg_end;
	mm->env_start = old->env_start;
	mm->env_end = old->env_end;
	mm->auxv_start = old->auxv_start;
	mm->auxv_end = old->auxv_end;
	mm->vdso_base = old->vdso_base;
	mm->membarrier_state = __atomic_load_n(&old->membarrier_state, __ATOMIC_RELAXED);
	list_for_each(pos, &old->vmas) {
		struct vma *v = list_entry(pos, struct vma, link);
		if (v->flags & VM_DONTCOPY)
			continue;
		/*
		 * Locks are not inherited (nor is mlockall's MCL_FUTURE:
		 * def_flags stays 0), nor userfaultfd registrations (Linux's
		 * without UFFD_FEATURE_EVENT_FORK, which rewind does not offer),
		 * nor a private huge-page area's reservations (mm/hugetlb.c).
		 */
		u32 flags = v->flags & ~(VM_LOCKED | VM_LOCKONFAULT | VM_UFFD_MASK | VM_HUGE_RESV);
		struct vma *nv = vma_new(mm, v->start, v->end, flags, v->file, v->pgoff, v->name);
		if (!nv) {
			c.failed = true;
			break;
		}
		nv->special = v->special;
		list_add_tail(&nv->link, &mm->vmas);
		if (v->flags & VM_WIPEONFORK)
			continue; /* the child starts with zero pages there */
		c.vma = v;
		i_mmap_lock(v);
		spin_lock(&old->pt_lock);
		if (is_vm_hugetlb(v))
			c.failed |= hugetlb_copy(mm, old, v) != 0;
		else
			walk_present_ptes(old->pgd, v->start, v->end, copy_pte, &c);
		spin_unlock(&old->pt_lock);
		i_mmap_unlock(v);
	}
	tlb_flush_mm_range(old, 0, USER_TOP); /* the parent's entries lost their write permission */
	up_write(&old->mmap_lock);
	if (c.failed) {
		mm_put(mm);
		return NULL;
	}
	return mm;
}
