/*
 * vsyscall.c - the legacy vsyscall page in every form Linux gave it; see
 * vsyscall.h. The knob vsyscall= picks the form, at boot or at run time:
 *
 *   legacy       Linux <= 2.6.39: real user code, the clock reader of the
 *                vDSO linked at the fixed address (user/vdso/), reading the
 *                vvar page at VVAR_FIXED_ADDR. Never enters the kernel.
 *   trap         Linux 3.0 (5cec93c2): each entry is `int $0xcc`; the kernel
 *                emulates the call (vsyscall_trap) and returns with iretq.
 *   trap-sysret  the same, returning with sysret: Lutomirski's experiment in
 *                the thread of docs/seeds.md's seed 001 (237 -> 157 ns).
 *   native       Linux 3.1-4.19 vsyscall=native: `mov $nr, %eax; syscall; ret`.
 *   emulate      Linux 3.1+: the same bytes, readable but not executable;
 *                the instruction fetch faults and the #PF handler emulates.
 *   xonly        Linux 5.3+ default: no page at all; calls are emulated from
 *                the not-present fault, reads fault.
 *   none         no page; any use is SIGSEGV.
 *
 * Default: emulate. rewind replays the 3.1 regression, whose "after" this
 * is; the Linux column (tools/rewind-run --linux) boots Linux with
 * vsyscall=emulate too, so the default compares like with like. xonly
 * differs only in that reads of the page fault, which no caller measures.
 *
 * Switching at run time (Linux never does) swaps the page-table entry of
 * the shared page to the mode's image. A thread may stand inside the old
 * image then: anywhere in legacy's clock code, or at a native stub's
 * `syscall` or `ret` (where the system call returns); at those addresses
 * the new image has int3 filler, a stub's middle or no execute permission
 * (docs/robustness.md, review 2 row 12). So the swap is made with every other CPU parked
 * (stop_machine), which puts every thread's user rip in its saved frame,
 * and each frame inside the old image other than at an entry's first byte
 * (a valid start in every image) is moved to the same offset of a
 * permanent alias of that image (VSYSCALL_LEGACY_ALIAS, _NATIVE_ALIAS),
 * where the call finishes and returns to its caller. Trap's only inner
 * rip, entry+2, is the trap being served, which returns to the caller
 * itself. Parked CPUs drop their TLB entries before they go on. A signal
 * handler's saved rip is moved the same way before it is written to the
 * user stack (vsyscall_leave_page), since no stop can see it there.
 * Each trap or fault reads the mode once, so a handler never mixes two
 * modes.
 */
#include "kernel/vdso/vsyscall.h"
#include "uapi/errno.h"
#include "kernel/knobs.h"
#include "kernel/panic.h"
#include "kernel/x86/paravirt.h"
#include "kernel/x86/percpu.h"
#include "kernel/printk.h"
#include "kernel/sched/sched.h"
#include "kernel/signal/signal.h"
#include "kernel/x86/smp.h"
#include "kernel/x86/stop_machine.h"
#include "kernel/lib/string.h"
#include "kernel/syscall/syscall.h"
#include "kernel/process/task.h"
#include "kernel/x86/traps.h"
#include "kernel/time/tsc.h"
#include "locking/mutex.h"
#include "mm/page_alloc.h"
#include "mm/paging.h"
#include "mm/vm.h"

enum vsyscall_mode {
	VSYSCALL_LEGACY,
	VSYSCALL_TRAP,
	VSYSCALL_TRAP_SYSRET,
	VSYSCALL_NATIVE,
	VSYSCALL_EMULATE,
	VSYSCALL_XONLY,
	VSYSCALL_NONE,
};

static void vsyscall_mode_changed(void);

KNOB_ENUM_NOTIFY(vsyscall_mode, "vsyscall", VSYSCALL_EMULATE, true, vsyscall_mode_changed,
		 "the legacy vsyscall page: native code, int 0xcc trap (iret or sysret return), "
		 "syscall stubs, #PF emulation, execute-only, or none",
		 "legacy", "trap", "trap-sysret", "native", "emulate", "xonly", "none");

