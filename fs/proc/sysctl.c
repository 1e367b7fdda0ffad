/*
 * sysctl.c - /proc/sys/rewind/<knob>: every knob of the registry
 * (kernel/knobs.h) as a file, so that scripts and benchmarks can switch
 * policies at run time, A, B, A, B ... in one boot (docs/design.md, "Knobs,
 * not forks"); and
 * /proc/sys/kernel/{ostype,osrelease,version,hostname,domainname}, the
 * uname fields as Linux shows them there (hostname and domainname root's to
 * set, in the writer's UTS namespace; the others read-only), cap_last_cap
 * (the highest capability number the kernel knows), pid_max (where pids
 * wrap; root's to set), ns_last_pid (where the next pid search starts; root's
 * to set), tainted (always 0: nothing taints rewind) and
 * threads-max (root's to set, kernel/process/rlimit.h), core_pattern and
 * core_uses_pid (root's to set: the core file's name, kernel/process/coredump.c),
 * printk (the four console levels, kernel/printk.h) and dmesg_restrict
 * (kernel/syslog.c), root's to set,
 * sched_rt_period_us
 * and sched_rt_runtime_us (RT throttling, kernel/sched/sched.c), System V IPC's
 * limits (fs/proc/sysvipc.c), random/{entropy_avail,poolsize} (read-only:
 * kernel/random.h); and
 * /proc/sys/fs/mount-max, /proc/sys/fs/nr_open, /proc/sys/fs/pipe-{max-size,user-pages-soft,user-pages-hard} and
 * /proc/sys/fs/inotify/max_{queued_events,user_instances,user_watches},
 * root's to set, as Linux's; and /proc/sys/net/ipv4/ip_local_port_range
 * (read-only: the ephemeral ports fs/inet_names.c hands out); and
 * /proc/sys/vm/unprivileged_userfaultfd (root's to set, 0 or 1: fs/userfaultfd.c),
 * mmap_min_addr (root's with CAP_SYS_RAWIO to set: mm/vm.h)
 * and nr_hugepages (root's to set: the huge page pool, fs/proc/sysfs.c), and
 * drop_caches (root's to write; nothing here can be dropped).
 *
 * Reading gives the current value alone on the first line, then
 * "# valid: ..." and "# default: ..." (procfs_format_knob). Writing a
 * value sets the knob through knob_set, the same parser the command line
 * uses: an invalid value fails with -EINVAL (knob_set logs the valid
 * ones), and a knob that may only be set at boot is read-only (0444, and
 * writing gives -EPERM). A change is one store, so it is atomic for the
 * code that reads the knob.
 */
#include "fs/inet.h"
#include "fs/proc/internal.h"
#include "fs/notify.h"
#include "fs/pipe_accounting.h"
#include "ipc/mqueue.h"
#include "kernel/knobs.h"
#include "kernel/printk.h"
#include "kernel/process/coredump.h"
#include "kernel/process/cred.h"
#include "kernel/process/process.h"
#include "kernel/process/rlimit.h"
#include "kernel/sched/sched.h"
#include "kernel/sys_info.h"
#include "kernel/process/uts_namespace.h"
#include "kernel/random.h"
#include "mm/vm.h"
#include "uapi/random.h"
#include "kernel/lib/string.h"
#include "kernel/lib/vsprintf.h"

extern const struct knob __start_knobs[], __stop_knobs[];

static int
show_knob(struct procbuf *b, union proc_arg arg)
{
	procfs_format_knob(b, arg.knob);
	return 0;
}

static int
write_knob(const char *value, union proc_arg arg)
{
	return knob_set(arg.knob, value);
}

static const struct proc_entry knob_rw = {
	.mode = S_IFREG | 0644, .show = show_knob, .write = write_knob, .control = true
};
static const struct proc_entry knob_ro = { .mode = S_IFREG | 0444, .show = show_knob };

static void
knob_dyn(const struct knob *k, struct proc_dyn *out)
{
	out->entry = k->runtime ? &knob_rw : &knob_ro;
	out->arg.knob = k;
	ksnprintf(out->name, sizeof(out->name), "%s", k->name);
}

