/*
 * test_ground.c - kernel/x86/ground.h on the host: which ground a CPUID
 * answer names (bare metal, TCG, KVM, another hypervisor), and that the
 * signature is kept printable and safe for the report's JSON.
 */
#include "tests/unit/unit.h"
#include "kernel/x86/ground.h"

/* The three signature registers for a 12-byte text, as CPUID returns them. */
static void
regs_of(const char text[12], unsigned regs[3])
{
	memcpy(regs, text, 12);
}

UNIT_TEST(no_hypervisor_bit_is_bare_metal)
{
	unsigned regs[3];

	regs_of("TCGTCGTCGTCG", regs); /* ignored without the bit */
	struct ground g = ground_classify(0x7ffafbbf, regs);
	CHECK_STR(g.name, "bare metal");
	CHECK_STR(g.signature, "");
}

UNIT_TEST(qemu_tcg_and_kvm_are_named)
{
	unsigned regs[3];

	regs_of("TCGTCGTCGTCG", regs);
	struct ground g = ground_classify(CPUID_HYPERVISOR_BIT, regs);
	CHECK_STR(g.name, "TCG");
	CHECK_STR(g.signature, "TCGTCGTCGTCG");
	regs_of("KVMKVMKVM\0\0\0", regs);
	g = ground_classify(CPUID_HYPERVISOR_BIT | 1, regs);
	CHECK_STR(g.name, "KVM");
	CHECK_STR(g.signature, "KVMKVMKVM");
}

UNIT_TEST(other_hypervisors_and_near_misses_are_not_kvm)
{
	unsigned regs[3];

	regs_of("Microsoft Hv", regs);
	struct ground g = ground_classify(CPUID_HYPERVISOR_BIT, regs);
	CHECK_STR(g.name, "other hypervisor");
	CHECK_STR(g.signature, "Microsoft Hv");
	regs_of("KVMKVMKVMx\0\0", regs);
	CHECK_STR(ground_classify(CPUID_HYPERVISOR_BIT, regs).name, "other hypervisor");
	regs_of("TCGTCGTCGTC\0", regs);
	CHECK_STR(ground_classify(CPUID_HYPERVISOR_BIT, regs).name, "other hypervisor");
}

UNIT_TEST(signature_bytes_unsafe_in_json_end_it)
{
	unsigned regs[3];

	regs_of("ab\"cd\\ef\x01ghi", regs);
	struct ground g = ground_classify(CPUID_HYPERVISOR_BIT, regs);
	CHECK_STR(g.signature, "ab");
	CHECK_EQ(strlen(g.signature), 2);
}
