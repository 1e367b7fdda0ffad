/*
 * pit.c - 8254 channel 2 one-shot windows for calibrating the TSC and the
 * LAPIC timer, and channel 0's BIOS tick stopped; see pit.h.
 *
 * Channel 2's gate is bit 0 of port 0x61 and its output can be read back in
 * bit 5, so a window is timed by polling, with interrupts off.
 */
#include "drivers/pit.h"
#include "kernel/x86/x86.h"

#define PIT_CH0	    0x40
#define PIT_CH2	    0x42
#define PIT_MODE    0x43
#define PORT_61	    0x61
#define P61_GATE2   0x01
#define P61_SPEAKER 0x02
#define P61_OUT2    0x20

void
pit_oneshot_start(u32 us)
{
	u32 count = (u32)((u64)PIT_HZ * us / 1000000);

	if (count > 0xffff)
		count = 0xffff;
	/* gate low, speaker off; channel 2, lobyte/hibyte, mode 0 (count down once) */
	outb(PORT_61, inb(PORT_61) & ~(P61_GATE2 | P61_SPEAKER));
	outb(PIT_MODE, 0xb0);
	outb(PIT_CH2, count & 0xff);
	outb(PIT_CH2, count >> 8);
	outb(PORT_61, inb(PORT_61) | P61_GATE2); /* rising gate starts it */
}

void
pit_oneshot_wait(void)
{
	while (!(inb(PORT_61) & P61_OUT2))
		cpu_relax();
}

/*
 * The BIOS leaves channel 0 counting at 18.2 Hz. Its interrupt is masked
 * once the LAPIC timer ticks, but a virtual machine's PIT still wakes at
 * every edge of it; Linux shuts the channel down when another clock event
 * device takes over, and so does this: mode 0 with a full count runs out
 * once and then stays still.
 */
void
pit_stop_channel0(void)
{
	outb(PIT_MODE, 0x30); /* channel 0, lobyte/hibyte, mode 0 */
	outb(PIT_CH0, 0);
	outb(PIT_CH0, 0);
}
