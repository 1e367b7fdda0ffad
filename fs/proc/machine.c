/*
 * machine.c - the machine-wide files: /proc/cmdline, cpuinfo, locks, lockstat,
 * interrupts, kmemdebug_sites, loadavg, meminfo, mounts, objects, page_sites, profile,
 * stat, syscalls, uptime and version.
 * Each gathers its figures here and leaves the layout to text.c.
 */
#include "fs/proc/internal.h"
#include "mm/hugetlb.h"
#include "fs/mnt_namespace.h"
#include "kernel/boot.h"
#include "kernel/process/process.h"
#include "kernel/sched/loadavg.h"
#include "kernel/sched/sched.h"
#include "kernel/time/timekeeping.h"
#include "kernel/objcount.h"
#include "kernel/sys_info.h"
#include "kernel/syscall/syscall.h"
#include "kernel/time/cputime.h"
#include "uapi/errno.h"
#include "kernel/x86/irq.h"
#include "kernel/x86/percpu.h"
#include "kernel/x86/traps.h" /* VEC_NMI */
#include "kernel/lib/string.h"
#include "kernel/lib/vsprintf.h"
#include "kernel/time/tsc.h"
#include "kernel/x86/x86.h"
#include "locking/lockstat.h"
#include "kernel/profile.h"
#include "kernel/ksyms.h"
#include "mm/kmalloc.h"
#include "mm/page_alloc.h"
#include "mm/vmap.h"

int
proc_show_cmdline(struct procbuf *b, union proc_arg arg)
{
	procbuf_printf(b, "%s\n", boot_cmdline());
	return 0;
}

/*
 * The CPUID of the CPU this runs on stands for every CPU: rewind assumes
 * identical processors, as QEMU gives. Linux records each CPU's at its
 * bring-up instead, which is the way to go once a machine may mix them.
 */
static void
read_cpu_identity(struct cpu_identity *id)
{
	struct cpuid_regs r = cpuid(0, 0);
	u32 max_ext;

	memset(id, 0, sizeof(*id));
	id->max_leaf = r.eax;
	memcpy(id->vendor, &r.ebx, 4);
	memcpy(id->vendor + 4, &r.edx, 4);
	memcpy(id->vendor + 8, &r.ecx, 4);
	r = cpuid(1, 0);
	id->signature = r.eax;
	id->clflush_size = (r.ebx >> 8 & 0xff) * 8;
	id->words[CPU_WORD_1_EDX] = r.edx;
	id->words[CPU_WORD_1_ECX] = r.ecx;
	if (id->max_leaf >= 7)
		id->words[CPU_WORD_7_EBX] = cpuid(7, 0).ebx;
	max_ext = cpuid(0x80000000, 0).eax;
	if (max_ext >= 0x80000001) {
		r = cpuid(0x80000001, 0);
		id->words[CPU_WORD_X1_EDX] = r.edx;
		id->words[CPU_WORD_X1_ECX] = r.ecx;
	}
	/* The brand string: 16 bytes per leaf, in EAX, EBX, ECX, EDX order (struct cpuid_regs). */
	for (u32 i = 0; i < 3 && max_ext >= 0x80000004; i++) {
		r = cpuid(0x80000002 + i, 0);
		memcpy(id->model_name + 16 * i, &r, 16);
	}
	if (max_ext >= 0x80000008) {
		r = cpuid(0x80000008, 0);
		id->phys_bits = r.eax & 0xff;
		id->virt_bits = r.eax >> 8 & 0xff;
	}
}

int
proc_show_cpuinfo(struct procbuf *b, union proc_arg arg)
{
	struct cpu_identity id;

	read_cpu_identity(&id);
	for (unsigned i = 0; i < READ_ONCE(ncpus); i++) {
		struct cpu *c = cpus[i];
		if (c && READ_ONCE(c->online))
			procfs_format_cpu(b, &id, c->id, c->apic_id, tsc_hz);
	}
	return 0;
}

int
proc_show_lockstat(struct procbuf *b, union proc_arg arg)
{
	struct lockstat_row *rows = kmalloc(LOCKSTAT_ROWS * sizeof(*rows));

	if (!rows)
		return -ENOMEM;
	procfs_format_lockstat(b, rows, lockstat_snapshot(rows), lockstat_on());
	kfree(rows);
	struct lockstat_rwsem policies[RWSEM_SPIN_POLICIES];
	lockstat_rwsem_snapshot(policies);
	procfs_format_lockstat_rwsem(b, policies);
	return 0;
}

