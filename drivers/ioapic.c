/*
 * ioapic.c - see ioapic.h.
 *
 * Registers are reached indirectly: write the register index to IOREGSEL
 * (offset 0), then read or write IOWIN (offset 0x10). Redirection entry n
 * is the register pair 0x10 + 2n (low) and 0x11 + 2n (high: destination).
 */
#include "drivers/ioapic.h"
#include "uapi/errno.h"
#include "kernel/x86/irq.h"
#include "kernel/printk.h"
#include "locking/spinlock.h"
#include "mm/vmap.h"

#define IOAPIC_DEFAULT_BASE 0xfec00000
#define REG_ID		    0x00
#define REG_VERSION	    0x01
#define REG_REDIR(n)	    (0x10 + 2 * (n))
#define REDIR_MASKED	    (1u << 16)

static volatile u32 *regs;
static unsigned npins;
static struct spinlock ioapic_lock = SPINLOCK_INIT("ioapic");

static u32
ioapic_read(u32 reg)
{
	regs[0] = reg;
	return regs[4];
}

static void
ioapic_write(u32 reg, u32 v)
{
	regs[0] = reg;
	regs[4] = v;
}

void
ioapic_mask(unsigned pin)
{
	u64 flags = spin_lock_irqsave(&ioapic_lock);
	ioapic_write(REG_REDIR(pin), REDIR_MASKED);
	ioapic_write(REG_REDIR(pin) + 1, 0);
	spin_unlock_irqrestore(&ioapic_lock, flags);
}

int
ioapic_route_isa_irq(unsigned irq, u32 apic_id)
{
	if (!regs || irq >= npins || VEC_DEVICE_BASE + irq >= VEC_LAPIC_TIMER)
		return -EINVAL;
	u64 flags = spin_lock_irqsave(&ioapic_lock);
	/* fixed delivery, physical destination, edge-triggered, active high */
	ioapic_write(REG_REDIR(irq) + 1, apic_id << 24);
	ioapic_write(REG_REDIR(irq), VEC_DEVICE_BASE + irq);
	spin_unlock_irqrestore(&ioapic_lock, flags);
	return 0;
}

void
ioapic_init(void)
{
	regs = ioremap(IOAPIC_DEFAULT_BASE, 0x20, IOMAP_UNCACHED);
	if (!regs) {
		pr_warn("ioapic: cannot map %#x\n", IOAPIC_DEFAULT_BASE);
		return;
	}
	u32 version = ioapic_read(REG_VERSION);
	if (version == 0xffffffff || (version & 0xff) < 0x10) {
		pr_warn("ioapic: none at %#x (version register %#x); device interrupts unavailable\n",
			IOAPIC_DEFAULT_BASE, version);
		regs = NULL;
		return;
	}
	npins = ((version >> 16) & 0xff) + 1;
	for (unsigned pin = 0; pin < npins; pin++)
		ioapic_mask(pin);
	pr_info("ioapic: id %u at %#x, version %#x, %u pins (all masked)\n",
		ioapic_read(REG_ID) >> 24, IOAPIC_DEFAULT_BASE, version & 0xff, npins);
}
