/*
 * text.h - the text of the /proc files, in Linux's formats.
 *
 * Everything here is pure formatting from figures the caller gathered
 * (CPUID words, page counts, a snapshot of a task), so that the host unit
 * tests compile it unchanged and check the formats byte for byte. Where
 * the figures come from, and the file system around them, is in
 * the other files of fs/proc/.
 */
#ifndef REWIND_PROCFS_TEXT_H
#define REWIND_PROCFS_TEXT_H

#include "kernel/knobs.h"
#include "kernel/process/task.h"
#include "kernel/lib/types.h"
#include "locking/lockstat.h"
#include "mm/vm_usage.h"

/*
 * A bounded text buffer that remembers how long the text wanted to be:
 * formatting goes on counting past the end, so the caller learns the size
 * to allocate and generates again (as Linux's seq_file does on overflow).
 */
struct procbuf {
	char *p;
	size_t size; /* bytes at p */
	size_t len;  /* length of the text; past size when it did not fit */
};

void procbuf_printf(struct procbuf *b, const char *fmt, ...) __printf(2, 3);

/* Whether all the text, and the NUL the formatter writes after it, fit. */
static inline bool
procbuf_fits(const struct procbuf *b)
{
	return b->len < b->size;
}

/* Where the next text goes, and how much room is left there. */
static inline char *
procbuf_end(const struct procbuf *b)
{
	return b->p + MIN(b->len, b->size);
}

static inline size_t
procbuf_room(const struct procbuf *b)
{
	return b->size - MIN(b->len, b->size);
}

/* ---- /proc/sys/rewind/<knob> --------------------------------------------- */

/*
 * The current value alone on the first line (so that `cat` gives it to a
 * script), then "# valid: ..." and "# default: ..." lines.
 */
void procfs_format_knob(struct procbuf *b, const struct knob *k);
/* The value in a write: s without leading and trailing blanks (s is changed). */
char *procfs_trim(char *s);
/* A decimal number, all of value: 0 or -EINVAL. */
int procfs_parse_decimal(const char *value, unsigned long *out);
/* The same with an optional sign, within an int's range (Linux's kstrtoint). */
int procfs_parse_int(const char *value, int *out);

/* ---- /proc/cpuinfo ------------------------------------------------------- */

/* The CPUID feature words /proc/cpuinfo decodes, in the order Linux prints them. */
enum cpu_flag_word {
	CPU_WORD_1_EDX,	 /* CPUID 1, EDX (Linux's word 0) */
	CPU_WORD_X1_EDX, /* CPUID 0x80000001, EDX (word 1) */
	CPU_WORD_1_ECX,	 /* CPUID 1, ECX (word 4) */
	CPU_WORD_X1_ECX, /* CPUID 0x80000001, ECX (word 6) */
	CPU_WORD_7_EBX,	 /* CPUID 7.0, EBX (word 9) */
	CPU_NWORDS
};

/* What CPUID says about a processor; 0 (or "") for leaves it lacks. */
struct cpu_identity {
	char vendor[13];
	char model_name[49];
	u32 max_leaf;
	u32 signature;	  /* CPUID 1, EAX: family, model, stepping */
	u32 clflush_size; /* bytes */
	u32 phys_bits, virt_bits;
	u32 words[CPU_NWORDS];
};

/* One processor's block of /proc/cpuinfo, ending with the empty line. */
void procfs_format_cpu(struct procbuf *b, const struct cpu_identity *id, unsigned processor,
		       u32 apic_id, u64 tsc_hz);
/* The "flags" list alone: Linux's names of the bits set, each after a space. */
void procfs_format_cpu_flags(struct procbuf *b, const u32 words[CPU_NWORDS]);

/* ---- /proc/meminfo and /proc/uptime --------------------------------------- */

struct procfs_meminfo {
	u64 total_kb, free_kb, available_kb, cached_kb, slab_kb;
	u64 page_tables_kb; /* user page-table pages, VmPTE summed over the address spaces */
};

void procfs_format_meminfo(struct procbuf *b, const struct procfs_meminfo *m);
void procfs_format_uptime(struct procbuf *b, u64 uptime_ns, u64 idle_ns);

/* ---- /proc/stat and /proc/loadavg --------------------------------------- */

/*
 * One cpu line of /proc/stat: "cpu" (the sum, padded with a space as
 * Linux's) or "cpuN", then Linux's ten columns in USER_HZ ticks; the ones
 * rewind has no such time for (nice, iowait, irq, softirq, guest) are 0,
 * steal (the 8th) is the hypervisor's steal clock's (drivers/kvm_steal.h).
 */
