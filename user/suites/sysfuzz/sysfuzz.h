/*
 * sysfuzz.h - what the parts of the system-call fuzzer share.
 *
 * The fuzzer (main.c) runs workers, each a process that makes random
 * system calls with typed random arguments (args.c) from the kernel's own
 * list of calls and argument types (/proc/syscalls, read by calls.c). The
 * kernel must survive everything: no panic, no hang, no lockdebug report.
 * A worker may die of what it did to itself (it unmapped its own stack,
 * set a garbage TLS base ...); the parent starts another.
 */
#ifndef SYSFUZZ_H
#define SYSFUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MAX_CALLS 512
#define MAX_ARGS  6

/* How an argument is made, from its C type and name as the kernel defines it. */
enum arg_kind {
	ARG_INT,     /* any integer: boundaries, small, random */
	ARG_SIZE,    /* a length or count */
	ARG_FD,	     /* a descriptor from the pool, or a bad one */
	ARG_PID,     /* this process, a child, or none: never another process */
	ARG_SIGNAL,  /* a signal number, valid or not */
	ARG_FLAGS,   /* random bits, few at a time */
	ARG_PATH,    /* a name in the sandbox, or a bad string */
	ARG_POINTER, /* into a scratch mapping, at its edges, or bad */
	ARG_ADDRESS, /* an address to map, unmap or protect */
	ARG_ARGV,    /* an argv-like array */
	ARG_FCNTL,   /* fcntl's cmd: a real command (F_NOTIFY, F_SETSIG ...) or any integer */
	ARG_FAMILY, /* a socket family: one rewind has (AF_UNIX, AF_INET, AF_INET6, AF_NETLINK) or any integer */
	ARG_IPC_ID,  /* a System V id: one of the first few any storm makes, or any integer */
	ARG_IPC_CMD, /* a *ctl command of System V IPC, or any integer */
	ARG_KEY_TYPE, /* add_key's and request_key's type: a name the kernel has, or a path-like string */
	ARG_KEY_ID,    /* a key's id: a KEY_SPEC_* special keyring, or any integer */
	ARG_SMALL_CMD, /* a command numbered from 0 (keyctl's, syslog's: 0 to 31), or any integer */
	ARG_MEMBARRIER_CMD, /* membarrier's command: 0 or one bit of the ten, or any integer */
	ARG_MADVISE, /* madvise's advice: MADV_NORMAL .. MADV_COLLAPSE (0 to 25), or any integer */
};

struct fuzz_call {
	unsigned nr;
	char name[32];
	unsigned nargs;
	enum arg_kind kinds[MAX_ARGS];
	bool rare; /* made one time in eight it is picked: it ends or copies the worker */
};

/* Reads /proc/syscalls into calls[], leaving out what may not be called; returns the count. */
int load_calls(struct fuzz_call *calls, int max);

/* A 64-bit xorshift*: the whole run follows from the seed. */
struct rng {
	uint64_t state;
};
uint64_t rng_next(struct rng *r);
/* A number below n (n > 0). */
uint64_t rng_below(struct rng *r, uint64_t n);

/* The worker's world: a sandbox directory, scratch memory, a pool of open descriptors. */
void worker_setup(const char *sandbox, struct rng *r);
/* One argument of kind k. */
uint64_t make_arg(enum arg_kind k, struct rng *r);

/* Makes the fuzzer the reaper of every orphan below it (strays.c); false if it cannot be. */
bool adopt_strays(void);
/* Kills and reaps every child left after the storm: how many were reaped, -1 if some lived give_up_s. */
int end_strays(int give_up_s);
/* Whether a process of uid is alive; found gets the first one, described. */
bool find_users_process(unsigned uid, char *found, size_t size);

/*
 * A worker's report to the parent, one word in memory they share: its call
 * count (below 2^32) and a seal over it made with a key the parent chose
 * for that worker (report.c). The word is within the reach of the worker's
 * own fuzzed calls - an mprotect of a length past its scratch memory opens
 * the guard page there, after which an oversized read into scratch runs on
 * into the mappings above, the shared one among them; an mremap or a
 * MAP_FIXED mmap may land on it - so the parent believes no word whose
 * seal is wrong, and what a call writes over it does not carry a right one.
 */
uint64_t seal_report(uint32_t calls, uint64_t key);
/* The count report carries, or -1 when its seal is not key's. */
int64_t open_report(uint64_t report, uint64_t key);

#endif