/* "0" or "reset" starts the counts again. */
int
proc_write_lockstat(const char *value, union proc_arg arg)
{
	if (strcmp(value, "0") != 0 && strcmp(value, "reset") != 0)
		return -EINVAL;
	lockstat_reset();
	return 0;
}

/* The sampling profiler's samples (kernel/profile.c). */
int
proc_show_profile(struct procbuf *b, union proc_arg arg)
{
	return profile_show(b);
}

/* "0" or "reset" forgets the samples taken so far. */
int
proc_write_profile(const char *value, union proc_arg arg)
{
	if (strcmp(value, "0") != 0 && strcmp(value, "reset") != 0)
		return -EINVAL;
	profile_reset();
	return 0;
}

/*
 * Cached should count the page cache's pages, but no counter spans all
 * files yet (each inode knows only its own): it shows 0 until one exists,
 * rather than a guess. MemAvailable is MemFree because nothing can be
 * reclaimed: ramfs's page cache is the only copy of its files, and
 * kmalloc's slabs never shrink.
 */
int
proc_show_meminfo(struct procbuf *b, union proc_arg arg)
{
	struct page_alloc_stats pages;
	struct kmalloc_class_stats classes[KMALLOC_NCLASSES];
	u64 kb = PAGE_SIZE / 1024, slab_pages = 0;
	u64 page_tables = __atomic_load_n(&user_page_table_pages, __ATOMIC_RELAXED);

	page_alloc_get_stats(&pages);
	kmalloc_get_stats(classes);
	for (int i = 0; i < KMALLOC_NCLASSES; i++)
		slab_pages += classes[i].slabs;
	procfs_format_meminfo(b, &(struct procfs_meminfo){
					 .total_kb = pages.total_pages * kb,
					 .free_kb = pages.free_pages * kb,
					 .available_kb = pages.free_pages * kb,
					 .cached_kb = 0,
					 .slab_kb = slab_pages * kb,
					 .page_tables_kb = page_tables * kb,
				 });
	hugetlb_format_meminfo(b);
	return 0;
}

/* Puts one line that fs/ formatted (a mount, a lock) into the file. */
static void
emit_line(void *b, const char *line)
{
	procbuf_printf(b, "%s", line);
}

/*
 * The mounts file of the reader's mount namespace (/proc/<pid>/mounts: the
 * process's, proc_show_pid_mounts), in Linux's format, "device mount-point type options 0 0" (fs/mount.c). The
 * names and options are what Linux 6.1 shows for the same file systems on
 * an initramfs: the root is "rootfs", a tmpfs of half of RAM.
 */
int
proc_show_mounts(struct procbuf *b, union proc_arg arg)
{
	mounts_show(current_mnt_ns(), emit_line, b);
	return 0;
}

int
proc_show_pid_mounts(struct procbuf *b, union proc_arg arg)
{
	struct mnt_namespace *ns = mnt_ns_of_process(arg.pid);

	if (!ns)
		return -ENOENT;
	mounts_show(ns, emit_line, b);
	mnt_ns_put(ns);
	return 0;
}

/* Every file lock, POSIX, OFD and flock, in Linux's format (fs/locks.c). */
int
proc_show_locks(struct procbuf *b, union proc_arg arg)
{
	locks_show(emit_line, b);
	return 0;
}

/*
 * Idle time is what the CPUs' idle tasks were charged (kernel/time/cputime.c),
 * summed over the CPUs as Linux does, so with several CPUs it may exceed
 * the uptime. An idle task running right now on another CPU has its
 * current stretch counted only when it switches out.
 */
int
proc_show_uptime(struct procbuf *b, union proc_arg arg)
{
	u64 idle_ns = 0;

	for (unsigned i = 0; i < READ_ONCE(ncpus); i++) {
		struct cpu *c = cpus[i];
		if (c && c->idle)
			idle_ns += cputime_ns(cputime_read(c->idle).sys);
	}
	procfs_format_uptime(b, ns_since_boot(), idle_ns);
	return 0;
}