/* The cookie of a knob's file is its index in the registry, which never changes. */
static bool
knob_next(union proc_arg dir_arg, u64 *cookie, struct proc_dyn *out)
{
	if (*cookie >= (u64)(__stop_knobs - __start_knobs))
		return false;
	knob_dyn(&__start_knobs[*cookie], out);
	return true;
}

static bool
knob_lookup(union proc_arg dir_arg, const char *name, size_t len, struct proc_dyn *out)
{
	const struct knob *k;

	if (len >= sizeof(out->name))
		return false;
	memcpy(out->name, name, len);
	out->name[len] = '\0';
	k = knob_find(out->name);
	if (k)
		knob_dyn(k, out);
	return k != NULL;
}

static const struct proc_dir knob_dir = {
	.next = knob_next,
	.find = knob_lookup,
};

/* One uname field a file, from the same fill as uname(2). */
static int
show_uts_field(struct procbuf *b, size_t offset)
{
	struct kernel_utsname u;

	uname_fill(&u);
	procbuf_printf(b, "%s\n", (const char *)&u + offset);
	return 0;
}

#define UTS_FILE(fn, field)                                                       \
	static int fn(struct procbuf *b, union proc_arg arg)                      \
	{                                                                         \
		return show_uts_field(b, offsetof(struct kernel_utsname, field)); \
	}
UTS_FILE(show_ostype, sysname)
UTS_FILE(show_osrelease, release)
UTS_FILE(show_version, version)
UTS_FILE(show_hostname, nodename)
UTS_FILE(show_domainname, domainname)

/* Root's to set (the file's 0644) in the writer's UTS namespace; longer names are cut, as Linux's. */
static int
write_uts_name(const char *value, enum uts_name which)
{
	uts_set_name(which, value, strnlen(value, __NEW_UTS_LEN));
	return 0;
}

static int
write_hostname(const char *value, union proc_arg arg)
{
	return write_uts_name(value, UTS_HOSTNAME);
}

static int
write_domainname(const char *value, union proc_arg arg)
{
	return write_uts_name(value, UTS_DOMAINNAME);
}

static int
show_cap_last_cap(struct procbuf *b, union proc_arg arg)
{
	procbuf_printf(b, "%d\n", CAP_LAST_CAP);
	return 0;
}

static int
show_pid_max(struct procbuf *b, union proc_arg arg)
{
	procbuf_printf(b, "%d\n", pid_max_get());
	return 0;
}

/* Root only (the file's 0644), as Linux's proc_dointvec_minmax over [301, 4194304]. */
static int
write_pid_max(const char *value, union proc_arg arg)
{
	unsigned long n;
	int err = procfs_parse_decimal(value, &n);

	return err ? err : pid_max_set(n);
}

/* The pid handed out last, as Linux's ns_last_pid. */
static int
show_ns_last_pid(struct procbuf *b, union proc_arg arg)
{
	struct task_census c;

	task_census(&c);
	procbuf_printf(b, "%d\n", c.last_pid);
	return 0;
}

static int
show_threads_max(struct procbuf *b, union proc_arg arg)
{
	procbuf_printf(b, "%lu\n", READ_ONCE(threads_max));
	return 0;
}

/* Linux's sysctl_max_threads: within [MIN_THREADS, MAX_THREADS], else EINVAL. */
static int
write_threads_max(const char *value, union proc_arg arg)
{
	unsigned long n;
	int err = procfs_parse_decimal(value, &n);

	if (!err && (n < THREADS_MAX_MIN || n > THREADS_MAX_MAX))
		err = -EINVAL;
	if (!err)
		WRITE_ONCE(threads_max, n);
	return err;
}

/*
 * Where the next pid search starts (checkpoint/restore programs give a
 * restored process its old pid so): anyone may open it, as Linux's 0666,
 * but only root may write (EPERM), a pid up to pid_max (EINVAL).
 */
static int
write_ns_last_pid(const char *value, union proc_arg arg)
{
	unsigned long n;
	int err = procfs_parse_decimal(value, &n);

	if (!err && !capable(CAP_SYS_ADMIN) && !capable(CAP_CHECKPOINT_RESTORE))
		err = -EPERM;
	if (!err && n > (unsigned long)pid_max_get())
		err = -EINVAL;
	if (!err)
		pid_set_last((int)n);
	return err;
}

