/*
 * calls.c - sysfuzz: which system calls to make, and how to make each
 * argument, from the kernel's own definitions (/proc/syscalls: number,
 * name, and each argument's C type and name).
 *
 * A few calls are never made because they would reach outside the worker,
 * not because the kernel must not survive them: reboot would end the run,
 * and execve of a real program would replace the worker with something
 * that is not fuzzing. Everything else is fair; the argument kinds keep
 * signals and kills aimed at the worker itself (ARG_PID).
 */
#include "sysfuzz.h"

#include <stdio.h>
#include <string.h>

static const char *const never_called[] = {
	"reboot",	  /* ends the machine, not a bug */
	"rt_sigreturn",	  /* only a crash of the worker, every time */
	"pause",	  /* sleeps until the watchdog: no call tested */
	"rt_sigsuspend",  /* the same */
	"vfork",	  /* shares the worker's memory with a child that runs on */
	"clone",	  /* the same with CLONE_VM; fork covers the rest */
	"set_tid_address" /* a garbage clear-tid address breaks the worker's exit only */
};

/* Calls that end or copy the worker: each is worth testing, but not every few calls. */
static const char *const seldom_called[] = { "exit", "exit_group", "fork", "execve" };

static bool
listed(const char *name, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(name, list[i]) == 0)
			return true;
	return false;
}

static bool
refused(const char *name)
{
	return listed(name, never_called, sizeof(never_called) / sizeof(never_called[0]));
}

static bool
has(const char *s, const char *word)
{
	return strstr(s, word) != NULL;
}

static bool
ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);

	return n >= t && strcmp(s + n - t, tail) == 0;
}

/* shmget, msgsnd, semctl ...: the System V IPC calls, whose ids and commands have kinds of their own. */
static bool
is_sysv(const char *call)
{
	return strncmp(call, "shm", 3) == 0 || strncmp(call, "msg", 3) == 0 ||
	       strncmp(call, "sem", 3) == 0;
}

/* add_key, request_key, keyctl: the key retention service, whose ids and commands have kinds of their own. */
static bool
is_key_call(const char *call)
{
	return strcmp(call, "add_key") == 0 || strcmp(call, "request_key") == 0 ||
	       strcmp(call, "keyctl") == 0;
}

static enum arg_kind
key_kind_of(const char *call, const char *name)
{
	if (strcmp(name, "utype") == 0)
		return ARG_KEY_TYPE;
	if (strcmp(name, "ringid") == 0 || strcmp(name, "destid") == 0 ||
	    (strcmp(call, "keyctl") == 0 && strcmp(name, "arg2") == 0))
		return ARG_KEY_ID;
	if (strcmp(call, "keyctl") == 0 && strcmp(name, "cmd") == 0)
		return ARG_SMALL_CMD;
	return ARG_INT; /* not the key calls' own: the usual rules */
}

