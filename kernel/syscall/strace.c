/*
 * strace.c - printing the system calls of user processes as strace does.
 *
 * With the run-time knob strace=all every call of a traced process gives
 * one console line when it returns,
 *
 *	[pid 7] openat(AT_FDCWD, "/etc/motd", O_RDONLY|O_CLOEXEC) = 3 <0.000021>
 *	[pid 7] read(3, "rewind\n", 4096) = 7 <0.000009>
 *	[pid 7] openat(AT_FDCWD, "/nope", O_RDONLY) = -1 ENOENT <0.000012>
 *
 * with the arguments decoded, the result or the errno's name, and the time
 * spent in the call in seconds (strace -T). strace=failed prints only the
 * calls that failed; strace_pid=N only process N's (any of its threads).
 * Lines go out at warning level, so that they show at the loglevel=4 that
 * tools/rewind-run boots with and reach its stderr, as strace's own output
 * goes to stderr.
 *
 * How an argument is shown comes from its definition: SYSCALLn keeps each
 * argument's C type and name (syscall.h), a `const char __user *` is a
 * string, another pointer an address, and the rules below give flags,
 * file descriptors, signals, clocks, futex operations and ioctl numbers
 * their names. Inputs are read before
 * the call (execve replaces the memory they are in); what the call writes
 * back - read's buffer - is read after it. Strings are cut at 32 bytes
 * ("..." follows), as strace's default -s 32.
 *
 * A call that never returns (exit, exit_group) is printed before it runs,
 * with "= ?"; a call that sleeps is printed when it wakes and returns.
 * Tracing costs the untraced path one load and one branch in
 * syscall_dispatch; a traced call pays for its line on the console.
 */
#include "kernel/syscall/strace.h"
#include "uapi/errno.h"
#include "kernel/knobs.h"
#include "kernel/lib/string.h"
#include "kernel/lib/vsprintf.h"
#include "kernel/printk.h"
#include "kernel/process/process.h"
#include "kernel/process/task.h"
#include "kernel/signal/signal.h"
#include "kernel/syscall/syscall.h"
#include "kernel/time/tsc.h"
#include "kernel/x86/percpu.h"
#include "kernel/x86/x86.h"
#include "mm/uaccess.h"
#include "uapi/fcntl.h"
#include "uapi/futex.h"
#include "uapi/ioctls.h"
#include "uapi/mman.h"
#include "uapi/prctl.h"
#include "uapi/random.h"
#include "uapi/sched.h"
#include "uapi/signal.h"
#include "uapi/time.h"
#include "uapi/wait.h"

KNOB_ENUM(strace_mode, "strace", STRACE_OFF, true,
	  "print system calls on the console as strace does: every call, or only those that failed",
	  "off", "all", "failed");
KNOB_INT(strace_pid, "strace_pid", 0, 0, 1 << 22, true,
	 "trace only the process with this pid (0: every process)");

#include "errno_names.h" /* generated from the errno header by tools/gennames */

#define STRING_MAX 32 /* bytes of a string shown, as strace -s 32 */
#define ARGV_MAX   8  /* entries of an argv or envp shown */
#define ARG_TEXT   160
#define LINE_TEXT  (6 * ARG_TEXT + 128)

/* ---- names of flags and values ------------------------------------------------------------- */

struct value_name {
	u64 value;
	const char *name;
};

/* clang-format off */
#define NAMED(x) { (u64)(x), #x }
/* clang-format on */

struct name_table {
	const struct value_name *names;
	size_t count;
	const char *zero; /* how 0 reads, when no name is 0: O_RDONLY, F_OK */
	bool hex;	  /* a value without a name is shown in hex (ioctl numbers) */
};

/* clang-format off */
#define NAME_TABLE(array, zero_) { array, ARRAY_SIZE(array), zero_, false }
/* clang-format on */

