/*
 * sys_info.c - small system calls about the system itself: uname, reboot,
 * sysinfo, resource limits, and arch_prctl (the TLS base).
 */
#include "kernel/errno.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/lib/string.h"
#include "kernel/syscall/syscall.h"
#include "kernel/process/task.h"
#include "kernel/time/tsc.h"
#include "kernel/x86/x86.h"
#include "drivers/acpi.h"
#include "drivers/qemu_exit.h"
#include "mm/page_alloc.h"
#include "version.h"

#define UTS_LEN 65

static void
copy_field(char *dst, const char *src, size_t size)
{
	size_t n = strnlen(src, size - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

struct utsname_abi {
	char sysname[UTS_LEN], nodename[UTS_LEN], release[UTS_LEN];
	char version[UTS_LEN], machine[UTS_LEN], domainname[UTS_LEN];
};

SYSCALL1(uname, struct utsname_abi __user *, ubuf)
{
	struct utsname_abi u;

	memset(&u, 0, sizeof(u));
	copy_field(u.sysname, "rewind", UTS_LEN);
	copy_field(u.nodename, "rewind", UTS_LEN);
	copy_field(u.release, REWIND_VERSION, UTS_LEN);
	copy_field(u.version, "#1 SMP", UTS_LEN);
	copy_field(u.machine, "x86_64", UTS_LEN);
	copy_field(u.domainname, "(none)", UTS_LEN);
	return copy_to_user(ubuf, &u, sizeof(u)) ? -EFAULT : 0;
}

#define REBOOT_MAGIC1		0xfee1dead
#define REBOOT_MAGIC2		672274793
#define REBOOT_MAGIC2A		85072278
#define REBOOT_MAGIC2B		369367448
#define REBOOT_MAGIC2C		537993216
#define REBOOT_CMD_RESTART	0x01234567
#define REBOOT_CMD_HALT		0xcdef0123
#define REBOOT_CMD_POWER_OFF	0x4321fedc
#define REBOOT_CMD_CAD_ON	0x89abcdef
#define REBOOT_CMD_CAD_OFF	0x00000000

static __noreturn void
restart_machine(void)
{
	acpi_reset();
	outb(0x64, 0xfe);	/* pulse the reset line through the keyboard controller */
	struct { u16 limit; u64 base; } __packed no_idt = { 0, 0 };
	__asm__ __volatile__("lidt %0; int3" :: "m"(no_idt));	/* else: triple fault */
	for (;;)
		;
}

SYSCALL4(reboot, unsigned, magic1, unsigned, magic2, unsigned, cmd, void __user *, arg)
{
	if (magic1 != REBOOT_MAGIC1 || (magic2 != REBOOT_MAGIC2 && magic2 != REBOOT_MAGIC2A &&
					 magic2 != REBOOT_MAGIC2B && magic2 != REBOOT_MAGIC2C))
		return -EINVAL;
	switch (cmd) {
	case REBOOT_CMD_POWER_OFF:
	case REBOOT_CMD_HALT:
		pr_notice("reboot: power down (requested by pid %d, %s)\n", current()->pid, current()->comm);
		machine_exit(true);
	case REBOOT_CMD_RESTART:
		pr_notice("reboot: restarting (requested by pid %d)\n", current()->pid);
		restart_machine();
	case REBOOT_CMD_CAD_ON:
	case REBOOT_CMD_CAD_OFF:
		return 0;
	default:
		return -EINVAL;
	}
}

struct sysinfo_abi {
	s64 uptime;
	u64 loads[3];
	u64 totalram, freeram, sharedram, bufferram, totalswap, freeswap;
	u16 procs, pad;
	u64 totalhigh, freehigh;
	u32 mem_unit;
	char reserved[4];
};

SYSCALL1(sysinfo, struct sysinfo_abi __user *, uinfo)
{
	struct sysinfo_abi si;
	struct page_alloc_stats st;

	memset(&si, 0, sizeof(si));
	page_alloc_get_stats(&st);
	si.uptime = (s64)(ns_since_boot() / 1000000000);
	si.totalram = st.total_pages * PAGE_SIZE;
	si.freeram = st.free_pages * PAGE_SIZE;
	si.mem_unit = 1;
	u64 flags = spin_lock_irqsave(&tasks_lock);
	struct list_head *pos;
	list_for_each(pos, &all_tasks)
		si.procs++;
	spin_unlock_irqrestore(&tasks_lock, flags);
	return copy_to_user(uinfo, &si, sizeof(si)) ? -EFAULT : 0;
}

/* Resource limits: reported as Linux's defaults; setting them is accepted and has no effect yet. */
#define RLIMIT_STACK	3
#define RLIMIT_NOFILE	7
#define RLIM_NLIMITS	16
#define RLIM_INFINITY	(~0ul)

struct rlimit_abi {
	u64 cur, max;
};

static struct rlimit_abi
default_limit(unsigned resource)
{
	if (resource == RLIMIT_STACK)
		return (struct rlimit_abi){ 8ul << 20, RLIM_INFINITY };
	if (resource == RLIMIT_NOFILE)
		return (struct rlimit_abi){ 1024, 4096 };
	return (struct rlimit_abi){ RLIM_INFINITY, RLIM_INFINITY };
}

SYSCALL4(prlimit64, int, pid, unsigned, resource, const struct rlimit_abi __user *, unew,
	 struct rlimit_abi __user *, uold)
{
	struct rlimit_abi lim = default_limit(resource);

	if (resource >= RLIM_NLIMITS)
		return -EINVAL;
	if (pid != 0 && pid != current()->tgid)
		return -ESRCH;
	if (unew) {
		struct rlimit_abi n;
		if (copy_from_user(&n, unew, sizeof(n)))
			return -EFAULT;
		if (n.cur > n.max)
			return -EINVAL;
	}
	return uold && copy_to_user(uold, &lim, sizeof(lim)) ? -EFAULT : 0;
}

SYSCALL2(getrlimit, unsigned, resource, struct rlimit_abi __user *, uold)
{
	struct rlimit_abi lim = default_limit(resource);

	if (resource >= RLIM_NLIMITS)
		return -EINVAL;
	return copy_to_user(uold, &lim, sizeof(lim)) ? -EFAULT : 0;
}

#define ARCH_SET_GS	0x1001
#define ARCH_SET_FS	0x1002
#define ARCH_GET_FS	0x1003
#define ARCH_GET_GS	0x1004

SYSCALL2(arch_prctl, int, code, u64, addr)
{
	struct task *t = current();

	switch (code) {
	case ARCH_SET_FS:
		if (addr >= USER_TOP)
			return -EPERM;
		t->fs_base = addr;
		wrmsr(MSR_FS_BASE, addr);
		return 0;
	case ARCH_GET_FS:
		return copy_to_user((void __user *)addr, &t->fs_base, sizeof(u64)) ? -EFAULT : 0;
	case ARCH_SET_GS:
	case ARCH_GET_GS:
		return -EINVAL;	/* the kernel owns GS (per-CPU data); user GS bases are not supported */
	default:
		return -EINVAL;
	}
}
