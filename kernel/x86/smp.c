/*
 * smp.c - starting the application processors and the IPIs between CPUs.
 *
 * Start-up: for each processor the ACPI MADT lists, the boot CPU allocates
 * its struct cpu (with interrupt stacks) and an idle stack, copies the
 * real-mode trampoline (boot/ap_trampoline.asm) to AP_TRAMPOLINE with a
 * parameter block, and sends INIT, then STARTUP twice as the MP
 * specification asks (the second only if the first did not take). One AP
 * starts at a time, since they share the trampoline. A CPU that does not
 * start within 10 s (Linux's wait) is reported and skipped; how long one
 * takes is up to the host's load, so the give-up is a race the AP may win
 * and is decided once, by compare-and-swap on the AP's ap_start: an AP
 * that finds it given up halts before it touches anything shared (a late
 * AP once joined the online mask after being skipped, and the next IPI
 * went to its freed slot). Its struct cpu and stack are never freed.
 *
 * Calls to other CPUs: one request at a time, under call_lock. The caller
 * publishes the request, sends VEC_IPI_CALL to the targets, and spins until
 * each has cleared its bit in the request's pending mask. A CPU that
 * spins for call_lock with interrupts on still answers the holder's IPI,
 * so two CPUs calling each other cannot deadlock.
 */
#include "kernel/x86/smp.h"
#include "kernel/boot.h"
#include "kernel/x86/fpu.h"
#include "kernel/x86/irq.h"
#include "kernel/knobs.h"
#include "kernel/panic.h"
#include "kernel/x86/paravirt.h"
#include "kernel/x86/percpu.h"
#include "kernel/printk.h"
#include "kernel/sched/sched.h"
#include "kernel/lib/string.h"
#include "kernel/syscall/syscall.h"
#include "kernel/time/tsc.h"
#include "kernel/x86/x86.h"
#include "drivers/acpi.h"
#include "drivers/kvmclock.h"
#include "drivers/kvm_steal.h"
#include "drivers/lapic.h"
#include "mm/paging.h"
#include "mm/uaccess.h"
#include "mm/vm.h"
#include "mm/vmap.h"

#define AP_TRAMPOLINE 0x8000ul
#define AP_TABLES     0x9000ul /* three pages: PML4, PDPT, PD for the identity map */

KNOB_INT(maxcpus, "maxcpus", MAX_CPUS, 1, MAX_CPUS, false, "use at most this many CPUs");
KNOB_BOOL(nosmp, "nosmp", 0, false, "run on the boot CPU only");

extern const u8 ap_trampoline_start[], ap_trampoline_end[], ap_trampoline_params[];

struct ap_params {
	u64 cr3;
	u64 stack;
	u64 entry;
	u64 cpu;
};

static u64 online_mask = 1;

u64
cpus_online_mask(void)
{
	return __atomic_load_n(&online_mask, __ATOMIC_ACQUIRE);
}

/* ---- IPIs -------------------------------------------------------------------------- */

struct call_request {
	void (*fn)(void *);
	void *arg;
	u64 pending; /* CPUs that have not run it yet */
};

static struct spinlock call_lock = SPINLOCK_INIT("smp_call");
static struct call_request *volatile current_call;

static void
ipi_call(struct trap_frame *f)
{
	struct call_request *req = current_call;

	req->fn(req->arg);
	__atomic_and_fetch(&req->pending, ~(1ul << this_cpu()->id), __ATOMIC_RELEASE);
}

static void
ipi_reschedule(struct trap_frame *f)
{
	WRITE_ONCE(this_cpu()->need_resched, true);
}

void
smp_send_reschedule(unsigned cpu)
{
	if (cpu != this_cpu()->id)
		lapic_send_ipi(cpus[cpu]->apic_id, VEC_IPI_RESCHEDULE);
}

