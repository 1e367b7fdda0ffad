/*
 * args.c - sysfuzz: the worker's world and the arguments made in it.
 *
 * Each kind of argument mixes values a correct program would pass with the
 * edges where kernels break: descriptors from a pool of open files, pipes
 * and directories, next to closed and absurd ones; pointers into scratch
 * memory, at its last bytes before a PROT_NONE guard, into a read-only page
 * (for what the kernel writes), at NULL, non-canonical and kernel
 * addresses; sizes at 0, at page boundaries and at the width limits; paths
 * in the worker's sandbox, too long, unterminated before a guard page, or
 * pointing nowhere. Paths stay in the sandbox (or /proc, which the kernel
 * must defend itself): a worker can neither wreck the files the next one
 * needs nor leave files where the leak check after the storm would count
 * them (no "/" or "..", so that even a directory fd it opens is inside).
 * A pointer into scratch memory can still name a path outside, when the
 * kernel wrote one there (getcwd's): main.c removes such strays.
 */
#define _GNU_SOURCE
#include "sysfuzz.h"
#include "uapi/userfaultfd.h" /* musl has no <linux/userfaultfd.h> */

#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/fanotify.h>
#include <sys/inotify.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define PAGE	     4096
#define SCRATCH_SIZE (16 * PAGE)
#define NFDS	     20
#define NPATHS	     24

static int fds[NFDS];
static char *scratch;	    /* SCRATCH_SIZE bytes, read-write, random contents */
static char *guard;	    /* the PROT_NONE page right after scratch */
static char *readonly;	    /* a page the kernel may read but not write */
static char *paths[NPATHS]; /* NUL-terminated, in scratch-independent memory */
static char *unterminated;  /* a string that runs into the guard page */
static uint64_t argv_arrays[2];

/* Values no user pointer may take. */
static const uint64_t bad_pointers[] = {
	0,		       /* NULL */
	PAGE,		       /* below every mapping */
	0x00007ffffffff000ull, /* the last canonical page, past user space (TASK_SIZE_MAX) */
	0x0000800000000000ull, /* the first non-canonical address */
	0x8000000000000000ull, /* non-canonical, high */
	0xffff800000000000ull, /* the kernel's direct map */
	0xffffffff80000000ull, /* the kernel's text */
	0xffffffffff600000ull, /* the legacy vsyscall page */
	0xffffffffffffffffull,
};

uint64_t
rng_next(struct rng *r)
{
	r->state ^= r->state >> 12;
	r->state ^= r->state << 25;
	r->state ^= r->state >> 27;
	return r->state * 0x2545f4914f6cdd1dull;
}

uint64_t
rng_below(struct rng *r, uint64_t n)
{
	return rng_next(r) % n;
}

static uint64_t
pick(struct rng *r, const uint64_t *values, size_t n)
{
	return values[rng_below(r, n)];
}

#define PICK(r, ...) \
	pick(r, (const uint64_t[]){ __VA_ARGS__ }, sizeof((const uint64_t[]){ __VA_ARGS__ }) / 8)

