/*
 * traps.c - the IDT, the first C code of every trap, and the report of a
 * fatal kernel exception.
 *
 * A trap from user mode goes on to entry.c (user_trap), which brackets the
 * work and comes back here for an exception: user_exception() turns it
 * into a page fault resolved or a signal.
 *
 * Order of decisions for an exception taken in kernel mode: a self-test
 * that armed expect_trap() gets it; an instruction listed in the exception
 * table resumes at its fixup; anything else is fatal: die() prints the
 * exception, the decoded error code, CR2, every register and a symbolized
 * backtrace, stops all CPUs and halts (or ends QEMU under test).
 *
 * NMI context (the profiler's stack walk runs there) is kept apart, as
 * Linux keeps it: page faults are disabled, so that a probe of user memory
 * fails through its fixup instead of paging in under the interrupted
 * task's locks; an exception taken inside the handler returns without
 * iretq (TRAP_EXIT_WITHIN_NMI), because iretq unblocks NMIs and the next
 * one would overwrite the running one's frame on the shared IST stack; and
 * CR2 is put back for a #PF handler the NMI interrupted. Until Dec 5 all
 * three happened at once in a profiled lat_mmap_lite: a #GP on iretq with a
 * garbage CS (docs/profiler.md, "Faults in the NMI").
 */
#include "kernel/x86/traps.h"
#include "kernel/backtrace.h"
#include "kernel/x86/debugreg.h"
#include "kernel/x86/entry.h"
#include "kernel/x86/fpu.h"
#include "kernel/x86/irq.h"
#include "kernel/ksyms.h"
#include "kernel/panic.h"
#include "kernel/x86/paravirt.h"
#include "kernel/x86/percpu.h"
#include "kernel/printk.h"
#include "kernel/profile.h"
#include "kernel/process/process.h"
#include "kernel/sched/sched.h"
#include "kernel/signal/signal.h"
#include "kernel/lib/string.h"
#include "kernel/syscall/syscall.h"
#include "kernel/vdso/vsyscall.h"
#include "kernel/x86/user_iret.h"
#include "kernel/x86/x86.h"
#include "mm/extable.h"
#include "mm/vm.h"
#include "mm/vmap.h"

struct idt_gate {
	u16 offset_low;
	u16 selector;
	u8 ist;
	u8 type_attr;
	u16 offset_mid;
	u32 offset_high;
	u32 reserved;
} __packed;

static struct idt_gate idt[256] __aligned(16);
extern const u64 trap_stubs[256];

static const char *const exception_names[NUM_EXCEPTIONS] = {
	[VEC_DIVIDE] = "#DE divide error",
	[VEC_DEBUG] = "#DB debug",
	[VEC_NMI] = "NMI",
	[VEC_BREAKPOINT] = "#BP breakpoint",
	[VEC_OVERFLOW] = "#OF overflow",
	[VEC_BOUND] = "#BR bound range exceeded",
	[VEC_INVALID_OPCODE] = "#UD invalid opcode",
	[VEC_DEVICE_NOT_AVAILABLE] = "#NM device not available",
	[VEC_DOUBLE_FAULT] = "#DF double fault",
	[9] = "coprocessor segment overrun",
	[VEC_INVALID_TSS] = "#TS invalid TSS",
	[VEC_SEGMENT_NOT_PRESENT] = "#NP segment not present",
	[VEC_STACK_FAULT] = "#SS stack-segment fault",
	[VEC_GENERAL_PROTECTION] = "#GP general protection",
	[VEC_PAGE_FAULT] = "#PF page fault",
	[VEC_X87] = "#MF x87 floating point",
	[VEC_ALIGNMENT_CHECK] = "#AC alignment check",
	[VEC_MACHINE_CHECK] = "#MC machine check",
	[VEC_SIMD] = "#XM SIMD floating point",
	[VEC_VIRTUALIZATION] = "#VE virtualization",
	[VEC_CONTROL_PROTECTION] = "#CP control protection",
	[VEC_HYPERVISOR_INJECTION] = "#HV hypervisor injection",
	[VEC_VMM_COMMUNICATION] = "#VC VMM communication",
	[VEC_SECURITY] = "#SX security",
};