/* O_ACCMODE values are a number, not bits: open_flags handles them first. */
static const struct value_name open_access[] = { NAMED(O_RDONLY), NAMED(O_WRONLY), NAMED(O_RDWR) };
static const struct value_name open_bits[] = {
	NAMED(O_CREAT),	    NAMED(O_EXCL),	NAMED(O_NOCTTY),    NAMED(O_TRUNC),
	NAMED(O_APPEND),    NAMED(O_NONBLOCK),	NAMED(O_DSYNC),	    NAMED(O_ASYNC),
	NAMED(O_DIRECT),    NAMED(O_LARGEFILE), NAMED(O_DIRECTORY), NAMED(O_NOFOLLOW),
	NAMED(O_NOATIME),   NAMED(O_CLOEXEC),	NAMED(__O_SYNC),    NAMED(O_PATH),
	NAMED(__O_TMPFILE),
};
static const struct value_name prot_bits[] = { NAMED(PROT_READ), NAMED(PROT_WRITE),
					       NAMED(PROT_EXEC) };
static const struct value_name map_bits[] = {
	NAMED(MAP_SHARED),    NAMED(MAP_PRIVATE),	  NAMED(MAP_FIXED),
	NAMED(MAP_ANONYMOUS), NAMED(MAP_FIXED_NOREPLACE),
};
static const struct value_name clone_bits[] = {
	NAMED(CLONE_VM),
	NAMED(CLONE_FS),
	NAMED(CLONE_FILES),
	NAMED(CLONE_SIGHAND),
	NAMED(CLONE_PIDFD),
	NAMED(CLONE_VFORK),
	NAMED(CLONE_PARENT),
	NAMED(CLONE_THREAD),
	NAMED(CLONE_SYSVSEM),
	NAMED(CLONE_SETTLS),
	NAMED(CLONE_PARENT_SETTID),
	NAMED(CLONE_CHILD_CLEARTID),
	NAMED(CLONE_DETACHED),
	NAMED(CLONE_CHILD_SETTID),
};
static const struct value_name at_bits[] = {
	NAMED(AT_SYMLINK_NOFOLLOW),
	NAMED(AT_REMOVEDIR),
	NAMED(AT_NO_AUTOMOUNT),
	NAMED(AT_EMPTY_PATH),
};
static const struct value_name access_bits[] = { NAMED(R_OK), NAMED(W_OK), NAMED(X_OK) };
static const struct value_name whence_names[] = {
	NAMED(SEEK_SET), NAMED(SEEK_CUR), NAMED(SEEK_END), NAMED(SEEK_DATA), NAMED(SEEK_HOLE),
};
static const struct value_name fcntl_names[] = {
	NAMED(F_DUPFD), NAMED(F_GETFD), NAMED(F_SETFD),
	NAMED(F_GETFL), NAMED(F_SETFL), NAMED(F_DUPFD_CLOEXEC),
};
static const struct value_name signal_names[] = {
	NAMED(SIGHUP),	  NAMED(SIGINT),  NAMED(SIGQUIT),  NAMED(SIGILL),  NAMED(SIGTRAP),
	NAMED(SIGABRT),	  NAMED(SIGBUS),  NAMED(SIGFPE),   NAMED(SIGKILL), NAMED(SIGUSR1),
	NAMED(SIGSEGV),	  NAMED(SIGUSR2), NAMED(SIGPIPE),  NAMED(SIGALRM), NAMED(SIGTERM),
	NAMED(SIGSTKFLT), NAMED(SIGCHLD), NAMED(SIGCONT),  NAMED(SIGSTOP), NAMED(SIGTSTP),
	NAMED(SIGTTIN),	  NAMED(SIGTTOU), NAMED(SIGURG),   NAMED(SIGXCPU), NAMED(SIGXFSZ),
	NAMED(SIGVTALRM), NAMED(SIGPROF), NAMED(SIGWINCH), NAMED(SIGIO),   NAMED(SIGPWR),
	NAMED(SIGSYS),
};

static const struct value_name futex_ops[] = {
	NAMED(FUTEX_WAIT),	  NAMED(FUTEX_WAKE),	    NAMED(FUTEX_REQUEUE),
	NAMED(FUTEX_CMP_REQUEUE), NAMED(FUTEX_WAIT_BITSET), NAMED(FUTEX_WAKE_BITSET),
};
static const struct value_name futex_bits[] = { NAMED(FUTEX_PRIVATE_FLAG),
						NAMED(FUTEX_CLOCK_REALTIME) };
