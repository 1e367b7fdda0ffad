/*
 * cpu.c - bringing one CPU's descriptor state up: GDT, TSS with its
 * interrupt stacks, the GS base for per-CPU data, and the shared IDT;
 * and the two places user mode can learn the CPU number from without a
 * system call (TSC_AUX for rdtscp/rdpid, a per-CPU segment limit for lsl).
 *
 * The boot CPU's IST stacks are static (they must work before any
 * allocator does); each has an unmapped guard page below it, left out of
 * the kernel mapping by mm/paging.c, like the boot stack.
 */
#include "kernel/x86/percpu.h"
#include "kernel/x86/traps.h"
#include "kernel/vdso/vvar.h"
#include "kernel/x86/x86.h"
#include "mm/kmalloc.h"
#include "mm/kstack_static.h"
#include "mm/vmap.h"

struct cpu *cpus[MAX_CPUS];
unsigned ncpus = 1;

static struct cpu boot_cpu;

struct static_stack boot_ist_stacks[IST_COUNT] __section(".bss.stacks");

static u64
segment(bool code, unsigned dpl)
{
	/* present, S=1, long mode (L) for code, writable data; base/limit ignored in 64-bit mode */
	u64 d = (1ull << 47) | (1ull << 44) | ((u64)dpl << 45);
	return code ? d | (1ull << 43) | (1ull << 53) | (1ull << 41) : d | (1ull << 41);
}

static void
gdt_set_tss(struct cpu *c)
{
	u64 base = (u64)&c->tss;
	u64 limit = sizeof(c->tss) - 1;

	c->gdt[GDT_TSS] = (limit & 0xffff) | ((base & 0xffffff) << 16) |
			  (0x89ull << 40) | /* present, 64-bit TSS (available) */
			  (((limit >> 16) & 0xf) << 48) | (((base >> 24) & 0xff) << 56);
	c->gdt[GDT_TSS_HIGH] = base >> 32;
}

#define MSR_TSC_AUX	 0xc0000103
#define CPUID_EXT_RDTSCP (1u << 27) /* 0x80000001 EDX */
#define CPUID_7_RDPID	 (1u << 22) /* 7.0 ECX */
#define NUMA_NODE	 0	    /* rewind knows one memory node */

BUILD_BUG_ON(GDT_PER_CPU * 8 + 3 != VGETCPU_SELECTOR);

static bool
has_rdtscp(void)
{
	return cpuid(0x80000000, 0).eax >= 0x80000001 &&
	       (cpuid(0x80000001, 0).edx & CPUID_EXT_RDTSCP);
}

static bool
has_rdpid(void)
{
	return cpuid(0, 0).eax >= 7 && (cpuid(7, 0).ecx & CPUID_7_RDPID);
}

int
cpu_vgetcpu_mode(void)
{
	if (has_rdpid())
		return VGETCPU_RDPID;
	return has_rdtscp() ? VGETCPU_RDTSCP : VGETCPU_LSL;
}

/*
 * A DPL 3 read-only data segment that is never loaded: only its 20-bit
 * limit matters, which `lsl` reads. Bits 0-15 of the limit are bits 0-15
 * of the descriptor, bits 16-19 are bits 48-51.
 */
static u64
per_cpu_segment(u32 cpu_and_node)
{
	u64 limit = cpu_and_node & 0xfffff;

	return (limit & 0xffff) | ((limit >> 16) << 48) | (1ull << 47) | (3ull << 45) |
	       (1ull << 44);
}

/* (node << 12) | cpu, where rdtscp, rdpid and lsl find it (Linux's encoding). */
static void
publish_cpu_number(struct cpu *c)
{
	u32 cpu_and_node = (NUMA_NODE << 12) | (c->id & VGETCPU_CPU_MASK);

	c->gdt[GDT_PER_CPU] = per_cpu_segment(cpu_and_node);
	if (has_rdtscp() || has_rdpid())
		wrmsr(MSR_TSC_AUX, cpu_and_node);
}

static void
load_gdt(struct cpu *c)
{
	struct {
		u16 limit;
		u64 base;
	} __packed ptr = { sizeof(c->gdt) - 1, (u64)c->gdt };

	__asm__ __volatile__(
		"lgdt %0\n\t"
		"pushq %1\n\t"
		"leaq 1f(%%rip), %%rax\n\t"
		"pushq %%rax\n\t"
		"lretq\n"
		"1:\n\t"
		"movl %2, %%eax\n\t"
		"movl %%eax, %%ds\n\t"
		"movl %%eax, %%es\n\t"
		"movl %%eax, %%ss\n\t"
		"xorl %%eax, %%eax\n\t"
		"movl %%eax, %%fs\n\t"
		"movl %%eax, %%gs\n\t"
		:
		: "m"(ptr), "i"(KERNEL_CS), "i"(KERNEL_DS)
		: "rax", "memory");
	__asm__ __volatile__("ltr %w0" : : "r"(TSS_SEL));
}

/* c->tss.ist[] holds the interrupt stacks already. */
static void
cpu_load(struct cpu *c)
{
	c->self = c;
	c->gdt[GDT_NULL] = 0;
	c->gdt[GDT_KERNEL_CODE32] = 0;
	c->gdt[GDT_KERNEL_CODE] = segment(true, 0);
	c->gdt[GDT_KERNEL_DATA] = segment(false, 0);
	c->gdt[GDT_USER_CODE32] = 0;
	c->gdt[GDT_USER_DATA] = segment(false, 3);
	c->gdt[GDT_USER_CODE] = segment(true, 3);
	gdt_set_tss(c);
	publish_cpu_number(c);
	c->tss.iomap_base = sizeof(c->tss); /* no I/O permission bitmap */

	load_gdt(c);
	/* Loading %gs cleared the base; set it after. */
	wrmsr(MSR_GS_BASE, (u64)c);
	wrmsr(MSR_KERNEL_GS_BASE, 0);
	idt_load();
}

void
cpu_init_boot(void)
{
	for (int i = 0; i < IST_COUNT; i++)
		boot_cpu.tss.ist[i] = static_stack_top(&boot_ist_stacks[i]);
	boot_cpu.id = 0;
	idt_init();
	cpu_load(&boot_cpu);
	boot_cpu.online = true;
	cpus[0] = &boot_cpu;
}

struct cpu *
cpu_alloc(u32 id, u32 apic_id)
{
	struct cpu *c = kzalloc(sizeof(*c));

	if (!c)
		return NULL;
	c->id = id;
	c->apic_id = apic_id;
	for (int i = 0; i < IST_COUNT; i++) {
		c->tss.ist[i] = kstack_alloc();
		if (!c->tss.ist[i]) {
			while (i--)
				kstack_free(c->tss.ist[i]);
			kfree(c);
			return NULL;
		}
	}
	return c;
}

void
cpu_init_ap(struct cpu *c)
{
	cpu_load(c);
}
