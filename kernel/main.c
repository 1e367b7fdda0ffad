/*
 * main.c - the kernel's entry from boot/entry.asm and its start-up order.
 *
 * Order matters: serial and the TSC rate first (so every line has a
 * timestamp), then the CPU tables (so any fault from here on is reported,
 * not a triple fault), then the loader's information and the knobs it
 * carries, memory, the screen, interrupts, the clocks (before the timer
 * starts ticking them), and whatever the command line asks for.
 */
#include "kernel/boot.h"
#include "kernel/crashtest.h"
#include "kernel/x86/fpu.h"
#include "kernel/kbench.h"
#include "kernel/knobs.h"
#include "kernel/ktest.h"
#include "kernel/profile.h"
#ifdef CONFIG_PARAVIRT
#include "kernel/x86/paravirt_patch.h"
#endif
#include "kernel/panic.h"
#include "kernel/x86/paravirt.h"
#include "kernel/x86/percpu.h"
#include "kernel/printk.h"
#include "kernel/process/process.h"
#include "kernel/random.h"
#include "kernel/sched/sched.h"
#include "kernel/sys_info.h"
#include "kernel/x86/smp.h"
#include "kernel/lib/string.h"
#include "kernel/syscall/syscall.h"
#include "kernel/time/timekeeping.h"
#include "kernel/time/tsc.h"
#include "kernel/vdso/vdso.h"
#include "kernel/vdso/vsyscall.h"
#include "kernel/vdso/vvar.h"
#include "kernel/x86/x86.h"
#include "kernel/x86/ground.h"
#include "locking/lockdebug.h"
#include "drivers/acpi.h"
#include "drivers/acpi_pm.h"
#include "drivers/fbcon.h"
#include "drivers/qemu_exit.h"
#include "drivers/fw_cfg.h"
#include "drivers/hpet.h"
#include "drivers/ioapic.h"
#include "drivers/kvmclock.h"
#include "drivers/kvm_steal.h"
#include "drivers/lapic.h"
#include "drivers/pic.h"
#include "drivers/pit.h"
#include "drivers/serial.h"
#include "drivers/tty.h"
#include "mm/kstack_static.h"
#include "mm/mm.h"
#include "mm/uaccess.h"
#include "fs/fs.h"
#include "fs/nsfs.h"
#include "fs/proc/procfs.h"
#include "ipc/mqueue.h"
#include "version.h" /* generated: build/generated/version.h */

struct boot_info boot_info;
struct static_stack boot_stack __section(".bss.stacks");

static char cmdline[BOOT_CMDLINE_MAX * 2];

KNOB_BOOL(
	ktest, "ktest", 0, false,
	"run the in-kernel self-tests and print 'ktest: N passed, N failed'; then end QEMU with the "
	"verdict, or, when run= asks for a program, run it and fail its power-off if a test failed");

/*
 * Normally a refused knob is only warned about, so that a typo on a real
 * machine's GRUB line still boots. A tool that runs one program and labels
 * its figures with the knobs it asked for (tools/rewind-run) wants the
 * opposite: no figure at all rather than one under a default kept silently.
 */
KNOB_BOOL(knob_strict, "knob_strict", 0, false,
	  "end the boot with the failure status, before any program runs, if a command-line "
	  "word was refused");

const char *
boot_cmdline(void)
{
	return cmdline;
}

bool
boot_ktest_mode(void)
{
	return READ_ONCE(ktest);
}

/* The loader's command line, then anything QEMU passed through fw_cfg. */
static void
assemble_cmdline(void)
{
	size_t n = strlen(boot_info.cmdline);
	memcpy(cmdline, boot_info.cmdline, n + 1);
	if (n + 1 < sizeof(cmdline)) {
		cmdline[n] = ' ';
		if (fw_cfg_read_file("opt/rewind/cmdline", cmdline + n + 1,
				     sizeof(cmdline) - n - 1) < 0)
			cmdline[n] = '\0';
	}
}