static const struct value_name clock_names[] = {
	NAMED(CLOCK_REALTIME),		NAMED(CLOCK_MONOTONIC),	    NAMED(CLOCK_PROCESS_CPUTIME_ID),
	NAMED(CLOCK_THREAD_CPUTIME_ID), NAMED(CLOCK_MONOTONIC_RAW), NAMED(CLOCK_REALTIME_COARSE),
	NAMED(CLOCK_MONOTONIC_COARSE),	NAMED(CLOCK_BOOTTIME),
};
static const struct value_name timer_bits[] = { NAMED(TIMER_ABSTIME) };
static const struct value_name arch_prctl_names[] = {
	NAMED(ARCH_SET_GS),
	NAMED(ARCH_SET_FS),
	NAMED(ARCH_GET_FS),
	NAMED(ARCH_GET_GS),
};
static const struct value_name prctl_names[] = { NAMED(PR_SET_NAME), NAMED(PR_GET_NAME) };
static const struct value_name sigmask_how[] = { NAMED(SIG_BLOCK), NAMED(SIG_UNBLOCK),
						 NAMED(SIG_SETMASK) };
static const struct value_name wait_bits[] = { NAMED(WNOHANG),	  NAMED(WUNTRACED), NAMED(WEXITED),
					       NAMED(WCONTINUED), NAMED(WNOWAIT),   NAMED(__WALL),
					       NAMED(__WCLONE) };
static const struct value_name ioctl_names[] = {
	NAMED(TCGETS),	  NAMED(TCSETS),     NAMED(TCSETSW),	NAMED(TCSETSF),	  NAMED(TIOCGPGRP),
	NAMED(TIOCSPGRP), NAMED(TIOCGWINSZ), NAMED(TIOCSWINSZ), NAMED(FIONREAD),  NAMED(FIONBIO),
	NAMED(FIONCLEX),  NAMED(FIOCLEX),    NAMED(TCFLSH),	NAMED(TIOCSCTTY), NAMED(TIOCSTI),
	NAMED(TIOCNOTTY), NAMED(TIOCGSID),
};
static const struct value_name grnd_bits[] = { NAMED(GRND_NONBLOCK), NAMED(GRND_RANDOM) };

static const struct name_table open_access_table = NAME_TABLE(open_access, NULL);
static const struct name_table open_table = NAME_TABLE(open_bits, NULL);
static const struct name_table prot_table = NAME_TABLE(prot_bits, "PROT_NONE");
static const struct name_table map_table = NAME_TABLE(map_bits, NULL);
static const struct name_table clone_table = NAME_TABLE(clone_bits, NULL);
static const struct name_table at_table = NAME_TABLE(at_bits, NULL);
static const struct name_table access_table = NAME_TABLE(access_bits, "F_OK");
static const struct name_table whence_table = NAME_TABLE(whence_names, NULL);
static const struct name_table fcntl_table = NAME_TABLE(fcntl_names, NULL);
static const struct name_table signal_table = NAME_TABLE(signal_names, NULL);
static const struct name_table futex_op_table = NAME_TABLE(futex_ops, NULL);
static const struct name_table futex_flag_table = NAME_TABLE(futex_bits, NULL);
static const struct name_table clock_table = NAME_TABLE(clock_names, NULL);
static const struct name_table timer_table = NAME_TABLE(timer_bits, NULL);
static const struct name_table arch_prctl_table = NAME_TABLE(arch_prctl_names, NULL);
static const struct name_table prctl_table = NAME_TABLE(prctl_names, NULL);
static const struct name_table sigmask_how_table = NAME_TABLE(sigmask_how, NULL);
static const struct name_table wait_table = NAME_TABLE(wait_bits, NULL);
static const struct name_table ioctl_table = { ioctl_names, ARRAY_SIZE(ioctl_names), NULL, true };
static const struct name_table grnd_table = NAME_TABLE(grnd_bits, NULL);

/* ---- how each argument is shown ---------------------------------------------------------- */

