/*
 * text.c - the text of the /proc files, in Linux's formats; see
 * text.h.
 *
 * Programs written for Linux parse these files (free, ps, top, scripts
 * reading /proc/self/status), so field names, order, padding and units
 * follow Linux 6.1 exactly where rewind has the figure. A figure rewind
 * does not have is left out, or shown as 0 where a fixed number of fields
 * must stay (the stat line), never invented. /proc/lockstat is rewind's
 * own.
 */
#include "fs/proc/text.h"
#include "kernel/lib/string.h"
#include "kernel/lib/vsprintf.h"
#include "mm/layout.h"
#include "uapi/param.h"
#include "kernel/sched/loadavg.h"
#include "uapi/errno.h"

void
procbuf_printf(struct procbuf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	b->len += (size_t)kvsnprintf(procbuf_end(b), procbuf_room(b), fmt, ap);
	va_end(ap);
}

/* ---- /proc/sys/rewind/<knob> --------------------------------------------- */

/* Appends what one of the registry's knob_format_* functions writes. */
static void
append_knob_text(struct procbuf *b, int (*format)(const struct knob *, char *, size_t),
		 const struct knob *k)
{
	b->len += (size_t)format(k, procbuf_end(b), procbuf_room(b));
}

void
procfs_format_knob(struct procbuf *b, const struct knob *k)
{
	static const char *const knob_type_names[] = {
		[KNOB_BOOL] = "bool",
		[KNOB_INT] = "int",
		[KNOB_ENUM] = "enum",
		[KNOB_STRING] = "text",
	};

	/* Text goes out as it is (no quotes), so that the first line is the value. */
	if (k->type == KNOB_STRING)
		procbuf_printf(b, "%s", k->str);
	else
		append_knob_text(b, knob_format_current, k);
	procbuf_printf(b, "\n# valid: ");
	append_knob_text(b, knob_format_valid, k);
	procbuf_printf(b, "\n# default: ");
	append_knob_text(b, knob_format_default, k);
	procbuf_printf(b, "\n# type: %s\n# declared in: %s\n", knob_type_names[k->type], k->file);
}

static bool
is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

char *
procfs_trim(char *s)
{
	size_t n;

	while (is_space(*s))
		s++;
	n = strlen(s);
	while (n && is_space(s[n - 1]))
		s[--n] = '\0';
	return s;
}

int
procfs_parse_decimal(const char *value, unsigned long *out)
{
	unsigned long n = 0;

	if (!*value)
		return -EINVAL;
	for (; *value; value++) {
		if (*value < '0' || *value > '9' || n > (~0ul - 9) / 10)
			return -EINVAL;
		n = n * 10 + (unsigned long)(*value - '0');
	}
	*out = n;
	return 0;
}

int
procfs_parse_int(const char *value, int *out)
{
	bool negative = *value == '-';
	unsigned long n;

	if (*value == '-' || *value == '+')
		value++;
	if (procfs_parse_decimal(value, &n) || n > (negative ? 1ul << 31 : (1ul << 31) - 1))
		return -EINVAL;
	*out = negative ? (int)-(long)n : (int)n;
	return 0;
}

/* ---- /proc/cpuinfo ------------------------------------------------------- */

/*
 * Linux's names for the feature bits (arch/x86/include/asm/cpufeatures.h);
 * bits Linux does not print have no name. These are the CPU's own CPUID
 * bits: Linux also prints flags it synthesizes (constant_tsc, nopl ...)
 * and hides features it turned off, which rewind does not.
 */
