/*
 * test_paravirt.c - self-tests of the paravirt call sites (regression 3,
 * kernel/x86/paravirt.c): every mode of the `paravirt=` knob, set at run
 * time through the knob, leaves every recorded site byte for byte as
 * paravirt_patch.c prescribes, and the ops behind the sites still do their
 * work in each (page-table entries, interrupt flags, CR3, TLB flushes, the
 * TSC, sched_clock, kvm-clock where KVM offers it); and switching modes
 * while another CPU runs through the sites in a loop disturbs nothing.
 * A PV_CALLEE_SAVE=y kernel also checks its accessors' thunks. A
 * PARAVIRT=n kernel has no sites, and checks that.
 */
#include "kernel/ktest.h"
#include "kernel/knobs.h"
#include "kernel/lib/string.h"
#include "kernel/sched/sched.h"
#include "kernel/time/clocksource.h"
#include "kernel/x86/paravirt.h"
#include "kernel/x86/percpu.h"
#include "mm/paging.h"

#ifdef CONFIG_PARAVIRT
#include "kernel/x86/paravirt_patch.h"

static const char *const mode_names[] = { "indirect", "patched", "ident" };

static int
set_mode(enum pv_mode m)
{
	return knob_set(knob_find("paravirt"), mode_names[m]);
}

static size_t
sites_not_in(enum pv_mode m)
{
	size_t n, wrong = 0;
	const struct paravirt_site *s = paravirt_sites(&n);

	for (size_t i = 0; i < n; i++)
		wrong += !paravirt_site_is(&s[i], m);
	return wrong;
}

/* The ops behind the sites, each checked against the native instruction it stands for. */
static void
check_ops(void)
{
	pte_t pte;
	pmd_t pmd;
	pud_t pud;
	pgd_t pgd;

	set_pte(&pte, make_pte(0x123456000ul | PTE_PRESENT | PTE_NX));
	CHECK_EQ(pte_val(pte), 0x123456000ul | PTE_PRESENT | PTE_NX);
	set_pmd(&pmd, make_pmd(0x200000ul | PTE_HUGE));
	CHECK_EQ(pmd_val(pmd), 0x200000ul | PTE_HUGE);
	set_pud(&pud, make_pud(0x40000000ul | PTE_WRITE));
	CHECK_EQ(pud_val(pud), 0x40000000ul | PTE_WRITE);
	set_pgd(&pgd, make_pgd(0x7000ul | PTE_USER));
	CHECK_EQ(pgd_val(pgd), 0x7000ul | PTE_USER);

	u64 f = local_irq_save();
	CHECK(!irqs_enabled());
	CHECK_EQ(save_fl(), __native_save_fl());
	local_irq_enable();
	CHECK(irqs_enabled());
	local_irq_disable();
	CHECK(!irqs_enabled());
	local_irq_restore(f);
	CHECK_EQ(irqs_enabled(), (f & (1ul << 9)) != 0);

	CHECK_EQ(read_cr3(), __native_read_cr3());
	write_cr3(read_cr3());
	flush_tlb_single((u64)&pte);
	flush_tlb_user();
	flush_tlb_global();
	CHECK_EQ(pte_val(pte), 0x123456000ul | PTE_PRESENT | PTE_NX); /* still mapped */

	u64 t0 = rdtsc(), ns0 = sched_clock(), t1 = rdtsc(), ns1 = sched_clock();
	CHECK(t1 > t0);
	CHECK(ns1 >= ns0);
	struct clocksource *kvm = clocksource_find("kvm-clock");
	if (kvm) {
		u64 a = kvm->read(), b = kvm->read();
		CHECK(b >= a);
	}
}

KTEST(paravirt_every_mode_patches_every_site)
{
	enum pv_mode boot_mode = paravirt_mode();
	size_t n;

	paravirt_sites(&n);
	CHECK(n > 100);
	CHECK_EQ(sites_not_in(boot_mode), 0);
	for (int m = PV_MODE_INDIRECT; m <= PV_MODE_IDENT; m++) {
		CHECK_EQ(set_mode((enum pv_mode)m), 0);
		CHECK_EQ(paravirt_mode(), m);
		CHECK_EQ(sites_not_in((enum pv_mode)m), 0);
		check_ops();
	}
	CHECK_EQ(set_mode(boot_mode), 0);
	CHECK_EQ(sites_not_in(boot_mode), 0);
}

/* The modes really differ where they should: a pte_val site is a call, a call, a mov. */
KTEST(paravirt_modes_differ_as_linux_did)
{
	size_t n, pte_sites = 0, irq_sites = 0;
	const struct paravirt_site *s = paravirt_sites(&n);

	for (size_t i = 0; i < n; i++) {
		if (s[i].type == PV_TYPE(mmu.pte_val)) {
			pte_sites++;
			CHECK(!paravirt_type_inlined(PV_MODE_PATCHED, s[i].type));
			CHECK(paravirt_type_inlined(PV_MODE_IDENT, s[i].type));
			CHECK_EQ(s[i].clobbers,
				 PV_ACCESSOR_CLOBBERS); /* 2.6.25: all; 2.6.30: rax */
		}
		if (s[i].type == PV_TYPE(irq.save_fl)) {
			irq_sites++;
			CHECK(paravirt_type_inlined(PV_MODE_PATCHED, s[i].type));
			CHECK_EQ(s[i].clobbers, CLBR_RAX);
		}
		CHECK_EQ(s[i].len, PV_SITE_LEN);
	}
	CHECK(pte_sites > 0);
	CHECK(irq_sites > 0);
}

#ifdef CONFIG_PV_CALLEE_SAVE
/* ---- PV_CALLEE_SAVE=y: the accessors' thunks ----------------------------------------- */

