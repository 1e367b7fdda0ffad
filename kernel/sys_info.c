/*
 * sys_info.c - small system calls about the system itself: uname, reboot,
 * sysinfo, and arch_prctl (the TLS base, the CPUID mode); resource limits are
 * kernel/process/rlimit.c's.
 */
#include "uapi/errno.h"
#include "kernel/sys_info.h"
#include "kernel/ktest.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/lib/string.h"
#include "kernel/syscall/syscall.h"
#include "kernel/process/cred.h"
#include "kernel/process/process.h"
#include "kernel/process/task.h"
#include "kernel/process/uts_namespace.h"
#include "kernel/sched/loadavg.h"
#include "kernel/time/tsc.h"
#include "kernel/x86/x86.h"
#include "drivers/acpi.h"
#include "drivers/qemu_exit.h"
#include "mm/page_alloc.h"
#include "uapi/prctl.h"
#include "uapi/reboot.h"
#include "uapi/sysinfo.h"
#include "uapi/utsname.h"
#include "version.h"

static void
copy_field(char *dst, const char *src, size_t size)
{
	size_t n = strnlen(src, size - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

void
uname_fill(struct kernel_utsname *u)
{
	memset(u, 0, sizeof(*u));
	copy_field(u->sysname, "rewind", __NEW_UTS_LEN + 1);
	copy_field(u->release, LINUX_ABI_RELEASE, __NEW_UTS_LEN + 1);
	copy_field(u->version, "#1 SMP " REWIND_VERSION " " KERNEL_BUILD_NAME, __NEW_UTS_LEN + 1);
	copy_field(u->machine, "x86_64", __NEW_UTS_LEN + 1);
	uts_read_names(u); /* the caller's UTS namespace's */
}

SYSCALL1(uname, struct kernel_utsname __user *, ubuf)
{
	struct kernel_utsname u;

	uname_fill(&u);
	return copy_to_user(ubuf, &u, sizeof(u)) ? -EFAULT : 0;
}

static __noreturn void
restart_machine(void)
{
	acpi_reset();
	outb(0x64, 0xfe); /* pulse the reset line through the keyboard controller */
	struct {
		u16 limit;
		u64 base;
	} __packed no_idt = { 0, 0 };
	__asm__ __volatile__("lidt %0; int3" : : "m"(no_idt)); /* else: triple fault */
	for (;;)
		;
}

/* Only root (CAP_SYS_BOOT) reboots, even with wrong magic numbers: Linux asks that first. */
SYSCALL4(reboot, unsigned, magic1, unsigned, magic2, unsigned, cmd, void __user *, arg)
{
	if (!capable(CAP_SYS_BOOT))
		return -EPERM;
	if (magic1 != LINUX_REBOOT_MAGIC1 ||
	    (magic2 != LINUX_REBOOT_MAGIC2 && magic2 != LINUX_REBOOT_MAGIC2A &&
	     magic2 != LINUX_REBOOT_MAGIC2B && magic2 != LINUX_REBOOT_MAGIC2C))
		return -EINVAL;
	switch (cmd) {
	case LINUX_REBOOT_CMD_POWER_OFF:
	case LINUX_REBOOT_CMD_HALT:
		pr_notice("reboot: power down (requested by pid %d, %s)\n", current()->pid,
			  current()->comm);
		machine_exit(ktest_failed_count() == 0); /* a failed self-test stays a failure */
	case LINUX_REBOOT_CMD_RESTART:
		pr_notice("reboot: restarting (requested by pid %d)\n", current()->pid);
		restart_machine();
	case LINUX_REBOOT_CMD_CAD_ON:
	case LINUX_REBOOT_CMD_CAD_OFF:
		return 0;
	default:
		return -EINVAL;
	}
}

SYSCALL1(sysinfo, struct kernel_sysinfo __user *, uinfo)
{
	struct kernel_sysinfo si;
	struct page_alloc_stats st;

	memset(&si, 0, sizeof(si));
	page_alloc_get_stats(&st);
	si.uptime = (s64)(ns_since_boot() / 1000000000);
	u64 avg[3];
	loadavg_get(avg);
	for (int i = 0; i < 3; i++)
		si.loads[i] = avg[i]
			      << (SI_LOAD_SHIFT - FSHIFT); /* /proc/loadavg's, finer grained */
	si.totalram = st.total_pages * PAGE_SIZE;
	si.freeram = st.free_pages * PAGE_SIZE;
	si.mem_unit = 1;
	si.procs = (u16)task_count();
	return copy_to_user(uinfo, &si, sizeof(si)) ? -EFAULT : 0;
}

SYSCALL2(arch_prctl, int, code, u64, addr)
{
	struct task *t = current();

	switch (code) {
	case ARCH_SET_FS:
		if (!fs_base_allowed(addr))
			return -EPERM;
		t->fs_base = addr;
		wrmsr(MSR_FS_BASE, addr);
		return 0;
	case ARCH_GET_FS:
		return copy_to_user((void __user *)addr, &t->fs_base, sizeof(u64)) ? -EFAULT : 0;
	case ARCH_SET_GS:
	case ARCH_GET_GS:
		return -EINVAL; /* the kernel owns GS (per-CPU data); user GS bases are not supported */
	case ARCH_GET_CPUID:
		return 1; /* CPUID always works: rewind never turns on CPUID faulting */
	case ARCH_SET_CPUID:
		return -ENODEV; /* as Linux on a CPU without the cpuid_fault feature */
	default:
		return -EINVAL;
	}
}
