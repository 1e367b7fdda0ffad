/*
 * test_paravirt_patch.c - host tests of what each paravirt= mode writes
 * into a call site (kernel/x86/paravirt_patch.c): the bytes are decoded
 * here instruction by instruction, so a test checks what the CPU will
 * execute (one padding NOP, then the replacement ending where the site
 * ends; a call's destination), not just a byte string copied from the
 * code under test.
 */
#define CONFIG_PARAVIRT
#include "tests/unit/unit.h"
#include "kernel/x86/paravirt_patch.c"

#define SITE 0xffffffff80101000ul
#define SLOT 0xffffffff80160040ul
#define FUNC 0xffffffff80105550ul

enum insn_kind {
	I_BAD,
	I_NOP,
	I_CALL_IND,
	I_CALL,
	I_CLI,
	I_STI,
	I_PUSHF_POP_RAX,
	I_PUSH_RDI_POPF,
	I_MOV_CR2_RAX,
	I_MOV_CR3_RAX,
	I_MOV_RDI_CR3,
	I_INVLPG_RDI,
	I_MOV_RDI_RAX,
	I_JMP_IND,
	I_JMP,
	I_SWAPGS,
	I_SYSRETQ
};

struct insn {
	enum insn_kind kind;
	unsigned len;
	u64 dest; /* calls: where they go (indirect: the slot read) */
};

static s32
rel32_at(const u8 *p)
{
	return (s32)((u32)p[0] | (u32)p[1] << 8 | (u32)p[2] << 16 | (u32)p[3] << 24);
}

/* Decodes the one instruction at p (address at), of the forms a site may hold. */
static struct insn
decode(const u8 *p, unsigned left, u64 at)
{
	static const struct {
		enum insn_kind kind;
		unsigned len;
		u8 bytes[3];
	} fixed[] = {
		{ I_NOP, 1, { 0x90 } },
		{ I_NOP, 2, { 0x66, 0x90 } },
		{ I_CLI, 1, { 0xfa } },
		{ I_STI, 1, { 0xfb } },
		{ I_PUSHF_POP_RAX, 2, { 0x9c, 0x58 } },
		{ I_PUSH_RDI_POPF, 2, { 0x57, 0x9d } },
		{ I_MOV_CR2_RAX, 3, { 0x0f, 0x20, 0xd0 } },
		{ I_MOV_CR3_RAX, 3, { 0x0f, 0x20, 0xd8 } },
		{ I_MOV_RDI_CR3, 3, { 0x0f, 0x22, 0xdf } },
		{ I_INVLPG_RDI, 3, { 0x0f, 0x01, 0x3f } },
		{ I_MOV_RDI_RAX, 3, { 0x48, 0x89, 0xf8 } },
		{ I_SWAPGS, 3, { 0x0f, 0x01, 0xf8 } },
		{ I_SYSRETQ, 3, { 0x48, 0x0f, 0x07 } },
	};
	struct insn bad = { I_BAD, 0, 0 };

	if (left >= 5 && p[0] == 0xe8)
		return (struct insn){ I_CALL, 5, at + 5 + rel32_at(p + 1) };
	if (left >= 5 && p[0] == 0xe9)
		return (struct insn){ I_JMP, 5, at + 5 + rel32_at(p + 1) };
	if (left >= 6 && p[0] == 0xff && (p[1] == 0x15 || p[1] == 0x25))
		return (struct insn){ p[1] == 0x15 ? I_CALL_IND : I_JMP_IND, 6,
				      at + 6 + rel32_at(p + 2) };
	/* nop r/m32 (0F 1F /0), optionally 66-prefixed, with mod 00/01/10 and an SIB. */
	unsigned pre = p[0] == 0x66;
	if (left >= pre + 3 && p[pre] == 0x0f && p[pre + 1] == 0x1f &&
	    ((p[pre + 2] >> 3) & 7) == 0) {
		u8 modrm = p[pre + 2], mod = modrm >> 6;
		unsigned len = pre + 3 + ((modrm & 7) == 4) + (mod == 1 ? 1 : mod == 2 ? 4 : 0);
		return len <= left && mod != 3 ? (struct insn){ I_NOP, len, 0 } : bad;
	}
	for (size_t i = 0; i < ARRAY_SIZE(fixed); i++)
		if (fixed[i].len <= left && !memcmp(p, fixed[i].bytes, fixed[i].len))
			return (struct insn){ fixed[i].kind, fixed[i].len, 0 };
	return bad;
}

/*
 * Patches a site of type in mode and decodes it: at most one NOP, first,
 * then the replacement (one instruction; "swapgs; sysretq" is two), ending
 * exactly at the site's end. Returns the last instruction. The site lets
 * its callee clobber clobbers; the slot's function, target, clobbers
 * target_clobbers.
 */
