/*
 * vm.h - user address spaces: the mm (page tables, the list of virtual
 * memory areas, the mmap lock) and the operations on it: demand paging,
 * copy-on-write fork, mmap/munmap/mprotect/brk/madvise.
 *
 * Locking: mm->mmap_lock (a sleeping rwsem, locking/rwsem.h) is taken for
 * writing by everything that changes the VMA list and for reading by the
 * page-fault handler - the pairing the rwsem regression studies.
 * mm->pt_lock (a spinlock) serialises page-table updates among concurrent
 * faults that hold the lock only for reading.
 */
#ifndef REWIND_VM_H
#define REWIND_VM_H

#include "kernel/lib/list.h"
#include "kernel/x86/paravirt.h"
#include "kernel/lib/types.h"
#include "locking/rwsem.h"
#include "locking/spinlock.h"
#include "uapi/mman.h"

struct file;
struct task;
struct userfaultfd_ctx;

/*
 * VMA flags: the protections, whether writes reach the file/are shared,
 * whether mprotect may ever add PROT_WRITE (not to a shared mapping of a
 * file opened without write access: Linux's VM_MAYWRITE), whether the
 * area denies writes to its file (a running program's, fs/write_access.c),
 * and whether it is the stack, which grows down to RLIMIT_STACK.
 */
#define VM_READ	     PROT_READ
#define VM_WRITE     PROT_WRITE
#define VM_EXEC	     PROT_EXEC
#define VM_PROT_MASK (VM_READ | VM_WRITE | VM_EXEC)
#define VM_SHARED    0x10
#define VM_MAYWRITE  0x20
#define VM_DENYWRITE 0x40
#define VM_GROWSDOWN 0x80 /* stack, MAP_GROWSDOWN: a fault below extends it (vm_grow_stack) */
/*
 * What mlock and madvise record (mm/mlock.c, mm/madvise.c). rewind has no
 * swap, no transparent huge pages, no page merging and no core dumps:
 * VM_LOCKED is counted against RLIMIT_MEMLOCK and its pages are brought in;
 * fork honours VM_DONTCOPY and VM_WIPEONFORK; the rest are only kept, as
 * on a Linux whose transparent huge pages and KSM are switched off.
 */
#define VM_LOCKED      0x100
#define VM_LOCKONFAULT 0x200 /* with VM_LOCKED: pages locked as they arrive, not brought in */
#define VM_DONTCOPY    0x400 /* MADV_DONTFORK: a fork child does not get the area */
#define VM_WIPEONFORK  0x800 /* a fork child gets the area empty (zero pages) */
#define VM_DONTDUMP    0x1000
#define VM_HUGEPAGE    0x2000
#define VM_NOHUGEPAGE  0x4000
#define VM_MERGEABLE   0x8000
/*
 * Registered with a userfaultfd (vma->uffd, fs/userfaultfd.c): a fault on
 * a missing page (anonymous memory), or on a page the file's cache holds
 * but the page table does not (a minor fault), goes to its reader.
 */
#define VM_UFFD_MISSING 0x10000
#define VM_UFFD_MINOR	0x20000
#define VM_UFFD_MASK	(VM_UFFD_MISSING | VM_UFFD_MINOR)
/*
 * Huge pages (mm/hugetlb.h): the area maps a hugetlbfs file with 2 MiB
 * entries, and is split only at 2 MiB boundaries. A private one made by
 * mmap (not inherited by fork) holds a pool reservation for each of its
 * huge pages not yet faulted in: Linux's HPAGE_RESV_OWNER.
 */
#define VM_HUGETLB   0x40000
#define VM_HUGE_RESV 0x80000

#define USER_STACK_TOP	USER_TOP    /* the stack ends where user space does, as Linux's STACK_TOP */
#define USER_STACK_SIZE (8ul << 20) /* kept free for the stack: Linux's default RLIMIT_STACK */
#define STACK_EXPAND	(128ul << 10) /* what exec maps below the arguments (Linux's stack_expand) */
#define USER_MMAP_TOP	(USER_STACK_TOP - USER_STACK_SIZE - (1ul << 30))
/* Kept free below an area that grows down, as Linux's default stack_guard_gap (256 pages). */
#define STACK_GUARD_GAP (256ul << PAGE_SHIFT)

/*
 * A special mapping shows fixed kernel pages to user mode (the vDSO and its
 * data, kernel/vdso/vdso.c): every process maps the same pages, so they are
 * never allocated, copied on write, counted or freed - munmap and exit just
 * drop the entries - and they can never become writable.
 */