enum arg_kind {
	ARG_INT, /* a C int: 32 bits, sign-extended (wait4's pid -1) */
	ARG_SIGNED,
	ARG_UNSIGNED,
	ARG_HEX,
	ARG_OCTAL,
	ARG_POINTER,
	ARG_STRING,	 /* a NUL-terminated input */
	ARG_BUF_IN,	 /* bytes the call reads; their count is the next argument */
	ARG_BUF_OUT,	 /* bytes the call writes; as many as it returns */
	ARG_ARGV,	 /* a NULL-terminated array of strings */
	ARG_DIRFD,	 /* a file descriptor or AT_FDCWD */
	ARG_FLAGS,	 /* bits, by name */
	ARG_VALUE,	 /* one value, by name */
	ARG_OPEN_FLAGS,	 /* the access mode, then bits */
	ARG_CLONE_FLAGS, /* bits, and the exit signal in the low byte */
	ARG_FUTEX_OP,	 /* an operation, then its flags */
};

/* call NULL: every call with an argument of that name. The first rule that matches wins. */
static const struct arg_rule {
	const char *call;
	const char *arg;
	enum arg_kind kind;
	const struct name_table *names;
} rules[] = {
	{ "write", "buf", ARG_BUF_IN, NULL },
	{ "pwrite64", "buf", ARG_BUF_IN, NULL },
	{ "read", "buf", ARG_BUF_OUT, NULL },
	{ "pread64", "buf", ARG_BUF_OUT, NULL },
	{ "open", "flags", ARG_OPEN_FLAGS, NULL },
	{ "openat", "flags", ARG_OPEN_FLAGS, NULL },
	{ "pipe2", "flags", ARG_FLAGS, &open_table },
	{ "dup3", "flags", ARG_FLAGS, &open_table },
	{ "mmap", "flags", ARG_FLAGS, &map_table },
	{ "clone", "flags", ARG_CLONE_FLAGS, &clone_table },
	{ "unlinkat", "flags", ARG_FLAGS, &at_table },
	{ "newfstatat", "flags", ARG_FLAGS, &at_table },
	{ "faccessat2", "flags", ARG_FLAGS, &at_table },
	{ "access", "mode", ARG_FLAGS, &access_table },
	{ "faccessat", "mode", ARG_FLAGS, &access_table },
	{ "faccessat2", "mode", ARG_FLAGS, &access_table },
	{ "lseek", "whence", ARG_VALUE, &whence_table },
	{ "fcntl", "cmd", ARG_VALUE, &fcntl_table },
	{ "ioctl", "cmd", ARG_VALUE, &ioctl_table },
	{ "futex", "op", ARG_FUTEX_OP, NULL },
	{ "clock_nanosleep", "flags", ARG_FLAGS, &timer_table },
	{ NULL, "clock", ARG_VALUE, &clock_table },
	{ "arch_prctl", "code", ARG_VALUE, &arch_prctl_table },
	{ "prctl", "option", ARG_VALUE, &prctl_table },
	{ "rt_sigprocmask", "how", ARG_VALUE, &sigmask_how_table },
	{ "wait4", "options", ARG_FLAGS, &wait_table },
	{ "waitid", "options", ARG_FLAGS, &wait_table },
	{ "getrandom", "flags", ARG_FLAGS, &grnd_table },
	{ NULL, "mode", ARG_OCTAL, NULL },
	{ NULL, "prot", ARG_FLAGS, &prot_table },
	{ NULL, "sig", ARG_VALUE, &signal_table },
	{ NULL, "dirfd", ARG_DIRFD, NULL },
	{ NULL, "olddirfd", ARG_DIRFD, NULL },
	{ NULL, "newdirfd", ARG_DIRFD, NULL },
};

static bool
type_has(const char *type, const char *word)
{
	return strstr(type, word) != NULL;
}

/*
 * Whether a type as stringified is want, ignoring "__user": it is an empty
 * macro, so the type may come with it or without.
 */
static bool
type_is(const char *type, const char *want)
{
	static const char user[] = "__user ";

	while (*type && *want) {
		if (strncmp(type, user, sizeof(user) - 1) == 0) {
			type += sizeof(user) - 1;
			continue;
		}
		if (*type++ != *want++)
			return false;
	}
	return *type == *want;
}