void procfs_format_stat_cpu(struct procbuf *b, const char *name, u64 user_ns, u64 system_ns,
			    u64 idle_ns, u64 steal_ns);
/* The counters after the cpu lines. */
struct procfs_stat_counts {
	u64 interrupts, switches, boot_time_s, forks;
	unsigned running, blocked;
};
void procfs_format_stat_counts(struct procbuf *b, const struct procfs_stat_counts *c);
/* "1.00 0.50 0.20 running/tasks last_pid" from the fixed-point averages (loadavg.h). */
void procfs_format_loadavg(struct procbuf *b, const u64 avg[3], unsigned running, unsigned tasks,
			   int last_pid);

/* ---- /proc/interrupts ------------------------------------------------------ */

/* Linux's x86 layout: a header naming the CPUs, one row of per-CPU counts each, one total. */
void procfs_format_irq_header(struct procbuf *b, const unsigned *cpu_ids, unsigned n);
void procfs_format_irq_row(struct procbuf *b, const char *name, const u32 *counts, unsigned n,
			   const char *what);
void procfs_format_irq_total(struct procbuf *b, const char *name, u32 count);

/* ---- /proc/lockstat ------------------------------------------------------- */

/*
 * rewind's own format (Linux's /proc/lock_stat has other columns): a
 * comment line saying whether the `lockstat` knob is collecting, a header,
 * then one line per class in the given order, whitespace-separated, with
 * times in ns.
 */
void procfs_format_lockstat(struct procbuf *b, const struct lockstat_row *rows, size_t n,
			    bool collecting);
/*
 * The rwsem slow paths per `rwsem_spin` policy, after the class table: a
 * blank line, a comment, a header, one line per policy (rows[p] for
 * policy p, RWSEM_SPIN_POLICIES of them) in the knob's order.
 */
void procfs_format_lockstat_rwsem(struct procbuf *b, const struct lockstat_rwsem *rows);

/* ---- /proc/<pid>/status, stat and sched ------------------------------------ */

/* What the files of one process show, copied while its task could not go away. */
struct procfs_task {
	int pid, tgid, ppid;
	int tracer_pid;			  /* 0: not traced */
	int pgrp, session, tty_nr, tpgid; /* job control's: stat's fields 5-8 */
	char state;			  /* 'R', 'S', 'T', 't' or 'Z', as Linux abbreviates them */
	char comm[TASK_COMM_LEN];
	u64 utime_ns, stime_ns;	  /* of all its threads */
	u64 cutime_ns, cstime_ns; /* of reaped children */
	u64 start_ns;		  /* since boot */
	u64 minflt, cminflt;
	unsigned cpu;
	int nice, rt_priority, policy; /* scheduling (kernel/sched/policy.c) */
	s64 vruntime;		       /* the normal class's weighted time (kernel/sched/sched.c) */
	u32 weight;		       /* of its nice or SCHED_IDLE (kernel/sched/priority.c) */
	int exit_signal;	       /* what the parent gets when it ends */
	int exit_code;		       /* wait status; zombies only */
	int threads;		       /* live members of its thread group */
	u32 uids[4], gids[4];	       /* real, effective, saved, file-system */
	struct cap_sets caps;
	const u32 *groups; /* supplementary groups, sorted (status only; the caller holds them) */
	int ngroups;
	u64 sig_pending, sig_shared, sig_blocked, sig_ignored, sig_caught; /* the leader's */
	bool has_mm; /* a user process, not a kernel thread or zombie: vm is valid */
	struct vm_usage vm;
};

/*
 * Linux 6.1's status lines from Name to the signal masks; the Vm lines
 * only for a process with an address space (not for kernel threads and
 * zombies, as on Linux), the signal masks and the capability sets
 * (CapInh to CapAmb). Lines for what rewind does not keep (peaks, locked
 * pages, page-table sizes) are left out.
 */
void procfs_format_status(struct procbuf *b, const struct procfs_task *t);
/* The stat line: all 52 fields. */
void procfs_format_stat(struct procbuf *b, const struct procfs_task *t);
/*
 * /proc/<pid>/sched: Linux's scheduler debug lines rewind has - the
 * header, se.vruntime, se.load.weight (scaled by 1024 as Linux's 64-bit
 * load), policy and prio (Linux's 0..139: 120 + nice, or 99 - the RT priority).
 */
void procfs_format_sched(struct procbuf *b, const struct procfs_task *t);
/* statm: size resident shared text lib data dt, in pages. */
void procfs_format_statm(struct procbuf *b, const struct procfs_task *t);

#endif