static struct insn
patch_and_decode(enum pv_mode mode, unsigned type, u8 len, u16 clobbers, u64 target,
		 u16 target_clobbers, bool *ok)
{
	struct paravirt_site s = {
		.addr = SITE, .type = (u8)type, .len = len, .clobbers = clobbers
	};
	u8 buf[16];
	struct insn i = { I_BAD, 0, 0 };

	*ok = paravirt_patch_site(mode, &s, SLOT, target, target_clobbers, buf);
	if (!*ok)
		return i;
	unsigned off = 0;
	int count = 0;
	do {
		i = decode(buf + off, len - off, SITE + off);
		if (i.kind == I_BAD || (i.kind == I_NOP && count > 0)) {
			i.kind = I_BAD;
			return i;
		}
		off += i.len;
		count++;
	} while (off < len);
	if (off != len)
		i.kind = I_BAD;
	return i;
}

static u16
clobbers_of(unsigned type)
{
	return paravirt_target_clobbers(type);
}

/* A site of type as this build declares its slot, and the target the slot holds. */
static struct insn
patched_insn(enum pv_mode mode, unsigned type, u8 len, u16 clobbers, u64 target, bool *ok)
{
	return patch_and_decode(mode, type, len, clobbers, target, clobbers_of(type), ok);
}

static bool
is_exit(unsigned type)
{
	return type == PV_TYPE(cpu.iret) || type == PV_TYPE(cpu.usergs_sysret64);
}

UNIT_TEST(indirect_is_the_call_through_the_slot)
{
	for (unsigned t = 0; t < PV_NR_TYPES; t++) {
		bool ok;
		struct insn i = patched_insn(PV_MODE_INDIRECT, t, 6, clobbers_of(t), FUNC, &ok);
		CHECK(ok);
		CHECK_EQ(i.kind, is_exit(t) ? I_JMP_IND : I_CALL_IND); /* the ways out: jumps */
		CHECK_EQ(i.dest, SLOT);
	}
}

UNIT_TEST(the_entry_codes_ops_patch_as_native_patch_did)
{
	struct paravirt_site s = { .addr = SITE, .type = PV_TYPE(cpu.usergs_sysret64), .len = 6 };
	static const u8 swapgs_sysretq[6] = { 0x0f, 0x01, 0xf8, 0x48, 0x0f, 0x07 };
	u8 buf[16];
	bool ok;

	for (enum pv_mode m = PV_MODE_PATCHED; m <= PV_MODE_IDENT; m++) {
		CHECK(paravirt_patch_site(m, &s, SLOT, FUNC, 0, buf));
		CHECK(!memcmp(buf, swapgs_sysretq, 6)); /* swapgs; sysretq: no NOP, both inline */
		struct insn i = patched_insn(m, PV_TYPE(cpu.usergs_sysret64), 6, 0, FUNC, &ok);
		CHECK_EQ(i.kind, I_SYSRETQ);
		i = patched_insn(m, PV_TYPE(cpu.swapgs), 6, 0, FUNC, &ok);
		CHECK(ok);
		CHECK_EQ(i.kind, I_SWAPGS);
		i = patched_insn(m, PV_TYPE(cpu.iret), 6, 0, FUNC,
				 &ok); /* a direct jump to iretq */
		CHECK(ok);
		CHECK_EQ(i.kind, I_JMP);
		CHECK_EQ(i.dest, FUNC);
	}
}

UNIT_TEST(patched_inlines_what_native_patch_did)
{
	static const struct {
		unsigned type;
		enum insn_kind kind;
	} want[] = {
		{ PV_TYPE(irq.irq_disable), I_CLI },
		{ PV_TYPE(irq.irq_enable), I_STI },
		{ PV_TYPE(irq.save_fl), I_PUSHF_POP_RAX },
		{ PV_TYPE(irq.restore_fl), I_PUSH_RDI_POPF },
		{ PV_TYPE(mmu.read_cr2), I_MOV_CR2_RAX },
		{ PV_TYPE(mmu.read_cr3), I_MOV_CR3_RAX },
		{ PV_TYPE(mmu.write_cr3), I_MOV_RDI_CR3 },
		{ PV_TYPE(mmu.flush_tlb_single), I_INVLPG_RDI },
	};
	for (enum pv_mode m = PV_MODE_PATCHED; m <= PV_MODE_IDENT; m++)
		for (size_t k = 0; k < ARRAY_SIZE(want); k++) {
			bool ok;
			struct insn i = patched_insn(m, want[k].type, 6, clobbers_of(want[k].type),
						     FUNC, &ok);
			CHECK(ok);
			CHECK_EQ(i.kind, want[k].kind);
			CHECK(paravirt_type_inlined(m, want[k].type));
		}
}