static const char *const cpu_flag_names[CPU_NWORDS][32] = {
	[CPU_WORD_1_EDX] = {
		"fpu", "vme", "de", "pse", "tsc", "msr", "pae", "mce",
		"cx8", "apic", NULL, "sep", "mtrr", "pge", "mca", "cmov",
		"pat", "pse36", "pn", "clflush", NULL, "dts", "acpi", "mmx",
		"fxsr", "sse", "sse2", "ss", "ht", "tm", "ia64", "pbe",
	},
	[CPU_WORD_X1_EDX] = {
		[11] = "syscall", [19] = "mp", [20] = "nx", [22] = "mmxext",
		[25] = "fxsr_opt", [26] = "pdpe1gb", [27] = "rdtscp", [29] = "lm",
		[30] = "3dnowext", [31] = "3dnow",
	},
	[CPU_WORD_1_ECX] = {
		"pni", "pclmulqdq", "dtes64", "monitor", "ds_cpl", "vmx", "smx", "est",
		"tm2", "ssse3", "cid", "sdbg", "fma", "cx16", "xtpr", "pdcm",
		NULL, "pcid", "dca", "sse4_1", "sse4_2", "x2apic", "movbe", "popcnt",
		"tsc_deadline_timer", "aes", "xsave", NULL /* osxsave */, "avx", "f16c",
		"rdrand", "hypervisor",
	},
	[CPU_WORD_X1_ECX] = {
		"lahf_lm", "cmp_legacy", "svm", "extapic", "cr8_legacy", "abm", "sse4a",
		"misalignsse", "3dnowprefetch", "osvw", "ibs", "xop", "skinit", "wdt",
		[15] = "lwp", [16] = "fma4", [17] = "tce", [19] = "nodeid_msr", [21] = "tbm",
		[22] = "topoext", [23] = "perfctr_core", [24] = "perfctr_nb", [26] = "bpext",
		[27] = "ptsc", [28] = "perfctr_llc", [29] = "mwaitx",
	},
	[CPU_WORD_7_EBX] = {
		"fsgsbase", "tsc_adjust", "sgx", "bmi1", "hle", "avx2", NULL, "smep",
		"bmi2", "erms", "invpcid", "rtm", "cqm", NULL, "mpx", "rdt_a",
		"avx512f", "avx512dq", "rdseed", "adx", "smap", "avx512ifma", NULL,
		"clflushopt", "clwb", "intel_pt", "avx512pf", "avx512er", "avx512cd",
		"sha_ni", "avx512bw", "avx512vl",
	},
};

void
procfs_format_cpu_flags(struct procbuf *b, const u32 words[CPU_NWORDS])
{
	for (int w = 0; w < CPU_NWORDS; w++)
		for (int bit = 0; bit < 32; bit++)
			if ((words[w] >> bit & 1) && cpu_flag_names[w][bit])
				procbuf_printf(b, " %s", cpu_flag_names[w][bit]);
}

/* Family and model with their extended fields folded in, as Linux's x86_family/x86_model. */
static unsigned
cpu_family(u32 sig)
{
	unsigned family = sig >> 8 & 0xf;

	return family == 0xf ? family + (sig >> 20 & 0xff) : family;
}

static unsigned
cpu_model(u32 sig)
{
	unsigned model = sig >> 4 & 0xf;

	return cpu_family(sig) >= 6 ? model + ((sig >> 16 & 0xf) << 4) : model;
}

/* The brand string without the leading blanks some Intel parts pad it with. */
static const char *
model_name(const struct cpu_identity *id)
{
	const char *s = id->model_name;

	while (*s == ' ')
		s++;
	return *s ? s : "unknown";
}

void
procfs_format_cpu(struct procbuf *b, const struct cpu_identity *id, unsigned processor, u32 apic_id,
		  u64 tsc_hz)
{
	u64 khz = tsc_hz / 1000;

	procbuf_printf(b,
		       "processor\t: %u\nvendor_id\t: %s\ncpu family\t: %u\nmodel\t\t: %u\n"
		       "model name\t: %s\nstepping\t: %u\n",
		       processor, id->vendor[0] ? id->vendor : "unknown", cpu_family(id->signature),
		       cpu_model(id->signature), model_name(id), id->signature & 0xf);
	if (khz)
		procbuf_printf(b, "cpu MHz\t\t: %lu.%03lu\n", khz / 1000, khz % 1000);
	procbuf_printf(b,
		       "apicid\t\t: %u\nfpu\t\t: yes\nfpu_exception\t: yes\n"
		       "cpuid level\t: %u\nwp\t\t: yes\nflags\t\t:",
		       apic_id, id->max_leaf);
	procfs_format_cpu_flags(b, id->words);
	procbuf_printf(b, "\nclflush size\t: %u\ncache_alignment\t: %u\n", id->clflush_size,
		       id->clflush_size);
	if (id->phys_bits)
		procbuf_printf(b, "address sizes\t: %u bits physical, %u bits virtual\n",
			       id->phys_bits, id->virt_bits);
	procbuf_printf(b, "power management:\n\n");
}

