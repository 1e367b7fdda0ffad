/*
 * paravirt.c - the ops table of a PARAVIRT=y kernel, its out-of-line
 * natives, and the `paravirt=` knob that rewrites the call sites.
 *
 * The natives are real functions with Linux's names (native_pte_val,
 * native_read_tsc, native_safe_halt, ...), so that a profile of an
 * indirect or patched kernel names them as the seed's does. The four
 * irq-flag natives are written in assembly: their sites are callee-save
 * (paravirt.h), so they may touch nothing but rax and the flags. With
 * PV_CALLEE_SAVE=y the page-table accessors' sites are callee-save too,
 * and their slots hold register-saving thunks in front of the C natives.
 *
 * Every site is built as "call *pv_ops.op(%rip)" (mode indirect). At boot,
 * before the other CPUs start, paravirt_init checks that each site holds
 * exactly those bytes (a change in how the compiler or assembler lays a
 * site out stops the boot instead of corrupting text) and patches them for
 * the knob's mode. A change of the knob at run time patches them again
 * under stop_machine, through text_poke's writable alias; CPUs are parked
 * only outside sites, and every site's last instruction ends where the
 * site ends in every mode (paravirt_patch.h), so a saved return address
 * stays valid across the change.
 */
#include "kernel/x86/paravirt.h"
#include "kernel/x86/paravirt_patch.h"
#include "kernel/knobs.h"
#include "kernel/lib/string.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/x86/smp.h"
#include "kernel/x86/stop_machine.h"
#include "kernel/x86/text_poke.h"
#include "kernel/x86/percpu.h"

/* ---- the natives ------------------------------------------------------------------ */

/* clang-format off */
#define CALLEE_SAVE_NATIVE(name, body)                 \
	".globl " #name "\n\t"                         \
	".type " #name ", @function\n"                 \
	#name ":\n\t" body "\n\tret\n\t"               \
	".size " #name ", . - " #name "\n\t"
__asm__(".pushsection .text, \"ax\"\n\t"
	CALLEE_SAVE_NATIVE(native_save_fl, "pushfq\n\tpopq %rax")
	CALLEE_SAVE_NATIVE(native_restore_fl, "pushq %rdi\n\tpopfq")
	CALLEE_SAVE_NATIVE(native_irq_disable, "cli")
	CALLEE_SAVE_NATIVE(native_irq_enable, "sti")
	CALLEE_SAVE_NATIVE(native_swapgs, "swapgs")
	".globl native_iret\n\t.type native_iret, @function\n"
	"native_iret:\n\tiretq\n\t.size native_iret, . - native_iret\n\t"
	".globl native_usergs_sysret64\n\t.type native_usergs_sysret64, @function\n"
	"native_usergs_sysret64:\n\tswapgs\n\tsysretq\n\t"
	".size native_usergs_sysret64, . - native_usergs_sysret64\n\t"
	".popsection");
/* clang-format on */

u64
native_read_tsc(void)
{
	return __native_read_tsc();
}
void
native_safe_halt(void)
{
	__native_safe_halt();
}
void
native_halt(void)
{
	__native_halt();
}
u64
native_read_cr2(void)
{
	return __native_read_cr2();
}
u64
native_read_cr3(void)
{
	return __native_read_cr3();
}
void
native_write_cr3(u64 v)
{
	__native_write_cr3(v);
}
void
native_flush_tlb_user(void)
{
	__native_write_cr3(__native_read_cr3());
}
void
native_flush_tlb_global(void)
{
	__native_flush_tlb_global();
}
void
native_flush_tlb_single(u64 addr)
{
	__native_flush_tlb_single(addr);
}
PV_DEFINE_LEVEL_NATIVES(pgd)
PV_DEFINE_LEVEL_NATIVES(pud)
PV_DEFINE_LEVEL_NATIVES(pmd)
PV_DEFINE_LEVEL_NATIVES(pte)

#ifdef CONFIG_PV_CALLEE_SAVE
PV_DEFINE_LEVEL_THUNKS(pgd);
PV_DEFINE_LEVEL_THUNKS(pud);
PV_DEFINE_LEVEL_THUNKS(pmd);
PV_DEFINE_LEVEL_THUNKS(pte);
#endif

struct paravirt_ops pv_ops = {
	.cpu = { .read_tsc = native_read_tsc,
		 .swapgs = native_swapgs,
		 .iret = native_iret,
		 .usergs_sysret64 = native_usergs_sysret64 },
	.irq = { .save_fl = native_save_fl,
		 .restore_fl = native_restore_fl,
		 .irq_disable = native_irq_disable,
		 .irq_enable = native_irq_enable,
		 .safe_halt = native_safe_halt,
		 .halt = native_halt },
	.time = { .sched_clock = native_sched_clock },
	.mmu = { .read_cr2 = native_read_cr2,
		 .read_cr3 = native_read_cr3,
		 .write_cr3 = native_write_cr3,
		 .flush_tlb_user = native_flush_tlb_user,
		 .flush_tlb_global = native_flush_tlb_global,
		 .flush_tlb_single = native_flush_tlb_single,
		 PV_LEVEL_SLOTS(pgd),
		 PV_LEVEL_SLOTS(pud),
		 PV_LEVEL_SLOTS(pmd),
		 PV_LEVEL_SLOTS(pte) },
	.lock = { .spin_lock_flags = default_spin_lock_flags },
};