const char *
exception_name(unsigned vector)
{
	if (vector < NUM_EXCEPTIONS && exception_names[vector])
		return exception_names[vector];
	return vector < NUM_EXCEPTIONS ? "reserved exception" : "interrupt";
}

static unsigned
ist_for(unsigned vector)
{
	switch (vector) {
	case VEC_DOUBLE_FAULT:
		return IST_DOUBLE_FAULT;
	case VEC_NMI:
		return IST_NMI;
	case VEC_MACHINE_CHECK:
		return IST_MACHINE_CHECK;
	default:
		return 0;
	}
}

/*
 * int3, into and int $0x80: as in Linux, user mode may execute these (else
 * #GP); and int $0xcc, the vsyscall page's trap in vsyscall=trap (Linux 3.0).
 */
static bool
user_may_raise(unsigned vector)
{
	return vector == VEC_BREAKPOINT || vector == VEC_OVERFLOW || vector == VEC_SYSCALL_INT80 ||
	       vector == VSYSCALL_VECTOR;
}

void
idt_init(void)
{
	for (unsigned v = 0; v < 256; v++) {
		u64 handler = trap_stubs[v];
		idt[v] = (struct idt_gate){
			.offset_low = handler & 0xffff,
			.selector = KERNEL_CS,
			.ist = ist_for(v),
			/* present, 64-bit interrupt gate; DPL 3 where user mode may raise it */
			.type_attr = user_may_raise(v) ? 0xee : 0x8e,
			.offset_mid = (handler >> 16) & 0xffff,
			.offset_high = handler >> 32,
		};
	}
}

void
idt_load(void)
{
	struct {
		u16 limit;
		u64 base;
	} __packed ptr = { sizeof(idt) - 1, (u64)idt };

	__asm__ __volatile__("lidt %0" : : "m"(ptr));
}

void
expect_trap(struct expected_trap *e)
{
	e->hit = false;
	this_cpu()->expected_trap = e;
}

static bool
take_expected_trap(struct trap_frame *f)
{
	struct expected_trap *e = this_cpu()->expected_trap;

	if (!e || e->vector != f->vector)
		return false;
	e->hit = true;
	e->error = f->error;
	e->rip = f->rip;
	e->cr2 = f->vector == VEC_PAGE_FAULT ? read_cr2() : 0;
	f->rip = e->resume;
	if (e->resume_rsp)
		f->rsp = e->resume_rsp;
	this_cpu()->expected_trap = NULL;
	return true;
}

static void
print_fault_address(u64 cr2)
{
	pr_emerg("  CR2 (fault address) 0x%016lx%s\n", cr2,
		 kstack_is_guard(cr2) ? "  <- a kernel stack's guard page: stack overflow" : "");
}

static void
print_page_fault_error(u64 err, u64 cr2)
{
	pr_emerg("  error 0x%lx: %s %s in %s mode%s%s%s\n", err,
		 err & PF_INSTR	  ? "instruction fetch from"
		 : err & PF_WRITE ? "write to"
				  : "read from",
		 err & PF_PRESENT ? "a page it may not access (protection)" : "an unmapped page",
		 err & PF_USER ? "user" : "kernel",
		 err & PF_RESERVED ? ", reserved bit set in a page-table entry" : "",
		 err & PF_PKEY ? ", protection key" : "",
		 err & PF_SHADOW_STACK ? ", shadow stack" : "");
	print_fault_address(cr2);
}

static void
print_selector_error(u64 err)
{
	static const char *const tables[] = { "GDT", "IDT", "LDT", "IDT" };

	if (!err) {
		pr_emerg("  error 0\n");
		return;
	}
	pr_emerg("  error 0x%lx: %s selector index %lu%s\n", err, tables[(err >> 1) & 3],
		 (err >> 3) & 0x1fff, err & 1 ? " (external event)" : "");
}

