/*
 * ground.h - which ground a figure stands on: the machine itself, or which
 * hypervisor under it, read from CPUID (leaf 1 ECX bit 31 says a
 * hypervisor is present, leaf 0x40000000 gives its 12-byte vendor
 * signature). Under TCG a figure is QEMU's cost of emulating the
 * instruction path, under KVM a virtual CPU's, on bare metal the CPU's own
 * with its caches (docs/baremetal.md); a ratio means something different
 * on each, so the boot banner and the experiment report both say which.
 *
 * Shared by the kernel and the user-space experiment runner: plain C, no
 * library calls, the CPUID instruction being the same in both rings.
 */
#ifndef REWIND_GROUND_H
#define REWIND_GROUND_H

#define CPUID_HYPERVISOR_BIT  (1u << 31) /* leaf 1, ECX */
#define CPUID_HYPERVISOR_LEAF 0x40000000u

struct ground {
	const char *name;   /* "bare metal", "TCG", "KVM" or "other hypervisor" */
	const char *what;   /* what a figure measured there means */
	char signature[13]; /* the hypervisor's vendor signature, "" on bare metal */
};

static inline void
ground_cpuid(unsigned leaf, unsigned *a, unsigned *b, unsigned *c, unsigned *d)
{
	__asm__ __volatile__("cpuid" : "=a"(*a), "=b"(*b), "=c"(*c), "=d"(*d) : "a"(leaf), "c"(0));
}

static inline int
ground_signature_is(const char *sig, const char *want)
{
	for (int i = 0; i < 12; i++) {
		if (sig[i] != want[i])
			return 0;
		if (!want[i])
			return 1;
	}
	return 1;
}

/*
 * The ground from leaf 1's ECX and leaf 0x40000000's EBX, ECX, EDX (the
 * signature, 4 bytes each, little-endian); apart from ground_detect so
 * that the host unit tests can hand it any CPU.
 */
static inline struct ground
ground_classify(unsigned leaf1_ecx, const unsigned sig_regs[3])
{
	struct ground g = { "bare metal", "this machine's CPU, caches and memory", "" };

	if (!(leaf1_ecx & CPUID_HYPERVISOR_BIT))
		return g;
	for (int i = 0; i < 12; i++) {
		char ch = (char)(sig_regs[i / 4] >> (8 * (i % 4)));
		/* printable, and safe inside the report's JSON strings */
		g.signature[i] = ch >= 0x20 && ch < 0x7f && ch != '"' && ch != '\\' ? ch : '\0';
	}
	g.signature[12] = '\0';
	if (ground_signature_is(g.signature, "TCGTCGTCGTCG")) {
		g.name = "TCG";
		g.what = "QEMU's emulation: instruction-path costs, no cache effects";
	} else if (ground_signature_is(g.signature, "KVMKVMKVM")) {
		g.name = "KVM";
		g.what = "a virtual CPU: exits and the host's load weigh in";
	} else {
		g.name = "other hypervisor";
		g.what = "a virtual CPU under an unknown hypervisor";
	}
	return g;
}

static inline struct ground
ground_detect(void)
{
	unsigned a, b, c, d, sig[3] = { 0, 0, 0 };

	ground_cpuid(1, &a, &b, &c, &d);
	if (c & CPUID_HYPERVISOR_BIT)
		ground_cpuid(CPUID_HYPERVISOR_LEAF, &a, &sig[0], &sig[1], &sig[2]);
	return ground_classify(c, sig);
}

#endif