/*
 * The per-CPU interrupt counts of the vectors rewind has, as Linux's x86
 * rows name them (LOC, the local timer, shows a stopped tick: an idle CPU's
 * count stands still, kernel/time/tick.c), then the APIC error total and
 * the mis-routed count Linux keeps for its IO-APIC, which rewind never sees
 * (0). Linux's numbered rows of device interrupts and its rows for events
 * rewind does not take (PMI, thermal, machine-check polls) are left out.
 */
int
proc_show_interrupts(struct procbuf *b, union proc_arg arg)
{
	static const struct {
		const char *name;
		unsigned vector;
		const char *what;
	} rows[] = {
		{ "NMI", VEC_NMI, "Non-maskable interrupts" },
		{ "LOC", VEC_LAPIC_TIMER, "Local timer interrupts" },
		{ "SPU", VEC_SPURIOUS, "Spurious interrupts" },
		{ "RES", VEC_IPI_RESCHEDULE, "Rescheduling interrupts" },
		{ "CAL", VEC_IPI_CALL, "Function call interrupts" },
	};
	unsigned ids[MAX_CPUS], n = 0;
	u32 counts[MAX_CPUS];

	for (unsigned i = 0; i < READ_ONCE(ncpus); i++)
		if (cpus[i] && READ_ONCE(cpus[i]->online))
			ids[n++] = i;
	procfs_format_irq_header(b, ids, n);
	for (unsigned r = 0; r < ARRAY_SIZE(rows); r++) {
		for (unsigned k = 0; k < n; k++)
			counts[k] = irq_count_on(ids[k], rows[r].vector);
		procfs_format_irq_row(b, rows[r].name, counts, n, rows[r].what);
	}
	procfs_format_irq_total(b, "ERR", (u32)irq_count(VEC_LAPIC_ERROR));
	procfs_format_irq_total(b, "MIS", 0);
	return 0;
}

/* Linux's one line naming the kernel: uname's system, release and build. */
int
proc_show_version(struct procbuf *b, union proc_arg arg)
{
	struct kernel_utsname u;

	uname_fill(&u);
	procbuf_printf(b, "%s version %s (rewind) %s\n", u.sysname, u.release, u.version);
	return 0;
}

/*
 * The CPUs' times by the tick, the sum first; then interrupts, context
 * switches, the boot time, forks and the run queues. procs_blocked counts
 * tasks waiting for a device in Linux's uninterruptible sleep; rewind's
 * sleeps are all interruptible and no file system waits for a device: 0.
 */
int
proc_show_stat(struct procbuf *b, union proc_arg arg)
{
	struct cpu_usage sum = { 0 };
	struct procfs_stat_counts counts = { 0 };
	struct task_census census;

	for (unsigned i = 0; i < READ_ONCE(ncpus); i++) {
		struct cpu_usage u = cputime_cpu_usage(i);
		sum.user += u.user;
		sum.system += u.system;
		sum.idle += u.idle;
		sum.steal += u.steal;
	}
	procfs_format_stat_cpu(b, "cpu", sum.user, sum.system, sum.idle, sum.steal);
	for (unsigned i = 0; i < READ_ONCE(ncpus); i++) {
		struct cpu *c = cpus[i];
		if (!c || !READ_ONCE(c->online))
			continue;
		char name[16];
		struct cpu_usage u = cputime_cpu_usage(i);
		ksnprintf(name, sizeof(name), "cpu%u", c->id);
		procfs_format_stat_cpu(b, name, u.user, u.system, u.idle, u.steal);
		counts.interrupts += READ_ONCE(c->irqs);
	}
	task_census(&census);
	counts.switches = sched_nr_switches();
	counts.boot_time_s = (u64)timekeeping_realtime_offset_ns() / 1000000000;
	counts.forks = census.forks;
	counts.running = sched_nr_running();
	procfs_format_stat_counts(b, &counts);
	return 0;
}

/* The averages, tasks running / all tasks, and the last pid given out. */
int
proc_show_loadavg(struct procbuf *b, union proc_arg arg)
{
	u64 avg[3];
	struct task_census census;

	loadavg_get(avg);
	task_census(&census);
	procfs_format_loadavg(b, avg, sched_nr_running(), census.tasks, census.last_pid);
	return 0;
}

/*
 * rewind's own (Linux has no such file): every implemented system call, one
 * per line, "NR<tab>NAME<tab>TYPE NAME<tab>..." with each argument's C type
 * and name as its definition spells them - what a fuzzer or a tracer on the
 * user side needs to make or read typed arguments.
 */