/* ---- /proc/meminfo and /proc/uptime --------------------------------------- */

static void
meminfo_line(struct procbuf *b, const char *name, u64 kb)
{
	procbuf_printf(b, "%-16s%8lu kB\n", name, kb);
}

/*
 * Linux's order, leaving out what rewind does not track (active/inactive
 * lists, dirty pages, kernel stacks ...). There is no swap: its lines say so.
 */
void
procfs_format_meminfo(struct procbuf *b, const struct procfs_meminfo *m)
{
	meminfo_line(b, "MemTotal:", m->total_kb);
	meminfo_line(b, "MemFree:", m->free_kb);
	meminfo_line(b, "MemAvailable:", m->available_kb);
	meminfo_line(b, "Buffers:", 0);
	meminfo_line(b, "Cached:", m->cached_kb);
	meminfo_line(b, "SwapCached:", 0);
	meminfo_line(b, "SwapTotal:", 0);
	meminfo_line(b, "SwapFree:", 0);
	meminfo_line(b, "Slab:", m->slab_kb);
	meminfo_line(b, "SReclaimable:", 0);
	meminfo_line(b, "SUnreclaim:", m->slab_kb);
	meminfo_line(b, "PageTables:", m->page_tables_kb);
}

/* Seconds with two decimals, truncated as Linux does. */
void
procfs_format_uptime(struct procbuf *b, u64 uptime_ns, u64 idle_ns)
{
	u64 cs = 1000000000 / 100;

	procbuf_printf(b, "%lu.%02lu %lu.%02lu\n", uptime_ns / 1000000000,
		       uptime_ns % 1000000000 / cs, idle_ns / 1000000000,
		       idle_ns % 1000000000 / cs);
}

/* ---- /proc/interrupts ------------------------------------------------------ */

/* The name column: three wide, as Linux's while there are fewer than 1000 numbered interrupts. */
#define IRQ_NAME_WIDTH 3

void
procfs_format_irq_header(struct procbuf *b, const unsigned *cpu_ids, unsigned n)
{
	procbuf_printf(b, "%*s", IRQ_NAME_WIDTH + 8, "");
	for (unsigned i = 0; i < n; i++)
		procbuf_printf(b, "CPU%-8u", cpu_ids[i]);
	procbuf_printf(b, "\n");
}

void
procfs_format_irq_row(struct procbuf *b, const char *name, const u32 *counts, unsigned n,
		      const char *what)
{
	procbuf_printf(b, "%*s: ", IRQ_NAME_WIDTH, name);
	for (unsigned i = 0; i < n; i++)
		procbuf_printf(b, "%10u ", counts[i]);
	procbuf_printf(b, "  %s\n", what);
}

void
procfs_format_irq_total(struct procbuf *b, const char *name, u32 count)
{
	procbuf_printf(b, "%*s: %10u\n", IRQ_NAME_WIDTH, name, count);
}

/* ---- /proc/stat and /proc/loadavg --------------------------------------- */

static u64
clock_ticks(u64 ns)
{
	return ns / (1000000000 / USER_HZ);
}

void
procfs_format_stat_cpu(struct procbuf *b, const char *name, u64 user_ns, u64 system_ns, u64 idle_ns,
		       u64 steal_ns)
{
	procbuf_printf(b, "%-4s %lu 0 %lu %lu 0 0 0 %lu 0 0\n", name, clock_ticks(user_ns),
		       clock_ticks(system_ns), clock_ticks(idle_ns), clock_ticks(steal_ns));
}