static bool
names_an_address(const char *name)
{
	return strstr(name, "addr") || strstr(name, "ptr") || strcmp(name, "stack") == 0 ||
	       strcmp(name, "tls") == 0 || strcmp(name, "head") == 0;
}

/* From the rules, else from the C type alone. */
static enum arg_kind
kind_of(const char *call, const struct syscall_arg *a, const struct name_table **names)
{
	*names = NULL;
	for (size_t i = 0; i < ARRAY_SIZE(rules); i++)
		if ((!rules[i].call || strcmp(rules[i].call, call) == 0) &&
		    strcmp(rules[i].arg, a->name) == 0) {
			*names = rules[i].names;
			return rules[i].kind;
		}
	if (type_is(a->type, "const char *const *"))
		return ARG_ARGV;
	if (type_is(a->type, "const char *"))
		return ARG_STRING;
	if (type_has(a->type, "*"))
		return ARG_POINTER;
	if (strcmp(a->type, "u64") == 0 && names_an_address(a->name))
		return ARG_HEX;
	if (type_has(a->type, "unsigned") || type_has(a->type, "u32") || type_has(a->type, "u64") ||
	    type_has(a->type, "size_t"))
		return ARG_UNSIGNED;
	return strcmp(a->type, "int") == 0 ? ARG_INT : ARG_SIGNED;
}

/* ---- formatting into a bounded buffer ----------------------------------------------------- */

struct text {
	char *p;
	size_t size, len;
};

static void __printf(2, 3) put(struct text *t, const char *fmt, ...)
{
	va_list ap;

	if (t->len + 1 >= t->size)
		return;
	va_start(ap, fmt);
	int n = kvsnprintf(t->p + t->len, t->size - t->len, fmt, ap);
	va_end(ap);
	t->len = MIN(t->len + (size_t)n, t->size - 1);
}

static void
put_char_escaped(struct text *t, unsigned char c)
{
	static const char escapes[] = { ['\n'] = 'n', ['\t'] = 't', ['\r'] = 'r', ['\v'] = 'v',
					['\f'] = 'f', ['"'] = '"',  ['\\'] = '\\' };

	if (c < sizeof(escapes) && escapes[c])
		put(t, "\\%c", escapes[c]);
	else if (c < 0x20 || c >= 0x7f)
		put(t, "\\%o", c);
	else
		put(t, "%c", c);
}

/* n bytes as a quoted string; "..." after it when more were there. */
static void
put_quoted(struct text *t, const char *bytes, size_t n, bool more)
{
	put(t, "\"");
	for (size_t i = 0; i < n; i++)
		put_char_escaped(t, (unsigned char)bytes[i]);
	put(t, more ? "\"..." : "\"");
}

static void
put_pointer(struct text *t, u64 v)
{
	if (v)
		put(t, "%#lx", v);
	else
		put(t, "NULL");
}

static void
put_user_bytes(struct text *t, u64 addr, u64 count)
{
	char buf[STRING_MAX];
	size_t n = MIN(count, sizeof(buf));

	if (copy_from_user(buf, (const void __user *)addr, n))
		put_pointer(t, addr);
	else
		put_quoted(t, buf, n, count > n);
}

static void
put_user_string(struct text *t, u64 addr)
{
	char buf[STRING_MAX + 1];

	if (!addr) {
		put(t, "NULL");
		return;
	}
	long len = strncpy_from_user(buf, (const char __user *)addr, sizeof(buf));
	if (len == -EFAULT)
		put_pointer(t, addr);
	else
		put_quoted(t, buf, len < 0 ? STRING_MAX : (size_t)len, len < 0);
}

static void
put_user_argv(struct text *t, u64 addr)
{
	u64 entry;
	int i;

	if (!addr) {
		put(t, "NULL");
		return;
	}
	put(t, "[");
	for (i = 0; i < ARGV_MAX; i++) {
		if (copy_from_user(&entry, (const void __user *)(addr + 8 * i), sizeof(entry))) {
			put(t, "%s%#lx", i ? ", " : "", addr + 8 * i);
			break;
		}
		if (!entry)
			break;
		if (i)
			put(t, ", ");
		put_user_string(t, entry);
	}
	put(t, i == ARGV_MAX ? ", ...]" : "]");
}