int
proc_show_syscalls(struct procbuf *b, union proc_arg arg)
{
	for (u64 nr = 0; nr < NR_SYSCALLS; nr++) {
		const struct syscall_entry *e = syscall_lookup(nr);
		if (!e)
			continue;
		procbuf_printf(b, "%u\t%s", e->nr, e->name);
		for (unsigned i = 0; i < e->nargs; i++)
			procbuf_printf(b, "\t%s %s", e->args[i].type, e->args[i].name);
		procbuf_printf(b, "\n");
	}
	return 0;
}

/*
 * rewind's own: what the kernel holds right now, one "name count" a line -
 * pages in use (less what is kept by design: the kernel's page tables,
 * objcount.h, the slab pages kmalloc keeps for its next objects, which
 * the kmalloc line counts one object at a time, kmemdebug's quarantine
 * of freed large blocks, the freed kernel stacks mm/vmap.c keeps or has
 * yet to flush, and frames taken out of use by memory-error injection),
 * kmalloc objects in use,
 * the objects of objcount.h, and the reports kmemdebug made (mm/kmemdebug.c) -
 * for the leak check (user/bin/leakcheck.c), which compares two readings:
 * a report while the programs ran is a failure like a leak.
 */
int
proc_show_objects(struct procbuf *b, union proc_arg arg)
{
	struct page_alloc_stats pages;
	struct kmalloc_class_stats classes[KMALLOC_NCLASSES];
	u64 objects = 0, slab_pages = 0;

	page_alloc_get_stats(&pages);
	kmalloc_get_stats(classes);
	for (int i = 0; i < KMALLOC_NCLASSES; i++) {
		objects += classes[i].objects_in_use;
		slab_pages += classes[i].slabs;
	}
	u64 used = pages.total_pages - pages.free_pages;
	u64 kept = slab_pages + __atomic_load_n(&kernel_page_table_pages, __ATOMIC_RELAXED) +
		   kmemdebug_quarantined_pages() + kstack_kept_pages() + memory_failure_pages();
	procbuf_printf(b, "pages %lu\nkmalloc %lu\n", used - kept, objects);
	for (int k = 0; k < NR_OBJ_KINDS; k++)
		procbuf_printf(b, "%s %lu\n", objcount_names[k],
			       __atomic_load_n(&objcount[k], __ATOMIC_RELAXED));
	procbuf_printf(b, "kmemdebug %lu\n", kmemdebug_report_count());
	return 0;
}

#define KMEMDEBUG_SITE_SLOTS 4096

/* One "site count" line per site that counter found, in no order; "unrecorded N" last if the table overflowed. */
static int
show_sites(struct procbuf *b, u64 (*counter)(struct kmemdebug_site *, size_t))
{
	struct kmemdebug_site *table = kzalloc(KMEMDEBUG_SITE_SLOTS * sizeof(*table));
	char name[96];

	if (!table)
		return -ENOMEM;
	u64 unrecorded = counter(table, KMEMDEBUG_SITE_SLOTS);
	for (size_t i = 0; i < KMEMDEBUG_SITE_SLOTS; i++) {
		if (!table[i].site)
			continue;
		ksym_format(table[i].site, name, sizeof(name));
		procbuf_printf(b, "%s %lu\n", name, table[i].live);
	}
	if (unrecorded)
		procbuf_printf(b, "unrecorded %lu\n", unrecorded);
	kfree(table);
	return 0;
}

/*
 * rewind's own, root's alone (it names kernel addresses): the live kmalloc
 * objects made while kmemdebug was on, by the function (and offset) that
 * allocated them. leakcheck reads it before and after its programs, and
 * on a kmalloc leak names the sites that grew.
 */
int
proc_show_kmemdebug_sites(struct procbuf *b, union proc_arg arg)
{
	return show_sites(b, kmemdebug_count_live);
}

/*
 * The same for pages: the page allocator's blocks in use that are not
 * kmalloc's, in pages, by the function that asked for them (recorded
 * whether kmemdebug is on or not), for leakcheck to name a page leak's
 * maker. It also counts what /proc/objects' page line leaves out as kept
 * by design (stacks kept for reuse, the kernel half's page tables).
 */
int
proc_show_page_sites(struct procbuf *b, union proc_arg arg)
{
	return show_sites(b, kmemdebug_count_pages);
}