static char *
map_pages(size_t n, int prot)
{
	void *p = mmap(NULL, n * PAGE, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

static void
setup_memory(struct rng *r)
{
	/* scratch, then its guard page: one mapping, the last page made inaccessible */
	scratch = map_pages(SCRATCH_SIZE / PAGE + 1, PROT_READ | PROT_WRITE);
	if (!scratch)
		_exit(3);
	guard = scratch + SCRATCH_SIZE;
	mprotect(guard, PAGE, PROT_NONE);
	for (size_t i = 0; i < SCRATCH_SIZE / 8; i++)
		((uint64_t *)scratch)[i] = rng_next(r);
	readonly = map_pages(1, PROT_READ);
	unterminated = guard - 16;
	memset(unterminated, 'x', 16);
}

static void
setup_paths(const char *sandbox)
{
	static const char *const names[] = {
		"f0",
		"f1",
		"f2",
		"d0",
		"d1",
		"d0/f3",
		"d0/d2",
		"d1/f4",
		".",
		"d0/..",
		"",
		"/proc",
		"/proc/self/maps",
		"/proc/meminfo",
		"/proc/sys/rewind/hz",
		"nonexistent/f5",
	};
	static char storage[NPATHS][320];
	size_t n = 0;

	for (; n < sizeof(names) / sizeof(names[0]); n++)
		snprintf(storage[n], sizeof(storage[n]), "%s", names[n]);
	snprintf(storage[n++], sizeof(storage[0]), "%s/f1", sandbox);
	snprintf(storage[n++], sizeof(storage[0]), "%s/d0/../f2", sandbox);
	memset(storage[n], 'n', 300); /* a name longer than NAME_MAX */
	storage[n++][300] = '\0';
	for (size_t i = 0; i < n; i++)
		paths[i] = storage[i];
	for (; n < NPATHS; n++)
		paths[n] = storage[0];
}

/* Adds a loopback TCP listener, a socket connected to it and a UDP socket to the pool at n. */
static int
add_inet_sockets(int n)
{
	struct sockaddr_in lo = { .sin_family = AF_INET,
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct sockaddr_in6 any6 = { .sin6_family = AF_INET6 };
	socklen_t len = sizeof(lo);
	int l = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);

	fds[n++] = l;
	if (bind(l, (struct sockaddr *)&lo, len) == 0 && listen(l, 4) == 0 &&
	    getsockname(l, (struct sockaddr *)&lo, &len) == 0) {
		fds[n] = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
		connect(fds[n++], (struct sockaddr *)&lo, len); /* EINPROGRESS: done meanwhile */
	}
	fds[n] = socket(AF_INET6, SOCK_DGRAM | SOCK_NONBLOCK, 0);
	bind(fds[n++], (struct sockaddr *)&any6, sizeof(any6));
	return n;
}

/*
 * The pool: files, a directory, both ends of a pipe (non-blocking, so reads
 * do not hang), devices, an epoll instance, an eventfd, an inotify instance
 * and (for root) a fanotify group watching the worker's directory (so
 * every call there makes events) and
 * both ends of an AF_UNIX stream socket pair (non-blocking too), for the
 * socket calls, loopback TCP and UDP sockets (a listener, one connected to
 * it, an IPv6 datagram socket), a pidfd of the worker itself
 * (pidfd_send_signal may reach nothing else), and a userfaultfd
 * (non-blocking; user mode only, all nobody may have). A fuzzed ioctl
 * almost never registers the worker's own memory with it (UFFDIO_API, then
 * UFFDIO_REGISTER with a valid range); if one did, the worker's next fault
 * there would sleep like a hung call, and a signal ends that sleep: the
 * parent's SIGKILL replaces it as any hung worker.
 */
static void
setup_fds(void)
{
	int pipefd[2] = { -1, -1 };
	int n = 0;

	fds[n++] = open("f0", O_RDWR | O_CREAT, 0644);
	fds[n++] = open("f1", O_RDWR | O_CREAT | O_APPEND, 0644);
	fds[n++] = open(".", O_RDONLY | O_DIRECTORY);
	if (pipe2(pipefd, O_NONBLOCK) == 0) {
		fds[n++] = pipefd[0];
		fds[n++] = pipefd[1];
	}
	fds[n++] = open("/dev/null", O_RDWR);
	fds[n++] = open("/dev/zero", O_RDONLY);
	fds[n++] = open("/proc/self/status", O_RDONLY);
	fds[n++] = epoll_create1(0);
	fds[n++] = eventfd(1, EFD_NONBLOCK);
	fds[n] = inotify_init1(IN_NONBLOCK);
	inotify_add_watch(fds[n++], ".", IN_ALL_EVENTS);
	fds[n] = fanotify_init(FAN_CLASS_NOTIF | FAN_NONBLOCK, O_RDONLY); /* root's workers only */
	fanotify_mark(fds[n++], FAN_MARK_ADD,
		      FAN_OPEN | FAN_CLOSE | FAN_MODIFY | FAN_EVENT_ON_CHILD, AT_FDCWD, ".");
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, sv) == 0) {
		fds[n++] = sv[0];
		fds[n++] = sv[1];
	}
	n = add_inet_sockets(n);
	fds[n++] = syscall(SYS_pidfd_open, getpid(), O_NONBLOCK);
	fds[n++] = syscall(SYS_userfaultfd, O_NONBLOCK | UFFD_USER_MODE_ONLY);
	while (n < NFDS)
		fds[n++] = -1;
	write(fds[0], "sysfuzz", 7);
}

/*
 * Files the worker writes stay small: sendfile from /dev/zero would
 * otherwise fill memory with one call, and leave the kernel unable to fork
 * or write for the checks that follow the storm. EFBIG, not SIGXFSZ.
 */
static void
limit_file_size(void)
{
	struct rlimit fsize = { 16 << 20, 16 << 20 };

	setrlimit(RLIMIT_FSIZE, &fsize);
	signal(SIGXFSZ, SIG_IGN);
}