static const char *
name_of(const struct name_table *nt, u64 v)
{
	for (size_t i = 0; i < nt->count; i++)
		if (nt->names[i].value == v)
			return nt->names[i].name;
	return NULL;
}

/* Bits by name joined with '|', what is left in hex; 0 as the table says. */
static void
put_flags(struct text *t, const struct name_table *nt, u64 v, bool first)
{
	if (!v) {
		if (first)
			put(t, "%s", nt->zero ? nt->zero : "0");
		return;
	}
	for (size_t i = 0; i < nt->count; i++) {
		u64 bit = nt->names[i].value;
		if (bit && (v & bit) == bit) {
			put(t, "%s%s", first ? "" : "|", nt->names[i].name);
			first = false;
			v &= ~bit;
		}
	}
	if (v)
		put(t, "%s%#lx", first ? "" : "|", v);
}

static void
put_value(struct text *t, const struct name_table *nt, u64 v)
{
	const char *name = name_of(nt, v);

	if (name)
		put(t, "%s", name);
	else
		put(t, nt->hex ? "%#lx" : "%ld", (long)v);
}

static void
put_open_flags(struct text *t, u64 v)
{
	put_value(t, &open_access_table, v & O_ACCMODE);
	put_flags(t, &open_table, v & ~(u64)O_ACCMODE, false);
}

static void
put_futex_op(struct text *t, u64 v)
{
	u64 flags = FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME;

	put_value(t, &futex_op_table, v & ~flags);
	put_flags(t, &futex_flag_table, v & flags, false);
}

/* The exit signal of clone lives in the low byte, beside the flags. */
static void
put_clone_flags(struct text *t, const struct name_table *nt, u64 v)
{
	u64 sig = v & CSIGNAL;

	put_flags(t, nt, v & ~(u64)CSIGNAL, true);
	if (sig) {
		put(t, "|");
		put_value(t, &signal_table, sig);
	}
}

/* ---- one call ------------------------------------------------------------------------------------ */

struct traced_call {
	const struct syscall_entry *entry; /* NULL: a call rewind lacks */
	u64 args[6];
	enum arg_kind kinds[6];
	const struct name_table *names[6];
	char text[6][ARG_TEXT];
};

static void
format_arg(struct traced_call *c, int i, long result)
{
	struct text t = { c->text[i], sizeof(c->text[i]), 0 };
	u64 v = c->args[i];

	switch (c->kinds[i]) {
	case ARG_INT:
		put(&t, "%d", (int)v);
		break;
	case ARG_SIGNED:
		put(&t, "%ld", (long)v);
		break;
	case ARG_UNSIGNED:
		put(&t, "%lu", v);
		break;
	case ARG_HEX:
		put(&t, "%#lx", v);
		break;
	case ARG_OCTAL:
		put(&t, "%#lo", v);
		break;
	case ARG_POINTER:
		put_pointer(&t, v);
		break;
	case ARG_STRING:
		put_user_string(&t, v);
		break;
	case ARG_BUF_IN:
		put_user_bytes(&t, v, i + 1 < (int)c->entry->nargs ? c->args[i + 1] : 0);
		break;
	case ARG_BUF_OUT:
		if (result > 0)
			put_user_bytes(&t, v, (u64)result);
		else
			put_pointer(&t, v);
		break;
	case ARG_ARGV:
		put_user_argv(&t, v);
		break;
	case ARG_DIRFD:
		if ((int)v == AT_FDCWD)
			put(&t, "AT_FDCWD");
		else
			put(&t, "%d", (int)v);
		break;
	case ARG_FLAGS:
		put_flags(&t, c->names[i], v, true);
		break;
	case ARG_VALUE:
		put_value(&t, c->names[i], v);
		break;
	case ARG_OPEN_FLAGS:
		put_open_flags(&t, v);
		break;
	case ARG_CLONE_FLAGS:
		put_clone_flags(&t, c->names[i], v);
		break;
	case ARG_FUTEX_OP:
		put_futex_op(&t, v);
		break;
	}
}