/*
 * Calls fn(arg) from a site that, like a callee-save one, keeps values in
 * every caller-saved register but rax; true if fn returned arg (the
 * accessors are identities) and left every one of them as it was.
 */
static bool
callee_save_identity(void *fn, u64 arg)
{
	register u64 r8 __asm__("r8") = 0x8888, r9 __asm__("r9") = 0x9999;
	register u64 r10 __asm__("r10") = 0x1010, r11 __asm__("r11") = 0x1111;
	u64 rax, rcx = 0xcccc, rdx = 0xdddd, rsi = 0x5151, rdi = arg;

	__asm__ __volatile__("call *%[fn]"
			     : "=a"(rax), "+c"(rcx), "+d"(rdx), "+S"(rsi), "+D"(rdi), "+r"(r8),
			       "+r"(r9), "+r"(r10), "+r"(r11), "+r"(pv_stack_pointer)
			     : [fn] "r"(fn)
			     : "memory", "cc");
	return rax == arg && rcx == 0xcccc && rdx == 0xdddd && rsi == 0x5151 && rdi == arg &&
	       r8 == 0x8888 && r9 == 0x9999 && r10 == 0x1010 && r11 == 0x1111;
}

#define LEVEL_ACCESSORS(name)                                                                 \
	{ &pv_ops.mmu.name##_val, (void *)native_##name##_val, PV_TYPE(mmu.name##_val) },     \
	{                                                                                     \
		&pv_ops.mmu.make_##name, (void *)native_make_##name, PV_TYPE(mmu.make_##name) \
	}

/* Each accessor slot holds a thunk, not the C native, and the thunk saves what the site keeps. */
KTEST(paravirt_accessor_thunks_keep_every_register_but_rax)
{
	static const struct {
		const struct pv_callee_save *slot;
		void *c_native;
		unsigned type;
	} accessors[] = { LEVEL_ACCESSORS(pgd), LEVEL_ACCESSORS(pud), LEVEL_ACCESSORS(pmd),
			  LEVEL_ACCESSORS(pte) };

	for (size_t k = 0; k < ARRAY_SIZE(accessors); k++) {
		void *thunk = accessors[k].slot->func;
		CHECK(thunk != accessors[k].c_native);
		CHECK(callee_save_identity(thunk, 0x8000000000123067ul));
		CHECK_EQ(paravirt_target_clobbers(accessors[k].type), CLBR_RAX);
	}
}

/* patched makes a callee-save accessor site a direct call to the thunk its slot holds. */
KTEST(paravirt_patched_accessor_sites_call_the_thunk)
{
	enum pv_mode boot_mode = paravirt_mode();
	size_t n, checked = 0;
	const struct paravirt_site *s = paravirt_sites(&n);

	CHECK_EQ(set_mode(PV_MODE_PATCHED), 0);
	for (size_t i = 0; i < n; i++) {
		if (s[i].type != PV_TYPE(mmu.pte_val))
			continue;
		const u8 *call = (const u8 *)s[i].addr + s[i].len - 5;
		s32 rel;
		memcpy(&rel, call + 1, sizeof(rel));
		CHECK_EQ(call[0], 0xe8);
		CHECK_EQ((u64)(call + 5) + (u64)(s64)rel, (u64)pv_ops.mmu.pte_val.func);
		checked++;
	}
	CHECK(checked > 0);
	check_ops();
	CHECK_EQ(set_mode(boot_mode), 0);
}
#endif

/* ---- switching while another CPU runs through the sites -------------------------- */

struct churn {
	int stop;
	int running;
	u64 rounds, errors;
};

static void
churn_thread(void *arg)
{
	struct churn *c = arg;

	while (!__atomic_load_n(&c->stop, __ATOMIC_ACQUIRE)) {
		pte_t pte;
		set_pte(&pte, make_pte(c->rounds << 12));
		u64 f = local_irq_save();
		bool off = !irqs_enabled();
		local_irq_restore(f);
		if (pte_val(pte) != c->rounds << 12 || !off || !irqs_enabled() ||
		    read_cr3() != __native_read_cr3())
			c->errors++;
		c->rounds++;
	}
	__atomic_store_n(&c->running, 0, __ATOMIC_RELEASE);
}

KTEST(paravirt_switch_under_a_running_cpu)
{
	static struct churn c;
	enum pv_mode boot_mode = paravirt_mode();

	if (ncpus < 2) {
		pr_info("ktest:     one CPU: nothing runs beside the switch\n");
		return;
	}
	c = (struct churn){ .running = 1 };
	CHECK(kthread_start_on("pv-churn", churn_thread, &c, 1ul << 1) != NULL);
	for (int i = 0; i < 30; i++) {
		CHECK_EQ(set_mode((enum pv_mode)(i % 3)), 0);
		u64 seen = __atomic_load_n(&c.rounds, __ATOMIC_RELAXED);
		while (__atomic_load_n(&c.rounds, __ATOMIC_RELAXED) == seen)
			schedule(); /* the other CPU went through the sites in this mode */
	}
	__atomic_store_n(&c.stop, 1, __ATOMIC_RELEASE);
	while (__atomic_load_n(&c.running, __ATOMIC_ACQUIRE))
		schedule();
	CHECK_EQ(c.errors, 0);
	CHECK_EQ(set_mode(boot_mode), 0);
	pr_info("ktest:     30 mode switches while CPU 1 made %lu rounds through the sites\n",
		c.rounds);
}

#else

KTEST(paravirt_n_has_no_call_sites)
{
	extern const char __start_parainstructions[], __stop_parainstructions[];

	CHECK_EQ(__stop_parainstructions - __start_parainstructions, 0);
	CHECK(knob_find("paravirt") == NULL);
}

#endif
