/*
 * main.c - sysfuzz, rewind's system-call fuzzer: random calls with typed
 * random arguments, from workers the parent watches and replaces.
 *
 *	sysfuzz [-s SEED] [-n CALLS] [-w WORKERS] [-H HANG_MS] [-c CALL,CALL...] [-v]
 *
 * The parent forks WORKERS processes; each makes calls until its share of
 * CALLS is done, then exits. A worker that dies (of a signal it brought on
 * itself) or stops making progress for HANG_MS (a call that sleeps; the
 * parent then sends SIGKILL) is replaced by a new one - at once: the
 * parent waits for SIGCHLD, not for its next look - whose seed follows
 * from SEED, the worker's slot and its generation - so a run is repeated
 * by its seed, printed first. HANG_MS is 200 by default: a sleeper is
 * killed (the path a hang tests) rather than waited on, since at 1 s the
 * sleepers kept a worker's slot empty for ~40% of a storm. Time in which
 * the parent itself could not look (the host did not run the machine)
 * counts towards neither a hang nor the 30 s below. Each worker counts its
 * calls in memory shared with the parent, sealed with a key the parent
 * chose for it (sysfuzz.h, report.c), and records the call it is in, which
 * names a hang. That memory is the worker's to wreck like any other: a
 * count whose seal does not open is taken for the worker's death by its own
 * calls, and the slot goes on from the last count that did.
 *
 * Started as root, the workers become user and group nobody (65534), each
 * in a sandbox directory made afresh for it and owned by it: the storm is
 * what any user can do to the kernel. As root it could unmount /proc,
 * reboot or set the clock - no bug, but the end of the checks after it.
 * The parent stays root, out of the workers' reach, to watch, kill and
 * check.
 *
 * What fails the run: a worker that SIGKILL does not end within 30 s (the
 * kernel left it unkillable), a process the workers left that outlives the
 * clean-up after the storm (strays.c), and checks after the storm that the
 * kernel still forks, writes and reads files and reports memory. A kernel panic or
 * a lockdebug report shows on the console and ends the boot instead. The
 * last line is "sysfuzz: N passed, N failed", for the harness.
 *
 * -c makes only the named calls (with a leak check around it, this finds
 * which call leaks). -v prints each call before it is made: with one worker and the seed of a
 * run that broke the kernel, the last line printed is the culprit.
 */
#define _GNU_SOURCE
#include "sysfuzz.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/file_cleanup.h"
#include "lib/ipc_cleanup.h"

#define MAX_WORKERS  16
#define UNKILLABLE_S 30
#define NOBODY_ID    65534

struct progress {
	volatile uint64_t report;  /* calls made so far in this slot, sealed (seal_report) */
	volatile unsigned current; /* the number of the call it is in: only named, never trusted */
	volatile uint64_t setup_failed; /* ~key: its sandbox, or becoming nobody, failed */
	volatile unsigned setup_step;	/* which step failed (sandbox_steps), only named */
	volatile int setup_errno;	/* and its errno */
};

/* The steps of entering a sandbox, in order: what a failed one is called. */
enum sandbox_step { STEP_MKDIR, STEP_CHOWN, STEP_SETGROUPS, STEP_SETGID, STEP_SETUID, STEP_CHDIR };
static const char *const sandbox_steps[] = { "mkdir",	  "chown",     "setgroups",
					     "setresgid", "setresuid", "chdir" };

struct slot {
	pid_t pid;
	unsigned generation;
	uint64_t key;	      /* the worker's seal key */
	uint32_t calls;	      /* made in this slot, as the last report that opened said */
	uint64_t seen_report; /* at the last look */
	double seen_at;	      /* when that changed */
	double killed_at;     /* SIGKILL sent; 0: not sent */
};

static struct fuzz_call calls[MAX_CALLS];
static int ncalls;
static uint64_t seed;
static long total_calls = 20000;
static int nworkers = 2;
static int hang_ms = 200;
static bool verbose;
static char *only; /* -c: the calls to make, comma-separated */
static char sandbox[128];
static struct progress *progress; /* MAX_WORKERS of them, shared */
static sigset_t worker_mask;	  /* the signal mask the workers start with: the parent's own */