static bool
has_selector_error(unsigned v)
{
	return v == VEC_INVALID_TSS || v == VEC_SEGMENT_NOT_PRESENT || v == VEC_STACK_FAULT ||
	       v == VEC_GENERAL_PROTECTION || v == VEC_ALIGNMENT_CHECK;
}

static void
print_registers(const struct trap_frame *f)
{
	char sym[128];

	ksym_format(f->rip, sym, sizeof(sym));
	pr_emerg("  RIP %04lx:%016lx %s\n", f->cs, f->rip, sym);
	pr_emerg("  RSP %04lx:%016lx  RFLAGS %016lx\n", f->ss, f->rsp, f->rflags);
	pr_emerg("  RAX %016lx  RBX %016lx  RCX %016lx\n", f->rax, f->rbx, f->rcx);
	pr_emerg("  RDX %016lx  RSI %016lx  RDI %016lx\n", f->rdx, f->rsi, f->rdi);
	pr_emerg("  RBP %016lx  R8  %016lx  R9  %016lx\n", f->rbp, f->r8, f->r9);
	pr_emerg("  R10 %016lx  R11 %016lx  R12 %016lx\n", f->r10, f->r11, f->r12);
	pr_emerg("  R13 %016lx  R14 %016lx  R15 %016lx\n", f->r13, f->r14, f->r15);
	pr_emerg("  CR0 %016lx  CR3 %016lx  CR4 %016lx\n", read_cr0(), read_cr3(), read_cr4());
}

__noreturn void
die(struct trap_frame *f, const char *why)
{
	u64 cr2 = read_cr2(); /* before anything else can fault */

	panic_begin();
	pr_emerg("KERNEL FAULT on CPU %u: %s (vector %lu) in %s mode\n", this_cpu()->id, why,
		 f->vector, trap_from_user(f) ? "user" : "kernel");
	if (f->vector == VEC_PAGE_FAULT)
		print_page_fault_error(f->error, cr2);
	else if (f->vector == VEC_DOUBLE_FAULT)
		print_fault_address(cr2); /* usually the #PF that could not be delivered */
	else if (has_selector_error((unsigned)f->vector))
		print_selector_error(f->error);
	print_registers(f);
	backtrace_print(f->rip, f->rsp, f->rbp);
	panic_stop();
}

/*
 * Three kinds of NMI: a panicking CPU stopping this one; the profiler's
 * timer (kernel/profile.c; while it samples, every NMI on this CPU counts as
 * its own, since the LAPIC timer leaves no status to tell); and the legacy
 * line, which is reported.
 */
static void
nmi_handle(struct trap_frame *f)
{
	if (panic_in_progress()) {
		if (panic_on_this_cpu())
			return; /* the profiler's timer, while this CPU reports */
		/* Another CPU panicked and stops this one. */
		for (;;) {
			local_irq_disable();
			halt();
		}
	}
	if (profile_nmi(f))
		return;
	pr_warn("NMI on CPU %u at rip %#lx (port 0x61 = %#x)\n", this_cpu()->id, f->rip, inb(0x61));
}

/*
 * NMI context, as Linux keeps it (see the header): page faults disabled, so
 * that a fault on user memory fails through its fixup instead of paging in
 * under whatever lock the interrupted code holds; in_nmi, so that an
 * exception taken here returns without iretq; and CR2 as it was, for a #PF
 * handler the NMI interrupted before it read the address.
 */
static void
nmi(struct trap_frame *f)
{
	struct cpu *c = this_cpu();
	u64 cr2 = read_cr2();

	c->in_nmi = true;
	c->pagefault_disabled++;
	irq_count_nmi();
	nmi_handle(f);
	c->pagefault_disabled--;
	c->in_nmi = false;
	if (read_cr2() != cr2)
		write_cr2(cr2);
}

