/*
 * lapic.c - the local APIC; see lapic.h.
 *
 * Register access: xAPIC registers are 32-bit MMIO at 16-byte strides from
 * the APIC base; in x2APIC mode register r is MSR 0x800 + (r >> 4) and the
 * interrupt command register is one 64-bit MSR. Everything else is shared.
 *
 * Timer: divide by 16, count down from 0xffffffff for 10 ms of TSC time to
 * learn its rate. Then, with high-resolution events (knob `highres`, as
 * Linux's hrtimers with a one-shot clock event device), it runs one-shot:
 * each interrupt programs the next for the nearest of this CPU's next tick
 * (due every 1/hz s of TSC time), its earliest timed sleeper and the
 * earliest kernel timer of its own queue (kernel/time/timer.c), and an
 * interrupt that comes before the tick is due only wakes what is due
 * (sched_timer_event), so ticks still come hz
 * times a second and are all that time accounting and the scheduler see
 * (kernel/time/tick.c). An idle CPU may stop its tick (tick.c's NO_HZ_IDLE):
 * next_tick_tsc is then its keep-alive deadline, not a tick, and every
 * interrupt only runs what is due.
 * A sleep or timer nearer than what is programmed reprograms it at once
 * (timer_interrupt_at); from the handler itself the next event is at least
 * MIN_EVENT_GAP_NS away, so that no timer can keep a CPU in it. With highres=0 the timer reloads periodically at
 * rate / hz, and sleeps and timers end at the tick after their deadline.
 */
#include "drivers/lapic.h"
#include "kernel/x86/irq.h"
#include "kernel/knobs.h"
#include "kernel/panic.h"
#include "kernel/x86/percpu.h"
#include "kernel/printk.h"
#include "kernel/sched/sched.h"
#include "kernel/time/tick.h"
#include "kernel/time/time64.h"
#include "kernel/x86/traps.h"
#include "kernel/x86/paravirt.h"
#include "kernel/time/tsc.h"
#include "kernel/x86/x86.h"
#include "mm/vmap.h"

#define REG_ID		    0x020
#define REG_VERSION	    0x030
#define REG_TPR		    0x080
#define REG_EOI		    0x0b0
#define REG_SVR		    0x0f0
#define REG_ESR		    0x280
#define REG_ICR_LOW	    0x300
#define REG_ICR_HIGH	    0x310
#define REG_LVT_TIMER	    0x320
#define REG_LVT_LINT0	    0x350
#define REG_LVT_LINT1	    0x360
#define REG_LVT_ERROR	    0x370
#define REG_TIMER_INIT	    0x380
#define REG_TIMER_COUNT	    0x390
#define REG_TIMER_DIV	    0x3e0
#define MSR_X2APIC_SELF_IPI 0x83f

#define SVR_ENABLE	 (1u << 8)
#define LVT_MASKED	 (1u << 16)
#define LVT_PERIODIC	 (1u << 17)
#define DELIVERY_NMI	 (4u << 8)
#define DELIVERY_INIT	 (5u << 8)
#define DELIVERY_STARTUP (6u << 8)
#define ICR_LEVEL	 (1u << 15)
#define ICR_PENDING	 (1u << 12)
#define ICR_ASSERT	 (1u << 14)
#define ICR_SELF	 (1u << 18) /* destination shorthand: this CPU */
#define TIMER_DIV_16	 0x3

#define APIC_BASE_X2APIC (1ul << 10)
#define APIC_BASE_ENABLE (1ul << 11)

KNOB_INT(hz, "hz", 1000, 100, 10000, false, "timer interrupts per second on every CPU");
KNOB_BOOL(nox2apic, "nox2apic", 0, false, "use the xAPIC (MMIO) even where the CPU has x2APIC");
/*
 * The handler programs its next event no sooner than this after itself:
 * a periodic timer with a period shorter than an interrupt takes (a 1 ns
 * setitimer interval) would otherwise keep the CPU in this handler. The
 * missed periods still count as overruns. 20 us, below Linux's default
 * timer slack of 50 us; a sleep asked for from a system call is
 * programmed as asked (timer_interrupt_at).
 */
#define MIN_EVENT_GAP_NS 20000ul

KNOB_BOOL(highres, "highres", 1, false,
	  "timer interrupts at each sleep's and timer's deadline too (0: at ticks only)");

static volatile u32 *mmio;
static bool x2apic;
static u64 timer_hz;

static u32
lapic_read(u32 reg)
{
	if (x2apic)
		return (u32)rdmsr(0x800 + (reg >> 4));
	return mmio[reg / 4];
}

static void
lapic_write(u32 reg, u32 v)
{
	if (x2apic)
		wrmsr(0x800 + (reg >> 4), v);
	else
		mmio[reg / 4] = v;
}

u32
lapic_id(void)
{
	return x2apic ? lapic_read(REG_ID) : lapic_read(REG_ID) >> 24;
}

void
lapic_eoi(void)
{
	lapic_write(REG_EOI, 0);
}