static struct rng keys; /* the workers' seal keys: a run's follow from its seed too */

static struct {
	uint64_t calls, died, hung, restarted, overwritten, fork_failed;
	bool unkillable, setup_failed;
	unsigned unkillable_call;
	unsigned setup_step; /* of the first worker whose setup failed */
	int setup_errno;
} totals;

static double
now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static const char *
call_name(unsigned nr)
{
	for (int i = 0; i < ncalls; i++)
		if (calls[i].nr == nr)
			return calls[i].name;
	return "?";
}

static void
quiet_stdio(void)
{
	int null = open("/dev/null", O_RDWR);

	if (null >= 0) {
		dup2(null, 0);
		if (!verbose)
			dup2(null, 1);
		dup2(null, 2);
		close(null);
	}
}

/* One call with fresh arguments; a fork's child leaves at once, so workers do not multiply. */
static void
one_call(const struct fuzz_call *c, struct rng *r, pid_t self, volatile struct progress *p)
{
	uint64_t a[MAX_ARGS] = { 0 };

	for (unsigned i = 0; i < c->nargs; i++)
		a[i] = make_arg(c->kinds[i], r);
	p->current = c->nr;
	if (verbose) {
		printf("sysfuzz: %s(%#lx, %#lx, %#lx, %#lx, %#lx, %#lx)\n", c->name, a[0], a[1],
		       a[2], a[3], a[4], a[5]);
		fflush(stdout);
	}
	long ret = syscall(c->nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	if (ret == 0 && c->nr == SYS_fork && getpid() != self)
		_exit(0);
}

/* The uid the workers run as: nobody's when started as root. */
static uid_t
worker_uid(void)
{
	return getuid() == 0 ? NOBODY_ID : getuid();
}

/*
 * What the workers made outside their sandboxes. A path argument may point
 * into scratch memory, where the kernel wrote a path of its own (getcwd's,
 * readlink's) and a later call a few bytes over it: "/tmp/\x15" is then a
 * name in /tmp, which nobody may write, and the file stays there after the
 * storm as on any kernel - to a leak check, an inode and a dentry too many.
 * Only when the workers were nobody: a user's own files are not sysfuzz's
 * to remove.
 */
static int
nobodys(const struct stat *st)
{
	return st->st_uid == NOBODY_ID;
}

static void
remove_strays(void)
{
	if (worker_uid() == NOBODY_ID && getuid() == 0)
		remove_matching(nobodys, NULL);
}

/*
 * Into dir, made afresh (the last worker of this slot may have left it
 * unusable, its mode 0, to a worker that is not root), as worker_uid()
 * and owned by it. Returns true, or false with the step that failed in
 * *failed and its errno in errno.
 */
static bool
enter_sandbox(const char *dir, enum sandbox_step *failed)
{
	remove_tree(dir);
	*failed = STEP_MKDIR;
	if (mkdir(dir, 0755) != 0)
		return false;
	if (getuid() == 0) {
		*failed = STEP_CHOWN;
		if (chown(dir, NOBODY_ID, NOBODY_ID) != 0)
			return false;
		*failed = STEP_SETGROUPS;
		if (setgroups(0, NULL) != 0)
			return false;
		*failed = STEP_SETGID;
		if (setresgid(NOBODY_ID, NOBODY_ID, NOBODY_ID) != 0)
			return false;
		*failed = STEP_SETUID;
		if (setresuid(NOBODY_ID, NOBODY_ID, NOBODY_ID) != 0)
			return false;
	}
	*failed = STEP_CHDIR;
	return chdir(dir) == 0;
}

static __attribute__((noreturn)) void
worker(int slot, uint64_t worker_seed, uint64_t key, uint32_t done, uint32_t budget)
{
	struct rng r = { worker_seed | 1 };
	struct progress *p = &progress[slot];
	char dir[160];
	pid_t self = getpid();

	sigprocmask(SIG_SETMASK, &worker_mask, NULL);
	snprintf(dir, sizeof(dir), "%s/w%d", sandbox, slot);
	enum sandbox_step failed;
	if (!enter_sandbox(dir, &failed)) {
		p->setup_step = failed;
		p->setup_errno = errno;
		p->setup_failed = ~key;
		_exit(3);
	}
	quiet_stdio();
	worker_setup(dir, &r);
	while (done < budget) {
		const struct fuzz_call *c = &calls[rng_below(&r, ncalls)];
		if (!c->rare || rng_below(&r, 8) == 0) {
			one_call(c, &r, self, p);
			p->report = seal_report(++done, key);
		}
	}
	while (waitpid(-1, NULL, WNOHANG) > 0) /* what fork left behind */
		;
	_exit(0);
}

static uint32_t
share_of(int slot)
{
	return total_calls / nworkers + (slot < total_calls % nworkers);
}

static void
start(struct slot *s, int slot)
{
	uint64_t worker_seed = seed ^ ((uint64_t)slot << 48) ^ ((uint64_t)s->generation << 32);

	s->key = rng_next(&keys);
	progress[slot].report = seal_report(s->calls, s->key);
	progress[slot].setup_failed = 0;
	s->pid = fork();
	if (s->pid == 0)
		worker(slot, worker_seed, s->key, s->calls, share_of(slot));
	if (s->pid < 0)
		totals.fork_failed++;
	s->seen_report = progress[slot].report;
	s->seen_at = now_s();
	s->killed_at = 0;
	s->generation++;
}

/*
 * Takes the count of the worker's report if its seal opens and it is one
 * the worker can have reached (no fewer than before, no more than its
 * share); false when it is not.
 */
static bool
read_report(struct slot *s, int slot)
{
	int64_t n = open_report(progress[slot].report, s->key);

	if (n < s->calls || n > share_of(slot))
		return false;
	s->calls = (uint32_t)n;
	return true;
}

/* Looks at one worker: reaped, hung, or still going; returns whether its slot is done. */
static bool
watch(struct slot *s, int slot)
{
	int status;
	double t = now_s();

	/*
	 * No worker: fork failed (the tasks were all taken; the strays hold
	 * theirs until the storm ends). Tried again at each look: waited on or
	 * killed, pid -1 would be every child, or every process.
	 */
	if (s->pid < 0) {
		start(s, slot);
		return false;
	}
	if (waitpid(s->pid, &status, WNOHANG) == s->pid) {
		if (WIFSTOPPED(status)) {
			/*
			 * It made the parent its tracer (PTRACE_TRACEME, request 0) and
			 * stopped for it: alive, not ended. Taken for an end, its slot
			 * went to a new worker and it was never killed.
			 */
			if (!s->killed_at) {
				totals.died++;
				kill(s->pid, SIGKILL);
				s->killed_at = t;
			}
			return false;
		}
		if (progress[slot].setup_failed == ~s->key) {
			if (!totals.setup_failed) {
				totals.setup_step = progress[slot].setup_step;
				totals.setup_errno = progress[slot].setup_errno;
			}
			totals.setup_failed = true;
			return true;
		}
		bool overwritten = !read_report(s, slot);
		if (!overwritten && s->calls >= share_of(slot))
			return true;
		if (overwritten)
			totals.overwritten++;
		if ((WIFSIGNALED(status) || overwritten) && !s->killed_at)
			totals.died++;
		totals.restarted++;
		start(s, slot);
		return false;
	}
	if (progress[slot].report != s->seen_report) {
		s->seen_report = progress[slot].report;
		(void)read_report(s, slot); /* a bad one is judged when the worker ends */
		s->seen_at = t;
	} else if (!s->killed_at && (t - s->seen_at) * 1000 > hang_ms) {
		totals.hung++;
		if (verbose)
			printf("sysfuzz: worker %d hung in %s; killing it\n", slot,
			       call_name(progress[slot].current));
		kill(s->pid, SIGKILL);
		s->killed_at = t;
	} else if (s->killed_at && t - s->killed_at > UNKILLABLE_S) {
		totals.unkillable = true;
		totals.unkillable_call = progress[slot].current;
		return true;
	}
	return false;
}

/*
 * Until the next look at the workers: 50 ms, or less when a worker ends
 * (SIGCHLD, blocked in the parent so that it waits here), so that a dead
 * worker's slot is not left empty until then. Returns how long the parent
 * was kept from looking beyond that (over 200 ms: a stretch in which the
 * host did not run this machine, under TCG on a loaded host), else 0.
 */
static double
wait_for_a_look(const sigset_t *chld)
{
	struct timespec tick = { 0, 50 * 1000 * 1000 };
	double before = now_s(), late;

	sigtimedwait(chld, NULL, &tick);
	late = now_s() - before - 0.05;
	return late > 0.2 ? late : 0;
}

/* A stall of the whole machine is no worker's: its hang and kill clocks skip it. */
static void
skip_stall(struct slot *slots, double stall)
{
	for (int i = 0; i < nworkers; i++) {
		slots[i].seen_at += stall;
		if (slots[i].killed_at)
			slots[i].killed_at += stall;
	}
}

static void
storm(void)
{
	struct slot slots[MAX_WORKERS] = { 0 };
	bool done[MAX_WORKERS] = { false };
	int left = nworkers;
	double last_report = now_s();
	sigset_t chld;

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, &worker_mask);
	for (int i = 0; i < nworkers; i++)
		start(&slots[i], i);
	while (left > 0) {
		skip_stall(slots, wait_for_a_look(&chld));
		for (int i = 0; i < nworkers; i++)
			if (!done[i] && watch(&slots[i], i)) {
				done[i] = true;
				left--;
			}
		if (now_s() - last_report > 10) {
			uint64_t sum = 0;
			for (int i = 0; i < nworkers; i++)
				sum += slots[i].calls;
			printf("sysfuzz: %lu of %ld calls\n", sum, total_calls);
			fflush(stdout);
			last_report = now_s();
		}
	}
	for (int i = 0; i < nworkers; i++)
		totals.calls += slots[i].calls;
	sigprocmask(SIG_SETMASK, &worker_mask, NULL);
}