#define VSYSCALL_ENTRY_SIZE 0x400
#define VSYSCALL_ENTRY_MASK 0xc00
#define INT3		    0xcc /* the filler between entries, as in Linux */
#define PAGE_USER_RX	    (PTE_PRESENT | PTE_USER | PTE_GLOBAL)
#define PAGE_USER_RO	    (PTE_PRESENT | PTE_USER | PTE_GLOBAL | PTE_NX)

/* The three entries: the system call each stands for, and the bytes it writes through its two pointer arguments. */
static const struct vsyscall_entry {
	const char *name;
	unsigned nr;
	size_t out_size[2]; /* behind rdi and rsi; 0: not an output */
} entries[] = {
	{ "gettimeofday", __NR_gettimeofday, { 16, 8 } }, /* struct timeval, struct timezone */
	{ "time", __NR_time, { 8, 0 } },
	{ "getcpu", __NR_getcpu, { 4, 4 } },
};

extern const u8 vsyscall_legacy_page[]; /* kernel/vdso/vdso_image.asm */

static phys_addr_t trap_page, stubs_page; /* built at boot */
static pte_t *vsyscall_pte, *hpet_pte, *alias_hpet_pte;
static bool vsyscall_ready;
static int shown_mode; /* the mode whose image the page holds; changed only under a stop */
static struct mutex remap_lock = MUTEX_INIT(remap_lock, "vsyscall_remap");

/* ---- the page images and their mapping ------------------------------------- */

/* A page of int3 with code at each entry; code(entry, nr, dst) writes it. */
static phys_addr_t
build_page(void (*code)(u8 *dst, unsigned nr))
{
	u8 *page = alloc_zeroed_page();

	if (!page)
		panic("vsyscall: no memory for the page images");
	memset(page, INT3, PAGE_SIZE);
	for (unsigned i = 0; i < ARRAY_SIZE(entries); i++)
		code(page + i * VSYSCALL_ENTRY_SIZE, entries[i].nr);
	return virt_to_phys(page);
}

/* int $0xcc (Linux 3.0). */
static void
int_code(u8 *dst, unsigned nr)
{
	dst[0] = 0xcd;
	dst[1] = VSYSCALL_VECTOR;
}

/* mov $nr, %eax; syscall; ret (Linux 3.1+). */
static void
syscall_code(u8 *dst, unsigned nr)
{
	const u8 code[] = { 0xb8, nr & 0xff, (nr >> 8) & 0xff, 0, 0, 0x0f, 0x05, 0xc3 };

	memcpy(dst, code, sizeof(code));
}

/* The page-table entry of the vsyscall page in a mode; 0 = not present. */
static u64
vsyscall_entry_for(int mode)
{
	switch (mode) {
	case VSYSCALL_LEGACY:
		return kernel_image_to_phys(vsyscall_legacy_page) | PAGE_USER_RX;
	case VSYSCALL_TRAP:
	case VSYSCALL_TRAP_SYSRET:
		return trap_page | PAGE_USER_RX;
	case VSYSCALL_NATIVE:
		return stubs_page | PAGE_USER_RX;
	case VSYSCALL_EMULATE:
		return stubs_page | PAGE_USER_RO;
	default:
		return 0;
	}
}

/* The HPET's registers appear when its driver has run, which may be after vsyscall_init. */
static void
map_fixed_hpet(void)
{
	u64 want = vvar_hpet_phys ? vvar_hpet_phys | PAGE_USER_RO | PTE_CACHE_UC : 0;

	if (pte_val(*hpet_pte) != want) {
		set_pte(hpet_pte, make_pte(want));
		set_pte(alias_hpet_pte, make_pte(want));
		tlb_flush_kernel_range(VVAR_HPET_FIXED_ADDR, VVAR_HPET_FIXED_ADDR + PAGE_SIZE);
		tlb_flush_kernel_range(VSYSCALL_LEGACY_ALIAS - 2 * PAGE_SIZE,
				       VSYSCALL_LEGACY_ALIAS - PAGE_SIZE);
	}
}

static int entry_index(u64 addr);

/* Where a thread inside mode's image continues: its permanent alias, or 0 for none needed. */
static u64
alias_of(int mode)
{
	switch (mode) {
	case VSYSCALL_LEGACY:
		return VSYSCALL_LEGACY_ALIAS;
	case VSYSCALL_NATIVE:
		return VSYSCALL_NATIVE_ALIAS;
	default:
		return 0; /* trap's entry+2 returns by itself; the other images never run */
	}
}