static void
send_icr(u32 dest, u32 low)
{
	if (x2apic) {
		wrmsr(0x830, ((u64)dest << 32) | low);
		return;
	}
	while (lapic_read(REG_ICR_LOW) & ICR_PENDING)
		cpu_relax();
	lapic_write(REG_ICR_HIGH, dest << 24);
	lapic_write(REG_ICR_LOW, low);
}

void
lapic_send_ipi(u32 apic_id, u8 vector)
{
	send_icr(apic_id, ICR_ASSERT | vector);
}

void
lapic_send_init(u32 apic_id)
{
	send_icr(apic_id, ICR_ASSERT | DELIVERY_INIT | ICR_LEVEL);
}

void
lapic_send_startup(u32 apic_id, u8 page)
{
	send_icr(apic_id, DELIVERY_STARTUP | page);
}

/*
 * From NMI context too (the profiler's tick): x2APIC has a register of its
 * own for this; in xAPIC mode the shorthand needs no destination, so an NMI
 * that lands between another sender's ICR_HIGH and ICR_LOW writes leaves
 * that sender's destination alone.
 */
void
lapic_send_self_ipi(u8 vector)
{
	if (x2apic) {
		wrmsr(MSR_X2APIC_SELF_IPI, vector);
		return;
	}
	while (lapic_read(REG_ICR_LOW) & ICR_PENDING)
		cpu_relax();
	lapic_write(REG_ICR_LOW, ICR_SELF | ICR_ASSERT | vector);
}

/*
 * One NMI per CPU this kernel runs on, never the all-but-self shorthand: a
 * CPU still parked by the firmware (SeaBIOS keeps APs halted in its own
 * protected-mode code) would take the NMI through the firmware's IDT and
 * reset the machine.
 */
void
lapic_stop_other_cpus(void)
{
	if (!x2apic && !mmio)
		return;
	for (unsigned i = 0; i < MAX_CPUS; i++) {
		struct cpu *c = READ_ONCE(cpus[i]);
		if (c && c != this_cpu() && READ_ONCE(c->online))
			send_icr(c->apic_id, ICR_ASSERT | DELIVERY_NMI);
	}
}

static void
lapic_error(struct trap_frame *f)
{
	lapic_write(REG_ESR, 0); /* latch the error bits, then read them */
	pr_warn("lapic: error interrupt on CPU %u, ESR %#x\n", this_cpu()->id, lapic_read(REG_ESR));
}

/* Starts the one-shot count to deadline (now if it has passed); interrupts off. */
static void
program_event(struct cpu *c, u64 deadline, u64 now)
{
	u64 delta = deadline > now ? deadline - now : 0;
	/*
	 * Rounded up: an interrupt before the deadline would find nothing due.
	 * Beyond the 32-bit count (a minute or so, only a tickless idle CPU
	 * asks for that) it comes early, finds nothing due, and counts again.
	 */
	u64 count = (delta * timer_hz + tsc_hz - 1) / tsc_hz;

	c->next_event_tsc = deadline;
	lapic_write(REG_TIMER_INIT, (u32)MIN(MAX(count, 1ul), 0xfffffffful));
}

void
timer_interrupt_at(u64 deadline)
{
	if (!highres)
		return;
	u64 flags = local_irq_save();
	struct cpu *c = this_cpu();
	/* Not counting (before the timer starts, or in the profiler's NMI mode): nothing to move. */
	if (!READ_ONCE(c->timer_nmi_rate) && deadline < c->next_event_tsc)
		program_event(c, deadline, rdtsc());
	local_irq_restore(flags);
}

bool
lapic_timer_one_shot(void)
{
	return highres && !READ_ONCE(this_cpu()->timer_nmi_rate);
}

void
lapic_timer_next_tick(u64 next_tick)
{
	struct cpu *c = this_cpu();

	c->next_tick_tsc = next_tick;
	program_event(c, MIN(next_tick, sched_next_event()), rdtsc());
}

static void
lapic_tick(struct trap_frame *f)
{
	struct cpu *c = this_cpu();
	u64 now = rdtsc();

	/* Periodic mode, or the profiler's NMIs passing ticks on: every interrupt is a tick. */
	if (!highres || READ_ONCE(c->timer_nmi_rate)) {
		tick_handle(c, f, now);
		return;
	}
	if (c->tick_stopped) {
		tick_nohz_event(c, now);
		sched_timer_event();
	} else if (now >= c->next_tick_tsc) {
		/* On time, the next is one period on; after a long stall, one period from now. */
		c->next_tick_tsc += tsc_hz / (u64)hz;
		if (c->next_tick_tsc <= now)
			c->next_tick_tsc = now + tsc_hz / (u64)hz;
		tick_handle(c, f, now);
	} else {
		sched_timer_event();
	}
	/* The NMI mode may have begun in a handler above (profile_tick): it owns the timer then. */
	if (!READ_ONCE(c->timer_nmi_rate)) {
		now = rdtsc();
		u64 soonest = now + tsc_hz / (NSEC_PER_SEC / MIN_EVENT_GAP_NS);
		program_event(c, MIN(c->next_tick_tsc, MAX(sched_next_event(), soonest)), now);
	}
}