/*
 * Linux's "intr" line goes on with a count per interrupt number; rewind
 * counts per CPU only, so it has the total alone, which is what tools read.
 */
void
procfs_format_stat_counts(struct procbuf *b, const struct procfs_stat_counts *c)
{
	procbuf_printf(b,
		       "intr %lu\nctxt %lu\nbtime %lu\nprocesses %lu\nprocs_running %u\n"
		       "procs_blocked %u\n",
		       c->interrupts, c->switches, c->boot_time_s, c->forks, c->running,
		       c->blocked);
}

void
procfs_format_loadavg(struct procbuf *b, const u64 avg[3], unsigned running, unsigned tasks,
		      int last_pid)
{
	u64 r[3];

	for (int i = 0; i < 3; i++)
		r[i] = avg[i] + FIXED_1 / 200; /* rounds to the nearest hundredth */
	procbuf_printf(b, "%lu.%02lu %lu.%02lu %lu.%02lu %u/%u %d\n", LOAD_INT(r[0]),
		       LOAD_FRAC(r[0]), LOAD_INT(r[1]), LOAD_FRAC(r[1]), LOAD_INT(r[2]),
		       LOAD_FRAC(r[2]), running, tasks, last_pid);
}

/* ---- /proc/lockstat ------------------------------------------------------- */

#define LOCKSTAT_LINE "%-20s %12s %11s %16s %14s %12s %14s %12s\n"
#define LOCKSTAT_ROW  "%-20s %12lu %11lu %16lu %14lu %12lu %14lu %12lu\n"

void
procfs_format_lockstat(struct procbuf *b, const struct lockstat_row *rows, size_t n,
		       bool collecting)
{
	procbuf_printf(b,
		       "# lockstat=%d; counts since the last reset, most contended first; "
		       "times in ns; hold times of exclusive holds\n",
		       collecting);
	procbuf_printf(b, LOCKSTAT_LINE, "class", "acquisitions", "contentions", "read-contentions",
		       "wait-total", "wait-max", "hold-total", "hold-max");
	for (size_t i = 0; i < n; i++) {
		const struct lockstat_counters *c = &rows[i].c;
		procbuf_printf(b, LOCKSTAT_ROW, rows[i].name, c->acquisitions, c->contentions,
			       c->read_contentions, c->wait, c->wait_max, c->hold, c->hold_max);
	}
}

#define RWSEM_LINE "%-16s %14s %10s %12s %10s %10s\n"
#define RWSEM_ROW  "%-16s %14lu %10lu %12lu %10lu %10lu\n"

void
procfs_format_lockstat_rwsem(struct procbuf *b, const struct lockstat_rwsem *rows)
{
	procbuf_printf(b,
		       "\n# rwsem slow paths per rwsem_spin policy; spin time in ns, the osq "
		       "wait included\n");
	procbuf_printf(b, RWSEM_LINE, "rwsem_spin", "spin-time", "spin-won", "spin-failed",
		       "sleeps", "handoffs");
	for (unsigned p = 0; p < RWSEM_SPIN_POLICIES; p++) {
		const u64 *e = rows[p].ev;
		procbuf_printf(b, RWSEM_ROW, rwsem_policy_name(p), e[RWSEM_EV_SPIN],
			       e[RWSEM_EV_SPIN_WON], e[RWSEM_EV_SPIN_FAILED], e[RWSEM_EV_SLEEPS],
			       e[RWSEM_EV_HANDOFFS]);
	}
}

/* ---- /proc/<pid>/status and stat ----------------------------------------- */

static const char *
state_name(char state)
{
	switch (state) {
	case 'R':
		return "R (running)";
	case 'S':
		return "S (sleeping)";
	case 'T':
		return "T (stopped)";
	case 't':
		return "t (tracing stop)";
	default:
		return "Z (zombie)";
	}
}

static void
vm_line(struct procbuf *b, const char *name, u64 pages)
{
	procbuf_printf(b, "%s:\t%8lu kB\n", name, pages * (PAGE_SIZE / 1024));
}

