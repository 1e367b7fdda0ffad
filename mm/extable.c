/*
 * extable.c - exception-table lookup and the fault-tolerant probes; see
 * extable.h. The table is small and searched linearly; it is only consulted
 * when a kernel instruction has already faulted.
 */
#include "mm/extable.h"
#include "uapi/errno.h"
#include "kernel/x86/traps.h"

extern const struct extable_entry __start_ex_table[], __stop_ex_table[];

static const struct extable_entry *
extable_find(u64 rip)
{
	for (const struct extable_entry *e = __start_ex_table; e < __stop_ex_table; e++)
		if (e->insn == rip)
			return e;
	return NULL;
}

bool
extable_has(u64 rip)
{
	return extable_find(rip) != NULL;
}

bool
extable_fixup(struct trap_frame *f)
{
	const struct extable_entry *e = extable_find(f->rip);

	if (e)
		f->rip = e->fixup;
	return e != NULL;
}

int
probe_read_u64(const void *addr, u64 *out)
{
	int err = 0;
	u64 v = 0;

	__asm__ __volatile__(
		"1:	movq (%[addr]), %[v]\n"
		"2:\n\t" EXTABLE_FIXUP(3, "movl %[efault], %[err]", 2b) EXTABLE_ENTRY(1b, 3b)
		: [v] "+r"(v), [err] "+r"(err)
		: [addr] "r"(addr), [efault] "i"(-EFAULT)
		: "memory");
	*out = v;
	return err;
}

int
probe_write_u64(void *addr, u64 value)
{
	int err = 0;

	__asm__ __volatile__(
		"1:	movq %[v], (%[addr])\n"
		"2:\n\t" EXTABLE_FIXUP(3, "movl %[efault], %[err]", 2b) EXTABLE_ENTRY(1b, 3b)
		: [err] "+r"(err)
		: [addr] "r"(addr), [v] "r"(value), [efault] "i"(-EFAULT)
		: "memory");
	return err;
}