static void
enable_mode(void)
{
	u64 base = rdmsr(MSR_APIC_BASE);

	x2apic = (cpuid(1, 0).ecx & (1u << 21)) && !READ_ONCE(nox2apic);
	if (x2apic) {
		wrmsr(MSR_APIC_BASE, base | APIC_BASE_ENABLE | APIC_BASE_X2APIC);
		return;
	}
	if (!mmio)
		mmio = ioremap(base & 0xfffff000ul, 0x1000, IOMAP_UNCACHED);
	wrmsr(MSR_APIC_BASE, base | APIC_BASE_ENABLE);
}

void
lapic_init(void)
{
	if (!(cpuid(1, 0).edx & (1u << 9)))
		panic("lapic: this CPU has no local APIC, which rewind needs");
	enable_mode();
	lapic_write(REG_TPR, 0);
	lapic_write(REG_LVT_TIMER, LVT_MASKED);
	lapic_write(REG_LVT_LINT0, LVT_MASKED);
	lapic_write(REG_LVT_LINT1, DELIVERY_NMI); /* LINT1 is the legacy NMI line */
	lapic_write(REG_LVT_ERROR, VEC_LAPIC_ERROR);
	lapic_write(REG_ESR, 0);
	lapic_write(REG_SVR, SVR_ENABLE | VEC_SPURIOUS);
	irq_register(VEC_LAPIC_ERROR, lapic_error, "lapic-error");
	irq_register(VEC_LAPIC_TIMER, lapic_tick, "timer");
	this_cpu()->apic_id = lapic_id();
	pr_info("lapic: CPU %u has APIC id %u, %s mode, version %#x\n", this_cpu()->id,
		this_cpu()->apic_id, x2apic ? "x2APIC" : "xAPIC", lapic_read(REG_VERSION) & 0xff);
}

static void
calibrate_timer(void)
{
	lapic_write(REG_TIMER_DIV, TIMER_DIV_16);
	lapic_write(REG_LVT_TIMER, LVT_MASKED);
	lapic_write(REG_TIMER_INIT, 0xffffffff);
	u64 t0 = rdtsc();
	tsc_delay_us(10000);
	u32 left = lapic_read(REG_TIMER_COUNT);
	u64 cycles = rdtsc() - t0;
	lapic_write(REG_TIMER_INIT, 0);
	timer_hz = (u64)(0xffffffffu - left) * tsc_hz / cycles;
}

/* The timer as the tick's: one-shot from now to the next tick (highres), or periodic at hz. */
static void
timer_for_ticks(struct cpu *c)
{
	if (!highres) {
		lapic_write(REG_LVT_TIMER, LVT_PERIODIC | VEC_LAPIC_TIMER);
		lapic_write(REG_TIMER_INIT, (u32)(timer_hz / (u64)hz));
		return;
	}
	u64 now = rdtsc();
	lapic_write(REG_LVT_TIMER, VEC_LAPIC_TIMER); /* one-shot */
	c->next_tick_tsc = now + tsc_hz / (u64)hz;
	program_event(c, MIN(c->next_tick_tsc, sched_next_event()), now);
}

void
lapic_timer_start(void)
{
	if (!timer_hz) {
		calibrate_timer();
		pr_info("lapic: timer runs at %lu.%03lu MHz (after divide-by-16); tick at %d Hz, %s\n",
			timer_hz / 1000000, timer_hz / 1000 % 1000, hz,
			highres ? "high-resolution events" : "periodic");
	}
	lapic_write(REG_TIMER_DIV, TIMER_DIV_16);
	u64 flags = local_irq_save();
	timer_for_ticks(this_cpu());
	local_irq_restore(flags);
}

/*
 * One LAPIC has one timer, and the tick already has it: the profiler's
 * NMIs take it over and hand the tick on (Bresenham-style credit, so the
 * tick rate stays hz on average whatever the NMI rate); sleeps and timers
 * end at ticks meanwhile, as with highres=0. The rate field is
 * written before the LVT changes to NMI and cleared after it changes back,
 * so that every NMI the timer sends finds it set.
 */
void
lapic_timer_nmi_mode(u32 rate)
{
	struct cpu *c = this_cpu();

	if (rate && rate < (u32)hz)
		rate = (u32)hz;
	c->tick_credit = 0;
	if (rate) {
		WRITE_ONCE(c->timer_nmi_rate, rate);
		c->next_event_tsc = 0;
		lapic_write(REG_LVT_TIMER, LVT_PERIODIC | DELIVERY_NMI);
		lapic_write(REG_TIMER_INIT, (u32)(timer_hz / rate));
	} else {
		timer_for_ticks(c);
		WRITE_ONCE(c->timer_nmi_rate, 0);
	}
}

void
lapic_timer_nmi_tick(void)
{
	struct cpu *c = this_cpu();
	u32 rate = READ_ONCE(c->timer_nmi_rate);

	if (!rate)
		return;
	c->tick_credit += (u32)hz;
	if (c->tick_credit >= rate) {
		c->tick_credit -= rate;
		lapic_send_self_ipi(VEC_LAPIC_TIMER);
	}
}