void
worker_setup(const char *sandbox, struct rng *r)
{
	limit_file_size();
	/* A file it owns in O_ASYNC mode, or a directory it asked F_NOTIFY of, must not end it. */
	signal(SIGIO, SIG_IGN);
	mkdir("d0", 0755);
	mkdir("d1", 0755);
	setup_memory(r);
	setup_paths(sandbox);
	setup_fds();
	argv_arrays[0] = (uint64_t)(uintptr_t)paths[0];
	argv_arrays[1] = 0;
}

static uint64_t
make_int(struct rng *r)
{
	switch (rng_below(r, 6)) {
	case 0:
		return PICK(r, 0, 1, 2, (uint64_t)-1, INT_MAX, (uint64_t)INT_MIN, UINT_MAX);
	case 1:
		return rng_below(r, 16);
	case 2:
		return rng_below(r, 4096);
	case 3:
		return (uint32_t)rng_next(r);
	default:
		return rng_next(r);
	}
}

static uint64_t
make_size(struct rng *r)
{
	switch (rng_below(r, 4)) {
	case 0:
		return PICK(r, 0, 1, 7, 8, PAGE - 1, PAGE, PAGE + 1, SCRATCH_SIZE, SCRATCH_SIZE + 1,
			    1ull << 20, 1ull << 31, (1ull << 32) + 1, (uint64_t)-1,
			    (uint64_t)-4096);
	case 1:
		return rng_below(r, 64);
	case 2:
		return rng_below(r, SCRATCH_SIZE);
	default:
		return rng_next(r) >> rng_below(r, 64);
	}
}

static uint64_t
make_fd(struct rng *r)
{
	if (rng_below(r, 4))
		return (uint64_t)(int64_t)fds[rng_below(r, NFDS)];
	return PICK(r, (uint64_t)-1, (uint64_t)-100 /* AT_FDCWD */, 3, 255, 1023, 1024, 65536,
		    INT_MAX, (uint64_t)INT_MIN);
}

/* Only this worker and what cannot exist: a kill must never reach init or the fuzzer itself. */
static uint64_t
make_pid(struct rng *r)
{
	return PICK(r, (uint64_t)getpid(), (uint64_t)gettid(), 999999, (uint64_t)-999999,
		    (uint64_t)INT_MIN, INT_MAX);
}

static uint64_t
make_signal(struct rng *r)
{
	/* SIGKILL and SIGSTOP rarely: each ends the worker's useful life */
	uint64_t sig = rng_below(r, 70);

	return (sig == SIGKILL || sig == SIGSTOP) && rng_below(r, 8) ? SIGUSR1 : sig;
}

/* Half the time a command fcntl has, so that its rarer ones (F_NOTIFY is 1026) are reached. */
static uint64_t
make_fcntl_cmd(struct rng *r)
{
	if (rng_below(r, 2))
		return make_int(r);
	return PICK(r, F_DUPFD, F_GETFL, F_SETFL, F_SETOWN, F_GETOWN, F_SETSIG, F_GETSIG,
		    F_SETOWN_EX, F_GETOWN_EX, F_SETLK, F_OFD_SETLK, F_SETLEASE, F_NOTIFY,
		    F_SETPIPE_SZ, F_ADD_SEALS);
}

/* Half the time a family rewind builds, so that socket reaches each family's code. */
static uint64_t
make_family(struct rng *r)
{
	if (rng_below(r, 2))
		return make_int(r);
	return PICK(r, AF_UNIX, AF_INET, AF_INET6, AF_NETLINK);
}

/* Half the time QUERY or one command bit (registrations, then the barriers they allow). */
static uint64_t
make_membarrier_cmd(struct rng *r)
{
	if (rng_below(r, 2))
		return make_int(r);
	unsigned bit = rng_below(r, 11);
	return bit == 10 ? 0 : 1u << bit;
}

/* Ids are the slot plus the sequence number << 15: the low slots of the first sequences are likely live. */
static uint64_t
make_ipc_id(struct rng *r)
{
	if (rng_below(r, 4) == 0)
		return make_int(r);
	return (rng_below(r, 4) << 15) + rng_below(r, 8);
}

/* Half the time a command the *ctl calls have (IPC_RMID is 0, the kinds' own reach 20). */
static uint64_t
make_ipc_cmd(struct rng *r)
{
	if (rng_below(r, 2))
		return make_int(r);
	return rng_below(r, 21);
}

/* Half the time a type the kernel has (or refuses by its dot), else any string or pointer. */
static uint64_t
make_key_type(struct rng *r)
{
	static const char *const types[] = { "user", "keyring", "logon", ".dead", "big_key" };

	if (rng_below(r, 2))
		return make_arg(ARG_PATH, r);
	return (uint64_t)(uintptr_t)types[rng_below(r, sizeof(types) / sizeof(types[0]))];
}