/* After the storm: the kernel must still do the everyday things. */
static const char *
kernel_still_works(void)
{
	char buf[16];
	int status, fd;
	pid_t child = fork();

	if (child == 0)
		_exit(42);
	if (child < 0 || waitpid(child, &status, 0) != child || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 42)
		return "fork and wait no longer work";
	snprintf(buf, sizeof(buf), "%s", "after the storm");
	fd = open("/tmp/sysfuzz.check", O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, buf, 15) != 15 || pread(fd, buf, 15, 0) != 15 ||
	    memcmp(buf, "after the storm", 15) != 0)
		return "files can no longer be written and read back";
	close(fd);
	unlink("/tmp/sysfuzz.check");
	fd = open("/proc/meminfo", O_RDONLY);
	if (fd < 0 || read(fd, buf, sizeof(buf)) <= 0)
		return "/proc/meminfo can no longer be read";
	close(fd);
	return NULL;
}

/* Keeps the calls named in the comma-separated list; returns how many are left. */
static int
keep_only(struct fuzz_call *list, int n, const char *names)
{
	int kept = 0;

	for (int i = 0; i < n; i++) {
		size_t len = strlen(list[i].name);
		for (const char *p = names; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
			if (strncmp(p, list[i].name, len) == 0 &&
			    (p[len] == ',' || p[len] == '\0')) {
				list[kept++] = list[i];
				break;
			}
	}
	return kept;
}

static void
usage(void)
{
	fprintf(stderr,
		"usage: sysfuzz [-s SEED] [-n CALLS] [-w WORKERS (1..%d)] [-H HANG_MS] [-v]\n",
		MAX_WORKERS);
	exit(2);
}

static void
parse_options(int argc, char **argv)
{
	int c;

	seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 20);
	while ((c = getopt(argc, argv, "s:n:w:H:c:v")) != -1) {
		switch (c) {
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		case 'n':
			total_calls = atol(optarg);
			break;
		case 'w':
			nworkers = atoi(optarg);
			break;
		case 'H':
			hang_ms = atoi(optarg);
			break;
		case 'c':
			only = optarg;
			break;
		case 'v':
			verbose = true;
			break;
		default:
			usage();
		}
	}
	/* A worker's report holds a 32-bit count. */
	if (total_calls < 1 || nworkers < 1 || nworkers > MAX_WORKERS || hang_ms < 1 ||
	    total_calls / nworkers >= UINT32_MAX)
		usage();
}