/*
 * Moves f's rip from inside the page's current image to the same place in
 * its alias. A frame of int $0xcc not yet served (its thread parked or
 * preempted before vsyscall_trap read rip) is left alone: its rip, entry+2,
 * names the trapping entry whatever the page shows now, and moving it
 * after a later switch to legacy would make the trap look foreign.
 */
static void
move_to_alias(struct trap_frame *f)
{
	u64 alias = alias_of(shown_mode);

	if (alias && f->vector != VSYSCALL_VECTOR && (f->rip & PAGE_MASK) == VSYSCALL_ADDR &&
	    entry_index(f->rip) < 0)
		f->rip = alias + (f->rip & ~PAGE_MASK);
}

void
vsyscall_leave_page(struct trap_frame *f)
{
	u64 irq =
		local_irq_save(); /* no stop (which needs this CPU parked) between read and write */

	move_to_alias(f);
	local_irq_restore(irq);
}

/* Every other CPU parked: every user thread's rip is in its saved frame. */
static void
switch_image(void *new_mode)
{
	struct list_head *pos;
	u64 flags = spin_lock_irqsave(&tasks_lock);

	list_for_each(pos, &all_tasks) {
		struct task *t = list_entry(pos, struct task, all_link);
		if (t->mm)
			move_to_alias(task_user_frame(t));
	}
	spin_unlock_irqrestore(&tasks_lock, flags);
	shown_mode = *(int *)new_mode;
	set_pte(vsyscall_pte, make_pte(vsyscall_entry_for(shown_mode)));
	__native_flush_tlb_single(VSYSCALL_ADDR); /* the parked CPUs flush on their way out */
}

static bool
park_anywhere(u64 rip)
{
	(void)rip;
	return true;
}

static void
remap(void)
{
	mutex_lock(&remap_lock);
	int mode = READ_ONCE(vsyscall_mode);
	map_fixed_hpet();
	if (mode != shown_mode)
		stop_machine(switch_image, &mode, park_anywhere);
	mutex_unlock(&remap_lock);
}

/* A user-executable page-table entry for the alias at va of the page at phys. */
static void
map_alias(u64 va, u64 entry)
{
	pte_t *pte = kernel_user_pte(va);

	if (!pte)
		panic("vsyscall: no memory for the page tables of the aliases");
	set_pte(pte, make_pte(entry));
}

/* The knob's on_change: also called for the command line, before there is a page. */
static void
vsyscall_mode_changed(void)
{
	if (READ_ONCE(vsyscall_ready))
		remap();
}

void
vsyscall_init(void)
{
	trap_page = build_page(int_code);
	stubs_page = build_page(syscall_code);
	pte_t *vvar_pte = kernel_user_pte(VVAR_FIXED_ADDR);
	vsyscall_pte = kernel_user_pte(VSYSCALL_ADDR);
	hpet_pte = kernel_user_pte(VVAR_HPET_FIXED_ADDR);
	alias_hpet_pte = kernel_user_pte(VSYSCALL_LEGACY_ALIAS - 2 * PAGE_SIZE);
	if (!vsyscall_pte || !vvar_pte || !hpet_pte || !alias_hpet_pte)
		panic("vsyscall: no memory for the page tables of the fixed user pages");
	set_pte(vvar_pte, make_pte(vvar_phys | PAGE_USER_RO));
	map_alias(VSYSCALL_LEGACY_ALIAS - PAGE_SIZE, vvar_phys | PAGE_USER_RO);
	map_alias(VSYSCALL_LEGACY_ALIAS, vsyscall_entry_for(VSYSCALL_LEGACY));
	map_alias(VSYSCALL_NATIVE_ALIAS, vsyscall_entry_for(VSYSCALL_NATIVE));
	/* No user thread yet: the first image goes in without a stop. */
	shown_mode = READ_ONCE(vsyscall_mode);
	map_fixed_hpet();
	set_pte(vsyscall_pte, make_pte(vsyscall_entry_for(shown_mode)));
	tlb_flush_kernel_range(VSYSCALL_ADDR, VSYSCALL_ADDR + PAGE_SIZE);
	WRITE_ONCE(vsyscall_ready, true);
	pr_info("vsyscall: page at %#lx, vsyscall=%s\n", VSYSCALL_ADDR,
		vsyscall_mode_names[READ_ONCE(vsyscall_mode)]);
}