/* From the argument's name first (it says what the value means), then its type. */
static enum arg_kind
kind_of(const char *call, const char *type, const char *name)
{
	if (ends_with(name, "fd") || strcmp(name, "mqdes") == 0) /* fd, epfd, a queue's ... */
		return ARG_FD;
	if (strcmp(name, "pid") == 0 || strcmp(name, "tid") == 0 || strcmp(name, "tgid") == 0 ||
	    strcmp(name, "pid1") == 0 || strcmp(name, "pid2") == 0) /* kcmp's */
		return ARG_PID;
	if (strcmp(name, "who") == 0) /* getpriority's, ioprio_set's: a pid with PRIO_PROCESS */
		return ARG_PID;
	if (strcmp(name, "sig") == 0)
		return ARG_SIGNAL;
	if (strcmp(call, "fcntl") == 0 && strcmp(name, "cmd") == 0)
		return ARG_FCNTL;
	if (strcmp(call, "membarrier") == 0 && strcmp(name, "cmd") == 0)
		return ARG_MEMBARRIER_CMD;
	if (strcmp(name, "family") == 0) /* socket, socketpair */
		return ARG_FAMILY;
	if (is_sysv(call) && strcmp(name, "id") == 0)
		return ARG_IPC_ID;
	if (is_sysv(call) && strcmp(name, "cmd") == 0)
		return ARG_IPC_CMD;
	if (is_key_call(call) && key_kind_of(call, name) != ARG_INT)
		return key_kind_of(call, name);
	if (strcmp(call, "syslog") == 0 && strcmp(name, "action") == 0)
		return ARG_SMALL_CMD; /* SYSLOG_ACTION_*, 0 to 10 */
	if (strcmp(call, "fanotify_mark") == 0 && strcmp(name, "mask") == 0)
		return ARG_FLAGS; /* FAN_* event bits, few at a time */
	if (strcmp(call, "io_uring_register") == 0 && strcmp(name, "opcode") == 0)
		return ARG_SMALL_CMD; /* IORING_REGISTER_*, 0 to 27 */
	if (strcmp(call, "semctl") == 0 && strcmp(name, "arg") == 0)
		return ARG_POINTER; /* union semun: mostly a buffer, sometimes SETVAL's number */
	if (has(name, "flags") || strcmp(name, "oflag") == 0 || strcmp(name, "prot") == 0 ||
	    strcmp(name, "mode") == 0 || strcmp(name, "op") == 0 ||
	    strcmp(name, "operation") == 0 || /* flock's LOCK_* */
	    strcmp(name, "options") == 0 || strcmp(name, "how") == 0 ||
	    strcmp(name, "nstype") == 0) /* setns's: a CLONE_NEW* bit or 0 */
		return ARG_FLAGS;
	if (has(type, "*const") && has(type, "*"))
		return ARG_ARGV;
	if (has(type, "const char") && has(type, "*") && !has(name, "buf"))
		return ARG_PATH;
	if (has(type, "*"))
		return ARG_POINTER;
	if (has(call, "madvise") && strcmp(name, "advice") == 0)
		return ARG_MADVISE;
	/* madvise's, msync's, remap_file_pages's start: an address like mmap's addr. */
	if (has(name, "addr") || strcmp(name, "start") == 0 || strcmp(call, "brk") == 0)
		return ARG_ADDRESS;
	if (has(name, "len") || has(name, "size") || has(name, "count") || strcmp(name, "n") == 0 ||
	    strcmp(name, "nr_futexes") == 0 || has(name, "maxevents") || has(type, "size_t") ||
	    has(name, "entries") || strcmp(name, "to_submit") == 0 || /* io_uring's ring sizes */
	    strcmp(name, "min_complete") == 0 || strcmp(name, "nr_args") == 0)
		return ARG_SIZE;
	return ARG_INT;
}

/* One line: "NR<tab>NAME<tab>TYPE NAME<tab>...". */
static bool
parse_line(char *line, struct fuzz_call *c)
{
	char *field = strtok(line, "\t\n");

	if (!field || sscanf(field, "%u", &c->nr) != 1)
		return false;
	field = strtok(NULL, "\t\n");
	if (!field)
		return false;
	snprintf(c->name, sizeof(c->name), "%s", field);
	c->nargs = 0;
	while ((field = strtok(NULL, "\t\n")) && c->nargs < MAX_ARGS) {
		char *space = strrchr(field, ' '); /* the name follows the last space */
		if (!space)
			return false;
		*space = '\0';
		c->kinds[c->nargs++] = kind_of(c->name, field, space + 1);
	}
	return true;
}

int
load_calls(struct fuzz_call *calls, int max)
{
	FILE *f = fopen("/proc/syscalls", "r");
	char line[512];
	int n = 0;

	if (!f)
		return -1;
	while (n < max && fgets(line, sizeof(line), f)) {
		struct fuzz_call c;
		if (!parse_line(line, &c) || refused(c.name))
			continue;
		c.rare = listed(c.name, seldom_called,
				sizeof(seldom_called) / sizeof(seldom_called[0]));
		calls[n++] = c;
	}
	fclose(f);
	return n;
}