static int
show_tainted(struct procbuf *b, union proc_arg arg)
{
	procbuf_printf(b, "0\n");
	return 0;
}

static int
show_rt_period(struct procbuf *b, union proc_arg arg)
{
	procbuf_printf(b, "%lu\n", READ_ONCE(sched_rt_period_us));
	return 0;
}

static int
show_rt_runtime(struct procbuf *b, union proc_arg arg)
{
	procbuf_printf(b, "%ld\n", READ_ONCE(sched_rt_runtime_us));
	return 0;
}

/* Linux's sched_rt_handler: a period of 1 us to INT_MAX, never below the runtime; else EINVAL. */
static int
write_rt_period(const char *value, union proc_arg arg)
{
	unsigned long n;
	int err = procfs_parse_decimal(value, &n);
	s64 runtime = READ_ONCE(sched_rt_runtime_us);

	if (!err && (n < 1 || n > 0x7fffffff || (runtime >= 0 && (u64)runtime > n)))
		err = -EINVAL;
	if (!err)
		WRITE_ONCE(sched_rt_period_us, n);
	return err;
}

/* -1 (RT tasks never throttled) or up to the period; else EINVAL. */
static int
write_rt_runtime(const char *value, union proc_arg arg)
{
	unsigned long n;
	bool unlimited = value[0] == '-';
	int err = procfs_parse_decimal(unlimited ? value + 1 : value, &n);

	if (!err && (unlimited ? n != 1 : n > READ_ONCE(sched_rt_period_us)))
		err = -EINVAL;
	if (!err)
		WRITE_ONCE(sched_rt_runtime_us, unlimited ? -1 : (s64)n);
	return err;
}

/* The core file's name (kernel/process/coredump.c); root's to set (the file's 0644). */
static int
show_core_pattern(struct procbuf *b, union proc_arg arg)
{
	char pattern[CORE_PATTERN_MAX];

	core_pattern_get(pattern);
	procbuf_printf(b, "%s\n", pattern);
	return 0;
}

static int
write_core_pattern(const char *value, union proc_arg arg)
{
	return core_pattern_set(value);
}

static int
show_core_uses_pid(struct procbuf *b, union proc_arg arg)
{
	procbuf_printf(b, "%d\n", READ_ONCE(core_uses_pid));
	return 0;
}

/* Any number, as Linux's proc_dointvec: not 0 adds ".<pid>" to a name without %p. */
static int
write_core_uses_pid(const char *value, union proc_arg arg)
{
	unsigned long n;
	int err = procfs_parse_decimal(value, &n);

	if (!err)
		WRITE_ONCE(core_uses_pid, n != 0);
	return err;
}

static int
show_printk(struct procbuf *b, union proc_arg arg)
{
	int l[4];

	printk_levels(l);
	procbuf_printf(b, "%d\t%d\t%d\t%d\n", l[0], l[1], l[2], l[3]);
	return 0;
}

/* Up to four numbers, as Linux's proc_dointvec: the ones given are set, in order. */
static int
write_printk(const char *value, union proc_arg arg)
{
	int levels[4], n = 0;
	const char *p = value;

	while (n < 4) {
		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		if (!*p)
			break;
		bool negative = *p == '-';
		p += negative;
		if (*p < '0' || *p > '9')
			return -EINVAL;
		long v = 0;
		while (*p >= '0' && *p <= '9' && v < 0x7fffffff)
			v = v * 10 + (*p++ - '0');
		levels[n++] = (int)(negative ? -v : v);
	}
	printk_set_levels(levels, n);
	return 0;
}

static int
show_dmesg_restrict(struct procbuf *b, union proc_arg arg)
{
	procbuf_printf(b, "%d\n", READ_ONCE(dmesg_restrict));
	return 0;
}