/* What the call will overwrite is shown after it; everything else now, before memory changes. */
static void
capture_inputs(struct traced_call *c, const struct trap_frame *f)
{
	const u64 regs[6] = { f->rdi, f->rsi, f->rdx, f->r10, f->r8, f->r9 };

	c->entry = syscall_lookup(f->rax);
	memcpy(c->args, regs, sizeof(regs));
	for (unsigned i = 0; c->entry && i < c->entry->nargs; i++) {
		c->kinds[i] = kind_of(c->entry->name, &c->entry->args[i], &c->names[i]);
		if (c->kinds[i] != ARG_BUF_OUT)
			format_arg(c, i, 0);
	}
}

static void
capture_outputs(struct traced_call *c, long result)
{
	for (unsigned i = 0; c->entry && i < c->entry->nargs; i++)
		if (c->kinds[i] == ARG_BUF_OUT)
			format_arg(c, i, result);
}

static bool
is_error(long result)
{
	return result < 0 && result >= -4095;
}

/* Calls whose result is an address, shown in hex as strace does. */
static bool
returns_address(u64 nr)
{
	return nr == __NR_mmap || nr == __NR_brk;
}

static void
put_result(struct text *t, u64 nr, long result)
{
	if (!is_error(result)) {
		put(t, returns_address(nr) ? " = %#lx" : " = %ld", result);
		return;
	}
	long e = -result;
	const char *name = e < (long)ARRAY_SIZE(errno_names) ? errno_names[e] : NULL;
	if (name)
		put(t, " = -1 %s", name);
	else if (e == ERESTARTSYS) /* the kernel's own, never seen by the program: strace's words */
		put(t, " = ? ERESTARTSYS (To be restarted if SA_RESTART is set)");
	else if (e == ERESTARTNOHAND)
		put(t, " = ? ERESTARTNOHAND (To be restarted if no handler)");
	else
		put(t, " = -1 (errno %ld)", e);
}

static void
print_call(const struct traced_call *c, u64 nr, const char *result_text)
{
	char line[LINE_TEXT];
	struct text t = { line, sizeof(line), 0 };
	const char *name = syscall_name(nr);

	put(&t, "[pid %d] ", current()->pid);
	if (name)
		put(&t, "%s(", name);
	else
		put(&t, "syscall_%lu(", nr);
	if (c->entry)
		for (unsigned i = 0; i < c->entry->nargs; i++)
			put(&t, "%s%s", i ? ", " : "", c->text[i]);
	else /* a call rewind lacks: its types are unknown, so the six registers as they were */
		put(&t, "%#lx, %#lx, %#lx, %#lx, %#lx, %#lx", c->args[0], c->args[1], c->args[2],
		    c->args[3], c->args[4], c->args[5]);
	put(&t, ")%s", result_text);
	pr_warn("%s\n", line);
}

static bool
traced(const struct task *t)
{
	int pid = READ_ONCE(strace_pid);

	return t->mm && (!pid || t->tgid == pid);
}

static bool
never_returns(u64 nr)
{
	return nr == __NR_exit || nr == __NR_exit_group;
}

void
strace_syscall(struct trap_frame *f)
{
	int mode = READ_ONCE(strace_mode); /* one read: a change is atomic for this call */
	u64 nr = f->rax;
	struct traced_call c;

	if (mode == STRACE_OFF || !traced(current())) {
		syscall_run(f);
		return;
	}
	capture_inputs(&c, f);
	if (never_returns(nr) && mode == STRACE_ALL)
		print_call(&c, nr, " = ?");
	u64 start = rdtsc();
	syscall_run(f);
	u64 ns = tsc_cycles_to_ns(rdtsc() - start);
	long result = (long)f->rax;
	if (mode == STRACE_FAILED && !is_error(result))
		return;
	capture_outputs(&c, result);

	char result_text[80];
	struct text t = { result_text, sizeof(result_text), 0 };
	put_result(&t, nr, result);
	put(&t, " <%lu.%06lu>", ns / 1000000000, ns / 1000 % 1000000);
	print_call(&c, nr, result_text);
}