/* x87 (#MF) or SIMD (#XM): the first unmasked exception flag, as Linux turns it into si_code. */
static int
fpu_exception_code(unsigned vector)
{
	struct fpu_state s;
	u16 control, status;
	u32 mxcsr, raised;

	fpu_save(&s);
	if (vector == VEC_X87) {
		memcpy(&control, s.bytes, sizeof(control));
		memcpy(&status, s.bytes + 2, sizeof(status));
		raised = status & ~control;
	} else {
		memcpy(&mxcsr, s.bytes + 24, sizeof(mxcsr));
		raised = mxcsr & ~(mxcsr >> 7); /* flags in bits 0-5, their masks in 7-12 */
	}
	if (raised & 0x01)
		return FPE_FLTINV;
	if (raised & 0x04)
		return FPE_FLTDIV;
	if (raised & 0x08)
		return FPE_FLTOVF;
	if (raised & 0x12) /* denormal operand, underflow */
		return FPE_FLTUND;
	if (raised & 0x20)
		return FPE_FLTRES;
	return FPE_FLTINV;
}

/*
 * The signal, si_code and si_addr Linux gives a user exception other than
 * a page fault. #GP and most others are SIGSEGV with SI_KERNEL and no
 * address; int3 too is SI_KERNEL (Linux's do_trap), not TRAP_BRKPT. A #DB
 * also takes its hit from DR6 (which may set RF in f: debugreg.c).
 */
static struct fault_report
signal_for(struct trap_frame *f)
{
	unsigned vector = (unsigned)f->vector;
	struct fault_report r = {
		.sig = SIGSEGV,
		.code = SI_KERNEL,
		.trapno = vector,
		.error = f->error,
		.why = exception_name(vector),
	};

	switch (vector) {
	case VEC_DIVIDE:
		r.sig = SIGFPE, r.code = FPE_INTDIV, r.addr = f->rip;
		break;
	case VEC_X87:
	case VEC_SIMD:
		r.sig = SIGFPE, r.code = fpu_exception_code(vector), r.addr = f->rip;
		break;
	case VEC_INVALID_OPCODE:
		r.sig = SIGILL, r.code = ILL_ILLOPN, r.addr = f->rip;
		break;
	case VEC_DEBUG: /* a single-step (TF) or a tracer's hardware breakpoint */
		r.sig = SIGTRAP, r.code = debugreg_user_trap(f), r.addr = f->rip;
		break;
	case VEC_BREAKPOINT:
		r.sig = SIGTRAP;
		break;
	case VEC_SEGMENT_NOT_PRESENT:
	case VEC_STACK_FAULT:
		r.sig = SIGBUS;
		break;
	case VEC_ALIGNMENT_CHECK:
		r.sig = SIGBUS, r.code = BUS_ADRALN;
		break;
	}
	return r;
}

static const char *
fault_reason(enum fault_result r, u64 error)
{
	if (r == FAULT_SEGV_MAPERR)
		return "page fault on an unmapped address";
	if (r == FAULT_BUS)
		return "page fault beyond the end of a mapped file";
	if (r == FAULT_OOM)
		return "page fault: out of memory";
	if (r == FAULT_HWPOISON)
		return "page fault on a page whose memory failed";
	return error & PF_WRITE	  ? "write to a read-only mapping"
	       : error & PF_INSTR ? "instruction fetch from a non-executable mapping"
				  : "read from a mapping that allows no access";
}

