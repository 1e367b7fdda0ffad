/*
 * userfaultfd.h - what the memory manager and the userfaultfd file
 * (fs/userfaultfd.c) ask of each other: the fault path hands a registered
 * area's missing or minor fault to the file, whose reader resolves it by
 * filling pages in (mm/userfaultfd.c) and waking the fault.
 */
#ifndef REWIND_MM_USERFAULTFD_H
#define REWIND_MM_USERFAULTFD_H

#include "mm/vm.h"

struct userfaultfd_ctx;

/*
 * Whether a fault at va of v, registered (VM_UFFD_*) and with no page
 * mapped there, belongs to v's userfaultfd: in anonymous memory registered
 * for MISSING faults, always; in a file area registered for MINOR faults,
 * when the file's cache holds the page. mmap_lock held.
 */
bool userfaultfd_wants(struct vma *v, u64 va);
/*
 * Hands the fault at addr of v (which userfaultfd_wants) to v's
 * userfaultfd and waits for its reader to resolve it, as Linux's
 * handle_userfault. Drops mm's mmap lock, taken for reading. FAULT_RETRY
 * when the fault is to be tried again; FAULT_OK for a user fault a signal
 * interrupted (the instruction runs again after the handler); FAULT_BUS
 * for a fault the userfaultfd refuses to wait for (UFFD_FEATURE_SIGBUS, a
 * kernel access with UFFD_USER_MODE_ONLY, a kernel access whose task is
 * being killed).
 */
enum fault_result handle_userfault(struct mm *mm, struct vma *v, u64 addr, u64 error);

/* How mfill fills the missing pages of a range (UFFDIO_COPY, _ZEROPAGE, _CONTINUE). */
enum mfill_kind { MFILL_COPY, MFILL_ZEROPAGE, MFILL_CONTINUE };
/*
 * Maps a page at each page of [dst, dst + len) of mm, an area registered
 * with ctx: a copy of the user page at src (MFILL_COPY), the zero page, or
 * the file's cached page (MFILL_CONTINUE). Page-aligned arguments checked
 * by the caller. The bytes mapped, or -errno when none was: -ENOENT (no
 * registered area holds the whole range), -EINVAL (the area's kind does
 * not take this fill), -EEXIST (a page is mapped there already), -EFAULT
 * (src unreadable; for MFILL_CONTINUE, the file's cache lacks the page),
 * -ENOMEM, -EINTR (a fatal signal).
 */
long mfill(struct mm *mm, struct userfaultfd_ctx *ctx, u64 dst, u64 src, u64 len,
	   enum mfill_kind kind);

/*
 * Sets the VM_UFFD_* bits `modes` on the areas in [start, end) and makes
 * ctx their userfaultfd (modes 0, ctx NULL: unregisters), splitting and
 * merging areas as vm_apply_flags does. mmap_lock held for writing. 0 or
 * -ENOMEM.
 */
int vm_apply_userfaultfd(struct mm *mm, u64 start, u64 end, u32 modes, struct userfaultfd_ctx *ctx);

#endif
