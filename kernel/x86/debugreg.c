/*
 * debugreg.c - hardware breakpoints and watchpoints for user tasks, as
 * Linux's ptrace gives them through struct user's u_debugreg[8]
 * (arch/x86/kernel/ptrace.c and hw_breakpoint.c): DR0-DR3 hold user
 * addresses, DR7 enables each one as an instruction breakpoint or a
 * write or read-write watchpoint of 1, 2, 4 or 8 aligned bytes, and DR6
 * reads which one the last #DB hit.
 *
 * Only a task with an enabled slot pays anything: its DR0-DR3 and DR7 are
 * loaded when it is switched in, and DR7 cleared when a task without is
 * switched in after it (struct cpu's hw_dr7 says what is loaded). A hit
 * in user mode is the task's SIGTRAP with TRAP_HWBKPT (traps.c); the
 * kernel's own copies to or from a watched user address also raise #DB,
 * which is ignored. The kernel uses no debug registers itself.
 */
#include "kernel/x86/debugreg.h"
#include "kernel/process/task.h"
#include "kernel/x86/paravirt.h"
#include "kernel/x86/percpu.h"
#include "kernel/x86/traps.h"
#include "kernel/x86/x86.h"
#include "mm/layout.h"
#include "uapi/errno.h"
#include "uapi/signal.h"

#define DR6_RESERVED	    0xffff0ff0ul /* DR6's bits that read 1: its "nothing hit" value */
#define DR6_STEP	    (1ul << 14)	 /* BS: a TF single-step */
#define DR6_HITS	    0xful	 /* B0-B3 */
#define DR7_CONTROL_SHIFT   16		 /* each slot's R/W and LEN, four bits a slot */
#define DR7_RW_EXECUTE	    0
#define DR7_RW_IO	    2 /* I/O breakpoints: not for user tasks */
#define DR7_LOCAL_ENABLE(i) (1ul << (2 * (i)))

/* ---- the registers themselves ----------------------------------------------------------- */

static u64
read_dr6(void)
{
	u64 v;

	__asm__ __volatile__("mov %%db6, %0" : "=r"(v));
	return v;
}

static void
write_dr6(u64 v)
{
	__asm__ __volatile__("mov %0, %%db6" : : "r"(v));
}

static void
write_dr7(u64 v)
{
	__asm__ __volatile__("mov %0, %%db7" : : "r"(v));
}

static void
write_addresses(const u64 addr[DEBUGREG_SLOTS])
{
	__asm__ __volatile__("mov %0, %%db0" : : "r"(addr[0]));
	__asm__ __volatile__("mov %0, %%db1" : : "r"(addr[1]));
	__asm__ __volatile__("mov %0, %%db2" : : "r"(addr[2]));
	__asm__ __volatile__("mov %0, %%db3" : : "r"(addr[3]));
}

/* ---- what DR7 says of a slot ------------------------------------------------------------ */

static bool
slot_enabled(u64 dr7, unsigned i)
{
	return (dr7 >> (2 * i)) & 3; /* the local or the global enable: either arms it */
}

static unsigned
slot_rw(u64 dr7, unsigned i)
{
	return (dr7 >> (DR7_CONTROL_SHIFT + 4 * i)) & 3;
}

static unsigned
slot_len_bits(u64 dr7, unsigned i)
{
	return (dr7 >> (DR7_CONTROL_SHIFT + 4 * i + 2)) & 3;
}

/* DR7's LEN encoding: 00 one byte, 01 two, 11 four, 10 eight. */
static u64
len_bytes(unsigned len_bits)
{
	static const u8 bytes[4] = { 1, 2, 8, 4 };

	return bytes[len_bits];
}

/*
 * Whether a slot at addr with these R/W and LEN bits is one Linux's
 * ptrace accepts: an instruction breakpoint only with LEN 00, no I/O
 * breakpoint, the watched bytes aligned to their length and all below
 * USER_TOP (exclude_kernel); -EINVAL otherwise.
 */
static int
check_slot(u64 addr, unsigned rw, unsigned len_bits)
{
	u64 len = len_bytes(len_bits);

	if (rw == DR7_RW_IO || (rw == DR7_RW_EXECUTE && len_bits != 0))
		return -EINVAL;
	if ((addr & (len - 1)) || addr >= USER_TOP || addr + len > USER_TOP)
		return -EINVAL;
	return 0;
}