/* A page fault handle_mm_fault could not resolve: SIGSEGV, or SIGBUS past the end of a file. */
static struct fault_report
page_fault_report(enum fault_result result, const struct trap_frame *f, u64 addr)
{
	int sig = result == FAULT_BUS || result == FAULT_HWPOISON ? SIGBUS : SIGSEGV;
	int code = result == FAULT_BUS		 ? BUS_ADRERR
		   : result == FAULT_HWPOISON	 ? BUS_MCEERR_AR
		   : result == FAULT_SEGV_MAPERR ? SEGV_MAPERR
		   : result == FAULT_SEGV_ACCERR ? SEGV_ACCERR
						 : SI_KERNEL;

	return (struct fault_report){ .sig = sig,
				      .code = code,
				      .addr = addr,
				      .addr_lsb = result == FAULT_HWPOISON ? PAGE_SHIFT : 0,
				      .trapno = VEC_PAGE_FAULT,
				      .error = f->error,
				      .why = fault_reason(result, f->error) };
}

void
user_exception(struct trap_frame *f, u64 cr2)
{
	struct fault_report report;

	if (f->vector == VEC_PAGE_FAULT) {
		if (vsyscall_fault(f, cr2))
			return;
		/* A supervisor access from ring 3: an emulator's, that no fault-in would fix. */
		bool supervisor = !(f->error & PF_USER);
		if (supervisor && user_iretq_emulated(f))
			return;
		enum fault_result r =
			supervisor ? FAULT_SEGV_ACCERR : handle_mm_fault(cr2, f->error);
		/*
		 * Out of memory with a fatal signal pending: this process was
		 * the OOM victim. Its SIGKILL is delivered on the way out, as
		 * Linux's pagefault_out_of_memory leaves it; a SIGSEGV on top
		 * would make its wait status lie about what killed it.
		 */
		if (r == FAULT_OK || (r == FAULT_OOM && fatal_signal_pending()))
			return;
		report = page_fault_report(r, f, cr2);
	} else {
		report = signal_for(f);
	}
	force_sig_fault(&report);
}

/*
 * A kernel page fault on a user address from an instruction allowed to
 * touch user memory (mm/uaccess.c): the page may just not be there yet.
 * Resolve it like a user fault; the instruction then runs again. Not while
 * page faults are disabled (get_user_u32_nofault, under a spinlock): the
 * handler may sleep, so the access fails through its fixup instead.
 */
static bool
fault_in_for_uaccess(struct trap_frame *f)
{
	u64 addr = read_cr2();

	if (f->vector != VEC_PAGE_FAULT || addr >= USER_TOP || !current()->mm ||
	    !extable_has(f->rip) || this_cpu()->pagefault_disabled)
		return false;
	if (f->rflags & RFLAGS_IF)
		local_irq_enable();
	bool ok = handle_mm_fault(addr, f->error) == FAULT_OK;
	local_irq_disable();
	return ok;
}

/* A user watchpoint's #DB raised by the kernel's own access to the watched bytes. */
static bool
watchpoint_in_kernel(const struct trap_frame *f)
{
	return f->vector == VEC_DEBUG && debugreg_kernel_trap();
}

static void
kernel_exception(struct trap_frame *f)
{
	if (take_expected_trap(f) || watchpoint_in_kernel(f) || fault_in_for_uaccess(f) ||
	    extable_fixup(f))
		return;
	die(f, exception_name((unsigned)f->vector));
}

/* Software interrupts that only user mode raises; from kernel mode they are a bug. */
static bool
user_only_vector(u64 vector)
{
	return vector == VEC_SYSCALL_INT80 || vector == VSYSCALL_VECTOR;
}

__entry_text int
trap_dispatch(struct trap_frame *f)
{
	if (f->vector == VEC_NMI) {
		nmi(f);
		return TRAP_EXIT_IRETQ; /* paranoid_entry's own iretq, in fact */
	}
	if (trap_from_user(f))
		return user_trap(f);
	if (user_only_vector(f->vector))
		die(f, "a user-mode software interrupt raised in kernel mode");
	if (f->vector >= NUM_EXCEPTIONS)
		irq_dispatch(f);
	else
		kernel_exception(f);
	return this_cpu()->in_nmi ? TRAP_EXIT_WITHIN_NMI : TRAP_EXIT_IRETQ;
}