/* 0 or 1, set only with CAP_SYS_ADMIN, as Linux's proc_dointvec_minmax_sysadmin. */
static int
write_dmesg_restrict(const char *value, union proc_arg arg)
{
	unsigned long n;
	int err = procfs_parse_decimal(value, &n);

	if (!err && !capable(CAP_SYS_ADMIN))
		err = -EPERM;
	if (!err && n > 1)
		err = -EINVAL;
	if (!err)
		WRITE_ONCE(dmesg_restrict, (int)n);
	return err;
}

/* ---- /proc/sys/kernel/random: the entropy count and the pool's size, Linux 6.1's ---------------- */

static int
show_entropy_avail(struct procbuf *b, union proc_arg arg)
{
	procbuf_printf(b, "%d\n", random_entropy_bits());
	return 0;
}

static int
show_poolsize(struct procbuf *b, union proc_arg arg)
{
	procbuf_printf(b, "%d\n", RANDOM_POOL_BITS);
	return 0;
}

static const struct proc_entry random_entries[] = {
	{ .name = "entropy_avail", .mode = S_IFREG | 0444, .show = show_entropy_avail },
	{ .name = "poolsize", .mode = S_IFREG | 0444, .show = show_poolsize },
};

static const struct proc_dir random_dir = {
	.entries = random_entries,
	.nentries = ARRAY_SIZE(random_entries),
};

static const struct proc_entry kernel_entries[] = {
	{ .name = "cap_last_cap", .mode = S_IFREG | 0444, .show = show_cap_last_cap },
	{ .name = "core_pattern",
	  .mode = S_IFREG | 0644,
	  .show = show_core_pattern,
	  .write = write_core_pattern,
	  .control = true },
	{ .name = "core_uses_pid",
	  .mode = S_IFREG | 0644,
	  .show = show_core_uses_pid,
	  .write = write_core_uses_pid,
	  .control = true },
	{ .name = "dmesg_restrict",
	  .mode = S_IFREG | 0644,
	  .show = show_dmesg_restrict,
	  .write = write_dmesg_restrict,
	  .control = true },
	{ .name = "domainname",
	  .mode = S_IFREG | 0644,
	  .show = show_domainname,
	  .write = write_domainname,
	  .control = true },
	{ .name = "hostname",
	  .mode = S_IFREG | 0644,
	  .show = show_hostname,
	  .write = write_hostname,
	  .control = true },
	{ .name = "keys", .mode = S_IFDIR | 0555, .dir = &proc_sys_keys_dir },
	{ .name = "msgmax",
	  .mode = S_IFREG | 0644,
	  .show = proc_show_msgmax,
	  .write = proc_write_msgmax,
	  .control = true },
	{ .name = "msgmnb",
	  .mode = S_IFREG | 0644,
	  .show = proc_show_msgmnb,
	  .write = proc_write_msgmnb,
	  .control = true },
	{ .name = "msgmni",
	  .mode = S_IFREG | 0644,
	  .show = proc_show_msgmni,
	  .write = proc_write_msgmni,
	  .control = true },
	{ .name = "ns_last_pid",
	  .mode = S_IFREG | 0666,
	  .show = show_ns_last_pid,
	  .write = write_ns_last_pid,
	  .control = true },
	{ .name = "osrelease", .mode = S_IFREG | 0444, .show = show_osrelease },
	{ .name = "ostype", .mode = S_IFREG | 0444, .show = show_ostype },
	{ .name = "pid_max",
	  .mode = S_IFREG | 0644,
	  .show = show_pid_max,
	  .write = write_pid_max,
	  .control = true },
	{ .name = "printk",
	  .mode = S_IFREG | 0644,
	  .show = show_printk,
	  .write = write_printk,
	  .control = true },
	{ .name = "random", .mode = S_IFDIR | 0555, .dir = &random_dir },
	{ .name = "sched_rt_period_us",
	  .mode = S_IFREG | 0644,
	  .show = show_rt_period,
	  .write = write_rt_period,
	  .control = true },
	{ .name = "sched_rt_runtime_us",
	  .mode = S_IFREG | 0644,
	  .show = show_rt_runtime,
	  .write = write_rt_runtime,
	  .control = true },
	{ .name = "sem",
	  .mode = S_IFREG | 0644,
	  .show = proc_show_sem,
	  .write = proc_write_sem,
	  .control = true },
	{ .name = "shmall",
	  .mode = S_IFREG | 0644,
	  .show = proc_show_shmall,
	  .write = proc_write_shmall,
	  .control = true },
	{ .name = "shmmax",
	  .mode = S_IFREG | 0644,
	  .show = proc_show_shmmax,
	  .write = proc_write_shmmax,
	  .control = true },
	{ .name = "shmmni",
	  .mode = S_IFREG | 0644,
	  .show = proc_show_shmmni,
	  .write = proc_write_shmmni,
	  .control = true },
	{ .name = "tainted", .mode = S_IFREG | 0444, .show = show_tainted },
	{ .name = "threads-max",
	  .mode = S_IFREG | 0644,
	  .show = show_threads_max,
	  .write = write_threads_max,
	  .control = true },
	{ .name = "version", .mode = S_IFREG | 0444, .show = show_version },
};