static void
print_cpu(void)
{
	u32 brand[12];

	if (cpuid(0x80000000, 0).eax < 0x80000004) {
		pr_info("cpu: (no brand string)\n");
		return;
	}
	for (u32 i = 0; i < 3; i++) {
		struct cpuid_regs r = cpuid(0x80000002 + i, 0);
		brand[i * 4] = r.eax;
		brand[i * 4 + 1] = r.ebx;
		brand[i * 4 + 2] = r.ecx;
		brand[i * 4 + 3] = r.edx;
	}
	const char *s = (const char *)brand;
	while (*s == ' ')
		s++;
	pr_info("cpu: %.48s, TSC %lu.%03lu MHz (%s)\n", s, tsc_hz / 1000000, tsc_hz / 1000 % 1000,
		tsc_source);
}

/* Under which the figures of this boot are taken (kernel/x86/ground.h). */
static void
print_ground(void)
{
	struct ground g = ground_detect();

	pr_notice("ground: %s%s%s%s - figures measure %s\n", g.name,
		  g.signature[0] ? " (cpuid '" : "", g.signature, g.signature[0] ? "')" : "",
		  g.what);
}

static void
parse_boot_info(u32 magic, u64 info_phys)
{
	if (magic != MB2_BOOT_MAGIC)
		panic("boot: not started by a multiboot2 loader (magic %#x)", magic);
	const char *err = mb2_parse(phys_to_virt(info_phys), info_phys, &boot_info);
	if (err)
		panic("boot: malformed multiboot2 information at %#lx: %s", info_phys, err);
	if (boot_info.efi_boot_services)
		pr_warn("boot: the loader left UEFI boot services running; rewind ignores them\n");
}

__noreturn void kernel_main(u32 magic, u64 info_phys, u64 entry_tsc);

__noreturn void
kernel_main(u32 magic, u64 info_phys, u64 entry_tsc)
{
	tsc_at_boot = entry_tsc;
	serial_init();
	tsc_calibrate();
	cpu_init_boot();
	pr_notice("rewind %s, build %s, booting (first line %lu us after the loader's hand-off)\n",
		  REWIND_VERSION, KERNEL_BUILD_NAME, ns_since_boot() / 1000);

	parse_boot_info(magic, info_phys);
	assemble_cmdline();
	pr_info("boot: loader '%s', %s, command line '%s'\n", boot_info.loader_name,
		boot_info.efi ? "UEFI" : "BIOS", cmdline);
	if (knobs_apply_cmdline(cmdline) && READ_ONCE(knob_strict)) {
		pr_err("knobs: a command-line word was refused and knob_strict is set: no program runs\n");
		machine_exit(false);
	}
	print_cpu();
	print_ground();

	mm_init();
#ifdef CONFIG_PARAVIRT
	paravirt_init(); /* before the other CPUs start: patching needs no stop_machine */
#endif
	vvar_init();
	acpi_init(boot_info.rsdp, boot_info.rsdp_revision);
	fbcon_init(&boot_info);
	uaccess_init_cpu();
	fpu_init_cpu();
	random_init();
	sched_init_cpu(static_stack_top(&boot_stack));
	syscall_init();
	vfs_init();
	procfs_init();
	mqueue_init();
	nsfs_init();
	initrd_load(&boot_info);
	initrd_load_fw_cfg();

	pic_disable();
	pit_stop_channel0();
	lapic_init();
	ioapic_init();
	tty_init();
	hpet_init();
	acpi_pm_init();
	kvmclock_init();
	kvm_steal_init();
	tsc_clocksource_init(); /* after the others: its rate is checked against them */
	timekeeping_init();
	lapic_timer_start();
	local_irq_enable();
	lockdebug_irqs_on_at_boot();
	smp_boot();
	profile_init(); /* after the APs: a buffer for each */
	vdso_init();
	vsyscall_init(); /* before the first process copies the kernel half */
	kbench_run();

	crashtest_run();
	if (boot_ktest_mode()) {
		int failed = ktest_run_all();
		/*
		 * With a program to run (the boot tests' user suites), it runs
		 * even after a failed self-test, so that one failure hides no
		 * other verdict; the power-off then ends QEMU with the failure
		 * status (kernel/sys_info.c).
		 */
		if (!init_has_run_command())
			machine_exit(failed == 0);
	}
	start_init_process();
	sched_idle_loop();
}