/* Pages of program text, as Linux's task_statm and task_mem count them. */
static u64
text_pages(const struct vm_usage *u)
{
	return (ALIGN_UP(u->end_code, PAGE_SIZE) - ALIGN_DOWN(u->start_code, PAGE_SIZE)) >>
	       PAGE_SHIFT;
}

static u64
resident_pages(const struct vm_usage *u)
{
	return u->rss_anon + u->rss_file + u->rss_shmem;
}

static void
format_vm_lines(struct procbuf *b, const struct vm_usage *u)
{
	u64 text = MIN(text_pages(u), u->exec_pages);

	vm_line(b, "VmSize", u->total_pages);
	vm_line(b, "VmLck", u->locked_pages);
	vm_line(b, "VmRSS", resident_pages(u));
	vm_line(b, "RssAnon", u->rss_anon);
	vm_line(b, "RssFile", u->rss_file);
	vm_line(b, "RssShmem", u->rss_shmem);
	vm_line(b, "VmData", u->data_pages);
	vm_line(b, "VmStk", u->stack_pages);
	vm_line(b, "VmExe", text);
	vm_line(b, "VmLib", u->exec_pages - text);
	vm_line(b, "VmPTE", u->pgtable_pages);
	vm_line(b, "VmSwap", 0); /* there is no swap */
}

/* Real, effective, saved and file-system id. */
static void
id_line(struct procbuf *b, const char *name, const u32 ids[4])
{
	procbuf_printf(b, "%s:\t%u\t%u\t%u\t%u\n", name, ids[0], ids[1], ids[2], ids[3]);
}

void
procfs_format_status(struct procbuf *b, const struct procfs_task *t)
{
	procbuf_printf(b, "Name:\t%s\nState:\t%s\nTgid:\t%d\nPid:\t%d\nPPid:\t%d\nTracerPid:\t%d\n",
		       t->comm, state_name(t->state), t->tgid, t->pid, t->ppid, t->tracer_pid);
	id_line(b, "Uid", t->uids);
	id_line(b, "Gid", t->gids);
	procbuf_printf(b, "Groups:\t");
	for (int i = 0; i < t->ngroups; i++)
		procbuf_printf(b, i ? " %u" : "%u", t->groups[i]);
	procbuf_printf(b, " \n"); /* the trailing space is Linux's */
	if (t->has_mm)
		format_vm_lines(b, &t->vm);
	procbuf_printf(b,
		       "Threads:\t%d\nSigPnd:\t%016lx\nShdPnd:\t%016lx\nSigBlk:\t%016lx\n"
		       "SigIgn:\t%016lx\nSigCgt:\t%016lx\n",
		       t->threads, t->sig_pending, t->sig_shared, t->sig_blocked, t->sig_ignored,
		       t->sig_caught);
	procbuf_printf(b,
		       "CapInh:\t%016lx\nCapPrm:\t%016lx\nCapEff:\t%016lx\nCapBnd:\t%016lx\n"
		       "CapAmb:\t%016lx\n",
		       t->caps.inheritable, t->caps.permitted, t->caps.effective, t->caps.bounding,
		       t->caps.ambient);
}

/* Linux shows the old 31-signal masks in stat (fields 31-34). */
static u64
old_sigset(u64 set)
{
	return set & 0x7fffffff;
}

#define RLIM_INFINITY_TEXT "18446744073709551615" /* RLIMIT_RSS: never limited, as by default */

/*
 * All 52 fields of Linux 6.1's line (fs/proc/array.c, do_task_stat), in
 * its order. What rewind does not have is 0 as on Linux when the figure
 * is absent: flags, major faults, the I/O-delay fields, the
 * itimer, swap and guest times; the kernel stack and instruction pointers
 * (29, 30), which Linux shows only for a task that is dumping core.
 * Priority is Linux's prio - 100: 20 + nice for a normal task, -1 - its
 * RT priority for a FIFO or RR one. The address fields are
 * 0 for a kernel thread or a zombie.
 */