UNIT_TEST(patched_leaves_accessors_and_clocks_as_direct_calls)
{
	static const unsigned calls[] = {
		PV_TYPE(mmu.pte_val),	       PV_TYPE(mmu.make_pte),
		PV_TYPE(mmu.pmd_val),	       PV_TYPE(mmu.set_pte),
		PV_TYPE(mmu.flush_tlb_user),   PV_TYPE(cpu.read_tsc),
		PV_TYPE(time.sched_clock),     PV_TYPE(irq.safe_halt),
		PV_TYPE(lock.spin_lock_flags),
	};
	for (size_t k = 0; k < ARRAY_SIZE(calls); k++) {
		bool ok;
		struct insn i = patched_insn(PV_MODE_PATCHED, calls[k], 6, CLBR_ANY, FUNC, &ok);
		CHECK(ok);
		CHECK_EQ(i.kind, I_CALL);
		CHECK_EQ(i.dest, FUNC);
		CHECK(!paravirt_type_inlined(PV_MODE_PATCHED, calls[k]));
	}
}

UNIT_TEST(ident_makes_the_entry_accessors_one_mov)
{
	static const unsigned ident[] = {
		PV_TYPE(mmu.pte_val),  PV_TYPE(mmu.make_pte), PV_TYPE(mmu.pmd_val),
		PV_TYPE(mmu.make_pmd), PV_TYPE(mmu.pud_val),  PV_TYPE(mmu.make_pud),
		PV_TYPE(mmu.pgd_val),  PV_TYPE(mmu.make_pgd),
	};
	for (size_t k = 0; k < ARRAY_SIZE(ident); k++) {
		bool ok;
		struct insn i = patched_insn(PV_MODE_IDENT, ident[k], 6, CLBR_ANY, FUNC, &ok);
		CHECK(ok);
		CHECK_EQ(i.kind, I_MOV_RDI_RAX);
	}
	/* Storing an entry is no identity: set_pte stays a call, as the clocks do. */
	bool ok;
	struct insn i = patched_insn(PV_MODE_IDENT, PV_TYPE(mmu.set_pte), 6, CLBR_ANY, FUNC, &ok);
	CHECK(ok);
	CHECK_EQ(i.kind, I_CALL);
	i = patched_insn(PV_MODE_IDENT, PV_TYPE(cpu.read_tsc), 6, CLBR_ANY, FUNC, &ok);
	CHECK_EQ(i.kind, I_CALL);
}

/*
 * PV_CALLEE_SAVE=y (2.6.30): an accessor's site lets the callee clobber rax
 * only, and its slot holds a register-saving thunk. Each mode then: the
 * call through the slot, a direct call to the thunk, the one mov; and no
 * mode may put a direct call to the bare C native (which clobbers all) there.
 */
UNIT_TEST(callee_save_accessor_sites_call_the_thunk_or_become_the_mov)
{
	static const unsigned accessors[] = {
		PV_TYPE(mmu.pte_val),  PV_TYPE(mmu.make_pte), PV_TYPE(mmu.pmd_val),
		PV_TYPE(mmu.make_pmd), PV_TYPE(mmu.pud_val),  PV_TYPE(mmu.make_pud),
		PV_TYPE(mmu.pgd_val),  PV_TYPE(mmu.make_pgd),
	};
	const u64 thunk = FUNC + 0x40, c_native = FUNC;

	for (size_t k = 0; k < ARRAY_SIZE(accessors); k++)
		for (u8 len = 6; len <= 9; len++) {
			unsigned t = accessors[k];
			bool ok;
			struct insn i = patch_and_decode(PV_MODE_INDIRECT, t, len, CLBR_RAX, thunk,
							 CLBR_RAX, &ok);
			CHECK(ok);
			CHECK_EQ(i.kind, I_CALL_IND);
			CHECK_EQ(i.dest, SLOT);
			i = patch_and_decode(PV_MODE_PATCHED, t, len, CLBR_RAX, thunk, CLBR_RAX,
					     &ok);
			CHECK(ok);
			CHECK_EQ(i.kind, I_CALL);
			CHECK_EQ(i.dest, thunk);
			i = patch_and_decode(PV_MODE_IDENT, t, len, CLBR_RAX, thunk, CLBR_RAX, &ok);
			CHECK(ok);
			CHECK_EQ(i.kind, I_MOV_RDI_RAX);
			/* The mov clobbers only rax, whatever the slot holds. */
			i = patch_and_decode(PV_MODE_IDENT, t, len, CLBR_RAX, c_native, CLBR_ANY,
					     &ok);
			CHECK(ok);
			CHECK_EQ(i.kind, I_MOV_RDI_RAX);
			i = patch_and_decode(PV_MODE_PATCHED, t, len, CLBR_RAX, c_native, CLBR_ANY,
					     &ok);
			CHECK(!ok);
			/* A thunk may stand where any native may: a 2.6.25 site calls it too. */
			i = patch_and_decode(PV_MODE_PATCHED, t, len, CLBR_ANY, thunk, CLBR_RAX,
					     &ok);
			CHECK(ok);
			CHECK_EQ(i.kind, I_CALL);
			CHECK_EQ(i.dest, thunk);
		}
}