static const struct proc_dir kernel_dir = {
	.entries = kernel_entries,
	.nentries = ARRAY_SIZE(kernel_entries),
};

/* ---- /proc/sys/fs: the pipe limits (fs/pipe_accounting.h), inotify's (fs/inotify.c), leases' ---- */

static int
show_ulong(struct procbuf *b, const unsigned long *v)
{
	procbuf_printf(b, "%lu\n", READ_ONCE(*v));
	return 0;
}

static int
show_pipe_max_size(struct procbuf *b, union proc_arg arg)
{
	return show_ulong(b, &pipe_max_size);
}

/* Rounded as F_SETPIPE_SZ rounds (Linux's proc_dopipe_max_size); EINVAL past 2 GiB. */
static int
write_pipe_max_size(const char *value, union proc_arg arg)
{
	unsigned long n;
	int err = procfs_parse_decimal(value, &n);

	if (!err && !(n = pipe_round_size(n)))
		err = -EINVAL;
	if (!err)
		WRITE_ONCE(pipe_max_size, n);
	return err;
}

static int
show_mount_max(struct procbuf *b, union proc_arg arg)
{
	return show_ulong(b, &mount_max);
}

/* At least 1 and an int, as Linux's proc_dointvec_minmax with SYSCTL_ONE: else EINVAL. */
static int
write_mount_max(const char *value, union proc_arg arg)
{
	unsigned long n;
	int err = procfs_parse_decimal(value, &n);

	if (!err && (n < 1 || n > 0x7fffffff))
		err = -EINVAL;
	if (!err)
		WRITE_ONCE(mount_max, n);
	return err;
}

/* Whether n is within [min, max] (a function: a macro's min of 0 would be a warning). */
static bool
within(unsigned long n, unsigned long min, unsigned long max)
{
	return n >= min && n <= max;
}

/* A file showing var and setting it within [min, max], as proc_dointvec_minmax: else EINVAL. */
#define BOUNDED_FILE(show, write, var, min, max)                \
	static int show(struct procbuf *b, union proc_arg arg)  \
	{                                                       \
		return show_ulong(b, &var);                     \
	}                                                       \
	static int write(const char *value, union proc_arg arg) \
	{                                                       \
		unsigned long n;                                \
		int err = procfs_parse_decimal(value, &n);      \
		if (!err && !within(n, min, max))               \
			err = -EINVAL;                          \
		if (!err)                                       \
			WRITE_ONCE(var, n);                     \
		return err;                                     \
	}

/* A file showing var and setting it to any decimal number. */
#define ULONG_FILE(show, write, var) BOUNDED_FILE(show, write, var, 0, ~0ul)
ULONG_FILE(show_pipe_pages_soft, write_pipe_pages_soft, pipe_user_pages_soft)
ULONG_FILE(show_pipe_pages_hard, write_pipe_pages_hard, pipe_user_pages_hard)
BOUNDED_FILE(show_nr_open, write_nr_open, nr_open, NR_OPEN_MIN, NR_OPEN_LIMIT)
ULONG_FILE(show_lease_break_time, write_lease_break_time, lease_break_time)
ULONG_FILE(show_inotify_events, write_inotify_events, inotify_max_queued_events)
ULONG_FILE(show_inotify_instances, write_inotify_instances, inotify_max_user_instances)
ULONG_FILE(show_inotify_watches, write_inotify_watches, inotify_max_user_watches)