void
procfs_format_stat(struct procbuf *b, const struct procfs_task *t)
{
	const struct vm_usage *u = &t->vm;
	bool mm = t->has_mm;

	/* 1-13: pid comm state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt */
	procbuf_printf(b, "%d (%s) %c %d %d %d %d %d 0 %lu %lu 0 0 ", t->pid, t->comm, t->state,
		       t->ppid, t->pgrp, t->session, t->tty_nr, t->tpgid, t->minflt, t->cminflt);
	/* 14-25: utime stime cutime cstime priority nice threads itrealvalue starttime vsize rss rsslim */
	procbuf_printf(b, "%lu %lu %lu %lu %d %d %d 0 %lu %lu %lu " RLIM_INFINITY_TEXT " ",
		       clock_ticks(t->utime_ns), clock_ticks(t->stime_ns),
		       clock_ticks(t->cutime_ns), clock_ticks(t->cstime_ns),
		       t->rt_priority ? -1 - t->rt_priority : 20 + t->nice, t->nice, t->threads,
		       clock_ticks(t->start_ns), mm ? u->total_pages * PAGE_SIZE : 0,
		       mm ? resident_pages(u) : 0);
	/* 26-30: startcode endcode startstack kstkesp kstkeip */
	procbuf_printf(b, "%lu %lu %lu 0 0 ", mm ? u->start_code : 0, mm ? u->end_code : 0,
		       mm ? u->start_stack : 0);
	/* 31-39: signal blocked sigignore sigcatch wchan nswap cnswap exit_signal processor */
	procbuf_printf(b, "%lu %lu %lu %lu %d 0 0 %d %u ", old_sigset(t->sig_pending),
		       old_sigset(t->sig_blocked), old_sigset(t->sig_ignored),
		       old_sigset(t->sig_caught), t->state == 'S', t->exit_signal, t->cpu);
	/* 40-44: rt_priority policy delayacct_blkio_ticks guest_time cguest_time */
	procbuf_printf(b, "%d %d 0 0 0 ", t->rt_priority, t->policy);
	/* 45-52: start_data end_data start_brk arg_start arg_end env_start env_end exit_code */
	if (mm)
		procbuf_printf(b, "%lu %lu %lu %lu %lu %lu %lu ", u->start_data, u->end_data,
			       u->start_brk, u->arg_start, u->arg_end, u->env_start, u->env_end);
	else
		procbuf_printf(b, "0 0 0 0 0 0 0 ");
	procbuf_printf(b, "%d\n", t->exit_code);
}

#define SCHED_LINE "%-45s:%21ld\n" /* Linux's SEQ_printf layout of an integer */

void
procfs_format_sched(struct procbuf *b, const struct procfs_task *t)
{
	s64 ns = t->vruntime, ms = ns / 1000000, rem = ns % 1000000;

	procbuf_printf(b, "%s (%d, #threads: %d)\n", t->comm, t->pid, t->threads);
	procbuf_printf(b, "-------------------------------------------------------------------\n");
	procbuf_printf(b, "%-45s:%14ld.%06ld\n", "se.vruntime", ms, rem < 0 ? -rem : rem);
	procbuf_printf(b, SCHED_LINE, "se.load.weight", (long)t->weight << 10);
	procbuf_printf(b, SCHED_LINE, "policy", (long)t->policy);
	procbuf_printf(b, SCHED_LINE, "prio",
		       (long)(t->rt_priority ? 99 - t->rt_priority : 120 + t->nice));
}

/* Linux's task_statm: shared is the file and shmem pages, data the data and stack areas. */
void
procfs_format_statm(struct procbuf *b, const struct procfs_task *t)
{
	const struct vm_usage *u = &t->vm;

	if (!t->has_mm) {
		procbuf_printf(b, "0 0 0 0 0 0 0\n");
		return;
	}
	procbuf_printf(b, "%lu %lu %lu %lu 0 %lu 0\n", u->total_pages, resident_pages(u),
		       u->rss_file + u->rss_shmem, text_pages(u), u->data_pages + u->stack_pages);
}