void
smp_call_mask(u64 mask, void (*fn)(void *), void *arg)
{
	mask &= cpus_online_mask() & ~(1ul << this_cpu()->id);
	if (!mask)
		return;
	BUG_ON(!irqs_enabled());
	struct call_request req = { fn, arg, mask };

	spin_lock(&call_lock);
	current_call = &req;
	for (unsigned i = 0; i < MAX_CPUS; i++)
		if (mask & (1ul << i))
			lapic_send_ipi(cpus[i]->apic_id, VEC_IPI_CALL);
	while (__atomic_load_n(&req.pending, __ATOMIC_ACQUIRE))
		cpu_relax();
	spin_unlock(&call_lock);
}

struct flush_range {
	u64 start, end;
};

static void
flush_range_here(void *arg)
{
	const struct flush_range *r = arg;

	if (r->end - r->start > 32 * PAGE_SIZE) {
		flush_tlb_global();
		return;
	}
	for (u64 va = r->start; va < r->end; va += PAGE_SIZE)
		flush_tlb_single(va);
}

void
tlb_flush_mm_range(struct mm *mm, u64 start, u64 end)
{
	struct flush_range r = { start, end };

	flush_range_here(&r);
	smp_call_mask(__atomic_load_n(&mm->cpumask, __ATOMIC_ACQUIRE), flush_range_here, &r);
}

void
tlb_flush_kernel_range(u64 start, u64 end)
{
	struct flush_range r = { start, end };

	flush_range_here(&r);
	smp_call_mask(~0ul, flush_range_here, &r);
}

/* ---- starting APs -------------------------------------------------------------------- */

/* ap_main: the first C an AP runs, on its idle stack, with the temporary page tables. */
__noreturn void ap_main(struct cpu *c);

/* An AP's start-up, against the boot CPU's give-up (start_ap): who moves ap_start first. */
enum { AP_WAITING, AP_STARTED, AP_ABANDONED };

static bool
ap_start_claim(struct cpu *c, int to)
{
	int expected = AP_WAITING;

	return __atomic_compare_exchange_n(&c->ap_start, &expected, to, false, __ATOMIC_ACQ_REL,
					   __ATOMIC_ACQUIRE);
}

__noreturn void
ap_main(struct cpu *c)
{
	if (!ap_start_claim(c, AP_STARTED)) /* too late: the boot CPU went on without us */
		for (;;)
			halt(); /* interrupts are off since the trampoline */
	write_cr3(virt_to_phys(kernel_pgd));
	cpu_init_ap(c);
	paging_init_cpu();
	fpu_init_cpu();
	uaccess_init_cpu();
	syscall_init_cpu();
	lapic_init();
	sched_init_cpu(c->kernel_rsp);
	lapic_timer_start();
	kvmclock_init_cpu();
	kvm_steal_init_cpu();
	__atomic_or_fetch(&online_mask, 1ul << c->id, __ATOMIC_RELEASE);
	WRITE_ONCE(c->online, true);
	tsc_sync_target(); /* with the boot CPU, which waited for `online` */
	local_irq_enable();
	sched_idle_loop();
}

/*
 * Temporary page tables for the trampoline: the kernel half of kernel_pgd,
 * plus the low 1 GiB identity-mapped with 2 MiB pages, at AP_TABLES.
 */
static u64
build_trampoline_tables(void)
{
	u64 *pml4 = phys_to_virt(AP_TABLES);
	u64 *pdpt = phys_to_virt(AP_TABLES + PAGE_SIZE);
	u64 *pd = phys_to_virt(AP_TABLES + 2 * PAGE_SIZE);

	memset(pml4, 0, 3 * PAGE_SIZE);
	for (int i = 256; i < 512; i++)
		pml4[i] = pgd_val(kernel_pgd[i]);
	pml4[0] = (AP_TABLES + PAGE_SIZE) | PTE_PRESENT | PTE_WRITE;
	pdpt[0] = (AP_TABLES + 2 * PAGE_SIZE) | PTE_PRESENT | PTE_WRITE;
	for (u64 i = 0; i < 512; i++)
		pd[i] = (i << 21) | PTE_PRESENT | PTE_WRITE | PTE_HUGE;
	return AP_TABLES;
}