const char *
vsyscall_maps_perms(void)
{
	switch (READ_ONCE(vsyscall_mode)) {
	case VSYSCALL_EMULATE:
		return "r--p";
	case VSYSCALL_XONLY:
		return "--xp";
	case VSYSCALL_NONE:
		return NULL;
	default:
		return "r-xp";
	}
}

/* ---- emulation ------------------------------------------------------------------ */

/* The entry an address is, or -1 for anything but the start of one (a "misaligned vsyscall"). */
static int
entry_index(u64 addr)
{
	unsigned i = (unsigned)((addr & VSYSCALL_ENTRY_MASK) / VSYSCALL_ENTRY_SIZE);

	return (addr & ~(u64)VSYSCALL_ENTRY_MASK) == VSYSCALL_ADDR && i < ARRAY_SIZE(entries)
		       ? (int)i
		       : -1;
}

static void
warn_bad_vsyscall(const struct trap_frame *f, const char *what)
{
	static struct ratelimit rl;
	unsigned dropped;

	if (ratelimit_allow(&rl, &dropped))
		pr_notice("vsyscall: %s (pid %d) %s: rip %#lx rsp %#lx rax %#lx%s\n",
			  current()->comm, current()->pid, what, f->rip, f->rsp, f->rax,
			  dropped ? " (more suppressed)" : "");
}

/* SIGSEGV without a fault behind it, as Linux's force_sig(SIGSEGV): si_code SI_KERNEL. */
static void
segv(const struct trap_frame *f, const char *why)
{
	struct fault_report r = {
		.sig = SIGSEGV,
		.code = SI_KERNEL,
		.trapno = f->vector,
		.why = why,
	};
	force_sig_fault(&r);
}

/*
 * Where a real vsyscall would have faulted writing [p, p + n): the first
 * byte outside a writable area, or 0 when all of it may be written.
 */
static u64
unwritable_byte(u64 p, size_t n)
{
	struct mm *mm = current()->mm;
	u64 bad = 0;

	if (!access_ok((void __user *)p, n))
		return p;
	down_read(&mm->mmap_lock);
	for (u64 a = p; a < p + n && !bad;) {
		struct vma *v = vma_find(mm, a);
		if (!v || !(v->flags & VM_WRITE))
			bad = a;
		else
			a = v->end;
	}
	up_read(&mm->mmap_lock);
	return bad;
}

/* The fake page fault at the first byte of the outputs a real vsyscall could not have written. */
static void
raise_bad_output(const struct trap_frame *f, u64 bad)
{
	struct fault_report r = {
		.sig = SIGSEGV,
		.code = SEGV_MAPERR,
		.addr = bad,
		.trapno = VEC_PAGE_FAULT,
		.error = PF_USER | PF_WRITE,
		.why = "vsyscall with a bad output pointer",
	};

	warn_bad_vsyscall(f, "passed a bad output pointer");
	force_sig_fault(&r);
}

/* The first byte of the call's outputs that is not writable, or 0 (a race made it so since). */
static u64
first_bad_output(const struct trap_frame *f, const struct vsyscall_entry *e)
{
	const u64 args[2] = { f->rdi, f->rsi };

	for (int i = 0; i < 2; i++) {
		u64 bad = e->out_size[i] && args[i] ? unwritable_byte(args[i], e->out_size[i]) : 0;
		if (bad)
			return bad;
	}
	return 0;
}

/*
 * Linux 3.2 (4fc34901) made a bad output pointer look like the page fault
 * a real vsyscall would have taken: SIGSEGV at that address, trap 14,
 * error 6 (a user-mode write). It checked only access_ok before the call
 * and let a fault inside the call raise the signal, so the good path costs
 * no more than a range check; the search for the address runs only once
 * the call has failed. Returns whether the outputs passed the range check.
 */
