/*
 * ps2kbd.c - the PS/2 keyboard; see ps2kbd.h. Only the controller and the
 * interrupt are here; scancode.c turns scancodes into bytes.
 *
 * The 8042 controller has a data port and a status/command port. Set-up
 * stops both of its ports, drops whatever byte is waiting, then writes its
 * configuration: keyboard interrupt on, translation to scancode set 1 on,
 * the mouse port off (mouse bytes would share the one output buffer and,
 * with IRQ 12 not routed, nobody would take them out of the keyboard's
 * way). The flush matters: the controller holds IRQ 1 raised while its
 * buffer is full and the IOAPIC pin is edge-triggered, so a byte left over
 * from the firmware would mean no edge, and no keyboard, ever.
 *
 * Every wait on the controller is bounded: a machine may have none, or
 * one that the firmware emulates for a USB keyboard and stops answering.
 */
#include "drivers/ps2kbd.h"
#include "drivers/ioapic.h"
#include "drivers/scancode.h"
#include "drivers/tty.h"
#include "kernel/x86/irq.h"
#include "kernel/x86/percpu.h"
#include "kernel/printk.h"
#include "kernel/x86/x86.h"

#define PS2_DATA    0x60
#define PS2_STATUS  0x64 /* read */
#define PS2_COMMAND 0x64 /* write */

#define STATUS_OUTPUT_FULL 0x01 /* a byte for us in PS2_DATA */
#define STATUS_INPUT_FULL  0x02 /* the controller has not taken our last byte yet */
#define STATUS_AUX	   0x20 /* the waiting byte is from the mouse port */

#define CMD_READ_CONFIG	 0x20
#define CMD_WRITE_CONFIG 0x60
#define CMD_DISABLE_AUX	 0xa7
#define CMD_DISABLE_KBD	 0xad
#define CMD_ENABLE_KBD	 0xae

#define CONFIG_KBD_IRQ	 0x01
#define CONFIG_AUX_IRQ	 0x02
#define CONFIG_KBD_OFF	 0x10
#define CONFIG_AUX_OFF	 0x20
#define CONFIG_TRANSLATE 0x40

#define KBD_IRQ	   1
#define WAIT_SPINS 100000 /* port reads: about 0.1 s on real hardware */
#define MAX_BYTES  16	  /* per flush or interrupt: the 8042 holds one */

/* Only the IRQ 1 handler uses it, and it runs on one CPU at a time. */
static struct scancode_state kbd_state;

static bool
wait_status(u8 bit, bool set)
{
	for (int i = 0; i < WAIT_SPINS; i++) {
		if (((inb(PS2_STATUS) & bit) != 0) == set)
			return true;
		cpu_relax();
	}
	return false;
}

static bool
send_command(u8 cmd)
{
	if (!wait_status(STATUS_INPUT_FULL, false))
		return false;
	outb(PS2_COMMAND, cmd);
	return true;
}

static bool
read_config(u8 *config)
{
	if (!send_command(CMD_READ_CONFIG) || !wait_status(STATUS_OUTPUT_FULL, true))
		return false;
	*config = inb(PS2_DATA);
	return true;
}

static bool
write_config(u8 config)
{
	if (!send_command(CMD_WRITE_CONFIG) || !wait_status(STATUS_INPUT_FULL, false))
		return false;
	outb(PS2_DATA, config);
	return true;
}

static void
flush_output(void)
{
	for (int i = 0; i < MAX_BYTES && (inb(PS2_STATUS) & STATUS_OUTPUT_FULL); i++)
		inb(PS2_DATA);
}

static bool
configure(void)
{
	u8 config;

	if (!send_command(CMD_DISABLE_KBD) || !send_command(CMD_DISABLE_AUX))
		return false;
	flush_output();
	if (!read_config(&config))
		return false;
	config |= CONFIG_KBD_IRQ | CONFIG_TRANSLATE | CONFIG_AUX_OFF;
	config &= ~(CONFIG_KBD_OFF | CONFIG_AUX_IRQ);
	return write_config(config);
}

static void
kbd_interrupt(struct trap_frame *f)
{
	for (int i = 0; i < MAX_BYTES; i++) {
		u8 status = inb(PS2_STATUS);
		if (!(status & STATUS_OUTPUT_FULL))
			return;
		u8 code = inb(PS2_DATA);
		int c = status & STATUS_AUX ? -1 : scancode_to_byte(&kbd_state, code);
		if (c >= 0)
			tty_receive((char)c);
	}
}

void
ps2kbd_init(void)
{
	/* Without a controller nothing drives the bus and reads float to 0xff. */
	if (inb(PS2_STATUS) == 0xff)
		return;
	if (!configure()) {
		pr_info("ps2kbd: the controller does not answer; no keyboard\n");
		return;
	}
	irq_register(VEC_DEVICE_BASE + KBD_IRQ, kbd_interrupt, "ps2kbd");
	if (ioapic_route_isa_irq(KBD_IRQ, cpus[0]->apic_id)) {
		pr_warn("ps2kbd: cannot route IRQ %u; no keyboard\n", KBD_IRQ);
		return;
	}
	/* It answered configure() a moment ago; should it stop now, the
	 * keyboard is merely silent. */
	send_command(CMD_ENABLE_KBD);
	pr_info("ps2kbd: keyboard on IRQ %u\n", KBD_IRQ);
}