/* Whether [AP_TRAMPOLINE, AP_TABLES + 3 pages) is ordinary RAM we may overwrite. */
static bool
low_pages_usable(void)
{
	for (int i = 0; i < boot_info.nmmap; i++) {
		const struct boot_mmap_entry *e = &boot_info.mmap[i];
		if (e->type == MMAP_AVAILABLE && e->base <= AP_TRAMPOLINE &&
		    e->base + e->len >= AP_TABLES + 3 * PAGE_SIZE)
			return true;
	}
	return false;
}

static void
send_init_sipi(u32 apic_id)
{
	lapic_send_init(apic_id);
	tsc_delay_us(10000);
	lapic_send_startup(apic_id, AP_TRAMPOLINE >> 12);
}

/* Whether the AP has begun ap_main within us microseconds. */
static bool
wait_started(struct cpu *c, u64 us)
{
	u64 deadline = rdtsc() + tsc_ns_to_cycles(us * 1000);

	while (__atomic_load_n(&c->ap_start, __ATOMIC_ACQUIRE) == AP_WAITING && rdtsc() < deadline)
		cpu_relax();
	return __atomic_load_n(&c->ap_start, __ATOMIC_ACQUIRE) != AP_WAITING;
}

static bool
start_ap(unsigned id, u32 apic_id, u64 cr3)
{
	struct cpu *c = cpu_alloc(id, apic_id);
	u64 stack = kstack_alloc();

	if (!c || !stack) {
		pr_warn("smp: no memory to start CPU %u (APIC id %u)\n", id, apic_id);
		return false;
	}
	c->kernel_rsp = stack;
	cpus[id] = c;
	struct ap_params *p =
		phys_to_virt(AP_TRAMPOLINE + (ap_trampoline_params - ap_trampoline_start));
	*p = (struct ap_params){ cr3, stack, (u64)ap_main, (u64)c };
	send_init_sipi(apic_id);
	if (!wait_started(c, 1000)) {
		lapic_send_startup(apic_id, AP_TRAMPOLINE >> 12); /* the second STARTUP */
		if (!wait_started(c, 10000000) && ap_start_claim(c, AP_ABANDONED)) {
			pr_warn("smp: CPU %u (APIC id %u) did not come up; skipped\n", id, apic_id);
			cpus[id] = NULL; /* c and the stack stay: the AP may still read them */
			return false;
		}
	}
	/* It runs our code now, however slowly the host lets it: it gets there. */
	while (!READ_ONCE(c->online))
		cpu_relax();
	return true;
}

void
smp_boot(void)
{
	irq_register(VEC_IPI_CALL, ipi_call, "ipi-call");
	irq_register(VEC_IPI_RESCHEDULE, ipi_reschedule, "ipi-resched");
	if (READ_ONCE(nosmp) || acpi.ncpus <= 1) {
		pr_info("smp: 1 CPU (%s)\n", nosmp	  ? "nosmp"
					     : acpi.ncpus ? "the only one the firmware lists"
							  : "no ACPI processor list");
		return;
	}
	if (!low_pages_usable()) {
		pr_warn("smp: the trampoline pages at %#lx are not free RAM; running on 1 CPU\n",
			AP_TRAMPOLINE);
		return;
	}
	memcpy(phys_to_virt(AP_TRAMPOLINE), ap_trampoline_start,
	       (size_t)(ap_trampoline_end - ap_trampoline_start));
	u64 cr3 = build_trampoline_tables();
	unsigned next = 1;
	for (int i = 0; i < acpi.ncpus && next < (unsigned)maxcpus && next < MAX_CPUS; i++) {
		if (acpi.cpus[i].apic_id == this_cpu()->apic_id)
			continue;
		/* An abandoned AP may still be reading the trampoline's parameters: start no other. */
		if (!start_ap(next, acpi.cpus[i].apic_id, cr3))
			break;
		tsc_sync_source(next);
		ncpus = ++next;
	}
	pr_info("smp: %u CPUs online\n", ncpus);
}
