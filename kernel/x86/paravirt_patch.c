/*
 * paravirt_patch.c - the bytes of a patched call site; see paravirt_patch.h.
 *
 * The replacements are 2.6.25's native_patch (docs/regressions/paravirt.md): cli, sti,
 * "pushfq; pop %rax", "push %rdi; popfq", the CR2/CR3 moves, invlpg,
 * swapgs and "swapgs; sysretq" inline, iret a direct jump (E9 rel32),
 * everything else a direct call (E8 rel32) to the slot's target where
 * the site lets the target clobber all it may: a full-clobber site may call
 * any target, a callee-save site (PV_CALLEE_SAVE=y's accessors) only a
 * callee-save one, such as a register-saving thunk. ident adds 2.6.30's
 * identity accessors: pte_val, make_pte and their pmd/pud/pgd twins become
 * "mov %rdi, %rax" (the value is the entry).
 */
#include "kernel/x86/paravirt_patch.h"

struct inline_insn {
	u8 len;
	u8 bytes[6];
};

/* The instruction native_patch puts in place of type's call, or len 0. */
static struct inline_insn
native_insn(unsigned type)
{
	static const struct {
		unsigned type;
		struct inline_insn insn;
	} table[] = {
		/* lab paravirt: begin */
		{ PV_TYPE(irq.irq_disable), { 1, { 0xfa } } },	    /* cli */
		{ PV_TYPE(irq.irq_enable), { 1, { 0xfb } } },	    /* sti */
		{ PV_TYPE(irq.save_fl), { 2, { 0x9c, 0x58 } } },    /* pushfq; pop %rax */
		{ PV_TYPE(irq.restore_fl), { 2, { 0x57, 0x9d } } }, /* push %rdi; popfq */
		/* lab paravirt: end */
		{ PV_TYPE(mmu.read_cr2), { 3, { 0x0f, 0x20, 0xd0 } } },		/* mov %cr2, %rax */
		{ PV_TYPE(mmu.read_cr3), { 3, { 0x0f, 0x20, 0xd8 } } },		/* mov %cr3, %rax */
		{ PV_TYPE(mmu.write_cr3), { 3, { 0x0f, 0x22, 0xdf } } },	/* mov %rdi, %cr3 */
		{ PV_TYPE(mmu.flush_tlb_single), { 3, { 0x0f, 0x01, 0x3f } } }, /* invlpg (%rdi) */
		{ PV_TYPE(cpu.swapgs), { 3, { 0x0f, 0x01, 0xf8 } } },		/* swapgs */
		/* swapgs; sysretq */
		{ PV_TYPE(cpu.usergs_sysret64), { 6, { 0x0f, 0x01, 0xf8, 0x48, 0x0f, 0x07 } } },
	};
	for (size_t i = 0; i < ARRAY_SIZE(table); i++)
		if (table[i].type == type)
			return table[i].insn;
	return (struct inline_insn){ 0, { 0 } };
}

/* The entry code's ways out are jumped to, not called: nothing comes back. */
static bool
is_jump(unsigned type)
{
	return type == PV_TYPE(cpu.iret) || type == PV_TYPE(cpu.usergs_sysret64);
}

/* pte_val, make_pte and their pmd/pud/pgd twins: identities on x86-64. */
static bool
is_entry_accessor(unsigned type)
{
	static const unsigned ident[] = {
		PV_TYPE(mmu.pgd_val),  PV_TYPE(mmu.make_pgd), PV_TYPE(mmu.pud_val),
		PV_TYPE(mmu.make_pud), PV_TYPE(mmu.pmd_val),  PV_TYPE(mmu.make_pmd),
		PV_TYPE(mmu.pte_val),  PV_TYPE(mmu.make_pte),
	};
	for (size_t i = 0; i < ARRAY_SIZE(ident); i++)
		if (ident[i] == type)
			return true;
	return false;
}

u16
paravirt_target_clobbers(unsigned type)
{
	if (type == PV_TYPE(irq.save_fl) || type == PV_TYPE(irq.restore_fl) ||
	    type == PV_TYPE(irq.irq_disable) || type == PV_TYPE(irq.irq_enable))
		return CLBR_RAX;
	if (type == PV_TYPE(cpu.swapgs) || is_jump(type))
		return 0;
	if (is_entry_accessor(type))
		return PV_ACCESSOR_CLOBBERS; /* the C native, or its thunk */
	return CLBR_ANY;
}

/* The instruction that replaces type's call in mode, or len 0 for a call. */
static struct inline_insn
replacement(enum pv_mode mode, unsigned type)
{
	static const struct inline_insn mov_rdi_rax = { 3, { 0x48, 0x89, 0xf8 } };

	if (mode == PV_MODE_INDIRECT)
		return (struct inline_insn){ 0, { 0 } };
	if (mode == PV_MODE_IDENT && is_entry_accessor(type))
		return mov_rdi_rax;
	return native_insn(type);
}

bool
paravirt_type_inlined(enum pv_mode mode, unsigned type)
{
	return replacement(mode, type).len != 0;
}

/* One NOP instruction of n bytes (0 <= n <= 8), the forms the CPU vendors recommend. */
static void
put_nop(u8 *buf, unsigned n)
{
	static const u8 nops[9][8] = {
		{ 0 },
		{ 0x90 },
		{ 0x66, 0x90 },
		{ 0x0f, 0x1f, 0x00 },
		{ 0x0f, 0x1f, 0x40, 0x00 },
		{ 0x0f, 0x1f, 0x44, 0x00, 0x00 },
		{ 0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00 },
		{ 0x0f, 0x1f, 0x80, 0x00, 0x00, 0x00, 0x00 },
		{ 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00 },
	};
	for (unsigned i = 0; i < n; i++)
		buf[i] = nops[n][i];
}

/* rel32 from the end of an instruction ending at end to dest; false if out of reach. */
static bool
put_rel32(u8 *at, u64 end, u64 dest)
{
	s64 rel = (s64)(dest - end);

	if (rel != (s64)(s32)rel)
		return false;
	u32 v = (u32)(s32)rel;
	for (int i = 0; i < 4; i++)
		at[i] = (u8)(v >> (8 * i));
	return true;
}

bool
paravirt_patch_site(enum pv_mode mode, const struct paravirt_site *s, u64 slot, u64 target,
		    u16 target_clobbers, u8 *buf)
{
	u64 end = s->addr + s->len;

	/* The shortest replacement (1 byte) after the longest NOP (8) bounds a site. */
	if (s->len < PV_SITE_LEN || s->len > 9 || s->type >= PV_NR_TYPES)
		return false;
	struct inline_insn r = replacement(mode, s->type);
	if (r.len) {
		put_nop(buf, s->len - r.len);
		for (unsigned i = 0; i < r.len; i++)
			buf[s->len - r.len + i] = r.bytes[i];
		return true;
	}
	if (mode == PV_MODE_INDIRECT) { /* call or jmp *slot(%rip): FF 15 or FF 25, disp32 */
		put_nop(buf, s->len - 6);
		buf[s->len - 6] = 0xff;
		buf[s->len - 5] = is_jump(s->type) ? 0x25 : 0x15;
		return put_rel32(buf + s->len - 4, end, slot);
	}
	/* As Linux's patcher: no direct call to a target that clobbers more than the site allows. */
	if (target_clobbers & ~s->clobbers)
		return false;
	put_nop(buf, s->len - 5);
	buf[s->len - 5] = is_jump(s->type) ? 0xe9 : 0xe8; /* jmp or call rel32 */
	return put_rel32(buf + s->len - 4, end, target);
}