struct special_mapping {
	const char *name; /* as /proc/<pid>/maps shows it: "[vdso]" */
	unsigned npages;
	/* Page i's physical address with its caching bits (PTE_CACHE_*), or 0: leave it absent. */
	u64 (*page)(unsigned i);
};

struct vma {
	struct list_head link;	  /* in mm->vmas, sorted by address */
	struct mm *mm;		  /* the address space it is in */
	struct hlist_node shared; /* file areas: in the file's i_mmap (mm/i_mmap.c) */
	u64 start, end;		  /* [start, end), page-aligned */
	u32 flags;		  /* VM_* */
	struct file *file;	  /* NULL for anonymous memory */
	u64 pgoff;		  /* file page at start (special mappings: their page index) */
	const char *name;	  /* "[heap]", "[stack]", or NULL */
	const struct special_mapping *special; /* or NULL */
	struct userfaultfd_ctx *uffd;	       /* with VM_UFFD_*: the registration's */
};

struct mm {
	pgd_t *pgd;
	struct list_head vmas;
	struct rwsem mmap_lock;
	struct spinlock pt_lock;
	int users;   /* tasks sharing it, and get_task_mm's holders */
	u64 cpumask; /* CPUs that have it loaded (TLB shootdown targets) */
	u64 brk_start, brk;
	/* The program's layout as exec left it, for /proc (Linux's names): */
	u64 start_stack;	  /* where argc is */
	u64 start_code, end_code; /* the executable segments' file contents */
	u64 start_data, end_data; /* the other segments' */
	u64 arg_start, arg_end;	  /* argv's strings */
	u64 env_start, env_end;	  /* envp's strings */
	u64 auxv_start, auxv_end; /* the auxiliary vector, AT_NULL included */
	u64 rss;		  /* pages mapped (special mappings not counted) */
	u64 hiwater_rss;	  /* the most rss ever was (getrusage's ru_maxrss) */
	u64 pgtables;  /* user page-table pages below pgd (pte_alloc; VmPTE); pt_lock to add */
	u32 def_flags; /* VM_LOCKED (| VM_LOCKONFAULT) for new areas: mlockall(MCL_FUTURE) */
	u64 vdso_base; /* the vDSO's ELF header (AT_SYSINFO_EHDR), or 0 */
	u32 membarrier_state; /* MEMBARRIER_* registrations (kernel/sched/membarrier.c); atomic */
};

/* One more page mapped (pt_lock held): rss and its high-water mark. */
static inline void
mm_rss_inc(struct mm *mm)
{
	mm->rss++;
	if (mm->rss > mm->hiwater_rss)
		mm->hiwater_rss = mm->rss;
}

struct mm *mm_create(void);
struct mm *mm_fork(struct mm *old); /* copy-on-write copy; NULL when out of memory */
void mm_get(struct mm *mm);
void mm_put(struct mm *mm);
/*
 * Another task's address space, referenced (mm_put when done), or NULL for
 * a kernel thread or a task past exit: Linux's get_task_mm. The caller
 * keeps t from being freed (holds tasks_lock, having found it there).
 */
struct mm *get_task_mm(struct task *t);
/*
 * Copies up to len bytes at addr of mm (not necessarily the caller's) to
 * buf, faulting pages in as a read would; stops at the first address no
 * readable area covers. The bytes copied. Sleeps (takes mm's mmap lock).
 * Linux's access_remote_vm, reading only.
 */
size_t access_remote_vm(struct mm *mm, u64 addr, void *buf, size_t len);
/*
 * Writes up to len bytes of buf at addr of mm (process_vm_writev), stopping
 * at the first address it cannot write; with `force`, as a debugger does
 * (ptrace's POKETEXT, Linux's FOLL_FORCE), read-only private areas too,
 * through a private copy of the page. The bytes written. Sleeps.
 */
size_t access_remote_vm_write(struct mm *mm, u64 addr, const void *buf, size_t len, bool force);
/* Loads mm's page tables on this CPU (the kernel's alone for NULL). */
void mm_activate(struct mm *mm);

/*
 * vm.mmap_min_addr (/proc/sys/vm, root's to set; Debian's 65536): a user
 * mapping placed below it takes CAP_SYS_RAWIO, so that a kernel bug that
 * follows a NULL pointer cannot be handed a page at 0 the user filled.
 */
#define MMAP_MIN_ADDR_DEFAULT 0x10000ul
extern unsigned long mmap_min_addr;
/*
 * Linux's security_mmap_addr (cap_mmap_addr), asked wherever a mapping is
 * placed: 0, or -EPERM for addr below mmap_min_addr without CAP_SYS_RAWIO.
 */
int mmap_addr_permitted(u64 addr);

/* Where mmap without a hint would put len bytes (the highest free gap), or 0: none. */
u64 vm_free_area(struct mm *mm, u64 len);