UNIT_TEST(the_build_declares_which_slots_are_callee_save)
{
	CHECK_EQ(paravirt_target_clobbers(PV_TYPE(irq.save_fl)), CLBR_RAX);
	CHECK_EQ(paravirt_target_clobbers(PV_TYPE(irq.irq_disable)), CLBR_RAX);
	CHECK_EQ(paravirt_target_clobbers(PV_TYPE(cpu.swapgs)), 0);
	CHECK_EQ(paravirt_target_clobbers(PV_TYPE(mmu.pte_val)), PV_ACCESSOR_CLOBBERS);
	CHECK_EQ(paravirt_target_clobbers(PV_TYPE(mmu.make_pgd)), PV_ACCESSOR_CLOBBERS);
	CHECK_EQ(paravirt_target_clobbers(PV_TYPE(mmu.set_pte)), CLBR_ANY); /* no thunk */
	CHECK_EQ(paravirt_target_clobbers(PV_TYPE(cpu.read_tsc)), CLBR_ANY);
}

UNIT_TEST(every_mode_ends_where_the_site_ends_at_any_length)
{
	for (enum pv_mode m = PV_MODE_INDIRECT; m <= PV_MODE_IDENT; m++)
		for (unsigned t = 0; t < PV_NR_TYPES; t++)
			for (u8 len = 6; len <= 9; len++) {
				bool ok;
				struct insn i = patched_insn(m, t, len, clobbers_of(t), FUNC, &ok);
				CHECK(ok);
				CHECK(i.kind != I_BAD && i.kind != I_NOP);
			}
}

UNIT_TEST(unpatchable_sites_are_refused)
{
	struct paravirt_site s = {
		.addr = SITE, .type = PV_TYPE(mmu.pte_val), .len = 5, .clobbers = CLBR_ANY
	};
	u8 buf[16];

	CHECK(!paravirt_patch_site(PV_MODE_PATCHED, &s, SLOT, FUNC, CLBR_ANY, buf)); /* too short */
	s.len = 10;
	CHECK(!paravirt_patch_site(PV_MODE_PATCHED, &s, SLOT, FUNC, CLBR_ANY, buf)); /* two NOPs */
	s.len = 6;
	s.type = PV_NR_TYPES;
	CHECK(!paravirt_patch_site(PV_MODE_PATCHED, &s, SLOT, FUNC, CLBR_ANY,
				   buf)); /* no such op */
	s.type = PV_TYPE(mmu.pte_val);
	CHECK(!paravirt_patch_site(PV_MODE_PATCHED, &s, SLOT, SITE + (3ul << 31), CLBR_ANY,
				   buf)); /* far */
	s.clobbers = CLBR_RAX;		  /* a callee-save site may not call a clobber-all native */
	CHECK(!paravirt_patch_site(PV_MODE_PATCHED, &s, SLOT, FUNC, CLBR_ANY, buf));
	CHECK(paravirt_patch_site(PV_MODE_INDIRECT, &s, SLOT, FUNC, CLBR_ANY, buf));
	s.type = PV_TYPE(mmu.set_pte); /* nor one that saves rax but not rdi */
	CHECK(!paravirt_patch_site(PV_MODE_PATCHED, &s, SLOT, FUNC, CLBR_RAX | CLBR_RDI, buf));
}

UNIT_TEST(the_table_has_linux_groups_in_order)
{
	CHECK_EQ(PV_TYPE(cpu.read_tsc), 0);
	CHECK(PV_TYPE(irq.save_fl) < PV_TYPE(time.sched_clock));
	CHECK(PV_TYPE(time.sched_clock) < PV_TYPE(mmu.read_cr2));
	CHECK(PV_TYPE(mmu.set_pte) < PV_TYPE(lock.spin_lock_flags));
	CHECK_EQ(PV_TYPE(lock.spin_lock_flags), PV_NR_TYPES - 1);
	CHECK(PV_NR_TYPES < 256); /* a site records its type in a byte */
}