/* /proc/sys/fs/mqueue: the POSIX message queues' limits (ipc/mqueue.h), Linux's bounds. */
BOUNDED_FILE(show_mq_queues_max, write_mq_queues_max, mq_init_ns.queues_max, 0, MQ_HARD_QUEUESMAX)
BOUNDED_FILE(show_mq_msg_max, write_mq_msg_max, mq_init_ns.msg_max, MQ_MIN_MSGMAX, MQ_HARD_MSGMAX)
BOUNDED_FILE(show_mq_msgsize_max, write_mq_msgsize_max, mq_init_ns.msgsize_max, MQ_MIN_MSGSIZEMAX,
	     MQ_HARD_MSGSIZEMAX)
BOUNDED_FILE(show_mq_msg_default, write_mq_msg_default, mq_init_ns.msg_default, MQ_MIN_MSGMAX,
	     MQ_HARD_MSGMAX)
BOUNDED_FILE(show_mq_msgsize_default, write_mq_msgsize_default, mq_init_ns.msgsize_default,
	     MQ_MIN_MSGSIZEMAX, MQ_HARD_MSGSIZEMAX)

#define MQ_ENTRY(name_, show_, write_)                                                 \
	{                                                                              \
		.name = name_, .mode = S_IFREG | 0644, .show = show_, .write = write_, \
		.control = true                                                        \
	}

static const struct proc_entry mqueue_entries[] = {
	MQ_ENTRY("msg_default", show_mq_msg_default, write_mq_msg_default),
	MQ_ENTRY("msg_max", show_mq_msg_max, write_mq_msg_max),
	MQ_ENTRY("msgsize_default", show_mq_msgsize_default, write_mq_msgsize_default),
	MQ_ENTRY("msgsize_max", show_mq_msgsize_max, write_mq_msgsize_max),
	MQ_ENTRY("queues_max", show_mq_queues_max, write_mq_queues_max),
};

static const struct proc_dir mqueue_dir = {
	.entries = mqueue_entries,
	.nentries = ARRAY_SIZE(mqueue_entries),
};

static const struct proc_entry inotify_entries[] = {
	{ .name = "max_queued_events",
	  .mode = S_IFREG | 0644,
	  .show = show_inotify_events,
	  .write = write_inotify_events,
	  .control = true },
	{ .name = "max_user_instances",
	  .mode = S_IFREG | 0644,
	  .show = show_inotify_instances,
	  .write = write_inotify_instances,
	  .control = true },
	{ .name = "max_user_watches",
	  .mode = S_IFREG | 0644,
	  .show = show_inotify_watches,
	  .write = write_inotify_watches,
	  .control = true },
};

static const struct proc_dir inotify_dir = {
	.entries = inotify_entries,
	.nentries = ARRAY_SIZE(inotify_entries),
};

static const struct proc_entry fs_entries[] = {
	{ .name = "inotify", .mode = S_IFDIR | 0555, .dir = &inotify_dir },
	{ .name = "lease-break-time",
	  .mode = S_IFREG | 0644,
	  .show = show_lease_break_time,
	  .write = write_lease_break_time,
	  .control = true },
	{ .name = "mount-max",
	  .mode = S_IFREG | 0644,
	  .show = show_mount_max,
	  .write = write_mount_max,
	  .control = true },
	{ .name = "mqueue", .mode = S_IFDIR | 0555, .dir = &mqueue_dir },
	{ .name = "nr_open",
	  .mode = S_IFREG | 0644,
	  .show = show_nr_open,
	  .write = write_nr_open,
	  .control = true },
	{ .name = "pipe-max-size",
	  .mode = S_IFREG | 0644,
	  .show = show_pipe_max_size,
	  .write = write_pipe_max_size,
	  .control = true },
	{ .name = "pipe-user-pages-hard",
	  .mode = S_IFREG | 0644,
	  .show = show_pipe_pages_hard,
	  .write = write_pipe_pages_hard,
	  .control = true },
	{ .name = "pipe-user-pages-soft",
	  .mode = S_IFREG | 0644,
	  .show = show_pipe_pages_soft,
	  .write = write_pipe_pages_soft,
	  .control = true },
};