static bool
outputs_in_user_range(const struct trap_frame *f, const struct vsyscall_entry *e)
{
	const u64 args[2] = { f->rdi, f->rsi };

	for (int i = 0; i < 2; i++)
		if (e->out_size[i] && args[i] &&
		    !access_ok((void __user *)args[i], e->out_size[i])) {
			raise_bad_output(f, args[i]);
			return false;
		}
	return true;
}

/* Linux 3.0 trapped with `int $0xcc`; 3.1 and later fault on the page itself. */
enum emulation { BY_TRAP, BY_FAULT };

/*
 * Carries out the call at entry as the real code would: the system call's
 * result in rax, then the `ret` - rip from the user stack, rsp + 8. On a
 * failure the signal is raised with rip at the entry and nothing returns.
 */
static void
emulate_call(struct trap_frame *f, u64 entry, enum emulation how)
{
	const struct vsyscall_entry *e = &entries[entry_index(entry)];
	u64 caller;

	f->rip = entry;
	if (copy_from_user(&caller, (const void __user *)f->rsp, sizeof(caller))) {
		warn_bad_vsyscall(f, "called the vsyscall page with a bad stack");
		segv(f, "vsyscall with a bad stack");
		return;
	}
	if (how == BY_FAULT && !outputs_in_user_range(f, e))
		return;
	/* rdx (getcpu's cache) stays 0: Linux passes none. */
	struct trap_frame call = { .rax = e->nr, .rdi = f->rdi, .rsi = f->rsi };
	syscall_dispatch(&call);
	if ((s64)call.rax == -EFAULT) {
		u64 bad = how == BY_FAULT ? first_bad_output(f, e) : 0;
		if (bad) {
			raise_bad_output(f, bad);
		} else {
			warn_bad_vsyscall(f, "passed a bad output pointer");
			segv(f, "vsyscall with a bad output pointer");
		}
		return;
	}
	f->rax = call.rax;
	f->rip = caller;
	f->rsp += 8;
}

/*
 * In trap-sysret the frame is made fit for sysret, which restores rip from
 * rcx and rflags from r11. That is legal here: a vsyscall is an ordinary C
 * function call, so by the psABI its caller already treats rcx and r11 as
 * clobbered (a native vsyscall's `syscall` instruction clobbered them for
 * real), so they may hold rip and rflags whichever way the trap leaves.
 * Whether the frame then allows sysret (a signal handler to enter, a bad
 * return address) is decided with every other return, in exit_to_user.
 */
bool
vsyscall_trap(struct trap_frame *f)
{
	u64 entry = f->rip - 2; /* `int imm8` is two bytes */

	if (f->cs != USER_CS) {
		warn_bad_vsyscall(f, "made a vsyscall from a 32-bit code segment");
		segv(f, "vsyscall from a 32-bit code segment");
	} else if (entry_index(entry) < 0) {
		warn_bad_vsyscall(f, "executed int $0xcc outside a vsyscall entry");
		f->rip = entry;
		segv(f, "int $0xcc outside a vsyscall entry");
	} else {
		emulate_call(f, entry, BY_TRAP);
	}
	/* lab vsyscall: begin */
	if (READ_ONCE(vsyscall_mode) != VSYSCALL_TRAP_SYSRET)
		return false;
	f->rcx = f->rip;
	f->r11 = f->rflags;
	return true;
	/* lab vsyscall: end */
}

bool
vsyscall_fault(struct trap_frame *f, u64 addr)
{
	int mode = READ_ONCE(vsyscall_mode);

	if ((addr & PAGE_MASK) != VSYSCALL_ADDR || (f->error & PF_WRITE) || !(f->error & PF_USER))
		return false;
	if (!(f->error & PF_INSTR)) {
		if (mode == VSYSCALL_XONLY)
			warn_bad_vsyscall(f, "read the vsyscall page, which vsyscall=xonly denies");
		return false;
	}
	if (mode == VSYSCALL_NONE)
		return false;
	/* Modes with an executable page fault here only while a switch is under way: emulate too. */
	if (f->rip != addr || entry_index(addr) < 0) {
		warn_bad_vsyscall(f, "jumped into the vsyscall page off an entry");
		return false; /* the ordinary SIGSEGV for the address */
	}
	emulate_call(f, addr, BY_FAULT);
	return true;
}