int
main(int argc, char **argv)
{
	parse_options(argc, argv);
	ncalls = load_calls(calls, MAX_CALLS);
	if (only)
		ncalls = keep_only(calls, ncalls, only);
	if (ncalls <= 0) {
		printf("sysfuzz: no calls to make (no /proc/syscalls: it needs rewind; or -c named none)\n"
		       "sysfuzz: 0 passed, 1 failed\n");
		return 1;
	}
	progress = mmap(NULL, sizeof(struct progress) * MAX_WORKERS, PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (progress == MAP_FAILED)
		return 1;
	keys.state = seed ^ 0x6b6579736b657973ull; /* "keyskeys": not the workers' own streams */
	snprintf(sandbox, sizeof(sandbox), "/tmp/sysfuzz.%d", getpid());
	mkdir(sandbox, 0755);
	printf("sysfuzz: seed %#lx, %ld calls over %d workers as uid %d, %d system calls to "
	       "choose from\n",
	       seed, total_calls, nworkers, (int)worker_uid(), ncalls);
	fflush(stdout);

	if (!adopt_strays()) {
		printf("sysfuzz: cannot become a child subreaper: %s\nsysfuzz: 0 passed, 1 failed\n",
		       strerror(errno));
		return 1;
	}
	storm();
	int strays = end_strays(UNKILLABLE_S);
	char survivor[160] = "";
	bool escaped = worker_uid() != getuid() &&
		       find_users_process(worker_uid(), survivor, sizeof(survivor));
	remove_tree(sandbox);
	remove_strays();
	int sysv_left = remove_sysv_objects(), queues_left = remove_message_queues();
	const char *broken = kernel_still_works();
	printf("sysfuzz: %lu calls; %lu workers died of their own calls, %lu hung and were killed, "
	       "%lu restarted\n",
	       totals.calls, totals.died, totals.hung, totals.restarted);
	printf("sysfuzz: the workers left %d System V objects and %d message queues, removed\n",
	       sysv_left, queues_left);
	if (totals.overwritten)
		printf("sysfuzz: %lu workers overwrote their own report (counted as died)\n",
		       totals.overwritten);
	if (totals.fork_failed)
		printf("sysfuzz: %lu forks of a worker failed (tried again)\n", totals.fork_failed);
	if (totals.unkillable)
		printf("sysfuzz: FAIL a worker stayed alive %d s after SIGKILL, in %s (seed %#lx)\n",
		       UNKILLABLE_S, call_name(totals.unkillable_call), seed);
	printf("sysfuzz: %d processes the workers left (strays, or their ends) reaped after the storm\n",
	       strays < 0 ? 0 : strays);
	if (strays < 0)
		printf("sysfuzz: FAIL a stray process stayed alive %d s after SIGKILL (seed %#lx)\n",
		       UNKILLABLE_S, seed);
	if (escaped)
		printf("sysfuzz: FAIL a process of uid %d outlived the storm and its clean-up: %s "
		       "(seed %#lx)\n",
		       (int)worker_uid(), survivor, seed);
	if (broken)
		printf("sysfuzz: FAIL after the storm %s (seed %#lx)\n", broken, seed);
	if (totals.setup_failed)
		printf("sysfuzz: FAIL a worker could not enter its sandbox as uid %d: %s: %s\n",
		       (int)worker_uid(),
		       totals.setup_step < sizeof(sandbox_steps) / sizeof(sandbox_steps[0])
			       ? sandbox_steps[totals.setup_step]
			       : "?",
		       strerror(totals.setup_errno));
	bool ok = !totals.unkillable && !broken && !totals.setup_failed && strays >= 0 && !escaped;
	printf("sysfuzz: %d passed, %d failed\n", ok, !ok);
	return ok ? 0 : 1;
}