static const struct proc_dir fs_dir = {
	.entries = fs_entries,
	.nentries = ARRAY_SIZE(fs_entries),
};

/* ---- /proc/sys/net/ipv4: where ephemeral ports come from (fs/inet.h), read-only here ---- */

static int
show_port_range(struct procbuf *b, union proc_arg arg)
{
	procbuf_printf(b, "%d\t%d\n", INET_PORT_FIRST, INET_PORT_LAST);
	return 0;
}

static const struct proc_entry ipv4_entries[] = {
	{ .name = "ip_local_port_range", .mode = S_IFREG | 0444, .show = show_port_range },
};

static const struct proc_dir ipv4_dir = {
	.entries = ipv4_entries,
	.nentries = ARRAY_SIZE(ipv4_entries),
};

static const struct proc_entry net_entries[] = {
	{ .name = "ipv4", .mode = S_IFDIR | 0555, .dir = &ipv4_dir },
};

static const struct proc_dir net_dir = {
	.entries = net_entries,
	.nentries = ARRAY_SIZE(net_entries),
};

/* ---- /proc/sys/vm ---------------------------------------------------------------- */

BOUNDED_FILE(show_unprivileged_uffd, write_unprivileged_uffd, unprivileged_userfaultfd, 0, 1)
/*
 * drop_caches: Linux's bounds, 1 to 4, and nothing to drop - every cached
 * page here is a RAM file's only copy, which Linux's tmpfs keeps too.
 */
static unsigned long drop_caches;
BOUNDED_FILE(show_drop_caches, write_drop_caches, drop_caches, 1, 4)

/* mmap_min_addr: any number, but only with CAP_SYS_RAWIO (Linux's mmap_min_addr_handler). */
static int
show_mmap_min_addr(struct procbuf *b, union proc_arg arg)
{
	return show_ulong(b, &mmap_min_addr);
}

static int
write_mmap_min_addr(const char *value, union proc_arg arg)
{
	unsigned long n;

	if (!capable(CAP_SYS_RAWIO))
		return -EPERM;
	int err = procfs_parse_decimal(value, &n);
	if (!err)
		WRITE_ONCE(mmap_min_addr, n);
	return err;
}

static const struct proc_entry vm_entries[] = {
	{ .name = "drop_caches",
	  .mode = S_IFREG | 0200,
	  .show = show_drop_caches,
	  .write = write_drop_caches,
	  .control = true },
	{ .name = "mmap_min_addr",
	  .mode = S_IFREG | 0644,
	  .show = show_mmap_min_addr,
	  .write = write_mmap_min_addr,
	  .control = true },
	{ .name = "nr_hugepages",
	  .mode = S_IFREG | 0644,
	  .show = proc_show_nr_hugepages,
	  .write = proc_write_nr_hugepages,
	  .control = true },
	{ .name = "unprivileged_userfaultfd",
	  .mode = S_IFREG | 0644,
	  .show = show_unprivileged_uffd,
	  .write = write_unprivileged_uffd,
	  .control = true },
};

static const struct proc_dir vm_dir = {
	.entries = vm_entries,
	.nentries = ARRAY_SIZE(vm_entries),
};

static const struct proc_entry sys_entries[] = {
	{ .name = "fs", .mode = S_IFDIR | 0555, .dir = &fs_dir },
	{ .name = "kernel", .mode = S_IFDIR | 0555, .dir = &kernel_dir },
	{ .name = "net", .mode = S_IFDIR | 0555, .dir = &net_dir },
	{ .name = "rewind", .mode = S_IFDIR | 0555, .dir = &knob_dir },
	{ .name = "vm", .mode = S_IFDIR | 0555, .dir = &vm_dir },
};

const struct proc_dir proc_sys_dir = {
	.entries = sys_entries,
	.nentries = ARRAY_SIZE(sys_entries),
};