/*
 * Maps [start, start + len) with the given VM_* flags (VM_MAYWRITE is
 * added: exec maps private file pages and anonymous memory); replaces what
 * was there. 0 or -errno.
 */
int vm_map_fixed(struct mm *mm, u64 start, u64 len, u32 flags, struct file *file, u64 pgoff,
		 const char *name);
/*
 * Maps all of a special mapping at start with VM_READ/VM_EXEC flags; it is
 * populated at once, so using it costs no page fault. 0, -EEXIST when
 * something is mapped there already, or -ENOMEM.
 */
int vm_map_special(struct mm *mm, u64 start, const struct special_mapping *sm, u32 flags);
long vm_mmap(struct mm *mm, u64 addr, u64 len, int prot, int flags, struct file *file, u64 pgoff);
int vm_munmap(struct mm *mm, u64 start, u64 len);
/*
 * Unmaps the parts of [start, end) that map file, leaving other areas there
 * alone (shmdt: what one shmat mapped, though munmap or mmap have since
 * replaced some of it). The number of areas it took, or -errno.
 */
int vm_unmap_file(struct mm *mm, u64 start, u64 end, const struct file *file);
int vm_mprotect(struct mm *mm, u64 start, u64 len, int prot);
/*
 * Whether len more bytes may be locked in mm (mmap_lock held): within
 * RLIMIT_MEMLOCK, or privileged (mm/mlock.c).
 */
bool vm_may_lock(struct mm *mm, u64 len);
/* Linux's can_do_mlock: a RLIMIT_MEMLOCK of 0 forbids locking to the unprivileged altogether. */
bool vm_may_lock_at_all(void);
/* Sets up the heap after exec: an empty [heap] at start. */
void vm_brk_init(struct mm *mm, u64 start);
/* brk(2): moves the end of the heap; returns the (possibly unchanged) end. */
u64 vm_brk(struct mm *mm, u64 want);
/*
 * A fault at addr, in no area, below an area that grows down (the stack,
 * MAP_GROWSDOWN): it grows down to the page of addr, if RLIMIT_STACK and
 * RLIMIT_AS allow and STACK_GUARD_GAP stays free above an accessible area
 * below. 0, or -ENOMEM (the fault is then a SIGSEGV). Takes mmap_lock for
 * writing.
 */
int vm_grow_stack(struct mm *mm, u64 addr);
/* The area containing addr, or NULL; mmap_lock held. */
struct vma *vma_find(struct mm *mm, u64 addr);
/* Entry bits of a user page: absent (PTE_PROTNONE) while the area allows no access. */
u64 vm_pte_flags(u32 vmflags, bool writable);

/*
 * Page-fault result: handled, or why not. Inside the fault path only: the
 * area's userfaultfd must resolve it (FAULT_USERFAULT), or it waited for
 * that with the mmap lock dropped and the fault is tried again (FAULT_RETRY).
 */
enum fault_result {
	FAULT_OK,
	FAULT_SEGV_MAPERR,
	FAULT_SEGV_ACCERR,
	FAULT_BUS,
	FAULT_HWPOISON, /* a poisoned page (mm/memory_failure.c): SIGBUS BUS_MCEERR_AR */
	FAULT_OOM,
	FAULT_USERFAULT,
	FAULT_RETRY
};
/* Resolves a fault at addr with the CPU's error code in the current mm. */
enum fault_result handle_mm_fault(u64 addr, u64 error);
/* A fault in a special mapping whose access v allows: its fixed page goes back in. mmap_lock held. */
enum fault_result vm_special_fault(struct mm *mm, struct vma *v, u64 va);
/* /proc/<pid>/maps text: the number of bytes written. */
size_t vm_show_maps(struct mm *mm, char *buf, size_t size);
/* One line of maps, and v's (mmap_lock held); their length, as ksnprintf's. */
size_t vm_show_map_line(char *buf, size_t size, u64 start, u64 end, const char *perms, u64 offset,
			const char *name);
size_t vm_show_area_line(const struct vma *v, char *buf, size_t size);
/* /proc/<pid>/smaps and smaps_rollup text, as vm_show_maps (mm/smaps.c). */
size_t vm_show_smaps(struct mm *mm, char *buf, size_t size);
size_t vm_show_smaps_rollup(struct mm *mm, char *buf, size_t size);
/*
 * /proc/<pid>/pagemap: n entries for the pages from va, below USER_TOP
 * (mm/pagemap.c); the page frame numbers only if show_pfn. Takes mmap_lock.
 */
void vm_pagemap(struct mm *mm, u64 va, size_t n, u64 *out, bool show_pfn);

#endif