/* The special ids are -1 to -8; real serials are random, so any integer stands for them. */
static uint64_t
make_key_id(struct rng *r)
{
	if (rng_below(r, 4) == 0)
		return make_int(r);
	return (uint64_t)(int64_t) - (int64_t)(1 + rng_below(r, 8));
}

static uint64_t
make_small_cmd(struct rng *r)
{
	if (rng_below(r, 4) == 0)
		return make_int(r);
	return rng_below(r, 32);
}

/*
 * Mostly an advice Linux 6.1 knows below 100; MADV_HWPOISON and
 * MADV_SOFT_OFFLINE only by chance: each takes frames out of use for good,
 * which a long run as root would turn into running out of memory.
 */
static uint64_t
make_madvise(struct rng *r)
{
	if (rng_below(r, 4) == 0)
		return make_int(r);
	return rng_below(r, 26);
}

static uint64_t
make_flags(struct rng *r)
{
	uint64_t f = 0;

	switch (rng_below(r, 4)) {
	case 0:
		return rng_below(r, 16);
	case 1:
		return (uint32_t)rng_next(r);
	default:
		for (uint64_t n = rng_below(r, 4); n; n--)
			f |= 1ull << rng_below(r, 32);
		return f;
	}
}

static uint64_t
make_pointer(struct rng *r)
{
	switch (rng_below(r, 8)) {
	case 0:
		return pick(r, bad_pointers, sizeof(bad_pointers) / sizeof(bad_pointers[0]));
	case 1: /* the last bytes before the guard page */
		return (uint64_t)(uintptr_t)(guard - 1 - rng_below(r, 64));
	case 2:
		return (uint64_t)(uintptr_t)readonly;
	case 3:
		return (uint64_t)(uintptr_t)guard;
	default:
		return (uint64_t)(uintptr_t)(scratch + rng_below(r, SCRATCH_SIZE));
	}
}

static uint64_t
make_address(struct rng *r)
{
	switch (rng_below(r, 6)) {
	case 0:
		return pick(r, bad_pointers, sizeof(bad_pointers) / sizeof(bad_pointers[0]));
	case 1: /* a page of the scratch area: unmapping or protecting it hurts only this worker */
		return (uint64_t)(uintptr_t)(scratch + PAGE * rng_below(r, SCRATCH_SIZE / PAGE));
	case 2:
		return (uint64_t)(uintptr_t)scratch + rng_below(r, PAGE); /* unaligned */
	case 3:
		return 0;
	default: /* somewhere in the user half, page-aligned */
		return (rng_next(r) & 0x00007ffffffff000ull);
	}
}

static uint64_t
make_path(struct rng *r)
{
	switch (rng_below(r, 10)) {
	case 0:
		return pick(r, bad_pointers, sizeof(bad_pointers) / sizeof(bad_pointers[0]));
	case 1:
		return (uint64_t)(uintptr_t)unterminated;
	default:
		return (uint64_t)(uintptr_t)paths[rng_below(r, NPATHS)];
	}
}

static uint64_t
make_argv(struct rng *r)
{
	if (rng_below(r, 2))
		return (uint64_t)(uintptr_t)argv_arrays;
	return make_pointer(r);
}

uint64_t
make_arg(enum arg_kind k, struct rng *r)
{
	switch (k) {
	case ARG_SIZE:
		return make_size(r);
	case ARG_FD:
		return make_fd(r);
	case ARG_PID:
		return make_pid(r);
	case ARG_SIGNAL:
		return make_signal(r);
	case ARG_FLAGS:
		return make_flags(r);
	case ARG_PATH:
		return make_path(r);
	case ARG_POINTER:
		return make_pointer(r);
	case ARG_ADDRESS:
		return make_address(r);
	case ARG_ARGV:
		return make_argv(r);
	case ARG_FCNTL:
		return make_fcntl_cmd(r);
	case ARG_FAMILY:
		return make_family(r);
	case ARG_IPC_ID:
		return make_ipc_id(r);
	case ARG_IPC_CMD:
		return make_ipc_cmd(r);
	case ARG_KEY_TYPE:
		return make_key_type(r);
	case ARG_KEY_ID:
		return make_key_id(r);
	case ARG_SMALL_CMD:
		return make_small_cmd(r);
	case ARG_MEMBARRIER_CMD:
		return make_membarrier_cmd(r);
	case ARG_MADVISE:
		return make_madvise(r);
	case ARG_INT:
		break;
	}
	return make_int(r);
}
