/*
 * pic.c - remap and mask both 8259s; see pic.h.
 *
 * The BIOS leaves IRQ 0 on vector 8, where a stray timer interrupt would
 * look like a double fault; so the PICs are moved to 0x20-0x2f first. Even
 * masked, a PIC can raise a spurious IRQ 7 or 15: those vectors get a
 * handler that counts them and, for IRQ 15, acknowledges the master.
 */
#include "drivers/pic.h"
#include "kernel/x86/irq.h"
#include "kernel/x86/traps.h"
#include "kernel/x86/x86.h"

#define PIC1_CMD       0x20
#define PIC1_DATA      0x21
#define PIC2_CMD       0xa0
#define PIC2_DATA      0xa1
#define ICW1_INIT_ICW4 0x11
#define ICW4_8086      0x01
#define OCW2_EOI       0x20

static void
pic_spurious(struct trap_frame *f)
{
	if (f->vector == VEC_PIC_BASE + 15)
		outb(PIC1_CMD, OCW2_EOI); /* the master did see its cascade line */
}

void
pic_disable(void)
{
	outb(PIC1_CMD, ICW1_INIT_ICW4);
	outb(PIC2_CMD, ICW1_INIT_ICW4);
	outb(PIC1_DATA, VEC_PIC_BASE); /* ICW2: vector base */
	outb(PIC2_DATA, VEC_PIC_BASE + 8);
	outb(PIC1_DATA, 1 << 2); /* ICW3: slave on IRQ 2 */
	outb(PIC2_DATA, 2);
	outb(PIC1_DATA, ICW4_8086);
	outb(PIC2_DATA, ICW4_8086);
	outb(PIC1_DATA, 0xff); /* mask everything */
	outb(PIC2_DATA, 0xff);
	irq_register(VEC_PIC_BASE + 7, pic_spurious, "pic-spurious");
	irq_register(VEC_PIC_BASE + 15, pic_spurious, "pic-spurious");
}
