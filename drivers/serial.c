/*
 * serial.c - COM1: output for printk, input for the console terminal;
 * see serial.h.
 *
 * Output polls the line-status register: simple, usable from any context
 * including panic, and under QEMU the transmitter is always ready.
 * Input is interrupt-driven: each received byte goes to drivers/tty.c.
 */
#include "drivers/serial.h"
#include "drivers/ioapic.h"
#include "drivers/tty.h"
#include "kernel/x86/irq.h"
#include "kernel/x86/percpu.h"
#include "kernel/printk.h"
#include "kernel/x86/x86.h"

#define COM1	       0x3f8
#define REG_DATA       0 /* DLAB=0 */
#define REG_IER	       1
#define REG_DLL	       0 /* DLAB=1: divisor latch */
#define REG_DLM	       1
#define REG_FCR	       2
#define REG_LCR	       3
#define REG_MCR	       4
#define REG_LSR	       5
#define REG_SCRATCH    7
#define LSR_DATA_READY 0x01
#define LSR_THRE       0x20
#define LCR_DLAB       0x80
#define LCR_8N1	       0x03
#define IER_RX	       0x01 /* interrupt when a byte has arrived */
#define MCR_DTR_RTS    0x03
#define MCR_OUT2       0x08 /* on PCs, gates the UART's interrupt line to the board */
#define COM1_IRQ       4

static bool present;

static bool
uart_answers(void)
{
	outb(COM1 + REG_SCRATCH, 0x5a);
	if (inb(COM1 + REG_SCRATCH) != 0x5a)
		return false;
	outb(COM1 + REG_SCRATCH, 0xa5);
	return inb(COM1 + REG_SCRATCH) == 0xa5;
}

static void
put_byte(char c)
{
	for (int spins = 0; spins < 100000; spins++) {
		if (inb(COM1 + REG_LSR) & LSR_THRE)
			break;
		cpu_relax();
	}
	outb(COM1 + REG_DATA, (u8)c);
}

void
serial_write(const char *s, size_t n)
{
	if (!present)
		return;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\n')
			put_byte('\r');
		put_byte(s[i]);
	}
}

static struct console serial_console = { .name = "ttyS0", .write = serial_write };

bool
serial_init(void)
{
	if (!uart_answers())
		return false;
	outb(COM1 + REG_IER, 0); /* no interrupts yet */
	outb(COM1 + REG_LCR, LCR_DLAB);
	outb(COM1 + REG_DLL, 1); /* 115200 / 1 */
	outb(COM1 + REG_DLM, 0);
	outb(COM1 + REG_LCR, LCR_8N1);
	outb(COM1 + REG_FCR, 0xc7); /* FIFOs on and cleared, 14-byte trigger */
	outb(COM1 + REG_MCR, MCR_DTR_RTS);
	present = true;
	register_console(&serial_console);
	return true;
}

/*
 * Reads every byte the FIFO holds: the IOAPIC pin is edge-triggered and
 * the UART keeps its line raised while data is waiting, so a byte left
 * behind would mean no further interrupt, ever.
 */
static void
serial_interrupt(struct trap_frame *f)
{
	while (inb(COM1 + REG_LSR) & LSR_DATA_READY)
		tty_receive((char)inb(COM1 + REG_DATA));
}

void
serial_enable_rx(void)
{
	if (!present)
		return;
	irq_register(VEC_DEVICE_BASE + COM1_IRQ, serial_interrupt, "com1");
	if (ioapic_route_isa_irq(COM1_IRQ, cpus[0]->apic_id)) {
		pr_warn("serial: cannot route IRQ %u; no input from COM1\n", COM1_IRQ);
		return;
	}
	/* Bytes that came during boot raise the line now: nothing is lost. */
	outb(COM1 + REG_MCR, MCR_DTR_RTS | MCR_OUT2);
	outb(COM1 + REG_IER, IER_RX);
}