/* The slots of dr7 whose instruction or data bytes the CPU is to watch. */
static u64
enabled_slots(u64 dr7)
{
	u64 mask = 0;

	for (unsigned i = 0; i < DEBUGREG_SLOTS; i++)
		if (slot_enabled(dr7, i))
			mask |= 1ul << i;
	return mask;
}

/* The DR7 the CPU gets: each enabled slot's local enable and control bits, nothing else. */
static u64
hardware_dr7(u64 dr7)
{
	u64 hw = 0;

	for (unsigned i = 0; i < DEBUGREG_SLOTS; i++)
		if (slot_enabled(dr7, i))
			hw |= DR7_LOCAL_ENABLE(i) | (dr7 & (0xful << (DR7_CONTROL_SHIFT + 4 * i)));
	return hw;
}

/* ---- ptrace's view ---------------------------------------------------------------------- */

int
debugreg_read(const struct task *t, unsigned n, u64 *value)
{
	const struct debugregs *d = &t->debugregs;

	if (n < DEBUGREG_SLOTS)
		*value = d->addr[n];
	else if (n == 6)
		*value = d->dr6 ^ DR6_RESERVED; /* the CPU's polarity: reserved bits read 1 */
	else if (n == 7)
		*value = d->dr7;
	else
		*value = 0; /* DR4 and DR5: not there */
	return 0;
}

/* A new address for slot i: checked with the slot's kind if enabled, else as one byte. */
static int
write_address(struct debugregs *d, unsigned i, u64 addr)
{
	bool enabled = slot_enabled(d->dr7, i);
	int err = enabled ? check_slot(addr, slot_rw(d->dr7, i), slot_len_bits(d->dr7, i))
			  : check_slot(addr, 1, 0);

	if (!err)
		d->addr[i] = addr;
	return err;
}

/* A new DR7: every slot it enables must be valid at its address, or nothing changes. */
static int
write_control(struct debugregs *d, u64 dr7)
{
	for (unsigned i = 0; i < DEBUGREG_SLOTS; i++) {
		int err = slot_enabled(dr7, i)
				  ? check_slot(d->addr[i], slot_rw(dr7, i), slot_len_bits(dr7, i))
				  : 0;
		if (err)
			return err;
	}
	d->dr7 = dr7;
	d->hw_dr7 = hardware_dr7(dr7);
	return 0;
}

int
debugreg_write(struct task *t, unsigned n, u64 value)
{
	struct debugregs *d = &t->debugregs;

	if (n < DEBUGREG_SLOTS)
		return write_address(d, n, value);
	if (n == 6) {
		d->dr6 = value ^ DR6_RESERVED;
		return 0;
	}
	if (n == 7)
		return write_control(d, value);
	return -EIO;
}

/* ---- switching and traps ---------------------------------------------------------------- */

void
debugreg_switch(struct cpu *c, const struct task *next)
{
	u64 dr7 = next->debugregs.hw_dr7;

	write_dr7(0); /* no slot armed with a stale address meanwhile */
	if (dr7) {
		write_addresses(next->debugregs.addr);
		write_dr7(dr7);
	}
	c->hw_dr7 = dr7;
}

void
debugreg_exec(struct task *t)
{
	u64 flags = local_irq_save();

	t->debugregs = (struct debugregs){ 0 };
	if (this_cpu()->hw_dr7)
		debugreg_switch(this_cpu(), t);
	local_irq_restore(flags);
}

int
debugreg_user_trap(struct trap_frame *f)
{
	struct debugregs *d = &current()->debugregs;
	u64 dr6 = read_dr6();
	u64 hits = dr6 & enabled_slots(d->hw_dr7); /* the CPU may flag disabled slots too */

	write_dr6(DR6_RESERVED);
	d->dr6 = (dr6 & DR6_STEP) | hits;
	for (unsigned i = 0; i < DEBUGREG_SLOTS; i++)
		if ((hits & (1ul << i)) && slot_rw(d->hw_dr7, i) == DR7_RW_EXECUTE)
			f->rflags |=
				RFLAGS_RF; /* an instruction breakpoint is a fault: run it now */
	if (dr6 & DR6_STEP)
		return TRAP_TRACE;
	return hits ? TRAP_HWBKPT : TRAP_BRKPT;
}

bool
debugreg_kernel_trap(void)
{
	u64 dr6 = read_dr6();

	if (!(dr6 & enabled_slots(this_cpu()->hw_dr7)))
		return false;
	write_dr6(DR6_RESERVED);
	return true;
}