/* ---- the sites ------------------------------------------------------------------- */

extern const struct paravirt_site __start_parainstructions[], __stop_parainstructions[];

static void paravirt_knob_changed(void);
/* A 2.6.30 kernel (PV_CALLEE_SAVE=y) boots as 2.6.30 patched itself; the others as 2.6.25. */
#ifdef CONFIG_PV_CALLEE_SAVE
#define PV_BOOT_MODE PV_MODE_IDENT
#else
#define PV_BOOT_MODE PV_MODE_PATCHED
#endif
KNOB_ENUM_NOTIFY(paravirt_knob, "paravirt", PV_BOOT_MODE, true, paravirt_knob_changed,
		 "what stands behind the paravirt call sites (regression 3, PARAVIRT=y builds): "
		 "indirect = call through pv_ops (unpatched CONFIG_PARAVIRT), patched = 2.6.25's "
		 "boot patching (irq flags, cr2/cr3, invlpg inline, the rest direct calls), ident "
		 "= 2.6.30 (page-table accessors one mov); default patched, ident in a "
		 "PV_CALLEE_SAVE=y build",
		 "indirect", "patched", "ident");

static int text_mode = PV_MODE_INDIRECT; /* what the text holds: as built until paravirt_init */
static bool patching_ready;
static bool text_changing;

const struct paravirt_site *
paravirt_sites(size_t *count)
{
	*count = (size_t)(__stop_parainstructions - __start_parainstructions);
	return __start_parainstructions;
}

enum pv_mode
paravirt_mode(void)
{
	return (enum pv_mode)READ_ONCE(text_mode);
}

bool
paravirt_text_changing(void)
{
	return READ_ONCE(text_changing);
}

static void
site_bytes(const struct paravirt_site *s, enum pv_mode mode, u8 *buf)
{
	void *const *slot = (void *const *)&pv_ops + s->type;

	if (!paravirt_patch_site(mode, s, (u64)slot, (u64)*slot, paravirt_target_clobbers(s->type),
				 buf))
		panic("paravirt: the site at %#lx (type %u, %u bytes) cannot take mode %d", s->addr,
		      s->type, s->len, mode);
}

bool
paravirt_site_is(const struct paravirt_site *s, enum pv_mode mode)
{
	u8 want[16];

	site_bytes(s, mode, want);
	return memcmp((const void *)s->addr, want, s->len) == 0;
}

/*
 * stop_machine's may_park: whether rip is clear of every site's inside.
 * A CPU stopped past a site's first byte would resume in the middle of
 * rewritten bytes; one at a site's first byte or anywhere else may park.
 */
static bool
outside_sites(u64 rip)
{
	for (const struct paravirt_site *s = __start_parainstructions; s < __stop_parainstructions;
	     s++)
		if (rip > s->addr && rip < s->addr + s->len)
			return false;
	return true;
}

/* Rewrites every site that differs; interrupts off, no other CPU running kernel text. */
static void
apply_mode(void *arg)
{
	enum pv_mode mode = (enum pv_mode)READ_ONCE(paravirt_knob);
	u8 buf[16];

	(void)arg;
	WRITE_ONCE(text_changing, true);
	for (const struct paravirt_site *s = __start_parainstructions; s < __stop_parainstructions;
	     s++) {
		site_bytes(s, mode, buf);
		if (memcmp((const void *)s->addr, buf, s->len))
			text_poke((void *)s->addr, buf, s->len);
	}
	WRITE_ONCE(text_mode, mode);
	WRITE_ONCE(text_changing, false);
}

static void
paravirt_knob_changed(void)
{
	if (!READ_ONCE(patching_ready))
		return; /* the command line: paravirt_init applies it */
	stop_machine(apply_mode, NULL, outside_sites);
	pr_info("paravirt: call sites now %s\n", paravirt_knob_names[paravirt_mode()]);
}

void
paravirt_init(void)
{
	size_t n, inlined = 0;
	const struct paravirt_site *sites = paravirt_sites(&n);

	for (size_t i = 0; i < n; i++) {
		if (!paravirt_site_is(&sites[i], PV_MODE_INDIRECT))
			panic("paravirt: the site at %#lx is not the indirect call it was built as",
			      sites[i].addr);
		inlined += paravirt_type_inlined((enum pv_mode)paravirt_knob, sites[i].type);
	}
	text_poke_init();
	stop_machine_init();
	u64 irq = local_irq_save();
	apply_mode(NULL);
	local_irq_restore(irq);
	WRITE_ONCE(patching_ready, true);
	pr_info("paravirt: %zu call sites, mode %s: %zu inline, %zu %s calls\n", n,
		paravirt_knob_names[paravirt_mode()], inlined, n - inlined,
		paravirt_mode() == PV_MODE_INDIRECT ? "indirect" : "direct");
}
